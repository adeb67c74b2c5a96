/* Global Arrays C API: the linear algebra (GA_Lu_solve, GA_Llt_solve,
 * GA_Solve, GA_Spd_invert, GA_Diag, GA_Diag_std, GA_Diag_reuse,
 * GA_Diag_seq, GA_Diag_std_seq). Every rank fetches the results and
 * checks them against the serial LAPACK (dgesv, dposv, dpotrf/dpotri,
 * dsyev, dsygv) run on the same matrices. Tolerances: solutions and
 * inverses agree to 1e-9 relative to their largest element; eigenvalues
 * to 1e-9 relative to the largest magnitude; eigenvectors (the order is
 * 37, every eigenvalue distinct) agree up to sign, |v·w| within 1e-8 of
 * 1, and leave residuals |A·V − S·V·Λ| below 1e-9·|A|.
 *
 * As GA's C binding hands the handles to the Fortran routines, the
 * matrix is the Fortran view: element (i, j) is C's [j][i], and a
 * right-hand side of NRHS columns is the C array {NRHS, N}.
 *
 * Rank 0 prints the eigenvalues and solutions to 6 decimals, then
 * "ga_linalg: N passed, M failed". "debian" leaves out what Debian's GA
 * 5.8 cannot do (listed in tests/tests/ga_linalg.rs). "bad NAME" makes
 * one bad call that must end the job naming the call. */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define N 37
#define NRHS 3

extern void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
                   const int *ldb, int *info);
extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_(const char *t, const int *n, const int *nrhs, const double *a, const int *lda,
                    const int *ipiv, double *b, const int *ldb, int *info, size_t lt);
extern void dpotrf_(const char *u, const int *n, double *a, const int *lda, int *info, size_t lu);
extern void dpotri_(const char *u, const int *n, double *a, const int *lda, int *info, size_t lu);
extern void dposv_(const char *u, const int *n, const int *nrhs, double *a, const int *lda, double *b,
                   const int *ldb, int *info, size_t lu);
extern void dsyev_(const char *j, const char *u, const int *n, double *a, const int *lda, double *w,
                   double *work, const int *lwork, int *info, size_t lj, size_t lu);
extern void dsygv_(const int *it, const char *j, const char *u, const int *n, double *a, const int *lda,
                   double *b, const int *ldb, double *w, double *work, const int *lwork, int *info,
                   size_t lj, size_t lu);

/* Matrices in the Fortran view, column-major: m[i + j*N] is (i, j). */
static double general(int i, int j) { return (i == j ? 8.0 : 0.0) + sin(1.0 + 3 * i + 7 * j) + 0.1 * (i - j); }
static double spd(int i, int j) { return (i == j ? 4.0 + 0.1 * i : 0.0) + 1.0 / (1.0 + abs(i - j)) + 0.01 * cos(i + j); }
/* Symmetric, indefinite from its 6th leading minor on. */
static double indefinite(int i, int j) { return (i == j && i == 5) ? -20.0 : spd(i, j); }
/* Symmetric, for the generalised problem. */
static double symmetric(int i, int j) { return cos(0.5 * (i + 1) * (j + 1)) + (i == j ? 0.3 * i : 0.0); }
static double rhs(int i, int j) { return 1.0 + i - 2.0 * j + 0.5 * sin(i * (j + 2.0)); }

static void fill(double *m, int rows, int cols, double (*f)(int, int)) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) m[i + j * rows] = f(i, j);
}

/* A 2-D double array of rows x cols in the Fortran view ({cols, rows} in
 * C) holding m (column-major). */
static int make(const char *name, int rows, int cols, const double *m) {
    int dims[2] = {cols, rows}, lo[2] = {0, 0}, hi[2] = {cols - 1, rows - 1}, ld[1] = {rows};
    int g = NGA_Create(C_DBL, 2, dims, (char *)name, NULL);
    if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, (void *)m, ld);
    GA_Sync();
    return g;
}

static void fetch(int g, int rows, int cols, double *m) {
    int lo[2] = {0, 0}, hi[2] = {cols - 1, rows - 1}, ld[1] = {rows};
    NGA_Get(g, lo, hi, m, ld);
}

