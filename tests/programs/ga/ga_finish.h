/* The start and end of the GA C test programs. start_ga starts MPI and
 * GA, gives MA `ma_doubles` doubles of heap and of stack (none when 0),
 * names the rank in the tally's failure lines and returns the rank (and
 * the rank count in *np). finish_ga: the tallies of all ranks are added
 * up, rank 0 prints "NAME: N passed, M failed", GA and MPI stop, and the
 * exit status is 1 when this rank failed a check. Include after mpi.h,
 * tally.h and ga.h. */
#ifndef MPBRIDGE_TEST_GA_FINISH_H
#define MPBRIDGE_TEST_GA_FINISH_H

#include <stdio.h>

static inline int start_ga(int *argc, char ***argv, int *np, long ma_doubles)
{
    MPI_Init(argc, argv);
    GA_Initialize();
    if (ma_doubles > 0) MA_init(C_DBL, ma_doubles, ma_doubles);
    *np = GA_Nnodes();
    tally_who = GA_Nodeid();
    return tally_who;
}

static int finish_ga(const char *name, int me)
{
    int ok = failed == 0;
    int t[2] = {passed, failed};
    GA_Igop(t, 2, "+");
    if (me == 0) printf("%s: %d passed, %d failed\n", name, t[0], t[1]);
    GA_Terminate();
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif
