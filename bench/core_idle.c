/*
 * core_idle.c - how much CPU a process uses while blocked in a receive.
 *
 *     mpiexec -n N core_idle [--csv PATH] [--seconds S]
 *
 * Every rank but 0 waits in mpb_recv for a message that rank 0 sends after
 * S seconds (default 2); each measures its own CPU time (user + system,
 * all threads) over the wait and prints it as a share of the wall time.
 * With more ranks than cores the waits share cores as well. With --csv
 * rank 1 appends
 *     core,idle-cpu,8,SHARE,none,1,SHARE
 * (the share stands in the time column; there is no baseline).
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_common.h"
#include "mpbridge.h"

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    const char *csv = bench_option(argc, argv, "--csv");
    const char *secs = bench_option(argc, argv, "--seconds");
    double seconds = secs ? atof(secs) : 2.0;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (mpb_init() != MPB_OK) {
        fprintf(stderr, "core_idle: mpb_init failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int ctx = mpb_context("bench.idle");
    MPI_Barrier(MPI_COMM_WORLD);
    char b[8] = "wake up";
    if (rank == 0) {
        struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
        nanosleep(&ts, NULL);
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        for (int r = 1; r < size; r++)
            mpb_send(ctx, mpb_world_id(r), 1, b, sizeof b);
    } else {
        double c0 = cpu_seconds(), t0 = MPI_Wtime();
        int rc = mpb_recv(ctx, mpb_world_id(0), 1, b, sizeof b, NULL, NULL, NULL);
        double wall = MPI_Wtime() - t0, cpu = cpu_seconds() - c0;
        if (rc != MPB_OK || strcmp(b, "wake up") != 0) {
            fprintf(stderr, "core_idle: receive failed (%d)\n", rc);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        double share = cpu / wall;
        printf("# core idle: rank %d blocked %.2f s in mpb_recv, %.3f s of CPU: share %.4f\n", rank,
               wall, cpu, share);
        if (csv && rank == 1) {
            FILE *f = fopen(csv, "a");
            if (f) {
                fprintf(f, "core,idle-cpu,8,%.4f,none,1,%.4f\n", share, share);
                fclose(f);
            }
        }
    }
    mpb_finalize();
    MPI_Finalize();
    return 0;
}
