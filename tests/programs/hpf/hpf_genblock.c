/* GEN_BLOCK (general block distribution with given per-process sizes)
 * through hpf_rts.h, on a 1-D grid of all processes, each result against a
 * serial computation every process does itself:
 *
 * - the local counts and global subscripts follow the given sizes (empty
 *   blocks included);
 * - SUM, MAXLOC, CSHIFT and EOSHIFT of a GEN_BLOCK vector;
 * - the overlap update of a GEN_BLOCK vector with overlap widths 1/2,
 *   periodic, on the processes that own something;
 * - GEN_BLOCK -> CYCLIC(2) -> another GEN_BLOCK -> BLOCK round trip;
 * - MATMUL of a (GEN_BLOCK, collapsed) matrix by a vector-like matrix;
 * - error codes: sizes that do not add up, a negative size, too few
 *   processes' sizes missing (NULL), HPF_GEN_BLOCK through hpf_dad_create.
 *
 * Prints "hpf_genblock rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"
#include "hpf_start.h"

#define N 13
#define K 3

static int grid, nprocs, me;

/* Uneven sizes with empty blocks: process c gets (c*3+1) % 4 elements
 * (1, 0, 3, 2, ...) while they last, the last one the rest. `shift`
 * rotates the pattern for a second, different split. */
static void sizes_for(long long n, int shift, long long *s)
{
    long long left = n;
    for (int c = 0; c < nprocs; c++) {
        long long want = ((c + shift) * 3 + 1) % 4;
        s[c] = want < left ? want : left;
        left -= s[c];
    }
    s[nprocs - 1] += left;
}

static int gen1(long long n, int shift, int olo, int ohi)
{
    long long lb[1] = {1}, ext[1] = {n};
    int dist[1] = {HPF_GEN_BLOCK}, pdim[1] = {0}, lo[1] = {olo}, hi[1] = {ohi}, h = -1;
    long long s[64];
    sizes_for(n, shift, s);
    EXPECT(hpf_dad_create_gen(grid, 1, lb, ext, dist, NULL, pdim, lo, hi, s, &h), HPF_OK);
    return h;
}

