/* The start and end of the GA test programs that keep a record per rank:
 * row `me` of a table of 8 rows of `nv` longs, zero elsewhere, is this
 * rank's record. start_ga_record starts MPI and GA, names the rank in the
 * tally's failure lines and returns the rank (and the rank count in *np).
 * finish_ga_record sums the rows over the ranks, has rank 0 print the
 * first `k` values of each rank's row ("rank P: ..."), and ends as
 * finish_ga (ga_finish.h) does, returning the exit status. Include
 * after mpi.h, tally.h and ga.h. */
#ifndef MPBRIDGE_TEST_GA_RECORD_H
#define MPBRIDGE_TEST_GA_RECORD_H

#include "ga_finish.h"

static int start_ga_record(int *argc, char ***argv, int *np)
{
    return start_ga(argc, argv, np, 0);
}

static int finish_ga_record(const char *name, long *v, int nv, int k, int me, int np)
{
    CHECK(k <= nv, "record fits (%d)", k);
    GA_Lgop(v, 8 * nv, "+");
    if (me == 0)
        for (int p = 0; p < np; p++) {
            printf("rank %d:", p);
            for (int i = 0; i < k; i++) printf(" %ld", v[p * nv + i]);
            printf("\n");
        }
    return finish_ga(name, me);
}

#endif
