/* ARMCI as GA's one-sided layer, the way ARMCI's own tests use it:
 * collective ARMCI_Malloc memory, contiguous put/get/accumulate (int,
 * long, float, double), strided transfers in 2-D and 3-D, I/O vectors,
 * the non-blocking forms with ARMCI_Wait/ARMCI_WaitAll, single values,
 * a fetch-and-add counter that must hand every rank unique tickets,
 * swaps, mutex-protected increments, private memory and the armci_msg
 * collectives. Every rank checks what it sees against a serial model;
 * rank 0 prints a digest after each step, so the harness can compare the
 * run with Debian's ARMCI running this same source. Prints
 * "armci_ops: N passed, M failed" on rank 0 (checks of all ranks).
 *
 * With an argument it makes one bad call instead (for the error tests):
 * badproc, badaddr, badlevels, nullsrc, badtype. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "armci.h"
#include "message.h"
#include "../tally.h"
#include "armci_run.h"

static int me, np;

/* Position-weighted sum of n doubles. */
static double wsum(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * (1 + i % 97);
    return s;
}

/* Rank 0 gets n doubles at ptrs[p] from every rank and prints their digest. */
static void digest(void **ptrs, int n, const char *step) {
    double s = 0;
    double *buf = malloc(sizeof(double) * (size_t)n);
    if (me == 0) {
        for (int p = 0; p < np; p++) {
            ARMCI_Get(ptrs[p], buf, n * (int)sizeof(double), p);
            s += (p + 1) * wsum(buf, n);
        }
        printf("%-24s %.2f\n", step, s);
    }
    free(buf);
    ARMCI_Barrier();
}

static double val(int rank, int i) { return 1000.0 * rank + i + 0.25; }

static void contiguous(void) {
    enum { N = 1000 };
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    double src[N], back[N];
    EXPECT(ARMCI_Malloc(ptrs, N * sizeof(double)), 0);
    CHECK(ptrs[me] != NULL, "own memory is addressable");
    double *mine = ptrs[me];
    for (int i = 0; i < N; i++) mine[i] = -1;
    ARMCI_Barrier();
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    EXPECT(ARMCI_Put(src, ptrs[right], N * sizeof(double), right), 0);
    ARMCI_Fence(right);
    ARMCI_Barrier();
    int bad = 0;
    for (int i = 0; i < N; i++) bad += mine[i] != val(left, i);
    CHECK(bad == 0, "left neighbour's put arrived (%d wrong)", bad);
    memset(back, 0, sizeof back);
    EXPECT(ARMCI_Get(ptrs[right], back, N * sizeof(double), right), 0);
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != val(me, i);
    CHECK(bad == 0, "get from the right returns what was put (%d wrong)", bad);
    /* A part in the middle, by byte offset. */
    EXPECT(ARMCI_Get((char *)ptrs[right] + 100 * sizeof(double), back, 7 * sizeof(double), right), 0);
    CHECK(back[0] == val(me, 100) && back[6] == val(me, 106), "offset get");
    digest(ptrs, N, "contiguous put");

    /* Accumulate of every type into every rank. */
    double scale = 2.0;
    for (int i = 0; i < N; i++) mine[i] = 0;
    ARMCI_Barrier();
    for (int i = 0; i < N; i++) src[i] = me + i;
    for (int p = 0; p < np; p++)
        EXPECT(ARMCI_Acc(ARMCI_ACC_DBL, &scale, src, ptrs[p], N * sizeof(double), p), 0);
    ARMCI_AllFence();
    ARMCI_Barrier();
    bad = 0;
    for (int i = 0; i < N; i++) bad += mine[i] != 2.0 * (np * (double)i + np * (np - 1) / 2.0);
    CHECK(bad == 0, "double accumulate from every rank (%d wrong)", bad);
    digest(ptrs, N, "accumulate double");
    EXPECT(ARMCI_Free(ptrs[me]), 0);

    int *ip[64];
    EXPECT(ARMCI_Malloc((void **)ip, 64 * sizeof(long)), 0);
    memset(ip[me], 0, 64 * sizeof(long));
    ARMCI_Barrier();
    int isrc[64], iscale = 3;
    for (int i = 0; i < 64; i++) isrc[i] = i - me;
    EXPECT(ARMCI_Acc(ARMCI_ACC_INT, &iscale, isrc, ip[0], 64 * sizeof(int), 0), 0);
    ARMCI_Barrier();
    int int5 = 0;
    if (me == 0) {
        bad = 0;
        for (int i = 0; i < 64; i++) bad += ip[0][i] != 3 * (np * i - np * (np - 1) / 2);
        CHECK(bad == 0, "int accumulate (%d wrong)", bad);
        int5 = ip[0][5];
    }
    long *lp = (long *)ip[me];
    memset(lp, 0, 64 * sizeof(long));
    ARMCI_Barrier();
    long lsrc[64], lscale = -1;
    for (int i = 0; i < 64; i++) lsrc[i] = 100000000000L * i + me;
    EXPECT(ARMCI_Acc(ARMCI_ACC_LNG, &lscale, lsrc, ip[np - 1], 64 * sizeof(long), np - 1), 0);
    ARMCI_Barrier();
    if (me == np - 1) {
        bad = 0;
        for (int i = 0; i < 64; i++) bad += lp[i] != -(np * 100000000000L * i + np * (np - 1) / 2);
        CHECK(bad == 0, "long accumulate (%d wrong)", bad);
    }
    float *fp = (float *)ip[me];
    memset(fp, 0, 64 * sizeof(float));
    ARMCI_Barrier();
    float fsrc[64], fscale = 0.5f;
    for (int i = 0; i < 64; i++) fsrc[i] = (float)(i + 2 * me);
    EXPECT(ARMCI_Acc(ARMCI_ACC_FLT, &fscale, fsrc, ip[0], 64 * sizeof(float), 0), 0);
    ARMCI_Barrier();
    if (me == 0) {
        bad = 0;
        for (int i = 0; i < 64; i++) bad += fp[i] != 0.5f * (float)(np * i + np * (np - 1));
        CHECK(bad == 0, "float accumulate (%d wrong)", bad);
        printf("%-24s %d %.1f\n", "accumulate int/float", int5, fp[9]);
    }
    ARMCI_Barrier();
    EXPECT(ARMCI_Free(ip[me]), 0);
}

