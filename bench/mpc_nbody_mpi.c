/* The galaxy N-body as a plain MPI program with a fixed mapping: process
 * r simulates the r-th group of the order given, wherever mpiexec put it
 * (the experiment puts 3 processes on the first host, 1 on the second, 5
 * on the third). Prints "NBODY mpi ORDER SECONDS".
 *
 *   mpc_nbody_mpi ORDER [OUTER INNER]     ORDER: nine sizes, "10,10,...". */
#include <mpi.h>
#include "nbody_galaxy.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, sizes[NGROUPS];
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2 || parse_order(argv[1], sizes) != 0 || np != NGROUPS) {
        if (me == 0)
            fprintf(stderr, "usage: mpiexec -n 9 mpc_nbody_mpi N1,...,N9 [OUTER INNER]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int outer = argc > 3 ? atoi(argv[2]) : 10, inner = argc > 3 ? atoi(argv[3]) : 100;
    int n = sizes[me];
    body *b = malloc((size_t)n * sizeof *b);
    group_init(b, n, me);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    simulate_group(b, n, me, outer, inner, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    if (me == 0)
        printf("NBODY mpi %s %.4f\n", argv[1], t);
    free(b);
    MPI_Finalize();
    return 0;
}
