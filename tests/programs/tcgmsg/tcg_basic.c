/* TCGMSG semantics on 1..4 nodes: hello, ring with checksums, typed
 * matching, receive from any node, asynchronous send/receive with
 * WAITCOM (and synchronous messages while asynchronous receives are
 * pending), PROBE, BRDCST from every root, DGOP/IGOP with every operation
 * against a serial reference, SYNCH, timers, size helpers, PFCOPY, both
 * the tcg_* and the NAME_ forms, and asynchronous sends of more than
 * a same-node channel holds while the receiver waits in SYNCH. Ends with
 * PEND (exit status 0).
 * usage: tcg_basic DIR   (DIR: a scratch directory for PFCOPY) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcgmsg.h>
#include <sndrcv.h>
#include "../tally.h"

static long me, nn;

static unsigned long sum_bytes(const unsigned char *b, long n) {
    unsigned long s = 0;
    for (long i = 0; i < n; i++) s = s * 31 + b[i];
    return s;
}

static void ring(void) {
    /* a token grows by one value at every hop and is checked end to end */
    long buf[64], len = 0, from = -9;
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn;
    if (me == 0) {
        buf[0] = 1000;
        tcg_snd(10, buf, (long)sizeof(long), next, 1);
        tcg_rcv(10, buf, (long)sizeof buf, &len, prev, &from, 1);
        CHECK_EQ(len, nn * (long)sizeof(long), "ring: length back at 0");
        CHECK_EQ(from, prev, "ring: nodefrom");
        for (long i = 0; i < nn; i++) CHECK_EQ(buf[i], 1000 + i, "ring: token value");
    } else {
        tcg_rcv(10, buf, (long)sizeof buf, &len, prev, &from, 1);
        CHECK_EQ(len, me * (long)sizeof(long), "ring: length");
        CHECK_EQ(from, prev, "ring: nodefrom");
        buf[me] = 1000 + me;
        tcg_snd(10, buf, len + (long)sizeof(long), next, 1);
    }
    /* a large ring message (past the inline limit) with a checksum */
    long big = 300000;
    unsigned char *b = malloc((size_t)big + 8);
    unsigned long want = 0;
    for (long i = 0; i < big; i++) b[i] = (unsigned char)(i * 7 + 3);
    want = sum_bytes(b, big);
    if (me == 0) {
        tcg_snd(11 | MSGCHR, b, big, next, 1);
        memset(b, 0, (size_t)big);
        tcg_rcv(11 | MSGCHR, b, big, &len, prev, &from, 1);
    } else {
        memset(b, 0, (size_t)big);
        tcg_rcv(11 | MSGCHR, b, big + 8, &len, prev, &from, 1);
        tcg_snd(11 | MSGCHR, b, big, next, 1);
    }
    CHECK_EQ(len, big, "big ring: length");
    CHECK(sum_bytes(b, big) == want, "big ring: checksum");
    free(b);
}

/* node 0 sends types 21 then 22 to every other node; they take 22 first:
 * a message of another type is not taken */
static void typed(void) {
    long v, len, from;
    if (me == 0) {
        for (long d = 1; d < nn; d++) {
            v = 21; tcg_snd(21, &v, sizeof v, d, 1);
            v = 22; tcg_snd(22, &v, sizeof v, d, 1);
        }
    } else {
        EXPECT(tcg_probe(22, 0) || 1, 1);
        tcg_rcv(22, &v, sizeof v, &len, 0, &from, 1);
        CHECK_EQ(v, 22, "typed: type 22 received first");
        CHECK_EQ(tcg_probe(21, 0), 1, "typed: type 21 still waiting");
        CHECK_EQ(tcg_probe(21, -1), 1, "typed: probe any node");
        CHECK_EQ(tcg_probe(23, -1), 0, "typed: nothing of type 23");
        tcg_rcv(21, &v, sizeof v, &len, -1, &from, 1);
        CHECK_EQ(v, 21, "typed: then type 21");
        CHECK_EQ(from, 0, "typed: from node 0");
        CHECK_EQ(tcg_probe(21, -1), 0, "typed: type 21 consumed");
    }
    tcg_synch(1);
}

/* every other node sends its number to node 0, which receives from any */
static void any(void) {
    if (me == 0) {
        long seen = 0, v, len, from;
        for (long k = 1; k < nn; k++) {
            tcg_rcv(30, &v, sizeof v, &len, -1, &from, 1);
            CHECK_EQ(v, from * 100, "any: value matches nodefrom");
            CHECK(from >= 1 && from < nn, "any: nodefrom %ld in range", from);
            seen |= 1L << from;
        }
        CHECK_EQ(seen, ((1L << nn) - 1) & ~1L, "any: every node heard once");
    } else {
        long v = me * 100;
        tcg_snd(30, &v, sizeof v, 0, 1);
    }
    tcg_synch(2);
}

