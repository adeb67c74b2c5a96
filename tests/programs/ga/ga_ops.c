/* Global Arrays C API: whole-array and patch operations (zero, fill,
 * scale, copy, add, dot products, transpose, symmetrize, copy/add/scale/
 * fill/zero/dot on patches, GA_Dgemm/Sgemm/Zgemm in every transpose
 * combination, NGA_Matmul_patch) checked against a serial reference the
 * program computes itself. Prints "ga_ops: N passed, M failed". */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define M 11
#define K 7
#define N 9

static double absd(double x) { return x < 0 ? -x : x; }
static double fa(int i, int j) { return (i * 7 + j * 3) % 11 - 4.5; }
static double fb(int i, int j) { return (i * 5 + j * 2) % 13 * 0.25 - 1.0; }

/* Reads a whole 2-D double array. */
static void get2(int g, int rows, int cols, double *out) {
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Get(g, lo, hi, out, ld);
}

/* Rank 0 writes a whole 2-D double array from f. */
static void put2(int g, int rows, int cols, double (*f)(int, int)) {
    double *v = malloc(sizeof(double) * rows * cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) v[i * cols + j] = f(i, j);
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, v, ld);
    GA_Sync();
    free(v);
}

static int count_diff(const double *x, const double *y, int n, double tol) {
    int bad = 0;
    for (int k = 0; k < n; k++) bad += absd(x[k] - y[k]) > tol;
    return bad;
}

/* Zeroes c, copies the patch alo..ahi of a (holding fa) into clo..chi of c
 * (transposed for 'T', else in row-major order), and checks all of c: the
 * copied values in the patch, zero elsewhere. One check. */
static void copy_patch_check(char trans, int a, int *alo, int *ahi, int c, int *clo, int *chi) {
    double got[M * N], want[M * N];
    GA_Zero(c);
    NGA_Copy_patch(trans, a, alo, ahi, c, clo, chi);
    get2(c, M, N, got);
    int aw = ahi[1] - alo[1] + 1, cw = chi[1] - clo[1] + 1;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int in = i >= clo[0] && i <= chi[0] && j >= clo[1] && j <= chi[1];
            int lin = (i - clo[0]) * cw + (j - clo[1]);
            double v = trans == 'T' ? fa(alo[0] + (j - clo[1]), alo[1] + (i - clo[0]))
                                    : fa(alo[0] + lin / aw, alo[1] + lin % aw);
            want[i * N + j] = in ? v : 0.0;
        }
    EXPECT(count_diff(got, want, M * N, 0), 0);
}

