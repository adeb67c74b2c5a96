/*
 * The rest of PVM's C API on two ranks: pvm_packf/pvm_unpackf (every
 * conversion, "%+", counts and strides, values and addresses, errors),
 * getminfo/setminfo on queued, received and send buffers, pkmesg,
 * pvm_tasks, archcode, mstat, the virtual-machine controls, export,
 * signals to oneself, trace masks, recvf/addmhf bookkeeping.
 *
 * Run under mpiexec -n 2; every rank prints "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include <pvm3.h>
#include "tally.h"

/* pvmtev.h */
int pvm_gettmask(int who, char *mask);
int pvm_settmask(int who, char *mask);
/* pvm3.h declares it only with NOTMPNAM */
char *pvmtmpnam(char *buf);

static int me, rank;

/* A variadic function that hands its arguments to the va_list form `vf`. */
#define VA_WRAPPER(name, vf)                        \
    static int name(const char *fmt, ...)           \
    {                                               \
        va_list ap;                                 \
        va_start(ap, fmt);                          \
        int cc = vf(fmt, ap);                       \
        va_end(ap);                                 \
        return cc;                                  \
    }

VA_WRAPPER(vpackf_wrapper, pvm_vpackf)
VA_WRAPPER(vunpackf_wrapper, pvm_vunpackf)

/* Every conversion, packed by pvm_packf and read back by pvm_unpackf
   from a message sent to oneself. */