/* asynchronous receives posted before the sends; asynchronous sends from
 * user memory; all completed by WAITCOM */
static void async(void) {
    enum { N = 100000 };
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn, len = 7, from = 7;
    double *in = calloc(N, sizeof(double)), *out = malloc(N * sizeof(double));
    long small_in = 0, small_out = me + 5;
    for (long i = 0; i < N; i++) out[i] = me * 1e6 + i;
    tcg_rcv(40 | MSGDBL, in, N * (long)sizeof(double), &len, prev, &from, 0);
    CHECK_EQ(len, -1, "async rcv: lenmes is -1 until WAITCOM");
    CHECK_EQ(from, prev, "async rcv: nodefrom is the selector");
    tcg_rcv(41, &small_in, sizeof small_in, &len, -1, &from, 0);
    tcg_synch(3);
    tcg_snd(40 | MSGDBL, out, N * (long)sizeof(double), next, 0);
    tcg_snd(41, &small_out, sizeof small_out, next, 0);
    tcg_waitcom(-1);
    int ok = 1;
    for (long i = 0; i < N; i++)
        if (in[i] != prev * 1e6 + i) { ok = 0; break; }
    CHECK(ok, "async: large message arrived intact");
    CHECK_EQ(small_in, prev + 5, "async: small message");
    /* WAITCOM with a node */
    long w = -1;
    tcg_rcv(42, &w, sizeof w, &len, prev, &from, 0);
    tcg_snd(42, &me, sizeof me, next, 0);
    WAITCOM_(&prev);
    tcg_waitcom(-1);
    CHECK_EQ(w, prev, "async: WAITCOM(node)");
    free(in);
    free(out);
    tcg_synch(4);
}

/* synchronous messages while asynchronous receives are pending: an
 * arrival goes to the oldest receive it matches, a message to this node
 * itself completes a posted receive at once, and once WAITCOM completed
 * them the synchronous path works as before */
static void async_then_sync(void) {
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn, len = 0, from = -2;
    long first = -1, second = -1, other = -1, self_in = -1, last = -1;
    tcg_rcv(43, &first, sizeof first, &len, -1, &from, 0);
    tcg_rcv(45, &self_in, sizeof self_in, &len, me, &from, 0);
    long self_out = me + 500;
    tcg_snd(45, &self_out, sizeof self_out, me, 1);
    CHECK_EQ(self_in, me + 500, "async then sync: a message to this node completes its receive");
    long a = me * 10 + 1, b = me * 10 + 2, c = me * 10 + 3;
    tcg_snd(44, &c, sizeof c, next, 1);
    tcg_snd(43, &a, sizeof a, next, 1);
    tcg_snd(43, &b, sizeof b, next, 1);
    tcg_rcv(43, &second, sizeof second, &len, prev, &from, 1);
    CHECK_EQ(second, prev * 10 + 2, "async then sync: the older asynchronous receive got the first");
    CHECK(len == (long)sizeof second && from == prev, "async then sync: len %ld from %ld", len, from);
    tcg_rcv(44, &other, sizeof other, &len, -1, &from, 1);
    CHECK(other == prev * 10 + 3 && from == prev, "async then sync: type 44 %ld from %ld", other, from);
    tcg_waitcom(-1);
    CHECK_EQ(first, prev * 10 + 1, "async then sync: first message to the asynchronous receive");
    tcg_snd(46, &me, sizeof me, next, 1);
    tcg_rcv(46, &last, sizeof last, &len, -1, &from, 1);
    CHECK(last == prev && from == prev, "after WAITCOM: synchronous %ld from %ld", last, from);
    /* two asynchronous receives that both match: the older one (naming
     * the node) gets the first message, whenever it arrives */
    long r1 = -1, r2 = -1, x = me * 10 + 4, y = me * 10 + 5;
    tcg_rcv(47, &r1, sizeof r1, &len, prev, &from, 0);
    tcg_rcv(47, &r2, sizeof r2, &len, -1, &from, 0);
    tcg_snd(47, &x, sizeof x, next, 1);
    tcg_snd(47, &y, sizeof y, next, 1);
    tcg_waitcom(-1);
    CHECK(r1 == prev * 10 + 4 && r2 == prev * 10 + 5,
          "two asynchronous receives: the older got %ld, the newer %ld", r1, r2);
    tcg_synch(7);
}

/* asynchronous sends return whatever the receiver does: every node sends
 * more than a same-node channel holds to the next node before anyone
 * receives, and the receivers sit in SYNCH meanwhile (with GA's TCGMSG
 * over MPI such sends complete eagerly) */
