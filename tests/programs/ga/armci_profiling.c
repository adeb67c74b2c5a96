/* ARMCI's profiling interface, used the way a profiling tool uses it: this
 * program defines its own ARMCI_Put, ARMCI_Get, ARMCI_Acc and ARMCI_Rmw,
 * which count each call and hand it on to the PARMCI_ twin. The steps
 * call those ARMCI_ names (through the counters) and many PARMCI_ names
 * directly: memory, barriers, values, a non-blocking put, strided
 * transfers, vectors and mutexes. Every rank checks what it sees against
 * a serial model and its counters against the calls it made; rank 0
 * prints a digest per step (and the summed counters), so the harness can
 * compare the run with Debian's ARMCI running this same source. Prints
 * "armci_profiling: N passed, M failed" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "armci.h"
#include "message.h"
#include "../tally.h"
#include "armci_run.h"

static int me, np;
static int n_put, n_get, n_acc, n_rmw;

/* The "tool": counts, then calls the library's profiling entry. */
int ARMCI_Put(void *src, void *dst, int bytes, int proc)
{
    n_put++;
    return PARMCI_Put(src, dst, bytes, proc);
}

int ARMCI_Get(void *src, void *dst, int bytes, int proc)
{
    n_get++;
    return PARMCI_Get(src, dst, bytes, proc);
}

int ARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc)
{
    n_acc++;
    return PARMCI_Acc(datatype, scale, src, dst, bytes, proc);
}

int ARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc)
{
    n_rmw++;
    return PARMCI_Rmw(op, ploc, prem, value, proc);
}

enum { N = 64, TICKETS = 5 };

static double val(int rank, int i) { return 100.0 * rank + i + 0.5; }

/* Rank 0 reads n doubles at ptrs[p] of every rank (through PARMCI_Get, so
 * not counted) and prints a weighted sum. */
static void digest(void **ptrs, int n, const char *step)
{
    if (me == 0) {
        double buf[N], s = 0;
        for (int p = 0; p < np; p++) {
            PARMCI_Get(ptrs[p], buf, n * (int)sizeof(double), p);
            for (int i = 0; i < n; i++) s += (p + 1) * (1 + i % 7) * buf[i];
        }
        printf("%-22s %.2f\n", step, s);
    }
    PARMCI_Barrier();
}

int main(int argc, char **argv)
{
    me = start_armci(&argc, &argv, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    void *data[64], *count[64];
    EXPECT(PARMCI_Initialized(), 1);
    EXPECT(PARMCI_Malloc(data, N * sizeof(double)), 0);
    EXPECT(PARMCI_Malloc(count, sizeof(long)), 0);
    double *mine = data[me];
    for (int i = 0; i < N; i++) mine[i] = 0;
    *(long *)count[me] = 0;
    PARMCI_Barrier();

    /* Counted: a put to the right, a get from the left, an accumulate
     * into rank 0 and fetch-and-add tickets on rank 0's counter. */
    double src[N], back[N];
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    EXPECT(ARMCI_Put(src, data[right], N * (int)sizeof(double), right), 0);
    PARMCI_Barrier();
    digest(data, N, "put to the right");
    EXPECT(ARMCI_Get(data[left], back, N * (int)sizeof(double), left), 0);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != val((left + np - 1) % np, i);
    CHECK(bad == 0, "get from the left: %d wrong", bad);
    PARMCI_Barrier();
    double two = 2.0;
    EXPECT(ARMCI_Acc(ARMCI_ACC_DBL, &two, src, data[0], N * (int)sizeof(double), 0), 0);
    PARMCI_Barrier();
    digest(data, N, "accumulate into 0");
    if (me == 0) {
        bad = 0;
        for (int i = 0; i < N; i++) {
            double want = val(np - 1, i);
            for (int r = 0; r < np; r++) want += 2.0 * val(r, i);
            bad += mine[i] != want;
        }
        CHECK(bad == 0, "accumulate: %d wrong", bad);
    }
    long tickets = 0;
    for (int k = 0; k < TICKETS; k++) {
        long t = -1;
        EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &t, count[0], 1, 0), 0);
        CHECK(t >= 0 && t < (long)np * TICKETS, "ticket %ld out of range", t);
        tickets += t;
    }
    armci_msg_lgop(&tickets, 1, "+");
    long all = (long)np * TICKETS;
    CHECK_EQ(tickets, all * (all - 1) / 2, "sum of all tickets");
    PARMCI_Barrier();

    /* Direct PARMCI_ calls, not counted. */
    EXPECT(PARMCI_PutValueInt(7 + me, (int *)data[right] + 1, right), 0);
    PARMCI_Barrier();
    EXPECT(PARMCI_GetValueInt((int *)data[right] + 1, right), 7 + me);
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    EXPECT(PARMCI_NbPut(src, data[right], 8 * (int)sizeof(double), right, &h), 0);
    EXPECT(PARMCI_Wait(&h), 0);
    PARMCI_Fence(right);
    PARMCI_Barrier();
    digest(data, N, "non-blocking put");
    /* A 4x6 patch of an 8x8 matrix of doubles (row stride 8). */
    double patch[4][6];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 6; b++) patch[a][b] = 1000.0 * me + 10 * a + b;
    int sstride[1] = {6 * sizeof(double)}, dstride[1] = {8 * sizeof(double)};
    int cnt[2] = {6 * sizeof(double), 4};
    EXPECT(PARMCI_PutS(patch, sstride, (double *)data[right] + 9, dstride, cnt, 1, right), 0);
    PARMCI_AllFence();
    PARMCI_Barrier();
    double got[4][6];
    EXPECT(PARMCI_GetS((double *)data[right] + 9, dstride, got, sstride, cnt, 1, right), 0);
    CHECK(memcmp(got, patch, sizeof got) == 0, "strided get of the strided put");
    PARMCI_Barrier();
    digest(data, N, "strided put");
    void *vs[2] = {&src[0], &src[1]}, *vd[2] = {(double *)data[right] + 40, (double *)data[right] + 50};
    armci_giov_t iov = {vs, vd, (int)sizeof(double), 2};
    EXPECT(PARMCI_PutV(&iov, 1, right), 0);
    PARMCI_Barrier();
    digest(data, N, "vector put");
    EXPECT(PARMCI_Create_mutexes(1), 0);
    for (int k = 0; k < 3; k++) {
        PARMCI_Lock(0, 0);
        long c = PARMCI_GetValueLong(count[0], 0);
        EXPECT(PARMCI_PutValueLong(c + 100, count[0], 0), 0);
        PARMCI_Fence(0);
        PARMCI_Unlock(0, 0);
    }
    PARMCI_Barrier();
    EXPECT(PARMCI_GetValueLong(count[0], 0), all + 300L * np);
    EXPECT(PARMCI_Destroy_mutexes(), 0);

    /* The counters saw exactly the counted calls. */
    CHECK_EQ(n_put, 1, "ARMCI_Put calls counted");
    CHECK_EQ(n_get, 1, "ARMCI_Get calls counted");
    CHECK_EQ(n_acc, 1, "ARMCI_Acc calls counted");
    CHECK_EQ(n_rmw, TICKETS, "ARMCI_Rmw calls counted");
    int counted[4] = {n_put, n_get, n_acc, n_rmw};
    armci_msg_igop(counted, 4, "+");
    if (me == 0)
        printf("counted put %d get %d acc %d rmw %d\n", counted[0], counted[1], counted[2],
               counted[3]);
    EXPECT(PARMCI_Free(count[me]), 0);
    EXPECT(PARMCI_Free(data[me]), 0);
    return finish_armci("armci_profiling");
}
