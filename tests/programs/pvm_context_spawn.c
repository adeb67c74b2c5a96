/* A spawned task starts in its parent's context at spawn time. Every rank
 * is a parent: it makes two contexts and, ITER times, spawns NKIDS children
 * under the first and NKIDS under the second. Each child's first PVM call
 * is pvm_getcontext(); it sends that value, in that context, to its parent
 * at once. The parent receives the second group's messages first, then the
 * first group's, each only in its own context; nothing reaches the base
 * context. A child that then switches to the base context keeps it after
 * its sibling list arrives, and its next message is seen there. The first
 * rank, which keeps the spawn registry, leaves after the other parents.
 * Usage: pvm_context_spawn ITER NKIDS (run under mpiexec with any number of
 * ranks). Ends with "pvm_context_spawn tNNN: N passed, M failed". */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "tally.h"

#define REPORT 41
#define AFTER 42
#define FINISHED 43
#define MAXKIDS 8

static void child(void) {
    int ctx = pvm_getcontext(); /* the first PVM call of the task */
    int me = pvm_mytid();
    int parent = pvm_parent();
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&ctx, 1, 1);
    pvm_pkint(&me, 1, 1);
    pvm_send(parent, REPORT);
    /* A context the task sets itself stays, whatever arrives later. */
    pvm_setcontext(PvmBaseContext);
    int *sibs = NULL;
    pvm_siblings(&sibs);
    int now = pvm_getcontext();
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&now, 1, 1);
    pvm_send(parent, AFTER);
    pvm_exit();
}

/* Receives one REPORT per child in `kids`, in context `ctx`. */
static void reports(int ctx, const int *kids, int n) {
    pvm_setcontext(ctx);
    int seen[MAXKIDS] = {0};
    for (int k = 0; k < n; k++) {
        struct timeval t = {30, 0};
        int id = pvm_trecv(-1, REPORT, &t);
        CHECK(id > 0, "report %d of %d in context %#x arrived", k + 1, n, ctx);
        if (id <= 0) return;
        int got = -1, who = 0, src = 0;
        pvm_upkint(&got, 1, 1);
        pvm_upkint(&who, 1, 1);
        pvm_bufinfo(id, NULL, NULL, &src);
        CHECK_EQ(got, ctx, "child's pvm_getcontext() is the context it was spawned in");
        int mine = -1;
        for (int i = 0; i < n; i++)
            if (kids[i] == src) mine = i;
        CHECK(mine >= 0 && !seen[mine], "report in context %#x comes from a child spawned in it", ctx);
        if (mine >= 0) seen[mine] = 1;
        CHECK_EQ(who, src, "sender is the child");
    }
}

int main(int argc, char **argv) {
    if (pvm_parent() > 0) {
        child();
        return 0;
    }
    tally_who = pvm_mytid();
    int iter = argc > 1 ? atoi(argv[1]) : 10;
    int nkids = argc > 2 ? atoi(argv[2]) : 1;
    if (nkids < 1 || nkids > MAXKIDS) nkids = 1;
    int ctx[2] = {pvm_newcontext(), pvm_newcontext()};
    CHECK(ctx[0] > 0 && ctx[1] > 0 && ctx[0] != ctx[1], "two new contexts");
    for (int it = 0; it < iter; it++) {
        int kids[2][MAXKIDS];
        for (int g = 0; g < 2; g++) {
            pvm_setcontext(ctx[g]);
            int n = pvm_spawn(argv[0], NULL, PvmTaskDefault, "", nkids, kids[g]);
            CHECK_EQ(n, nkids, "children spawned");
            if (n != nkids) {
                printf("pvm_context_spawn t%x: %d passed, %d failed\n", tally_who, passed, failed + 1);
                pvm_exit();
                return 1;
            }
        }
        pvm_setcontext(PvmBaseContext);
        reports(ctx[1], kids[1], nkids);
        reports(ctx[0], kids[0], nkids);
        pvm_setcontext(PvmBaseContext);
        for (int k = 0; k < 2 * nkids; k++) {
            struct timeval t = {30, 0};
            int id = pvm_trecv(-1, AFTER, &t);
            CHECK(id > 0, "message in the base context from a child");
            int now = -1;
            if (id > 0) pvm_upkint(&now, 1, 1);
            CHECK_EQ(now, PvmBaseContext, "a child's own pvm_setcontext stays");
        }
        CHECK_EQ(pvm_nrecv(-1, REPORT), 0, "no report reaches the base context");
    }
    /* The first rank keeps the spawn registry: it stays until the other
     * parents are done spawning. */
    pvm_setcontext(PvmBaseContext);
    int *sibs = NULL;
    int nsib = pvm_siblings(&sibs);
    if (nsib > 1 && sibs[0] == tally_who) {
        for (int k = 1; k < nsib; k++) pvm_recv(-1, FINISHED);
    } else if (nsib > 1) {
        pvm_initsend(PvmDataDefault);
        pvm_send(sibs[0], FINISHED);
    }
    printf("pvm_context_spawn t%x: %d passed, %d failed\n", tally_who, passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