static void flood(void) {
    enum { COUNT = 96, LEN = 1024 };
    long next = (me + 1) % nn, prev = (me + nn - 1) % nn, len = 0, from = -1;
    long (*out)[LEN / sizeof(long)] = malloc(COUNT * (size_t)LEN);
    long in[LEN / sizeof(long)];
    for (long k = 0; k < COUNT; k++)
        for (long i = 0; i < LEN / (long)sizeof(long); i++) out[k][i] = me * 1000000 + k * 1000 + i;
    for (long k = 0; k < COUNT; k++) tcg_snd(48, out[k], LEN, next, 0);
    tcg_synch(8);
    long bad = 0;
    for (long k = 0; k < COUNT; k++) {
        tcg_rcv(48, in, LEN, &len, prev, &from, 1);
        if (len != LEN || from != prev) bad++;
        for (long i = 0; i < LEN / (long)sizeof(long); i++)
            if (in[i] != prev * 1000000 + k * 1000 + i) { bad++; break; }
    }
    tcg_waitcom(-1);
    CHECK_EQ(bad, 0, "flood: messages out of order, short or changed");
    free(out);
    tcg_synch(9);
}

static void broadcast(void) {
    for (long root = 0; root < nn; root++) {
        long v[3] = {-1, -1, -1};
        if (me == root) { v[0] = root; v[1] = root * 2; v[2] = 77; }
        tcg_brdcst(50, v, sizeof v, root);
        CHECK(v[0] == root && v[1] == root * 2 && v[2] == 77, "brdcst from %ld", root);
        long t = 51, l = (long)sizeof v, r = root;
        if (me == root) v[2] = 88;
        BRDCST_(&t, v, &l, &r);
        CHECK_EQ(v[2], 88, "BRDCST_ by reference");
    }
}

static void gops(void) {
    const char *dops[] = {"+", "*", "max", "min", "absmax", "absmin", "&&", "land", "||", "lor", "maximum"};
    for (size_t k = 0; k < sizeof dops / sizeof *dops; k++) {
        double x[3], ref[3];
        for (int j = 0; j < 3; j++) {
            for (long p = 0; p < nn; p++) {
                double v = (p % 2 ? -1.0 : 1.0) * (p + 1 + j) * 0.5 * (j == 2 && p == 1 ? 0 : 1);
                const char *o = dops[k];
                if (p == 0) ref[j] = (!strcmp(o, "absmax") || !strcmp(o, "absmin")) ? fabs(v)
                                   : (o[0] == '&' || o[0] == '|' || o[0] == 'l') ? (v != 0) : v;
                else if (o[0] == '+') ref[j] += v;
                else if (o[0] == '*') ref[j] *= v;
                else if (!strncmp(o, "max", 3)) ref[j] = fmax(ref[j], v);
                else if (!strcmp(o, "min")) ref[j] = fmin(ref[j], v);
                else if (!strcmp(o, "absmax")) ref[j] = fmax(ref[j], fabs(v));
                else if (!strcmp(o, "absmin")) ref[j] = fmin(ref[j], fabs(v));
                else if (!strcmp(o, "&&") || !strcmp(o, "land")) ref[j] = ref[j] && v != 0;
                else ref[j] = ref[j] || v != 0;
                if (p == me) x[j] = v;
            }
        }
        tcg_dgop(60, x, 3, (char *)dops[k]);
        for (int j = 0; j < 3; j++)
            CHECK(fabs(x[j] - ref[j]) < 1e-9, "dgop '%s' [%d]: %g != %g", dops[k], j, x[j], ref[j]);
    }
    const char *iops[] = {"+", "*", "max", "min", "absmax", "absmin", "or", "&&", "land",
                          "||", "lor", "&", "band", "|", "bor"};
    for (size_t k = 0; k < sizeof iops / sizeof *iops; k++) {
        long x[3], ref[3];
        for (int j = 0; j < 3; j++) {
            for (long p = 0; p < nn; p++) {
                long v = (p % 2 ? -1 : 1) * ((p + 3) * (j + 1) + (1L << (p + 4)));
                if (j == 2) v = (p == 1) ? 0 : (1L << p) | 8;
                const char *o = iops[k];
                if (p == 0) ref[j] = !strncmp(o, "abs", 3) ? labs(v)
                                   : (!strcmp(o, "&&") || !strcmp(o, "land") || !strcmp(o, "||") || !strcmp(o, "lor")) ? (v != 0) : v;
                else if (o[0] == '+') ref[j] += v;
                else if (o[0] == '*') ref[j] *= v;
                else if (!strcmp(o, "max")) ref[j] = v > ref[j] ? v : ref[j];
                else if (!strcmp(o, "min")) ref[j] = v < ref[j] ? v : ref[j];
                else if (!strcmp(o, "absmax")) ref[j] = labs(v) > ref[j] ? labs(v) : ref[j];
                else if (!strcmp(o, "absmin")) ref[j] = labs(v) < ref[j] ? labs(v) : ref[j];
                else if (!strcmp(o, "&&") || !strcmp(o, "land")) ref[j] = ref[j] && v;
                else if (!strcmp(o, "||") || !strcmp(o, "lor")) ref[j] = ref[j] || v;
                else if (!strcmp(o, "&") || !strcmp(o, "band")) ref[j] &= v;
                else ref[j] |= v;
                if (p == me) x[j] = v;
            }
        }
        long t = 61, n = 3;
        if (k % 2) IGOP_(&t, x, &n, (char *)iops[k]);
        else tcg_igop(61, x, 3, (char *)iops[k]);
        for (int j = 0; j < 3; j++)
            CHECK(x[j] == ref[j], "igop '%s' [%d]: %ld != %ld", iops[k], j, x[j], ref[j]);
    }
    /* a long vector */
    enum { M = 70000 };
    long *big = malloc(M * sizeof(long));
    for (long i = 0; i < M; i++) big[i] = i + me;
    tcg_igop(62, big, M, "+");
    int ok = 1;
    for (long i = 0; i < M; i++)
        if (big[i] != nn * i + nn * (nn - 1) / 2) { ok = 0; break; }
    CHECK(ok, "igop '+' over %d elements", M);
    free(big);
}

