/* Golden test of every Express call from C, on any number of nodes:
 *
 *     mpiexec -n N ex_calls [collectives]
 *
 * With "collectives" only exparam, exsync, exbroadcast, excombine and
 * exconcat run (for larger jobs).
 * Each section checks one call (or a send/receive pair) against values the
 * program computes itself and prints "ex_calls node K call NAME: ok" when
 * all its checks passed; at the end every node prints
 * "ex_calls node K: P passed, F failed". */
#include <express.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"

static int me, n;
static int section_failed;

static void section(const char *name)
{
    if (failed == section_failed)
        printf("ex_calls node %d call %s: ok\n", me, name);
    section_failed = failed;
}

static int next(void) { return (me + 1) % n; }
static int prev(void) { return (me + n - 1) % n; }

static void t_exparam(void)
{
    struct nodenv env;
    memset(&env, 0x55, sizeof env);
    EXPECT(exparam(&env), 0);
    me = env.procnum;
    n = env.nprocs;
    CHECK(n >= 1, "nprocs %d", n);
    CHECK(me >= 0 && me < n, "procnum %d of %d", me, n);
    CHECK_EQ(env.host, EXNOHOST, "no host in an SPMD launch");
    CHECK(env.taskid > 0, "taskid %d", env.taskid);
    struct nodenv again;
    EXPECT(exparam(&again), 0);
    CHECK(memcmp(&env, &again, sizeof env) == 0, "exparam is stable");
    EXPECT(exparam(NULL), EXNULLBUF);
    tally_who = me;
    printf("ex_calls node %d of %d\n", me, n);
    section("exparam");
}

/* The numeric values express.h fixes (programs compiled against them keep
   working): wildcards, node-list and node constants, error codes. */
static void t_constants(void)
{
    CHECK_EQ(DONTCARE, -1, "DONTCARE");
    CHECK_EQ(ALLNODES, 0, "ALLNODES");
    CHECK_EQ(EXNONODE, -100, "EXNONODE");
    CHECK_EQ(EXNOHOST, -1, "EXNOHOST");
    int codes[] = {EXOK, EXNOMSG, EXBADNODE, EXBADLEN, EXNULLBUF,
                   EXTOOLONG, EXNOTMEMBER, EXBADLIST, EXBADGRID, EXBADID,
                   EXBADFUNC, EXBADARG, EXSYSERR, EXINTERNAL};
    for (int i = 0; i < (int)(sizeof codes / sizeof codes[0]); i++)
        CHECK_EQ(codes[i], -i, "error code values count down from 0");
    CHECK_EQ(sizeof(struct nodenv), 4 * sizeof(int), "struct nodenv");
    section("constants");
}

static void t_read_write(void)
{
    /* A ring with wildcards: the actual source and type come back. */
    int out[3] = {me, me * me, -me};
    int dest = next(), type = 100 + me;
    EXPECT(exwrite(out, sizeof out, &dest, &type), (int)sizeof out);
    CHECK_EQ(dest, next(), "exwrite leaves dest");
    int in[3] = {0, 0, 0};
    int src = DONTCARE, t = DONTCARE;
    EXPECT(exread(in, sizeof in, &src, &t), (int)sizeof in);
    CHECK_EQ(src, prev(), "DONTCARE source written back");
    CHECK_EQ(t, 100 + prev(), "DONTCARE type written back");
    CHECK(in[0] == prev() && in[1] == prev() * prev() && in[2] == -prev(),
          "ring data %d %d %d", in[0], in[1], in[2]);

    /* Pairwise order: 20 messages of one type arrive in sending order. */
    for (int i = 0; i < 20; i++) {
        int v = i * 7 + me;
        dest = next();
        type = 11;
        EXPECT(exwrite(&v, sizeof v, &dest, &type), (int)sizeof v);
    }
    for (int i = 0; i < 20; i++) {
        int v = -1;
        src = prev();
        t = 11;
        EXPECT(exread(&v, sizeof v, &src, &t), (int)sizeof v);
        CHECK_EQ(v, i * 7 + prev(), "FIFO order");
    }

    /* Whole int range of types, selected by type out of arrival order. */
    int types[4] = {INT_MAX, INT_MIN, 0, -2};
    for (int i = 0; i < 4; i++) {
        int v = 1000 + i;
        dest = next();
        EXPECT(exwrite(&v, sizeof v, &dest, &types[i]), (int)sizeof v);
    }
    for (int i = 3; i >= 0; i--) {
        int v = -1;
        src = DONTCARE;
        t = types[i];
        EXPECT(exread(&v, sizeof v, &src, &t), (int)sizeof v);
        CHECK_EQ(v, 1000 + i, "message selected by type");
        CHECK_EQ(t, types[i], "type kept");
        CHECK_EQ(src, prev(), "source");
    }

    /* Zero-length message, NULL buffer allowed. */
    dest = next();
    type = 12;
    EXPECT(exwrite(NULL, 0, &dest, &type), 0);
    src = prev();
    t = 12;
    EXPECT(exread(NULL, 0, &src, &t), 0);

    /* EXNONODE: nothing travels, nothing waits. */
    dest = EXNONODE;
    EXPECT(exwrite(out, sizeof out, &dest, &type), 0);
    src = EXNONODE;
    EXPECT(exread(in, sizeof in, &src, &t), 0);
    section("exread/exwrite");
}

