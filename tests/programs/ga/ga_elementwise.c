/* Global Arrays C API: the element-wise and diagonal arithmetic
 * (GA_Abs_value, GA_Add_constant, GA_Recip, GA_Elem_multiply/divide/
 * maximum/minimum, GA_Median, each whole and on patches with int and
 * int64_t bounds; GA_Scale_rows/cols, GA_Set/Add/Get/Shift/Zero diagonal;
 * GA_Norm1, GA_Norm_infinity; GA_Step_max and GA_Step_bound_info) on int,
 * double and double complex arrays, every result checked on every rank
 * against a serial model the program computes itself. Rank 0 prints the
 * norms and steps, then "ga_elementwise: N passed, M failed".
 *
 * Arguments: "debian" leaves out the calls Debian's GA 5.8 gets wrong
 * (listed in tests/tests/ga_elementwise.rs); "bad NAME" makes one bad
 * call that must end the job naming the call. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 6
#define C 5
#define N (R * C)
#define S 5

typedef struct {
    double re, im;
} Z;

static const int TYPES[3] = {C_INT, C_DBL, C_DCPL};
static const char *TNAME[3] = {"int", "double", "dcomplex"};

static size_t esize(int t) { return t == C_INT ? sizeof(int) : t == C_DBL ? sizeof(double) : sizeof(DoubleComplex); }

static void store(int t, void *buf, int k, Z v) {
    if (t == C_INT) ((int *)buf)[k] = (int)v.re;
    else if (t == C_DBL) ((double *)buf)[k] = v.re;
    else {
        ((DoubleComplex *)buf)[k].real = v.re;
        ((DoubleComplex *)buf)[k].imag = v.im;
    }
}

static Z load(int t, const void *buf, int k) {
    Z z = {0, 0};
    if (t == C_INT) z.re = ((const int *)buf)[k];
    else if (t == C_DBL) z.re = ((const double *)buf)[k];
    else {
        z.re = ((const DoubleComplex *)buf)[k].real;
        z.im = ((const DoubleComplex *)buf)[k].imag;
    }
    return z;
}

/* Element k of input s (0: a, 1: b, never zero, 2: c) of type t. No two
 * complex inputs have elements of one magnitude. */
static Z value(int t, int s, int k) {
    Z z = {0, 0};
    if (s == 0) z = (Z){k % 7 - 3, 0.5};
    else if (s == 1) z = (Z){(k % 2 ? 1 : -1) * (1 + k % 4), 0.25};
    else z = (Z){2 * (k % 3) - 2, 0.125};
    if (t == C_DBL) z.re *= 1.25;
    if (t != C_DCPL) z.im = 0;
    return z;
}

/* Without libm: the programs link with -lga only. */
static double absd(double x) { return x < 0 ? -x : x; }
static double dmin(double x, double y) { return x < y ? x : y; }
static double dmax(double x, double y) { return x > y ? x : y; }
static double root(double x) {
    double r = x > 1 ? x : 1;
    if (x <= 0) return 0;
    for (int i = 0; i < 80; i++) r = 0.5 * (r + x / r);
    return r;
}
static double mag(Z z) { return root(z.re * z.re + z.im * z.im); }