static void misc(const char *dir) {
    double t1 = tcg_time(), t2 = tcg_time(), t3 = TCGTIME_();
    CHECK(t2 > t1 && t3 > t2, "tcg_time strictly increasing");
    long m1 = tcg_mtime();
    double s = tcg_time();
    while (tcg_time() - s < 0.03) {}
    long m2 = MTIME_();
    CHECK(m2 > m1, "mtime increases over 30 ms (%ld -> %ld)", m1, m2);
    EXPECT(tcg_mdtob(3), 24);
    EXPECT(tcg_mitob(5), 5 * (long)sizeof(long));
    EXPECT(tcg_mdtoi(7), 7);
    EXPECT(tcg_mitod(9), 9);
    long four = 4;
    EXPECT(MDTOB_(&four), 32);
    EXPECT(MITOB_(&four), 32);
    EXPECT(MDTOI_(&four), 4);
    EXPECT(MITOD_(&four), 4);
    tcg_srand48(12345);
    double r1 = tcg_drand48();
    tcg_srand48(12345);
    CHECK(tcg_drand48() == r1 && r1 >= 0 && r1 < 1, "drand48 reproducible in [0,1)");
    EXPECT(tcg_ready(), 1);
    EXPECT(TCGREADY_(), 1);
    EXPECT(NNODES_(), nn);
    EXPECT(NODEID_(), me);

    /* PFCOPY: node nn-1 owns a file; each node gets its own copy */
    char src[512], dst[512];
    long owner = nn - 1;
    snprintf(src, sizeof src, "%s/pf_src.dat", dir);
    snprintf(dst, sizeof dst, "%s/pf_copy_%03ld.dat", dir, me);
    enum { FLEN = 100003 };
    if (me == owner) {
        FILE *f = fopen(src, "wb");
        for (long i = 0; i < FLEN; i++) fputc((int)((i * 13) & 0xff), f);
        fclose(f);
    }
    tcg_synch(5);
    tcg_pfcopy(70, owner, me == owner ? src : dst);
    if (me != owner) {
        FILE *f = fopen(dst, "rb");
        long n = 0, bad = 0;
        int c;
        while (f && (c = fgetc(f)) != EOF) {
            if (c != (int)((n * 13) & 0xff)) bad++;
            n++;
        }
        if (f) fclose(f);
        CHECK(f != NULL && n == FLEN && bad == 0, "pfcopy: %ld bytes, %ld wrong", n, bad);
    }
    tcg_synch(6);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: tcg_basic DIR\n"); return 2; }
    CHECK_EQ(tcg_ready(), 0, "not ready before pbegin");
    tcg_pbegin(argc, argv);
    me = tcg_nodeid();
    nn = tcg_nnodes();
    tally_who = (int)me;
    printf("hello from node %ld of %ld\n", me, nn);
    ring();
    typed();
    any();
    async();
    async_then_sync();
    flood();
    broadcast();
    gops();
    long t = 9;
    SYNCH_(&t);
    misc(argv[1]);
    tcg_stats();
    printf("tcg_basic node %ld: %d passed, %d failed\n", me, passed, failed);
    fflush(stdout);
    if (failed) return 1;
    tcg_pend();
    printf("not reached: PEND returned\n");
    return 3;
}
