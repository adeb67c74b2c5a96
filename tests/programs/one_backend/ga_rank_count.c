/* Started by `mpbridge run --ga-servers -n N ga_rank_count N`: the data
 * server runs beside the N compute ranks without being one of them.
 * GA, TCGMSG and GA_MPI_Comm() must all count N ranks, while
 * MPI_COMM_WORLD also holds the server; every rank increments one GA
 * counter (served through the server's memory) once. Each rank prints
 * "ga_rank_count rank R of N (world W): P passed, F failed". */
#include <mpi.h>
#include <ga.h>
#include <ga-mpi.h>
#include <tcgmsg.h>

#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"

int main(int argc, char **argv)
{
    long want = argc > 1 ? strtol(argv[1], NULL, 10) : -1;
    MPI_Init(&argc, &argv);
    GA_Initialize();
    int me = GA_Nodeid(), n = GA_Nnodes();
    tally_who = me;

    int world = -1, compute = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_size(GA_MPI_Comm(), &compute);
    CHECK_EQ(n, want, "GA_Nnodes against the -n given to mpbridge run");
    CHECK_EQ(compute, n, "size of GA_MPI_Comm()");
    CHECK_EQ(tcg_nnodes(), n, "tcg_nnodes");
    CHECK_EQ(tcg_nodeid(), me, "tcg_nodeid against GA_Nodeid");
    CHECK(world > n, "MPI_COMM_WORLD has %d ranks: no room for a ga-server beside %d", world, n);

    int one = 1, sub = 0, ld = 1;
    int g = NGA_Create(C_LONG, 1, &one, "count", NULL);
    CHECK(g != 0, "NGA_Create");
    if (g) {
        GA_Zero(g);
        GA_Sync();
        (void)NGA_Read_inc(g, &sub, 1);
        GA_Sync();
        long total = -1;
        NGA_Get(g, &sub, &sub, &total, &ld);
        CHECK_EQ(total, n, "counter after one NGA_Read_inc per compute rank");
        GA_Destroy(g);
    }

    printf("ga_rank_count rank %d of %d (world %d): %d passed, %d failed\n", me, n, world,
           passed, failed);
    fflush(stdout);
    GA_Terminate();
    MPI_Finalize();
    return failed != 0;
}