static void reset(int g, int rows, int cols, const double *m) {
    int lo[2] = {0, 0}, hi[2] = {cols - 1, rows - 1}, ld[1] = {rows};
    GA_Sync();
    if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, (void *)m, ld);
    GA_Sync();
}

static double maxabs(const double *m, int k) {
    double x = 0;
    for (int i = 0; i < k; i++) x = fmax(x, fabs(m[i]));
    return x;
}

/* got agrees with want to tol relative to want's largest element. */
static void check_close(const char *what, const double *got, const double *want, int k, double tol) {
    double scale = fmax(maxabs(want, k), 1e-300), worst = 0;
    for (int i = 0; i < k; i++) worst = fmax(worst, fabs(got[i] - want[i]));
    CHECK(worst <= tol * scale, "%s: differs from LAPACK by %g (scale %g)", what, worst, scale);
}

static void check_unchanged(const char *what, int g, int rows, int cols, const double *m) {
    double *now = malloc(sizeof(double) * rows * cols);
    fetch(g, rows, cols, now);
    CHECK(memcmp(now, m, sizeof(double) * rows * cols) == 0, "%s: the array changed", what);
    free(now);
}

static void print_rows(const char *what, const double *m, int k) {
    if (GA_Nodeid() != 0) return;
    printf("%s:", what);
    for (int i = 0; i < k; i++) printf(" %.6f", m[i]);
    printf("\n");
}

/* LAPACK's solution of op(A) X = B (B overwritten). */
static void lapack_lu(const char *t, const double *a, double *b) {
    double la[N * N];
    int ipiv[N], n = N, nrhs = NRHS, info = 0;
    memcpy(la, a, sizeof la);
    dgetrf_(&n, &n, la, &n, ipiv, &info);
    dgetrs_(t, &n, &nrhs, la, &n, ipiv, b, &n, &info, 1);
}

static void test_lu(int debian) {
    static double a[N * N], b[N * NRHS], x[N * NRHS], want[N * NRHS];
    fill(a, N, N, general);
    fill(b, N, NRHS, rhs);
    int ga = make("A", N, N, a), gb = make("B", N, NRHS, b);
    const char *trans[2] = {"N", "T"};
    for (int t = 0; t < 2; t++) {
        if (debian && t == 1) break;
        reset(gb, N, NRHS, b);
        GA_Lu_solve(t ? 't' : 'n', ga, gb);
        fetch(gb, N, NRHS, x);
        memcpy(want, b, sizeof want);
        lapack_lu(trans[t], a, want);
        check_close(t ? "GA_Lu_solve('t')" : "GA_Lu_solve('n')", x, want, N * NRHS, 1e-9);
        check_unchanged("GA_Lu_solve's A", ga, N, N, a);
        print_rows(t ? "lu_solve T x[0..5]" : "lu_solve N x[0..5]", x, 6);
    }
    GA_Destroy(ga);
    GA_Destroy(gb);
}

/* The leading minor dpotrf stops at (0 if positive definite). */
static int lapack_minor(const double *a) {
    double l[N * N];
    int n = N, info = 0;
    memcpy(l, a, sizeof l);
    dpotrf_("L", &n, l, &n, &info, 1);
    return info;
}