static void elementwise(void) {
    int dims[2] = {M, N};
    int a = NGA_Create(C_DBL, 2, dims, "a", NULL);
    int b = GA_Duplicate(a, "b");
    int c = NGA_Create(C_DBL, 2, dims, "c", NULL);
    double got[M * N], want[M * N];
    put2(a, M, N, fa);
    put2(b, M, N, fb);

    double alpha = 2.5, beta = -0.75;
    GA_Add(&alpha, a, &beta, b, c);
    get2(c, M, N, got);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) want[i * N + j] = alpha * fa(i, j) + beta * fb(i, j);
    EXPECT(count_diff(got, want, M * N, 1e-12), 0);

    double s = -3.0;
    GA_Scale(c, &s);
    get2(c, M, N, got);
    for (int k = 0; k < M * N; k++) want[k] *= s;
    EXPECT(count_diff(got, want, M * N, 1e-12), 0);

    double dot = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) dot += fa(i, j) * fb(i, j);
    double d = GA_Ddot(a, b);
    CHECK(absd(d - dot) < 1e-9, "GA_Ddot %.12g want %.12g", d, dot);

    GA_Copy(a, c);
    get2(c, M, N, got);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) want[i * N + j] = fa(i, j);
    EXPECT(count_diff(got, want, M * N, 0), 0);

    double f = 7.25;
    GA_Fill(c, &f);
    get2(c, M, N, got);
    for (int k = 0; k < M * N; k++) want[k] = 7.25;
    EXPECT(count_diff(got, want, M * N, 0), 0);
    GA_Zero(c);
    get2(c, M, N, got);
    for (int k = 0; k < M * N; k++) want[k] = 0;
    EXPECT(count_diff(got, want, M * N, 0), 0);

    /* Patch operations. */
    int plo[2] = {2, 1}, phi[2] = {6, 4};
    double v = 1.5;
    NGA_Fill_patch(c, plo, phi, &v);
    double two = 2.0;
    int slo[2] = {4, 3}, shi[2] = {9, 8};
    NGA_Scale_patch(c, slo, shi, &two);
    int zlo[2] = {5, 0}, zhi[2] = {5, 8};
    NGA_Zero_patch(c, zlo, zhi);
    get2(c, M, N, got);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double w = (i >= 2 && i <= 6 && j >= 1 && j <= 4) ? 1.5 : 0.0;
            if (i >= 4 && i <= 9 && j >= 3 && j <= 8) w *= 2.0;
            if (i == 5) w = 0.0;
            want[i * N + j] = w;
        }
    EXPECT(count_diff(got, want, M * N, 0), 0);

    /* Copy a 3x4 patch of a into a 4x3 patch of c, transposed. */
    int alo[2] = {1, 2}, ahi[2] = {3, 5}, clo[2] = {6, 5}, chi[2] = {9, 7};
    copy_patch_check('T', a, alo, ahi, c, clo, chi);
    /* And without transpose, reshaping a 2x6 patch into a 3x4 one. */
    int rlo[2] = {0, 0}, rhi[2] = {1, 5}, dlo[2] = {7, 4}, dhi[2] = {9, 7};
    copy_patch_check('N', a, rlo, rhi, c, dlo, dhi);

    /* Add patches of a and b (same shape) into c; dot patches. */
    GA_Zero(c);
    int p1lo[2] = {0, 0}, p1hi[2] = {3, 2}, p2lo[2] = {5, 4}, p2hi[2] = {8, 6}, p3lo[2] = {7, 6},
        p3hi[2] = {10, 8};
    NGA_Add_patch(&alpha, a, p1lo, p1hi, &beta, b, p2lo, p2hi, c, p3lo, p3hi);
    get2(c, M, N, got);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int in = i >= 7 && i <= 10 && j >= 6 && j <= 8;
            want[i * N + j] = in ? alpha * fa(i - 7, j - 6) + beta * fb(i - 7 + 5, j - 6 + 4) : 0.0;
        }
    EXPECT(count_diff(got, want, M * N, 1e-12), 0);
    double pd = NGA_Ddot_patch(a, 'N', p1lo, p1hi, b, 'N', p2lo, p2hi);
    double pw = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) pw += fa(i, j) * fb(5 + i, 4 + j);
    CHECK(absd(pd - pw) < 1e-9, "NGA_Ddot_patch %.12g want %.12g", pd, pw);
    int q2lo[2] = {1, 1}, q2hi[2] = {3, 4};
    double td = NGA_Ddot_patch(a, 'N', p1lo, p1hi, b, 'T', q2lo, q2hi);
    double tw = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) tw += fa(i, j) * fb(1 + j, 1 + i);
    CHECK(absd(td - tw) < 1e-9, "NGA_Ddot_patch transposed %.12g want %.12g", td, tw);

    GA_Destroy(c);
    GA_Destroy(b);
    GA_Destroy(a);
}

static void transpose_symmetrize(void) {
    int dims[2] = {M, N}, tdims[2] = {N, M}, sq[2] = {N, N};
    int a = NGA_Create(C_DBL, 2, dims, "a", NULL);
    int t = NGA_Create(C_DBL, 2, tdims, "t", NULL);
    put2(a, M, N, fa);
    GA_Transpose(a, t);
    double got[M * N];
    get2(t, N, M, got);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) bad += got[i * M + j] != fa(j, i);
    CHECK(bad == 0, "GA_Transpose: %d wrong", bad);

    int s = NGA_Create(C_DBL, 2, sq, "s", NULL);
    put2(s, N, N, fb);
    GA_Symmetrize(s);
    double sg[N * N];
    get2(s, N, N, sg);
    bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) bad += absd(sg[i * N + j] - 0.5 * (fb(i, j) + fb(j, i))) > 1e-12;
    CHECK(bad == 0, "GA_Symmetrize: %d wrong", bad);
    GA_Destroy(s);
    GA_Destroy(t);
    GA_Destroy(a);
}

/* C = alpha*op(A)*op(B) + beta*C, serial, row-major. */
static void ref_gemm(char ta, char tb, int m, int n, int k, double alpha, double (*fa_)(int, int),
                     double (*fb_)(int, int), double beta, double (*fc)(int, int), double *c) {
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int l = 0; l < k; l++) {
                double x = ta == 'N' ? fa_(i, l) : fa_(l, i);
                double y = tb == 'N' ? fb_(l, j) : fb_(j, l);
                s += x * y;
            }
            c[i * n + j] = alpha * s + beta * fc(i, j);
        }
}

static double fc0(int i, int j) { return 0.5 * i - 0.25 * j; }

