/* PVM message semantics a user relies on, on 3 ranks (SPMD siblings):
 * pairwise order, wildcards, timed receives, bufinfo byte counts for each
 * encoding, strides, overflow and end-of-buffer errors, in-place packing,
 * probe/nrecv/setrbuf buffer rules, multicast de-duplication, contexts,
 * psend/precv lengths, and error codes for bad arguments. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include "tally.h"

static int me_index;

static double now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static int tids[3];

/* All three ranks meet: everyone sends tag 999 to everyone else, then
 * receives one from each. */
/* Sends the int v to rank 0 with tag `tag` (XDR). */
static void send_int_to_0(int v, int tag) {
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&v, 1, 1);
    pvm_send(tids[0], tag);
}

static void meet(void) {
    for (int i = 0; i < 3; i++)
        if (i != me_index) {
            pvm_initsend(PvmDataDefault);
            pvm_send(tids[i], 999);
        }
    for (int i = 0; i < 3; i++)
        if (i != me_index) pvm_recv(tids[i], 999);
}

static int bytes_of(int bufid) {
    int bytes = -1;
    pvm_bufinfo(bufid, &bytes, NULL, NULL);
    return bytes;
}

static void byte_counts(void) {
    int i = 1;
    short sh = 2;
    long l = 3;
    double d = 4;
    char b[3] = {1, 2, 3};
    int id;
    id = pvm_initsend(PvmDataDefault); pvm_pkint(&i, 1, 1);
    CHECK(bytes_of(id) == 4, "XDR int is 4 bytes");
    id = pvm_initsend(PvmDataDefault); pvm_pkshort(&sh, 1, 1);
    CHECK(bytes_of(id) == 4, "XDR short is 4 bytes");
    id = pvm_initsend(PvmDataDefault); pvm_pklong(&l, 1, 1);
    CHECK(bytes_of(id) == 4, "XDR long is 4 bytes");
    id = pvm_initsend(PvmDataDefault); pvm_pkdouble(&d, 1, 1);
    CHECK(bytes_of(id) == 8, "XDR double is 8 bytes");
    id = pvm_initsend(PvmDataDefault); pvm_pkstr("abc");
    CHECK(bytes_of(id) == 8, "XDR string abc is 8 bytes");
    id = pvm_initsend(PvmDataDefault); pvm_pkbyte(b, 3, 1);
    CHECK(bytes_of(id) == 4, "XDR 3 bytes padded to 4");
    id = pvm_initsend(PvmDataRaw); pvm_pkshort(&sh, 1, 1);
    CHECK(bytes_of(id) == (int)sizeof(short), "raw short is native size");
    id = pvm_initsend(PvmDataRaw); pvm_pklong(&l, 1, 1);
    CHECK(bytes_of(id) == (int)sizeof(long), "raw long is native size");
    id = pvm_initsend(PvmDataRaw); pvm_pkbyte(b, 3, 1);
    CHECK(bytes_of(id) == 3, "raw bytes not padded");
    int tag = -1, src = -1;
    CHECK(pvm_bufinfo(id, NULL, &tag, &src) == PvmOk && src == pvm_mytid(), "send buffer's source is self");
    CHECK(pvm_bufinfo(id + 1000, NULL, NULL, NULL) == PvmNoSuchBuf, "unknown bufid");
    CHECK(pvm_bufinfo(0, NULL, NULL, NULL) == PvmBadParam, "bufid 0");
    CHECK(pvm_bufinfo(-3, NULL, NULL, NULL) == PvmBadParam, "negative bufid");
}

static void packing_errors(void) {
    long big = 1L << 40;
    int x[4] = {0, 0, 0, 0};
    pvm_initsend(PvmDataDefault);
    CHECK(pvm_pklong(&big, 1, 1) == PvmOverflow, "XDR long overflow");
    pvm_initsend(PvmDataInPlace);
    CHECK(pvm_pkstr("x") == PvmNotImpl, "pkstr in place");
    pvm_initsend(PvmDataRaw);
    CHECK(pvm_pkint(x, -1, 1) == PvmBadParam, "negative count");
    CHECK(pvm_pkint(x, 1, 0) == PvmBadParam, "zero stride");
    CHECK(pvm_initsend(77) == PvmBadParam, "unknown encoding");
    CHECK(pvm_pkint(x, 1, 1) == PvmOk, "a failed initsend keeps the previous send buffer");
    pvm_freebuf(pvm_getsbuf());
    CHECK(pvm_getsbuf() == 0, "freeing the send buffer clears it");
    CHECK(pvm_pkint(x, 1, 1) == PvmNoBuf, "packing with no send buffer");
    CHECK(pvm_send(tids[0], 1) == PvmNoBuf, "sending with no send buffer");
}

