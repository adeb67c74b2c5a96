/* Random traffic with checksums: every node computes the same sequence of
 * (sender, receiver, length, type, mode) steps; lengths are 0..16369
 * bytes, each step has its own type (so early arrivals of later steps
 * wait in the queue), modes mix synchronous and asynchronous sends and receives from a
 * named node or from any node. Ends with PEND.
 * usage: tcg_stress [STEPS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sndrcv.h>
#include "../tally.h"

static unsigned long long rng = 88172645463325252ULL;
static unsigned long next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned long)(rng >> 11);
}

static unsigned long checksum(const unsigned char *b, long n) {
    unsigned long s = 5381;
    for (long i = 0; i < n; i++) s = s * 33 + b[i];
    return s;
}

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 400;
    PBEGIN_(argc, argv);
    long me = NODEID_(), nn = NNODES_();
    tally_who = (int)me;
    enum { MAXLEN = 16369 };
    unsigned char *out = malloc(MAXLEN + 8), *in = malloc(MAXLEN + 8);
    long received = 0, sent = 0;
    for (long s = 0; s < steps; s++) {
        long from = (long)(next_rand() % (unsigned long)nn);
        long to = (long)(next_rand() % (unsigned long)nn);
        long len = (long)(next_rand() % (MAXLEN + 1));
        /* one type per step: a node may run ahead and send a later step's
         * message first, which a receive from any node must not take */
        long type = 1 + s % 30000 + ((next_rand() % 2) ? MSGINT : 0);
        long mode = (long)(next_rand() % 4);
        unsigned long seed = next_rand();
        long sync_snd = (mode & 1) ? 1 : 0, any = (mode & 2) ? 1 : 0;
        if (me == from) {
            for (long i = 0; i < len; i++) out[i] = (unsigned char)((seed >> (i % 40)) + i);
            SND_(&type, out, &len, &to, &sync_snd);
            sent++;
        }
        if (me == to) {
            long cap = MAXLEN + 8, got = -1, who = -1, sel = any ? -1 : from, one = 1;
            memset(in, 0xee, (size_t)cap);
            RCV_(&type, in, &cap, &got, &sel, &who, &one);
            for (long i = 0; i < len; i++) out[i] = (unsigned char)((seed >> (i % 40)) + i);
            CHECK(got == len, "step %ld: length %ld, expected %ld", s, got, len);
            CHECK(who == from, "step %ld: from %ld, expected %ld", s, who, from);
            CHECK(checksum(in, got) == checksum(out, len), "step %ld: checksum", s);
            CHECK(got == cap || in[got] == 0xee, "step %ld: wrote past the message", s);
            received++;
        }
        if (me == from && !sync_snd) {
            WAITCOM_(&to);
        }
    }
    long all = -1;
    WAITCOM_(&all);
    long t = 1, two = 2, v[2] = {sent, received};
    IGOP_(&t, v, &two, "+");
    CHECK(v[0] == steps && v[1] == steps, "every message sent (%ld) and received (%ld)", v[0], v[1]);
    printf("tcg_stress node %ld: %d passed, %d failed\n", me, passed, failed);
    fflush(stdout);
    if (failed) return 1;
    PEND_();
    return 3;
}
