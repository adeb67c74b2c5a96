/* TCGMSG with NXTVAL: the server (if any) is not a node, NXTVAL hands out
 * every value of a loop exactly once and starts again at 0 after the
 * NXTVAL(-nn) reset, a ring works among the compute ranks, and PEND ends
 * the job cleanly (a server leaves too).
 * usage: mpiexec -n N tcg_server [: -n 1 ga-server] */
#include <stdio.h>
#include <stdlib.h>
#include <tcgmsg.h>
#include "../tally.h"

int main(int argc, char **argv) {
    tcg_pbegin(argc, argv);
    long me = tcg_nodeid(), nn = tcg_nnodes(), v, len, from;
    tally_who = (int)me;
    enum { TOP = 40 };
    /* Two loops: the reset by NXTVAL(-nn) makes the second start at 0. */
    for (int round = 0; round < 2; round++) {
        long seen[TOP] = {0};
        while ((v = tcg_nxtval(nn)) < TOP) {
            CHECK(v >= 0, "nxtval %ld", v);
            if (v >= 0) seen[v]++;
        }
        tcg_igop(1, seen, TOP, "+");
        tcg_nxtval(-nn);
        for (long i = 0; i < TOP; i++)
            CHECK(seen[i] == 1, "round %d: value %ld handed out %ld times", round, i, seen[i]);
    }
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn, w = -1;
    tcg_snd(2, &me, sizeof me, next, 1);
    tcg_rcv(2, &w, sizeof w, &len, prev, &from, 1);
    CHECK(w == prev && from == prev, "ring among compute ranks: %ld from %ld", w, from);
    printf("tcg_server node %ld of %ld: %d passed, %d failed\n", me, nn, passed, failed);
    fflush(stdout);
    if (failed) return 1;
    tcg_pend();
    return 3;
}
