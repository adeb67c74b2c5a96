/* Arrays on processor groups: the world is split into two groups of
 * consecutive ranks, and each group makes, uses and destroys arrays of its
 * own while the other group does the same with different shapes and
 * values: NGA_Create_config, GA_Set_pgroup with GA_Create_handle and
 * GA_Allocate, creation under a default group, GA_Duplicate. On them:
 * distribution and locate queries (process ids count in the group),
 * NGA_Access, put and get, GA_Fill, GA_Scale, GA_Copy, GA_Ddot,
 * NGA_Read_inc, GA_Zero, group syncs. A world array made afterwards still
 * works on every rank. Each rank records what it saw; rank 0 prints one
 * line per rank, so the harness can compare with Debian's GA running this
 * source. Prints "ga_group_arrays: N passed, M failed" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_record.h"

#define NV 24
#define ROWS 6
#define COLS 8

/* The value the group led by world rank `first` stores at (i, j). */
static double value_of(int first, int i, int j) {
    return 1000.0 * (first + 1) + i * COLS + j;
}

int main(int argc, char **argv) {
    int np, me = start_ga_record(&argc, &argv, &np);
    long v[8][NV] = {{0}};
    long *mine = v[me];
    int k = 0;

    int s = GA_Pgroup_split(GA_Pgroup_get_world(), 2);
    int gme = GA_Pgroup_nodeid(s), gn = GA_Pgroup_nnodes(s);
    int first = GA_Pgroup_absolute_id(s, 0);
    mine[k++] = gme;
    mine[k++] = gn;

    /* A 2-D array on the group, filled through NGA_Access. */
    int dims[2] = {ROWS, COLS};
    int a = NGA_Create_config(C_DBL, 2, dims, "on-group", NULL, s);
    CHECK(a != 0, "NGA_Create_config on group %d", s);
    CHECK_EQ(GA_Get_pgroup(a), s, "GA_Get_pgroup of an array made on a group");
    int lo[2], hi[2], ld[1];
    NGA_Distribution(a, gme, lo, hi);
    mine[k++] = lo[0];
    mine[k++] = lo[1];
    mine[k++] = hi[0];
    mine[k++] = hi[1];
    int corner[2] = {ROWS - 1, COLS - 1};
    mine[k++] = NGA_Locate(a, corner);
    if (lo[0] >= 0) {
        double *p;
        NGA_Access(a, lo, hi, &p, ld);
        for (int i = lo[0]; i <= hi[0]; i++)
            for (int j = lo[1]; j <= hi[1]; j++)
                p[(i - lo[0]) * ld[0] + (j - lo[1])] = value_of(first, i, j);
        NGA_Release_update(a, lo, hi);
    }
    GA_Pgroup_sync(s);

    /* Group rank 0 overwrites a patch; everyone in the group reads all. */
    if (gme == 0) {
        double patch[2][2] = {{-1, -2}, {-3, -4}};
        int plo[2] = {1, 3}, phi[2] = {2, 4}, pld[1] = {2};
        NGA_Put(a, plo, phi, patch, pld);
    }
    GA_Pgroup_sync(s);
    double all[ROWS][COLS];
    int alo[2] = {0, 0}, ahi[2] = {ROWS - 1, COLS - 1}, ald[1] = {COLS};
    NGA_Get(a, alo, ahi, all, ald);
    int bad = 0;
    double sum2 = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            double want = value_of(first, i, j);
            if (i >= 1 && i <= 2 && j >= 3 && j <= 4) want = -((i - 1) * 2 + (j - 3) + 1);
            if (all[i][j] != want) bad++;
            sum2 += want * want;
        }
    CHECK_EQ(bad, 0, "elements of the group's array as its members wrote them");
    double dot = GA_Ddot(a, a);
    CHECK(dot == sum2, "GA_Ddot over the group: %g, want %g", dot, sum2);
    mine[k++] = (long)dot;

    /* Duplicate, copy and scale stay on the group. */
    int b = GA_Duplicate(a, "copy");
    CHECK(b != 0, "GA_Duplicate of a group array");
    CHECK_EQ(GA_Get_pgroup(b), s, "the duplicate's group");
    GA_Copy(a, b);
    double two = 2.0;
    GA_Scale(b, &two);
    double x = 0;
    int at[2] = {ROWS - 1, 0};
    NGA_Get(b, at, at, &x, ald);
    CHECK(x == 2 * value_of(first, ROWS - 1, 0), "scaled copy: %g", x);
    mine[k++] = (long)x;
    GA_Destroy(b);

    /* A counter on the group: each member adds 1. */
    int one[1] = {1};
    int c = NGA_Create_config(C_INT, 1, one, "counter", NULL, s);
    GA_Zero(c);
    int zero[1] = {0};
    long old = NGA_Read_inc(c, zero, 1);
    CHECK(old >= 0 && old < gn, "read-increment's old value %ld", old);
    GA_Pgroup_sync(s);
    int total = -1;
    NGA_Get(c, zero, zero, &total, one);
    CHECK_EQ(total, gn, "the counter after one increment per member");
    mine[k++] = total;
    GA_Destroy(c);

    /* GA_Set_pgroup: a long array from a handle, on the halves again, or
     * with the argument "crossing" on odd and even ranks (groups that
     * straddle the halves, whose arrays still exist). */
    int crossing = argc > 1 && strcmp(argv[1], "crossing") == 0;
    int e = crossing ? GA_Pgroup_split_irreg(GA_Pgroup_get_world(), me % 2) : s;
    int en = GA_Pgroup_nnodes(e), eme = GA_Pgroup_nodeid(e);
    int h = GA_Create_handle();
    int hd[1] = {10};
    GA_Set_data(h, 1, hd, C_LONG);
    GA_Set_array_name(h, "by-handle");
    GA_Set_pgroup(h, e);
    CHECK_EQ(GA_Allocate(h), 1, "GA_Allocate on a group");
    CHECK_EQ(GA_Get_pgroup(h), e, "group of an array from GA_Set_pgroup");
    GA_Fill(h, &(long){-5});
    int hl[1] = {eme}, hh[1] = {eme};
    int eid = crossing ? me % 2 : first;
    long tag = 100 * eid + eme;
    NGA_Put(h, hl, hh, &tag, one);
    GA_Pgroup_sync(e);
    long got[10];
    int h0[1] = {0}, h9[1] = {9};
    NGA_Get(h, h0, h9, got, one);
    int hbad = 0;
    for (int i = 0; i < 10; i++) {
        long want = i < en ? 100 * eid + i : -5;
        if (got[i] != want) hbad++;
    }
    CHECK_EQ(hbad, 0, "elements of the array from GA_Set_pgroup");
    int last[1] = {9};
    mine[k++] = NGA_Locate(h, last);

    /* Under a default group, plain creation and GA_Nodeid use the group. */
    GA_Pgroup_set_default(s);
    CHECK_EQ(GA_Nodeid(), gme, "GA_Nodeid under the default group");
    int dd[1] = {5};
    int d = NGA_Create(C_DBL, 1, dd, "on-default", NULL);
    CHECK(d != 0, "NGA_Create under a default group");
    CHECK_EQ(GA_Get_pgroup(d), s, "group of an array made under a default group");
    double half = first + 0.5;
    GA_Fill(d, &half);
    GA_Sync();
    int d4[1] = {4};
    double y = 0;
    NGA_Get(d, d4, d4, &y, one);
    CHECK(y == half, "filled under the default group: %g", y);
    int dlo[1], dhi[1];
    NGA_Distribution(d, gme, dlo, dhi);
    mine[k++] = dlo[0] * 10 + dhi[0];
    GA_Destroy(d);
    GA_Pgroup_set_default(GA_Pgroup_get_world());

    /* A world array after all that. */
    int wd[1] = {np};
    int w = NGA_Create(C_LONG, 1, wd, "world", NULL);
    CHECK_EQ(GA_Get_pgroup(w), -1, "group of a world array");
    long mv = 7L * me + 1;
    int wi[1] = {me};
    NGA_Put(w, wi, wi, &mv, one);
    GA_Sync();
    long wv[8];
    int w0[1] = {0}, wn[1] = {np - 1};
    NGA_Get(w, w0, wn, wv, one);
    int wbad = 0;
    for (int i = 0; i < np; i++)
        if (wv[i] != 7L * i + 1) wbad++;
    CHECK_EQ(wbad, 0, "world array after the group arrays");
    GA_Destroy(w);
    GA_Destroy(a);
    /* h is left to GA_Terminate. */
    return finish_ga_record("ga_group_arrays", &v[0][0], NV, k, me, np);
}
