/* A host going down under a PVM master. Started as one task with the name
 * of the host to lose: the master spawns a child there that waits for ever,
 * asks pvm_notify for PvmHostDelete of that host and PvmTaskExit of the
 * child, prints "pvm_host_down: ready" and waits (30 s at most for each)
 * for both notices while the host is taken down from outside (a second
 * argument names a file it creates when ready). It checks
 * that the notices name the host and the child, that pvm_config no longer
 * lists the host, and ends with "pvm_host_down: N passed, M failed". */
#define _DEFAULT_SOURCE /* gethostname */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "../tally.h"

#define HOSTDEL_TAG 71
#define EXIT_TAG 72
#define HELLO_TAG 73

int main(int argc, char **argv) {
    int me = pvm_mytid();
    if (pvm_parent() > 0) {
        pvm_initsend(PvmDataDefault);
        pvm_send(pvm_parent(), HELLO_TAG);
        pvm_recv(pvm_parent(), HELLO_TAG); /* never sent */
        pvm_exit();
        return 0;
    }
    tally_who = me;
    if (argc < 2) {
        fprintf(stderr, "usage: pvm_host_down HOST\n");
        return 2;
    }
    char *host = argv[1];
    int child = 0;
    CHECK_EQ(pvm_spawn(argv[0], NULL, PvmTaskHost, host, 1, &child), 1, "spawn on the host");
    struct timeval t = {30, 0};
    CHECK(pvm_trecv(child, HELLO_TAG, &t) > 0, "the child on %s started", host);
    int dtid = pvm_tidtohost(child);
    EXPECT(pvm_notify(PvmHostDelete, HOSTDEL_TAG, 1, &dtid), PvmOk);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 1, &child), PvmOk);
    printf("pvm_host_down: ready\n");
    fflush(stdout);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "w");
        if (f) fclose(f);
    }

    int body = 0, bytes = 0, tag = 0, src = 0;
    t.tv_sec = 30;
    int id = pvm_trecv(-1, HOSTDEL_TAG, &t);
    CHECK(id > 0, "the PvmHostDelete notice for %s came", host);
    if (id > 0) {
        pvm_upkint(&body, 1, 1);
        pvm_bufinfo(id, &bytes, &tag, &src);
        CHECK_EQ(body, dtid, "the notice names the host");
        CHECK_EQ(src, (int)(0x80000000u | (unsigned)dtid), "it comes from the host's daemon");
    }
    t.tv_sec = 30;
    id = pvm_trecv(-1, EXIT_TAG, &t);
    CHECK(id > 0, "the PvmTaskExit notice of the child came");
    if (id > 0) {
        pvm_upkint(&body, 1, 1);
        CHECK_EQ(body, child, "the exit notice names the child");
    }
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    EXPECT(pvm_config(&nhost, &narch, &hp), PvmOk);
    for (int i = 0; i < nhost; i++)
        CHECK(strcmp(hp[i].hi_name, host) != 0, "%s is still in pvm_config", host);
    printf("pvm_host_down: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
