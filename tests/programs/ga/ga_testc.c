/* The flow of GA's testc, in this project's words: an n x n double array
 * (created with the Fortran type code), rows put by their owners in turn,
 * symmetrize, transpose, add and dot, then every rank accumulates into one
 * row, which must end as nproc*i. Prints "ga_testc: N passed, M failed". */
#include <mpi.h>
#include <stdlib.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define NN 64

static double absd(double x) { return x < 0 ? -x : x; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    MA_init(MT_F_DBL, 100000, 100000);
    int me = GA_Nodeid(), np = GA_Nnodes();
    tally_who = me;
    int dims[2] = {NN, NN};
    int a = NGA_Create(MT_F_DBL, 2, dims, "A", NULL);
    if (!a) GA_Error("create failed: A", NN);
    int b = GA_Duplicate(a, "B");
    if (!b) GA_Error("duplicate failed: B", NN);
    GA_Zero(a);

    /* Rows put by rank (row mod nproc). */
    double row[NN];
    for (int i = me; i < NN; i += np) {
        for (int j = 0; j < NN; j++) row[j] = (double)(i * NN + j);
        int lo[2] = {i, 0}, hi[2] = {i, NN - 1};
        NGA_Put(a, lo, hi, row, NULL);
    }
    GA_Sync();
    /* Every rank checks a few rows owned elsewhere. */
    int bad = 0;
    for (int i = (me + 1) % np; i < NN; i += np) {
        int lo[2] = {i, 0}, hi[2] = {i, NN - 1};
        NGA_Get(a, lo, hi, row, NULL);
        for (int j = 0; j < NN; j++) bad += row[j] != (double)(i * NN + j);
    }
    CHECK(bad == 0, "rows after put: %d wrong", bad);

    /* Symmetrize: a(i,j) = (i*n+j + j*n+i)/2. */
    GA_Symmetrize(a);
    double *all = malloc(sizeof(double) * NN * NN);
    int lo[2] = {0, 0}, hi[2] = {NN - 1, NN - 1}, ld[1] = {NN};
    NGA_Get(a, lo, hi, all, ld);
    double err = 0;
    for (int i = 0; i < NN; i++)
        for (int j = 0; j < NN; j++) err += absd(all[i * NN + j] - 0.5 * ((i * NN + j) + (j * NN + i)));
    CHECK(err == 0.0, "symmetrize error %g", err);

    /* Transpose of a symmetric array is itself: b - a == 0. */
    GA_Transpose(a, b);
    double one = 1.0, minus = -1.0;
    GA_Add(&one, a, &minus, b, b);
    double dd = GA_Ddot(b, b);
    CHECK(dd == 0.0, "ddot of (a - transpose(a)) = %g", dd);
    double daa = GA_Ddot(a, a), want = 0;
    for (int k = 0; k < NN * NN; k++) want += all[k] * all[k];
    CHECK(absd(daa - want) <= 1e-9 * want, "ddot(a,a) %.10g want %.10g", daa, want);

    /* Everyone accumulates i into element (0,i): the row ends as np*i. */
    GA_Zero(a);
    for (int j = 0; j < NN; j++) row[j] = (double)j;
    int rlo[2] = {0, 0}, rhi[2] = {0, NN - 1};
    NGA_Acc(a, rlo, rhi, row, NULL, &one);
    GA_Sync();
    NGA_Get(a, rlo, rhi, row, NULL);
    bad = 0;
    for (int j = 0; j < NN; j++) bad += row[j] != (double)(np * j);
    CHECK(bad == 0, "accumulate into one row from %d ranks: %d columns wrong", np, bad);

    free(all);
    GA_Destroy(b);
    GA_Destroy(a);
    return finish_ga("ga_testc", me);
}
