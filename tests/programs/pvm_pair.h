/* For test programs that run as exactly two PVM tasks under mpiexec:
 * pvm_pair_peer(PROG, &first) enrols the task, returns the other task's
 * tid and tells whether this task is the first sibling. On any other
 * number of tasks it prints that PROG needs 2 ranks and ends with 1. */
#ifndef PVM_PAIR_H
#define PVM_PAIR_H
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>

static int pvm_pair_peer(const char *prog, int *first) {
    int me = pvm_mytid();
    int *sibs = NULL;
    if (pvm_siblings(&sibs) != 2) {
        fprintf(stderr, "%s: needs 2 ranks\n", prog);
        exit(1);
    }
    *first = sibs[0] == me;
    return *first ? sibs[1] : sibs[0];
}
#endif
