/* Get-Maximum terminal (MPI): context LocalGroup with root CalcRoot;
 * application argument int-val. Reduces its value with MAX to the root of
 * its group, then receives the result by broadcast from the same root.
 * The same executable serves the all-terminals composition (a terminal is
 * the root) and the terminal-servers one (a server is the root). */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <ensemble.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    SetEnvArgs(&argc, &argv);
    int value = argc > 1 ? atoi(argv[1]) : ENS_id();
    int max = value;
    MPI_Reduce(&value, &max, 1, MPI_INT, MPI_MAX, ENVRoot(CalcRoot, LocalGroup));
    MPI_Bcast(&max, 1, MPI_INT, ENVRoot(CalcRoot, LocalGroup));
    printf("The maximum is %d\n", max);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
