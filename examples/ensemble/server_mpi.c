/* Get-Maximum server (MPI): context TerminalGroup with root CalcRoot, and
 * context ServerGroup with multiports Out[1] and In[1]; topology argument
 * RingSize. Collects the maximum of its terminal group, passes maxima
 * around the ring of servers RingSize-1 times, then broadcasts the result
 * to its terminals. */
#include <limits.h>
#include <stdio.h>
#include <mpi.h>
#include <ensemble.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    SetEnvArgs(&argc, &argv);
    int ring = ENVArg(RingSize, 1);
    int none = INT_MIN, max = INT_MIN;
    MPI_Reduce(&none, &max, 1, MPI_INT, MPI_MAX, ENVRoot(CalcRoot, TerminalGroup));
    for (int round = 1; round < ring; round++) {
        int in;
        MPI_Request req;
        MPI_Isend(&max, 1, MPI_INT, ENVPort(Out, 1, ServerGroup), &req);
        MPI_Recv(&in, 1, MPI_INT, ENVPort(In, 1, ServerGroup), MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (in > max)
            max = in;
    }
    MPI_Bcast(&max, 1, MPI_INT, ENVRoot(CalcRoot, TerminalGroup));
    printf("Server %d: the maximum is %d\n", ENS_id(), max);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
