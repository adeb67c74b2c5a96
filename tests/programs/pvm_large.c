/* Large messages received by a waiting pvm_recv/pvm_trecv/pvm_nrecv, on 3
 * ranks (SPMD siblings): rank 0 receives, ranks 1 and 2 send. With
 * MPBRIDGE_PVM_LAZY_RECV=1 a large payload delivered straight to a waiting
 * receive stays in MPI until the buffer is read; without it the receive
 * takes it at once. Run both ways, these checks read such buffers every
 * way a program can:
 * whole, in pieces, with a stride, as XDR, after pvm_bufinfo, forwarded
 * with pvm_send of the receive buffer, freed unread before another large
 * message from the same sender, and interleaved with small messages from
 * two senders; and large in-place messages (read when sent, sent twice,
 * in two pieces, multicast, strided). Every value is checked.
 *
 * So that the receiver is already waiting when a message comes, a sender
 * sends only after a "go" from the receiver and a short pause. */
#define _POSIX_C_SOURCE 200809L
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include "tally.h"

#define TAG_GO 900
#define TAG_DONE 901
#define BIG (1024 * 1024 + 12) /* bytes; a multiple of 4 */

static int tids[3];
static int me_index;
/* MPBRIDGE_PVM_LAZY_RECV=1: large bodies stay in MPI until read. */
static int lazy;

/* Byte k of message `seed`. */
static unsigned char pat(int seed, long k) { return (unsigned char)((k * 31 + seed * 7 + (k >> 9)) & 0xff); }

static void fill(unsigned char *b, long n, int seed) {
    for (long k = 0; k < n; k++) b[k] = pat(seed, k);
}

static int same(const unsigned char *b, long n, int seed) {
    for (long k = 0; k < n; k++)
        if (b[k] != pat(seed, k)) return 0;
    return 1;
}

/* Receiver: lets `who` send its next message. */
static void go(int who) {
    pvm_initsend(PvmDataDefault);
    pvm_send(tids[who], TAG_GO);
}

