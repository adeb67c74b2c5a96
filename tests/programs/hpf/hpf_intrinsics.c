/* The array intrinsics of hpf_rts.h from C on a 2-D grid, each against a
 * serial computation of the whole array every process does itself:
 *
 * - TRANSPOSE from (BLOCK, BLOCK) to (BLOCK, BLOCK) and from
 *   (CYCLIC, BLOCK) to (CYCLIC, BLOCK), shapes no process count divides;
 * - SPREAD of a BLOCK vector into a new second dimension;
 * - EOSHIFT by +2 and -3 along a distributed dimension with a boundary;
 * - SUM with MASK, SUM and MAXVAL along DIM (with and without MASK),
 *   COUNT and ANY along DIM, into natural and other result DADs;
 * - MAXLOC along DIM with MASK, MINLOC with MASK;
 * - section copies between (BLOCK, BLOCK) and (CYCLIC, BLOCK): negative
 *   strides, a scalar subscript on each side, and a copy within one
 *   buffer whose source and destination overlap;
 * - error codes of a bad DIM and a wrong result shape.
 *
 * Results are gathered with hpf_copy onto a collapsed DAD. Prints
 * "hpf_intrinsics rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

#define M 11
#define N 7

static int grid;

static int dad(int rank, const long long *ext, const int *dist, const int *pdim)
{
    long long lb[3] = {1, 1, 1};
    int h = -1;
    EXPECT(hpf_dad_create(grid, rank, lb, ext, dist, NULL, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

static double *alloc_for(int d) { return local_buffer(d, sizeof(double)); }

/* The owned cells of a rank-2 buffer set from f(i, j) (1-based). */
static void fill2(int d, double *buf, double (*f)(long long, long long))
{
    struct cells2 c = owned_cells2(d);
    for (long long k = 0; k < c.n; k++) buf[c.at[k]] = f(c.gi[k], c.gj[k]);
    free_cells2(c);
}

/* The whole array (rank `rank`, extents ext) on every process. */
static void gather(int d, const double *buf, int rank, const long long *ext, double *out)
{
    int dist[3] = {HPF_COLLAPSED, HPF_COLLAPSED, HPF_COLLAPSED}, pdim[3] = {0, 0, 0};
    int whole = dad(rank, ext, dist, pdim);
    EXPECT(hpf_copy(d, buf, whole, out, HPF_REAL8), HPF_OK);
    hpf_dad_free(whole);
}

static double f(long long i, long long j) { return (double)((i * 31 + j * 17) % 23) - 11.0; }
static double one_if_even(long long i, long long j) { return (double)((i + j) % 2 == 0); }

static void transpose(int d0, int d1)
{
    long long ext[2] = {M, N}, text[2] = {N, M};
    int dist[2] = {d0, d1}, pdim[2] = {0, 1};
    int a = dad(2, ext, dist, pdim), t = dad(2, text, dist, pdim);
    double *x = alloc_for(a), *y = alloc_for(t), whole[M * N];
    fill2(a, x, f);
    EXPECT(hpf_transpose(a, x, t, y, HPF_REAL8), HPF_OK);
    gather(t, y, 2, text, whole);
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            bad += whole[i + N * j] != f(j + 1, i + 1);
    CHECK(bad == 0, "TRANSPOSE (%d,%d): %d cells wrong", d0, d1, bad);
    EXPECT(hpf_transpose(a, x, a, y, HPF_REAL8), M == N ? HPF_OK : HPF_EMISMATCH);
    free(x), free(y);
    hpf_dad_free(a), hpf_dad_free(t);
}

/* Section copies from a (BLOCK, BLOCK) array into a (CYCLIC, BLOCK) one
 * and within one buffer. */