/* The model's arithmetic in type t. */
static Z trunc_int(int t, Z z) {
    if (t == C_INT) z.re = (double)(int)z.re;
    return z;
}
static Z zmul(int t, Z a, Z b) { return trunc_int(t, (Z){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}); }
static Z zdiv(int t, Z a, Z b) {
    double d = b.re * b.re + b.im * b.im;
    if (t == C_INT) return (Z){(double)((int)a.re / (int)b.re), 0};
    return (Z){(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
static int before(int t, Z a, Z b) { return t == C_DCPL ? mag(a) < mag(b) : a.re < b.re; }
static Z zmax(int t, Z a, Z b) { return before(t, a, b) ? b : a; }
static Z zmin(int t, Z a, Z b) { return before(t, b, a) ? b : a; }
static Z zabs(int t, Z a) { return t == C_DCPL ? (Z){mag(a), 0} : (Z){absd(a.re), 0}; }
static Z zmed(int t, Z a, Z b, Z c) {
    Z lo = before(t, b, a) ? b : a, hi = before(t, b, a) ? a : b;
    return before(t, c, lo) ? lo : before(t, hi, c) ? hi : c;
}

static int same(Z a, Z b) {
    double tol = 1e-9 * (1 + mag(b));
    return absd(a.re - b.re) <= tol && absd(a.im - b.im) <= tol;
}

/* Whole arrays: rank 0 writes (once everyone has read what was there),
 * everyone reads. dims has nd entries. */
/* The bounds and leading dimension of a whole array of nd dims; returns
 * its element count. */
static int whole(int nd, const int *dims, int *lo, int *hi, int *ld) {
    int n = 1;
    for (int d = 0; d < nd; d++) {
        n *= dims[d];
        lo[d] = 0;
        hi[d] = dims[d] - 1;
    }
    ld[0] = nd == 2 ? dims[1] : 1;
    return n;
}

static void put_all(int g, int t, int nd, const int *dims, const Z *m) {
    GA_Sync();
    int lo[2], hi[2], ld[1];
    int n = whole(nd, dims, lo, hi, ld);
    void *buf = malloc(esize(t) * n);
    for (int k = 0; k < n; k++) store(t, buf, k, m[k]);
    if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, buf, ld);
    GA_Sync();
    free(buf);
}

static void get_all(int g, int t, int nd, const int *dims, Z *m) {
    int lo[2], hi[2], ld[1];
    int n = whole(nd, dims, lo, hi, ld);
    void *buf = malloc(esize(t) * n);
    NGA_Get(g, lo, hi, buf, ld);
    for (int k = 0; k < n; k++) m[k] = load(t, buf, k);
    free(buf);
}

/* Compares a whole array with the model; one check. */
static void expect_array(int g, int t, int nd, const int *dims, const Z *want, const char *what) {
    int n = nd == 2 ? dims[0] * dims[1] : dims[0];
    Z *got = malloc(sizeof(Z) * n);
    get_all(g, t, nd, dims, got);
    int bad = -1;
    for (int k = 0; k < n && bad < 0; k++)
        if (!same(got[k], want[k])) bad = k;
    CHECK(bad < 0, "%s: element %d is (%g,%g), want (%g,%g)", what, bad, bad < 0 ? 0 : got[bad].re,
          bad < 0 ? 0 : got[bad].im, bad < 0 ? 0 : want[bad].re, bad < 0 ? 0 : want[bad].im);
    free(got);
}

static const int DIMS[2] = {R, C};
static int use64;       /* patch calls with int64_t bounds */
static int debian_safe; /* leave out what Debian's GA 5.8 gets wrong */

/* The patches of the patch tests: in a, b, and c, each 3x4. */
static const int PA[2][2] = {{0, 0}, {2, 3}}, PB[2][2] = {{3, 1}, {5, 4}}, PC[2][2] = {{2, 0}, {4, 3}};
static int in_patch(const int p[2][2], int i, int j) {
    return i >= p[0][0] && i <= p[1][0] && j >= p[0][1] && j <= p[1][1];
}
/* The element of patch p that corresponds to element (i,j) of patch PC. */
static int corr(const int p[2][2], int i, int j) { return (p[0][0] + i - PC[0][0]) * C + p[0][1] + j - PC[0][1]; }

/* Patch p's bounds in both index widths. */
typedef struct {
    int lo[2], hi[2];
    int64_t l6[2], h6[2];
} Box;

static Box box_of(const int p[2][2]) {
    Box b;
    for (int d = 0; d < 2; d++) {
        b.lo[d] = p[0][d];
        b.hi[d] = p[1][d];
        b.l6[d] = p[0][d];
        b.h6[d] = p[1][d];
    }
    return b;
}

/* One patch call on array g over patch p, through either index width. */
static void unary_patch(int which, int g, const int p[2][2], void *alpha) {
    Box b = box_of(p);
    if (which == 0) use64 ? GA_Abs_value_patch64(g, b.l6, b.h6) : GA_Abs_value_patch(g, b.lo, b.hi);
    if (which == 1) use64 ? GA_Add_constant_patch64(g, b.l6, b.h6, alpha) : GA_Add_constant_patch(g, b.lo, b.hi, alpha);
    if (which == 2) use64 ? GA_Recip_patch64(g, b.l6, b.h6) : GA_Recip_patch(g, b.lo, b.hi);
}

static void binary_patch(int which, int a, int b, int c) {
    Box A = box_of(PA), B = box_of(PB), K = box_of(PC);
    switch (which) {
    case 0: use64 ? GA_Elem_multiply_patch64(a, A.l6, A.h6, b, B.l6, B.h6, c, K.l6, K.h6) : GA_Elem_multiply_patch(a, A.lo, A.hi, b, B.lo, B.hi, c, K.lo, K.hi); break;
    case 1: use64 ? GA_Elem_divide_patch64(a, A.l6, A.h6, b, B.l6, B.h6, c, K.l6, K.h6) : GA_Elem_divide_patch(a, A.lo, A.hi, b, B.lo, B.hi, c, K.lo, K.hi); break;
    case 2: use64 ? GA_Elem_maximum_patch64(a, A.l6, A.h6, b, B.l6, B.h6, c, K.l6, K.h6) : GA_Elem_maximum_patch(a, A.lo, A.hi, b, B.lo, B.hi, c, K.lo, K.hi); break;
    case 3: use64 ? GA_Elem_minimum_patch64(a, A.l6, A.h6, b, B.l6, B.h6, c, K.l6, K.h6) : GA_Elem_minimum_patch(a, A.lo, A.hi, b, B.lo, B.hi, c, K.lo, K.hi); break;
    }
}

static Z binary_model(int which, int t, Z x, Z y) {
    return which == 0 ? zmul(t, x, y) : which == 1 ? zdiv(t, x, y) : which == 2 ? zmax(t, x, y) : zmin(t, x, y);
}

static void elementwise(int ti) {
    int t = TYPES[ti];
    Z in[3][N], want[N], zero = {0, 0};
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < N; k++) in[s][k] = value(t, s, k);
    int dims[2] = {R, C};
    int g[3], w = NGA_Create(t, 2, dims, "w", NULL), m = NGA_Create(t, 2, dims, "m", NULL);
    for (int s = 0; s < 3; s++) {
        g[s] = NGA_Create(t, 2, dims, "in", NULL);
        put_all(g[s], t, 2, DIMS, in[s]);
    }
    char what[96];
    Z alpha = {2, -1};
    char abuf[sizeof(DoubleComplex)];
    store(t, abuf, 0, alpha);
    alpha = load(t, abuf, 0);

    /* Whole arrays. */
    GA_Copy(g[0], w);
    GA_Abs_value(w);
    for (int k = 0; k < N; k++) want[k] = zabs(t, in[0][k]);
    snprintf(what, sizeof what, "GA_Abs_value %s", TNAME[ti]);
    expect_array(w, t, 2, DIMS, want, what);

    GA_Copy(g[0], w);
    GA_Add_constant(w, abuf);
    for (int k = 0; k < N; k++) want[k] = (Z){in[0][k].re + alpha.re, in[0][k].im + alpha.im};
    snprintf(what, sizeof what, "GA_Add_constant %s", TNAME[ti]);
    expect_array(w, t, 2, DIMS, want, what);

    GA_Copy(g[1], w);
    GA_Recip(w);
    for (int k = 0; k < N; k++) want[k] = zdiv(t, (Z){1, 0}, in[1][k]);
    snprintf(what, sizeof what, "GA_Recip %s", TNAME[ti]);
    expect_array(w, t, 2, DIMS, want, what);

    void (*whole[4])(int, int, int) = {GA_Elem_multiply, GA_Elem_divide, GA_Elem_maximum, GA_Elem_minimum};
    const char *bname[4] = {"multiply", "divide", "maximum", "minimum"};
    for (int op = 0; op < 4; op++) {
        whole[op](g[0], g[1], w);
        for (int k = 0; k < N; k++) want[k] = binary_model(op, t, in[0][k], in[1][k]);
        snprintf(what, sizeof what, "GA_Elem_%s %s", bname[op], TNAME[ti]);
        expect_array(w, t, 2, DIMS, want, what);
    }
    /* In place: c is one of the inputs. */
    if (!(debian_safe && t == C_DCPL)) {
        GA_Copy(g[0], w);
        GA_Elem_multiply(w, g[1], w);
        for (int k = 0; k < N; k++) want[k] = zmul(t, in[0][k], in[1][k]);
        snprintf(what, sizeof what, "GA_Elem_multiply in place %s", TNAME[ti]);
        expect_array(w, t, 2, DIMS, want, what);
    }

    GA_Median(g[0], g[1], g[2], m);
    for (int k = 0; k < N; k++) want[k] = zmed(t, in[0][k], in[1][k], in[2][k]);
    snprintf(what, sizeof what, "GA_Median %s", TNAME[ti]);
    expect_array(m, t, 2, DIMS, want, what);

    double n1, ni, m1 = 0, mi = 0;
    GA_Norm1(g[0], &n1);
    GA_Norm_infinity(g[0], &ni);
    for (int k = 0; k < N; k++) {
        m1 += mag(in[0][k]);
        mi = mag(in[0][k]) > mi ? mag(in[0][k]) : mi;
    }
    CHECK(absd(n1 - m1) < 1e-9 * m1 && absd(ni - mi) < 1e-9 * mi, "norms of %s: %g %g, want %g %g", TNAME[ti], n1, ni, m1, mi);
    if (GA_Nodeid() == 0) printf("%s: norm1 %.6f norm_infinity %.6f\n", TNAME[ti], n1, ni);

    /* Patches, with int and with int64_t bounds. */
    for (use64 = 0; use64 < 2; use64++) {
        const char *width = use64 ? "64" : "";
        for (int op = 0; op < 3; op++) {
            int src = op == 2 ? 1 : 0;
            GA_Copy(g[src], w);
            unary_patch(op, w, PB, abuf);
            for (int i = 0; i < R; i++)
                for (int j = 0; j < C; j++) {
                    Z x = in[src][i * C + j];
                    want[i * C + j] = !in_patch(PB, i, j) ? x
                                      : op == 0           ? zabs(t, x)
                                      : op == 1           ? (Z){x.re + alpha.re, x.im + alpha.im}
                                                          : zdiv(t, (Z){1, 0}, x);
                }
            snprintf(what, sizeof what, "unary patch%s call %d %s", width, op, TNAME[ti]);
            expect_array(w, t, 2, DIMS, want, what);
        }
        for (int op = debian_safe && t == C_DCPL ? 1 : 0; op < 4; op++) {
            GA_Zero(w);
            binary_patch(op, g[0], g[1], w);
            for (int i = 0; i < R; i++)
                for (int j = 0; j < C; j++)
                    want[i * C + j] = in_patch(PC, i, j) ? binary_model(op, t, in[0][corr(PA, i, j)], in[1][corr(PB, i, j)]) : zero;
            snprintf(what, sizeof what, "GA_Elem_%s_patch%s %s", bname[op], width, TNAME[ti]);
            expect_array(w, t, 2, DIMS, want, what);
        }
        GA_Zero(m);
        {
            Box A = box_of(PA), B = box_of(PB), K = box_of(PC);
            /* c's patch is PC in g[2]; the median lands in PA of m. */
            if (use64) GA_Median_patch64(g[0], K.l6, K.h6, g[1], B.l6, B.h6, g[2], K.l6, K.h6, m, A.l6, A.h6);
            else GA_Median_patch(g[0], K.lo, K.hi, g[1], B.lo, B.hi, g[2], K.lo, K.hi, m, A.lo, A.hi);
        }
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) {
                /* Element (i,j) of PA corresponds to (i',j') of PC. */
                int ic = i - PA[0][0] + PC[0][0], jc = j - PA[0][1] + PC[0][1];
                want[i * C + j] = in_patch(PA, i, j) ? zmed(t, in[0][ic * C + jc], in[1][corr(PB, ic, jc)], in[2][ic * C + jc]) : zero;
            }
        snprintf(what, sizeof what, "GA_Median_patch%s %s", width, TNAME[ti]);
        expect_array(m, t, 2, DIMS, want, what);
    }
    for (int s = 0; s < 3; s++) GA_Destroy(g[s]);
    GA_Destroy(w);
    GA_Destroy(m);
}

