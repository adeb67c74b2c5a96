/* The end of the GA C test programs: the tallies of all ranks are added
 * up and rank 0 prints "NAME: N passed, M failed" (print_ga_tally);
 * finish_ga then stops GA and MPI and gives the exit status, 1 when this
 * rank failed a check. Include after mpi.h, tally.h and ga.h. */
#ifndef MPBRIDGE_TEST_GA_FINISH_H
#define MPBRIDGE_TEST_GA_FINISH_H

#include <stdio.h>

static void print_ga_tally(const char *name, int me)
{
    int t[2] = {passed, failed};
    GA_Igop(t, 2, "+");
    if (me == 0) printf("%s: %d passed, %d failed\n", name, t[0], t[1]);
}

static int finish_ga(const char *name, int me)
{
    int ok = failed == 0;
    print_ga_tally(name, me);
    GA_Terminate();
    MPI_Finalize();
    return ok ? 0 : 1;
}

#endif
