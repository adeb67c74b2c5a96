/* NGA_Strided_put/get/acc and their int64_t forms, with a skip in every
 * dimension: on a 3-D double array, a 2-D int array (skip 1 in one
 * dimension, then the other) and a 1-D long array. Every rank checks the
 * selected elements against a serial model, checks that the elements
 * between them and the padding of the user's buffer are untouched, and
 * rank 0 prints a digest of each array after each step, so the harness can
 * compare the run with Debian's GA running this same source. Prints
 * "ga_strided: N passed, M failed" on rank 0 (checks of all ranks). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define A0 11
#define A1 10
#define A2 9

static int me, np;

static double f3(int i, int j, int k) { return 1000.0 * i + 10.0 * j + k + 0.5; }

/* Prints a position-weighted sum of the whole array (rank 0). */
static void digest3(int g, const char *step) {
    static double all[A0][A1][A2];
    int lo[3] = {0, 0, 0}, hi[3] = {A0 - 1, A1 - 1, A2 - 1}, ld[2] = {A1, A2};
    NGA_Get(g, lo, hi, all, ld);
    double s = 0;
    for (int i = 0; i < A0; i++)
        for (int j = 0; j < A1; j++)
            for (int k = 0; k < A2; k++) s += all[i][j][k] * (1 + (i * A1 + j) * A2 + k);
    if (me == 0) printf("%-28s %.2f\n", step, s);
}

static void three_d(void) {
    int dims[3] = {A0, A1, A2};
    int g = NGA_Create(C_DBL, 3, dims, "strided3", NULL);
    CHECK(g != 0, "NGA_Create 3-D");
    static double model[A0][A1][A2];
    for (int i = 0; i < A0; i++)
        for (int j = 0; j < A1; j++)
            for (int k = 0; k < A2; k++) model[i][j][k] = f3(i, j, k);
    int lo[3] = {0, 0, 0}, hi[3] = {A0 - 1, A1 - 1, A2 - 1}, ld[2] = {A1, A2};
    if (me == 0) NGA_Put(g, lo, hi, model, ld);
    GA_Sync();
    digest3(g, "3d filled");

    /* Get: rows 1,4,7,10; columns 0,2,4,6,8; planes 2,5,8 into a padded
     * 4 x 7 x 5 buffer (ld = {7, 5}). */
    int slo[3] = {1, 0, 2}, shi[3] = {10, 9, 8}, skip[3] = {3, 2, 3}, sld[2] = {7, 5};
    double buf[4][7][5];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < 5; c++) buf[a][b][c] = -7.0;
    NGA_Strided_get(g, slo, shi, skip, buf, sld);
    int bad = 0, pad = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < 5; c++) {
                if (b < 5 && c < 3)
                    bad += buf[a][b][c] != f3(1 + 3 * a, 2 * b, 2 + 3 * c);
                else
                    pad += buf[a][b][c] != -7.0;
            }
    CHECK(bad == 0, "3-D strided get: %d wrong", bad);
    CHECK(pad == 0, "3-D strided get wrote %d padding elements", pad);
    GA_Sync();

    /* Put by the last rank: selected elements take new values, the rest
     * keep theirs. hi is not on the lattice (9 with skip 4 from 0). */
    int plo[3] = {0, 1, 0}, phi[3] = {9, 9, 8}, pskip[3] = {4, 4, 2}, pld[2] = {3, 5};
    double pbuf[3][3][5];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 5; c++) pbuf[a][b][c] = -(100.0 * a + 10.0 * b + c);
    if (me == np - 1) NGA_Strided_put(g, plo, phi, pskip, pbuf, pld);
    GA_Sync();
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 5; c++) model[4 * a][1 + 4 * b][2 * c] = pbuf[a][b][c];
    static double all[A0][A1][A2];
    NGA_Get(g, lo, hi, all, ld);
    bad = 0;
    for (int i = 0; i < A0; i++)
        for (int j = 0; j < A1; j++)
            for (int k = 0; k < A2; k++) bad += all[i][j][k] != model[i][j][k];
    CHECK(bad == 0, "3-D strided put: %d elements differ from the model", bad);
    digest3(g, "3d after strided put");

    GA_Sync(); /* every rank has read the array before it changes again */

    /* Accumulate from every rank: alpha 0.5 times (rank + 1). */
    int alo[3] = {2, 3, 1}, ahi[3] = {10, 9, 7}, askip[3] = {2, 3, 3}, ald[2] = {3, 3};
    double abuf[5][3][3];
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) abuf[a][b][c] = (me + 1) * (1.0 + a + 2 * b + 4 * c);
    double alpha = 0.5;
    NGA_Strided_acc(g, alo, ahi, askip, abuf, ald, &alpha);
    GA_Sync();
    double ranks = np * (np + 1) / 2.0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++)
                model[2 + 2 * a][3 + 3 * b][1 + 3 * c] += 0.5 * ranks * (1.0 + a + 2 * b + 4 * c);
    NGA_Get(g, lo, hi, all, ld);
    bad = 0;
    for (int i = 0; i < A0; i++)
        for (int j = 0; j < A1; j++)
            for (int k = 0; k < A2; k++) bad += all[i][j][k] != model[i][j][k];
    CHECK(bad == 0, "3-D strided acc from %d ranks: %d elements differ", np, bad);
    digest3(g, "3d after strided acc");
    GA_Destroy(g);
}

