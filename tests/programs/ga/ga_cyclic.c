/* Block-cyclic arrays: GA_Set_block_cyclic, GA_Set_block_cyclic_proc_grid
 * and GA_Set_tiled_proc_grid on a 7x5 double array in 2x2 blocks, and
 * GA_Set_block_cyclic on a 3-D int array. For each, rank 0 prints the
 * block grid, NGA_Distribution of every block, NGA_Locate of every
 * element and NGA_Locate_region of a patch; every rank checks NGA_Put,
 * NGA_Get and NGA_Acc against a serial model, reads and changes its own
 * blocks in place (NGA_Access_block, or NGA_Access_block_grid for arrays
 * with a process grid, through the ld it is given), and GA_Fill, GA_Scale,
 * GA_Copy and GA_Ddot work on them. Each rank's record holds its segment's
 * length and the sum over its blocks. With the argument "layout" only
 * the layout lines are printed and checked. Prints "ga_cyclic: N passed, M
 * failed" on rank 0 (checks of all ranks). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_record.h"

#define R 7
#define C 5
#define NV 12

static int me, np;
/* With the argument "layout", only the layout is printed (no data moves):
 * Debian's GA 5.8 on ARMCI-MPI runs that part right. */
static int layout_only;
static long rec[8 * NV];
static int nrec;

static double model(int i, int j) { return 100.0 * i + j + 0.25; }

/* Process holding block (bi, bj) of a 2-D array with nb[1] block columns. */
static int holder(int kind, int bi, int bj, const int nb[2], const int pg[2]) {
    if (kind == 0) return (bi * nb[1] + bj) % np;
    return (bi % pg[0]) * pg[1] + (bj % pg[1]);
}

static void whole_get(int g, double all[R][C]) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
    NGA_Get(g, lo, hi, all, &ld);
}

static void two_d(int kind, const char *label) {
    int dims[2] = {R, C}, blk[2] = {2, 2};
    int pg[2] = {1, np};
    if (np == 2) { pg[0] = 2; pg[1] = 1; }
    if (np == 4) { pg[0] = 2; pg[1] = 2; }
    int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_array_name(g, (char *)label);
    if (kind == 0) GA_Set_block_cyclic(g, blk);
    if (kind == 1) GA_Set_block_cyclic_proc_grid(g, blk, pg);
    if (kind == 2) GA_Set_tiled_proc_grid(g, blk, pg);
    CHECK(GA_Allocate(g) == 1, "%s allocated", label);
    int nb[2] = {0, 0}, bd[2] = {0, 0};
    GA_Get_block_info(g, nb, bd);
    int total = GA_Total_blocks(g);
    CHECK_EQ(total, nb[0] * nb[1], "total blocks");
    if (me == 0) {
        printf("%s: %d blocks (%d x %d) of %d x %d\n", label, total, nb[0], nb[1], bd[0], bd[1]);
        for (int b = 0; b < total; b++) {
            int lo[2], hi[2];
            NGA_Distribution(g, b, lo, hi);
            printf("%s block %d: [%d:%d,%d:%d]\n", label, b, lo[0], hi[0], lo[1], hi[1]);
        }
        for (int i = 0; i < R; i++) {
            printf("%s locate row %d:", label, i);
            for (int j = 0; j < C; j++) {
                int s[2] = {i, j};
                printf(" %d", NGA_Locate(g, s));
            }
            printf("\n");
        }
        int lo[2] = {1, 1}, hi[2] = {5, 3}, map[4 * 64], procs[64];
        int n = NGA_Locate_region(g, lo, hi, map, procs);
        printf("%s region [1:5,1:3] meets %d:", label, n);
        for (int k = 0; k < n; k++)
            printf(" %d=[%d:%d,%d:%d]", procs[k], map[4 * k], map[4 * k + 2], map[4 * k + 1],
                   map[4 * k + 3]);
        printf(" (num_blocks %d)\n", NGA_Locate_num_blocks(g, lo, hi));
        fflush(stdout);
    }
    if (layout_only) {
        GA_Destroy(g);
        return;
    }

    /* Put from rank 0, get everywhere. */
    double v[R][C], all[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) v[i][j] = model(i, j);
    GA_Zero(g);
    GA_Sync();
    if (me == 0) {
        int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
        NGA_Put(g, lo, hi, v, &ld);
    }
    GA_Sync();
    whole_get(g, all);
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) bad += all[i][j] != model(i, j);
    CHECK_EQ(bad, 0, "values after put");
    GA_Sync();

    /* Every rank adds (me + 1) * 1.0 on [1:5,1:3]. */
    {
        double ones[5][3];
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 3; j++) ones[i][j] = 1.0;
        int lo[2] = {1, 1}, hi[2] = {5, 3}, ld = 3;
        double alpha = me + 1;
        NGA_Acc(g, lo, hi, ones, &ld, &alpha);
    }
    GA_Sync();
    whole_get(g, all);
    double add = np * (np + 1) / 2.0;
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            double want = model(i, j) + ((i >= 1 && i <= 5 && j >= 1 && j <= 3) ? add : 0);
            bad += all[i][j] != want;
        }
    CHECK_EQ(bad, 0, "values after acc");
    GA_Sync();

    /* Own blocks in place: read through ld, then add 0.5 to each. */
    double sum = 0;
    int mine = 0, wrong = 0;
    for (int bi = 0; bi < nb[0]; bi++)
        for (int bj = 0; bj < nb[1]; bj++) {
            if (holder(kind, bi, bj, nb, pg) != me) continue;
            int b = bi * nb[1] + bj, lo[2], hi[2], ld[1] = {-1};
            double *p = NULL;
            NGA_Distribution(g, b, lo, hi);
            if (kind == 0) NGA_Access_block(g, b, &p, ld);
            else {
                int idx[2] = {bi, bj};
                NGA_Access_block_grid(g, idx, &p, ld);
            }
            mine++;
            for (int i = lo[0]; i <= hi[0]; i++)
                for (int j = lo[1]; j <= hi[1]; j++) {
                    double x = p[(i - lo[0]) * ld[0] + (j - lo[1])];
                    wrong += x != all[i][j];
                    sum += x;
                    p[(i - lo[0]) * ld[0] + (j - lo[1])] = x + 0.5;
                }
            if (kind == 0) NGA_Release_update_block(g, b);
            else {
                int idx[2] = {bi, bj};
                NGA_Release_update_block_grid(g, idx);
            }
        }
    CHECK_EQ(wrong, 0, "own blocks read in place");
    {
        double *p = NULL;
        int len = -1;
        NGA_Access_block_segment(g, me, &p, &len);
        rec[me * NV + nrec] = len;
        NGA_Release_block_segment(g, me);
    }
    rec[me * NV + nrec + 1] = mine;
    rec[me * NV + nrec + 2] = (long)(4 * sum);
    nrec += 3;
    GA_Sync();
    whole_get(g, all);
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            double want = model(i, j) + ((i >= 1 && i <= 5 && j >= 1 && j <= 3) ? add : 0) + 0.5;
            bad += all[i][j] != want;
        }
    CHECK_EQ(bad, 0, "values after the in-place update");
    GA_Sync();

    /* Whole-array operations. */
    double two = 2.0, three = 3.0;
    GA_Fill(g, &two);
    GA_Scale(g, &three);
    double d = GA_Ddot(g, g);
    CHECK(d == 36.0 * R * C, "ddot of a filled, scaled array: %g", d);
    int regular = NGA_Create(C_DBL, 2, dims, "regular", NULL);
    if (me == 0) {
        int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
        NGA_Put(regular, lo, hi, v, &ld);
    }
    GA_Sync();
    GA_Copy(regular, g);
    whole_get(g, all);
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) bad += all[i][j] != model(i, j);
    CHECK_EQ(bad, 0, "values after GA_Copy from a regular array");
    double dr = GA_Ddot(g, regular);
    if (me == 0) printf("%s ddot with a regular copy %.4f\n", label, dr);
    GA_Destroy(regular);
    GA_Destroy(g);
}

