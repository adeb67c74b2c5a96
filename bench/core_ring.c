/*
 * core_ring.c - time per hop of an 8-byte token passed around a ring of all
 * processes, with mpb_send/mpb_recv against MPI_Send/MPI_Recv, in the same
 * mpiexec job.  Meant for more processes than cores, where how a waiting
 * process gives its core away decides the time.
 *
 *     mpiexec -n N core_ring [--csv PATH] [--rounds R] [--laps L]
 *
 * Each of R rounds times L laps of MPI, L laps of mpbridge and, when all
 * processes share one node, L laps of the yield floor (the order turns
 * from round to round); the time per hop is a lap's time over N, and the
 * minimum over rounds is kept.
 *
 * The yield floor is a ring that does no message work at all: the token
 * is one word per process in an MPI shared-memory window, and a waiting
 * process reads its word and calls sched_yield until the token is there.
 * No wait that gives the core away between polls can pass the token
 * faster on the same machine, so it bounds what any such wait can reach.
 *
 * Rank 0 prints the results and, with --csv, appends
 *     core,ringN,8,OURS_US,mpi,MPI_US,RATIO
 *     core,ringN-yield-floor,8,FLOOR_US,mpi,MPI_US,RATIO
 * Every token carries the lap number, checked at each hop.
 */
#include <mpi.h>

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "mpbridge.h"

#define TOKEN_TAG 5

static int rank, size, ctx;

/* The words of the yield floor: process i waits on words[i * WORD_STRIDE]
 * (one cache line each); NULL when the processes span several nodes. */
#define WORD_STRIDE 8
static uint64_t *words;

static void fail(const char *what, int rc)
{
    fprintf(stderr, "core_ring rank %d: %s failed (%d)\n", rank, what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* One lap: rank 0 starts the token, every rank passes it on once. */
static void lap_mpi(uint64_t n)
{
    uint64_t t = n;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        MPI_Send(&t, 8, MPI_BYTE, next, TOKEN_TAG, MPI_COMM_WORLD);
        MPI_Recv(&t, 8, MPI_BYTE, prev, TOKEN_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&t, 8, MPI_BYTE, prev, TOKEN_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&t, 8, MPI_BYTE, next, TOKEN_TAG, MPI_COMM_WORLD);
    }
    if (t != n)
        fail("token check (MPI)", (int)t);
}

static void lap_ours(uint64_t n, int next_id, int prev_id)
{
    uint64_t t = n;
    int rc;
    if (rank == 0) {
        if ((rc = mpb_send(ctx, next_id, TOKEN_TAG, &t, 8)) != MPB_OK)
            fail("mpb_send", rc);
        if ((rc = mpb_recv(ctx, prev_id, TOKEN_TAG, &t, 8, NULL, NULL, NULL)) != MPB_OK)
            fail("mpb_recv", rc);
    } else {
        if ((rc = mpb_recv(ctx, prev_id, TOKEN_TAG, &t, 8, NULL, NULL, NULL)) != MPB_OK)
            fail("mpb_recv", rc);
        if ((rc = mpb_send(ctx, next_id, TOKEN_TAG, &t, 8)) != MPB_OK)
            fail("mpb_send", rc);
    }
    if (t != n)
        fail("token check (mpbridge)", (int)t);
}

/* One lap of the yield floor: like lap_ours, but the token is the
 * receiver's word, and a waiting process yields between its reads. */
static void lap_floor(uint64_t n)
{
    uint64_t *mine = &words[rank * WORD_STRIDE];
    uint64_t *next = &words[((rank + 1) % size) * WORD_STRIDE];
    if (rank == 0)
        __atomic_store_n(next, n, __ATOMIC_RELEASE);
    while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) != n)
        sched_yield();
    if (rank != 0)
        __atomic_store_n(next, n, __ATOMIC_RELEASE);
}

/* Maps the words of the yield floor when every process is on this node;
 * returns the window (MPI_WIN_NULL otherwise). */
static MPI_Win map_floor(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size;
    MPI_Comm_size(node, &node_size);
    if (node_size != size) {
        MPI_Comm_free(&node);
        return MPI_WIN_NULL;
    }
    MPI_Aint bytes = rank == 0 ? (MPI_Aint)(size * WORD_STRIDE * sizeof(uint64_t)) : 0;
    MPI_Win win;
    void *base;
    int rc = MPI_Win_allocate_shared(bytes, sizeof(uint64_t), MPI_INFO_NULL, node, &base, &win);
    if (rc != MPI_SUCCESS)
        fail("MPI_Win_allocate_shared", rc);
    MPI_Aint len;
    int unit;
    MPI_Win_shared_query(win, 0, &len, &unit, &base);
    words = base;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        memset(words, 0, (size_t)len);
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    MPI_Comm_free(&node);
    return win;
}

int main(int argc, char **argv)
{
    const char *csv = bench_option(argc, argv, "--csv");
    const char *r = bench_option(argc, argv, "--rounds");
    const char *l = bench_option(argc, argv, "--laps");
    int rounds = r ? atoi(r) : 7;
    long laps = l ? atol(l) : 20000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = mpb_init();
    if (rc != MPB_OK)
        fail("mpb_init", rc);
    ctx = mpb_context("bench.ring");
    if (ctx < 0)
        fail("mpb_context", ctx);
    int next_id = mpb_world_id((rank + 1) % size);
    int prev_id = mpb_world_id((rank + size - 1) % size);
    MPI_Win floor_win = map_floor();
    int kinds = words ? 3 : 2;
    /* Kinds: 0 MPI, 1 mpbridge, 2 yield floor. */
    double best[3] = {1e30, 1e30, 1e30};
    for (long w = 0; w < laps / 10; w++) {
        lap_mpi((uint64_t)w);
        lap_ours((uint64_t)w, next_id, prev_id);
    }
    /* The floor's tokens count on from lap to lap (its words keep them). */
    uint64_t floor_token = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < kinds; k++) {
            int kind = (k + r) % kinds;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long n = 0; n < laps; n++) {
                if (kind == 1)
                    lap_ours((uint64_t)n, next_id, prev_id);
                else if (kind == 2)
                    lap_floor(++floor_token);
                else
                    lap_mpi((uint64_t)n);
            }
            double hop = (MPI_Wtime() - t0) / (double)laps / size * 1e6;
            if (hop < best[kind])
                best[kind] = hop;
        }
    }
    if (rank == 0) {
        printf("# core ring: %d processes, 8-byte token, time per hop, best of %d rounds of %ld laps\n",
               size, rounds, laps);
        printf("ring%d  ours %.3f us  mpi %.3f us  ratio %.3f\n", size, best[1], best[0],
               best[1] / best[0]);
        if (words)
            printf("ring%d  yield floor %.3f us  (%.3f of MPI)\n", size, best[2],
                   best[2] / best[0]);
        else
            printf("ring%d  no yield floor: the processes span several nodes\n", size);
        if (csv) {
            FILE *f = fopen(csv, "a");
            if (!f)
                fail("opening the CSV file", 0);
            fprintf(f, "core,ring%d,8,%.3f,mpi,%.3f,%.3f\n", size, best[1], best[0],
                    best[1] / best[0]);
            if (words)
                fprintf(f, "core,ring%d-yield-floor,8,%.3f,mpi,%.3f,%.3f\n", size, best[2],
                        best[0], best[2] / best[0]);
            fclose(f);
        }
    }
    if (floor_win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(floor_win);
        MPI_Win_free(&floor_win);
    }
    mpb_finalize();
    MPI_Finalize();
    return 0;
}
