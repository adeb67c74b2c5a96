/* Global Arrays C API: mirrored arrays. Arrays made on the mirror group
 * (GA_Pgroup_get_mirror) have one copy per node; GA_Is_mirrored tells
 * them apart, NGA_Merge_distr_patch adds the copies' patches into an
 * ordinary array, GA_Merge_mirrored/NGA_Merge_mirrored leave the sum of
 * the copies in every copy. Every rank checks every value against the
 * model: with K nodes, a sum of copies is K times a copy, and an
 * accumulate of 1 by every rank into its node's copy adds, once merged,
 * the number of ranks. Rank 0 prints a few values, then
 * "ga_mirror: N passed, M failed". */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 7
#define C 5

static double model(int i, int j) { return 1.0 + i * C + j; }

/* The first rank of this process's node writes the model into the node's
 * copy of the double array m (int array when ints). */
static void fill(int m, int ints) {
    int me = GA_Nodeid(), node = GA_Cluster_nodeid();
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
    double d[R][C];
    int v[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            d[i][j] = model(i, j);
            v[i][j] = (int)model(i, j);
        }
    GA_Sync();
    if (GA_Cluster_procid(node, 0) == me) NGA_Put(m, lo, hi, ints ? (void *)v : (void *)d, ld);
    GA_Sync();
}

static void check_copy(const char *what, int g, double factor, double extra) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
    double d[R][C];
    NGA_Get(g, lo, hi, d, ld);
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            double want = factor * model(i, j) + (i == 0 && j == 0 ? extra : 0.0);
            bad += d[i][j] != want;
        }
    CHECK(bad == 0, "%s: %d elements differ from the model", what, bad);
    if (GA_Nodeid() == 0) printf("%s: %.1f %.1f %.1f\n", what, d[0][0], d[1][2], d[R - 1][C - 1]);
}

int main(int argc, char **argv) {
    int np, me = start_ga(&argc, &argv, &np, 10000);
    int nodes = GA_Cluster_nnodes();
    int dims[2] = {R, C};
    int mirror = GA_Pgroup_get_mirror();
    int m = NGA_Create_config(C_DBL, 2, dims, "M", NULL, mirror);
    int d = NGA_Create(C_DBL, 2, dims, "D", NULL);
    int mi = NGA_Create_config(C_INT, 2, dims, "MI", NULL, mirror);
    CHECK(m != 0 && d != 0 && mi != 0, "arrays made");
    EXPECT(GA_Is_mirrored(m), 1);
    EXPECT(NGA_Is_mirrored(mi), 1);
    EXPECT(GA_Is_mirrored(d), 0);

    /* Each node's copy holds what its node wrote. */
    fill(m, 0);
    check_copy("copy", m, 1.0, 0.0);

    /* The sum of the copies into an ordinary array, whole and a patch. */
    GA_Zero(d);
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1};
    NGA_Merge_distr_patch(m, lo, hi, d, lo, hi);
    check_copy("merged into D", d, nodes, 0.0);
    int64_t alo[2] = {1, 0}, ahi[2] = {3, 2}, blo[2] = {4, 2}, bhi[2] = {6, 4};
    GA_Zero(d);
    NGA_Merge_distr_patch64(m, alo, ahi, d, blo, bhi);
    {
        int plo[2] = {4, 2}, phi[2] = {6, 4}, ld[1] = {3};
        double p[3][3];
        NGA_Get(d, plo, phi, p, ld);
        int bad = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) bad += p[i][j] != nodes * model(1 + i, j);
        CHECK(bad == 0, "patch merge: %d elements differ", bad);
        double total = GA_Ddot(d, d), want = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) want += nodes * model(1 + i, j) * nodes * model(1 + i, j);
        CHECK(total == want, "patch merge wrote outside the patch (%g != %g)", total, want);
        if (me == 0) printf("patch merged into D: %.1f %.1f\n", p[0][0], p[2][2]);
    }

    /* Every copy becomes the sum; then an accumulate per rank, merged. */
    GA_Merge_mirrored(m);
    check_copy("merged in place", m, nodes, 0.0);
    {
        int one[2] = {0, 0}, ld[1] = {1};
        double x = 1.0, alpha = 1.0;
        GA_Sync(); /* every rank has read the copy */
        NGA_Acc(m, one, one, &x, ld, &alpha);
        GA_Sync();
    }
    NGA_Merge_mirrored(m);
    check_copy("accumulated and merged", m, (double)nodes * nodes, np);

    /* Integers. */
    fill(mi, 1);
    GA_Merge_mirrored(mi);
    {
        int v[R][C], ld[1] = {C}, bad = 0;
        NGA_Get(mi, lo, hi, v, ld);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) bad += v[i][j] != nodes * (int)model(i, j);
        CHECK(bad == 0, "int merge: %d elements differ", bad);
        if (me == 0) printf("int merged: %d %d\n", v[0][0], v[R - 1][C - 1]);
    }

    GA_Destroy(mi);
    GA_Destroy(d);
    GA_Destroy(m);
    return finish_ga("ga_mirror", me);
}