static void gemm(void) {
    const char tr[2] = {'N', 'T'};
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            char ta = tr[x], tb = tr[y];
            int adims[2] = {ta == 'N' ? M : K, ta == 'N' ? K : M};
            int bdims[2] = {tb == 'N' ? K : N, tb == 'N' ? N : K};
            int cdims[2] = {M, N};
            int a = NGA_Create(C_DBL, 2, adims, "A", NULL);
            int b = NGA_Create(C_DBL, 2, bdims, "B", NULL);
            int c = NGA_Create(C_DBL, 2, cdims, "C", NULL);
            put2(a, adims[0], adims[1], fa);
            put2(b, bdims[0], bdims[1], fb);
            put2(c, M, N, fc0);
            GA_Dgemm(ta, tb, M, N, K, 1.5, a, b, -2.0, c);
            double got[M * N], want[M * N];
            get2(c, M, N, got);
            ref_gemm(ta, tb, M, N, K, 1.5, fa, fb, -2.0, fc0, want);
            int bad = count_diff(got, want, M * N, 1e-9);
            CHECK(bad == 0, "GA_Dgemm(%c,%c): %d wrong", ta, tb, bad);
            GA_Destroy(c);
            GA_Destroy(b);
            GA_Destroy(a);
        }

    /* NGA_Matmul_patch on patches in the middle of bigger arrays:
     * C[2:5,1:3] = A[1:4,3:8] * B[0:5,4:6]. */
    int big[2] = {12, 12};
    int a = NGA_Create(C_DBL, 2, big, "A", NULL);
    int b = NGA_Create(C_DBL, 2, big, "B", NULL);
    int c = NGA_Create(C_DBL, 2, big, "C", NULL);
    put2(a, 12, 12, fa);
    put2(b, 12, 12, fb);
    GA_Zero(c);
    int alo[2] = {1, 3}, ahi[2] = {4, 8}, blo[2] = {0, 4}, bhi[2] = {5, 6}, clo[2] = {2, 1}, chi[2] = {5, 3};
    double one = 1.0, zero = 0.0;
    NGA_Matmul_patch('N', 'N', &one, &zero, a, alo, ahi, b, blo, bhi, c, clo, chi);
    double got[144];
    get2(c, 12, 12, got);
    int bad = 0;
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            double w = 0;
            if (i >= 2 && i <= 5 && j >= 1 && j <= 3)
                for (int l = 0; l < 6; l++) w += fa(1 + i - 2, 3 + l) * fb(0 + l, 4 + j - 1);
            bad += absd(got[i * 12 + j] - w) > 1e-9;
        }
    CHECK(bad == 0, "NGA_Matmul_patch: %d wrong", bad);
    GA_Destroy(c);
    GA_Destroy(b);
    GA_Destroy(a);

    /* Single precision and double complex. */
    int sd[2] = {5, 5};
    int fs = NGA_Create(C_FLOAT, 2, sd, "fs", NULL);
    int fr = NGA_Create(C_FLOAT, 2, sd, "fr", NULL);
    float fone = 1.0f;
    GA_Fill(fs, &fone);
    GA_Sgemm('N', 'N', 5, 5, 5, 2.0f, fs, fs, 0.0f, fr);
    float fg[25];
    int lo[2] = {0, 0}, hi[2] = {4, 4}, ld[1] = {5};
    NGA_Get(fr, lo, hi, fg, ld);
    bad = 0;
    for (int k = 0; k < 25; k++) bad += fg[k] != 10.0f;
    CHECK(bad == 0, "GA_Sgemm: %d wrong", bad);
    EXPECT((int)GA_Fdot(fs, fs), 25);
    GA_Destroy(fr);
    GA_Destroy(fs);

    int zs = NGA_Create(C_DCPL, 2, sd, "zs", NULL);
    int zr = NGA_Create(C_DCPL, 2, sd, "zr", NULL);
    double zi[2] = {0.0, 1.0}; /* i */
    GA_Fill(zs, zi);
    DoubleComplex al = {1.0, 0.0}, be = {0.0, 0.0};
    GA_Zgemm('N', 'N', 5, 5, 5, al, zs, zs, be, zr);
    double zg[50];
    NGA_Get(zr, lo, hi, zg, ld);
    bad = 0;
    for (int k = 0; k < 25; k++) bad += zg[2 * k] != -5.0 || zg[2 * k + 1] != 0.0;
    CHECK(bad == 0, "GA_Zgemm: %d wrong", bad);
    DoubleComplex zd = GA_Zdot(zs, zs);
    CHECK(zd.real == -25.0 && zd.imag == 0.0, "GA_Zdot (%g,%g)", zd.real, zd.imag);
    GA_Destroy(zr);
    GA_Destroy(zs);
}

static void integer_ops(void) {
    int dims[1] = {17};
    int g = NGA_Create(C_INT, 1, dims, "ints", NULL);
    int h = GA_Duplicate(g, "ints2");
    int three = 3, two = 2;
    GA_Fill(g, &three);
    GA_Fill(h, &two);
    EXPECT(GA_Idot(g, h), 17 * 6);
    int lo[1] = {4}, hi[1] = {9};
    NGA_Scale_patch(g, lo, hi, &two);
    EXPECT(GA_Idot(g, h), 17 * 6 + 6 * 6);
    GA_Destroy(h);
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    /* GA's own builds take work space for these operations from MA. */
    int np, me = start_ga(&argc, &argv, &np, 200000);
    elementwise();
    transpose_symmetrize();
    gemm();
    integer_ops();
    return finish_ga("ga_ops", me);
}