static int long_seen;

static void on_long(void *buf, int len, int src, int type)
{
    (void)buf;
    (void)src;
    (void)type;
    long_seen = len;
}

/* A message of `len` bytes from the previous node, offered to a buffer of
 * 100 bytes first: EXTOOLONG with its source and type written back, then
 * whole to a buffer that holds it. Lengths past the core's inline limit
 * take the path where the payload follows the envelope separately. */
static void toolong_of_length(int len, int type)
{
    if (n < 2)
        return;
    unsigned char *out = malloc((size_t)len), *in = malloc((size_t)len);
    unsigned char small[100];
    for (int i = 0; i < len; i++)
        out[i] = (unsigned char)(i * 7 + me);
    int dest = next(), t = type;
    int sid = exsend(out, len, &dest, &t);
    CHECK(sid > 0, "exsend of %d bytes", len);
    int src = DONTCARE;
    t = DONTCARE;
    EXPECT(exread(small, sizeof small, &src, &t), EXTOOLONG);
    CHECK_EQ(src, prev(), "EXTOOLONG of a long message writes the source back");
    CHECK_EQ(t, type, "EXTOOLONG of a long message writes the type back");
    src = prev();
    t = type;
    EXPECT(extest(&src, &t), len);
    memset(in, 0, (size_t)len);
    src = prev();
    t = type;
    EXPECT(exread(in, len, &src, &t), len);
    int whole = 1;
    for (int i = 0; i < len; i++)
        whole &= in[i] == (unsigned char)(i * 7 + prev());
    CHECK(whole, "the refused message of %d bytes comes whole later", len);
    EXPECT(exmsgwait(sid), len);
    free(out);
    free(in);
}

