/* The start and end of the ARMCI C test programs. start_armci starts MPI
 * and ARMCI, names the rank in the tally's failure lines and returns the
 * rank (and the rank count in *np). finish_armci: the tallies of all ranks
 * are added up, rank 0 prints "NAME: N passed, M failed", ARMCI and MPI
 * stop, and the exit status is 1 when this rank failed a check. Include
 * after mpi.h, tally.h, armci.h and message.h. */
#ifndef MPBRIDGE_TEST_ARMCI_RUN_H
#define MPBRIDGE_TEST_ARMCI_RUN_H

#include <stdio.h>

static inline int start_armci(int *argc, char ***argv, int *np)
{
    MPI_Init(argc, argv);
    EXPECT(ARMCI_Init(), 0);
    *np = armci_msg_nproc();
    tally_who = armci_msg_me();
    return tally_who;
}

static int finish_armci(const char *name)
{
    int ok = failed == 0;
    int t[2] = {passed, failed};
    armci_msg_igop(t, 2, "+");
    if (armci_msg_me() == 0) printf("%s: %d passed, %d failed\n", name, t[0], t[1]);
    ARMCI_Finalize();
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif
