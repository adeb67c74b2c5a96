/* pvm_spawn's `where`: with PvmTaskHost it names a host of the job (as
 * pvm_config lists them, or "."), and the task runs there; a host the job
 * does not have gives PvmNoHost in every slot. With PvmTaskArch it names an
 * architecture: LINUX64 runs, anything else is PvmNoHost. Without either
 * flag `where` is ignored, as in PVM. The first rank spawns; every child
 * sends its host name back. Run under mpiexec with any number of ranks.
 * Ends with "pvm_spawn_where: N passed, M failed". */
#define _DEFAULT_SOURCE /* gethostname */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "tally.h"

#define HOST_TAG 51

static char *self;

/* Spawns one child with `flag` and `where`; it must start and report
 * `want` as its host (NULL: any host of the job). */
static void runs_on(int flag, char *where, const char *want, const char *what) {
    int tid = 0;
    int n = pvm_spawn(self, NULL, flag, where, 1, &tid);
    CHECK(n == 1 && tid > 0, "%s: started (%d, %d)", what, n, tid);
    if (n != 1) return;
    struct timeval t = {30, 0};
    int id = pvm_trecv(tid, HOST_TAG, &t);
    CHECK(id > 0, "%s: the child reported", what);
    if (id <= 0) return;
    char host[256] = "";
    pvm_upkstr(host);
    if (want) CHECK(strcmp(host, want) == 0, "%s: runs on %s, not %s", what, want, host);
}

static void refused(int flag, char *where, int ntask, const char *what) {
    int tids[4] = {1, 1, 1, 1};
    int n = pvm_spawn(self, NULL, flag, where, ntask, tids);
    CHECK_EQ(n, 0, what);
    for (int i = 0; i < ntask; i++) CHECK_EQ(tids[i], PvmNoHost, what);
}

int main(int argc, char **argv) {
    (void)argc;
    self = argv[0];
    int me = pvm_mytid();
    if (pvm_parent() > 0) {
        char host[256] = "";
        gethostname(host, sizeof host - 1);
        pvm_initsend(PvmDataDefault);
        pvm_pkstr(host);
        pvm_send(pvm_parent(), HOST_TAG);
        pvm_exit();
        return 0;
    }
    int *sibs = NULL;
    pvm_siblings(&sibs);
    if (sibs[0] != me) { /* only the first rank spawns */
        pvm_exit();
        return 0;
    }
    tally_who = me;
    int nhost = 0, narch = 0;
    struct pvmhostinfo *hosts = NULL;
    EXPECT(pvm_config(&nhost, &narch, &hosts), PvmOk);
    CHECK(nhost >= 1, "at least one host");
    char mine[256] = "";
    gethostname(mine, sizeof mine - 1);

    pvm_setopt(PvmAutoErr, 0);
    refused(PvmTaskHost, "no-such-host.invalid", 2, "unknown host");
    refused(PvmTaskHost, "no-such-host.invalid:/tmp", 1, "unknown host with a directory");
    refused(PvmTaskArch, "NOSUCHARCH", 3, "unknown architecture");
    pvm_setopt(PvmAutoErr, 1);

    for (int h = 0; h < nhost; h++)
        runs_on(PvmTaskHost, hosts[h].hi_name, hosts[h].hi_name, "a host pvm_config lists");
    runs_on(PvmTaskHost, ".", mine, "\".\" = this host");
    runs_on(PvmTaskArch, hosts[0].hi_arch, NULL, "the job's architecture");
    runs_on(PvmTaskDefault, "no-such-host.invalid", NULL, "`where` without a flag is ignored");
    runs_on(PvmTaskDefault, NULL, NULL, "no `where`");

    printf("pvm_spawn_where: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