/* Large blocks (several of the server's accumulate chunks): put to the
 * right neighbour, get back, then every rank accumulates into rank 0. */
static void large(void) {
    enum { N = 40000 };
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    double *src = malloc(N * sizeof(double)), *back = malloc(N * sizeof(double));
    EXPECT(ARMCI_Malloc(ptrs, N * sizeof(double)), 0);
    for (int i = 0; i < N; i++) src[i] = val(me, i % 5000) + i / 5000;
    EXPECT(ARMCI_Put(src, ptrs[right], N * sizeof(double), right), 0);
    ARMCI_Barrier();
    double *mine = ptrs[me];
    int bad = 0;
    for (int i = 0; i < N; i++) bad += mine[i] != val(left, i % 5000) + i / 5000;
    CHECK(bad == 0, "large put arrived (%d wrong)", bad);
    EXPECT(ARMCI_Get(ptrs[right], back, N * sizeof(double), right), 0);
    CHECK(memcmp(back, src, N * sizeof(double)) == 0, "large get");
    ARMCI_Barrier();
    double scale = 1.0;
    EXPECT(ARMCI_Acc(ARMCI_ACC_DBL, &scale, src, ptrs[0], N * sizeof(double), 0), 0);
    ARMCI_Barrier();
    if (me == 0) {
        bad = 0;
        for (int i = 0; i < N; i++) {
            double want = val(np - 1, i % 5000) + i / 5000;
            for (int r = 0; r < np; r++) want += val(r, i % 5000) + i / 5000;
            bad += mine[i] != want;
        }
        CHECK(bad == 0, "large accumulate from every rank (%d wrong)", bad);
    }
    digest(ptrs, N, "large put/accumulate");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
    free(src);
    free(back);
}

/* 2-D: a 7x11 patch at (3,5) of a 20x30 double array on the right
 * neighbour, from a local buffer with leading dimension 16. */
