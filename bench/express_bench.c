/*
 * express_bench.c - the Express layer against raw MPI, in the same mpiexec
 * job, on the same buffers:
 *
 *     mpiexec -n 4 express_bench [--csv PATH] [--rounds N]
 *
 * Rows (rank 0 prints "RESULT op bytes ours_us baseline baseline_us ratio"
 * and, with --csv, appends "express,OP,BYTES,OURS,BASELINE,BASE_US,RATIO"):
 *   exwrite-exread   8 B and 4 MiB one-way time between nodes 0 and 1
 *                    (ping-pong / 2) against MPI_Send/MPI_Recv, and again
 *                    against the core's own mpb_send/mpb_recv (baseline
 *                    core): Express should cost what the core costs;
 *   excombine        8 doubles, ex_dsum over 4 nodes, against MPI_Allreduce;
 *   excombine-user   the same with a user function, against MPI_Allreduce
 *                    with an MPI_Op_create operation (baseline mpi-op);
 *   exconcat         1 KiB per node over 4 nodes, against MPI_Allgatherv;
 *   exbroadcast      64 KiB from node 0 to the list {0, 1, 2}, against
 *                    MPI_Bcast on a communicator of those ranks.
 * Each figure is the minimum over --rounds rounds of the mean time of a
 * batch of repetitions. The rounds of the two kinds of a row interleave
 * (ours, theirs, theirs, ours, ...), so load that comes and goes during
 * the run weighs on both alike.
 */
#include <express.h>
#include <mpbridge.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static int rank, size, rounds = 5;
static FILE *csv;

static void report(const char *op, long bytes, double ours, const char *base, double theirs)
{
    if (rank != 0)
        return;
    printf("RESULT %s %ld %.3f %s %.3f %.3f\n", op, bytes, ours, base, theirs, ours / theirs);
    if (csv)
        fprintf(csv, "express,%s,%ld,%.3f,%s,%.3f,%.3f\n", op, bytes, ours, base, theirs,
                ours / theirs);
}

/* Mean microseconds per call on rank 0 of `ours` and of `theirs` over
 * reps, each the minimum over rounds; the rounds of the two interleave in
 * the order ours, theirs, theirs, ours, ours, theirs, ... */
static void timed_pair(void (*ours)(long), void (*theirs)(long), long arg, int reps,
                       double *t_ours, double *t_theirs)
{
    *t_ours = *t_theirs = 1e300;
    for (int r = 0; r < 2 * rounds; r++) {
        int base = (r % 2) ^ ((r / 2) % 2);
        void (*f)(long) = base ? theirs : ours;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < reps; i++)
            f(arg);
        double t = (MPI_Wtime() - t0) / reps * 1e6;
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        double *best = base ? t_theirs : t_ours;
        if (t < *best)
            *best = t;
    }
}

static unsigned char *sbuf, *rbuf;

static void ex_trip(long bytes)
{
    int peer = 1 - rank, t = 1, s;
    if (rank > 1)
        return;
    if (rank == 0) {
        exwrite(sbuf, (int)bytes, &peer, &t);
        s = peer;
        exread(rbuf, (int)bytes, &s, &t);
    } else {
        s = peer;
        exread(rbuf, (int)bytes, &s, &t);
        exwrite(rbuf, (int)bytes, &peer, &t);
    }
}

static void mpi_trip(long bytes)
{
    if (rank <= 1)
        bench_mpi_round_trip(sbuf, rbuf, bytes, rank, 1 - rank);
}

static int core_ctx, core_peer;

static void core_trip(long bytes)
{
    if (rank > 1)
        return;
    if (rank == 0) {
        mpb_send(core_ctx, core_peer, 1, sbuf, (size_t)bytes);
        mpb_recv(core_ctx, core_peer, 1, rbuf, (size_t)bytes, NULL, NULL, NULL);
    } else {
        mpb_recv(core_ctx, core_peer, 1, rbuf, (size_t)bytes, NULL, NULL, NULL);
        mpb_send(core_ctx, core_peer, 1, rbuf, (size_t)bytes);
    }
}

static double dv[8], dr[8];

static int user_sum(void *a, const void *b, int n)
{
    double x[8], y[8];
    memcpy(x, a, (size_t)n);
    memcpy(y, b, (size_t)n);
    for (int i = 0; i < n / 8; i++)
        x[i] += y[i];
    memcpy(a, x, (size_t)n);
    return 0;
}

