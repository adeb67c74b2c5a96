/* A task that receives a large message while waiting for it and ends
 * without reading it and without pvm_exit: its sender's pvm_send still
 * completes and the job ends (2 ranks). */
#define _POSIX_C_SOURCE 200809L
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pvm_pair.h"
#include "tally.h"

#define BIG (2 * 1024 * 1024)

int main(void) {
    int first = 0;
    int peer = pvm_pair_peer("pvm_large_exit", &first);
    tally_who = pvm_mytid();
    if (first) {
        /* Receiver: already waiting when the message comes. */
        int bufid = pvm_recv(peer, 1);
        int bytes = -1;
        pvm_bufinfo(bufid, &bytes, NULL, NULL);
        CHECK_EQ(bytes, BIG, "length");
        printf("pvm_large_exit[0]: %d passed, %d failed\n", passed, failed);
        fflush(stdout);
        return failed != 0; /* no pvm_exit, message left unread */
    }
    char *b = malloc(BIG);
    memset(b, 3, BIG);
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    pvm_initsend(PvmDataRaw);
    pvm_pkbyte(b, BIG, 1);
    EXPECT(pvm_send(peer, 1), 0);
    free(b);
    printf("pvm_large_exit[1]: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