/* Sender: waits for the receiver's go, then pauses so it waits for us. */
static void wait_go(void) {
    pvm_recv(tids[0], TAG_GO);
    struct timespec pause = {0, 30 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

static void send_bytes(int to, int tag, int enc, int seed, long n) {
    unsigned char *b = malloc(n);
    fill(b, n, seed);
    pvm_initsend(enc);
    pvm_pkbyte((char *)b, (int)n, 1);
    /* PVM copies at pack time: changing the array now changes nothing. */
    memset(b, 0xee, n);
    pvm_send(tids[to], tag);
    free(b);
}

/* ---- rank 1 and 2: senders ------------------------------------------------ */

/* Rank 1's in-place messages: the array is changed between packing and
 * sending, and between two sends of the same buffer. */
static void in_place_sender(void) {
    unsigned char *b = malloc(BIG);
    fill(b, BIG, 1);
    wait_go();
    int bufid = pvm_initsend(PvmDataInPlace);
    pvm_pkbyte((char *)b, BIG, 1);
    fill(b, BIG, 14); /* after packing: what goes is what is there now */
    EXPECT(pvm_send(tids[0], 14), 0);
    fill(b, BIG, 15);
    EXPECT(pvm_send(tids[0], 15), 0); /* the same buffer again */
    int bytes = -1;
    pvm_bufinfo(bufid, &bytes, NULL, NULL);
    CHECK_EQ(bytes, BIG, "in place: bufinfo length of the send buffer");
    /* Two pieces packed one after the other, then an mcast of them. */
    wait_go();
    fill(b, BIG, 16);
    pvm_initsend(PvmDataInPlace);
    pvm_pkbyte((char *)b, BIG / 2, 1);
    pvm_pkbyte((char *)b + BIG / 2, BIG - BIG / 2, 1);
    EXPECT(pvm_send(tids[0], 16), 0);
    fill(b, BIG, 17);
    int both[2] = {tids[0], tids[2]};
    EXPECT(pvm_mcast(both, 2, 17), 0);
    /* With a stride: every other double. */
    int nd = BIG / 8;
    double *d = malloc(sizeof(double) * nd);
    for (int i = 0; i < nd; i++) d[i] = i * 0.25 + 1;
    wait_go();
    pvm_initsend(PvmDataInPlace);
    pvm_pkdouble(d, nd / 2, 2);
    EXPECT(pvm_send(tids[0], 18), 0);
    free(d);
    free(b);
}

static void sender(void) {
    int me = me_index;
    /* 1. pieces (raw ints), 2. XDR ints, 3. stride (raw doubles) */
    if (me == 1) {
        int n = BIG / 4;
        int *a = malloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) a[i] = i * 7 + 1;
        wait_go();
        pvm_initsend(PvmDataRaw);
        pvm_pkint(a, n, 1);
        pvm_send(tids[0], 1);
        wait_go();
        pvm_initsend(PvmDataDefault);
        pvm_pkint(a, n, 1);
        pvm_send(tids[0], 2);
        free(a);
        int nd = BIG / 8;
        double *d = malloc(sizeof(double) * nd);
        for (int i = 0; i < nd; i++) d[i] = i * 0.5 - 3;
        wait_go();
        pvm_initsend(PvmDataRaw);
        pvm_pkdouble(d, nd, 1);
        pvm_send(tids[0], 3);
        free(d);
        /* 4. bufinfo then whole; 5. XDR bytes whole */
        wait_go();
        send_bytes(0, 4, PvmDataRaw, 4, BIG);
        wait_go();
        send_bytes(0, 5, PvmDataDefault, 5, BIG);
        /* 6. forwarded by the receiver to rank 2 */
        wait_go();
        send_bytes(0, 6, PvmDataRaw, 6, BIG);
        /* 7. freed unread, then another from the same sender right after */
        wait_go();
        send_bytes(0, 7, PvmDataRaw, 7, BIG);
        send_bytes(0, 8, PvmDataRaw, 8, BIG + 4);
        /* 8. received again without reading the first */
        wait_go();
        send_bytes(0, 9, PvmDataRaw, 9, BIG);
        send_bytes(0, 10, PvmDataRaw, 10, BIG);
        /* 9. trecv and nrecv */
        wait_go();
        send_bytes(0, 11, PvmDataRaw, 11, BIG);
        wait_go();
        send_bytes(0, 12, PvmDataRaw, 12, BIG);
        /* 10. a spent buffer (unpacked whole) */
        wait_go();
        send_bytes(0, 13, PvmDataRaw, 13, BIG);
        /* 11. in place: read when sent, every time it is sent */
        in_place_sender();
    }
    if (me == 2) {
        /* 6. the forwarded message */
        int bufid = pvm_recv(tids[0], 6);
        int bytes = -1, tag = -1, src = -1;
        pvm_bufinfo(bufid, &bytes, &tag, &src);
        CHECK_EQ(bytes, BIG, "forwarded length");
        CHECK_EQ(src, tids[0], "forwarded source");
        unsigned char *b = malloc(BIG);
        EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
        CHECK(same(b, BIG, 6), "forwarded bytes");
        pvm_initsend(PvmDataDefault);
        pvm_send(tids[0], TAG_DONE);
        /* 11. the in-place message multicast to ranks 0 and 2 */
        EXPECT(pvm_recv(tids[1], 17) > 0, 1);
        memset(b, 0, BIG);
        EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
        CHECK(same(b, BIG, 17), "in place, multicast: bytes at rank 2");
        free(b);
    }
    /* 11. interleaved large and small from both senders */
    wait_go();
    for (int k = 0; k < 6; k++) {
        int seed = 100 * me + k;
        long n = (k % 2 == 0) ? BIG - 4 * k : 100 + k;
        send_bytes(0, 20, PvmDataRaw, seed, n);
    }
    pvm_recv(tids[0], TAG_DONE);
}

/* ---- rank 0: receiver ----------------------------------------------------- */

static void pieces_and_stride(void) {
    int n = BIG / 4;
    int *a = malloc(sizeof(int) * n);
    go(1);
    EXPECT(pvm_recv(tids[1], 1) > 0, 1);
    memset(a, 0, sizeof(int) * n);
    EXPECT(pvm_upkint(a, n / 2, 1), 0);
    EXPECT(pvm_upkint(a + n / 2, n - n / 2, 1), 0);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= a[i] == i * 7 + 1;
    CHECK(ok, "raw ints unpacked in two pieces");
    EXPECT(pvm_upkint(a, 1, 1), PvmNoData);

    go(1);
    EXPECT(pvm_recv(tids[1], 2) > 0, 1);
    memset(a, 0, sizeof(int) * n);
    EXPECT(pvm_upkint(a, n, 1), 0);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= a[i] == i * 7 + 1;
    CHECK(ok, "XDR ints unpacked whole");
    free(a);

    int nd = BIG / 8;
    double *d = malloc(sizeof(double) * 2 * nd);
    for (int i = 0; i < 2 * nd; i++) d[i] = -1;
    go(1);
    EXPECT(pvm_recv(tids[1], 3) > 0, 1);
    EXPECT(pvm_upkdouble(d, nd, 2), 0);
    ok = 1;
    for (int i = 0; i < nd; i++) ok &= d[2 * i] == i * 0.5 - 3 && d[2 * i + 1] == -1;
    CHECK(ok, "raw doubles unpacked with stride 2");
    free(d);
}

static void bufinfo_and_xdr_bytes(unsigned char *b) {
    go(1);
    int bufid = pvm_recv(tids[1], 4);
    int bytes = -1, tag = -1, src = -1;
    EXPECT(pvm_bufinfo(bufid, &bytes, &tag, &src), 0);
    CHECK_EQ(bytes, BIG, "bufinfo length before reading");
    CHECK_EQ(tag, 4, "bufinfo tag");
    CHECK_EQ(src, tids[1], "bufinfo source");
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 4), "whole message after bufinfo");
    EXPECT(pvm_upkbyte((char *)b, 1, 1), PvmNoData);
    bytes = -1;
    pvm_bufinfo(bufid, &bytes, NULL, NULL);
    CHECK_EQ(bytes, BIG, "bufinfo length after reading");

    go(1);
    EXPECT(pvm_recv(tids[1], 5) > 0, 1);
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 5), "XDR bytes unpacked whole");
}