#define B0 17
#define B1 13

static void two_d_int64(void) {
    int64_t dims[2] = {B0, B1};
    int g = NGA_Create64(C_INT, 2, dims, "strided2", NULL);
    CHECK(g != 0, "NGA_Create64 2-D int");
    int zero = 0;
    GA_Fill(g, &zero);
    int model[B0][B1];
    memset(model, 0, sizeof model);
    /* Skip 1 in the last dimension (whole row pieces), from rank 0. */
    int64_t lo[2] = {1, 2}, hi[2] = {15, 10}, skip[2] = {2, 1}, ld[1] = {9};
    int rows[8][9];
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 9; b++) rows[a][b] = 1 + a * 9 + b;
    if (me == 0) NGA_Strided_put64(g, lo, hi, skip, rows, ld);
    GA_Sync();
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 9; b++) model[1 + 2 * a][2 + b] = rows[a][b];
    /* Skip 1 in the first dimension, accumulated by every rank. */
    int64_t alo[2] = {0, 0}, ahi[2] = {16, 12}, askip[2] = {1, 4}, ald[1] = {4};
    int cols[17][4];
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 4; b++) cols[a][b] = a + 100 * b;
    int alpha = 3;
    NGA_Strided_acc64(g, alo, ahi, askip, cols, ald, &alpha);
    GA_Sync();
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 4; b++) model[a][4 * b] += 3 * np * cols[a][b];
    int all[B0][B1];
    int64_t flo[2] = {0, 0}, fhi[2] = {B0 - 1, B1 - 1}, fld[1] = {B1};
    NGA_Get64(g, flo, fhi, all, fld);
    int bad = 0;
    long s = 0;
    for (int i = 0; i < B0; i++)
        for (int j = 0; j < B1; j++) {
            bad += all[i][j] != model[i][j];
            s += (long)all[i][j] * (1 + i * B1 + j);
        }
    CHECK(bad == 0, "2-D int strided put64/acc64: %d elements differ", bad);
    if (me == 0) printf("%-28s %ld\n", "2d int after put64/acc64", s);
    /* Get with skips in both dimensions, ld 1 for a single selected row. */
    int64_t glo[2] = {3, 1}, ghi[2] = {4, 12}, gskip[2] = {5, 3}, gld[1] = {1};
    int got[4] = {-1, -1, -1, -1};
    NGA_Strided_get64(g, glo, ghi, gskip, got, gld);
    bad = 0;
    for (int b = 0; b < 4; b++) bad += got[b] != model[3][1 + 3 * b];
    CHECK(bad == 0, "2-D int strided get64 of one selected row: %d wrong", bad);
    GA_Destroy(g);
}

#define C0 40

static void one_d_long(void) {
    int dims[1] = {C0};
    int g = NGA_Create(C_LONG, 1, dims, "strided1", NULL);
    CHECK(g != 0, "NGA_Create 1-D long");
    long zero = 0;
    GA_Fill(g, &zero);
    int lo[1] = {3}, hi[1] = {38}, skip[1] = {5};
    long v[8];
    for (int a = 0; a < 8; a++) v[a] = 1000 + a;
    if (me == 0) NGA_Strided_put(g, lo, hi, skip, v, NULL);
    GA_Sync();
    long alpha = 2;
    NGA_Strided_acc(g, lo, hi, skip, v, NULL, &alpha);
    GA_Sync();
    long back[8];
    NGA_Strided_get(g, lo, hi, skip, back, NULL);
    int bad = 0;
    for (int a = 0; a < 8; a++) bad += back[a] != (1 + 2 * np) * v[a];
    CHECK(bad == 0, "1-D long strided put/acc/get: %d wrong", bad);
    long all[C0];
    int flo[1] = {0}, fhi[1] = {C0 - 1};
    NGA_Get(g, flo, fhi, all, NULL);
    bad = 0;
    for (int i = 0; i < C0; i++)
        if ((i - 3) % 5 != 0 || i < 3) bad += all[i] != 0;
    CHECK(bad == 0, "1-D long: %d elements between the selected ones changed", bad);
    long s = 0;
    for (int i = 0; i < C0; i++) s += all[i] * (i + 1);
    if (me == 0) printf("%-28s %ld\n", "1d long after put/acc", s);
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    me = GA_Nodeid();
    np = GA_Nnodes();
    tally_who = me;
    if (argc > 1 && strcmp(argv[1], "badskip") == 0) {
        int dims[2] = {6, 6}, lo[2] = {0, 0}, hi[2] = {5, 5}, skip[2] = {1, 0}, ld[1] = {6};
        int g = NGA_Create(C_DBL, 2, dims, "skipped", NULL);
        double buf[36];
        NGA_Strided_get(g, lo, hi, skip, buf, ld);
        printf("the bad call returned\n");
        GA_Terminate();
        MPI_Finalize();
        return 0;
    }
    three_d();
    two_d_int64();
    one_d_long();
    return finish_ga("ga_strided", me);
}
