/* Gather and scatter through index arrays of hpf_rts.h from C, each
 * against a serial computation every process does itself:
 *
 * - R = A(V) for a BLOCK vector A with lower bound -3 and an overlap area,
 *   V on CYCLIC (subscripts repeated), R on BLOCK; V as int and as long
 *   long;
 * - the same planned once (hpf_gather_plan) and executed twice, the
 *   second time on new values of A;
 * - A(V) = B with distinct subscripts, B on CYCLIC(2): the named cells
 *   take B, the others keep their values;
 * - A(V) = B with a repeated subscript: the cell gets one of the values
 *   sent to it, every other cell is exact; the same with SUM_SCATTER
 *   (hpf_sum_scatter, and planned with hpf_index_execute_sum run twice):
 *   the cell gets the sum of its values; LOGICAL and a gather schedule
 *   refused;
 * - on an M x N (BLOCK, CYCLIC) array: R(s) = A(V1(s), V2(s)) with two
 *   index arrays of shape 3 x 4 on (CYCLIC, BLOCK) stored ldv apart (more
 *   than the local size), the vector-subscript form R(i,j) = A(U(i), W(j))
 *   written as such a pair, A(V1(s), V2(s)) = B(s), and SUM_SCATTER of
 *   the twelve values of B onto four cells;
 * - error codes: a subscript out of bounds on one process only (every
 *   process gets HPF_EBADARG), ldv below the local size, a REAL index
 *   type, a result of another shape, a freed schedule.
 *
 * Results are gathered with hpf_copy onto a collapsed DAD. Prints
 * "hpf_indexed rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

#define N 17  /* the vector A(-3:13) */
#define LB (-3)
#define K 11  /* subscripts in V */
#define M2 7  /* the matrix A2(M2, N2) */
#define N2 6

static int grid, me;

static int dad1(long long lb, long long ext, int dist, int olo)
{
    long long l[1] = {lb}, e[1] = {ext};
    int d[1] = {dist}, block[1] = {2}, pdim[1] = {0}, lo[1] = {olo}, hi[1] = {olo};
    int h = -1;
    EXPECT(hpf_dad_create(grid, 1, l, e, d, block, pdim, lo, hi, &h), HPF_OK);
    return h;
}