static void packf_local(int enc)
{
    int ints[6] = {1, 2, 3, 4, 5, 6};
    double dbl[6] = {1.5, -2.5, 3.5, -4.5, 5.5, -6.5};
    float flt[4] = {0.25f, 9.0f, 0.5f, 9.0f};
    float cx[4] = {1, 2, 3, 4};
    double dcx[4] = {5, 6, 7, 8};
    char bytes[4] = {'w', 'x', 'y', 'z'};
    short sh[3] = {-1, 2, -3};
    long lg[2] = {-100000, 200000};
    unsigned long ul[2] = {7, 4000000000UL};
    unsigned short us[2] = {65535, 1};
    int cc, bid, len, tag, src;

    cc = pvm_packf("%+ %c %d %hd %ld %ud %f %lf %s", enc, 'A', -42,
                   (short)-7, 123456L, 77u, 2.25, -8.125, "hello");
    CHECK_EQ(cc, PvmOk, "packf values");
    cc = pvm_packf("%6d %3.2lf %*.*f %2x %2lx %4c %3hd %2ld %2lud %2hud",
                   ints, dbl, 2, 2, flt, cx, dcx, bytes, sh, lg, ul, us);
    CHECK_EQ(cc, PvmOk, "packf arrays");
    cc = vpackf_wrapper("%d %s", 99, "via va_list");
    CHECK_EQ(cc, PvmOk, "vpackf");
    pvm_send(me, 10 + enc);

    bid = pvm_recv(me, 10 + enc);
    CHECK(bid > 0, "recv own packf message (%d)", bid);
    {
        char c = 0, s[32] = "";
        int d = 0;
        short h = 0;
        long l = 0;
        unsigned u = 0;
        float f = 0;
        double lf = 0;
        cc = pvm_unpackf("%c %d %hd %ld %ud %f %lf %s", &c, &d, &h, &l, &u,
                         &f, &lf, s);
        CHECK_EQ(cc, PvmOk, "unpackf values");
        CHECK(c == 'A' && d == -42 && h == -7 && l == 123456 && u == 77,
              "integer values %c %d %d %ld %u", c, d, h, l, u);
        CHECK(f == 2.25f && lf == -8.125, "float values %g %g", f, lf);
        CHECK(strcmp(s, "hello") == 0, "string value '%s'", s);
    }
    {
        int i2[6] = {0};
        double d2[6] = {0};
        float f2[4] = {0};
        float cx2[4] = {0};
        double dcx2[4] = {0};
        char b2[4] = {0};
        short sh2[3] = {0};
        long lg2[2] = {0};
        unsigned long ul2[2] = {0};
        unsigned short us2[2] = {0};
        int k;
        /* Unpacked with other strides than packed. */
        cc = pvm_unpackf("%6d %3lf %2.3f %2x %2lx %4c %3hd %2ld %2lud %2hud",
                         i2, d2, f2, cx2, dcx2, b2, sh2, lg2, ul2, us2);
        CHECK_EQ(cc, PvmOk, "unpackf arrays");
        for (k = 0; k < 6; k++)
            CHECK_EQ(i2[k], ints[k], "int array");
        CHECK(d2[0] == 1.5 && d2[1] == 3.5 && d2[2] == 5.5,
              "doubles stride 2 -> %g %g %g", d2[0], d2[1], d2[2]);
        CHECK(f2[0] == 0.25f && f2[3] == 0.5f && f2[1] == 0 && f2[2] == 0,
              "floats to stride 3: %g %g %g %g", f2[0], f2[1], f2[2], f2[3]);
        CHECK(memcmp(cx, cx2, sizeof cx) == 0, "complex");
        CHECK(memcmp(dcx, dcx2, sizeof dcx) == 0, "double complex");
        CHECK(memcmp(bytes, b2, 4) == 0, "bytes");
        CHECK(sh2[0] == -1 && sh2[1] == 2 && sh2[2] == -3, "shorts");
        CHECK(lg2[0] == -100000 && lg2[1] == 200000, "longs");
        CHECK(ul2[0] == 7 && ul2[1] == 4000000000UL, "unsigned longs %lu",
              ul2[1]);
        CHECK(us2[0] == 65535 && us2[1] == 1, "unsigned shorts");
    }
    {
        int d = 0;
        char s[32] = "";
        cc = vunpackf_wrapper("%d %s", &d, s);
        CHECK(cc == PvmOk && d == 99 && strcmp(s, "via va_list") == 0,
              "vunpackf %d %d '%s'", cc, d, s);
        cc = pvm_unpackf("%d", &d);
        CHECK_EQ(cc, PvmNoData, "unpackf past the end");
    }

    /* Mixed with the pk functions, and the XDR byte count. */
    pvm_packf("%+ %d %lf", enc, 5, 0.5);
    pvm_bufinfo(pvm_getsbuf(), &len, &tag, &src);
    CHECK_EQ(len, 12, "bytes of %d %lf");
    pvm_send(me, 20);
    pvm_recv(me, 20);
    {
        int d = 0;
        double lf = 0;
        pvm_upkint(&d, 1, 1);
        pvm_upkdouble(&lf, 1, 1);
        CHECK(d == 5 && lf == 0.5, "pk-unpacked %d %g", d, lf);
    }
}

static void packf_errors(void)
{
    int cc, d;

    cc = pvm_packf("%+ %d", 99, 1);
    CHECK_EQ(cc, PvmBadParam, "%+ with a bad encoding");
    pvm_initsend(PvmDataDefault);
    cc = pvm_packf("%q", 1);
    CHECK_EQ(cc, PvmBadParam, "unknown conversion");
    CHECK_EQ(pvm_errno, PvmBadParam, "pvm_errno after packf");
    cc = pvm_packf("%*d", -1, &d);
    CHECK_EQ(cc, PvmBadParam, "negative count");
    pvm_packf("%+ %d", PvmDataDefault, 3);
    pvm_send(me, 25);
    pvm_recv(me, 25);
    cc = pvm_unpackf("%+ %d", &d);
    CHECK_EQ(cc, PvmBadParam, "%+ is for packing only");
    pvm_freebuf(pvm_setsbuf(0));
    cc = pvm_packf("%d", 1);
    CHECK_EQ(cc, PvmNoBuf, "packf without a send buffer");
    pvm_freebuf(pvm_setrbuf(0));
    cc = pvm_unpackf("%d", &d);
    CHECK_EQ(cc, PvmNoBuf, "unpackf without a receive buffer");
    cc = pvm_packf("%+ %s", PvmDataInPlace, "x");
    CHECK_EQ(cc, PvmNotImpl, "string in place");
    cc = pvm_packf("%+", PvmDataDefault);
    CHECK_EQ(cc, PvmOk, "only an initsend");
}

