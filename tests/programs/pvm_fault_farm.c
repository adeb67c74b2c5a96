#define _DEFAULT_SOURCE
/* A PVM farm whose workers die: the master hands each worker a number to
 * square; a faulty worker says it is about to die, then dies in its own way
 * without pvm_exit: "kill" (SIGKILL), "abort" (abort()), "exit3" (exit(3)),
 * "return" (returns from main). The master asked for PvmTaskExit notices of
 * every worker; it checks that each death is reported within 2 s of the
 * worker's last word, that pvm_pstat then says PvmNoTask and a pvm_trecv
 * from the dead task times out, and gives the lost work to replacement
 * workers it spawns in one batch. It ends with every square right.
 *
 *   mpiexec -n 1 pvm_fault_farm spawn FAULT,FAULT...   workers spawned in
 *                                                       one call
 *   mpiexec -n K pvm_fault_farm launch FAULT,FAULT...  workers are the other
 *                                                       K-1 tasks of the
 *                                                       first launch
 * Worker i takes the i-th fault; a "good" one does its work and leaves
 * properly. Replacements are spawned in one more call, of SPARE (default:
 * this program), which may name pre-launched ranks
 * (`: -n 3 SPARE worker good`). */
#include <pvm3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "tally.h"

#define WORK_TAG 1
#define RESULT_TAG 2
#define DYING_TAG 3
#define HEARD_TAG 4
#define EXIT_TAG 99
#define MAX_WORKERS 8

static double now_s(void) {
    struct timeval t;
    gettimeofday(&t, NULL);
    return t.tv_sec + t.tv_usec * 1e-6;
}

/* The fault of worker `idx` in the comma-separated list `faults` ("good"
 * when the list is shorter). */
static void fault_of(const char *faults, int idx, char *out, size_t len) {
    const char *p = faults;
    for (int i = 0; i < idx && p; i++) {
        p = strchr(p, ',');
        if (p) p++;
    }
    size_t n = p ? strcspn(p, ",") : 0;
    if (n == 0 || n >= len) {
        snprintf(out, len, "good");
        return;
    }
    memcpy(out, p, n);
    out[n] = 0;
}

/* A worker: takes one number, and either answers its square or dies in the
 * way its place among its siblings gives (`skip` leading siblings are not
 * workers). */
static int worker(const char *faults, int skip) {
    int master = pvm_parent();
    int me = pvm_mytid();
    int *sibs = NULL;
    int ns = pvm_siblings(&sibs);
    int idx = 0;
    for (int i = 0; i < ns; i++)
        if (sibs[i] == me) idx = i - skip;
    /* A task of the first launch has no parent: the master is the first. */
    if (master < 0) master = sibs[0];
    char fault[16];
    fault_of(faults, idx, fault, sizeof fault);
    int n = 0;
    pvm_recv(master, WORK_TAG);
    pvm_upkint(&n, 1, 1);
    if (strcmp(fault, "good") == 0) {
        int sq = n * n;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&sq, 1, 1);
        pvm_send(master, RESULT_TAG);
        pvm_exit();
        return 0;
    }
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&n, 1, 1);
    pvm_send(master, DYING_TAG);
    /* The process goes once the master has its word. */
    pvm_recv(master, HEARD_TAG);
    if (strcmp(fault, "kill") == 0) raise(SIGKILL);
    if (strcmp(fault, "abort") == 0) abort();
    if (strcmp(fault, "exit3") == 0) exit(3);
    return 0; /* "return": leaves main without pvm_exit */
}

