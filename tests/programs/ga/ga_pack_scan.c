/* Global Arrays C API: pack, unpack, the segmented scans, enumeration and
 * element selection (GA_Pack, GA_Unpack, GA_Scan_add inclusive and
 * exclusive, GA_Scan_copy, GA_Patch_enum with int and int64_t ranges;
 * NGA_Select_elem and NGA_Select_elem64 on 2-D arrays) on int, long and
 * double arrays of an odd length, over the whole range and parts of it.
 * Every result is checked on every rank against a serial model the
 * program computes itself; rank 0 prints each result, then
 * "ga_pack_scan: N passed, M failed".
 *
 * Arguments: "ties" adds matrices whose extremes occur twice, where the
 * first in row-major order must be given (GA 5.8 gives one that depends
 * on how the array is spread); "bad NAME" makes one bad call that must
 * end the job naming the call. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define N 23
#define R 7
#define C 5

static const int TYPES[3] = {C_INT, C_LONG, C_DBL};
static const char *TNAME[3] = {"int", "long", "double"};
static int me;

/* Element k of a vector of type t, and the mask (bits at 2, 3, 9, 16, 17). */
static double value(int k) { return (double)((k * 7) % 11) - 3.0; }
static int bit(int k, int shift) { return ((k + shift) % 7 == 2) || k == 3 || k == 17; }

static void put_vec(int g, int t, const double *v) {
    int lo = 0, hi = N - 1, ld = 1;
    char buf[N * sizeof(double)];
    for (int k = 0; k < N; k++) {
        if (t == C_INT) ((int *)buf)[k] = (int)v[k];
        else if (t == C_LONG) ((long *)buf)[k] = (long)v[k];
        else ((double *)buf)[k] = v[k];
    }
    GA_Sync();
    if (me == 0) NGA_Put(g, &lo, &hi, buf, &ld);
    GA_Sync();
}

static void get_vec(int g, int t, double *v) {
    int lo = 0, hi = N - 1, ld = 1;
    char buf[N * sizeof(double)];
    NGA_Get(g, &lo, &hi, buf, &ld);
    for (int k = 0; k < N; k++) {
        if (t == C_INT) v[k] = ((int *)buf)[k];
        else if (t == C_LONG) v[k] = ((long *)buf)[k];
        else v[k] = ((double *)buf)[k];
    }
}

static void show(const char *what, const double *v) {
    if (me != 0) return;
    printf("%s:", what);
    for (int k = 0; k < N; k++) printf(" %g", v[k]);
    printf("\n");
}

/* The result vector against the model; printed by rank 0. */
static void compare(const char *what, const double *got, const double *want) {
    int same = 1;
    for (int k = 0; k < N; k++) same &= got[k] == want[k];
    CHECK(same, "%s differs from the model", what);
    show(what, got);
}