static void t_toolong_and_test(void)
{
    char big[16], small[8];
    for (int i = 0; i < 16; i++)
        big[i] = (char)('A' + i);
    int dest = next(), type = 7;
    EXPECT(exwrite(big, sizeof big, &dest, &type), 16);
    int src = DONTCARE, t = DONTCARE;
    memset(small, 0, sizeof small);
    EXPECT(exread(small, sizeof small, &src, &t), EXTOOLONG);
    CHECK_EQ(src, prev(), "EXTOOLONG writes the source back");
    CHECK_EQ(t, 7, "EXTOOLONG writes the type back");
    CHECK(strlen(exerrmsg()) > 0, "exerrmsg names the error");
    CHECK(strstr(exerrmsg(), "exread") != NULL, "exerrmsg names the call: %s",
          exerrmsg());
    /* Nothing was lost: the message is still there, whole. */
    src = DONTCARE;
    t = 7;
    EXPECT(extest(&src, &t), 16);
    CHECK_EQ(src, prev(), "extest source");
    char got[16];
    src = prev();
    t = 7;
    EXPECT(exread(got, sizeof got, &src, &t), 16);
    CHECK(memcmp(got, big, 16) == 0, "the kept message is whole");
    src = DONTCARE;
    t = 999;
    EXPECT(extest(&src, &t), EXNOMSG);
    CHECK_EQ(src, DONTCARE, "extest without a message leaves src");

    /* A message refused as too long is still there for a posted receive,
       and for a handler registered afterwards. */
    type = 8;
    EXPECT(exwrite(big, sizeof big, &dest, &type), 16);
    EXPECT(exwrite(big, 12, &dest, &type), 12);
    src = prev();
    t = 8;
    EXPECT(exread(small, sizeof small, &src, &t), EXTOOLONG);
    int psrc = DONTCARE, pt = 8;
    memset(got, 0, sizeof got);
    int id = exreceive(got, sizeof got, &psrc, &pt);
    CHECK(id > 0, "exreceive after EXTOOLONG");
    EXPECT(exmsgwait(id), 16);
    CHECK(memcmp(got, big, 16) == 0 && psrc == prev(), "posted receive got the refused message");
    src = prev();
    t = 8;
    EXPECT(exread(small, sizeof small, &src, &t), EXTOOLONG);
    long_seen = 0;
    EXPECT(exhandle(on_long, DONTCARE, 8), 0);
    CHECK_EQ(long_seen, 12, "a new handler takes the refused message");
    EXPECT(exhandle(NULL, DONTCARE, 8), 0);
    toolong_of_length(6000, 9);
    toolong_of_length(200000, 10);
    section("extest");
}

static void t_async(void)
{
    double in[4] = {0, 0, 0, 0}, out[4] = {me, me + 0.5, me + 0.25, -me};
    int src = DONTCARE, t = 50;
    int rid = exreceive(in, sizeof in, &src, &t);
    CHECK(rid > 0, "exreceive id %d", rid);
    int dest = next(), type = 50;
    int sid = exsend(out, sizeof out, &dest, &type);
    CHECK(sid > 0 && sid != rid, "exsend id %d", sid);
    out[0] = -99; /* exsend copied the message */
    EXPECT(exmsgtest(sid), 1);
    EXPECT(exmsgwait(sid), (int)sizeof out);
    EXPECT(exmsgwait(rid), (int)sizeof in);
    CHECK_EQ(src, prev(), "exreceive source written at completion");
    CHECK_EQ(t, 50, "exreceive type");
    CHECK(in[0] == prev() && in[1] == prev() + 0.5 && in[3] == -prev(),
          "exreceive data");
    EXPECT(exmsgtest(rid), EXBADID);
    EXPECT(exmsgwait(rid), EXBADID);
    EXPECT(exmsgtest(123456), EXBADID);
    /* A pending receive stays pending until its message comes. */
    int v = 0;
    src = prev();
    t = 51;
    rid = exreceive(&v, sizeof v, &src, &t);
    CHECK(rid > 0, "second exreceive");
    EXPECT(exsync(), 0); /* nobody sent type 51 yet */
    EXPECT(exmsgtest(rid), 0);
    EXPECT(exsync(), 0);
    int w = 4242 + me;
    dest = next();
    type = 51;
    EXPECT(exwrite(&w, sizeof w, &dest, &type), (int)sizeof w);
    EXPECT(exmsgwait(rid), (int)sizeof v);
    CHECK_EQ(v, 4242 + prev(), "posted receive data");
    section("exsend/exreceive/exmsgtest/exmsgwait");
}

static void t_exchange(void)
{
    long out[5], in[5];
    for (int i = 0; i < 5; i++)
        out[i] = 10L * me + i;
    int src = prev(), st = 60, dest = next(), dt = 60;
    EXPECT(exchange(in, sizeof in, &src, &st, out, sizeof out, &dest, &dt),
           (int)sizeof in);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(in[i], 10L * prev() + i, "exchange data");
    /* Both directions at once with a large message. */
    static double bout[100000], bin[100000];
    for (int i = 0; i < 100000; i++)
        bout[i] = me * 1e6 + i;
    src = next();
    st = 61;
    dest = prev();
    dt = 61;
    EXPECT(exchange(bin, sizeof bin, &src, &st, bout, sizeof bout, &dest, &dt),
           (int)sizeof bin);
    CHECK(bin[99999] == next() * 1e6 + 99999, "large exchange data");
    CHECK_EQ(src, next(), "exchange source");
    section("exchange");
}

