/* PVM group semantics (libgpvm3), SPMD on 4 ranks (4 or more needed):
 * membership and instance reuse, error codes, barriers (count, -1,
 * mismatch), freezing, broadcast, reduce/scatter/gather with a root other
 * than instance 0, and group traffic kept apart from user messages.
 * Each rank prints "t<tid>: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <pvm3.h>
#include <stdio.h>
#include <string.h>
#include "tally.h"

static int mytid;

static int n;       /* tasks */
static int *sibs;   /* their tids; sibs[0] runs the group service */
static int me;      /* my index in sibs */

/* A user-defined reduce function: element-wise product of doubles. */
static void times(int *datatype, void *x, void *y, int *num, int *info) {
    double *a = x, *b = y;
    for (int i = 0; i < *num; i++) a[i] *= b[i];
    *info = *datatype == PVM_DOUBLE ? PvmOk : PvmBadParam;
}

static void sync_all(void) { EXPECT(pvm_barrier("all", n), 0); }

static void bad_inputs(void) {
    char g[32];
    snprintf(g, sizeof g, "bad.%d", me);
    EXPECT(pvm_joingroup(NULL), PvmNullGroup);
    EXPECT(pvm_errno, PvmNullGroup);
    EXPECT(pvm_joingroup(""), PvmNullGroup);
    EXPECT(pvm_lvgroup("nosuch"), PvmNoGroup);
    EXPECT(pvm_gsize("nosuch"), PvmNoGroup);
    EXPECT(pvm_gettid("nosuch", 0), PvmNoGroup);
    EXPECT(pvm_getinst("nosuch", mytid), PvmNoGroup);
    EXPECT(pvm_barrier("nosuch", 1), PvmNoGroup);
    EXPECT(pvm_freezegroup("nosuch", -1), PvmNoGroup);

    EXPECT(pvm_joingroup(g), 0);
    EXPECT(pvm_joingroup(g), PvmDupGroup);
    EXPECT(pvm_errno, PvmDupGroup);
    EXPECT(pvm_gsize(g), 1);
    EXPECT(pvm_getinst(g, mytid), 0);
    EXPECT(pvm_getinst(g, 0), PvmBadParam);
    EXPECT(pvm_gettid(g, 0), mytid);
    EXPECT(pvm_gettid(g, 1), PvmNoInst);
    EXPECT(pvm_gettid(g, -1), PvmNoInst);
    EXPECT(pvm_barrier(g, 0), PvmBadParam);
    EXPECT(pvm_barrier(g, -2), PvmBadParam);
    EXPECT(pvm_barrier(g, 1), 0);
    EXPECT(pvm_barrier(g, -1), 0);
    EXPECT(pvm_freezegroup(g, 0), PvmBadParam);
    pvm_initsend(PvmDataDefault);
    EXPECT(pvm_bcast(g, -1), PvmBadParam);
    EXPECT(pvm_bcast(g, 5), PvmNoInst); /* the caller is the only member */

    /* Reduce, scatter, gather: checked arguments (these are reported on
     * stderr, as libgpvm3 does). */
    int v[2] = {1, 2}, r[2];
    EXPECT(pvm_reduce(PvmSum, v, 0, PVM_INT, 1, g, 0), PvmBadParam);
    EXPECT(pvm_reduce(PvmSum, NULL, 2, PVM_INT, 1, g, 0), PvmBadParam);
    EXPECT(pvm_reduce(PvmSum, v, 2, PVM_UINT, 1, g, 0), PvmBadParam);
    EXPECT(pvm_reduce(PvmSum, v, 2, PVM_INT, -1, g, 0), PvmBadParam);
    EXPECT(pvm_reduce(PvmSum, v, 2, PVM_INT, 1, g, 3), PvmNoInst);
    EXPECT(pvm_reduce(PvmSum, v, 2, PVM_INT, 1, "nosuch", 0), PvmNoGroup);
    EXPECT(pvm_scatter(NULL, v, 2, PVM_INT, 1, g, 0), PvmBadParam);
    EXPECT(pvm_gather(r, NULL, 2, PVM_INT, 1, g, 0), PvmBadParam);
    EXPECT(pvm_gather(r, v, 2, PVM_ULONG, 1, g, 0), PvmBadParam);
    /* Alone in the group: the root's own data is the result. */
    EXPECT(pvm_reduce(PvmSum, v, 2, PVM_INT, 1, g, 0), 0);
    CHECK(v[0] == 1 && v[1] == 2, "reduce over one member");
    r[0] = r[1] = 0;
    EXPECT(pvm_scatter(r, v, 2, PVM_INT, 1, g, 0), 0);
    CHECK(r[0] == 1 && r[1] == 2, "scatter to oneself");
    r[0] = r[1] = 0;
    EXPECT(pvm_gather(r, v, 2, PVM_INT, 1, g, 0), 0);
    CHECK(r[0] == 1 && r[1] == 2, "gather from oneself");

    EXPECT(pvm_freezegroup(g, -1), 0);
    EXPECT(pvm_freezegroup(g, -1), PvmDupGroup);
    EXPECT(pvm_lvgroup(g), 0);
    EXPECT(pvm_lvgroup(g), PvmNoGroup); /* gone with its last member */
    EXPECT(pvm_gsize(g), PvmNoGroup);
}

