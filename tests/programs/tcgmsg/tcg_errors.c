/* Failures that end the job, one per mode:
 *   error    node 1 (or 0 on one node) calls Error("deliberate failure", 42)
 *   parerr   the last node calls PARERR_(7)
 *   toolong  node 0 sends 100 bytes; node 1 receives into 10
 *   twice    every node calls tcg_pbegin a second time
 *   badnode  node 0 sends to node nnodes
 *   badop    every node calls tcg_igop with op "sum"
 * usage: tcg_errors MODE */
#include <stdio.h>
#include <string.h>
#include <tcgmsg.h>
#include <sndrcv.h>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    tcg_pbegin(argc, argv);
    long me = tcg_nodeid(), nn = tcg_nnodes();
    tcg_synch(1);
    if (!strcmp(mode, "error")) {
        if (me == (nn > 1 ? 1 : 0)) Error("deliberate failure", 42L);
        tcg_synch(2);
    } else if (!strcmp(mode, "parerr")) {
        long code = 7;
        if (me == nn - 1) PARERR_(&code);
        tcg_synch(2);
    } else if (!strcmp(mode, "toolong")) {
        char buf[100] = {0};
        long len, from;
        if (me == 0) tcg_snd(5, buf, 100, nn > 1 ? 1 : 0, 1);
        if (me == (nn > 1 ? 1 : 0)) tcg_rcv(5, buf, 10, &len, 0, &from, 1);
        tcg_synch(2);
    } else if (!strcmp(mode, "twice")) {
        tcg_pbegin(argc, argv);
    } else if (!strcmp(mode, "badnode")) {
        long v = 1;
        if (me == 0) tcg_snd(5, &v, sizeof v, nn, 1);
        tcg_synch(2);
    } else if (!strcmp(mode, "badop")) {
        long v = 1;
        tcg_igop(5, &v, 1, "sum");
    } else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 2;
    }
    printf("node %ld: not reached\n", me);
    tcg_pend();
    return 0;
}