static void t_vector(void)
{
    /* Column 2 of a 4x5 int matrix to the next node's column 1 of a 4x3
       matrix. */
    int a[4][5], b[4][3];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            a[i][j] = 100 * me + 10 * i + j;
    memset(b, 0, sizeof b);
    int dest = next(), type = 70;
    EXPECT(exvwrite(&a[0][2], sizeof(int), 4, 5 * sizeof(int), &dest, &type),
           16);
    int src = DONTCARE, t = 70;
    EXPECT(exvread(&b[0][1], sizeof(int), 4, 3 * sizeof(int), &src, &t), 16);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(b[i][1], 100 * prev() + 10 * i + 2, "exvread item");
        CHECK_EQ(b[i][0], 0, "exvread leaves the gaps");
        CHECK_EQ(b[i][2], 0, "exvread leaves the gaps");
    }
    EXPECT(exvwrite(a, 4, 2, 2, &dest, &type), EXBADLEN);
    section("exvread/exvwrite");
}

static void t_sync(void)
{
    for (int i = 0; i < 3; i++)
        EXPECT(exsync(), 0);
    section("exsync");
}

static void t_broadcast(void)
{
    unsigned char buf[100];
    int root = n - 1;
    for (int i = 0; i < 100; i++)
        buf[i] = me == root ? (unsigned char)(i * 3 + 1) : 0;
    EXPECT(exbroadcast(buf, sizeof buf, root, ALLNODES, NULL, 0),
           (int)sizeof buf);
    int ok = 1;
    for (int i = 0; i < 100; i++)
        ok &= buf[i] == (unsigned char)(i * 3 + 1);
    CHECK(ok, "exbroadcast data to all nodes");
    /* A list in any order: {n-1, 0}; node 0 is the source. */
    int list[2] = {n - 1, 0};
    int nl = n > 1 ? 2 : 1;
    int in_list = me == 0 || me == n - 1;
    int v = me == 0 ? 777 : -1;
    int r = exbroadcast(&v, sizeof v, 0, nl, list, 0);
    if (in_list) {
        CHECK_EQ(r, (int)sizeof v, "exbroadcast to a list");
        CHECK_EQ(v, 777, "exbroadcast value on a list");
    } else {
        CHECK_EQ(r, EXNOTMEMBER, "exbroadcast outside the list");
        CHECK_EQ(v, -1, "untouched outside the list");
    }
    /* Receivers' lengths may differ from the root's: odd nodes offer 40
       bytes (EXTOOLONG, the first 40 kept), even ones 200 (the 100 sent,
       the rest untouched). A node with a short buffer still passes the
       whole broadcast on to the nodes after it. */
    unsigned char var[200];
    int vlen = me == root ? 100 : me % 2 ? 40 : 200;
    for (int i = 0; i < 200; i++)
        var[i] = me == root ? (unsigned char)(i * 5 + 2) : 0xEE;
    int rv = exbroadcast(var, vlen, root, ALLNODES, NULL, 0);
    if (me == root || vlen == 200) {
        CHECK_EQ(rv, 100, "exbroadcast returns the root's length");
    } else {
        CHECK_EQ(rv, EXTOOLONG, "exbroadcast into a shorter buffer");
    }
    int kept = vlen < 100 ? vlen : 100;
    ok = 1;
    for (int i = 0; i < kept; i++)
        ok &= var[i] == (unsigned char)(i * 5 + 2);
    for (int i = kept; i < 200 && me != root; i++)
        ok &= var[i] == 0xEE;
    CHECK(ok, "exbroadcast of mixed lengths keeps what fits and nothing more");
    /* A long broadcast from node 0. */
    int blen = 200000;
    unsigned char *big = malloc((size_t)blen);
    for (int i = 0; i < blen; i++)
        big[i] = me == 0 ? (unsigned char)(i * 11 + 3) : 0;
    EXPECT(exbroadcast(big, blen, 0, ALLNODES, NULL, 0), blen);
    ok = 1;
    for (int i = 0; i < blen; i++)
        ok &= big[i] == (unsigned char)(i * 11 + 3);
    CHECK(ok, "exbroadcast of 200000 bytes");
    free(big);
    section("exbroadcast");
}