/* Rank 1 and 2 send to rank 0; rank 0 checks order and wildcards. */
static void order_and_wildcards(void) {
    if (me_index == 1) {
        for (int t = 1; t <= 3; t++) send_int_to_0(t, t);
    }
    /* Rank 0 takes A's three messages in before B sends: "earliest
     * arrival" is only defined between messages that are both there. */
    if (me_index == 0)
        while (pvm_probe(tids[1], 3) <= 0)
            ;
    meet();
    if (me_index == 2) {
        send_int_to_0(50, 2);
    }
    meet();
    if (me_index == 0) {
        int v = 0, tag = 0, src = 0, id;
        id = pvm_recv(tids[1], 3);
        pvm_upkint(&v, 1, 1);
        CHECK(id > 0 && v == 3, "recv(A,3) takes the third message");
        id = pvm_recv(-1, -1);
        pvm_bufinfo(id, NULL, &tag, &src);
        CHECK(src == tids[1] && tag == 1, "then any-any gives A's first (earliest arrival)");
        id = pvm_recv(-1, 2);
        pvm_bufinfo(id, NULL, &tag, &src);
        CHECK(src == tids[1], "recv(-1,2) picks the earliest tag-2 arrival (from A)");
        id = pvm_recv(tids[2], -1);
        pvm_upkint(&v, 1, 1);
        CHECK(v == 50, "recv(B,-1) ignores other senders");
        CHECK(pvm_nrecv(-1, 1) == 0 && pvm_nrecv(-1, 2) == 0 && pvm_nrecv(-1, 3) == 0, "nothing left");
    }
    meet();
}

static void timed_receives(void) {
    if (me_index != 0) { meet(); return; }
    struct timeval zero = {0, 0}, fifth = {0, 200000};
    double t0 = now();
    CHECK(pvm_trecv(-1, 4242, &zero) == 0, "trecv {0,0} returns 0");
    CHECK(now() - t0 < 0.1, "at once");
    t0 = now();
    CHECK(pvm_trecv(-1, 4242, &fifth) == 0, "trecv 200 ms times out");
    double took = now() - t0;
    CHECK(took >= 0.2 && took < 2.0, "after 200 ms");
    pvm_initsend(PvmDataDefault);
    pvm_send(pvm_mytid(), 4243);
    struct timeval two = {2, 0};
    CHECK(pvm_trecv(-1, 4243, &two) > 0, "a message before the deadline is returned");
    meet();
}

static void strides(void) {
    if (me_index == 1) {
        int a[10];
        double d[9];
        float c[4] = {1.5f, -2.5f, 3.5f, -4.5f};
        for (int i = 0; i < 10; i++) a[i] = i * 10;
        for (int i = 0; i < 9; i++) d[i] = i + 0.25;
        for (int enc = 0; enc < 2; enc++) {
            pvm_initsend(enc == 0 ? PvmDataDefault : PvmDataRaw);
            pvm_pkint(a, 5, 2);
            pvm_pkdouble(d, 3, 3);
            pvm_pkstr("stride");
            pvm_pkcplx(c, 2, 1);
            pvm_send(tids[0], 20 + enc);
        }
    }
    meet();
    if (me_index == 0) {
        for (int enc = 0; enc < 2; enc++) {
            int a[15];
            double d[3];
            char s[16];
            float c[4];
            memset(a, 0xff, sizeof a);
            pvm_recv(tids[1], 20 + enc);
            CHECK(pvm_upkint(a, 5, 3) == PvmOk, "upkint stride 3");
            int ok = 1;
            for (int i = 0; i < 15; i++)
                ok &= (i % 3 == 0) ? a[i] == (i / 3) * 20 : a[i] == -1;
            CHECK(ok, "strided ints land in every third slot, others untouched");
            CHECK(pvm_upkdouble(d, 3, 1) == PvmOk && d[0] == 0.25 && d[1] == 3.25 && d[2] == 6.25, "strided doubles");
            CHECK(pvm_upkstr(s) == PvmOk && strcmp(s, "stride") == 0, "string");
            CHECK(pvm_upkcplx(c, 2, 1) == PvmOk && c[0] == 1.5f && c[3] == -4.5f, "complex");
            CHECK(pvm_upkint(a, 1, 1) == PvmNoData, "over-unpack gives PvmNoData");
        }
    }
    meet();
}

