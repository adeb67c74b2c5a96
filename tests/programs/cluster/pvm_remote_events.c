/* PVM events that cross hosts. Started as one task on a cluster of at
 * least three hosts; "A" and "B" below are the first two hosts of
 * pvm_config other than the master's own.
 * - A task on another host that is killed (SIGKILL, no pvm_exit): the
 *   master asked for pvm_notify(PvmTaskExit) of one child on A and one on
 *   B; each child says its last word and kills itself; the master, waiting
 *   in pvm_trecv(-1, ...), gets both exit notices within 3 s of the last
 *   word, and pvm_pstat then says PvmNoTask.
 * - pvm_delhosts seen by every task: a child on B asked for
 *   pvm_notify(PvmHostDelete) of A and pvm_notify(PvmHostAdd); when the
 *   master deletes A, the child's notice names A and the child's own
 *   pvm_config no longer lists A.
 * - PvmHostAdd: when the master adds A back, its own PvmHostAdd notice and
 *   the child's say one host came, with A's id, and the child's
 *   pvm_config lists A again.
 * Ends with "pvm_remote_events: N passed, M failed". */
#define _DEFAULT_SOURCE /* gethostname */
#include <pvm3.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "../tally.h"

#define HELLO_TAG 81
#define GO_TAG 82
#define LAST_TAG 83
#define EXIT_TAG 84
#define HOSTDEL_TAG 85
#define HOSTADD_TAG 86
#define REPORT_TAG 87

static double now(void) {
    struct timeval t;
    gettimeofday(&t, NULL);
    return t.tv_sec + t.tv_usec / 1e6;
}

/* Whether pvm_config lists host `name`. */
static int listed(const char *name) {
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    pvm_config(&nhost, &narch, &hp);
    for (int i = 0; i < nhost; i++)
        if (strcmp(hp[i].hi_name, name) == 0) return 1;
    return 0;
}

/* A child that dies: hello, then on GO its last word and SIGKILL. */
static int dying_child(void) {
    int parent = pvm_parent();
    pvm_initsend(PvmDataDefault);
    pvm_send(parent, HELLO_TAG);
    pvm_recv(parent, GO_TAG);
    pvm_initsend(PvmDataDefault);
    pvm_send(parent, LAST_TAG);
    raise(SIGKILL);
    return 0;
}

/* A child that watches host `a` (id `dtid`) leave and come back, and
 * reports what it saw after each: whether the notice came, its body, and
 * whether its pvm_config lists the host. */
static int watching_child(const char *a, int dtid) {
    int parent = pvm_parent();
    pvm_notify(PvmHostDelete, HOSTDEL_TAG, 1, &dtid);
    pvm_notify(PvmHostAdd, HOSTADD_TAG, -1, NULL);
    pvm_initsend(PvmDataDefault);
    pvm_send(parent, HELLO_TAG);

    struct timeval t = {15, 0};
    int body[2] = {0, 0};
    int came = pvm_trecv(-1, HOSTDEL_TAG, &t) > 0;
    if (came) pvm_upkint(body, 1, 1);
    int there = listed(a);
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&came, 1, 1);
    pvm_pkint(body, 1, 1);
    pvm_pkint(&there, 1, 1);
    pvm_send(parent, REPORT_TAG);

    t.tv_sec = 15;
    body[0] = body[1] = 0;
    came = pvm_trecv(-1, HOSTADD_TAG, &t) > 0;
    if (came) pvm_upkint(body, 2, 1);
    there = listed(a);
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&came, 1, 1);
    pvm_pkint(body, 2, 1);
    pvm_pkint(&there, 1, 1);
    pvm_send(parent, REPORT_TAG);
    pvm_exit();
    return 0;
}

/* Spawns one child of this program with `argv` on `host`; its tid. */
static int spawn_on(char *self, char **argv, char *host) {
    int tid = 0;
    int n = pvm_spawn(self, argv, PvmTaskHost, host, 1, &tid);
    CHECK(n == 1 && tid > 0, "spawn on %s: %d, t%x", host, n, (unsigned)tid);
    return n == 1 ? tid : 0;
}

