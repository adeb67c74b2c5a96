/* A PVM job that stays up until told: the parent spawns one copy of itself
 * (MPI_Comm_spawn underneath), creates the file <go>.up once the child
 * runs, then parent and child wait until the file <go> (the last argument)
 * exists, so a test can look at the running job's sockets. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "pvm3.h"

static void wait_for(const char *path) {
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 120000 && access(path, F_OK) != 0; i++) nanosleep(&ms, NULL);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *go = argv[argc - 1];
    if (pvm_mytid() < 0) return 1;
    if (pvm_parent() > 0) {
        wait_for(go);
        pvm_exit();
        return 0;
    }
    int kid = 0;
    char *args[] = {(char *)go, NULL};
    int n = pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &kid);
    if (n != 1) {
        printf("net_hold: pvm_spawn gave %d (tid %d)\n", n, kid);
        pvm_exit();
        return 1;
    }
    char up[4096];
    snprintf(up, sizeof up, "%s.up", go);
    FILE *f = fopen(up, "w");
    if (f) fclose(f);
    wait_for(go);
    printf("net_hold: spawned t%x and done\n", kid);
    pvm_exit();
    return 0;
}
