/* Spawning what cannot run is PvmNoFile in the slot, and the job goes on:
 * a file of random bytes with the execute bit, a script whose interpreter
 * does not exist, a missing file. A program that runs but is not a PVM task
 * and exits with a non-zero status (/bin/false) gets a tid, its exit is
 * reported to whoever asked pvm_notify(PvmTaskExit), and the job is not
 * ended. Afterwards a real child still starts and answers. Run with
 * `mpiexec -n 1`. Ends with "pvm_spawn_fail: N passed, M failed". */
#define _DEFAULT_SOURCE /* mkstemp */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "tally.h"

#define EXIT_TAG 61
#define HELLO 62

/* Writes `body` to a new executable file; returns its name (static). */
static const char *make_file(const char *body, size_t len, char *name) {
    strcpy(name, "/tmp/mpbridge-spawn-fail-XXXXXX");
    int fd = mkstemp(name);
    if (fd < 0 || write(fd, body, len) != (ssize_t)len) return NULL;
    close(fd);
    chmod(name, 0755);
    return name;
}

static void no_file(const char *prog, const char *what) {
    int tids[2] = {1, 1};
    int n = pvm_spawn((char *)prog, NULL, PvmTaskDefault, "", 2, tids);
    CHECK_EQ(n, 0, what);
    CHECK_EQ(tids[0], PvmNoFile, what);
    CHECK_EQ(tids[1], PvmNoFile, what);
}

int main(int argc, char **argv) {
    (void)argc;
    int me = pvm_mytid();
    if (pvm_parent() > 0) {
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&me, 1, 1);
        pvm_send(pvm_parent(), HELLO);
        pvm_exit();
        return 0;
    }
    tally_who = me;
    char junk[64], script[64];
    char bytes[4096];
    srand(12345);
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (char)(rand() & 0xff);
    bytes[0] = 0x13; /* not an ELF or script header */
    const char *bad_script = "#!/nonexistent\necho never\n";
    CHECK(make_file(bytes, sizeof bytes, junk) != NULL, "random-bytes file made");
    CHECK(make_file(bad_script, strlen(bad_script), script) != NULL, "script made");

    pvm_setopt(PvmAutoErr, 0);
    no_file(junk, "a file of random bytes");
    no_file(script, "a script with a missing interpreter");
    no_file("/nonexistent/mpbridge-program", "a missing file");
    pvm_setopt(PvmAutoErr, 1);
    unlink(junk);
    unlink(script);

    /* /bin/false runs, exits with 1, and that is an exit notice. */
    int f[2] = {0, 0};
    int n = pvm_spawn("/bin/false", NULL, PvmTaskDefault, "", 2, f);
    CHECK_EQ(n, 2, "/bin/false starts");
    if (n == 2) {
        CHECK(f[0] > 0 && f[1] > 0 && f[0] != f[1], "two tids");
        EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, 2, f), PvmOk);
        for (int k = 0; k < 2; k++) {
            struct timeval t = {30, 0};
            int id = pvm_trecv(-1, EXIT_TAG, &t);
            CHECK(id > 0, "exit notice %d of 2", k + 1);
            int who = 0;
            if (id > 0) pvm_upkint(&who, 1, 1);
            CHECK(who == f[0] || who == f[1], "the notice names a /bin/false task");
        }
    }

    /* The job goes on: a real child starts and answers. */
    int kid = 0;
    n = pvm_spawn(argv[0], NULL, PvmTaskDefault, "", 1, &kid);
    CHECK_EQ(n, 1, "a child starts after the failures");
    if (n == 1) {
        struct timeval t = {30, 0};
        int id = pvm_trecv(kid, HELLO, &t);
        CHECK(id > 0, "the child answers");
    }
    printf("pvm_spawn_fail: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