static int dad2(long long m, long long n, int d0, int d1)
{
    long long lb[2] = {1, 1}, ext[2] = {m, n};
    int dist[2] = {d0, d1}, block[2] = {2, 2}, pdim[2] = {0, 1}, h = -1;
    EXPECT(hpf_dad_create(grid, 2, lb, ext, dist, block, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

/* Global subscript of local index l of a rank-1 DAD. */
static long long g1(int d, long long l)
{
    long long g = 0;
    EXPECT(hpf_dad_local_to_global(d, 1, l, &g), HPF_OK);
    return g;
}

/* Offset of owned local index l of a rank-1 DAD (overlap skipped). */
static long long at1(int d, long long l)
{
    long long alloc = 0, count = 0;
    hpf_dad_local_shape(d, &count, &alloc, NULL);
    return l + (alloc - count) / 2;
}

static long long count1(int d)
{
    long long c = 0;
    hpf_dad_local_shape(d, &c, NULL, NULL);
    return c;
}

static long long local_size(int d)
{
    long long n = 0;
    hpf_dad_local_size(d, &n);
    return n;
}

/* The whole array on every process: rank 1 (A's bounds) or 2 (from 1). */
static void whole(int d, const double *buf, int rank, long long e0, long long e1, double *out)
{
    long long lb[2] = {1, 1}, ext[2] = {e0, e1};
    int dist[2] = {HPF_COLLAPSED, HPF_COLLAPSED}, pdim[2] = {0, 0}, w = -1;
    long long lbs[2] = {LB, 1};
    EXPECT(hpf_dad_create(grid, rank, rank == 1 ? lbs : lb, ext, dist, NULL, pdim, NULL, NULL,
                          &w),
           HPF_OK);
    EXPECT(hpf_copy(d, buf, w, out, HPF_REAL8), HPF_OK);
    hpf_dad_free(w);
}

static double fa(long long g) { return 1000.0 + (double)g * 7.0; }
static long long vsub(long long k) { return LB + (5 * k + 3) % N; } /* k from 1 */

/* Fills a rank-1 buffer from f(global subscript). */
static void fill1(int d, double *x, double (*f)(long long))
{
    for (long long l = 0; l < count1(d); l++) x[at1(d, l)] = f(g1(d, l));
}

static double fb(long long g) { return -5.0 * (double)g; }

/* The cells of the whole A in `all` that differ from fa(g) plus `times`
 * the sums SUM_SCATTER adds with the repeated subscripts V = (2, 9, 2, 4,
 * 9) and B = (100, 200, 300, 400, 500): A(2) 100 + 300, A(9) 200 + 500,
 * A(4) 400. */
static int wrong_sums(const double *all, double times)
{
    int bad = 0;
    for (long long g = LB; g < LB + N; g++) {
        double add = g == 2 ? 400.0 : g == 9 ? 700.0 : g == 4 ? 400.0 : 0.0;
        bad += all[g - LB] != fa(g) + times * add;
    }
    return bad;
}

int main(void)
{
    int dims2[2] = {0, 0};
    if (start_grid(2, dims2, &grid, &me) != 0) return 2;
    /* The vectors lie on grid dimension 0; its lines along dimension 1
     * hold replicas, which every operation must keep equal. */

    /* A: BLOCK with overlap 1, A(g) = fa(g). */
    int a = dad1(LB, N, HPF_BLOCK, 1);
    double *x = local_buffer(a, sizeof(double));
    fill1(a, x, fa);

    /* V on CYCLIC as int and as long long; R on BLOCK. */
    int vd = dad1(1, K, HPF_CYCLIC, 0), rd = dad1(1, K, HPF_BLOCK, 0);
    int *v4 = local_buffer(vd, sizeof(int));
    long long *v8 = local_buffer(vd, sizeof(long long));
    for (long long l = 0; l < count1(vd); l++) {
        v8[l] = vsub(g1(vd, l));
        v4[l] = (int)v8[l];
    }
    double *r = local_buffer(rd, sizeof(double)), got[K], want[K];
    for (int k = 1; k <= K; k++) want[k - 1] = fa(vsub(k));
    {
        EXPECT(hpf_gather(a, x, vd, v4, local_size(vd), HPF_INTEGER4, rd, r, HPF_REAL8), HPF_OK);
        long long lbk[1] = {1}, ek[1] = {K};
        int cd[1] = {HPF_COLLAPSED}, pd[1] = {0}, w = -1;
        EXPECT(hpf_dad_create(grid, 1, lbk, ek, cd, NULL, pd, NULL, NULL, &w), HPF_OK);
        EXPECT(hpf_copy(rd, r, w, got, HPF_REAL8), HPF_OK);
        int bad = 0;
        for (int k = 0; k < K; k++) bad += got[k] != want[k];
        CHECK(bad == 0, "R = A(V), int V: %d cells wrong", bad);

        for (long long l = 0; l < count1(rd); l++) r[l] = 0;
        EXPECT(hpf_gather(a, x, vd, v8, 0, HPF_INTEGER8, rd, r, HPF_REAL8), HPF_OK);
        EXPECT(hpf_copy(rd, r, w, got, HPF_REAL8), HPF_OK);
        bad = 0;
        for (int k = 0; k < K; k++) bad += got[k] != want[k];
        CHECK(bad == 0, "R = A(V), long long V: %d cells wrong", bad);

        /* Planned once, executed on A and then on new values of A. */
        int s = -1;
        EXPECT(hpf_gather_plan(a, vd, v8, local_size(vd), HPF_INTEGER8, rd, &s), HPF_OK);
        for (long long l = 0; l < count1(rd); l++) r[l] = 0;
        EXPECT(hpf_index_execute(s, x, r, HPF_REAL8), HPF_OK);
        EXPECT(hpf_copy(rd, r, w, got, HPF_REAL8), HPF_OK);
        bad = 0;
        for (int k = 0; k < K; k++) bad += got[k] != want[k];
        CHECK(bad == 0, "planned R = A(V), first run: %d cells wrong", bad);
        fill1(a, x, fb);
        EXPECT(hpf_index_execute(s, x, r, HPF_REAL8), HPF_OK);
        EXPECT(hpf_copy(rd, r, w, got, HPF_REAL8), HPF_OK);
        bad = 0;
        for (int k = 0; k < K; k++) bad += got[k] != fb(vsub(k + 1));
        CHECK(bad == 0, "planned R = A(V), second run on new A: %d cells wrong", bad);
        /* Source and destination swapped in memory: refused. */
        EXPECT(hpf_index_execute(s, x, x, HPF_REAL8), HPF_EBADARG);
        EXPECT(hpf_index_free(s), HPF_OK);
        EXPECT(hpf_index_execute(s, x, r, HPF_REAL8), HPF_EBADHANDLE);
        EXPECT(hpf_index_free(s), HPF_EBADHANDLE);
        hpf_dad_free(w);
    }

    /* A(V) = B with distinct subscripts: V(k) = LB + 3k - 1 for k = 1..5,
     * B(k) = 100 k on CYCLIC(2). */
    {
        fill1(a, x, fa);
        int sd = dad1(1, 5, HPF_CYCLIC, 0), bd = dad1(1, 5, HPF_CYCLIC_K, 0);
        long long *sv = local_buffer(sd, sizeof(long long));
        double *b = local_buffer(bd, sizeof(double));
        for (long long l = 0; l < count1(sd); l++) sv[l] = LB + 3 * g1(sd, l) - 1;
        for (long long l = 0; l < count1(bd); l++) b[l] = 100.0 * (double)g1(bd, l);
        EXPECT(hpf_scatter(bd, b, sd, sv, 0, HPF_INTEGER8, a, x, HPF_REAL8), HPF_OK);
        double all[N];
        whole(a, x, 1, N, 1, all);
        int bad = 0;
        for (long long g = LB; g < LB + N; g++) {
            long long k = (g - LB + 1) % 3 == 0 ? (g - LB + 1) / 3 : 0;
            double w = (k >= 1 && k <= 5) ? 100.0 * (double)k : fa(g);
            bad += all[g - LB] != w;
        }
        CHECK(bad == 0, "A(V) = B, distinct V: %d cells wrong", bad);

        /* A repeated subscript: V = (2, 9, 2, 4, 9) (from A's lower bound
         * -3: subscripts -3 + ...), B = (100, 200, 300, 400, 500). */
        long long rep[5] = {2, 9, 2, 4, 9};
        for (long long l = 0; l < count1(sd); l++) sv[l] = rep[g1(sd, l) - 1];
        fill1(a, x, fa);
        EXPECT(hpf_scatter(bd, b, sd, sv, 0, HPF_INTEGER8, a, x, HPF_REAL8), HPF_OK);
        whole(a, x, 1, N, 1, all);
        bad = 0;
        for (long long g = LB; g < LB + N; g++) {
            double c = all[g - LB];
            if (g == 2)
                bad += c != 100.0 && c != 300.0;
            else if (g == 9)
                bad += c != 200.0 && c != 500.0;
            else if (g == 4)
                bad += c != 400.0;
            else
                bad += c != fa(g);
        }
        CHECK(bad == 0, "A(V) = B, repeated V: %d cells wrong", bad);
        /* Every process holds the same whole array (the replicas agree):
         * MAXVAL and MINVAL of one value per process are equal only then. */
        double mine = all[2 - LB] + 2 * all[9 - LB], lo = 0, hi = 0;
        {
            long long lbg[2] = {0, 0}, eg[2] = {dims2[0], dims2[1]};
            int dg[2] = {HPF_BLOCK, HPF_BLOCK}, pg[2] = {0, 1}, gd = -1;
            EXPECT(hpf_dad_create(grid, 2, lbg, eg, dg, NULL, pg, NULL, NULL, &gd), HPF_OK);
            double one_each[1] = {mine};
            EXPECT(hpf_maxval(gd, HPF_REAL8, one_each, &hi), HPF_OK);
            EXPECT(hpf_minval(gd, HPF_REAL8, one_each, &lo), HPF_OK);
            hpf_dad_free(gd);
        }
        CHECK(lo == hi, "repeated subscripts: processes disagree (%g .. %g)", lo, hi);
        /* The same repeated subscripts adding (SUM_SCATTER): A(2) gets
         * 100 + 300, A(9) 200 + 500, A(4) 400 on top of their values. */
        fill1(a, x, fa);
        EXPECT(hpf_sum_scatter(bd, b, sd, sv, 0, HPF_INTEGER8, a, x, HPF_REAL8), HPF_OK);
        whole(a, x, 1, N, 1, all);
        bad = wrong_sums(all, 1.0);
        CHECK(bad == 0, "SUM_SCATTER, repeated V: %d cells wrong", bad);
        /* Planned once, run adding twice: twice the sums. */
        int s = -1;
        EXPECT(hpf_scatter_plan(bd, sd, sv, 0, HPF_INTEGER8, a, &s), HPF_OK);
        fill1(a, x, fa);
        EXPECT(hpf_index_execute_sum(s, b, x, HPF_REAL8), HPF_OK);
        EXPECT(hpf_index_execute_sum(s, b, x, HPF_REAL8), HPF_OK);
        whole(a, x, 1, N, 1, all);
        bad = wrong_sums(all, 2.0);
        CHECK(bad == 0, "planned SUM_SCATTER run twice: %d cells wrong", bad);
        /* Storing with the same schedule: one of the values per cell. */
        EXPECT(hpf_index_execute(s, b, x, HPF_REAL8), HPF_OK);
        whole(a, x, 1, N, 1, all);
        CHECK(all[4 - LB] == 400.0 && (all[2 - LB] == 100.0 || all[2 - LB] == 300.0),
              "planned scatter stores: A(4) %g, A(2) %g", all[4 - LB], all[2 - LB]);
        /* LOGICAL does not add; a gather schedule does not scatter. */
        int *lb8 = local_buffer(bd, sizeof(int)), *la = local_buffer(a, sizeof(int));
        EXPECT(hpf_index_execute_sum(s, lb8, la, HPF_LOGICAL), HPF_EBADARG);
        EXPECT(hpf_sum_scatter(bd, lb8, sd, sv, 0, HPF_INTEGER8, a, la, HPF_LOGICAL),
               HPF_EBADARG);
        EXPECT(hpf_index_free(s), HPF_OK);
        EXPECT(hpf_gather_plan(a, sd, sv, 0, HPF_INTEGER8, bd, &s), HPF_OK);
        EXPECT(hpf_index_execute_sum(s, x, b, HPF_REAL8), HPF_EBADARG);
        EXPECT(hpf_index_free(s), HPF_OK);
        free(lb8), free(la);
        free(sv), free(b);
        hpf_dad_free(sd), hpf_dad_free(bd);
    }

    /* Rank 2: A2(i, j) = 100 i + j on (BLOCK, CYCLIC). */
    {
        int a2 = dad2(M2, N2, HPF_BLOCK, HPF_CYCLIC);
        double *y = local_buffer(a2, sizeof(double));
        struct cells2 c = owned_cells2(a2);
        for (long long q = 0; q < c.n; q++) y[c.at[q]] = (double)(100 * c.gi[q] + c.gj[q]);
        int id = dad2(3, 4, HPF_CYCLIC, HPF_BLOCK), rd2 = dad2(3, 4, HPF_BLOCK, HPF_BLOCK);
        long long n = local_size(id), ldv = n + 2;
        int *v = calloc((size_t)(2 * ldv + 1), sizeof(int));
        struct cells2 ci = owned_cells2(id);
        /* V1(s, t) = 1 + (2s + t) mod M2, V2(s, t) = 1 + (s * t) mod N2. */
        for (long long q = 0; q < ci.n; q++) {
            v[ci.at[q]] = (int)(1 + (2 * ci.gi[q] + ci.gj[q]) % M2);
            v[ldv + ci.at[q]] = (int)(1 + (ci.gi[q] * ci.gj[q]) % N2);
        }
        double *r2 = local_buffer(rd2, sizeof(double)), got2[12];
        EXPECT(hpf_gather(a2, y, id, v, ldv, HPF_INTEGER4, rd2, r2, HPF_REAL8), HPF_OK);
        whole(rd2, r2, 2, 3, 4, got2);
        int bad = 0;
        for (long long t = 1; t <= 4; t++)
            for (long long s = 1; s <= 3; s++) {
                long long i = 1 + (2 * s + t) % M2, j = 1 + (s * t) % N2;
                bad += got2[(s - 1) + 3 * (t - 1)] != (double)(100 * i + j);
            }
        CHECK(bad == 0, "R(s) = A(V1(s), V2(s)): %d cells wrong", bad);

        /* The vector-subscript form R = A(U, W), U = (7, 1, 4), W = (2, 6,
         * 6, 3): V1(s, t) = U(s), V2(s, t) = W(t). */
        long long u[3] = {7, 1, 4}, wv[4] = {2, 6, 6, 3};
        for (long long q = 0; q < ci.n; q++) {
            v[ci.at[q]] = (int)u[ci.gi[q] - 1];
            v[ldv + ci.at[q]] = (int)wv[ci.gj[q] - 1];
        }
        EXPECT(hpf_gather(a2, y, id, v, ldv, HPF_INTEGER4, rd2, r2, HPF_REAL8), HPF_OK);
        whole(rd2, r2, 2, 3, 4, got2);
        bad = 0;
        for (int t = 0; t < 4; t++)
            for (int s = 0; s < 3; s++) bad += got2[s + 3 * t] != (double)(100 * u[s] + wv[t]);
        CHECK(bad == 0, "R = A(U, W): %d cells wrong", bad);

        /* A2(V1(s, t), V2(s, t)) = B(s, t) = -(s + 10 t), distinct pairs:
         * V1 = 2s (rows 2, 4, 6), V2 = t + 1 (columns 2 to 5). */
        int bd2 = dad2(3, 4, HPF_CYCLIC, HPF_CYCLIC);
        double *b2 = local_buffer(bd2, sizeof(double));
        struct cells2 cb = owned_cells2(bd2);
        for (long long q = 0; q < cb.n; q++) b2[cb.at[q]] = -(double)(cb.gi[q] + 10 * cb.gj[q]);
        for (long long q = 0; q < ci.n; q++) {
            v[ci.at[q]] = (int)(ci.gi[q] * 2);
            v[ldv + ci.at[q]] = (int)(ci.gj[q] + 1);
        }
        EXPECT(hpf_scatter(bd2, b2, id, v, ldv, HPF_INTEGER4, a2, y, HPF_REAL8), HPF_OK);
        double all2[M2 * N2];
        whole(a2, y, 2, M2, N2, all2);
        bad = 0;
        for (long long j = 1; j <= N2; j++)
            for (long long i = 1; i <= M2; i++) {
                double w = (double)(100 * i + j);
                if (i % 2 == 0 && i <= 6 && j >= 2 && j <= 5) w = -(double)(i / 2 + 10 * (j - 1));
                bad += all2[(i - 1) + M2 * (j - 1)] != w;
            }
        CHECK(bad == 0, "A(V1(s), V2(s)) = B(s): %d cells wrong", bad);

        /* SUM_SCATTER onto four cells: A2(1 + s mod 2, 1 + t mod 2) +=
         * B(s, t), B from above. */
        double *z = local_buffer(a2, sizeof(double));
        for (long long q = 0; q < c.n; q++) z[c.at[q]] = (double)(100 * c.gi[q] + c.gj[q]);
        for (long long q = 0; q < ci.n; q++) {
            v[ci.at[q]] = (int)(1 + ci.gi[q] % 2);
            v[ldv + ci.at[q]] = (int)(1 + ci.gj[q] % 2);
        }
        EXPECT(hpf_sum_scatter(bd2, b2, id, v, ldv, HPF_INTEGER4, a2, z, HPF_REAL8), HPF_OK);
        double sums[M2 * N2];
        for (long long j = 1; j <= N2; j++)
            for (long long i = 1; i <= M2; i++) sums[(i - 1) + M2 * (j - 1)] = (double)(100 * i + j);
        for (long long t = 1; t <= 4; t++)
            for (long long s = 1; s <= 3; s++)
                sums[(s % 2) + M2 * (t % 2)] += -(double)(s + 10 * t);
        whole(a2, z, 2, M2, N2, all2);
        bad = 0;
        for (int p = 0; p < M2 * N2; p++) bad += all2[p] != sums[p];
        CHECK(bad == 0, "SUM_SCATTER through (V1, V2): %d cells wrong", bad);
        free(z);

        /* ldv below the local size where the local size is not 0. */
        int rc = hpf_gather(a2, y, id, v, 0, HPF_INTEGER4, rd2, r2, HPF_REAL8);
        CHECK(rc == HPF_EBADARG, "ldv 0 for two index arrays: %d", rc);
        /* A subscript past A2's rows on grid rank 0 only. */
        int saved = v[0];
        if (me == 0 && ci.n > 0) v[0] = M2 + 1;
        rc = hpf_gather(a2, y, id, v, ldv, HPF_INTEGER4, rd2, r2, HPF_REAL8);
        CHECK(rc == HPF_EBADARG, "subscript M2+1 on one process: %d", rc);
        v[0] = saved;
        /* Index arrays of REAL type. */
        rc = hpf_gather(a2, y, id, v, ldv, HPF_REAL4, rd2, r2, HPF_REAL8);
        CHECK(rc == HPF_EBADARG, "REAL index arrays: %d", rc);
        /* A result of another shape than the index arrays. */
        int other = dad2(4, 3, HPF_BLOCK, HPF_BLOCK);
        double *ro = local_buffer(other, sizeof(double));
        rc = hpf_gather(a2, y, id, v, ldv, HPF_INTEGER4, other, ro, HPF_REAL8);
        CHECK(rc == HPF_EMISMATCH, "result of another shape: %d", rc);
        /* Still in step after the errors: one more gather works. */
        EXPECT(hpf_gather(a2, y, id, v, ldv, HPF_INTEGER4, rd2, r2, HPF_REAL8), HPF_OK);

        free(ro), free(b2), free(r2), free(v), free(y);
        free_cells2(c), free_cells2(ci), free_cells2(cb);
        hpf_dad_free(a2), hpf_dad_free(id), hpf_dad_free(rd2), hpf_dad_free(bd2),
            hpf_dad_free(other);
    }

    /* A subscript below A's lower bound on the last process only. */
    {
        fill1(a, x, fa);
        int n = 0;
        hpf_nprocs(&n);
        for (long long l = 0; l < count1(vd); l++) v8[l] = LB;
        if (me == n - 1 && count1(vd) > 0) v8[0] = LB - 1;
        int rc = hpf_gather(a, x, vd, v8, 0, HPF_INTEGER8, rd, r, HPF_REAL8);
        CHECK(rc == HPF_EBADARG, "subscript LB-1 on the last process: %d", rc);
    }

    free(x), free(v4), free(v8), free(r);
    hpf_dad_free(a), hpf_dad_free(vd), hpf_dad_free(rd);
    printf("hpf_indexed rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
