/* Task exit notification and kill: the parent spawns two copies of this
 * program. Child A exits when told to; child B blocks in a receive and is
 * killed. The parent asks to be notified of both exits and checks each
 * notice (tag, body = the exited tid, source = a daemon tid), that a notify
 * for a task already gone is answered at once, and that the job then ends
 * cleanly; and that bad arguments are refused as PVM refuses them. Run
 * with `mpiexec -n 1`. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include "tally.h"

#define EXIT_TAG 77

static int notice(int expect_tid) {
    struct timeval t = {20, 0};
    int id = pvm_trecv(-1, EXIT_TAG, &t);
    if (id <= 0) return 0;
    int who = 0, src = 0;
    pvm_upkint(&who, 1, 1);
    pvm_bufinfo(id, NULL, NULL, &src);
    CHECK(src < 0 && (src & 0x3ffc0000) == (expect_tid & 0x3ffc0000), "notice comes from the exited task's daemon tid");
    return who == expect_tid;
}

int main(int argc, char **argv) {
    pvm_mytid();
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        int what = 0;
        pvm_recv(pvm_parent(), 1);
        pvm_upkint(&what, 1, 1);
        if (what == 1) { /* B: wait for something that never comes */
            pvm_recv(pvm_parent(), 2);
            fprintf(stderr, "child B was not killed\n");
        }
        pvm_exit();
        return 0;
    }
    /* Argument checks, as PVM 3.4.6 makes them: events about tasks or
     * hosts need at least one tid, every tid must name a task, the tag
     * must not be negative; HostAdd and RouteAdd take any count. */
    pvm_setopt(PvmAutoErr, 0);
    int me = pvm_mytid();
    int host = me & 0x3ffc0000;
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 0, &me), PvmBadParam);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, -1, &me), PvmBadParam);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 0, NULL), PvmBadParam);
    EXPECT(pvm_notify(PvmTaskExit | PvmNotifyCancel, EXIT_TAG, 0, &me), PvmBadParam);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 1, &host), PvmBadParam);
    EXPECT(pvm_notify(PvmTaskExit, -5, 1, &me), PvmBadParam);
    EXPECT(pvm_notify(PvmHostDelete, EXIT_TAG, 0, &host), PvmBadParam);
    EXPECT(pvm_notify(PvmRouteDelete, EXIT_TAG, 0, &me), PvmBadParam);
    EXPECT(pvm_notify(9, EXIT_TAG, 1, &me), PvmBadParam);
    EXPECT(pvm_notify(PvmHostAdd, EXIT_TAG + 1, -1, NULL), PvmOk);
    EXPECT(pvm_notify(PvmHostAdd, EXIT_TAG + 1, 0, NULL), PvmOk);
    EXPECT(pvm_notify(PvmRouteAdd, EXIT_TAG + 1, -1, NULL), PvmOk);
    EXPECT(pvm_nrecv(-1, EXIT_TAG), 0); /* a refused request sends nothing */
    pvm_setopt(PvmAutoErr, 1);

    int kids[2];
    int n = pvm_spawn(argv[0], (char *[]){"child", NULL}, PvmTaskDefault, "", 2, kids);
    CHECK(n == 2, "two children");
    CHECK(pvm_notify(PvmTaskExit, EXIT_TAG, 2, kids) == PvmOk, "notify");
    for (int i = 0; i < 2; i++) {
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&i, 1, 1);
        pvm_send(kids[i], 1);
    }
    CHECK(notice(kids[0]), "A's exit is reported with its tid");
    CHECK(pvm_pstat(kids[1]) == PvmOk, "B is running");
    CHECK(pvm_kill(kids[1]) == PvmOk, "kill B (blocked in pvm_recv)");
    CHECK(notice(kids[1]), "B's exit is reported");
    pvm_setopt(PvmAutoErr, 0);
    CHECK(pvm_pstat(kids[1]) == PvmNoTask, "B is gone");
    CHECK(pvm_notify(PvmTaskExit, EXIT_TAG, 1, &kids[0]) == PvmOk, "notify for a task already gone");
    CHECK(notice(kids[0]), "answered at once");
    printf("pvm_notify: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