static void test_cholesky(void) {
    static double s[N * N], bad[N * N], b[N * NRHS], x[N * NRHS], want[N * NRHS], f[N * N];
    fill(s, N, N, spd);
    fill(bad, N, N, indefinite);
    fill(b, N, NRHS, rhs);
    int gs = make("S", N, N, s), gbad = make("I", N, N, bad), gb = make("B", N, NRHS, b);
    int n = N, nrhs = NRHS, info = 0;

    /* GA_Llt_solve on a positive definite matrix. */
    EXPECT(GA_Llt_solve(gs, gb), 0);
    fetch(gb, N, NRHS, x);
    memcpy(want, b, sizeof want);
    memcpy(f, s, sizeof f);
    dposv_("L", &n, &nrhs, f, &n, want, &n, &info, 1);
    CHECK_EQ(info, 0, "dposv");
    check_close("GA_Llt_solve", x, want, N * NRHS, 1e-9);
    check_unchanged("GA_Llt_solve's A", gs, N, N, s);
    print_rows("llt_solve x[0..5]", x, 6);

    /* ... and on an indefinite one: LAPACK's minor, B untouched. */
    int minor = lapack_minor(bad);
    CHECK(minor == 6, "the indefinite matrix stops dpotrf at %d, not 6", minor);
    reset(gb, N, NRHS, b);
    EXPECT(GA_Llt_solve(gbad, gb), minor);
    check_unchanged("GA_Llt_solve's B after a failure", gb, N, NRHS, b);

    /* GA_Solve: Cholesky, then LU for the indefinite matrix. */
    reset(gb, N, NRHS, b);
    EXPECT(GA_Solve(gs, gb), 0);
    fetch(gb, N, NRHS, x);
    check_close("GA_Solve (Cholesky)", x, want, N * NRHS, 1e-9);
    reset(gb, N, NRHS, b);
    EXPECT(GA_Solve(gbad, gb), minor);
    fetch(gb, N, NRHS, x);
    memcpy(want, b, sizeof want);
    lapack_lu("N", bad, want);
    check_close("GA_Solve (LU)", x, want, N * NRHS, 1e-9);
    print_rows("solve LU x[0..5]", x, 6);

    /* GA_Spd_invert: the full symmetric inverse. */
    EXPECT(GA_Spd_invert(gs), 0);
    static double inv[N * N];
    fetch(gs, N, N, inv);
    memcpy(f, s, sizeof f);
    dpotrf_("L", &n, f, &n, &info, 1);
    dpotri_("L", &n, f, &n, &info, 1);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < j; i++) f[i + j * N] = f[j + i * N];
    check_close("GA_Spd_invert", inv, f, N * N, 1e-9);
    int symmetric_result = 1;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) symmetric_result &= inv[i + j * N] == inv[j + i * N];
    CHECK(symmetric_result, "GA_Spd_invert's result is not symmetric");
    print_rows("spd_invert inv(1,1)", inv, 1);
    EXPECT(GA_Spd_invert(gbad), minor);
    check_unchanged("GA_Spd_invert's A after a failure", gbad, N, N, bad);

    GA_Destroy(gs);
    GA_Destroy(gbad);
    GA_Destroy(gb);
}

/* Checks eigenvalues and eigenvectors against LAPACK's (wv: its
 * eigenvectors, column-major) and the residual A·V − S·V·Λ (S = I when
 * s is NULL). */
static void check_eigen(const char *what, int gv, const double *ev, const double *a, const double *s,
                        const double *w, const double *wv) {
    static double v[N * N];
    char label[96];
    fetch(gv, N, N, v);
    snprintf(label, sizeof label, "%s eigenvalues", what);
    check_close(label, ev, w, N, 1e-9);
    double worst = 0, res = 0;
    for (int k = 0; k < N; k++) {
        double dot = 0;
        for (int i = 0; i < N; i++) {
            double sv = 0;
            for (int l = 0; l < N; l++) sv += (s ? s[i + l * N] : (i == l)) * wv[l + k * N];
            dot += v[i + k * N] * sv;
        }
        /* v and w are both S-normalised: |vᵀSw| = 1 when v = ±w. */
        worst = fmax(worst, fabs(fabs(dot) - 1.0));
        for (int i = 0; i < N; i++) {
            double av = 0, svl = 0;
            for (int l = 0; l < N; l++) {
                av += a[i + l * N] * v[l + k * N];
                svl += (s ? s[i + l * N] : (i == l)) * v[l + k * N];
            }
            res = fmax(res, fabs(av - ev[k] * svl));
        }
    }
    CHECK(worst <= 1e-8, "%s: eigenvectors differ from LAPACK's beyond sign (%g)", what, worst);
    CHECK(res <= 1e-9 * maxabs(a, N * N) * N, "%s: residual %g", what, res);
    snprintf(label, sizeof label, "%s eval[0..5]", what);
    print_rows(label, ev, 6);
}