static void mpi_user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    double *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] += x[i];
}

static MPI_Op user_op;
static MPI_Comm three;

static void ex_comb(long user)
{
    excombine(dv, user ? user_sum : ex_dsum, user ? 64 : 8, user ? 1 : 8, ALLNODES, NULL, 0);
}

static void mpi_comb(long user)
{
    MPI_Allreduce(dv, dr, 8, MPI_DOUBLE, user ? user_op : MPI_SUM, MPI_COMM_WORLD);
}

static int counts[64], displs[64];

static void ex_conc(long bytes)
{
    exconcat(sbuf, (int)bytes, rbuf, (int)bytes * size, ALLNODES, NULL, 0);
}

static void mpi_conc(long bytes)
{
    MPI_Allgatherv(sbuf, (int)bytes, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
}

static void ex_bcast(long bytes)
{
    int list[3] = {2, 0, 1};
    if (rank < 3)
        exbroadcast(sbuf, (int)bytes, 0, 3, list, 0);
}

static void mpi_bcast(long bytes)
{
    if (three != MPI_COMM_NULL)
        MPI_Bcast(sbuf, (int)bytes, MPI_BYTE, 0, three);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *csv_path = bench_option(argc, argv, "--csv");
    const char *r = bench_option(argc, argv, "--rounds");
    if (csv_path && rank == 0)
        csv = fopen(csv_path, "a");
    if (r)
        rounds = atoi(r);
    struct nodenv env;
    if (exparam(&env) != 0 || env.nprocs != size || size < 4) {
        if (rank == 0)
            fprintf(stderr, "express_bench needs 4 or more ranks and a working Express\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (mpb_init() != MPB_OK) {
        fprintf(stderr, "express_bench: mpb_init failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    core_ctx = mpb_context("express_bench");
    core_peer = mpb_world_id(1 - (rank > 1 ? 0 : rank));
    if (core_ctx < 0 || core_peer < 0) {
        fprintf(stderr, "express_bench: the core's context or peer id failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long maxb = 4L << 20;
    sbuf = malloc((size_t)maxb);
    rbuf = malloc((size_t)maxb * (size_t)(size > 4 ? size : 4));
    memset(sbuf, 7, (size_t)maxb);

    long sizes[2] = {8, 4L << 20};
    for (int k = 0; k < 2; k++) {
        int reps = sizes[k] > 65536 ? 20 : 2000;
        double ours, theirs;
        ex_trip(sizes[k]);
        mpi_trip(sizes[k]);
        core_trip(sizes[k]);
        timed_pair(ex_trip, mpi_trip, sizes[k], reps, &ours, &theirs);
        report("exwrite-exread", sizes[k], ours / 2, "mpi", theirs / 2);
        timed_pair(ex_trip, core_trip, sizes[k], reps, &ours, &theirs);
        report("exwrite-exread", sizes[k], ours / 2, "core", theirs / 2);
    }

    for (int i = 0; i < 8; i++)
        dv[i] = rank + i;
    MPI_Op_create(mpi_user_sum, 1, &user_op);
    for (long user = 0; user < 2; user++) {
        double ours, theirs;
        ex_comb(user);
        mpi_comb(user);
        timed_pair(ex_comb, mpi_comb, user, 2000, &ours, &theirs);
        report(user ? "excombine-user" : "excombine", 64, ours, user ? "mpi-op" : "mpi", theirs);
    }
    MPI_Op_free(&user_op);

    for (int k = 0; k < size; k++) {
        counts[k] = 1024;
        displs[k] = 1024 * k;
    }
    double ours, theirs;
    ex_conc(1024);
    mpi_conc(1024);
    timed_pair(ex_conc, mpi_conc, 1024, 1000, &ours, &theirs);
    report("exconcat", 1024, ours, "mpi", theirs);

    MPI_Comm_split(MPI_COMM_WORLD, rank < 3 ? 0 : MPI_UNDEFINED, rank, &three);
    ex_bcast(65536);
    mpi_bcast(65536);
    timed_pair(ex_bcast, mpi_bcast, 65536, 500, &ours, &theirs);
    report("exbroadcast", 65536, ours, "mpi", theirs);
    if (three != MPI_COMM_NULL)
        MPI_Comm_free(&three);

    if (csv)
        fclose(csv);
    free(sbuf);
    free(rbuf);
    mpb_finalize();
    MPI_Finalize();
    return 0;
}