static void membership(void) {
    int seen[64] = {0};
    EXPECT(pvm_gsize("all"), n);
    for (int i = 0; i < n; i++) {
        int inst = pvm_getinst("all", sibs[i]);
        CHECK(inst >= 0 && inst < n, "every sibling has an instance");
        if (inst >= 0 && inst < n) {
            seen[inst]++;
            EXPECT(pvm_gettid("all", inst), sibs[i]);
        }
    }
    for (int i = 0; i < n; i++) CHECK(seen[i] == 1, "instances are 0..n-1");
    EXPECT(pvm_gettid("all", n), PvmNoInst);
    EXPECT(pvm_barrier("all", -1), 0);
}

/* Two members leave; rejoining takes the lowest free instance. */
static void instance_reuse(void) {
    int inst = pvm_joingroup("reuse");
    CHECK(inst >= 0, "join reuse");
    sync_all();
    int leaves = inst == 1 || inst == 3;
    if (leaves) {
        EXPECT(pvm_lvgroup("reuse"), 0);
        EXPECT(pvm_lvgroup("reuse"), PvmNotInGroup);
        EXPECT(pvm_getinst("reuse", mytid), PvmNotInGroup);
    }
    sync_all();
    EXPECT(pvm_gsize("reuse"), n - 2);
    EXPECT(pvm_gettid("reuse", 1), PvmNoInst);
    EXPECT(pvm_gettid("reuse", 3), PvmNoInst);
    sync_all();
    if (inst == 3) EXPECT(pvm_joingroup("reuse"), 1);
    sync_all();
    if (inst == 1) EXPECT(pvm_joingroup("reuse"), 3);
    sync_all();
    EXPECT(pvm_gsize("reuse"), n);
    sync_all();
    EXPECT(pvm_lvgroup("reuse"), 0);
    sync_all();
    EXPECT(pvm_gsize("reuse"), PvmNoGroup);
}

/* Mismatched barrier counts. The service runs in sibs[0] and handles its
 * own barrier call as soon as it makes it, so sibs[1]'s call (sent after a
 * message sibs[0] sends just before its barrier) comes second. */
static void barrier_mismatch(void) {
    if (me == 0) EXPECT(pvm_joingroup("mm"), 0);
    sync_all();
    if (me == 1) EXPECT(pvm_joingroup("mm"), 1);
    sync_all();
    if (me == 0) {
        pvm_initsend(PvmDataDefault);
        pvm_send(sibs[1], 40);
        EXPECT(pvm_barrier("mm", 2), 0);
    } else if (me == 1) {
        EXPECT(pvm_recv(sibs[0], 40) > 0, 1);
        EXPECT(pvm_barrier("mm", 1), PvmMismatch);
        EXPECT(pvm_errno, PvmMismatch);
        EXPECT(pvm_barrier("mm", 3), PvmMismatch);
        EXPECT(pvm_barrier("mm", -1), 0); /* joins the pending barrier */
    } else {
        int x = 1;
        EXPECT(pvm_barrier("mm", 2), PvmNotInGroup);
        EXPECT(pvm_getinst("mm", sibs[1]), 1); /* anyone may ask */
        EXPECT(pvm_reduce(PvmSum, &x, 1, PVM_INT, 45, "mm", 0), PvmNoInst);
        EXPECT(pvm_scatter(&x, &x, 1, PVM_INT, 46, "mm", 0), PvmNoInst);
    }
    sync_all();
}