/* The diagonal calls on a rows x cols matrix of type t. */
static void diagonals(int ti, int rows, int cols) {
    int t = TYPES[ti], n = rows < cols ? rows : cols, nm = rows * cols;
    int dims[2] = {rows, cols}, vd[1] = {n};
    Z *a = calloc(nm, sizeof(Z)), *want = calloc(nm, sizeof(Z)), v[8] = {{0, 0}};
    for (int k = 0; k < nm; k++) a[k] = value(t, 0, k * 3 + 1);
    for (int k = 0; k < n; k++) v[k] = value(t, 1, k);
    int g = NGA_Create(t, 2, dims, "diag", NULL), gv = NGA_Create(t, 1, vd, "v", NULL);
    put_all(gv, t, 1, vd, v);
    char what[96];

    put_all(g, t, 2, dims, a);
    GA_Set_diagonal(g, gv);
    for (int k = 0; k < nm; k++) want[k] = (k / cols == k % cols) ? v[k / cols] : a[k];
    snprintf(what, sizeof what, "GA_Set_diagonal %s %dx%d", TNAME[ti], rows, cols);
    expect_array(g, t, 2, dims, want, what);

    put_all(g, t, 2, dims, a);
    GA_Add_diagonal(g, gv);
    for (int k = 0; k < nm; k++) {
        want[k] = a[k];
        if (k / cols == k % cols) want[k] = (Z){a[k].re + v[k / cols].re, a[k].im + v[k / cols].im};
    }
    snprintf(what, sizeof what, "GA_Add_diagonal %s %dx%d", TNAME[ti], rows, cols);
    expect_array(g, t, 2, dims, want, what);

    Z sh = {3, 2};
    char sbuf[sizeof(DoubleComplex)];
    store(t, sbuf, 0, sh);
    sh = load(t, sbuf, 0);
    GA_Shift_diagonal(g, sbuf);
    for (int k = 0; k < nm; k++)
        if (k / cols == k % cols) want[k] = (Z){want[k].re + sh.re, want[k].im + sh.im};
    snprintf(what, sizeof what, "GA_Shift_diagonal %s %dx%d", TNAME[ti], rows, cols);
    expect_array(g, t, 2, dims, want, what);

    GA_Zero(gv);
    GA_Get_diag(g, gv);
    for (int k = 0; k < n; k++) v[k] = want[k * cols + k];
    snprintf(what, sizeof what, "GA_Get_diag %s %dx%d", TNAME[ti], rows, cols);
    expect_array(gv, t, 1, vd, v, what);

    GA_Zero_diagonal(g);
    for (int k = 0; k < nm; k++)
        if (k / cols == k % cols) want[k] = (Z){0, 0};
    snprintf(what, sizeof what, "GA_Zero_diagonal %s %dx%d", TNAME[ti], rows, cols);
    expect_array(g, t, 2, dims, want, what);

    GA_Destroy(g);
    GA_Destroy(gv);
    free(a);
    free(want);
}

