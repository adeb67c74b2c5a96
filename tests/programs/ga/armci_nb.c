/* ARMCI's non-blocking transfers: contiguous, strided and vector puts,
 * gets and accumulates started with explicit, aggregate and implicit
 * (NULL) handles and finished with ARMCI_Wait, ARMCI_Test, ARMCI_WaitProc
 * and ARMCI_WaitAll; many handles outstanding at once; large transfers
 * (beyond one message, and an accumulate in several chunks). Every rank
 * checks the data after completion against a serial model; rank 0 prints
 * a digest per step so the harness can compare the run with Debian's
 * ARMCI, and on stderr how many large gets ARMCI_Test still found in
 * flight right after they started ("armci_nb: in flight X of Y"), and how
 * many ARMCI_Test calls it took to see them complete.
 * Prints "armci_nb: N passed, M failed" on rank 0 (checks of all ranks).
 *
 * With an argument it makes one bad call instead (for the error tests):
 * nullwait (ARMCI_Wait(NULL)), badwait (a handle never set up), badtest
 * (the same with ARMCI_Test). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "armci.h"
#include "message.h"
#include "../tally.h"
#include "armci_run.h"

static int me, np;

static double val(int rank, int i) { return 1000.0 * rank + i + 0.5; }

/* Position-weighted sum of n doubles. */
static double wsum(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * (1 + i % 89);
    return s;
}

/* Rank 0 prints the digest of the first n doubles of every rank's memory. */
static void digest(void **ptrs, int n, const char *step) {
    ARMCI_Barrier();
    if (me == 0) {
        double *buf = malloc(sizeof(double) * (size_t)n), s = 0;
        for (int p = 0; p < np; p++) {
            ARMCI_Get(ptrs[p], buf, n * (int)sizeof(double), p);
            s += (p + 1) * wsum(buf, n);
        }
        printf("%-28s %.2f\n", step, s);
        free(buf);
    }
    ARMCI_Barrier();
}

/* Large contiguous transfers: puts to the right neighbour, then gets of
 * several blocks at once, each with its own handle, tested until done. */
