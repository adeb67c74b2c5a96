/*
 * The parts of PVM's C API that act inside the receive calls or need the
 * first process to serve others, on three ranks:
 *   - pvm_recvf matchers (ranks, take-now, abort code, NULL restores, a
 *     matcher calling PVM, probe/nrecv/trecv with a matcher);
 *   - message handlers (pvm_addmhf) firing while the task waits in
 *     pvm_recv, replying from inside the handler;
 *   - the mailbox (putinfo/recvinfo/delinfo/getmboxinfo, locking,
 *     multi-instance, persistent entries outliving their owner, waiting
 *     for an entry, read-and-delete, the 3.3 insert/lookup/delete);
 *   - pvm_sendsig of a signal other than TERM/KILL to another task.
 *
 * Run under mpiexec -n 3; every rank prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>
#include "tally.h"

static int me, rank;
static int tids[3];

static void send_int(int to, int tag, int v)
{
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&v, 1, 1);
    pvm_send(to, tag);
}

static int recv_int(int from, int tag)
{
    int v = -1;
    pvm_recv(from, tag);
    pvm_upkint(&v, 1, 1);
    return v;
}

/* Everyone waits for everyone (tags 900+step). */
static void sync_all(int step)
{
    int i;
    for (i = 0; i < 3; i++)
        if (tids[i] != me)
            send_int(tids[i], 900 + step, rank);
    for (i = 0; i < 3; i++)
        if (tids[i] != me)
            recv_int(tids[i], 900 + step);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- recvf ------------------------------------------------------------ */

static int rank_by_tag(int mid, int tid, int tag)
{
    int bytes, t, src;
    (void)tid;
    (void)tag;
    if (pvm_bufinfo(mid, &bytes, &t, &src) < 0)
        return -1;
    return t >= 10 && t < 20 ? t : 0;
}

static int take_tag12(int mid, int tid, int tag)
{
    struct pvmminfo mi;
    (void)tid;
    (void)tag;
    pvm_getminfo(mid, &mi);
    return mi.tag == 12 ? 1 : (mi.tag >= 10 && mi.tag < 20 ? 2 : 0);
}

static int abort_match(int mid, int tid, int tag)
{
    (void)mid;
    (void)tid;
    (void)tag;
    return PvmNoHost;
}

static int seen_tid, seen_tag;
static int remember_args(int mid, int tid, int tag)
{
    (void)mid;
    seen_tid = tid;
    seen_tag = tag;
    return 0;
}

static int (*chained)();
static int only_odd_then_default(int mid, int tid, int tag)
{
    struct pvmminfo mi;
    pvm_getminfo(mid, &mi);
    if (mi.tag % 2 == 0)
        return 0;
    return ((int (*)(int, int, int))chained)(mid, tid, tag);
}

static int counted;
static int count_match(int mid, int tid, int tag)
{
    struct pvmminfo mi;
    (void)tid;
    (void)tag;
    pvm_getminfo(mid, &mi);
    if (mi.src == tids[1] && mi.tag >= 10 && mi.tag < 24)
        counted++;
    return 0;
}

static int tag_of(int bid)
{
    int bytes, tag, src;
    if (bid <= 0)
        return bid;
    pvm_bufinfo(bid, &bytes, &tag, &src);
    return tag;
}

static void recvf_tests(void)
{
    int i, bid, probe;
    double t0;
    int (*def)();

    if (rank == 1) {
        /* Tags 10..14 for rank 0. */
        for (i = 10; i < 15; i++)
            send_int(tids[0], i, i);
        send_int(tids[0], 21, 21);
        send_int(tids[0], 23, 23);
        send_int(tids[0], 22, 22);
        return;
    }
    if (rank != 0)
        return;
    /* Wait until all eight arrived (a probe with a matcher looks at every
       arrival, in order). */
    pvm_recvf(count_match);
    for (;;) {
        counted = 0;
        pvm_probe(-1, -1);
        if (counted >= 8)
            break;
        sleep_ms(1);
    }

    pvm_recvf(NULL);
    def = pvm_recvf(rank_by_tag);
    CHECK(def != NULL, "default matcher returned");
    bid = pvm_recv(-1, -1);
    CHECK_EQ(tag_of(bid), 14, "the highest rank is taken");
    CHECK_EQ(recv_int(-1, -1) + 0, 13, "then the next highest");

    pvm_recvf(take_tag12);
    bid = pvm_recv(-1, -1);
    CHECK_EQ(tag_of(bid), 12, "a rank of 1 is taken at once");

    pvm_recvf(abort_match);
    CHECK_EQ(pvm_recv(-1, -1), PvmNoHost, "a negative rank aborts");
    CHECK_EQ(pvm_nrecv(-1, -1), PvmNoHost, "nrecv aborts too");

    pvm_recvf(remember_args);
    CHECK_EQ(pvm_nrecv(tids[1], 5), 0, "nothing matched: nrecv gives 0");
    CHECK(seen_tid == tids[1] && seen_tag == 5,
          "the matcher gets the caller's tid and tag (%x %d)", seen_tid,
          seen_tag);
    CHECK_EQ(pvm_probe(-1, -1), 0, "probe with a matcher");
    t0 = now();
    {
        struct timeval tv = {0, 150000};
        CHECK_EQ(pvm_trecv(-1, -1, &tv), 0, "trecv times out");
    }
    CHECK(now() - t0 >= 0.14, "trecv waited %.3f s", now() - t0);

    pvm_recvf(rank_by_tag);
    probe = pvm_probe(-1, -1);
    CHECK_EQ(tag_of(probe), 11, "probe with ranks");
    CHECK_EQ(pvm_probe(-1, -1), probe, "probe leaves it queued");

    /* Chaining to the default matcher, which checks tid and tag. */
    chained = def;
    pvm_recvf(only_odd_then_default);
    CHECK_EQ(pvm_nrecv(-1, 22), 0, "even tags refused by the chain");
    CHECK_EQ(tag_of(pvm_recv(-1, 21)), 21, "default part of the chain");

    CHECK(pvm_recvf(NULL) == (int (*)())only_odd_then_default,
          "recvf(NULL) returns the installed matcher");
    /* Default matching again: arrival order. */
    CHECK_EQ(tag_of(pvm_recv(tids[1], -1)), 10, "arrival order restored");
    CHECK_EQ(tag_of(pvm_recv(tids[1], -1)), 11, "arrival order");
    CHECK_EQ(tag_of(pvm_recv(tids[1], -1)), 23, "arrival order");
    CHECK_EQ(tag_of(pvm_recv(tids[1], -1)), 22, "arrival order");
}

/* ---- message handlers ---------------------------------------------------- */

static int handled, handled_value, handled_ok;
static int catcher(int mid)
{
    int src, bytes, tag;
    handled_ok = pvm_getrbuf() == mid;
    pvm_bufinfo(mid, &bytes, &tag, &src);
    pvm_upkint(&handled_value, 1, 1);
    handled++;
    /* Reply from inside the handler. */
    pvm_packf("%+ %d", PvmDataDefault, handled_value * 2);
    pvm_send(src, 79);
    pvm_freebuf(pvm_setsbuf(0));
    return 0;
}

static void handler_tests(void)
{
    if (rank == 0) {
        int id = pvm_addmhf(tids[1], 77, -1, catcher);
        int sbuf, keep = 5, got = 0;
        CHECK(id >= 0, "addmhf %d", id);
        sbuf = pvm_initsend(PvmDataDefault);
        pvm_pkint(&keep, 1, 1);
        send_int(tids[1], 76, 0); /* go */
        got = recv_int(tids[1], 78);
        CHECK_EQ(got, 78, "the ordinary message after the handled ones");
        CHECK_EQ(handled, 2, "both tag 77 messages went to the handler");
        CHECK_EQ(handled_value, 2, "the handler unpacked its message");
        CHECK(handled_ok, "the handler's message is the receive buffer");
        CHECK_EQ(pvm_nrecv(-1, 77), 0, "handled messages are not queued");
        CHECK_EQ(pvm_delmhf(id), 0, "delmhf");
        (void)sbuf;
    } else if (rank == 1) {
        recv_int(tids[0], 76);
        send_int(tids[0], 77, 1);
        send_int(tids[0], 77, 2);
        send_int(tids[0], 78, 78);
        CHECK_EQ(recv_int(tids[0], 79), 2, "reply from handler");
        CHECK_EQ(recv_int(tids[0], 79), 4, "second reply from handler");
    }
}

/* ---- mailbox --------------------------------------------------------------- */

static int put_text(const char *name, const char *text, int flags)
{
    int v = rank;
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&v, 1, 1);
    pvm_pkstr((char *)text);
    return pvm_putinfo((char *)name, pvm_getsbuf(), flags);
}