static void sections(void)
{
    long long ext[2] = {M, N};
    int bb[2] = {HPF_BLOCK, HPF_BLOCK}, cb[2] = {HPF_CYCLIC, HPF_BLOCK}, pd[2] = {0, 1};
    int a = dad(2, ext, bb, pd), c = dad(2, ext, cb, pd);
    double *x = alloc_for(a), *y = alloc_for(c), whole[M * N];
    fill2(a, x, f);

    /* Y(1:7:2, 5:7) = A(2:M:3, N:2:-2): rows 2,5,8,11 and columns 7,5,3. */
    long long slo[2] = {2, N}, shi[2] = {M, 2}, sst[2] = {3, -2};
    long long dlo[2] = {1, 5}, dhi[2] = {7, 7}, dst[2] = {2, 1};
    EXPECT(hpf_copy_section(a, x, slo, shi, sst, c, y, dlo, dhi, dst, HPF_REAL8), HPF_OK);
    /* Y(3, 1:N) = A(M:M-N+1:-1, 4): a scalar subscript on each side. */
    long long rlo[2] = {M, 4}, rhi[2] = {M - N + 1, 0}, rst[2] = {-1, 0};
    long long wlo[2] = {3, 1}, whi[2] = {0, N}, wst[2] = {0, 1};
    EXPECT(hpf_copy_section(a, x, rlo, rhi, rst, c, y, wlo, whi, wst, HPF_REAL8), HPF_OK);
    gather(c, y, 2, ext, whole);
    int bad = 0;
    for (int j = 1; j <= N; j++)
        for (int i = 1; i <= M; i++) {
            double want = 0.0;
            if (i == 3)
                want = f(M - (j - 1), 4);
            else if (i % 2 == 1 && i <= 7 && j >= 5)
                want = f(2 + 3 * ((i - 1) / 2), N - 2 * (j - 5));
            bad += whole[(i - 1) + M * (j - 1)] != want;
        }
    CHECK(bad == 0, "section copies: %d cells wrong", bad);

    /* X(1:M, 2:N) = X(1:M, 1:N-1) in one buffer: the source is read first. */
    long long alo[2] = {1, 1}, ahi[2] = {M, N - 1}, one[2] = {1, 1};
    long long blo[2] = {1, 2}, bhi[2] = {M, N};
    EXPECT(hpf_copy_section(a, x, alo, ahi, one, a, x, blo, bhi, one, HPF_REAL8), HPF_OK);
    gather(a, x, 2, ext, whole);
    bad = 0;
    for (int j = 1; j <= N; j++)
        for (int i = 1; i <= M; i++) bad += whole[(i - 1) + M * (j - 1)] != f(i, j > 1 ? j - 1 : 1);
    CHECK(bad == 0, "overlapping section copy: %d cells wrong", bad);

    /* Shapes that differ, and a subscript out of bounds. */
    long long short_hi[2] = {M, N - 2};
    EXPECT(hpf_copy_section(a, x, alo, short_hi, one, c, y, blo, bhi, one, HPF_REAL8),
           HPF_EMISMATCH);
    long long far[2] = {M + 1, N};
    EXPECT(hpf_copy_section(a, x, alo, far, one, c, y, alo, far, one, HPF_REAL8), HPF_EBADARG);
    free(x), free(y);
    hpf_dad_free(a), hpf_dad_free(c);
}