/* a = a * 10 + b on longs: not commutative. */
static int digits(void *a, const void *b, int size)
{
    long x, y;
    CHECK_EQ(size, (int)sizeof(long), "user function item size");
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    x = x * 10 + y;
    memcpy(a, &x, sizeof x);
    return 0;
}

/* Byte-wise maximum over 3-byte items. */
static int bytemax(void *a, const void *b, int size)
{
    unsigned char *x = a;
    const unsigned char *y = b;
    for (int i = 0; i < size; i++)
        if (y[i] > x[i])
            x[i] = y[i];
    return 0;
}

static void t_combine(void)
{
    int iv[3] = {me + 1, 2 * me, 1};
    EXPECT(excombine(iv, ex_isum, sizeof(int), 3, ALLNODES, NULL, 0), 0);
    CHECK_EQ(iv[0], n * (n + 1) / 2, "isum");
    CHECK_EQ(iv[1], n * (n - 1), "isum 2");
    CHECK_EQ(iv[2], n, "isum 3");
    int ip = me + 1;
    EXPECT(excombine(&ip, ex_iprod, sizeof ip, 1, ALLNODES, NULL, 0), 0);
    int fact = 1;
    for (int k = 1; k <= n; k++)
        fact *= k;
    CHECK_EQ(ip, fact, "iprod");
    int imx[2] = {me, -me};
    EXPECT(excombine(imx, ex_imax, 2 * sizeof(int), 1, ALLNODES, NULL, 0), 0);
    CHECK(imx[0] == n - 1 && imx[1] == 0, "imax");
    int imn = me + 5;
    EXPECT(excombine(&imn, ex_imin, sizeof imn, 1, ALLNODES, NULL, 0), 0);
    CHECK_EQ(imn, 5, "imin");
    long lv = (long)me << 33;
    EXPECT(excombine(&lv, ex_lsum, sizeof lv, 1, ALLNODES, NULL, 0), 0);
    CHECK(lv == ((long)n * (n - 1) / 2) << 33, "lsum");
    long lm = me;
    EXPECT(excombine(&lm, ex_lmax, sizeof lm, 1, ALLNODES, NULL, 0), 0);
    CHECK_EQ(lm, n - 1, "lmax");
    float fv = 0.5f * me;
    EXPECT(excombine(&fv, ex_fmin, sizeof fv, 1, ALLNODES, NULL, 0), 0);
    CHECK(fv == 0.0f, "fmin");
    float fs = 1.5f;
    EXPECT(excombine(&fs, ex_fsum, sizeof fs, 1, ALLNODES, NULL, 0), 0);
    CHECK(fs == 1.5f * n, "fsum");
    double dv[2] = {me * 0.5, -1.0 * me};
    EXPECT(excombine(dv, ex_dmax, sizeof(double), 2, ALLNODES, NULL, 0), 0);
    CHECK(dv[0] == (n - 1) * 0.5 && dv[1] == 0.0, "dmax");
    double ds = 0.25;
    EXPECT(excombine(&ds, ex_dsum, sizeof ds, 1, ALLNODES, NULL, 0), 0);
    CHECK(ds == 0.25 * n, "dsum");
    double dp = 2.0;
    EXPECT(excombine(&dp, ex_dprod, sizeof dp, 1, ALLNODES, NULL, 0), 0);
    CHECK(dp == (double)(1L << n), "dprod");
    double dmn = 3.0 - me;
    EXPECT(excombine(&dmn, ex_dmin, sizeof dmn, 1, ALLNODES, NULL, 0), 0);
    CHECK(dmn == 3.0 - (n - 1), "dmin");
    int land[2] = {1, me == 0}, lor[2] = {0, me == n - 1};
    EXPECT(excombine(land, ex_land, sizeof(int), 2, ALLNODES, NULL, 0), 0);
    EXPECT(excombine(lor, ex_lor, sizeof(int), 2, ALLNODES, NULL, 0), 0);
    CHECK(land[0] == 1 && land[1] == (n == 1), "land");
    CHECK(lor[0] == 0 && lor[1] == 1, "lor");

    /* User function, not commutative: left fold in node order. */
    long dg[3] = {me, me + 1, 9 - me};
    EXPECT(excombine(dg, digits, sizeof(long), 3, ALLNODES, NULL, 0), 0);
    long want[3] = {0, 1, 9};
    for (int k = 1; k < n; k++) {
        want[0] = want[0] * 10 + k;
        want[1] = want[1] * 10 + k + 1;
        want[2] = want[2] * 10 + 9 - k;
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(dg[i], want[i], "user function, left fold in node order");

    /* Odd item size, many items. */
    unsigned char bm[3 * 50];
    for (int i = 0; i < 150; i++)
        bm[i] = (unsigned char)((i + me * 37) % 251);
    EXPECT(excombine(bm, bytemax, 3, 50, ALLNODES, NULL, 0), 0);
    int ok = 1;
    for (int i = 0; i < 150; i++) {
        unsigned char m = 0;
        for (int k = 0; k < n; k++) {
            unsigned char x = (unsigned char)((i + k * 37) % 251);
            if (x > m)
                m = x;
        }
        ok &= bm[i] == m;
    }
    CHECK(ok, "user function over 3-byte items");

    /* A list: the odd nodes (in reverse order), user function. */
    int list[8], nl = 0;
    for (int k = n - 1; k >= 0; k--)
        if (k % 2 == 1)
            list[nl++] = k;
    if (nl > 0) {
        long x = me;
        int r = excombine(&x, digits, sizeof x, 1, nl, list, 0);
        if (me % 2 == 1) {
            EXPECT(r, 0);
            long w = 0;
            for (int k = 1; k < n; k += 2)
                w = w * 10 + k;
            CHECK_EQ(x, w, "user combine over a list, node order");
        } else {
            EXPECT(r, EXNOTMEMBER);
        }
    }
    EXPECT(excombine(&lv, ex_dsum, 4, 1, ALLNODES, NULL, 0), EXBADFUNC);
    EXPECT(excombine(&lv, NULL, 4, 1, ALLNODES, NULL, 0), EXBADFUNC);
    section("excombine");
}

static void t_concat(void)
{
    /* Node k gives k+1 bytes of 'a'+k. */
    char in[64], out[512];
    for (int i = 0; i <= me; i++)
        in[i] = (char)('a' + me % 26);
    int total = n * (n + 1) / 2;
    EXPECT(exconcat(in, me + 1, out, sizeof out, ALLNODES, NULL, 0), total);
    int pos = 0, ok = 1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i <= k; i++)
            ok &= out[pos++] == (char)('a' + k % 26);
    CHECK(ok, "exconcat in node order");
    if (total > 1) {
        char shortbuf[512];
        memset(shortbuf, 0, sizeof shortbuf);
        EXPECT(exconcat(in, me + 1, shortbuf, total - 1, ALLNODES, NULL, 0),
               EXTOOLONG);
        CHECK(memcmp(shortbuf, out, total - 1) == 0,
              "a short out keeps the first bytes");
    }
    /* A list {0, n-1}: node 0's part first. */
    int list[2] = {n - 1, 0};
    int nl = n > 1 ? 2 : 1;
    int v = 10 + me, got[2] = {0, 0};
    int r = exconcat(&v, sizeof v, got, sizeof got, nl, list, 0);
    if (me == 0 || me == n - 1) {
        EXPECT(r, nl * (int)sizeof v);
        CHECK_EQ(got[0], 10, "list concat, node 0 first");
        if (n > 1)
            CHECK_EQ(got[1], 10 + n - 1, "list concat, node n-1 second");
    } else {
        EXPECT(r, EXNOTMEMBER);
    }
    /* Lengths that change from call to call on the same nodes: equal,
     * growing, one node far longer than the rest, empty, shrinking. Each
     * node's part is its own byte pattern, so any slip shows. */
    static const int rounds[][2] = {{16, 0}, {16, 0}, {40, 3}, {9000, 0},
                                    {5, 7000}, {0, 0}, {0, 1}, {3, 0}};
    static unsigned char part[9000 + 7000 * 8], all[8 * (9000 + 7000 * 8)];
    int seq_ok = 1;
    for (unsigned r = 0; r < sizeof rounds / sizeof rounds[0]; r++) {
        int want = 0, mine = 0;
        for (int k = 0; k < n; k++) {
            int len = rounds[r][0] + rounds[r][1] * k;
            if (k == me)
                mine = len;
            want += len;
        }
        for (int i = 0; i < mine; i++)
            part[i] = (unsigned char)(r * 31 + me * 7 + i);
        int got = exconcat(part, mine, all, sizeof all, ALLNODES, NULL, 0);
        seq_ok &= got == want;
        for (int k = 0, pos = 0; k < n && got == want; k++)
            for (int i = 0; i < rounds[r][0] + rounds[r][1] * k; i++)
                seq_ok &= all[pos++] == (unsigned char)(r * 31 + k * 7 + i);
    }
    CHECK(seq_ok, "exconcat of lengths that change between calls");
    /* A short out while every part outgrows the previous call's: the
     * first outlen bytes, in node order, land in out and nothing past it;
     * the same call into a full buffer then gathers everything. */
    int grow = 0, grow_mine = 50 + 10 * me;
    for (int k = 0; k < n; k++)
        grow += 50 + 10 * k;
    for (int i = 0; i < grow_mine; i++)
        part[i] = (unsigned char)(200 + me * 7 + i);
    int keep = grow - 25;
    memset(all, 0xEE, sizeof all);
    EXPECT(exconcat(part, grow_mine, all, keep, ALLNODES, NULL, 0), EXTOOLONG);
    int short_ok = all[keep] == 0xEE;
    for (int k = 0, pos = 0; k < n; k++)
        for (int i = 0; i < 50 + 10 * k && pos < keep; i++)
            short_ok &= all[pos++] == (unsigned char)(200 + k * 7 + i);
    CHECK(short_ok, "a short out keeps the first bytes of parts longer than the last call's");
    EXPECT(exconcat(part, grow_mine, all, sizeof all, ALLNODES, NULL, 0), grow);
    section("exconcat");
}