/* Values are copied into an in-place buffer; addresses are read at send. */
static void packf_inplace(void)
{
    int arr[3] = {1, 2, 3};
    int got[4] = {0};

    pvm_packf("%+ %d %3d", PvmDataInPlace, 41, arr);
    arr[1] = 20;
    pvm_send(me, 30);
    pvm_recv(me, 30);
    pvm_unpackf("%4d", got);
    CHECK(got[0] == 41 && got[1] == 1 && got[2] == 20 && got[3] == 3,
          "in place: %d %d %d %d", got[0], got[1], got[2], got[3]);
}

/* Rank 0 packs raw for rank 1, which answers in XDR. */
static void packf_pair(int other)
{
    double v[4] = {1, 2, 3, 4}, w[4] = {0};
    long big = 1L << 40;
    char s[16] = "";
    int n = 0;

    if (rank == 0) {
        pvm_packf("%+ %d %4lf %ld %s", PvmDataRaw, 4, v, big, "to one");
        pvm_send(other, 40);
        pvm_recv(other, 41);
        pvm_unpackf("%d %s %2.2lf", &n, s, w);
        CHECK(n == 7 && strcmp(s, "back") == 0 && w[0] == 8 && w[2] == 9,
              "reply %d '%s' %g %g", n, s, w[0], w[2]);
    } else {
        long l = 0;
        double back[2] = {8, 9};
        pvm_recv(other, 40);
        pvm_unpackf("%d %4lf %ld %s", &n, w, &l, s);
        CHECK(n == 4 && w[3] == 4 && l == big && strcmp(s, "to one") == 0,
              "raw from rank 0: %d %g %ld '%s'", n, w[3], l, s);
        pvm_packf("%+ %d %s %2lf", PvmDataDefault, 7, "back", back);
        pvm_send(other, 41);
    }
}

