/* DGOP_ and IGOP_ on every node at once, as a code's global sums use them:
 * every operation on lengths from 1 element to well past 32 KiB (so both
 * the same-node path and MPI serve some), each result checked against a
 * serial model of what every node contributed; sums of inexact doubles
 * checked to be bit for bit the same on every node; thousands of
 * back-to-back reductions of alternating lengths, with point-to-point
 * messages between them. Ends with PEND.
 * usage: tcg_sums [ROUNDS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sndrcv.h>
#include "../tally.h"

static long me, nn;

/* Node k's double at index i: halves and small whole numbers, so every
 * sum and product is exact whatever the order. */
static double dval(long k, long i) {
    double v = (double)((k + 1) * (i % 7 + 1)) * 0.5;
    return (i + k) % 3 == 0 ? -v : v;
}

/* Node k's integer at index i. */
static long ival(long k, long i) {
    long v = (k * 37 + i * 11) % 101 - 50;
    return v;
}

/* The expected double result at index i of `op` over every node. */
static double dwant(const char *op, long i) {
    double acc = 0;
    for (long k = 0; k < nn; k++) {
        double v = dval(k, i);
        if (!strcmp(op, "absmax") || !strcmp(op, "absmin")) v = fabs(v);
        if (k == 0) { acc = v; continue; }
        if (!strcmp(op, "+")) acc += v;
        else if (!strcmp(op, "*")) acc *= v;
        else if (!strcmp(op, "max") || !strcmp(op, "absmax")) acc = v > acc ? v : acc;
        else acc = v < acc ? v : acc;
    }
    return acc;
}

static long iwant(const char *op, long i) {
    long acc = 0;
    for (long k = 0; k < nn; k++) {
        long v = ival(k, i);
        if (!strcmp(op, "absmax")) v = labs(v);
        if (k == 0) {
            acc = !strcmp(op, "&&") || !strcmp(op, "||") ? v != 0 : v;
            continue;
        }
        if (!strcmp(op, "+")) acc += v;
        else if (!strcmp(op, "max") || !strcmp(op, "absmax")) acc = v > acc ? v : acc;
        else if (!strcmp(op, "min")) acc = v < acc ? v : acc;
        else if (!strcmp(op, "or")) acc |= v;
        else if (!strcmp(op, "&&")) acc = acc && v;
        else acc = acc || v;
    }
    return acc;
}

static void dgop_case(const char *op, long n, double *x) {
    long type = 11;
    for (long i = 0; i < n; i++) x[i] = dval(me, i);
    DGOP_(&type, x, &n, (char *)op);
    long bad = 0;
    for (long i = 0; i < n; i++)
        if (x[i] != dwant(op, i) && bad++ == 0)
            CHECK(0, "DGOP %s n=%ld: element %ld is %g, expected %g", op, n, i, x[i], dwant(op, i));
    CHECK(bad == 0, "DGOP %s n=%ld: %ld elements wrong", op, n, bad);
}

static void igop_case(const char *op, long n, long *x) {
    long type = 12;
    for (long i = 0; i < n; i++) x[i] = ival(me, i);
    IGOP_(&type, x, &n, (char *)op);
    long bad = 0;
    for (long i = 0; i < n; i++)
        if (x[i] != iwant(op, i) && bad++ == 0)
            CHECK(0, "IGOP %s n=%ld: element %ld is %ld, expected %ld", op, n, i, x[i], iwant(op, i));
    CHECK(bad == 0, "IGOP %s n=%ld: %ld elements wrong", op, n, bad);
}

/* Inexact sums: every node must get the same bits (node 0 broadcasts its
 * result), close to the serial sum. */
static void same_bits(long n, double *x, double *y) {
    long type = 13, len = n * (long)sizeof(double), zero = 0;
    for (long i = 0; i < n; i++) x[i] = 1.0 / (3.0 + (double)me * 7.0 + (double)i);
    DGOP_(&type, x, &n, "+");
    memcpy(y, x, (size_t)len);
    BRDCST_(&type, y, &len, &zero);
    CHECK(memcmp(x, y, (size_t)len) == 0, "n=%ld: node %ld's sum differs from node 0's", n, me);
    long bad = 0;
    for (long i = 0; i < n; i++) {
        double s = 0;
        for (long k = 0; k < nn; k++) s += 1.0 / (3.0 + (double)k * 7.0 + (double)i);
        if (fabs(x[i] - s) > 1e-13 * s) bad++;
    }
    CHECK(bad == 0, "n=%ld: %ld inexact sums far from the serial sum", n, bad);
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 3000;
    PBEGIN_(argc, argv);
    me = NODEID_();
    nn = NNODES_();
    tally_who = (int)me;
    enum { MAXN = 10000 };
    double *x = malloc(MAXN * sizeof(double)), *y = malloc(MAXN * sizeof(double));
    long *ix = malloc(MAXN * sizeof(long));
    /* 4096 elements are 32 KiB; 4097 and up go through MPI. */
    const long lens[] = {1, 2, 3, 64, 1000, 4096, 4097, MAXN, 1};
    const char *dops[] = {"+", "*", "max", "min", "absmax", "absmin"};
    const char *iops[] = {"+", "max", "min", "absmax", "or", "&&", "||"};
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        for (size_t o = 0; o < sizeof dops / sizeof dops[0]; o++) dgop_case(dops[o], lens[l], x);
        for (size_t o = 0; o < sizeof iops / sizeof iops[0]; o++) igop_case(iops[o], lens[l], ix);
        same_bits(lens[l], x, y);
    }
    /* Back to back: lengths alternate between the two paths, and a
     * message goes round the ring every 100 reductions. */
    long bad = 0;
    for (long r = 0; r < rounds; r++) {
        long n = (r % 5 == 4) ? 4200 : 1 + r % 3, type = 14;
        for (long i = 0; i < n; i++) x[i] = (double)(me + r + i);
        DGOP_(&type, x, &n, "+");
        for (long i = 0; i < n; i++) {
            double want = (double)(nn * (r + i)) + (double)(nn * (nn - 1) / 2);
            if (x[i] != want) bad++;
        }
        if (r % 100 == 0 && nn > 1) {
            long t = 15, len = sizeof(long), to = (me + 1) % nn, from = (me + nn - 1) % nn;
            long sync = 1, got = 0, who = -1, v = me * 1000 + r, w = -1;
            if (me == 0) {
                SND_(&t, &v, &len, &to, &sync);
                RCV_(&t, &w, &len, &got, &from, &who, &sync);
            } else {
                RCV_(&t, &w, &len, &got, &from, &who, &sync);
                SND_(&t, &v, &len, &to, &sync);
            }
            if (w != from * 1000 + r) bad++;
        }
    }
    CHECK(bad == 0, "back-to-back reductions: %ld wrong results", bad);
    printf("tcg_sums node %ld: %d passed, %d failed\n", me, passed, failed);
    fflush(stdout);
    if (failed) return 1;
    PEND_();
    return 3;
}