static void forward(unsigned char *b) {
    go(1);
    int bufid = pvm_recv(tids[1], 6);
    CHECK(bufid > 0, "receive to forward");
    int old = pvm_setsbuf(pvm_getrbuf());
    EXPECT(pvm_send(tids[2], 6), 0);
    pvm_setsbuf(old);
    /* The buffer still holds the message here. */
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 6), "forwarded message read after sending it on");
    pvm_recv(tids[2], TAG_DONE);
}

static void freed_unread(unsigned char *b) {
    go(1);
    int bufid = pvm_recv(tids[1], 7);
    CHECK(bufid > 0, "first of two");
    EXPECT(pvm_freebuf(bufid), 0);
    EXPECT(pvm_recv(tids[1], 8) > 0, 1);
    int bytes = -1;
    pvm_bufinfo(pvm_getrbuf(), &bytes, NULL, NULL);
    CHECK_EQ(bytes, BIG + 4, "second length");
    memset(b, 0, BIG + 4);
    EXPECT(pvm_upkbyte((char *)b, BIG + 4, 1), 0);
    CHECK(same(b, BIG + 4, 8), "second message after the first was freed unread");

    go(1);
    EXPECT(pvm_recv(tids[1], 9) > 0, 1);
    EXPECT(pvm_recv(tids[1], 10) > 0, 1);
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 10), "next receive after one left unread");
}

static void timed_and_polled(unsigned char *b) {
    struct timeval tmout = {10, 0};
    go(1);
    int bufid = pvm_trecv(tids[1], 11, &tmout);
    CHECK(bufid > 0, "trecv of a large message");
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 11), "trecv bytes");

    go(1);
    int polls = 0;
    while ((bufid = pvm_nrecv(tids[1], 12)) == 0 && polls < 10000000) polls++;
    CHECK(bufid > 0, "nrecv of a large message");
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 12), "nrecv bytes");
}

static void spent(unsigned char *b) {
    go(1);
    int bufid = pvm_recv(tids[1], 13);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 13), "bytes of a buffer read whole");
    int old = pvm_setsbuf(bufid);
    if (lazy) {
        /* Read whole by its first unpack, the body went straight to the
         * caller's array: the buffer cannot be sent on afterwards. */
        EXPECT(pvm_send(tids[2], 77), PvmNoData);
        pvm_setsbuf(old);
        return;
    }
    /* By default the buffer keeps its body, as in PVM: sent on to this
     * task itself, it arrives whole. */
    EXPECT(pvm_send(tids[0], 77), 0);
    pvm_setsbuf(old);
    CHECK(pvm_recv(tids[0], 77) > 0, "receive of the forwarded buffer");
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 13), "bytes of a buffer read whole, then sent on");
}