static void minfo(void)
{
    struct pvmminfo mi;
    int a, b, cc, x = 3, buf;

    pvm_initsend(PvmDataDefault);
    pvm_pkint(&x, 1, 1);
    pvm_send(me, 50);
    pvm_initsend(PvmDataRaw);
    pvm_pkint(&x, 1, 1);
    pvm_pkint(&x, 1, 1);
    pvm_send(me, 51);
    /* Both queued, with buffer ids. */
    while ((a = pvm_probe(me, 50)) == 0)
        ;
    while ((b = pvm_probe(me, 51)) == 0)
        ;
    CHECK(a > 0 && b > 0 && a != b, "probe ids %d %d", a, b);
    cc = pvm_getminfo(a, &mi);
    CHECK(cc == 0 && mi.tag == 50 && mi.src == me && mi.len == 4 &&
              mi.enc == 0x10000000 && mi.ctx == pvm_getcontext() &&
              mi.dst == me,
          "queued XDR minfo cc %d tag %d src %x len %d enc %x dst %x", cc,
          mi.tag, mi.src, mi.len, mi.enc, mi.dst);
    cc = pvm_getminfo(b, &mi);
    CHECK(cc == 0 && mi.tag == 51 && mi.len == 8 && mi.enc == 0x408c41,
          "queued raw minfo tag %d len %d enc %x", mi.tag, mi.len, mi.enc);
    pvm_recv(me, 50);
    pvm_recv(me, 51);

    buf = pvm_initsend(PvmDataInPlace);
    cc = pvm_getminfo(buf, &mi);
    CHECK(cc == 0 && mi.enc == 0x20000000 && mi.src == me && mi.dst == 0,
          "send buffer minfo enc %x src %x dst %x", mi.enc, mi.src, mi.dst);
    pvm_initsend(PvmDataRaw);
    CHECK_EQ(pvm_getminfo(pvm_getsbuf(), &mi), 0, "raw send buffer");
    CHECK_EQ(mi.enc, 0x408c41, "raw data signature");

    mi.wid = 1234;
    mi.tag = 9;
    CHECK_EQ(pvm_setminfo(pvm_getsbuf(), &mi), 0, "setminfo");
    memset(&mi, 0, sizeof mi);
    pvm_getminfo(pvm_getsbuf(), &mi);
    CHECK(mi.wid == 1234 && mi.tag == 9, "after setminfo wid %d tag %d",
          mi.wid, mi.tag);
    {
        /* The buffer itself changes: bufinfo sees the new tag and src. */
        int blen = -1, btag = -1, bsrc = -1;
        mi.tag = 77;
        mi.src = me + 3;
        CHECK_EQ(pvm_setminfo(pvm_getsbuf(), &mi), 0, "setminfo tag/src");
        CHECK_EQ(pvm_bufinfo(pvm_getsbuf(), &blen, &btag, &bsrc), 0,
                 "bufinfo after setminfo");
        CHECK(btag == 77 && bsrc == me + 3,
              "bufinfo after setminfo tag %d src %x", btag, bsrc);
        memset(&mi, 0, sizeof mi);
        pvm_getminfo(pvm_getsbuf(), &mi);
        CHECK(mi.tag == 77 && mi.src == me + 3 && mi.wid == 1234,
              "getminfo after second setminfo tag %d src %x wid %d",
              mi.tag, mi.src, mi.wid);
    }
    CHECK_EQ(pvm_getminfo(0, &mi), PvmBadParam, "getminfo(0)");
    CHECK_EQ(pvm_getminfo(999999, &mi), PvmNoSuchBuf, "getminfo(unknown)");
    CHECK_EQ(pvm_setminfo(-1, &mi), PvmBadParam, "setminfo(-1)");
}

static void pkmesg(void)
{
    int inner, outer, got, n[3] = {7, 8, 9}, m[3] = {0}, cc, len, l2;
    char s[32] = "";
    struct pvmminfo mi;

    inner = pvm_initsend(PvmDataRaw);
    pvm_pkint(n, 3, 1);
    pvm_pkstr("inner");
    pvm_send(me, 60);
    inner = pvm_recv(me, 60);
    pvm_setrbuf(0); /* keep it */

    outer = pvm_initsend(PvmDataDefault);
    CHECK_EQ(pvm_pkmesg(outer), PvmBadParam, "pkmesg of the send buffer");
    CHECK_EQ(pvm_pkmesg(0), PvmBadParam, "pkmesg(0)");
    CHECK_EQ(pvm_pkmesg(999999), PvmNoSuchBuf, "pkmesg(unknown)");
    pvm_pkstr("outer");
    CHECK_EQ(pvm_pkmesg(inner), 0, "pkmesg");
    pvm_send(me, 61);
    pvm_recv(me, 61);
    pvm_upkstr(s);
    CHECK(strcmp(s, "outer") == 0, "outer string '%s'", s);
    got = pvm_upkmesg();
    CHECK(got > 0, "upkmesg %d", got);
    cc = pvm_getminfo(got, &mi);
    CHECK(cc == 0 && mi.tag == 60 && mi.src == me && mi.enc == 0x408c41,
          "unpacked header tag %d src %x enc %x", mi.tag, mi.src, mi.enc);
    pvm_setrbuf(got);
    pvm_upkint(m, 3, 1);
    pvm_upkstr(s);
    CHECK(m[0] == 7 && m[2] == 9 && strcmp(s, "inner") == 0,
          "unpacked body %d %d '%s'", m[0], m[2], s);

    pvm_initsend(PvmDataDefault);
    CHECK_EQ(pvm_pkmesgbody(inner), PvmMismatch, "pkmesgbody raw into XDR");
    pvm_initsend(PvmDataRaw);
    pvm_bufinfo(inner, &len, 0, 0);
    CHECK_EQ(pvm_pkmesgbody(inner), 0, "pkmesgbody");
    pvm_bufinfo(pvm_getsbuf(), &l2, 0, 0);
    CHECK_EQ(l2, len, "spliced length");
    pvm_freebuf(pvm_setsbuf(0));
    CHECK_EQ(pvm_pkmesg(inner), PvmNoBuf, "pkmesg without a send buffer");
    pvm_freebuf(inner);
    pvm_freebuf(pvm_setrbuf(0));
    CHECK_EQ(pvm_upkmesg(), PvmNoBuf, "upkmesg without a receive buffer");
}