static int handled, handled_src, handled_type, handled_value;

static void on_msg(void *buf, int len, int src, int type)
{
    handled++;
    handled_src = src;
    handled_type = type;
    if (len == (int)sizeof(int))
        memcpy(&handled_value, buf, sizeof(int));
}

static void t_handle(void)
{
    EXPECT(exhandle(on_msg, DONTCARE, 300), 0);
    int v = 31 + me, dest = next(), type = 300;
    EXPECT(exwrite(&v, sizeof v, &dest, &type), (int)sizeof v);
    /* The handler takes the message before a test or receive sees it. */
    int src = DONTCARE, t = 300;
    int seen = 0;
    while (handled == 0) {
        EXPECT(extest(&src, &t), EXNOMSG);
        seen++;
        src = DONTCARE;
        t = 300;
        if (seen > 2000000)
            break;
    }
    CHECK_EQ(handled, 1, "the handler ran once");
    CHECK_EQ(handled_src, prev(), "handler source");
    CHECK_EQ(handled_type, 300, "handler type");
    CHECK_EQ(handled_value, 31 + prev(), "handler data");
    EXPECT(exhandle(NULL, DONTCARE, 300), 0);
    EXPECT(exsync(), 0);
    /* Removed: the next message of the type is an ordinary one. */
    EXPECT(exwrite(&v, sizeof v, &dest, &type), (int)sizeof v);
    src = DONTCARE;
    t = 300;
    int w = 0;
    EXPECT(exread(&w, sizeof w, &src, &t), (int)sizeof w);
    CHECK_EQ(w, 31 + prev(), "after removal exread gets it");
    CHECK_EQ(handled, 1, "removed handler does not run");
    EXPECT(exhandle(on_msg, n + 5, 1), EXBADNODE);
    section("exhandle");
}

