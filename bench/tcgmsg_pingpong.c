/*
 * tcgmsg_pingpong.c - one-way message time of TCGMSG's synchronous
 * SND/RCV against raw MPI_Send/MPI_Recv, in the same mpiexec job, on the
 * same buffers.
 *
 *     mpiexec -n 2 tcgmsg_pingpong [--csv PATH] [--rounds N] [--max-bytes N]
 *
 * Sizes: 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB, 1 MiB, 4 MiB. For each size: one checked round
 * trip of each kind, a warm-up, then --rounds rounds of each kind
 * (alternating which goes first); the minimum over rounds of the mean
 * one-way time is kept. The program starts MPI itself, then TCGMSG
 * (tcg_alt_pbegin), and ends with tcg_pend.
 *
 * A third kind, timed the same way, is raw MPI with a non-blocking receive
 * (MPI_Irecv + MPI_Test loop): what MPI itself pays for a receive that
 * polls instead of blocking, as TCGMSG's must.
 *
 * Rank 0 prints "RESULT bytes ours_us mpi_us ratio mpi_nb_us" lines and,
 * with --csv,
 * appends rows "tcgmsg,snd-rcv,BYTES,OURS,mpi,MPI,RATIO".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcgmsg.h>

#include "bench_common.h"

#define MAXB ((long)4 << 20)

static int rank;
static unsigned char *sbuf, *rbuf;

static void mpi_trip(long size, int peer) {
    bench_mpi_round_trip(sbuf, rbuf, size, rank, peer);
}

/* MPI's own non-blocking receive path: MPI_Irecv, then MPI_Test until done
 * (what a receive that must not block the core for ever costs in MPI). */
static void mpi_nb_trip(long size, int peer) {
    MPI_Request r;
    int done = 0;
    if (rank == 0) {
        MPI_Send(sbuf, (int)size, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
        MPI_Irecv(rbuf, (int)size, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r);
        while (!done) MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    } else {
        MPI_Irecv(rbuf, (int)size, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r);
        while (!done) MPI_Test(&r, &done, MPI_STATUS_IGNORE);
        MPI_Send(rbuf, (int)size, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
    }
}

static void tcg_trip(long size, long peer) {
    long len, from;
    if (rank == 0) {
        tcg_snd(1, sbuf, size, peer, 1);
        tcg_rcv(1, rbuf, size, &len, peer, &from, 1);
    } else {
        tcg_rcv(1, rbuf, size, &len, peer, &from, 1);
        tcg_snd(1, rbuf, size, peer, 1);
    }
}

static double timed(int kind, long size, long iters) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        if (kind == 0) mpi_trip(size, 1 - rank);
        else if (kind == 1) tcg_trip(size, 1 - rank);
        else mpi_nb_trip(size, 1 - rank);
    }
    return (MPI_Wtime() - t0) / (double)iters / 2.0 * 1e6;
}

int main(int argc, char **argv) {
    const char *csv = bench_option(argc, argv, "--csv");
    const char *r = bench_option(argc, argv, "--rounds");
    const char *m = bench_option(argc, argv, "--max-bytes");
    int rounds = r ? atoi(r) : 21, n;
    long maxb = m ? atol(m) : MAXB;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 2) {
        if (rank == 0) fprintf(stderr, "tcgmsg_pingpong: run on 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    tcg_alt_pbegin(&argc, &argv);
    sbuf = malloc(MAXB);
    rbuf = malloc(MAXB);
    for (long i = 0; i < MAXB; i++) sbuf[i] = (unsigned char)(i * 17 + 1);
    FILE *out = (rank == 0 && csv) ? fopen(csv, "a") : NULL;
    if (rank == 0)
        printf("# bytes ours_us mpi_us ratio mpi_nonblocking_us (one-way, min over %d rounds)\n",
               rounds);
    static const long sizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576, MAXB};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        long size = sizes[si];
        if (size > maxb) break;
        for (int k = 0; k < 2; k++) {
            memset(rbuf, 0, (size_t)size);
            if (k == 0) mpi_trip(size, 1 - rank); else tcg_trip(size, 1 - rank);
            if (memcmp(rbuf, sbuf, (size_t)size) != 0) {
                fprintf(stderr, "tcgmsg_pingpong: %s round trip of %ld bytes corrupted the data\n",
                        k ? "TCGMSG" : "MPI", size);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        long iters = size <= 4096 ? 3000 : (size <= 65536 ? 500 : 20);
        timed(0, size, iters / 4);
        timed(1, size, iters / 4);
        timed(2, size, iters / 4);
        double best[3] = {1e30, 1e30, 1e30};
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < 3; j++) {
                int k = (r % 2) ? 2 - j : j;
                double t = timed(k, size, iters);
                if (t < best[k]) best[k] = t;
            }
        }
        if (rank == 0) {
            printf("RESULT %ld %.3f %.3f %.3f %.3f\n", size, best[1], best[0], best[1] / best[0],
                   best[2]);
            fflush(stdout);
            if (out) fprintf(out, "tcgmsg,snd-rcv,%ld,%.3f,mpi,%.3f,%.3f\n", size, best[1], best[0],
                             best[1] / best[0]);
        }
    }
    if (out) fclose(out);
    free(sbuf);
    free(rbuf);
    tcg_pend();
    return 0;
}
