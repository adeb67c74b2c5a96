/* Pieces every benchmark program shares: reading its `--name VALUE`
 * options and the raw-MPI round trip that is the baseline of the
 * point-to-point benchmarks. */
#ifndef MPBRIDGE_BENCH_COMMON_H
#define MPBRIDGE_BENCH_COMMON_H

#include <mpi.h>
#include <string.h>

/* The value given after option `name` (the last one when it is given
 * more than once), or NULL when it is not on the command line. */
static inline const char *bench_option(int argc, char **argv, const char *name)
{
    const char *value = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], name))
            value = argv[++i];
    return value;
}

/* One raw-MPI round trip of `bytes` bytes between ranks 0 and `peer`:
 * rank 0 sends `out` and receives the echo into `in`; the peer receives
 * into `in` and sends that back. */
static inline void bench_mpi_round_trip(const void *out, void *in, long bytes, int rank, int peer)
{
    if (rank == 0) {
        MPI_Send(out, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(in, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(in, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(in, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
}

#endif