static void test_eigen(int debian) {
    static double a[N * N], s[N * N], w[N], wv[N * N], f[N * N], ev[N], work[64 * N];
    int n = N, lwork = 64 * N, one = 1, info = 0;
    fill(a, N, N, symmetric);
    fill(s, N, N, spd);
    int ga = make("A", N, N, a), gs = make("S", N, N, s);
    int dims[2] = {N, N};
    int gv = NGA_Create(C_DBL, 2, dims, "V", NULL);

    /* The standard problem. */
    memcpy(wv, a, sizeof wv);
    dsyev_("V", "L", &n, wv, &n, w, work, &lwork, &info, 1, 1);
    CHECK_EQ(info, 0, "dsyev");
    memset(ev, 0, sizeof ev);
    GA_Diag_std_seq(ga, gv, ev);
    check_eigen("GA_Diag_std_seq", gv, ev, a, NULL, w, wv);
    check_unchanged("GA_Diag_std_seq's A", ga, N, N, a);
    if (!debian) {
        memset(ev, 0, sizeof ev);
        GA_Zero(gv);
        GA_Diag_std(ga, gv, ev);
        check_eigen("GA_Diag_std", gv, ev, a, NULL, w, wv);
        check_unchanged("GA_Diag_std's A", ga, N, N, a);
    }

    /* The generalised problem. */
    memcpy(wv, a, sizeof wv);
    memcpy(f, s, sizeof f);
    dsygv_(&one, "V", "L", &n, wv, &n, f, &n, w, work, &lwork, &info, 1, 1);
    CHECK_EQ(info, 0, "dsygv");
    memset(ev, 0, sizeof ev);
    GA_Diag_seq(ga, gs, gv, ev);
    check_eigen("GA_Diag_seq", gv, ev, a, s, w, wv);
    if (!debian) {
        memset(ev, 0, sizeof ev);
        GA_Zero(gv);
        GA_Diag(ga, gs, gv, ev);
        check_eigen("GA_Diag", gv, ev, a, s, w, wv);
        check_unchanged("GA_Diag's A", ga, N, N, a);
        check_unchanged("GA_Diag's S", gs, N, N, s);
        for (int reuse = 0; reuse >= -1; reuse = reuse == 0 ? 1 : reuse == 1 ? -1 : -2) {
            memset(ev, 0, sizeof ev);
            GA_Zero(gv);
            GA_Diag_reuse(reuse, ga, gs, gv, ev);
            check_eigen("GA_Diag_reuse", gv, ev, a, s, w, wv);
        }
    }
    GA_Destroy(ga);
    GA_Destroy(gs);
    GA_Destroy(gv);
}

static void bad_call(const char *which) {
    int dims[2] = {N, N}, rect[2] = {N, N + 1};
    int g = NGA_Create(C_DBL, 2, dims, "A", NULL);
    int gi = NGA_Create(C_INT, 2, dims, "I", NULL);
    int gr = NGA_Create(C_DBL, 2, rect, "R", NULL);
    double ev[N];
    GA_Zero(g);
    if (!strcmp(which, "singular")) GA_Lu_solve('n', g, g);
    else if (!strcmp(which, "type")) GA_Llt_solve(gi, g);
    else if (!strcmp(which, "square")) GA_Spd_invert(gr);
    else if (!strcmp(which, "rhs")) GA_Solve(g, gr);
    else if (!strcmp(which, "eval")) GA_Diag_std(g, g, NULL);
    else if (!strcmp(which, "metric")) GA_Diag(g, g, g, ev);
    printf("%s returned\n", which);
}

int main(int argc, char **argv) {
    int np, me = start_ga(&argc, &argv, &np, 100000);
    int debian = argc > 1 && !strcmp(argv[1], "debian");
    if (argc > 2 && !strcmp(argv[1], "bad")) {
        bad_call(argv[2]);
        return finish_ga("ga_linalg", me);
    }
    test_lu(debian);
    test_cholesky();
    test_eigen(debian);
    return finish_ga("ga_linalg", me);
}