static void t_grid(void)
{
    int d12[2] = {0, 0};
    EXPECT(exgridsize(12, 2, d12), 0);
    CHECK(d12[0] == 4 && d12[1] == 3, "exgridsize 12 -> %d x %d", d12[0], d12[1]);
    int d3[3] = {0, 2, 0};
    EXPECT(exgridsize(8, 3, d3), 0);
    CHECK(d3[0] == 2 && d3[1] == 2 && d3[2] == 2, "exgridsize keeps fixed");

    int dims[2] = {0, 0};
    int g = exgridinit(2, dims, NULL);
    CHECK(g >= 0, "exgridinit %d", g);
    CHECK_EQ(dims[0] * dims[1], n, "grid size");
    int want[2] = {0, 0};
    EXPECT(exgridsize(n, 2, want), 0);
    CHECK(dims[0] == want[0] && dims[1] == want[1], "exgridinit chose");
    int shape[2];
    EXPECT(exgriddims(g, shape), 2);
    CHECK(shape[0] == dims[0] && shape[1] == dims[1], "exgriddims");
    int c[2];
    EXPECT(exgridcoord(g, me, c), 0);
    CHECK(c[0] == me / dims[1] && c[1] == me % dims[1], "row-major coords");
    EXPECT(exgridnode(g, c), me);
    int src, dest;
    EXPECT(exgridshift(g, 1, 1, &src, &dest), 0);
    CHECK_EQ(dest, c[1] + 1 < dims[1] ? me + 1 : EXNONODE, "shift dest");
    CHECK_EQ(src, c[1] > 0 ? me - 1 : EXNONODE, "shift src");
    EXPECT(exgridnbr(g, 0, 1), c[0] + 1 < dims[0] ? me + dims[1] : EXNONODE);
    EXPECT(exgridnbr(g, 0, -1), c[0] > 0 ? me - dims[1] : EXNONODE);
    /* A halo swap with the shift partners, edges included. */
    int val = me, got = -7;
    int st = 80, dt = 80;
    int r = exchange(&got, sizeof got, &src, &st, &val, sizeof val, &dest, &dt);
    if (src == EXNONODE) {
        EXPECT(r, 0);
        CHECK_EQ(got, -7, "nothing from EXNONODE");
    } else {
        EXPECT(r, (int)sizeof got);
        CHECK_EQ(got, me - 1, "halo from the left");
    }

    int per[1] = {1};
    int ring[1] = {0};
    int g2 = exgridinit(1, ring, per);
    CHECK(g2 == g + 1, "second grid id %d", g2);
    EXPECT(exgridnbr(g2, 0, 1), next());
    EXPECT(exgridnbr(g2, 0, -1), prev());
    int far[1] = {me + n};
    EXPECT(exgridnode(g2, far), me);

    /* Rows: keep dimension 1. */
    int remain[2] = {0, 1};
    int rows = exgridsplit(g, remain);
    CHECK(rows == g2 + 1, "exgridsplit id %d", rows);
    int rd[1];
    EXPECT(exgriddims(rows, rd), 1);
    CHECK_EQ(rd[0], dims[1], "row length");
    int rc[1];
    EXPECT(exgridcoord(rows, me, rc), 0);
    CHECK_EQ(rc[0], c[1], "row coordinate");
    int first[1] = {0};
    EXPECT(exgridnode(rows, first), me - c[1]);
    if (dims[0] > 1)
        EXPECT(exgridcoord(rows, (me + dims[1]) % n, rc), EXBADNODE);
    EXPECT(exgridnode(g, (int[]){dims[0], 0}), EXBADARG);
    EXPECT(exgridshift(g, 2, 1, &src, &dest), EXBADARG);
    EXPECT(exgridnbr(g, 0, 2), EXBADARG);
    section("exgrid");
}

/* The collective calls, run in both modes. */
static void t_collectives(void)
{
    t_sync();
    t_broadcast();
    t_combine();
    t_concat();
}

int main(int argc, char **argv)
{
    int only_collectives = argc > 1 && strcmp(argv[1], "collectives") == 0;
    t_exparam();
    t_constants();
    if (!only_collectives) {
        t_read_write();
        t_toolong_and_test();
        t_async();
        t_exchange();
        t_vector();
    }
    t_collectives();
    if (!only_collectives) {
        t_handle();
        t_grid();
    }
    EXPECT(exsync(), 0);
    printf("ex_calls node %d: %d passed, %d failed\n", me, passed, failed);
    return failed != 0;
}
