/* Leaving PVM leaves every group, and the task that runs the group service
 * (the first one) keeps answering after its own pvm_exit until the others
 * are done. SPMD on 4 ranks (3 or more needed). Each rank prints
 * "t<tid>: N passed, M failed" before its pvm_exit. */
#define _POSIX_C_SOURCE 200809L
#include <pvm3.h>
#include <stdio.h>
#include <time.h>
#include "tally.h"

static int mytid;

/* Polls until task `tid` is no longer a member of group g (at most about
 * 20 s); returns the last pvm_getinst result. */
static int wait_gone(char *g, int tid) {
    struct timespec ms = {0, 10 * 1000 * 1000};
    int r = 0;
    for (int i = 0; i < 2000 && (r = pvm_getinst(g, tid)) >= 0; i++) nanosleep(&ms, NULL);
    return r;
}

static void done(void) {
    printf("t%x: %d passed, %d failed\n", mytid, passed, failed);
    fflush(stdout);
    EXPECT(pvm_exit(), 0);
}

int main(void) {
    int *sibs, me;
    mytid = pvm_mytid();
    tally_who = mytid;
    int n = pvm_siblings(&sibs);
    for (me = 0; me < n && sibs[me] != mytid; me++)
        ;
    if (n < 3) {
        printf("t%x: needs 3 or more tasks, got %d\n", mytid, n);
        pvm_exit();
        return 1;
    }
    int inst = pvm_joingroup("stay");
    EXPECT(inst >= 0, 1);
    EXPECT(pvm_barrier("stay", n), 0);
    if (me == n - 1) {
        /* Leaves PVM while still a member. */
        done();
        return 0;
    }
    EXPECT(wait_gone("stay", sibs[n - 1]), PvmNotInGroup);
    if (me == 0) {
        /* The service's task leaves; it still answers the others. */
        done();
        return 0;
    }
    EXPECT(wait_gone("stay", sibs[0]), PvmNotInGroup);
    EXPECT(pvm_gsize("stay"), n - 2);
    int a = pvm_joingroup("after");
    EXPECT(a >= 0 && a < n - 2, 1);
    EXPECT(pvm_barrier("after", n - 2), 0);
    EXPECT(pvm_gettid("after", a), mytid);
    EXPECT(pvm_gsize("after"), n - 2);
    int v = 1;
    EXPECT(pvm_reduce(PvmSum, &v, 1, PVM_INT, 7, "after", 0), 0);
    if (a == 0) EXPECT(v, n - 2);
    EXPECT(pvm_barrier("after", -1), 0);
    EXPECT(pvm_lvgroup("after"), 0);
    EXPECT(pvm_lvgroup("stay"), 0);
    done();
    return 0;
}