static void three_d(void) {
    int dims[3] = {5, 4, 3}, blk[3] = {2, 3, 2};
    int g = GA_Create_handle();
    GA_Set_data(g, 3, dims, C_INT);
    GA_Set_array_name(g, "cyclic3");
    GA_Set_block_cyclic(g, blk);
    CHECK(GA_Allocate(g) == 1, "cyclic3 allocated");
    int total = GA_Total_blocks(g);
    if (me == 0) {
        printf("cyclic3: %d blocks\n", total);
        for (int b = 0; b < total; b++) {
            int lo[3], hi[3];
            NGA_Distribution(g, b, lo, hi);
            printf("cyclic3 block %d: [%d:%d,%d:%d,%d:%d]\n", b, lo[0], hi[0], lo[1], hi[1],
                   lo[2], hi[2]);
        }
    }
    if (layout_only) {
        GA_Destroy(g);
        return;
    }
    int v[5][4][3], w[5][4][3];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 3; k++) v[i][j][k] = 100 * i + 10 * j + k;
    GA_Zero(g);
    GA_Sync();
    int lo[3] = {0, 0, 0}, hi[3] = {4, 3, 2}, ld[2] = {4, 3};
    if (me == np - 1) NGA_Put(g, lo, hi, v, ld);
    GA_Sync();
    int one[3][2][2], alpha = 2;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) one[i][j][k] = 1;
    int alo[3] = {1, 1, 1}, ahi[3] = {3, 2, 2}, ald[2] = {2, 2};
    NGA_Acc(g, alo, ahi, one, ald, &alpha);
    GA_Sync();
    NGA_Get(g, lo, hi, w, ld);
    GA_Sync();
    int bad = 0;
    long s = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 3; k++) {
                int in = i >= 1 && i <= 3 && j >= 1 && j <= 2 && k >= 1;
                bad += w[i][j][k] != v[i][j][k] + (in ? 2 * np : 0);
                s += w[i][j][k];
            }
    CHECK_EQ(bad, 0, "3-D values after put and acc");
    int sub[3] = {4, 3, 2};
    long old = NGA_Read_inc(g, sub, 5);
    CHECK(old >= 432 && old < 432 + 5 * np && (old - 432) % 5 == 0,
          "read-increment's old value %ld", old);
    GA_Sync();
    int after = 0;
    NGA_Get(g, sub, sub, &after, ld);
    CHECK_EQ(after, 432 + 5 * np, "read-increment's sum");
    rec[me * NV + nrec] = s;
    nrec++;
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    me = start_ga_record(&argc, &argv, &np);
    MA_init(C_DBL, 100000, 100000);
    layout_only = argc > 1 && strcmp(argv[1], "layout") == 0;
    memset(rec, 0, sizeof rec);
    two_d(0, "block_cyclic");
    two_d(1, "proc_grid");
    two_d(2, "tiled");
    three_d();
    return finish_ga_record("ga_cyclic", rec, NV, nrec, me, np);
}
