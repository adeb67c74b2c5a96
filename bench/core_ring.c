/*
 * core_ring.c - time per hop of an 8-byte token passed around a ring of all
 * processes, with mpb_send/mpb_recv against MPI_Send/MPI_Recv, in the same
 * mpiexec job.  Meant for more processes than cores, where how a waiting
 * process gives its core away decides the time.
 *
 *     mpiexec -n N core_ring [--csv PATH] [--rounds R] [--laps L]
 *
 * Each of R rounds times L laps of MPI, then L laps of mpbridge (which one
 * goes first alternates); the time per hop is a lap's time over N, and the
 * minimum over rounds is kept.  Rank 0 prints both and, with --csv, appends
 *     core,ringN,8,OURS_US,mpi,MPI_US,RATIO
 * Every token carries the lap number, checked at each hop.
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "mpbridge.h"

#define TOKEN_TAG 5

static int rank, size, ctx;

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
    double best[2] = {1e30, 1e30};
    for (long w = 0; w < laps / 10; w++) {
        lap_mpi((uint64_t)w);
        lap_ours((uint64_t)w, next_id, prev_id);
    }
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            int ours = (k + r) % 2;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long n = 0; n < laps; n++) {
                if (ours)
                    lap_ours((uint64_t)n, next_id, prev_id);
                else
                    lap_mpi((uint64_t)n);
            }
            double hop = (MPI_Wtime() - t0) / (double)laps / size * 1e6;
            if (hop < best[ours])
                best[ours] = hop;
        }
    }
    if (rank == 0) {
        printf("# core ring: %d processes, 8-byte token, time per hop, best of %d rounds of %ld laps\n",
               size, rounds, laps);
        printf("ring%d  ours %.3f us  mpi %.3f us  ratio %.3f\n", size, best[1], best[0],
               best[1] / best[0]);
        if (csv) {
            FILE *f = fopen(csv, "a");
            if (!f)
                fail("opening the CSV file", 0);
            fprintf(f, "core,ring%d,8,%.3f,mpi,%.3f,%.3f\n", size, best[1], best[0],
                    best[1] / best[0]);
            fclose(f);
        }
    }
    mpb_finalize();
    MPI_Finalize();
    return 0;
}