static void tasks_and_machine(int other, int nranks)
{
    struct pvmtaskinfo *tp;
    struct pvmhostinfo *hp;
    int n, cc, nhost, narch, i, seen_me = 0, seen_other = 0;
    int infos[2];
    char *hosts[2];
    struct timeval clk, delta;

    cc = pvm_tasks(0, &n, &tp);
    CHECK(cc == 0 && n >= nranks, "tasks(0) cc %d n %d", cc, n);
    for (i = 0; i < n && cc == 0; i++) {
        if (tp[i].ti_tid == me)
            seen_me = 1;
        if (tp[i].ti_tid == other)
            seen_other = 1;
    }
    CHECK(seen_me && seen_other, "tasks(0) lists both ranks");
    cc = pvm_tasks(me, &n, &tp);
    CHECK(cc == 0 && n == 1 && tp[0].ti_tid == me &&
              tp[0].ti_pid == (int)getpid() && tp[0].ti_ptid == 0 &&
              tp[0].ti_a_out != NULL,
          "tasks(me) cc %d n %d", cc, n);
    pvm_config(&nhost, &narch, &hp);
    cc = pvm_tasks(hp[0].hi_tid, &n, &tp);
    CHECK(cc == 0 && n >= 1, "tasks(host %x) cc %d n %d", hp[0].hi_tid, cc,
          n);
    CHECK_EQ(pvm_tasks(200 << 18, &n, &tp), PvmNoHost, "tasks(bad host)");
    CHECK_EQ(pvm_tasks(-5, &n, &tp), PvmNoHost, "tasks(-5)");
    cc = pvm_tasks(me + 1000, &n, &tp);
    CHECK(cc == 0 && n == 0, "tasks(unknown tid) cc %d n %d", cc, n);

    CHECK_EQ(pvm_archcode("LINUX64"), 0x408c41, "archcode(LINUX64)");
    CHECK_EQ(pvm_archcode(hp[0].hi_arch), 0x408c41, "archcode(hi_arch)");
    CHECK_EQ(pvm_archcode("SUN4"), PvmNotFound, "archcode(SUN4)");
    CHECK_EQ(pvm_archcode(NULL), PvmBadParam, "archcode(NULL)");

    CHECK_EQ(pvm_mstat(hp[0].hi_name), PvmOk, "mstat(our host)");
    CHECK_EQ(pvm_mstat("no.such.host"), PvmNoHost, "mstat(other)");

    hosts[0] = hp[0].hi_name;
    hosts[1] = "no.such.host";
    infos[0] = infos[1] = 1;
    cc = pvm_addhosts(hosts, 2, infos);
    CHECK(cc == 0 && infos[0] == PvmDupHost && infos[1] == PvmCantStart,
          "addhosts %d infos %d %d", cc, infos[0], infos[1]);
    CHECK_EQ(pvm_addhosts(hosts, 0, infos), PvmBadParam, "addhosts(0)");
    cc = pvm_delhosts(hosts + 1, 1, infos);
    CHECK(cc == 0 && infos[0] == PvmNoHost, "delhosts %d info %d", cc,
          infos[0]);
    CHECK_EQ(pvm_start_pvmd(0, NULL, 1), PvmDupHost, "start_pvmd");
    cc = pvm_hostsync(hp[0].hi_tid, &clk, &delta);
    CHECK(cc == 0 && clk.tv_sec > 0 && delta.tv_sec == 0 &&
              delta.tv_usec == 0,
          "hostsync %d", cc);
    CHECK_EQ(pvm_hostsync(200 << 18, &clk, &delta), PvmNoHost,
             "hostsync(bad host)");
    {
        int *fds = NULL;
        fd_set r;
        struct timeval zero = {0, 0};
        cc = pvm_getfds(&fds);
        CHECK(cc == 1 && fds != NULL, "getfds %d", cc);
        if (cc == 1 && fds) {
            FD_ZERO(&r);
            FD_SET(fds[0], &r);
            CHECK(select(fds[0] + 1, &r, NULL, NULL, &zero) == 1,
                  "the descriptor is readable");
        }
    }
    {
        int arg = 0, nres = -1, res[4];
        CHECK(pvm_tickle(1, &arg, &nres, res) == 0 && nres == 0, "tickle");
    }
    {
        int *nr = NULL, nn = -1;
        cc = pvm_getnoresets(&nr, &nn);
        CHECK(cc == 0 && nn == 0, "getnoresets %d %d", cc, nn);
        pvm_setopt(PvmNoReset, 1);
        cc = pvm_getnoresets(&nr, &nn);
        CHECK(cc == 0 && nn == 1 && nr[0] == me, "getnoresets after NoReset");
        pvm_setopt(PvmNoReset, 0);
    }
    CHECK_EQ(pvm_reg_hoster(), PvmNotImpl, "reg_hoster");
    CHECK_EQ(pvm_reg_tasker(), PvmNotImpl, "reg_tasker");
    CHECK_EQ(pvm_reg_rm(&hp), PvmNotImpl, "reg_rm");
    CHECK_EQ(pvm_reg_tracer(0, 0, 0, 0, "", 0, 0), PvmNotImpl, "reg_tracer");
    {
        char m1[36], m2[36];
        CHECK_EQ(pvm_gettmask(PvmTaskSelf, m1), 0, "gettmask");
        CHECK(m1[0] == '@' && m1[35] == 0, "a fresh mask is cleared");
        m1[0] = 'A';
        CHECK_EQ(pvm_settmask(PvmTaskChild, m1), 0, "settmask");
        pvm_gettmask(PvmTaskChild, m2);
        CHECK(m2[0] == 'A', "mask kept");
        CHECK_EQ(pvm_gettmask(5, m1), PvmBadParam, "gettmask(5)");
    }
    CHECK(pvmgettmp() != NULL && pvmgetrsh() != NULL, "gettmp/getrsh");
    {
        char *t = pvmtmpnam(NULL);
        CHECK(t && strncmp(t, pvmgettmp(), strlen(pvmgettmp())) == 0,
              "tmpnam in the tmp directory");
    }
}