/* bcast reaches every member but the caller; non-members may call it. */
static void broadcast(void) {
    int inst = pvm_getinst("all", mytid), x = 0;
    if (inst == 1) {
        pvm_initsend(PvmDataDefault);
        x = 1000 + inst;
        pvm_pkint(&x, 1, 1);
        EXPECT(pvm_bcast("all", 11), 0);
    } else {
        int b = pvm_recv(-1, 11), bytes, tag, src;
        CHECK(b > 0, "bcast arrives");
        pvm_bufinfo(b, &bytes, &tag, &src);
        EXPECT(src, pvm_gettid("all", 1));
        pvm_upkint(&x, 1, 1);
        EXPECT(x, 1001);
    }
    /* A non-member (sibs[2]) broadcasts to "mm" = {sibs[0], sibs[1]}. */
    if (me == 2) {
        pvm_initsend(PvmDataRaw);
        x = 77;
        pvm_pkint(&x, 1, 1);
        EXPECT(pvm_bcast("mm", 12), 0);
    } else if (me <= 1) {
        EXPECT(pvm_recv(sibs[2], 12) > 0, 1);
        pvm_upkint(&x, 1, 1);
        EXPECT(x, 77);
    }
    sync_all();
    EXPECT(pvm_nrecv(-1, 11), 0); /* nothing more, the caller got none */
    EXPECT(pvm_nrecv(-1, 12), 0);
    if (me <= 1) EXPECT(pvm_lvgroup("mm"), 0);
    sync_all();
}

static double modulus2(const double *c) { return c[0] * c[0] + c[1] * c[1]; }

static void reductions(void) {
    int inst = pvm_getinst("all", mytid);
    /* int sum, root 1 */
    int iv[5];
    for (int i = 0; i < 5; i++) iv[i] = inst * 10 + i;
    EXPECT(pvm_reduce(PvmSum, iv, 5, PVM_INT, 21, "all", 1), 0);
    if (inst == 1) {
        int ok = 1;
        for (int i = 0; i < 5; i++) ok &= iv[i] == 10 * n * (n - 1) / 2 + n * i;
        CHECK(ok, "PvmSum of ints at root 1");
    }
    /* double max, root n-1 */
    double dv[3];
    for (int i = 0; i < 3; i++) dv[i] = (i == 1 ? -1.0 : 1.0) * (inst + 0.5);
    EXPECT(pvm_reduce(PvmMax, dv, 3, PVM_DOUBLE, 22, "all", n - 1), 0);
    if (inst == n - 1)
        CHECK(dv[0] == n - 0.5 && dv[1] == -0.5 && dv[2] == n - 0.5, "PvmMax of doubles");
    /* float complex sum, root 2 */
    float cv[4] = {(float)inst, 1.0f, 2.0f * (float)inst, -1.0f};
    EXPECT(pvm_reduce(PvmSum, cv, 2, PVM_CPLX, 23, "all", 2), 0);
    if (inst == 2) {
        float s = (float)(n * (n - 1) / 2);
        CHECK(cv[0] == s && cv[1] == (float)n && cv[2] == 2 * s && cv[3] == -(float)n,
              "PvmSum of complex");
    }
    /* double complex max by modulus, root 1: instance k holds (0, k) and
     * (n-k, 0); the biggest moduli are (0, n-1) and (n, 0). */
    double zv[4] = {0.0, (double)inst, (double)(n - inst), 0.0};
    EXPECT(pvm_reduce(PvmMax, zv, 2, PVM_DCPLX, 24, "all", 1), 0);
    if (inst == 1)
        CHECK(zv[0] == 0.0 && zv[1] == n - 1 && zv[2] == n && zv[3] == 0.0 &&
                  modulus2(zv) == (n - 1.0) * (n - 1.0),
              "PvmMax of double complex by modulus");
    /* min of longs and shorts, root 3 */
    long lv[2] = {1000000000000L + inst, -(long)inst};
    EXPECT(pvm_reduce(PvmMin, lv, 2, PVM_LONG, 25, "all", 3), 0);
    if (inst == 3) CHECK(lv[0] == 1000000000000L && lv[1] == -(long)(n - 1), "PvmMin of longs");
    short sv[2] = {(short)(5 - inst), (short)inst};
    EXPECT(pvm_reduce(PvmMin, sv, 2, PVM_SHORT, 26, "all", 3), 0);
    if (inst == 3) CHECK(sv[0] == 5 - (n - 1) && sv[1] == 0, "PvmMin of shorts");
    /* user function, root 1 */
    double pv[2] = {inst + 1.0, 2.0};
    EXPECT(pvm_reduce(times, pv, 2, PVM_DOUBLE, 27, "all", 1), 0);
    if (inst == 1) {
        double f = 1;
        for (int k = 1; k <= n; k++) f *= k;
        CHECK(pv[0] == f && pv[1] == (double)(1 << n), "user reduce function");
    }
    /* PvmSum refuses bytes: the root's fold fails. */
    char bv[2] = {1, 2};
    EXPECT(pvm_reduce(PvmSum, bv, 2, PVM_BYTE, 28, "all", 2), inst == 2 ? PvmBadParam : 0);
    sync_all();
}

