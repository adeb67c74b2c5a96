/* The end of the GA C test programs (finish_ga): the tallies of all ranks
 * are added up, rank 0 prints "NAME: N passed, M failed", GA and MPI stop,
 * and the exit status is 1 when this rank failed a check. Include after
 * mpi.h, tally.h and ga.h. */
#ifndef MPBRIDGE_TEST_GA_FINISH_H
#define MPBRIDGE_TEST_GA_FINISH_H

#include <stdio.h>

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