static void export_list(void)
{
    unsetenv("PVM_EXPORT");
    CHECK_EQ(pvm_export("DISPLAY"), 0, "export");
    CHECK(strcmp(getenv("PVM_EXPORT"), "DISPLAY") == 0, "first export");
    pvm_export("TERM");
    pvm_export("DISPLAY");
    pvm_export("");
    CHECK(strcmp(getenv("PVM_EXPORT"), "DISPLAY:TERM") == 0,
          "two exports: %s", getenv("PVM_EXPORT"));
    CHECK_EQ(pvm_unexport("DISPLAY"), 0, "unexport");
    CHECK(strcmp(getenv("PVM_EXPORT"), "TERM") == 0, "after unexport: %s",
          getenv("PVM_EXPORT"));
    CHECK_EQ(pvm_unexport("NOTTHERE"), 0, "unexport absent");
    pvm_unexport("TERM");
    CHECK(strcmp(getenv("PVM_EXPORT"), "") == 0, "emptied");
}

static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1;
}

static void signals_to_self(void)
{
    signal(SIGUSR1, on_usr1);
    CHECK_EQ(pvm_sendsig(me, 0), 0, "sendsig 0");
    CHECK_EQ(pvm_sendsig(me, SIGUSR1), 0, "sendsig to self");
    CHECK(got_usr1, "own signal delivered");
    CHECK_EQ(pvm_sendsig(-3, SIGTERM), PvmBadParam, "sendsig bad tid");
    CHECK_EQ(pvm_sendsig(me + 5000, SIGTERM), 0, "sendsig unknown tid");
}