static void scale_lines(int ti) {
    int t = TYPES[ti], rd[1] = {R}, cd[1] = {C};
    if (debian_safe && t == C_DCPL) return;
    Z a[N], want[N], vr[R], vc[C];
    for (int k = 0; k < N; k++) a[k] = value(t, 0, k);
    for (int k = 0; k < R; k++) vr[k] = value(t, 1, k);
    for (int k = 0; k < C; k++) vc[k] = value(t, 2, k + 1);
    int g = NGA_Create(t, 2, (int *)DIMS, "s", NULL);
    int gr = NGA_Create(t, 1, rd, "vr", NULL), gc = NGA_Create(t, 1, cd, "vc", NULL);
    put_all(gr, t, 1, rd, vr);
    put_all(gc, t, 1, cd, vc);
    char what[64];
    put_all(g, t, 2, DIMS, a);
    GA_Scale_rows(g, gr);
    for (int k = 0; k < N; k++) want[k] = zmul(t, a[k], vr[k / C]);
    snprintf(what, sizeof what, "GA_Scale_rows %s", TNAME[ti]);
    expect_array(g, t, 2, DIMS, want, what);
    put_all(g, t, 2, DIMS, a);
    GA_Scale_cols(g, gc);
    for (int k = 0; k < N; k++) want[k] = zmul(t, a[k], vc[k % C]);
    snprintf(what, sizeof what, "GA_Scale_cols %s", TNAME[ti]);
    expect_array(g, t, 2, DIMS, want, what);
    GA_Destroy(g);
    GA_Destroy(gr);
    GA_Destroy(gc);
}

