/* Global Arrays C API: restricted arrays. GA_Set_restricted (a list of
 * processes, given in reverse order) and GA_Set_restricted_range between
 * GA_Create_handle and GA_Allocate put a 2-D array's data on the listed
 * processes only, the i-th listed process holding the i-th block. Every
 * rank still reads, writes and accumulates the whole array; the holders
 * see their block through NGA_Access. Rank 0 prints what
 * NGA_Distribution gives for every process and who NGA_Locate names for
 * a few elements; every result is checked on every rank, then rank 0
 * prints "ga_restricted: N passed, M failed". */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 9
#define C 7
static int me, np;

static double value(int i, int j) { return 100 * i + j; }

/* Every element of g equals value + add. */
static void check_all(int g, double add, const char *what) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C, bad = 0;
    double buf[R * C];
    NGA_Get(g, lo, hi, buf, &ld);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) bad += buf[i * C + j] != value(i, j) + add;
    CHECK(bad == 0, "%s: %d elements differ", what, bad);
}

static void one(const char *label, int *list, int n, int range_lo, int range_hi) {
    int dims[2] = {R, C};
    int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_array_name(g, (char *)label);
    if (list)
        GA_Set_restricted(g, list, n);
    else
        GA_Set_restricted_range(g, range_lo, range_hi);
    EXPECT(GA_Allocate(g), 1);

    int holder = -1;
    for (int k = 0; k < n; k++)
        if ((list ? list[k] : range_lo + k) == me) holder = k;

    /* Where the data lives, as every rank sees it. */
    int blocks = 0;
    for (int p = 0; p < np; p++) {
        int lo[2], hi[2];
        NGA_Distribution(g, p, lo, hi);
        if (me == 0)
            printf("%s distribution %d: [%d:%d, %d:%d]\n", label, p, lo[0], hi[0], lo[1], hi[1]);
        if (lo[0] <= hi[0] && lo[1] <= hi[1]) blocks++;
    }
    CHECK(blocks >= 1 && blocks <= n, "%s: %d processes hold data, %d listed", label, blocks, n);
    int mlo[2], mhi[2];
    NGA_Distribution(g, me, mlo, mhi);
    int mine = mlo[0] <= mhi[0] && mlo[1] <= mhi[1];
    if (holder < 0) CHECK(!mine, "%s: rank %d is not listed but holds data", label, me);
    int subs[4][2] = {{0, 0}, {R - 1, C - 1}, {R / 2, C / 2}, {R - 1, 0}};
    for (int k = 0; k < 4; k++) {
        int owner = NGA_Locate(g, subs[k]);
        int listed = 0;
        for (int q = 0; q < n; q++) listed |= (list ? list[q] : range_lo + q) == owner;
        CHECK(listed, "%s: element (%d,%d) located on unlisted process %d", label, subs[k][0],
              subs[k][1], owner);
        if (me == 0) printf("%s locate (%d,%d): %d\n", label, subs[k][0], subs[k][1], owner);
    }

    /* Rank 0 writes the whole array; everyone reads it. */
    if (me == 0) {
        int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
        double buf[R * C];
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) buf[i * C + j] = value(i, j);
        NGA_Put(g, lo, hi, buf, &ld);
    }
    GA_Sync();
    check_all(g, 0, label);

    /* The holders see their own block in place. */
    if (mine) {
        double *p;
        int ld[1];
        NGA_Access(g, mlo, mhi, &p, ld);
        int bad = 0;
        for (int i = mlo[0]; i <= mhi[0]; i++)
            for (int j = mlo[1]; j <= mhi[1]; j++)
                bad += p[(i - mlo[0]) * ld[0] + (j - mlo[1])] != value(i, j);
        NGA_Release(g, mlo, mhi);
        CHECK(bad == 0, "%s: %d accessed elements differ", label, bad);
    }
    GA_Sync();

    /* Everyone adds 1 everywhere. */
    {
        int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
        double ones[R * C], alpha = 1.0;
        for (int k = 0; k < R * C; k++) ones[k] = 1.0;
        NGA_Acc(g, lo, hi, ones, &ld, &alpha);
    }
    GA_Sync();
    check_all(g, np, label);
    double sum = GA_Ddot(g, g);
    if (me == 0) printf("%s dot: %.1f\n", label, sum);
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    me = start_ga(&argc, &argv, &np, 100000);
    /* The upper half of the processes, in reverse order. */
    int n = (np + 1) / 2, list[4];
    for (int k = 0; k < n; k++) list[k] = np - 1 - k;
    one("list", list, n, 0, 0);
    /* All but process 0 (process 0 alone on one rank). */
    int lo = np > 1 ? 1 : 0;
    one("range", NULL, np - lo, lo, np - 1);
    return finish_ga("ga_restricted", me);
}