static void scans(int ti, int shift, int lo, int hi, int wide) {
    int t = TYPES[ti];
    int dims = N;
    int ga = NGA_Create(t, 1, &dims, "a", NULL);
    int gb = NGA_Create(t, 1, &dims, "b", NULL);
    int gm = NGA_Create(C_INT, 1, &dims, "m", NULL);
    double a[N], b0[N], got[N], want[N], m[N];
    for (int k = 0; k < N; k++) {
        a[k] = value(k);
        b0[k] = 100 + k;
        m[k] = bit(k, shift);
    }
    put_vec(ga, t, a);
    put_vec(gm, C_INT, m);
    char what[96];
    for (int excl = 0; excl < 2; excl++) {
        put_vec(gb, t, b0);
        if (wide) GA_Scan_add64(ga, gb, gm, lo, hi, excl);
        else GA_Scan_add(ga, gb, gm, lo, hi, excl);
        memcpy(want, b0, sizeof want);
        int on = 0;
        double acc = 0;
        for (int k = lo; k <= hi; k++) {
            if (m[k]) {
                on = 1;
                want[k] = excl ? 0 : a[k];
                acc = a[k];
            } else if (on) {
                want[k] = excl ? acc : acc + a[k];
                acc += a[k];
            }
        }
        get_vec(gb, t, got);
        snprintf(what, sizeof what, "scan_add%s %s [%d:%d] shift %d excl %d", wide ? "64" : "", TNAME[ti], lo, hi, shift, excl);
        compare(what, got, want);
    }
    put_vec(gb, t, b0);
    if (wide) GA_Scan_copy64(ga, gb, gm, lo, hi);
    else GA_Scan_copy(ga, gb, gm, lo, hi);
    memcpy(want, b0, sizeof want);
    double cur = 0;
    for (int k = lo; k <= hi; k++) {
        if (m[k]) cur = a[k];
        want[k] = cur;
    }
    get_vec(gb, t, got);
    snprintf(what, sizeof what, "scan_copy%s %s [%d:%d] shift %d", wide ? "64" : "", TNAME[ti], lo, hi, shift);
    compare(what, got, want);

    /* Pack into b, unpack b into a fresh vector. */
    put_vec(gb, t, b0);
    int cnt = -1;
    int64_t cnt64 = -1;
    if (wide) GA_Pack64(ga, gb, gm, lo, hi, &cnt64);
    else GA_Pack(ga, gb, gm, lo, hi, &cnt);
    long n = wide ? (long)cnt64 : (long)cnt;
    memcpy(want, b0, sizeof want);
    long c = 0;
    for (int k = lo; k <= hi; k++)
        if (m[k]) want[c++] = a[k];
    CHECK_EQ(n, c, "pack count");
    get_vec(gb, t, got);
    snprintf(what, sizeof what, "pack%s %s [%d:%d] shift %d count %ld", wide ? "64" : "", TNAME[ti], lo, hi, shift, n);
    compare(what, got, want);
    put_vec(ga, t, b0);
    if (wide) GA_Unpack64(gb, ga, gm, lo, hi, &cnt64);
    else GA_Unpack(gb, ga, gm, lo, hi, &cnt);
    CHECK_EQ(wide ? (long)cnt64 : (long)cnt, c, "unpack count");
    memcpy(want, b0, sizeof want);
    for (int k = lo; k <= hi; k++)
        if (m[k]) want[k] = a[k];
    get_vec(ga, t, got);
    snprintf(what, sizeof what, "unpack%s %s [%d:%d] shift %d", wide ? "64" : "", TNAME[ti], lo, hi, shift);
    compare(what, got, want);
    /* Unpack reads from the start of b (where pack put the selected
     * values), so each selected element of a is back in place. */

    GA_Destroy(ga);
    GA_Destroy(gb);
    GA_Destroy(gm);
}

static void enumerate(int ti, int lo, int hi, int wide) {
    int t = TYPES[ti];
    int dims = N;
    int g = NGA_Create(t, 1, &dims, "e", NULL);
    double b0[N], got[N], want[N];
    for (int k = 0; k < N; k++) b0[k] = -k;
    put_vec(g, t, b0);
    int is = -4, ii = 3;
    long ls = -4, li = 3;
    double ds = 1.5, di = -0.25;
    void *s = t == C_INT ? (void *)&is : t == C_LONG ? (void *)&ls : (void *)&ds;
    void *d = t == C_INT ? (void *)&ii : t == C_LONG ? (void *)&li : (void *)&di;
    if (wide) GA_Patch_enum64(g, lo, hi, s, d);
    else GA_Patch_enum(g, lo, hi, s, d);
    memcpy(want, b0, sizeof want);
    for (int k = lo; k <= hi; k++) want[k] = t == C_DBL ? ds + (k - lo) * di : -4 + 3 * (k - lo);
    get_vec(g, t, got);
    char what[80];
    snprintf(what, sizeof what, "patch_enum%s %s [%d:%d]", wide ? "64" : "", TNAME[ti], lo, hi);
    compare(what, got, want);
    GA_Destroy(g);
}

/* A R x C matrix with one largest and one smallest element (at (mr, mc)
 * and (nr, nc)), or with ties when `ties`: the largest value also at
 * (R-1, C-1) and the smallest also at (R-1, 0). */
