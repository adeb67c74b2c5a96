/* The trivial component of the Ensemble launch benchmark: start, meet the
 * others once, stop. Built twice from this file: with -DWITH_ENSEMBLE it
 * is a component started by `mpbridge ensemble run` (its envelope gives
 * it context All); without, the same program for a plain mpiexec. */
#include <mpi.h>
#ifdef WITH_ENSEMBLE
#include <ensemble.h>
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef WITH_ENSEMBLE
    SetEnvArgs(&argc, &argv);
    MPI_Barrier(ENVComm(All));
#else
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    MPI_Finalize();
    return 0;
}
