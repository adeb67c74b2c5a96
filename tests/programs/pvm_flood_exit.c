/* A task sends far more than a same-node channel holds to a sibling that
 * is busy and not receiving, then calls pvm_exit and ends; every message
 * still arrives, in order and intact, when the sibling reads them later
 * (PVM buffers sends: pvm_send never waits for the receiver). 2 ranks. */
#define _POSIX_C_SOURCE 200809L
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pvm_pair.h"
#include "tally.h"

#define COUNT 200
#define LEN 1000

int main(void) {
    int first = 0;
    int peer = pvm_pair_peer("pvm_flood_exit", &first);
    tally_who = pvm_mytid();
    int v[LEN];
    if (first) {
        /* Receiver: busy (not in the library) while the sender sends and
         * leaves, then reads everything. */
        struct timespec pause = {0, 700 * 1000 * 1000};
        nanosleep(&pause, NULL);
        int bad = 0;
        for (int k = 0; k < COUNT; k++) {
            int bufid = pvm_recv(peer, -1);
            int bytes = -1, tag = -1, from = -1;
            pvm_bufinfo(bufid, &bytes, &tag, &from);
            if (bytes != (int)sizeof v || tag != k || from != peer) { bad++; continue; }
            pvm_upkint(v, LEN, 1);
            for (int i = 0; i < LEN; i++)
                if (v[i] != k * 10000 + i) { bad++; break; }
        }
        CHECK_EQ(bad, 0, "messages lost, out of order or changed");
        printf("pvm_flood_exit[0]: %d passed, %d failed\n", passed, failed);
        fflush(stdout);
        pvm_exit();
        return failed != 0;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0; k < COUNT; k++) {
        for (int i = 0; i < LEN; i++) v[i] = k * 10000 + i;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(v, LEN, 1);
        if (pvm_send(peer, k) != 0) { CHECK(0, "pvm_send %d failed", k); break; }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    CHECK(ms < 300, "the sends returned while the receiver was busy (%.0f ms)", ms);
    printf("pvm_flood_exit[1]: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