static void strided2d(void) {
    enum { R = 20, C = 30, PR = 7, PC = 11, LD = 16 };
    void *ptrs[64];
    int right = (me + 1) % np, left = (me + np - 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, R * C * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (int i = 0; i < R * C; i++) mine[i] = -1;
    ARMCI_Barrier();
    double buf[PR][LD], back[PR][PC];
    for (int i = 0; i < PR; i++)
        for (int j = 0; j < LD; j++) buf[i][j] = j < PC ? val(me, 100 * i + j) : -7;
    int sstr[1] = {LD * sizeof(double)}, dstr[1] = {C * sizeof(double)};
    int count[2] = {PC * sizeof(double), PR};
    double *at = (double *)ptrs[right] + 3 * C + 5;
    EXPECT(ARMCI_PutS(buf, sstr, at, dstr, count, 1, right), 0);
    ARMCI_Barrier();
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int in = i >= 3 && i < 3 + PR && j >= 5 && j < 5 + PC;
            double want = in ? val(left, 100 * (i - 3) + (j - 5)) : -1;
            bad += mine[i * C + j] != want;
        }
    CHECK(bad == 0, "2-D strided put lands in the patch only (%d wrong)", bad);
    int bstr[1] = {PC * sizeof(double)};
    EXPECT(ARMCI_GetS(at, dstr, back, bstr, count, 1, right), 0);
    bad = 0;
    for (int i = 0; i < PR; i++)
        for (int j = 0; j < PC; j++) bad += back[i][j] != buf[i][j];
    CHECK(bad == 0, "2-D strided get returns the patch (%d wrong)", bad);
    digest(ptrs, R * C, "strided 2-D put");
    double scale = -0.5;
    for (int p = 0; p < np; p++) {
        double *q = (double *)ptrs[p] + 3 * C + 5;
        EXPECT(ARMCI_AccS(ARMCI_ACC_DBL, &scale, buf, sstr, q, dstr, count, 1, p), 0);
    }
    ARMCI_Barrier();
    digest(ptrs, R * C, "strided 2-D accumulate");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* 3-D: a 3x4x5 patch at (1,2,3) of a 6x7x8 double array on every rank. */
static void strided3d(void) {
    enum { A = 6, B = 7, C = 8, PA = 3, PB = 4, PC = 5 };
    void *ptrs[64];
    EXPECT(ARMCI_Malloc(ptrs, A * B * C * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (int i = 0; i < A * B * C; i++) mine[i] = 0;
    ARMCI_Barrier();
    double buf[PA][PB][PC], back[PA][PB][PC];
    int target = (me + 2) % np, from = (me + 2 * np - 2) % np;
    for (int i = 0; i < PA; i++)
        for (int j = 0; j < PB; j++)
            for (int k = 0; k < PC; k++) buf[i][j][k] = val(me, 100 * i + 10 * j + k);
    int sstr[2] = {PC * sizeof(double), PB * PC * sizeof(double)};
    int dstr[2] = {C * sizeof(double), B * C * sizeof(double)};
    int count[3] = {PC * sizeof(double), PB, PA};
    double *at = (double *)ptrs[target] + (1 * B + 2) * C + 3;
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbPutS(buf, sstr, at, dstr, count, 2, target, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    ARMCI_Barrier();
    int bad = 0;
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int in = i >= 1 && i < 1 + PA && j >= 2 && j < 2 + PB && k >= 3 && k < 3 + PC;
                double want = in ? val(from, 100 * (i - 1) + 10 * (j - 2) + (k - 3)) : 0;
                bad += mine[(i * B + j) * C + k] != want;
            }
    CHECK(bad == 0, "3-D strided put lands in the patch only (%d wrong)", bad);
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbGetS(at, dstr, back, sstr, count, 2, target, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    CHECK(memcmp(back, buf, sizeof buf) == 0, "3-D strided get returns the patch");
    digest(ptrs, A * B * C, "strided 3-D put");
    double scale = 3.0;
    for (int p = 0; p < np; p++) {
        double *q = (double *)ptrs[p] + (1 * B + 2) * C + 3;
        EXPECT(ARMCI_NbAccS(ARMCI_ACC_DBL, &scale, buf, sstr, q, dstr, count, 2, p, NULL), 0);
    }
    EXPECT(ARMCI_WaitAll(), 0);
    ARMCI_Barrier();
    digest(ptrs, A * B * C, "strided 3-D accumulate");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* I/O vectors: two entries (10 pieces of 2 doubles, 5 single doubles). */
static void vectors(void) {
    enum { N = 200 };
    void *ptrs[64];
    int right = (me + 1) % np;
    EXPECT(ARMCI_Malloc(ptrs, N * sizeof(double)), 0);
    double *mine = ptrs[me];
    for (int i = 0; i < N; i++) mine[i] = 0;
    ARMCI_Barrier();
    double src[30], back[30];
    void *s1[10], *d1[10], *s2[5], *d2[5];
    for (int i = 0; i < 30; i++) src[i] = val(me, i);
    double *r = ptrs[right];
    for (int i = 0; i < 10; i++) {
        s1[i] = &src[2 * i];
        d1[i] = &r[17 * i + 3];
    }
    for (int i = 0; i < 5; i++) {
        s2[i] = &src[20 + i];
        d2[i] = &r[190 + 2 * i];
    }
    armci_giov_t v[2] = {{s1, d1, 2 * sizeof(double), 10}, {s2, d2, sizeof(double), 5}};
    EXPECT(ARMCI_PutV(v, 2, right), 0);
    ARMCI_Barrier();
    int left = (me + np - 1) % np, bad = 0;
    for (int i = 0; i < 10; i++)
        bad += mine[17 * i + 3] != val(left, 2 * i) || mine[17 * i + 4] != val(left, 2 * i + 1);
    for (int i = 0; i < 5; i++) bad += mine[190 + 2 * i] != val(left, 20 + i);
    CHECK(bad == 0, "vector put (%d wrong)", bad);
    for (int i = 0; i < 10; i++) s1[i] = &back[2 * i];
    for (int i = 0; i < 5; i++) s2[i] = &back[20 + i];
    armci_giov_t g[2] = {{d1, s1, 2 * sizeof(double), 10}, {d2, s2, sizeof(double), 5}};
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(ARMCI_NbGetV(g, 2, right, &h), 0);
    EXPECT(ARMCI_Wait(&h), 0);
    CHECK(memcmp(back, src, 25 * sizeof(double)) == 0, "vector get");
    digest(ptrs, N, "vector put");
    double scale = 1.5;
    for (int i = 0; i < 10; i++) s1[i] = &src[2 * i];
    for (int i = 0; i < 5; i++) s2[i] = &src[20 + i];
    EXPECT(ARMCI_AccV(ARMCI_ACC_DBL, &scale, v, 2, right), 0);
    ARMCI_Barrier();
    digest(ptrs, N, "vector accumulate");
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Non-blocking contiguous puts to every rank, then gets, then values. */
static void nonblocking_and_values(void) {
    enum { N = 64 };
    void *ptrs[64];
    EXPECT(ARMCI_Malloc(ptrs, N * np * sizeof(double)), 0);
    double src[N], back[N];
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    armci_hdl_t h[64];
    for (int p = 0; p < np; p++) {
        ARMCI_INIT_HANDLE(&h[p]);
        EXPECT(ARMCI_NbPut(src, (double *)ptrs[p] + me * N, N * sizeof(double), p, &h[p]), 0);
    }
    for (int p = 0; p < np; p++) EXPECT(ARMCI_Wait(&h[p]), 0);
    ARMCI_Barrier();
    double *mine = ptrs[me];
    int bad = 0;
    for (int p = 0; p < np; p++)
        for (int i = 0; i < N; i++) bad += mine[p * N + i] != val(p, i);
    CHECK(bad == 0, "non-blocking puts from every rank (%d wrong)", bad);
    int q = (me + 1) % np;
    armci_hdl_t g;
    ARMCI_INIT_HANDLE(&g);
    EXPECT(ARMCI_NbGet((double *)ptrs[q] + me * N, back, N * sizeof(double), q, &g), 0);
    /* ARMCI_Test: 1 while the get is in flight, then 0. */
    int t;
    while ((t = ARMCI_Test(&g)) == 1) {
    }
    EXPECT(t, 0);
    EXPECT(ARMCI_Wait(&g), 0);
    CHECK(memcmp(back, src, sizeof src) == 0, "non-blocking get");
    EXPECT(ARMCI_WaitProc(q), 0);
    digest(ptrs, N * np, "non-blocking put");
    ARMCI_Barrier();
    /* Values: each rank writes into slot me of its right neighbour. */
    int right = (me + 1) % np, left = (me + np - 1) % np;
    double *d = (double *)ptrs[right] + me * N;
    EXPECT(ARMCI_PutValueDouble(0.125 * me, d, right), 0);
    EXPECT(ARMCI_PutValueInt(7 * me + 1, d + 1, right), 0);
    EXPECT(ARMCI_PutValueLong(-3000000000L * me, d + 2, right), 0);
    ARMCI_Barrier();
    double *ld = (double *)ptrs[me] + left * N;
    CHECK(ld[0] == 0.125 * left, "double value arrived");
    CHECK(*(int *)(ld + 1) == 7 * left + 1, "int value arrived");
    CHECK(*(long *)(ld + 2) == -3000000000L * left, "long value arrived");
    CHECK(ARMCI_GetValueDouble(d, right) == 0.125 * me, "double value read back");
    EXPECT(ARMCI_GetValueInt(d + 1, right), 7 * me + 1);
    EXPECT(ARMCI_GetValueLong(d + 2, right), -3000000000L * me);
    ARMCI_Barrier();
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* A shared counter on rank 0 handed out with fetch-and-add: every ticket
 * 0..np*K-1 exactly once; the same with longs on the last rank; swaps. */
static void rmw(void) {
    enum { K = 25 };
    void *ptrs[64];
    EXPECT(ARMCI_Malloc(ptrs, 4 * sizeof(long)), 0);
    memset(ptrs[me], 0, 4 * sizeof(long));
    ARMCI_Barrier();
    int seen[64 * K];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < K; i++) {
        int t = -1;
        EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &t, ptrs[0], 1, 0), 0);
        CHECK(t >= 0 && t < np * K, "ticket %d in range", t);
        if (t >= 0 && t < np * K) seen[t]++;
    }
    for (int i = 0; i < K; i++) {
        long t = -1;
        EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &t, (long *)ptrs[np - 1] + 1, 2, np - 1), 0);
        CHECK(t % 2 == 0 && t >= 0 && t < 2L * np * K, "long ticket %ld", t);
    }
    armci_msg_igop(seen, np * K, "+");
    int dup = 0;
    for (int i = 0; i < np * K; i++) dup += seen[i] != 1;
    CHECK(dup == 0, "every ticket handed out once (%d not)", dup);
    ARMCI_Barrier();
    if (me == 0) {
        printf("%-24s %d %ld\n", "fetch-and-add", *(int *)ptrs[0],
               ARMCI_GetValueLong((long *)ptrs[np - 1] + 1, np - 1));
    }
    /* Swaps: everyone swaps its id+1 into rank 0's third long; the old
     * values and the final one are 0..np, each once. */
    long mine = me + 1;
    EXPECT(ARMCI_Rmw(ARMCI_SWAP_LONG, &mine, (long *)ptrs[0] + 2, 0, 0), 0);
    int iv = 10 * (me + 1);
    EXPECT(ARMCI_Rmw(ARMCI_SWAP, &iv, (int *)ptrs[0] + 6, 0, 0), 0);
    long got[65];
    memset(got, 0, sizeof got);
    if (mine >= 0 && mine <= np) got[mine]++;
    ARMCI_Barrier();
    if (me == 0) {
        long last = ARMCI_GetValueLong((long *)ptrs[0] + 2, 0);
        if (last >= 0 && last <= np) got[last]++;
    }
    armci_msg_lgop(got, np + 1, "+");
    int off = 0;
    for (int i = 0; i <= np; i++) off += got[i] != 1;
    CHECK(off == 0, "swaps pass every value on once (%d not)", off);
    int ivs[2] = {iv % 10 == 0 && iv / 10 <= np, 0};
    armci_msg_igop(ivs, 2, "+");
    CHECK(ivs[0] == np, "int swaps return earlier values");
    ARMCI_Barrier();
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Increments of a plain (not atomic) counter under a mutex. */
static void mutexes(void) {
    enum { K = 20 };
    void *ptrs[64];
    EXPECT(ARMCI_Malloc(ptrs, 2 * sizeof(int)), 0);
    memset(ptrs[me], 0, 2 * sizeof(int));
    EXPECT(ARMCI_Create_mutexes(2), 0);
    ARMCI_Barrier();
    for (int i = 0; i < K; i++) {
        int p = (me + i) % np;
        ARMCI_Lock(1, p);
        int v = ARMCI_GetValueInt(ptrs[p], p);
        ARMCI_PutValueInt(v + 1, ptrs[p], p);
        ARMCI_Fence(p);
        ARMCI_Unlock(1, p);
    }
    ARMCI_Barrier();
    int tot[1] = {*(int *)ptrs[me]};
    armci_msg_igop(tot, 1, "+");
    EXPECT(tot[0], np * K);
    if (me == 0) printf("%-24s %d\n", "mutex increments", tot[0]);
    ARMCI_Barrier();
    EXPECT(ARMCI_Destroy_mutexes(), 0);
    EXPECT(ARMCI_Free(ptrs[me]), 0);
}

/* Sizes that differ per rank, private memory and the message calls. */
static void odds_and_ends(void) {
    void *ptrs[64];
    long size = 8 * (me + 1);
    EXPECT(ARMCI_Malloc(ptrs, size), 0);
    for (int p = 0; p < np; p++) CHECK(ptrs[p] != NULL, "rank %d has memory", p);
    memset(ptrs[me], me + 1, (size_t)size);
    ARMCI_Barrier();
    char b[8 * 64];
    int last = np - 1;
    EXPECT(ARMCI_Get(ptrs[last], b, 8 * np, last), 0);
    int bad = 0;
    for (int i = 0; i < 8 * np; i++) bad += b[i] != np;
    CHECK(bad == 0, "the largest block is whole (%d wrong)", bad);
    ARMCI_Barrier();
    EXPECT(ARMCI_Free(ptrs[me]), 0);
    double *loc = ARMCI_Malloc_local(1000 * sizeof(double));
    CHECK(loc != NULL, "ARMCI_Malloc_local");
    for (int i = 0; i < 1000; i++) loc[i] = i;
    /* A 3x2 patch of a local 4x6 array, to and from a contiguous buffer. */
    double grid[4][6] = {{0}}, flat[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    int gstr[1] = {6 * sizeof(double)}, gcnt[2] = {2 * sizeof(double), 3};
    armci_read_strided(&grid[1][3], 1, gstr, gcnt, (char *)flat);
    CHECK(grid[1][3] == 1 && grid[1][4] == 2 && grid[3][4] == 6 && grid[1][5] == 0,
          "armci_read_strided fills the patch");
    armci_write_strided(&grid[1][3], 1, gstr, gcnt, (char *)out);
    CHECK(memcmp(out, flat, sizeof flat) == 0, "armci_write_strided packs the patch");
    EXPECT(ARMCI_Free_local(loc), 0);
    double d[3] = {me, 1, -me};
    armci_msg_dgop(d, 3, "+");
    CHECK(d[0] == np * (np - 1) / 2.0 && d[1] == np, "dgop sum");
    armci_msg_dgop(d + 2, 1, "min");
    CHECK(d[2] == -(np * (np - 1) / 2.0), "dgop min of an equal value");
    int x[2] = {me, me};
    armci_msg_igop(x, 1, "max");
    CHECK(x[0] == np - 1, "igop max");
    long l = me == 0 ? 4242 : 0;
    armci_msg_brdcst(&l, sizeof l, 0);
    EXPECT(l, 4242);
    CHECK(ARMCI_Initialized() == 1, "ARMCI_Initialized");
    CHECK(armci_domain_same_id(ARMCI_DOMAIN_SMP, me) == 1, "a rank shares its own node");
    CHECK(armci_domain_count(ARMCI_DOMAIN_SMP) >= 1, "domains");
    if (me == 0) printf("%-24s %.1f %d\n", "messages", d[0], x[0]);
}

static void bad_call(const char *what) {
    void *ptrs[64];
    double v[4] = {0};
    int one[1] = {8}, cnt[10] = {8, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    ARMCI_Malloc(ptrs, 64);
    ARMCI_Barrier();
    if (me == 0) {
        if (!strcmp(what, "badproc")) ARMCI_Put(v, ptrs[0], 8, np);
        if (!strcmp(what, "badaddr")) ARMCI_Put(v, (char *)ptrs[0] + 60, 8, 0);
        if (!strcmp(what, "badlevels")) ARMCI_PutS(v, one, ptrs[0], one, cnt, 9, 0);
        if (!strcmp(what, "nullsrc")) ARMCI_Put(NULL, ptrs[0], 8, 0);
        if (!strcmp(what, "badtype")) ARMCI_Acc(17, v, v, ptrs[0], 8, 0);
        printf("bad call returned\n");
    }
    ARMCI_Barrier();
}

int main(int argc, char **argv) {
    me = start_armci(&argc, &argv, &np);
    if (argc > 1) {
        bad_call(argv[1]);
    } else {
        contiguous();
        large();
        strided2d();
        strided3d();
        vectors();
        nonblocking_and_values();
        rmw();
        mutexes();
        odds_and_ends();
    }
    return finish_armci("armci_ops");
}