static int zero_match(int mid, int tid, int tag)
{
    (void)mid;
    (void)tid;
    (void)tag;
    return 0;
}

static int handler(int mid)
{
    (void)mid;
    return 0;
}

static void recvf_and_handler_bookkeeping(void)
{
    int (*def)() = pvm_recvf(zero_match);
    int (*back)() = pvm_recvf(def);
    int (*again)() = pvm_recvf(NULL);
    int x = 1, mid, id, id2;

    CHECK(def != NULL, "recvf returns the default matcher");
    CHECK(back == (int (*)())zero_match, "recvf returns the previous one");
    CHECK(again == def, "the default again");
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&x, 1, 1);
    pvm_send(me, 70);
    while ((mid = pvm_probe(me, 70)) == 0)
        ;
    CHECK_EQ(((int (*)(int, int, int))def)(mid, -1, -1), 1,
             "default matcher takes any");
    CHECK_EQ(((int (*)(int, int, int))def)(mid, me, 71), 0,
             "default matcher checks the tag");
    pvm_recv(me, 70);

    id = pvm_addmhf(-1, 5, -1, handler);
    CHECK(id >= 0, "addmhf %d", id);
    CHECK_EQ(pvm_addmhf(me, 5, 0, handler), PvmExists, "overlapping handler");
    id2 = pvm_addmhf(-1, 6, -1, handler);
    CHECK(id2 >= 0 && id2 != id, "second handler %d", id2);
    CHECK_EQ(pvm_addmhf(-1, 7, -1, NULL), PvmBadParam, "NULL handler");
    CHECK_EQ(pvm_delmhf(id), 0, "delmhf");
    CHECK_EQ(pvm_delmhf(id), PvmNotFound, "delmhf twice");
    CHECK_EQ(pvm_delmhf(-1), PvmBadParam, "delmhf(-1)");
    CHECK_EQ(pvm_addmhf(-1, 5, -1, handler), id, "a freed id is reused");
    pvm_delmhf(id);
    pvm_delmhf(id2);
}

int main(void)
{
    int *sibs, nsib, other, done = 0;

    me = pvm_mytid();
    if (me < 0) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    nsib = pvm_siblings(&sibs);
    rank = sibs[0] == me ? 0 : 1;
    tally_who = rank;
    other = sibs[rank == 0 ? 1 : 0];
    pvm_setopt(PvmAutoErr, 0);

    packf_local(PvmDataDefault);
    packf_local(PvmDataRaw);
    packf_errors();
    packf_inplace();
    packf_pair(other);
    minfo();
    pkmesg();
    tasks_and_machine(other, nsib);
    export_list();
    signals_to_self();
    recvf_and_handler_bookkeeping();

    /* Leave together: each rank tells the other it is done. */
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&done, 1, 1);
    pvm_send(other, 99);
    pvm_recv(other, 99);

    printf("rank %d: %d passed, %d failed\n", rank, passed, failed);
    pvm_exit();
    return failed ? 1 : 0;
}