static int plain1(long long n, int dist0, int k)
{
    long long lb[1] = {1}, ext[1] = {n};
    int dist[1] = {dist0}, block[1] = {k}, pdim[1] = {0}, h = -1;
    EXPECT(hpf_dad_create(grid, 1, lb, ext, dist, block, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

static double f(long long g) { return (double)((g * 7) % 11) - 0.5 * (double)g; }

static double *alloc_for(int d)
{
    long long n = 0;
    hpf_dad_local_size(d, &n);
    return calloc((size_t)(n > 0 ? n : 1), sizeof(double));
}

/* Fills the owned cells of a rank-1 array with f(global), each at the
 * offset the DAD's owner query gives. */
static void fill1(int d, double *x)
{
    long long cnt[1];
    hpf_dad_local_shape(d, cnt, NULL, NULL);
    for (long long l = 0; l < cnt[0]; l++) {
        long long g, off;
        int owner;
        hpf_dad_local_to_global(d, 1, l, &g);
        EXPECT(hpf_dad_owner(d, &g, &owner, &off), HPF_OK);
        x[off] = f(g);
    }
}

/* The whole vector on every process. */
static void gather(int d, const double *x, long long n, double *out)
{
    int whole = plain1(n, HPF_COLLAPSED, 1);
    EXPECT(hpf_copy(d, x, whole, out, HPF_REAL8), HPF_OK);
    hpf_dad_free(whole);
}

int main(void)
{
    int dims[1] = {0};
    if (start_grid(1, dims, &grid, &me) != 0) return 2;
    hpf_nprocs(&nprocs);
    if (nprocs > 64) return 2;

    long long s[64], start = 0;
    sizes_for(N, 0, s);
    for (int c = 0; c < me; c++) start += s[c];

    /* Ownership follows the sizes. */
    int a = gen1(N, 0, 0, 0);
    long long cnt[1];
    EXPECT(hpf_dad_local_shape(a, cnt, NULL, NULL), HPF_OK);
    CHECK_EQ(cnt[0], s[me], "GEN_BLOCK local count");
    for (long long l = 0; l < cnt[0]; l++) {
        long long g = 0;
        EXPECT(hpf_dad_local_to_global(a, 1, l, &g), HPF_OK);
        CHECK_EQ(g, 1 + start + l, "GEN_BLOCK global subscript");
    }
    for (long long g = 1; g <= N; g++) {
        int owner = -1;
        long long off = -1, acc = 0;
        for (int c = 0; c < nprocs; c++) {
            if (g - 1 >= acc && g - 1 < acc + s[c]) {
                EXPECT(hpf_dad_owner(a, &g, &owner, &off), HPF_OK);
                CHECK_EQ(owner, c, "GEN_BLOCK owner");
                CHECK_EQ(off, g - 1 - acc, "GEN_BLOCK local offset");
            }
            acc += s[c];
        }
    }

    double *x = alloc_for(a);
    fill1(a, x);
    double ref[N], got[N];
    for (int i = 0; i < N; i++) ref[i] = f(i + 1);

    /* SUM and MAXLOC. */
    double sum = 0, want_sum = 0;
    for (int i = 0; i < N; i++) want_sum += ref[i];
    EXPECT(hpf_sum(a, HPF_REAL8, x, &sum), HPF_OK);
    CHECK(fabs(sum - want_sum) < 1e-9, "SUM %g != %g", sum, want_sum);
    long long pos = 0, want_pos = 1;
    for (int i = 1; i < N; i++)
        if (ref[i] > ref[want_pos - 1]) want_pos = i + 1;
    EXPECT(hpf_maxloc(a, HPF_REAL8, x, &pos), HPF_OK);
    CHECK_EQ(pos, want_pos, "MAXLOC");

    /* CSHIFT by 4 and EOSHIFT by -3 with boundary 9. */
    double *y = alloc_for(a);
    EXPECT(hpf_cshift(a, HPF_REAL8, x, y, 4, 1), HPF_OK);
    gather(a, y, N, got);
    for (int i = 0; i < N; i++) CHECK(got[i] == ref[(i + 4) % N], "CSHIFT at %d", i + 1);
    double nine = 9;
    EXPECT(hpf_eoshift(a, HPF_REAL8, x, y, -3, &nine, 1), HPF_OK);
    gather(a, y, N, got);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == (i - 3 >= 0 ? ref[i - 3] : 9.0), "EOSHIFT at %d", i + 1);
    free(y);

    /* Overlap update, widths 1 below and 2 above, periodic. */
    int h = gen1(N, 0, 1, 2);
    double *z = alloc_for(h);
    fill1(h, z);
    int periodic[1] = {1};
    EXPECT(hpf_shift_overlap(h, HPF_REAL8, z, periodic), HPF_OK);
    if (s[me] > 0) {
        long long lo = (start - 1 + N) % N, hi1 = (start + s[me]) % N, hi2 = (start + s[me] + 1) % N;
        CHECK(z[0] == ref[lo], "overlap below");
        CHECK(z[1 + s[me]] == ref[hi1], "first overlap cell above");
        CHECK(z[2 + s[me]] == ref[hi2], "second overlap cell above");
        for (long long l = 0; l < s[me]; l++)
            CHECK(z[1 + l] == ref[start + l], "owned cell %lld after the update", l);
    }
    free(z);
    hpf_dad_free(h);

    /* Round trip GEN_BLOCK -> CYCLIC(2) -> other GEN_BLOCK -> BLOCK. */
    int c2 = plain1(N, HPF_CYCLIC_K, 2), g2 = gen1(N, 1, 0, 0), bl = plain1(N, HPF_BLOCK, 1);
    double *u = alloc_for(c2), *v = alloc_for(g2), *w = alloc_for(bl);
    EXPECT(hpf_copy(a, x, c2, u, HPF_REAL8), HPF_OK);
    EXPECT(hpf_copy(c2, u, g2, v, HPF_REAL8), HPF_OK);
    EXPECT(hpf_copy(g2, v, bl, w, HPF_REAL8), HPF_OK);
    gather(bl, w, N, got);
    for (int i = 0; i < N; i++) CHECK(got[i] == ref[i], "round trip at %d", i + 1);
    free(u), free(v), free(w);
    hpf_dad_free(c2), hpf_dad_free(g2), hpf_dad_free(bl);

    /* MATMUL: (N x K) with GEN_BLOCK rows times (K x 2) collapsed, into a
     * GEN_BLOCK (N x 2). A(i,k) = f(i) + k, B(k,j) = k - j. */
    {
        long long lb[2] = {1, 1}, ea[2] = {N, K}, eb[2] = {K, 2}, ec[2] = {N, 2};
        int dg[2] = {HPF_GEN_BLOCK, HPF_COLLAPSED}, dc[2] = {HPF_COLLAPSED, HPF_COLLAPSED};
        int pd[2] = {0, 0}, ad, bd, cd;
        EXPECT(hpf_dad_create_gen(grid, 2, lb, ea, dg, NULL, pd, NULL, NULL, s, &ad), HPF_OK);
        EXPECT(hpf_dad_create(grid, 2, lb, eb, dc, NULL, pd, NULL, NULL, &bd), HPF_OK);
        EXPECT(hpf_dad_create_gen(grid, 2, lb, ec, dg, NULL, pd, NULL, NULL, s, &cd), HPF_OK);
        double *am = alloc_for(ad), *bm = alloc_for(bd), *cm = alloc_for(cd);
        for (long long l = 0; l < s[me]; l++)
            for (int k = 0; k < K; k++) am[l + k * s[me]] = f(start + l + 1) + (k + 1);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < 2; j++) bm[k + j * K] = (double)(k - j);
        EXPECT(hpf_matmul(ad, am, bd, bm, cd, cm, HPF_REAL8), HPF_OK);
        for (long long l = 0; l < s[me]; l++)
            for (int j = 0; j < 2; j++) {
                double want = 0;
                for (int k = 0; k < K; k++) want += (f(start + l + 1) + (k + 1)) * (double)(k - j);
                CHECK(fabs(cm[l + j * s[me]] - want) < 1e-9, "MATMUL (%lld,%d)", start + l + 1, j + 1);
            }
        free(am), free(bm), free(cm);
        hpf_dad_free(ad), hpf_dad_free(bd), hpf_dad_free(cd);
    }

    /* Errors. */
    {
        long long lb[1] = {1}, ext[1] = {N}, bad[64];
        int dist[1] = {HPF_GEN_BLOCK}, pdim[1] = {0}, d = -1;
        for (int c = 0; c < nprocs; c++) bad[c] = s[c];
        bad[0] += 1; /* one too many */
        EXPECT(hpf_dad_create_gen(grid, 1, lb, ext, dist, NULL, pdim, NULL, NULL, bad, &d),
               HPF_EBADARG);
        bad[0] = -1; /* negative, the sum right when there are others */
        if (nprocs > 1) bad[nprocs - 1] = s[nprocs - 1] + s[0] + 1;
        EXPECT(hpf_dad_create_gen(grid, 1, lb, ext, dist, NULL, pdim, NULL, NULL, bad, &d),
               HPF_EBADARG);
        EXPECT(hpf_dad_create_gen(grid, 1, lb, ext, dist, NULL, pdim, NULL, NULL, NULL, &d),
               HPF_EBADARG);
        EXPECT(hpf_dad_create(grid, 1, lb, ext, dist, NULL, pdim, NULL, NULL, &d), HPF_EBADARG);
        char msg[256];
        hpf_error_message(msg, sizeof msg);
        CHECK(strstr(msg, "hpf_dad_create_gen") != NULL, "message names the right call: %s", msg);
    }

    free(x);
    hpf_dad_free(a);
    printf("hpf_genblock rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
