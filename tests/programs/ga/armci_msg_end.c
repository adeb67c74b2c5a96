/* A GA program that ends the way GA's own test programs do with GA's
 * ARMCI: GA_Terminate, then armci_msg_finalize, which must finalise MPI
 * (started here by the program itself). Rank 0 prints what MPI_Finalized
 * says afterwards; every rank exits 0 only if MPI is finalised. */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "armci.h"
#include "message.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    int me = GA_Nodeid();
    int n = GA_Nnodes();
    GA_Sync();
    GA_Terminate();
    armci_msg_finalize();
    int done = 0;
    MPI_Finalized(&done);
    if (me == 0) printf("ranks %d, MPI finalized %d\n", n, done);
    return done ? 0 : 1;
}
