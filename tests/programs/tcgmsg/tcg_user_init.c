/* The program starts MPI itself, then TCGMSG (tcg_alt_pbegin); messages
 * and collectives work, the program's own MPI traffic on MPI_COMM_WORLD
 * does not mix with TCGMSG's, and PEND ends the process with status 0. */
#include <mpi.h>
#include <stdio.h>
#include <tcgmsg.h>
#include "../tally.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tcg_alt_pbegin(&argc, &argv);
    long me = tcg_nodeid(), nn = tcg_nnodes();
    tally_who = (int)me;
    CHECK_EQ(me, rank, "nodeid is the MPI rank");
    CHECK_EQ(nn, size, "nnodes is the MPI size");
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn, v = me * 10, w = -1, len, from;
    /* an MPI message with tag 7 and a TCGMSG message of type 7 in flight together */
    int mv = rank + 1000, mw = -1;
    MPI_Request r;
    MPI_Irecv(&mw, 1, MPI_INT, (int)prev, 7, MPI_COMM_WORLD, &r);
    MPI_Send(&mv, 1, MPI_INT, (int)next, 7, MPI_COMM_WORLD);
    tcg_snd(7, &v, sizeof v, next, 1);
    tcg_rcv(7, &w, sizeof w, &len, prev, &from, 1);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK_EQ(w, prev * 10, "TCGMSG ring value");
    CHECK_EQ(mw, (int)prev + 1000, "MPI ring value");
    long s = me;
    tcg_igop(3, &s, 1, "+");
    CHECK_EQ(s, nn * (nn - 1) / 2, "igop sum");
    printf("tcg_user_init node %ld: %d passed, %d failed\n", me, passed, failed);
    fflush(stdout);
    if (failed) return 1;
    tcg_pend();
    return 3;
}
