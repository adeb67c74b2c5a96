/* The complex and logical element types of hpf_rts.h from C on a 2-D grid,
 * each result against a serial computation every process does itself:
 *
 * - COMPLEX*16: SUM, PRODUCT, DOT_PRODUCT (the first vector conjugated),
 *   CSHIFT, a remap, MATMUL on three different DADs;
 * - COMPLEX*8: SUM, DOT_PRODUCT, TRANSPOSE;
 * - LOGICAL: CSHIFT, EOSHIFT with a .TRUE. boundary, COUNT/ALL/ANY of the
 *   result, DOT_PRODUCT (ANY(a .AND. b)), MATMUL (OR of ANDs);
 * - errors: MAXVAL/MAXLOC of complex, SUM of logical, an unknown type.
 *
 * Prints "hpf_types rank R: P passed, F failed". */
#include <complex.h>
#include <hpf_rts.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_start.h"

#define N 17
#define M 7
#define K 6
#define L 5

static int grid, me;

static int dad(int rank, const long long *ext, const int *dist, const int *block,
               const int *pdim)
{
    long long lb[2] = {1, 1};
    int h = -1;
    EXPECT(hpf_dad_create(grid, rank, lb, ext, dist, block, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

static void *alloc_for(int d, size_t size)
{
    long long n = 0;
    hpf_dad_local_size(d, &n);
    return calloc((size_t)(n > 0 ? n : 1), size);
}

/* Calls put(offset, i, j) for every element this process holds (1-based
 * subscripts; j is 1 for rank 1). */
#define FOR_MINE(d, rank, ext, body)                                            \
    do {                                                                        \
        for (long long j_ = 1; j_ <= ((rank) == 2 ? (ext)[1] : 1); j_++)        \
            for (long long i_ = 1; i_ <= (ext)[0]; i_++) {                      \
                long long g_[2] = {i_, j_}, off;                                \
                int owner_ = -1;                                                \
                hpf_dad_owner((d), g_, &owner_, &off);                          \
                if (owner_ == me) {                                             \
                    long long i = i_ - 1, j = j_ - 1;                           \
                    (void)i, (void)j;                                           \
                    body;                                                       \
                }                                                               \
            }                                                                   \
    } while (0)

/* The whole array (column-major) on every process. */
static void gather(int d, const void *buf, int rank, const long long *ext, void *out, int type)
{
    int dist[2] = {HPF_COLLAPSED, HPF_COLLAPSED}, pdim[2] = {0, 0};
    int whole = dad(rank, ext, dist, NULL, pdim);
    EXPECT(hpf_copy(d, buf, whole, out, type), HPF_OK);
    hpf_dad_free(whole);
}

static double complex za(long long i) { return cos(0.3 * (double)i) + I * sin(0.3 * (double)i); }
static double complex zb(long long i) { return (double)(i % 3) - 0.5 + I * (double)(i % 4); }
static int la(long long i) { return i % 3 != 1; }
static int lb_(long long i) { return i % 5 == 2; }

static int close_to(double complex x, double complex y, double tol)
{
    return cabs(x - y) <= tol * (1.0 + cabs(y));
}

int main(void)
{
    int dims[2] = {0, 0};
    if (start_grid(2, dims, &grid, &me) != 0) return 2;

    long long ext1[1] = {N};
    int cyc2[1] = {HPF_CYCLIC_K}, two[1] = {2}, p0[1] = {0}, blk[1] = {HPF_BLOCK};
    int v = dad(1, ext1, cyc2, two, p0), vb = dad(1, ext1, blk, NULL, p0);

    /* COMPLEX*16 vectors. */
    double complex *x = alloc_for(v, sizeof *x), *y = alloc_for(v, sizeof *y);
    FOR_MINE(v, 1, ext1, (x[off] = za(i), y[off] = zb(i)));
    double complex sum = 0, prod = 1, dot = 0, dot_plain = 0, r = 0;
    for (long long i = 0; i < N; i++) {
        sum += za(i), prod *= za(i);
        dot += conj(za(i)) * zb(i), dot_plain += za(i) * zb(i);
    }
    EXPECT(hpf_sum(v, HPF_COMPLEX16, x, &r), HPF_OK);
    CHECK(close_to(r, sum, 1e-12), "complex SUM (%g,%g)", creal(r), cimag(r));
    EXPECT(hpf_product(v, HPF_COMPLEX16, x, &r), HPF_OK);
    CHECK(close_to(r, prod, 1e-12), "complex PRODUCT (%g,%g)", creal(r), cimag(r));
    EXPECT(hpf_dot_product(v, HPF_COMPLEX16, x, y, &r), HPF_OK);
    CHECK(close_to(r, dot, 1e-12), "complex DOT_PRODUCT (%g,%g)", creal(r), cimag(r));
    CHECK(!close_to(r, dot_plain, 1e-6), "DOT_PRODUCT conjugates its first argument");

    double complex *s = alloc_for(v, sizeof *s), whole[N], *w = alloc_for(vb, sizeof *w);
    EXPECT(hpf_cshift(v, HPF_COMPLEX16, x, s, -5, 1), HPF_OK);
    gather(v, s, 1, ext1, whole, HPF_COMPLEX16);
    for (long long i = 0; i < N; i++)
        CHECK(whole[i] == za((i - 5 + N) % N), "complex CSHIFT at %lld", i + 1);
    EXPECT(hpf_copy(v, x, vb, w, HPF_COMPLEX16), HPF_OK);
    gather(vb, w, 1, ext1, whole, HPF_COMPLEX16);
    for (long long i = 0; i < N; i++) CHECK(whole[i] == za(i), "complex remap at %lld", i + 1);

    /* Errors of the unordered and non-numeric types. */
    long long pos[1];
    EXPECT(hpf_maxval(v, HPF_COMPLEX16, x, &r), HPF_EBADARG);
    EXPECT(hpf_maxloc(v, HPF_COMPLEX16, x, pos), HPF_EBADARG);
    EXPECT(hpf_sum(v, 8, x, &r), HPF_EBADARG);
    free(s), free(w);

    /* COMPLEX*8. */
    {
        float complex *fx = alloc_for(v, sizeof *fx), *fy = alloc_for(v, sizeof *fy), fr = 0;
        FOR_MINE(v, 1, ext1, (fx[off] = (float complex)za(i), fy[off] = (float complex)zb(i)));
        double complex fsum = 0, fdot = 0;
        for (long long i = 0; i < N; i++) {
            fsum += (float complex)za(i);
            fdot += conj((float complex)za(i)) * (float complex)zb(i);
        }
        EXPECT(hpf_sum(v, HPF_COMPLEX8, fx, &fr), HPF_OK);
        CHECK(close_to(fr, fsum, 1e-5), "COMPLEX*8 SUM");
        EXPECT(hpf_dot_product(v, HPF_COMPLEX8, fx, fy, &fr), HPF_OK);
        CHECK(close_to(fr, fdot, 1e-5), "COMPLEX*8 DOT_PRODUCT");
        free(fx), free(fy);

        long long e[2] = {M, K}, et[2] = {K, M};
        int bc[2] = {HPF_BLOCK, HPF_CYCLIC}, cb[2] = {HPF_CYCLIC, HPF_BLOCK}, pd[2] = {0, 1};
        int ad = dad(2, e, bc, NULL, pd), td = dad(2, et, cb, NULL, pd);
        float complex *am = alloc_for(ad, sizeof *am), *tm = alloc_for(td, sizeof *tm);
        float complex got[M * K];
        FOR_MINE(ad, 2, e, am[off] = (float)(i * 10 + j) + I * (float)(j - i));
        EXPECT(hpf_transpose(ad, am, td, tm, HPF_COMPLEX8), HPF_OK);
        gather(td, tm, 2, et, got, HPF_COMPLEX8);
        for (long long j = 0; j < M; j++)
            for (long long i = 0; i < K; i++)
                CHECK(got[i + j * K] == (float)(j * 10 + i) + I * (float)(i - j),
                      "COMPLEX*8 TRANSPOSE (%lld,%lld)", i + 1, j + 1);
        free(am), free(tm);
        hpf_dad_free(ad), hpf_dad_free(td);
    }

    /* COMPLEX*16 MATMUL: A (M x K) on (BLOCK, CYCLIC), B (K x L) on
     * (CYCLIC(2), BLOCK), C on (BLOCK, BLOCK). */
    {
        long long ea[2] = {M, K}, eb[2] = {K, L}, ec[2] = {M, L};
        int bc[2] = {HPF_BLOCK, HPF_CYCLIC}, kb[2] = {HPF_CYCLIC_K, HPF_BLOCK};
        int bb[2] = {HPF_BLOCK, HPF_BLOCK}, blk2[2] = {2, 2}, pd[2] = {0, 1};
        int ad = dad(2, ea, bc, NULL, pd), bd = dad(2, eb, kb, blk2, pd), cd = dad(2, ec, bb, NULL, pd);
        double complex *am = alloc_for(ad, sizeof *am), *bm = alloc_for(bd, sizeof *bm);
        double complex *cm = alloc_for(cd, sizeof *cm), got[M * L];
        FOR_MINE(ad, 2, ea, am[off] = za(i + 3 * j));
        FOR_MINE(bd, 2, eb, bm[off] = zb(2 * i + j));
        EXPECT(hpf_matmul(ad, am, bd, bm, cd, cm, HPF_COMPLEX16), HPF_OK);
        gather(cd, cm, 2, ec, got, HPF_COMPLEX16);
        for (long long j = 0; j < L; j++)
            for (long long i = 0; i < M; i++) {
                double complex want = 0;
                for (long long k = 0; k < K; k++) want += za(i + 3 * k) * zb(2 * k + j);
                CHECK(close_to(got[i + j * M], want, 1e-12), "complex MATMUL (%lld,%lld)", i + 1,
                      j + 1);
            }
        free(am), free(bm), free(cm);
        hpf_dad_free(ad), hpf_dad_free(bd), hpf_dad_free(cd);
    }

    /* LOGICAL. */
    {
        int *la_ = alloc_for(v, sizeof(int)), *lbv = alloc_for(v, sizeof(int));
        int *sh = alloc_for(v, sizeof(int)), lw[N], t = 1, res = -1;
        FOR_MINE(v, 1, ext1, (la_[off] = la(i), lbv[off] = lb_(i)));
        EXPECT(hpf_cshift(v, HPF_LOGICAL, la_, sh, 4, 1), HPF_OK);
        gather(v, sh, 1, ext1, lw, HPF_LOGICAL);
        for (long long i = 0; i < N; i++) CHECK(lw[i] == la((i + 4) % N), "LOGICAL CSHIFT");
        EXPECT(hpf_eoshift(v, HPF_LOGICAL, lbv, sh, 3, &t, 1), HPF_OK);
        gather(v, sh, 1, ext1, lw, HPF_LOGICAL);
        long long cnt = 0, got_cnt = -1;
        for (long long i = 0; i < N; i++) {
            int want = i + 3 < N ? lb_(i + 3) : 1;
            CHECK(lw[i] == want, "LOGICAL EOSHIFT at %lld", i + 1);
            cnt += want;
        }
        EXPECT(hpf_count(v, sh, &got_cnt), HPF_OK);
        CHECK_EQ(got_cnt, cnt, "COUNT of the shifted LOGICAL");
        EXPECT(hpf_all(v, sh, &res), HPF_OK);
        CHECK_EQ(res, cnt == N, "ALL");
        EXPECT(hpf_any(v, sh, &res), HPF_OK);
        CHECK_EQ(res, cnt > 0, "ANY");

        int any_and = 0, any_none = 0, got = -1;
        for (long long i = 0; i < N; i++) any_and |= la(i) && lb_(i);
        EXPECT(hpf_dot_product(v, HPF_LOGICAL, la_, lbv, &got), HPF_OK);
        CHECK_EQ(got != 0, any_and, "LOGICAL DOT_PRODUCT");
        /* a .AND. (not a) is false everywhere. */
        FOR_MINE(v, 1, ext1, lbv[off] = !la(i));
        EXPECT(hpf_dot_product(v, HPF_LOGICAL, la_, lbv, &got), HPF_OK);
        CHECK_EQ(got != 0, any_none, "LOGICAL DOT_PRODUCT of disjoint vectors");
        EXPECT(hpf_sum(v, HPF_LOGICAL, la_, &got), HPF_EBADARG);
        EXPECT(hpf_minloc(v, HPF_LOGICAL, la_, pos), HPF_EBADARG);
        free(la_), free(lbv), free(sh);

        long long ea[2] = {M, K}, eb[2] = {K, L}, ec[2] = {M, L};
        int cb[2] = {HPF_CYCLIC, HPF_BLOCK}, bb[2] = {HPF_BLOCK, HPF_BLOCK}, pd[2] = {0, 1};
        int ad = dad(2, ea, cb, NULL, pd), bd = dad(2, eb, bb, NULL, pd), cd = dad(2, ec, cb, NULL, pd);
        int *am = alloc_for(ad, sizeof(int)), *bm = alloc_for(bd, sizeof(int));
        int *cm = alloc_for(cd, sizeof(int)), lc[M * L];
        FOR_MINE(ad, 2, ea, am[off] = (i * 3 + j * 5) % 7 == 0);
        FOR_MINE(bd, 2, eb, bm[off] = (i + 2 * j) % 4 == 1);
        EXPECT(hpf_matmul(ad, am, bd, bm, cd, cm, HPF_LOGICAL), HPF_OK);
        gather(cd, cm, 2, ec, lc, HPF_LOGICAL);
        for (long long j = 0; j < L; j++)
            for (long long i = 0; i < M; i++) {
                int want = 0;
                for (long long k = 0; k < K; k++)
                    want |= (i * 3 + k * 5) % 7 == 0 && (k + 2 * j) % 4 == 1;
                CHECK_EQ(lc[i + j * M] != 0, want, "LOGICAL MATMUL");
            }
        free(am), free(bm), free(cm);
        hpf_dad_free(ad), hpf_dad_free(bd), hpf_dad_free(cd);
    }

    free(x), free(y);
    hpf_dad_free(v), hpf_dad_free(vb);
    printf("hpf_types rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