static void select_elem(int ti, int mr, int mc, int nr, int nc, int ties) {
    int t = TYPES[ti];
    int dims[2] = {R, C}, lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
    int g = NGA_Create(t, 2, dims, "s", NULL);
    double v[R * C];
    char buf[R * C * sizeof(double)];
    for (int k = 0; k < R * C; k++) v[k] = (k * 5) % 13;
    v[mr * C + mc] = 50;
    v[nr * C + nc] = -50;
    if (ties) {
        v[(R - 1) * C + C - 1] = 50;
        v[(R - 1) * C] = -50;
    }
    for (int k = 0; k < R * C; k++) {
        if (t == C_INT) ((int *)buf)[k] = (int)v[k];
        else if (t == C_LONG) ((long *)buf)[k] = (long)v[k];
        else ((double *)buf)[k] = v[k];
    }
    GA_Sync();
    if (me == 0) NGA_Put(g, lo, hi, buf, &ld);
    GA_Sync();
    for (int which = 0; which < 2; which++) {
        double got;
        char val[sizeof(double)];
        int ix[2] = {-1, -1};
        int64_t ix64[2] = {-1, -1};
        NGA_Select_elem(g, which ? "min" : "max", val, ix);
        NGA_Select_elem64(g, which ? "min" : "max", val, ix64);
        got = t == C_INT ? *(int *)val : t == C_LONG ? (double)*(long *)val : *(double *)val;
        CHECK(got == (which ? -50 : 50), "select %s %s value %g", TNAME[ti], which ? "min" : "max", got);
        int wr = which ? nr : mr, wc = which ? nc : mc;
        CHECK(ix[0] == wr && ix[1] == wc, "select %s %s at %d,%d not %d,%d", TNAME[ti], which ? "min" : "max", ix[0], ix[1], wr, wc);
        CHECK(ix64[0] == wr && ix64[1] == wc, "select64 %s %s at %ld,%ld", TNAME[ti], which ? "min" : "max", (long)ix64[0], (long)ix64[1]);
        if (me == 0) printf("select %s %s%s: %g at (%d,%d)\n", TNAME[ti], which ? "min" : "max", ties ? " ties" : "", got, ix[0], ix[1]);
    }
    GA_Destroy(g);
}

static void bad(const char *what) {
    int dims[2] = {4, 5}, d1 = 8, d2 = 3;
    int g2 = NGA_Create(C_INT, 2, dims, "matrix", NULL);
    int ga = NGA_Create(C_INT, 1, &d1, "a", NULL);
    int gb = NGA_Create(C_INT, 1, &d2, "short", NULL);
    int gm = NGA_Create(C_INT, 1, &d1, "m", NULL);
    int gd = NGA_Create(C_DBL, 1, &d1, "d", NULL);
    int one = 1, cnt, ix[2];
    GA_Fill(gm, &one);
    if (!strcmp(what, "dims")) GA_Scan_add(g2, g2, g2, 0, 3, 0);
    else if (!strcmp(what, "range")) GA_Scan_copy(ga, ga, gm, 2, 8);
    else if (!strcmp(what, "small")) GA_Pack(ga, gb, gm, 0, 7, &cnt);
    else if (!strcmp(what, "type")) GA_Unpack(ga, gd, gm, 0, 7, &cnt);
    else if (!strcmp(what, "op")) NGA_Select_elem(g2, "avg", &cnt, ix);
    else if (!strcmp(what, "null")) GA_Patch_enum(ga, 0, 3, NULL, &one);
    if (me == 0) printf("the bad call returned\n");
}

int main(int argc, char **argv) {
    int np;
    me = start_ga(&argc, &argv, &np, 100000);
    if (argc > 2 && !strcmp(argv[1], "bad")) {
        bad(argv[2]);
        return finish_ga("ga_pack_scan", me);
    }
    int ties = argc > 1 && !strcmp(argv[1], "ties");
    for (int ti = 0; ti < 3; ti++) {
        scans(ti, 0, 0, N - 1, 0);
        scans(ti, 3, 4, 19, ti == 1);
        scans(ti, 5, 11, 11, 1);
        enumerate(ti, 0, N - 1, 0);
        enumerate(ti, 6, 14, 1);
        select_elem(ti, 2, 3, 5, 1, 0);
        select_elem(ti, 0, 0, 6, 4, 0);
        if (ties) select_elem(ti, 1, 2, 3, 0, 1);
    }
    return finish_ga("ga_pack_scan", me);
}