static int get_text(const char *name, int index, int flags, char *out,
                    int *owner_rank)
{
    int bid = pvm_recvinfo((char *)name, index, flags);
    if (bid < 0)
        return bid;
    pvm_upkint(owner_rank, 1, 1);
    pvm_upkstr(out);
    return bid;
}

static void mbox_tests(void)
{
    char s[64];
    int who = -1, cc, n, i;
    struct pvmmboxinfo *mi;

    /* Rank 2 waits for an entry rank 1 puts later. */
    if (rank == 2) {
        cc = get_text("svc", 0, PvmMboxWaitForInfo, s, &who);
        CHECK(cc > 0 && who == 1 && strcmp(s, "service one") == 0,
              "waited for svc: %d %d '%s'", cc, who, s);
        CHECK_EQ(pvm_getrbuf(), cc, "recvinfo sets the receive buffer");
    }
    if (rank == 1) {
        sleep_ms(200);
        CHECK_EQ(put_text("svc", "service one", PvmMboxDefault), 0, "putinfo");
    }
    sync_all(1);
    if (rank == 2) {
        CHECK_EQ(put_text("svc", "stolen", PvmMboxDefault), PvmDenied,
                 "another owner's entry is locked");
        CHECK_EQ(pvm_delinfo("svc", 0, 0), PvmDenied, "and cannot be deleted");
        CHECK_EQ(put_text("over", "ow", PvmMboxOverWritable), 0,
                 "overwritable entry");
        CHECK_EQ(put_text("pers", "stays", PvmMboxPersistent), 0,
                 "persistent entry");
        CHECK_EQ(put_text("temp", "goes", PvmMboxDefault), 0, "plain entry");
    }
    if (rank == 1 || rank == 2) {
        cc = put_text("multi", "m", PvmMboxMultiInstance);
        CHECK(cc == 0 || cc == 1, "multi-instance index %d", cc);
    }
    sync_all(2);
    if (rank == 0) {
        cc = pvm_getmboxinfo("*", &n, &mi);
        CHECK(cc == 0 && n == 5, "five names: %d %d", cc, n);
        for (i = 0; i < n && cc == 0; i++) {
            if (strcmp(mi[i].mi_name, "multi") == 0)
                CHECK(mi[i].mi_nentries == 2 && mi[i].mi_indices[0] == 0 &&
                          mi[i].mi_indices[1] == 1,
                      "multi has indices 0 and 1");
            if (strcmp(mi[i].mi_name, "svc") == 0)
                CHECK(mi[i].mi_nentries == 1 && mi[i].mi_owners[0] == tids[1],
                      "svc owned by rank 1");
        }
        cc = pvm_getmboxinfo("m*", &n, &mi);
        CHECK(cc == 0 && n == 1 && strcmp(mi[0].mi_name, "multi") == 0,
              "pattern m*");
        CHECK_EQ(put_text("over", "mine now", PvmMboxDefault), 0,
                 "overwrite an overwritable entry");
        cc = get_text("multi", 1, PvmMboxFirstAvail, s, &who);
        CHECK(cc > 0, "first available at 1 (%d)", cc);
        CHECK_EQ(get_text("multi", 2, 0, s, &who), PvmNotFound,
                 "no index 2");
        CHECK_EQ(pvm_recvinfo("", 0, 0), PvmBadParam, "empty name");
        CHECK_EQ(pvm_recvinfo("svc", -1, 0), PvmBadParam, "negative index");
        /* 3.3 database on the server itself. */
        CHECK_EQ(pvm_insert("db", -1, 11), 0, "insert");
        CHECK_EQ(pvm_insert("db", -1, 12), 1, "insert next");
        CHECK_EQ(pvm_insert("db", 5, 13), 5, "insert at 5");
        CHECK_EQ(pvm_insert("db", 5, 14), PvmDupEntry, "insert at 5 again");
        {
            int d = 0;
            CHECK(pvm_lookup("db", 1, &d) == 1 && d == 12, "lookup 1");
            CHECK(pvm_lookup("db", -1, &d) == 0 && d == 11, "lookup any");
            CHECK_EQ(pvm_lookup("db", 3, &d), PvmNoEntry, "lookup 3");
        }
        CHECK_EQ(pvm_delete("db", 5), 5, "delete");
        CHECK_EQ(pvm_delete("db", 5), PvmNoEntry, "delete again");
    }
    sync_all(3);
    if (rank == 1) {
        /* Read-and-delete needs ownership. */
        CHECK_EQ(pvm_recvinfo("svc", 0, PvmMboxReadAndDelete) > 0, 1,
                 "read and delete own entry");
        CHECK_EQ(pvm_recvinfo("svc", 0, 0), PvmNotFound, "gone");
        cc = get_text("over", 0, 0, s, &who);
        CHECK(cc > 0 && who == 0 && strcmp(s, "mine now") == 0,
              "overwritten entry '%s'", s);
    }
    sync_all(4);
    if (rank == 2) {
        pvm_exit();
        return;
    }
    if (rank == 1) {
        /* Rank 2 left: its plain entry goes, the persistent one stays
           without an owner. Give the server a moment to hear of it. */
        double t0 = now();
        while (pvm_recvinfo("temp", 0, 0) > 0 && now() - t0 < 5)
            sleep_ms(20);
        CHECK_EQ(pvm_recvinfo("temp", 0, 0), PvmNotFound,
                 "the leaver's entry is gone");
        cc = get_text("pers", 0, 0, s, &who);
        CHECK(cc > 0 && who == 2 && strcmp(s, "stays") == 0,
              "persistent entry stays");
        cc = pvm_getmboxinfo("pers", &n, &mi);
        CHECK(cc == 0 && n == 1 && mi[0].mi_owners[0] == 0,
              "its owner is 0 now");
        send_int(tids[0], 950, 0);
    }
    if (rank == 0)
        recv_int(tids[1], 950);
}