static void large(void) {
    enum { N = 1 << 17, K = 8 }; /* 1 MiB per block */
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, (long)K * N * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (long i = 0; i < (long)K * N; i++) mine[i] = -1;
    double *src = malloc(sizeof(double) * N * K);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++) src[(long)k * N + i] = val(me, i) + k;
    ARMCI_Barrier();
    armci_hdl_t put[K];
    for (int k = 0; k < K; k++) {
        ARMCI_INIT_HANDLE(&put[k]);
        EXPECT(ARMCI_NbPut(src + (long)k * N, (double *)ptrs[right] + (long)k * N,
                           N * (int)sizeof(double), right, &put[k]),
               0);
    }
    for (int k = K - 1; k >= 0; k--) EXPECT(ARMCI_Wait(&put[k]), 0);
    EXPECT(ARMCI_Test(&put[0]), 0);
    EXPECT(ARMCI_Wait(&put[0]), 0);
    ARMCI_Barrier();
    int bad = 0;
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++) bad += mine[(long)k * N + i] != val(left, i) + k;
    CHECK(bad == 0, "large non-blocking puts arrived (%d wrong)", bad);
    digest(ptrs, N, "large puts");

    /* Gets of every block back from the right neighbour. */
    double *back = malloc(sizeof(double) * N * K);
    for (long i = 0; i < (long)K * N; i++) back[i] = 0;
    armci_hdl_t get[K];
    for (int k = 0; k < K; k++) {
        ARMCI_INIT_HANDLE(&get[k]);
        EXPECT(ARMCI_NbGet((double *)ptrs[right] + (long)k * N, back + (long)k * N,
                           N * (int)sizeof(double), right, &get[k]),
               0);
    }
    int pending = 0;
    for (int k = 0; k < K; k++) pending += ARMCI_Test(&get[k]) == 1;
    long tests = 0;
    int left_ = K;
    while (left_ > 0) {
        left_ = 0;
        for (int k = 0; k < K; k++) {
            int t = ARMCI_Test(&get[k]);
            CHECK(t == 0 || t == 1, "ARMCI_Test returns 0 or 1 (%d)", t);
            left_ += t == 1;
            tests++;
        }
        CHECK(tests < 100000000L, "gets complete");
        if (tests >= 100000000L) break;
    }
    bad = 0;
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++) bad += back[(long)k * N + i] != val(me, i) + k;
    CHECK(bad == 0, "large non-blocking gets complete after ARMCI_Test (%d wrong)", bad);
    int stat[3] = {pending, K, (int)(tests / K)};
    armci_msg_igop(stat, 3, "+");
    if (me == 0)
        fprintf(stderr, "armci_nb: in flight %d of %d, %d tests\n", stat[0], stat[1], stat[2]);
    /* After completion the local source may change: the target keeps what
     * was put. */
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbPut(src, ptrs[right], N * (int)sizeof(double), right, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    for (int i = 0; i < N; i++) src[i] = -7;
    ARMCI_Barrier();
    bad = 0;
    for (int i = 0; i < N; i++) bad += mine[i] != val(left, i);
    CHECK(bad == 0, "reusing the source after ARMCI_Wait leaves the target (%d wrong)", bad);
    ARMCI_Barrier();
    free(src);
    free(back);
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Many small transfers outstanding at once, each with its own handle, and
 * accumulates (one large one in several chunks). */
static void many(void) {
    enum { H = 200, W = 8, BIG = 50000 };
    void *ptrs[64];
    int right = (me + 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, (H * W + BIG) * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (int i = 0; i < H * W + BIG; i++) mine[i] = val(me, i);
    ARMCI_Barrier();
    static armci_hdl_t hs[H];
    static double got[H][W];
    for (int j = 0; j < H; j++) {
        ARMCI_INIT_HANDLE(&hs[j]);
        for (int i = 0; i < W; i++) got[j][i] = 0;
        EXPECT(ARMCI_NbGet((double *)ptrs[right] + j * W, got[j], W * (int)sizeof(double), right,
                           &hs[j]),
               0);
    }
    for (int j = H - 1; j >= 0; j--) EXPECT(ARMCI_Wait(&hs[j]), 0);
    int bad = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) bad += got[j][i] != val(right, j * W + i);
    CHECK(bad == 0, "%d gets outstanding at once (%d wrong)", H, bad);
    ARMCI_Barrier();

    /* Accumulates from every rank into every rank: small ones per handle,
     * a large one per target, all finished by ARMCI_WaitAll. */
    double scale = 0.5;
    static double ones[BIG];
    for (int i = 0; i < BIG; i++) ones[i] = me + 1 + i % 3;
    for (int p = 0; p < np; p++) {
        EXPECT(ARMCI_NbAcc(ARMCI_ACC_DBL, &scale, ones, (double *)ptrs[p] + H * W,
                           BIG * (int)sizeof(double), p, NULL),
               0);
        for (int j = 0; j < 20; j++)
            EXPECT(ARMCI_NbAcc(ARMCI_ACC_DBL, &scale, ones, (double *)ptrs[p] + j * W,
                               W * (int)sizeof(double), p, NULL),
                   0);
    }
    EXPECT(ARMCI_WaitAll(), 0);
    ARMCI_Barrier();
    double ranks = np * (np + 1) / 2.0;
    bad = 0;
    for (int i = 0; i < BIG; i++)
        bad += mine[H * W + i] != val(me, H * W + i) + 0.5 * (ranks + np * (i % 3));
    for (int j = 0; j < 20; j++)
        for (int i = 0; i < W; i++)
            bad += mine[j * W + i] != val(me, j * W + i) + 0.5 * (ranks + np * (i % 3));
    CHECK(bad == 0, "non-blocking accumulates add up (%d wrong)", bad);
    digest(ptrs, H * W + BIG, "accumulates");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Implicit handles per target with ARMCI_WaitProc, an aggregate handle,
 * and a blocking get after a non-blocking put to the same place. */
static void implicit_and_aggregate(void) {
    enum { N = 4096 };
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, (long)np * N * sizeof(double)), 0);
    double *mine = ptrs[me];
    static double src[N];
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    ARMCI_Barrier();
    for (int p = 0; p < np; p++) {
        EXPECT(ARMCI_NbPut(src, (double *)ptrs[p] + (long)me * N, N * (int)sizeof(double), p, NULL),
               0);
        EXPECT(ARMCI_WaitProc(p), 0);
    }
    ARMCI_Barrier();
    int bad = 0;
    for (int p = 0; p < np; p++)
        for (int i = 0; i < N; i++) bad += mine[(long)p * N + i] != val(p, i);
    CHECK(bad == 0, "implicit-handle puts finished by ARMCI_WaitProc (%d wrong)", bad);
    digest(ptrs, np * N, "implicit puts");

    /* One aggregate handle for puts of four quarters. */
    static double quarter[N];
    for (int i = 0; i < N; i++) quarter[i] = -val(me, i);
    armci_hdl_t agg;
    ARMCI_INIT_HANDLE(&agg);
    ARMCI_SET_AGGREGATE_HANDLE(&agg);
    for (int q = 0; q < 4; q++)
        EXPECT(ARMCI_NbPut(quarter + q * (N / 4), (double *)ptrs[right] + q * (N / 4),
                           N / 4 * (int)sizeof(double), right, &agg),
               0);
    EXPECT(ARMCI_Wait(&agg), 0);
    ARMCI_UNSET_AGGREGATE_HANDLE(&agg);
    /* The same place, non-blocking put then blocking get before any wait. */
    double one = 3.25 + me, seen = 0;
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbPut(&one, (double *)ptrs[right] + N - 1, (int)sizeof(double), right, &h), 0);
    EXPECT(ARMCI_Get((double *)ptrs[right] + N - 1, &seen, (int)sizeof(double), right), 0);
    CHECK(seen == one, "a blocking get sees the non-blocking put before it (%g)", seen);
    EXPECT(ARMCI_Wait(&h), 0);
    ARMCI_Barrier();
    bad = 0;
    for (int i = 0; i < N - 1; i++) bad += mine[i] != -val(left, i);
    bad += mine[N - 1] != 3.25 + left;
    CHECK(bad == 0, "aggregate handle puts (%d wrong)", bad);
    digest(ptrs, N, "aggregate puts");
    /* A handle with nothing started is complete. */
    armci_hdl_t idle;
    ARMCI_INIT_HANDLE(&idle);
    EXPECT(ARMCI_Test(&idle), 0);
    EXPECT(ARMCI_Wait(&idle), 0);
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Strided (2-D) and vector forms. */
static void strided_and_vector(void) {
    enum { R = 64, C = 300 };
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, R * C * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (int i = 0; i < R * C; i++) mine[i] = 0;
    static double loc[R][C], back[R][C];
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) loc[r][c] = val(me, r * C + c);
    ARMCI_Barrier();
    /* Columns 10..209 of every other row, into the same place. */
    int sstr[1] = {2 * C * sizeof(double)}, cnt[2] = {200 * sizeof(double), R / 2};
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbPutS(&loc[0][10], sstr, (double *)ptrs[right] + 10, sstr, cnt, 1, right, &h),
           0);
    EXPECT(ARMCI_Wait(&h), 0);
    ARMCI_Barrier();
    int bad = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            double want = (r % 2 == 0 && c >= 10 && c < 210) ? val(left, r * C + c) : 0;
            bad += mine[r * C + c] != want;
        }
    CHECK(bad == 0, "non-blocking strided put (%d wrong)", bad);
    digest(ptrs, R * C, "strided put");
    memset(back, 0, sizeof back);
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbGetS((double *)ptrs[right] + 10, sstr, &back[0][10], sstr, cnt, 1, right, &h),
           0);
    while (ARMCI_Test(&h) == 1) {
    }
    bad = 0;
    for (int r = 0; r < R; r += 2)
        for (int c = 10; c < 210; c++) bad += back[r][c] != val(me, r * C + c);
    CHECK(bad == 0, "non-blocking strided get (%d wrong)", bad);

    /* Vectors: row r of loc to row R-1-r at the right, for 16 rows. */
    void *srcs[16], *dsts[16];
    for (int i = 0; i < 16; i++) {
        srcs[i] = loc[i];
        dsts[i] = (double *)ptrs[right] + (R - 1 - i) * C;
    }
    armci_giov_t v = {srcs, dsts, C * (int)sizeof(double), 16};
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbPutV(&v, 1, right, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    double two = 2.0;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbAccV(ARMCI_ACC_DBL, &two, &v, 1, right, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    ARMCI_Barrier();
    bad = 0;
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < C; c++) bad += mine[(R - 1 - i) * C + c] != 3 * val(left, i * C + c);
    CHECK(bad == 0, "non-blocking vector put and accumulate (%d wrong)", bad);
    memset(back, 0, sizeof back);
    void *gs[16], *gd[16];
    for (int i = 0; i < 16; i++) {
        gs[i] = (double *)ptrs[right] + (R - 1 - i) * C;
        gd[i] = back[i];
    }
    armci_giov_t g = {gs, gd, C * (int)sizeof(double), 16};
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbGetV(&g, 1, right, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    bad = 0;
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < C; c++) bad += back[i][c] != 3 * val(me, i * C + c);
    CHECK(bad == 0, "non-blocking vector get (%d wrong)", bad);
    digest(ptrs, R * C, "vectors");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

static void bad_call(const char *what) {
    armci_hdl_t h;
    h.target = 12345;
    h.aggregate = 777;
    if (strcmp(what, "nullwait") == 0) ARMCI_Wait(NULL);
    if (strcmp(what, "badwait") == 0) ARMCI_Wait(&h);
    if (strcmp(what, "badtest") == 0) ARMCI_Test(&h);
    printf("bad call returned\n");
}

int main(int argc, char **argv) {
    me = start_armci(&argc, &argv, &np);
    if (argc > 1) {
        bad_call(argv[1]);
    } else {
        large();
        many();
        implicit_and_aggregate();
        strided_and_vector();
    }
    return finish_armci("armci_nb");
}
