/* The PVM virtual machine on a cluster of hosts. Started as one task with
 * the expected machine as its argument ("host1:1150,host2:331,..."):
 * - pvm_config lists those hosts, in that order, with those speeds;
 * - pvm_spawn with PvmTaskHost starts a task on the named host: the child's
 *   gethostname() is that host, and pvm_tidtohost gives that host's id from
 *   the parent's and from the child's own view;
 * - a spawn without a host deals the tasks out over every host;
 * - pvm_addhosts: PvmDupHost for a host in the machine, PvmCantStart for one
 *   outside the cluster;
 * - pvm_delhosts of a host answers a pvm_notify(PvmHostDelete) for it with
 *   its host id, ends the task running there (its PvmTaskExit notice
 *   comes), takes it out of pvm_config, pvm_mstat and pvm_spawn's choice;
 *   deleting it again gives PvmNoHost, deleting the first task's host
 *   PvmNotImpl; pvm_addhosts puts it back with the same id.
 * Ends with "pvm_hosts: N passed, M failed". */
#define _DEFAULT_SOURCE /* gethostname */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "../tally.h"

#define REPORT_TAG 61
#define STAY_TAG 62
#define HOSTDEL_TAG 63
#define EXIT_TAG 64

static char *self;

/* A child: reports its host name, its host id as it sees it and the name
 * its own pvm_config gives that id; with "stay" it then waits to be
 * killed. */
static int child(int stay) {
    char host[256] = "", seen[256] = "?";
    gethostname(host, sizeof host - 1);
    int dtid = pvm_tidtohost(pvm_mytid());
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    pvm_config(&nhost, &narch, &hp);
    for (int i = 0; i < nhost; i++)
        if (hp[i].hi_tid == dtid) snprintf(seen, sizeof seen, "%s", hp[i].hi_name);
    pvm_initsend(PvmDataDefault);
    pvm_pkstr(host);
    pvm_pkint(&dtid, 1, 1);
    pvm_pkstr(seen);
    pvm_send(pvm_parent(), REPORT_TAG);
    if (stay) pvm_recv(pvm_parent(), STAY_TAG); /* never sent: killed here */
    pvm_exit();
    return 0;
}

/* The id pvm_config gives host `name`, or 0. */
static int dtid_of(const char *name) {
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    pvm_config(&nhost, &narch, &hp);
    for (int i = 0; i < nhost; i++)
        if (strcmp(hp[i].hi_name, name) == 0) return hp[i].hi_tid;
    return 0;
}

/* Reads one child's report; returns 1 if it came. */
static int report(int tid, char *host, int *dtid, char *seen) {
    struct timeval t = {40, 0};
    int id = pvm_trecv(tid, REPORT_TAG, &t);
    CHECK(id > 0, "the child t%x reported", (unsigned)tid);
    if (id <= 0) return 0;
    pvm_upkstr(host);
    pvm_upkint(dtid, 1, 1);
    pvm_upkstr(seen);
    return 1;
}

/* Spawns one child on `host` and checks where it runs. Returns its tid. */
static int on_host(char *host, int stay) {
    int tid = 0;
    char *argv[] = {stay ? "stay" : "go", NULL};
    int n = pvm_spawn(self, argv, PvmTaskHost, host, 1, &tid);
    CHECK(n == 1 && tid > 0, "spawn on %s: %d, t%x", host, n, (unsigned)tid);
    if (n != 1) return 0;
    char name[256] = "", seen[256] = "";
    int dtid = 0;
    if (!report(tid, name, &dtid, seen)) return tid;
    CHECK(strcmp(name, host) == 0, "spawned on %s, runs on %s", host, name);
    CHECK_EQ(pvm_tidtohost(tid), dtid_of(host), "the parent's tidtohost of the child");
    CHECK_EQ(dtid, dtid_of(host), "the child's own tidtohost");
    CHECK(strcmp(seen, host) == 0, "the child's pvm_config names its host %s, not %s", host, seen);
    return tid;
}