int main(int argc, char **argv) {
    int me = pvm_mytid();
    tally_who = me;
    if (argc > 2 && strcmp(argv[1], "worker") == 0) return worker(argv[2], 0);
    if (argc < 3 || argc > 4 || (strcmp(argv[1], "spawn") != 0 && strcmp(argv[1], "launch") != 0)) {
        fprintf(stderr, "usage: %s spawn|launch FAULT[,FAULT...] [SPARE]\n", argv[0]);
        return 2;
    }
    const char *spare = argc > 3 ? argv[3] : argv[0];
    int launch = strcmp(argv[1], "launch") == 0;
    const char *faults = argv[2];
    int tids[MAX_WORKERS];
    char names[MAX_WORKERS][16];
    int nw = 1;
    for (const char *p = faults; *p; p++) nw += *p == ',';
    if (nw > MAX_WORKERS) nw = MAX_WORKERS;
    for (int i = 0; i < nw; i++) fault_of(faults, i, names[i], sizeof names[i]);
    if (launch) {
        int *sibs = NULL;
        int ns = pvm_siblings(&sibs);
        if (sibs[0] != me) return worker(faults, 1); /* a launched worker */
        CHECK_EQ(ns - 1, nw, "one launched worker per fault");
        for (int i = 0; i < nw; i++) tids[i] = sibs[i + 1];
    } else {
        /* One spawn for all the workers: each finds its fault by its
         * place among its siblings. */
        char *args[] = {"worker", argv[2], NULL};
        EXPECT(pvm_spawn(argv[0], args, PvmTaskDefault, "", nw, tids), nw);
    }
    EXPECT(pvm_notify(PvmTaskExit, EXIT_TAG, nw, tids), PvmOk);

    int result[MAX_WORKERS], done[MAX_WORKERS], dead[MAX_WORKERS];
    double last_word[MAX_WORKERS];
    for (int i = 0; i < nw; i++) {
        int n = i + 2;
        result[i] = done[i] = dead[i] = 0;
        last_word[i] = 0;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&n, 1, 1);
        pvm_send(tids[i], WORK_TAG);
    }
    /* Every worker either answers or says it dies, and every one that dies
     * is reported. */
    int open_events = 2 * nw;
    double start = now_s();
    while (open_events > 0 && now_s() - start < 30) {
        struct timeval t = {1, 0};
        int id = pvm_trecv(-1, -1, &t);
        if (id <= 0) continue;
        int tag = 0, src = 0, v = 0;
        pvm_bufinfo(id, NULL, &tag, &src);
        pvm_upkint(&v, 1, 1);
        int w = -1;
        for (int i = 0; i < nw; i++)
            if (tids[i] == (tag == EXIT_TAG ? v : src)) w = i;
        CHECK(w >= 0, "message from an unknown task t%x (tag %d)", src, tag);
        if (w < 0) continue;
        if (tag == DYING_TAG) {
            last_word[w] = now_s();
            open_events--;
            pvm_initsend(PvmDataDefault);
            pvm_send(src, HEARD_TAG);
        } else if (tag == RESULT_TAG) {
            result[w] = v;
            done[w] = 1;
            open_events -= 2; /* no death to wait for */
        } else if (tag == EXIT_TAG) {
            CHECK(!dead[w], "worker t%x reported dead twice", tids[w]);
            dead[w] = 1;
            open_events--;
            CHECK(last_word[w] > 0, "the notice of t%x came after its last word", tids[w]);
            double late = now_s() - last_word[w];
            CHECK(late < 2.0, "the death of t%x (%s) was reported %.2f s after its last word",
                  tids[w], names[w], late);
            printf("t%x (%s) reported %.0f ms after its last word\n", tids[w], names[w],
                   late * 1e3);
        }
    }
    CHECK_EQ(open_events, 0, "events still missing after 30 s");

    /* The dead are gone: no status, and a receive from one only times out. */
    pvm_setopt(PvmAutoErr, 0);
    int lost[MAX_WORKERS], nlost = 0;
    for (int i = 0; i < nw; i++) {
        if (done[i]) continue;
        CHECK(dead[i], "worker t%x neither answered nor died", tids[i]);
        EXPECT(pvm_pstat(tids[i]), PvmNoTask);
        struct timeval t = {0, 300 * 1000};
        EXPECT(pvm_trecv(tids[i], -1, &t), 0);
        lost[nlost++] = i;
    }
    pvm_setopt(PvmAutoErr, 1);

    /* The lost work goes to replacements, spawned in one batch. */
    if (nlost > 0) {
        int fresh[MAX_WORKERS];
        char *args[] = {"worker", "good", NULL};
        EXPECT(pvm_spawn((char *)spare, args, PvmTaskDefault, "", nlost, fresh), nlost);
        for (int k = 0; k < nlost; k++) {
            int n = lost[k] + 2;
            pvm_initsend(PvmDataDefault);
            pvm_pkint(&n, 1, 1);
            pvm_send(fresh[k], WORK_TAG);
        }
        for (int k = 0; k < nlost; k++) {
            struct timeval t = {20, 0};
            int v = 0;
            if (pvm_trecv(fresh[k], RESULT_TAG, &t) > 0) {
                pvm_upkint(&v, 1, 1);
                result[lost[k]] = v;
            }
        }
    }
    for (int i = 0; i < nw; i++) CHECK_EQ(result[i], (i + 2) * (i + 2), "square");
    printf("pvm_fault_farm: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