/* ---- signals ---------------------------------------------------------------- */

static volatile sig_atomic_t got_usr2;
static void on_usr2(int sig)
{
    (void)sig;
    got_usr2 = 1;
}

static void signal_tests(void)
{
    if (rank == 1) {
        double t0 = now();
        signal(SIGUSR2, on_usr2);
        send_int(tids[0], 960, 0);
        recv_int(tids[0], 961);
        while (!got_usr2 && now() - t0 < 5) {
            pvm_nrecv(-1, 999);
            sleep_ms(10);
        }
        CHECK(got_usr2, "signal from another task delivered");
    } else if (rank == 0) {
        recv_int(tids[1], 960);
        CHECK_EQ(pvm_sendsig(tids[1], SIGUSR2), 0, "sendsig SIGUSR2");
        send_int(tids[1], 961, 0);
    }
}

int main(void)
{
    int *sibs, n;

    me = pvm_mytid();
    if (me < 0) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    n = pvm_siblings(&sibs);
    if (n != 3) {
        printf("needs 3 ranks: 0 passed, 1 failed\n");
        return 1;
    }
    memcpy(tids, sibs, sizeof tids);
    for (rank = 0; rank < 3 && tids[rank] != me; rank++)
        ;
    tally_who = rank;
    pvm_setopt(PvmAutoErr, 0);

    recvf_tests();
    sync_all(10);
    handler_tests();
    sync_all(11);
    signal_tests();
    sync_all(12);
    mbox_tests();

    printf("rank %d: %d passed, %d failed\n", rank, passed, failed);
    if (rank != 2)
        pvm_exit();
    return failed ? 1 : 0;
}