int main(int argc, char **argv) {
    self = argv[0];
    int me = pvm_mytid();
    if (pvm_parent() > 0) return child(argc > 1 && strcmp(argv[1], "stay") == 0);
    tally_who = me;
    if (argc < 2) {
        fprintf(stderr, "usage: pvm_hosts host:speed,host:speed,...\n");
        return 2;
    }

    /* The machine. */
    char want[1024];
    snprintf(want, sizeof want, "%s", argv[1]);
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hp = NULL;
    EXPECT(pvm_config(&nhost, &narch, &hp), PvmOk);
    int i = 0;
    char names[16][64];
    for (char *item = strtok(want, ","); item; item = strtok(NULL, ","), i++) {
        char *colon = strchr(item, ':');
        int speed = colon ? atoi(colon + 1) : 1000;
        if (colon) *colon = 0;
        snprintf(names[i < 16 ? i : 15], 64, "%s", item);
        CHECK(i < nhost && strcmp(hp[i].hi_name, item) == 0, "host %d is %s, not %s", i,
              item, i < nhost ? hp[i].hi_name : "(none)");
        if (i < nhost) {
            CHECK_EQ(hp[i].hi_speed, speed, "speed");
            CHECK_EQ(hp[i].hi_tid, (i + 1) << 18, "host id");
            CHECK(strcmp(hp[i].hi_arch, "LINUX64") == 0, "arch %s", hp[i].hi_arch);
        }
    }
    int hosts = i;
    CHECK_EQ(nhost, hosts, "pvm_config's number of hosts");
    CHECK_EQ(narch, 1, "pvm_config's number of architectures");
    char mine[256] = "";
    gethostname(mine, sizeof mine - 1);
    CHECK_EQ(pvm_tidtohost(me), dtid_of(mine), "tidtohost of this task");

    /* Spawns on each named host. */
    for (i = 0; i < hosts; i++) on_host(names[i], 0);

    /* A spawn without a host: one task per host. */
    {
        int tids[16];
        char *argv2[] = {"go", NULL};
        int n = pvm_spawn(self, argv2, PvmTaskDefault, NULL, hosts, tids);
        CHECK_EQ(n, hosts, "default spawn");
        int seen_on[16] = {0};
        for (int k = 0; k < n; k++) {
            char name[256] = "", seen[256] = "";
            int dtid = 0;
            if (!report(tids[k], name, &dtid, seen)) continue;
            for (int h = 0; h < hosts; h++)
                if (strcmp(name, names[h]) == 0) seen_on[h]++;
            CHECK(strcmp(name, seen) == 0, "child on %s sees itself on %s", name, seen);
        }
        for (int h = 0; h < hosts; h++)
            CHECK_EQ(seen_on[h], 1, "tasks of a default spawn on each host");
    }

    /* Adding hosts. */
    char *last = names[hosts - 1];
    char *add[2] = {names[1], "no.such.host"};
    int infos[2] = {1, 1};
    EXPECT(pvm_addhosts(add, 2, infos), 0);
    CHECK_EQ(infos[0], PvmDupHost, "addhosts of a host in the machine");
    CHECK_EQ(infos[1], PvmCantStart, "addhosts of a host outside the cluster");

    /* Deleting the last host while a task runs there. */
    int last_dtid = dtid_of(last);
    int stayer = on_host(last, 1);
    EXPECT(pvm_notify(PvmHostDelete, HOSTDEL_TAG, 1, &last_dtid), PvmOk);
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 1, &stayer), PvmOk);
    infos[0] = 1;
    EXPECT(pvm_delhosts(&last, 1, infos), 1);
    CHECK_EQ(infos[0], PvmOk, "delhosts of a host in the machine");
    {
        struct timeval t = {20, 0};
        int id = pvm_trecv(-1, HOSTDEL_TAG, &t);
        CHECK(id > 0, "the PvmHostDelete notice came");
        int body = 0, bytes = 0, tag = 0, src = 0;
        if (id > 0) {
            pvm_upkint(&body, 1, 1);
            pvm_bufinfo(id, &bytes, &tag, &src);
            CHECK_EQ(body, last_dtid, "the notice names the deleted host");
            CHECK_EQ(src, (int)(0x80000000u | (unsigned)last_dtid), "the notice comes from its daemon");
        }
        t.tv_sec = 20;
        id = pvm_trecv(-1, EXIT_TAG, &t);
        CHECK(id > 0, "the task on the deleted host ended (PvmTaskExit notice)");
        if (id > 0) {
            pvm_upkint(&body, 1, 1);
            CHECK_EQ(body, stayer, "the exit notice names the task");
        }
    }
    EXPECT(pvm_config(&nhost, &narch, &hp), PvmOk);
    CHECK_EQ(nhost, hosts - 1, "pvm_config after the delete");
    for (i = 0; i < nhost; i++)
        CHECK(strcmp(hp[i].hi_name, last) != 0, "%s is still listed", last);
    pvm_setopt(PvmAutoErr, 0);
    CHECK_EQ(pvm_mstat(last), PvmNoHost, "mstat of the deleted host");
    {
        int tid = 0;
        CHECK_EQ(pvm_spawn(self, NULL, PvmTaskHost, last, 1, &tid), 0, "spawn on the deleted host");
        CHECK_EQ(tid, PvmNoHost, "spawn on the deleted host");
    }
    pvm_setopt(PvmAutoErr, 1);
    infos[0] = 1;
    EXPECT(pvm_delhosts(&last, 1, infos), 0);
    CHECK_EQ(infos[0], PvmNoHost, "delhosts of a deleted host");
    char *first = names[0];
    EXPECT(pvm_delhosts(&first, 1, infos), 0);
    CHECK_EQ(infos[0], PvmNotImpl, "delhosts of the first task's host");
    EXPECT(pvm_notify(PvmHostDelete, HOSTDEL_TAG, 1, &last_dtid), PvmOk);
    {
        struct timeval t = {0, 0};
        CHECK(pvm_trecv(-1, HOSTDEL_TAG, &t) > 0, "notify for a host not in the machine comes at once");
    }

    /* Adding it back. */
    infos[0] = 1;
    EXPECT(pvm_addhosts(&last, 1, infos), 1);
    CHECK_EQ(infos[0], last_dtid, "addhosts gives the host its id again");
    EXPECT(pvm_config(&nhost, &narch, &hp), PvmOk);
    CHECK_EQ(nhost, hosts, "pvm_config after adding it back");
    CHECK_EQ(pvm_mstat(last), PvmOk, "mstat of the host added back");
    on_host(last, 0);

    printf("pvm_hosts: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