static void scatter_gather(void) {
    int inst = pvm_getinst("all", mytid);
    int data[64 * 3], got[3] = {0, 0, 0};
    if (inst == 2)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < 3; j++) data[i * 3 + j] = 100 * i + j;
    EXPECT(pvm_scatter(got, inst == 2 ? data : NULL, 3, PVM_INT, 31, "all", 2), 0);
    CHECK(got[0] == 100 * inst && got[1] == 100 * inst + 1 && got[2] == 100 * inst + 2,
          "scatter from root 2");

    double mine[3], all[64 * 3];
    for (int j = 0; j < 3; j++) mine[j] = inst * 7 + j + 0.25;
    EXPECT(pvm_gather(inst == n - 1 ? all : NULL, mine, 3, PVM_DOUBLE, 32, "all", n - 1), 0);
    if (inst == n - 1) {
        int ok = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < 3; j++) ok &= all[i * 3 + j] == i * 7 + j + 0.25;
        CHECK(ok, "gather at root n-1");
    }
    sync_all();
}

/* Group traffic must not match a user recv(-1,-1): the root of a reduce
 * waits for a user message while the members' contributions (sent before
 * that message) are already on their way; user buffers survive. */
static void apart_from_user_messages(void) {
    int inst = pvm_getinst("all", mytid);
    int v = inst + 1;
    if (inst == 1) {
        int b = pvm_recv(-1, -1), tag = -1, src = 0, x = 0;
        pvm_bufinfo(b, NULL, &tag, &src);
        EXPECT(tag, 50);
        EXPECT(src, pvm_gettid("all", 0));
        /* Keep an active send and receive buffer across the reduce. */
        int sb = pvm_initsend(PvmDataDefault);
        pvm_pkint(&v, 1, 1);
        EXPECT(pvm_reduce(PvmSum, &v, 1, PVM_INT, 51, "all", 1), 0);
        EXPECT(v, n * (n + 1) / 2);
        EXPECT(pvm_getsbuf(), sb);
        EXPECT(pvm_getrbuf(), b);
        pvm_upkint(&x, 1, 1);
        EXPECT(x, 4242);
    } else {
        EXPECT(pvm_reduce(PvmSum, &v, 1, PVM_INT, 51, "all", 1), 0);
        if (inst == 0) {
            int x = 4242;
            pvm_initsend(PvmDataDefault);
            pvm_pkint(&x, 1, 1);
            pvm_send(pvm_gettid("all", 1), 50);
        }
    }
    sync_all();
}

/* Freezing: all but the last sibling join "frz" and freeze it. */
static void freezing(void) {
    int member = me < n - 1;
    if (member) {
        CHECK(pvm_joingroup("frz") >= 0, "join frz");
    }
    sync_all(); /* -1 below means the size at the call */
    if (member) {
        EXPECT(pvm_freezegroup("frz", -1), 0);
        EXPECT(pvm_gsize("frz"), n - 1);
    }
    sync_all();
    if (!member) {
        EXPECT(pvm_joingroup("frz"), PvmNotInGroup); /* frozen */
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&me, 1, 1);
        EXPECT(pvm_bcast("frz", 61), 0);
    } else {
        EXPECT(pvm_freezegroup("frz", -1), PvmDupGroup);
        EXPECT(pvm_recv(sibs[n - 1], 61) > 0, 1);
        int inst = pvm_getinst("frz", mytid), v = inst;
        EXPECT(pvm_reduce(PvmSum, &v, 1, PVM_INT, 62, "frz", 0), 0);
        if (inst == 0) EXPECT(v, (n - 1) * (n - 2) / 2);
        EXPECT(pvm_barrier("frz", -1), 0);
        /* A member leaving breaks a frozen group. */
        if (inst == 0) EXPECT(pvm_lvgroup("frz"), 0);
    }
    sync_all();
    if (member && pvm_getinst("frz", mytid) >= 0) {
        EXPECT(pvm_barrier("frz", -1), PvmNoGroup);
        EXPECT(pvm_lvgroup("frz"), 0);
    }
    sync_all();
    EXPECT(pvm_gsize("frz"), PvmNoGroup);
}

int main(void) {
    mytid = pvm_mytid();
    tally_who = mytid;
    n = pvm_siblings(&sibs);
    for (me = 0; me < n && sibs[me] != mytid; me++)
        ;
    if (n < 4 || n > 64) {
        printf("t%x: needs 4 to 64 tasks, got %d\n", mytid, n);
        pvm_exit();
        return 1;
    }
    bad_inputs();
    CHECK(pvm_joingroup("all") >= 0, "join all");
    sync_all();
    membership();
    instance_reuse();
    barrier_mismatch();
    broadcast();
    reductions();
    scatter_gather();
    apart_from_user_messages();
    freezing();
    EXPECT(pvm_lvgroup("all"), 0);
    printf("t%x: %d passed, %d failed\n", mytid, passed, failed);
    fflush(stdout);
    pvm_exit();
    return failed != 0;
}