/* The step lengths of a bounded line search on double vectors. */
static void steps(void) {
    enum { L = 12 };
    int d[1] = {L};
    Z x[L], dir[L], lower[L], upper[L];
    for (int k = 0; k < L; k++) {
        x[k] = (Z){1 + k % 5, 0};
        dir[k] = (Z){(k % 3 - 1) * (0.5 + k % 4), 0};
        lower[k] = (Z){0, 0};
        upper[k] = (Z){8 + k % 3, 0};
    }
    int gx = NGA_Create(C_DBL, 1, d, "x", NULL), gd = GA_Duplicate(gx, "d");
    int gl = GA_Duplicate(gx, "l"), gu = GA_Duplicate(gx, "u");
    put_all(gx, C_DBL, 1, d, x);
    put_all(gd, C_DBL, 1, d, dir);
    put_all(gl, C_DBL, 1, d, lower);
    put_all(gu, C_DBL, 1, d, upper);
    /* Model over the elements lo..hi. */
    for (int pass = 0; pass < (debian_safe ? 1 : 3); pass++) {
        int lo = pass == 0 ? 0 : 2, hi = pass == 0 ? L - 1 : 9;
        double smax = 1e307, bmin = 1e307, bmax = -1e307;
        for (int k = lo; k <= hi; k++) {
            /* An element the direction leaves alone never meets a bound. */
            double s = 1e307;
            if (dir[k].re < 0) smax = dmin(smax, -x[k].re / dir[k].re);
            if (dir[k].re > 0) s = (upper[k].re - x[k].re) / dir[k].re;
            else if (dir[k].re < 0) s = (lower[k].re - x[k].re) / dir[k].re;
            bmin = dmin(bmin, s);
            bmax = dmax(bmax, s);
        }
        double st = -1, b0 = -1, w0 = -1, b1 = -1;
        if (pass == 0) {
            GA_Step_max(gx, gd, &st);
            GA_Step_bound_info(gx, gd, gl, gu, &b0, &w0, &b1);
        } else if (pass == 1) {
            int l[1] = {lo}, h[1] = {hi};
            GA_Step_max_patch(gx, l, h, gd, l, h, &st);
            GA_Step_bound_info_patch(gx, l, h, gd, l, h, gl, l, h, gu, l, h, &b0, &w0, &b1);
        } else {
            int64_t l[1] = {lo}, h[1] = {hi};
            GA_Step_max_patch64(gx, l, h, gd, l, h, &st);
            GA_Step_bound_info_patch64(gx, l, h, gd, l, h, gl, l, h, gu, l, h, &b0, &w0, &b1);
        }
        CHECK(absd(st - smax) < 1e-12, "step_max pass %d: %g, want %g", pass, st, smax);
        CHECK(absd(b0 - bmin) < 1e-12 && absd(w0 - bmin) < 1e-12 && absd(b1 - bmax) < 1e-12,
              "step_bound_info pass %d: %g %g %g, want %g %g %g", pass, b0, w0, b1, bmin, bmin, bmax);
        if (GA_Nodeid() == 0) printf("steps %d: max %.6g bounds %.6g %.6g %.6g\n", pass, st, b0, w0, b1);
    }
    /* A direction that never meets a bound. */
    GA_Abs_value(gd);
    double st = -1;
    GA_Step_max(gx, gd, &st);
    CHECK(st == 1e307, "step_max unbounded: %g", st);
    GA_Destroy(gx);
    GA_Destroy(gd);
    GA_Destroy(gl);
    GA_Destroy(gu);
}