int main(void)
{
    int dims[2] = {0, 0}, rank = -1;
    if (start_grid(2, dims, &grid, &rank) != 0) return 2;

    transpose(HPF_BLOCK, HPF_BLOCK);
    transpose(HPF_CYCLIC, HPF_BLOCK);
    sections();

    long long ext[2] = {M, N};
    int bb[2] = {HPF_BLOCK, HPF_BLOCK}, pd[2] = {0, 1};
    int a = dad(2, ext, bb, pd);
    double *x = alloc_for(a), *y = alloc_for(a), *mk = alloc_for(a), whole[M * N];
    fill2(a, x, f);

    /* SPREAD of column 1-like vector: v(i) = f(i, 1), BLOCK on grid dim 0,
     * into r(i, j) = v(i), j = 1..N, (BLOCK, BLOCK). */
    {
        long long vext[1] = {M};
        int vd[1] = {HPF_BLOCK}, vp[1] = {0};
        int v = dad(1, vext, vd, vp);
        double *vb = alloc_for(v);
        long long cnt;
        hpf_dad_local_shape(v, &cnt, NULL, NULL);
        for (long long l = 0; l < cnt; l++) {
            long long g;
            hpf_dad_local_to_global(v, 1, l, &g);
            vb[l] = f(g, 1);
        }
        EXPECT(hpf_spread(v, vb, 2, a, y, HPF_REAL8), HPF_OK);
        gather(a, y, 2, ext, whole);
        int bad = 0;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < M; i++) bad += whole[i + M * j] != f(i + 1, 1);
        CHECK(bad == 0, "SPREAD: %d cells wrong", bad);
        EXPECT(hpf_spread(v, vb, 3, a, y, HPF_REAL8), HPF_EBADARG);
        free(vb);
        hpf_dad_free(v);
    }

    /* EOSHIFT along dimension 1 (BLOCK over grid dimension 0). */
    for (int s = -3; s <= 2; s += 5) {
        double boundary = -99.5;
        EXPECT(hpf_eoshift(a, HPF_REAL8, x, y, s, &boundary, 1), HPF_OK);
        gather(a, y, 2, ext, whole);
        int bad = 0;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < M; i++) {
                int k = i + s;
                double want = k >= 0 && k < M ? f(k + 1, j + 1) : boundary;
                bad += whole[i + M * j] != want;
            }
        CHECK(bad == 0, "EOSHIFT %d: %d cells wrong", s, bad);
    }

    /* SUM with MASK over the whole array (integers in doubles: exact). */
    int *mask;
    {
        long long n = 0;
        hpf_dad_local_size(a, &n);
        mask = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
        fill2(a, mk, one_if_even);
        for (long long i = 0; i < n; i++) mask[i] = mk[i] != 0.0;
        double got = 0, want = 0;
        for (int j = 1; j <= N; j++)
            for (int i = 1; i <= M; i++)
                if ((i + j) % 2 == 0) want += f(i, j);
        EXPECT(hpf_reduce_mask(HPF_OP_SUM, a, HPF_REAL8, x, mask, &got), HPF_OK);
        CHECK(got == want, "SUM with MASK %g != %g", got, want);
        EXPECT(hpf_reduce_mask(9, a, HPF_REAL8, x, mask, &got), HPF_EBADARG);
    }

    /* SUM and MAXVAL along DIM 1 and 2, into the natural DAD, and COUNT
     * and ANY along DIM 2 into a CYCLIC vector. */
    for (int dim = 1; dim <= 2; dim++) {
        int r = -1;
        EXPECT(hpf_reduced_dad(a, dim, &r), HPF_OK);
        long long rext[1] = {dim == 1 ? N : M};
        double *res = alloc_for(r), rwhole[M + N];
        for (int masked = 0; masked <= 1; masked++)
            for (int op = HPF_OP_SUM; op <= HPF_OP_MAXVAL; op += HPF_OP_MAXVAL - HPF_OP_SUM) {
                EXPECT(hpf_reduce_dim(op, a, HPF_REAL8, x, masked ? mask : NULL, dim, r, res),
                       HPF_OK);
                gather(r, res, 1, rext, rwhole);
                int bad = 0;
                for (int q = 0; q < rext[0]; q++) {
                    double want = op == HPF_OP_SUM ? 0.0 : -1.7976931348623157e308;
                    int len = dim == 1 ? M : N;
                    for (int p = 0; p < len; p++) {
                        int i = dim == 1 ? p + 1 : q + 1, j = dim == 1 ? q + 1 : p + 1;
                        if (masked && (i + j) % 2 != 0) continue;
                        double v = f(i, j);
                        want = op == HPF_OP_SUM ? want + v : (v > want ? v : want);
                    }
                    bad += rwhole[q] != want;
                }
                CHECK(bad == 0, "op %d DIM %d mask %d: %d cells wrong", op, dim, masked, bad);
            }
        free(res);
        hpf_dad_free(r);
    }
    {
        long long rext[1] = {M};
        int cd[1] = {HPF_CYCLIC}, cp[1] = {1};
        int r = dad(1, rext, cd, cp);
        int *res = calloc(M, sizeof(int));
        double rw[M], iw[M];
        int rcopy = dad(1, rext, (int[]){HPF_COLLAPSED}, (int[]){0});
        EXPECT(hpf_reduce_dim(HPF_OP_COUNT, a, HPF_INTEGER4, mask, NULL, 2, r, res), HPF_OK);
        int whole_i[M];
        EXPECT(hpf_copy(r, res, rcopy, whole_i, HPF_INTEGER4), HPF_OK);
        int bad = 0;
        for (int i = 1; i <= M; i++) {
            int want = 0;
            for (int j = 1; j <= N; j++) want += (i + j) % 2 == 0;
            bad += whole_i[i - 1] != want;
        }
        CHECK(bad == 0, "COUNT DIM 2: %d cells wrong", bad);
        EXPECT(hpf_reduce_dim(HPF_OP_ANY, a, HPF_INTEGER4, mask, NULL, 2, r, res), HPF_OK);
        EXPECT(hpf_copy(r, res, rcopy, whole_i, HPF_INTEGER4), HPF_OK);
        bad = 0;
        for (int i = 0; i < M; i++) bad += whole_i[i] != 1;
        CHECK(bad == 0, "ANY DIM 2: %d cells wrong", bad);
        /* Errors: DIM 3 of a rank-2 array; a result of the wrong shape. */
        EXPECT(hpf_reduce_dim(HPF_OP_SUM, a, HPF_REAL8, x, NULL, 3, r, rw), HPF_EBADARG);
        EXPECT(hpf_reduce_dim(HPF_OP_SUM, a, HPF_REAL8, x, NULL, 1, r, iw), HPF_EMISMATCH);
        char msg[200];
        hpf_error_message(msg, sizeof msg);
        CHECK(strstr(msg, "DIM 1") != NULL, "message names DIM: %s", msg);
        free(res);
        hpf_dad_free(r), hpf_dad_free(rcopy);
    }

    /* MAXLOC along DIM 1 with MASK into a BLOCK vector on grid dimension
     * 1; MINLOC with MASK over the whole array. */
    {
        long long rext[1] = {N};
        int bd[1] = {HPF_BLOCK}, bp[1] = {1};
        int r = dad(1, rext, bd, bp);
        int rcopy = dad(1, rext, (int[]){HPF_COLLAPSED}, (int[]){0});
        long long *res = calloc(N, sizeof(long long)), whole_l[N];
        EXPECT(hpf_maxloc_dim(a, HPF_REAL8, x, mask, 1, r, res), HPF_OK);
        EXPECT(hpf_copy(r, res, rcopy, whole_l, HPF_INTEGER8), HPF_OK);
        int bad = 0;
        for (int j = 1; j <= N; j++) {
            int best = 0;
            for (int i = 1; i <= M; i++)
                if ((i + j) % 2 == 0 && (best == 0 || f(i, j) > f(best, j))) best = i;
            bad += whole_l[j - 1] != best;
        }
        CHECK(bad == 0, "MAXLOC DIM 1 with MASK: %d cells wrong", bad);
        long long pos[2] = {-1, -1};
        EXPECT(hpf_minloc_mask(a, HPF_REAL8, x, mask, pos), HPF_OK);
        int bi = 0, bj = 0;
        for (int j = 1; j <= N; j++)
            for (int i = 1; i <= M; i++)
                if ((i + j) % 2 == 0 && (bi == 0 || f(i, j) < f(bi, bj))) bi = i, bj = j;
        CHECK(pos[0] == bi && pos[1] == bj, "MINLOC with MASK (%lld,%lld) != (%d,%d)", pos[0],
              pos[1], bi, bj);
        free(res);
        hpf_dad_free(r), hpf_dad_free(rcopy);
    }

    free(x), free(y), free(mk), free(mask);
    hpf_dad_free(a);
    printf("hpf_intrinsics rank %d: %d passed, %d failed\n", rank, passed, failed);
    hpf_finalize();
    return failed != 0;
}
