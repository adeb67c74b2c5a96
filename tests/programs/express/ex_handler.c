/* A message handler fires while its process is blocked in exread waiting
 * for a message of another type:
 *
 *     mpiexec -n N ex_handler          (N >= 2)
 *
 * Node 0 registers a handler for type PING and blocks in exread for type
 * DONE from node 1. Node 1 sends PING, then waits for the handler's PONG
 * reply, and only then sends DONE: node 0 can leave exread only if its
 * handler ran while it was blocked there. Node 0 then repeats the round
 * with every other node. Prints "ex_handler node K: P passed, F failed". */
#include <express.h>

#include <stdio.h>

#include "../tally.h"

#define PING 500
#define PONG 501
#define DONE 600

static int pings, pinged[64];

static void on_ping(void *buf, int len, int src, int type)
{
    pings++;
    if (src >= 0 && src < 64)
        pinged[src]++;
    CHECK_EQ(type, PING, "handler type");
    CHECK_EQ(len, (int)sizeof(int), "handler length");
    int v = *(int *)buf + 1, dest = src, t = PONG;
    /* Express calls inside a handler work (and run no handlers). */
    EXPECT(exwrite(&v, sizeof v, &dest, &t), (int)sizeof v);
}

int main(void)
{
    struct nodenv env;
    EXPECT(exparam(&env), 0);
    int me = env.procnum, n = env.nprocs;
    tally_who = me;
    if (me == 0) {
        EXPECT(exhandle(on_ping, DONTCARE, PING), 0);
        EXPECT(exsync(), 0);
        for (int k = 1; k < n; k++) {
            int v = 0, src = k, type = DONE;
            EXPECT(exread(&v, sizeof v, &src, &type), (int)sizeof v);
            CHECK_EQ(v, 1000 + k, "DONE value");
            /* Node k's PING ran the handler before its DONE could come
               (node k+1's PING may have been handled too by now). */
            CHECK_EQ(pinged[k], 1, "the handler ran while blocked in exread");
            CHECK(pings >= k, "handler runs %d before DONE from %d", pings, k);
        }
    } else {
        EXPECT(exsync(), 0);
        if (me > 1) {
            /* Wait for our turn so node 0 is blocked on us. */
            int turn = 0, src = me - 1, type = 700;
            EXPECT(exread(&turn, sizeof turn, &src, &type), (int)sizeof turn);
        }
        int v = 10 * me, dest = 0, type = PING;
        EXPECT(exwrite(&v, sizeof v, &dest, &type), (int)sizeof v);
        int r = 0, src = 0, t = PONG;
        EXPECT(exread(&r, sizeof r, &src, &t), (int)sizeof r);
        CHECK_EQ(r, 10 * me + 1, "PONG from the handler");
        int done = 1000 + me;
        type = DONE;
        EXPECT(exwrite(&done, sizeof done, &dest, &type), (int)sizeof done);
        if (me + 1 < n) {
            int go = 1, next = me + 1, t7 = 700;
            EXPECT(exwrite(&go, sizeof go, &next, &t7), (int)sizeof go);
        }
    }
    EXPECT(exsync(), 0);
    if (me == 0)
        CHECK_EQ(pings, n - 1, "one handler run per other node");
    printf("ex_handler node %d: %d passed, %d failed\n", me, passed, failed);
    return failed != 0;
}