static void in_place(void) {
    if (me_index == 1) {
        int v[3] = {1, 2, 3};
        pvm_initsend(PvmDataInPlace);
        pvm_pkint(v, 3, 1);
        v[1] = 22; /* changed after packing, before sending */
        pvm_send(tids[0], 30);
    }
    meet();
    if (me_index == 0) {
        int v[3] = {0, 0, 0};
        pvm_recv(tids[1], 30);
        pvm_upkint(v, 3, 1);
        CHECK(v[0] == 1 && v[1] == 22 && v[2] == 3, "in-place data is read when sent");
    }
    meet();
}

static void buffer_rules(void) {
    if (me_index == 1) {
        for (int t = 40; t <= 45; t++) send_int_to_0(t, t);
    }
    meet();
    if (me_index == 0) {
        int v = 0;
        int p = pvm_probe(-1, 40);
        CHECK(p > 0, "probe finds the message");
        int bytes = 0, tag = 0;
        pvm_bufinfo(p, &bytes, &tag, NULL);
        CHECK(bytes == 4 && tag == 40, "bufinfo works on the probed buffer");
        CHECK(pvm_probe(-1, 40) > 0, "probe leaves it queued");
        int r1 = pvm_recv(-1, 40);
        CHECK(r1 > 0 && pvm_getrbuf() == r1, "received buffer becomes the receive buffer");
        CHECK(pvm_nrecv(-1, 777) == 0, "nrecv of nothing");
        CHECK(pvm_bufinfo(r1, NULL, NULL, NULL) == PvmNoSuchBuf, "nrecv freed the previous receive buffer");
        int r2 = pvm_recv(-1, 41);
        CHECK(pvm_setrbuf(0) == r2, "setrbuf(0) returns the old buffer");
        int r3 = pvm_recv(-1, 42);
        CHECK(r3 > 0 && pvm_bufinfo(r2, NULL, NULL, NULL) == PvmOk, "a buffer saved with setrbuf(0) survives");
        pvm_setrbuf(r2);
        CHECK(pvm_upkint(&v, 1, 1) == PvmOk && v == 41, "and can be read again");
        CHECK(pvm_freebuf(r2) == PvmOk && pvm_getrbuf() == 0, "freeing the receive buffer clears it");
        CHECK(pvm_freebuf(r2) == PvmNoSuchBuf, "double free");
        pvm_freebuf(r3);
        /* A probe of a later message must not move it ahead of earlier ones. */
        int t10 = 0, t22 = 0;
        struct timeval wait = {5, 0};
        CHECK(pvm_trecv(tids[1], 43, &wait) > 0, "tag 43 (rank 1 sent 40..45 in order)");
        CHECK(pvm_probe(tids[1], 45) > 0, "probe the later message");
        /* Any tag from rank 1 (other ranks' messages may come in between:
         * PVM orders messages per sender only). */
        int any = pvm_recv(tids[1], -1);
        pvm_bufinfo(any, NULL, &t10, NULL);
        CHECK(t10 == 44, "a wildcard-tag receive after probing still gets the earlier message first");
        any = pvm_recv(tids[1], -1);
        pvm_bufinfo(any, NULL, &t22, NULL);
        CHECK(t22 == 45, "then the probed one");
    }
    meet();
}

static void multicast(void) {
    if (me_index == 0) {
        int list[6] = {tids[1], tids[2], tids[0], tids[1], tids[2], tids[1]};
        int v = 7;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&v, 1, 1);
        CHECK(pvm_mcast(list, 6, 50) == PvmOk, "mcast");
        struct timeval t = {0, 300000};
        CHECK(pvm_trecv(-1, 50, &t) == 0, "the caller gets no copy");
    }
    meet();
    if (me_index != 0) {
        CHECK(pvm_recv(tids[0], 50) > 0, "one copy");
        CHECK(pvm_nrecv(tids[0], 50) == 0, "only one copy");
    }
    meet();
}