int main(int argc, char **argv) {
    int me = pvm_mytid();
    if (pvm_parent() > 0) {
        if (argc > 1 && strcmp(argv[1], "die") == 0) return dying_child();
        if (argc > 3 && strcmp(argv[1], "watch") == 0) {
            int dtid = 0;
            sscanf(argv[3], "%i", &dtid);
            return watching_child(argv[2], dtid);
        }
        return 2;
    }
    tally_who = me;
    char mine[256] = "";
    gethostname(mine, sizeof mine - 1);
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    EXPECT(pvm_config(&nhost, &narch, &hp), PvmOk);
    char others[2][256];
    int dtids[2] = {0, 0}, k = 0;
    for (int i = 0; i < nhost && k < 2; i++)
        if (strcmp(hp[i].hi_name, mine) != 0) {
            snprintf(others[k], sizeof others[k], "%s", hp[i].hi_name);
            dtids[k++] = hp[i].hi_tid;
        }
    CHECK(k == 2, "two hosts besides %s in pvm_config (%d)", mine, nhost);
    if (k < 2) goto done;
    char *a = others[0], *b = others[1];
    int dtid_a = dtids[0];

    /* Remote tasks killed. */
    char *die[] = {"die", NULL};
    int kids[2] = {spawn_on(argv[0], die, a), spawn_on(argv[0], die, b)};
    struct timeval t = {30, 0};
    for (int i = 0; i < 2; i++)
        CHECK(kids[i] > 0 && pvm_trecv(kids[i], HELLO_TAG, &t) > 0, "child %d started", i);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 2, kids), PvmOk);
    pvm_initsend(PvmDataDefault);
    pvm_mcast(kids, 2, GO_TAG);
    double last = 0;
    for (int i = 0; i < 2; i++) {
        t.tv_sec = 30;
        CHECK(pvm_trecv(kids[i], LAST_TAG, &t) > 0, "the last word of t%x", (unsigned)kids[i]);
        last = now();
    }
    int heard[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        t.tv_sec = 20;
        int id = pvm_trecv(-1, -1, &t);
        int bytes = 0, tag = 0, src = 0, who = 0;
        if (id > 0) {
            pvm_bufinfo(id, &bytes, &tag, &src);
            pvm_upkint(&who, 1, 1);
        }
        CHECK(id > 0 && tag == EXIT_TAG, "an exit notice came (id %d, tag %d)", id, tag);
        double took = now() - last;
        CHECK(took < 3.0, "the notice of t%x came %.1f s after its last word", (unsigned)who,
              took);
        for (int j = 0; j < 2; j++)
            if (who == kids[j]) heard[j]++;
    }
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(heard[i], 1, "exit notices of the child on its host");
        EXPECT(pvm_pstat(kids[i]), PvmNoTask);
    }
    printf("pvm_remote_events: remote exits heard\n");
    fflush(stdout);

    /* Hosts deleted and added, seen by a task on another host. */
    char dtext[32];
    snprintf(dtext, sizeof dtext, "%d", dtid_a);
    char *watch[] = {"watch", a, dtext, NULL};
    int watcher = spawn_on(argv[0], watch, b);
    t.tv_sec = 30;
    CHECK(watcher > 0 && pvm_trecv(watcher, HELLO_TAG, &t) > 0, "the watcher on %s started", b);
    EXPECT(pvm_notify(PvmHostAdd, HOSTADD_TAG, 1, NULL), PvmOk);
    int info = 0;
    EXPECT(pvm_delhosts(&a, 1, &info), 1);
    CHECK_EQ(info, PvmOk, "pvm_delhosts's info");
    CHECK(!listed(a), "%s is gone from the master's pvm_config", a);
    int came = 0, body[2] = {0, 0}, there = 0;
    t.tv_sec = 30;
    CHECK(pvm_trecv(watcher, REPORT_TAG, &t) > 0, "the watcher's first report");
    pvm_upkint(&came, 1, 1);
    pvm_upkint(body, 1, 1);
    pvm_upkint(&there, 1, 1);
    CHECK(came, "the watcher on %s got the PvmHostDelete notice of %s", b, a);
    CHECK_EQ(body[0], dtid_a, "the watcher's notice names the host");
    CHECK(!there, "%s is gone from the watcher's pvm_config", a);

    int added = 0;
    EXPECT(pvm_addhosts(&a, 1, &added), 1);
    CHECK_EQ(added, dtid_a, "pvm_addhosts gives back the host id");
    t.tv_sec = 5;
    int id = pvm_trecv(-1, HOSTADD_TAG, &t);
    CHECK(id > 0, "the master's PvmHostAdd notice came");
    if (id > 0) {
        pvm_upkint(body, 2, 1);
        CHECK_EQ(body[0], 1, "one host came");
        CHECK_EQ(body[1], dtid_a, "the PvmHostAdd notice names it");
    }
    t.tv_sec = 30;
    CHECK(pvm_trecv(watcher, REPORT_TAG, &t) > 0, "the watcher's second report");
    pvm_upkint(&came, 1, 1);
    pvm_upkint(body, 2, 1);
    pvm_upkint(&there, 1, 1);
    CHECK(came, "the watcher on %s got the PvmHostAdd notice", b);
    CHECK_EQ(body[0], 1, "the watcher's notice: one host came");
    CHECK_EQ(body[1], dtid_a, "the watcher's notice names it");
    CHECK(there, "%s is back in the watcher's pvm_config", a);

done:
    printf("pvm_remote_events: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