/* One bad call; the job must end naming it. */
static void bad(const char *which) {
    int dims[2] = {4, 4}, d1[1] = {4}, other[2] = {4, 3};
    int ia = NGA_Create(C_INT, 2, dims, "ia", NULL), ib = GA_Duplicate(ia, "ib");
    int da = NGA_Create(C_DBL, 2, dims, "da", NULL), v = NGA_Create(C_DBL, 1, d1, "v", NULL);
    int odd = NGA_Create(C_DBL, 2, other, "odd", NULL);
    int one = 1;
    GA_Fill(ia, &one);
    GA_Zero(ib);
    if (!strcmp(which, "divide")) GA_Elem_divide(ia, ib, ia);
    if (!strcmp(which, "recip")) GA_Recip(ib);
    if (!strcmp(which, "rows")) GA_Scale_rows(v, v);
    if (!strcmp(which, "diagonal")) GA_Set_diagonal(v, v);
    if (!strcmp(which, "shape")) GA_Elem_multiply(da, odd, da);
    if (!strcmp(which, "type")) GA_Elem_maximum(ia, da, ia);
    if (!strcmp(which, "length")) GA_Scale_cols(odd, v);
    if (!strcmp(which, "bounds")) {
        double lo = 1, b0, w0, b1;
        GA_Fill(v, &lo);
        /* v = 1 lies above the upper bound 0. */
        int z = NGA_Create(C_DBL, 1, d1, "zero", NULL);
        GA_Zero(z);
        GA_Step_bound_info(v, v, z, z, &b0, &w0, &b1);
    }
    if (!strcmp(which, "negative")) {
        double m = -1, st;
        GA_Fill(v, &m);
        GA_Step_max(v, v, &st);
    }
    if (GA_Nodeid() == 0) printf("ga_elementwise: bad call %s returned\n", which);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    MA_init(C_DBL, 100000, 100000);
    int me = GA_Nodeid();
    tally_who = me;
    if (argc > 2 && !strcmp(argv[1], "bad")) {
        bad(argv[2]);
        return finish_ga("ga_elementwise", me);
    }
    debian_safe = argc > 1 && !strcmp(argv[1], "debian");
    for (int ti = 0; ti < 3; ti++) {
        elementwise(ti);
        scale_lines(ti);
        diagonals(ti, S, S);
        if (!debian_safe) {
            diagonals(ti, 4, 7);
            diagonals(ti, 7, 4);
        }
    }
    steps();
    return finish_ga("ga_elementwise", me);
}