static void contexts(void) {
    int base = pvm_getcontext();
    int ctx = base;
    if (me_index == 1) {
        ctx = pvm_newcontext();
        CHECK(ctx > 0 && ctx != base, "new context");
        CHECK(pvm_setcontext(ctx) == base, "setcontext returns the old one");
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&ctx, 1, 1);
        pvm_send(tids[0], 60);
        pvm_setcontext(base);
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&ctx, 1, 1);
        pvm_send(tids[0], 61);
    }
    meet();
    if (me_index == 0) {
        int c = 0;
        struct timeval t = {0, 200000};
        CHECK(pvm_trecv(-1, 60, &t) == 0, "a message of another context is invisible");
        pvm_recv(tids[1], 61);
        pvm_upkint(&c, 1, 1);
        pvm_setcontext(c);
        CHECK(pvm_recv(tids[1], 60) > 0, "visible after switching to its context");
        pvm_setcontext(base);
    }
    meet();
}

static void psend_precv(void) {
    if (me_index == 1) {
        double d[5] = {1, 2, 3, 4, 5};
        CHECK(pvm_psend(tids[0], 70, d, 5, PVM_DOUBLE) == PvmOk, "psend");
        CHECK(pvm_psend(tids[0], 71, d, 5, PVM_DOUBLE) == PvmOk, "psend again");
    }
    meet();
    if (me_index == 0) {
        double d[5] = {0};
        int atid = 0, atag = 0, alen = 0;
        CHECK(pvm_precv(-1, 70, d, 5, PVM_DOUBLE, &atid, &atag, &alen) == PvmOk, "precv");
        CHECK(atid == tids[1] && atag == 70 && alen == 40 && d[4] == 5, "precv reports source, tag, bytes");
        double e[2] = {0};
        CHECK(pvm_precv(-1, 71, e, 2, PVM_DOUBLE, &atid, &atag, &alen) == PvmOk, "short precv");
        CHECK(alen == 40 && e[1] == 2, "truncated silently; alen is the full length");
        CHECK(pvm_precv(-1, 72, e, 2, PVM_STR, &atid, &atag, &alen) == PvmNotImpl, "precv of PVM_STR");
    }
    meet();
}

static void bad_arguments(void) {
    pvm_initsend(PvmDataDefault);
    CHECK(pvm_send(tids[0], -5) == PvmBadParam, "negative tag");
    CHECK(pvm_send(0x80040000, 1) == PvmBadParam, "a daemon tid is not a task");
    CHECK(pvm_send(0, 1) == PvmBadParam, "tid 0");
    CHECK(pvm_recv(-1, -2) == PvmBadParam, "tag below -1");
    CHECK(pvm_recv(0x40000, 1) == PvmBadParam, "host part only");
    CHECK(pvm_send(0x3ff40001, 1) == PvmOk, "a well-formed tid nobody has: dropped, no error");
    CHECK(pvm_send(0x7ff40001, 1) == PvmBadParam, "a multicast address is not a task");
    CHECK(pvm_setsbuf(12345) == PvmNoSuchBuf, "setsbuf of an unknown buffer");
    CHECK(pvm_freebuf(0) == PvmBadParam, "freebuf 0");
    CHECK(pvm_getopt(999) == PvmBadParam, "unknown option");
    CHECK(pvm_parent() == PvmNoParent, "SPMD tasks have no parent");
    CHECK(pvm_errno == PvmNoParent, "pvm_errno set");
}

int main(void) {
    int me = pvm_mytid();
    int *sibs;
    int n = pvm_siblings(&sibs);
    if (n != 3) {
        printf("pvm_semantics: run with 3 ranks (got %d)\n", n);
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        tids[i] = sibs[i];
        if (sibs[i] == me) me_index = i;
    }
    tally_who = me_index;
    pvm_setopt(PvmAutoErr, 0);
    byte_counts();
    packing_errors();
    order_and_wildcards();
    timed_receives();
    strides();
    in_place();
    buffer_rules();
    multicast();
    contexts();
    psend_precv();
    bad_arguments();
    meet();
    /* With PvmAutoErr on, a failure is reported on stderr in libpvm's format. */
    pvm_setopt(PvmAutoErr, 1);
    if (me_index == 0) pvm_send(tids[1], -9);
    printf("pvm_semantics rank %d: %d passed, %d failed\n", me_index, passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