static void in_place(unsigned char *b) {
    go(1);
    EXPECT(pvm_recv(tids[1], 14) > 0, 1);
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 14), "in place: the bytes there when sent");
    EXPECT(pvm_recv(tids[1], 15) > 0, 1);
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 15), "in place: sent again, the bytes there then");

    go(1);
    EXPECT(pvm_recv(tids[1], 16) > 0, 1);
    int bytes = -1;
    pvm_bufinfo(pvm_getrbuf(), &bytes, NULL, NULL);
    CHECK_EQ(bytes, BIG, "in place, two pieces: length");
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 16), "in place, two pieces: bytes");
    EXPECT(pvm_recv(tids[1], 17) > 0, 1);
    memset(b, 0, BIG);
    EXPECT(pvm_upkbyte((char *)b, BIG, 1), 0);
    CHECK(same(b, BIG, 17), "in place, multicast: bytes at rank 0");

    int nd = BIG / 8;
    double *d = malloc(sizeof(double) * (nd / 2));
    go(1);
    EXPECT(pvm_recv(tids[1], 18) > 0, 1);
    EXPECT(pvm_upkdouble(d, nd / 2, 1), 0);
    int ok = 1;
    for (int i = 0; i < nd / 2; i++) ok &= d[i] == 2 * i * 0.25 + 1;
    CHECK(ok, "in place with a stride: every other double");
    free(d);
}

static void interleaved(unsigned char *b) {
    int next[3] = {0, 0, 0};
    go(1);
    go(2);
    for (int m = 0; m < 12; m++) {
        /* Wildcard receives, and every third one naming the sender with
         * fewer messages taken so far (it still has one to come). */
        int from = (m % 3 == 2) ? tids[next[1] <= next[2] ? 1 : 2] : -1;
        int bufid = pvm_recv(from, 20);
        int bytes = -1, tag = -1, src = -1;
        pvm_bufinfo(bufid, &bytes, &tag, &src);
        int s = src == tids[1] ? 1 : src == tids[2] ? 2 : 0;
        CHECK(s != 0, "interleaved: known sender");
        if (s == 0) continue;
        int k = next[s]++;
        long n = (k % 2 == 0) ? BIG - 4 * k : 100 + k;
        CHECK_EQ(bytes, n, "interleaved: length in sender order");
        memset(b, 0, BIG);
        if (k == 2) {
            /* One read in two pieces, one byte first. */
            EXPECT(pvm_upkbyte((char *)b, 1, 1), 0);
            EXPECT(pvm_upkbyte((char *)b + 1, (int)n - 1, 1), 0);
        } else {
            EXPECT(pvm_upkbyte((char *)b, (int)n, 1), 0);
        }
        CHECK(same(b, n, 100 * s + k), "interleaved: bytes of sender %d message %d", s, k);
    }
    CHECK_EQ(next[1], 6, "all from rank 1");
    CHECK_EQ(next[2], 6, "all from rank 2");
    for (int i = 1; i < 3; i++) {
        pvm_initsend(PvmDataDefault);
        pvm_send(tids[i], TAG_DONE);
    }
}

int main(void) {
    int me = pvm_mytid();
    int *sibs = NULL;
    if (pvm_siblings(&sibs) != 3) {
        fprintf(stderr, "pvm_large: needs 3 ranks\n");
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        tids[i] = sibs[i];
        if (sibs[i] == me) me_index = i;
    }
    tally_who = me;
    const char *mode = getenv("MPBRIDGE_PVM_LAZY_RECV");
    lazy = mode && strcmp(mode, "1") == 0;
    pvm_setopt(PvmAutoErr, 0);
    if (me_index == 0) {
        unsigned char *b = malloc(BIG + 4);
        pieces_and_stride();
        bufinfo_and_xdr_bytes(b);
        forward(b);
        freed_unread(b);
        timed_and_polled(b);
        spent(b);
        in_place(b);
        interleaved(b);
        free(b);
    } else {
        sender();
    }
    printf("pvm_large[%d]: %d passed, %d failed\n", me_index, passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
