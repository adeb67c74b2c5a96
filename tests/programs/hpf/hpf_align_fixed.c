/* Alignment with a fixed position on a template dimension no array
 * dimension uses (hpf_dad_align onto a hpf_dad_template_at section), on a
 * 2-D grid (1x2 on two
 * processes, so the fixed dimension has two coordinates) with the
 * template T(1:12, 1:5) on (BLOCK, BLOCK):
 *
 * - A(1:12) WITH T(i, 3), overlap 1: only the grid column owning T(:, 3)
 *   holds A, the other processes hold nothing; COPY to and from a
 *   collapsed vector, SUM, MAXLOC, CSHIFT, a periodic overlap update,
 *   gather and scatter through an index array, all equal to the serial
 *   results;
 * - B(1:5, 1:4) with B(i, :) WITH T(2i, 4) (dimension 2 collapsed):
 *   SUM along DIM 2 (natural result DAD and a whole one), MATMUL by a
 *   collapsed 4x3 matrix into C aligned like B, equal to the serial ones;
 * - error codes: a position outside the template, a dimension named
 *   twice or out of range, every dimension fixed, a count below 1, NULL
 *   positions.
 *
 * Prints "hpf_align_fixed rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"

static int grid, me, coords[2], dims[2] = {0, 0};

/* The grid coordinate along dimension 1 of the owner of T(i, j). */
static int t_col(int t, long long i, long long j)
{
    long long g[2] = {i, j}, off = 0;
    int owner = -1;
    EXPECT(hpf_dad_owner(t, g, &owner, &off), HPF_OK);
    return owner % dims[1];
}

/* The collapsed DAD of an array of the given extents (rank 1 or 2). */
static int whole(int rank, long long n0, long long n1)
{
    long long lb[2] = {1, 1}, ext[2] = {n0, n1};
    int d[2] = {HPF_COLLAPSED, HPF_COLLAPSED}, p[2] = {0, 0}, w = -1;
    EXPECT(hpf_dad_create(grid, rank, lb, ext, d, NULL, p, NULL, NULL, &w), HPF_OK);
    return w;
}

/* The section T(:, pos) of the rank-2 template t. */
static int column_of(int t, long long pos)
{
    int two[1] = {2}, s = -1;
    long long at[1] = {pos};
    EXPECT(hpf_dad_template_at(t, 1, two, at, &s), HPF_OK);
    return s;
}

static long long local_size(int d)
{
    long long n = -1;
    EXPECT(hpf_dad_local_size(d, &n), HPF_OK);
    return n;
}

static void vector_on_one_column(int t)
{
    enum { N = 12 };
    long long lb[1] = {1}, ext[1] = {N}, st[1] = {1}, of[1] = {0};
    int td[1] = {1}, ov[1] = {1}, a = -1, s = column_of(t, 3);
    EXPECT(hpf_dad_align(s, 1, lb, ext, td, st, of, ov, ov, &a), HPF_OK);
    int holder = coords[1] == t_col(t, 1, 3);
    long long cnt = -1;
    hpf_dad_local_shape(a, &cnt, NULL, NULL);
    if (!holder) {
        CHECK(local_size(a) == 0 && cnt == 0, "A held off its column: size %lld, count %lld",
              local_size(a), cnt);
    }
    int w = whole(1, N, 1);
    double all[N], back[N], want_sum = 0;
    for (int i = 0; i < N; i++) {
        all[i] = (double)((i * 7) % 12) + 0.5;
        want_sum += all[i];
    }
    /* COPY in: the holders get the elements of their rows. */
    double *x = local_buffer(a, sizeof(double));
    EXPECT(hpf_copy(w, all, a, x, HPF_REAL8), HPF_OK);
    int bad = 0;
    for (long long l = 0; l < cnt; l++) {
        long long g = 0;
        hpf_dad_local_to_global(a, 1, l, &g);
        bad += x[l + 1] != all[g - 1];
        bad += t_col(t, g, 3) != coords[1];
    }
    CHECK(bad == 0, "COPY into A WITH T(i, 3): %d cells wrong", bad);
    if (holder && N >= dims[0]) CHECK(cnt > 0, "a holder of A owns nothing");
    /* COPY out to every process, SUM and MAXLOC everywhere. */
    EXPECT(hpf_copy(a, x, w, back, HPF_REAL8), HPF_OK);
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != all[i];
    CHECK(bad == 0, "COPY out of A: %d cells wrong", bad);
    double sum = -1;
    EXPECT(hpf_sum(a, HPF_REAL8, x, &sum), HPF_OK);
    CHECK(sum == want_sum, "SUM(A) %g, serial %g", sum, want_sum);
    long long loc = -1;
    EXPECT(hpf_maxloc(a, HPF_REAL8, x, &loc), HPF_OK);
    long long want_loc = 1;
    for (int i = 1; i < N; i++)
        if (all[i] > all[want_loc - 1]) want_loc = i + 1;
    CHECK_EQ(loc, want_loc, "MAXLOC(A)");
    /* CSHIFT by 5. */
    double *y = local_buffer(a, sizeof(double));
    EXPECT(hpf_cshift(a, HPF_REAL8, x, y, 5, 1), HPF_OK);
    EXPECT(hpf_copy(a, y, w, back, HPF_REAL8), HPF_OK);
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != all[(i + 5) % N];
    CHECK(bad == 0, "CSHIFT(A, 5): %d cells wrong", bad);
    /* Periodic overlap update on the holders. */
    int periodic[1] = {1};
    EXPECT(hpf_shift_overlap(a, HPF_REAL8, x, periodic), HPF_OK);
    if (cnt > 0) {
        long long g0 = 0, g1 = 0;
        hpf_dad_local_to_global(a, 1, 0, &g0);
        hpf_dad_local_to_global(a, 1, cnt - 1, &g1);
        CHECK(x[0] == all[(g0 - 2 + N) % N] && x[cnt + 1] == all[g1 % N],
              "overlap of A: %g %g", x[0], x[cnt + 1]);
    }
    /* Gather R(k) = A(V(k)) with V reversed, R and V collapsed. */
    long long v[N];
    double r[N], b[N];
    for (int k = 0; k < N; k++) v[k] = N - k;
    EXPECT(hpf_gather(a, x, w, v, N, HPF_INTEGER8, w, r, HPF_REAL8), HPF_OK);
    bad = 0;
    for (int k = 0; k < N; k++) bad += r[k] != all[N - 1 - k];
    CHECK(bad == 0, "gather A(V): %d cells wrong", bad);
    /* Scatter A(V(k)) = B(k) with V reversed. */
    for (int k = 0; k < N; k++) b[k] = -(double)k;
    EXPECT(hpf_scatter(w, b, w, v, N, HPF_INTEGER8, a, x, HPF_REAL8), HPF_OK);
    EXPECT(hpf_copy(a, x, w, back, HPF_REAL8), HPF_OK);
    bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != -(double)(N - 1 - i);
    CHECK(bad == 0, "scatter into A(V): %d cells wrong", bad);
    free(x), free(y);
    hpf_dad_free(a), hpf_dad_free(w), hpf_dad_free(s);
}

static void matrix_on_one_column(int t)
{
    enum { M = 5, K = 4, N = 3 };
    long long lb[2] = {1, 1}, ext[2] = {M, K}, st[2] = {2, 0}, of[2] = {0, 0};
    int td[2] = {1, 0}, b = -1, col = column_of(t, 4);
    EXPECT(hpf_dad_align(col, 2, lb, ext, td, st, of, NULL, NULL, &b), HPF_OK);
    int holder = coords[1] == t_col(t, 2, 4);
    if (!holder) CHECK(local_size(b) == 0, "B held off its column");
    double all[M * K];
    for (int j = 0; j < K; j++)
        for (int i = 0; i < M; i++) all[i + M * j] = (double)(3 * i - 2 * j + 1);
    int wb = whole(2, M, K);
    double *x = local_buffer(b, sizeof(double));
    EXPECT(hpf_copy(wb, all, b, x, HPF_REAL8), HPF_OK);
    struct cells2 cb = owned_cells2(b);
    int bad = 0;
    for (long long q = 0; q < cb.n; q++) {
        bad += x[cb.at[q]] != all[(cb.gi[q] - 1) + M * (cb.gj[q] - 1)];
        bad += t_col(t, 2 * cb.gi[q], 4) != coords[1];
    }
    CHECK(bad == 0, "B(i, :) WITH T(2i, 4): %d cells wrong or elsewhere", bad);
    /* SUM(B, DIM=2) on the natural DAD and on a collapsed one. */
    int nat = -1, wr = whole(1, M, 1);
    EXPECT(hpf_reduced_dad(b, 2, &nat), HPF_OK);
    if (!holder) CHECK(local_size(nat) == 0, "the natural result held off the column");
    double *s = local_buffer(nat, sizeof(double)), sw[M];
    EXPECT(hpf_reduce_dim(HPF_OP_SUM, b, HPF_REAL8, x, NULL, 2, nat, s), HPF_OK);
    EXPECT(hpf_reduce_dim(HPF_OP_SUM, b, HPF_REAL8, x, NULL, 2, wr, sw), HPF_OK);
    long long ns = 0;
    hpf_dad_local_shape(nat, &ns, NULL, NULL);
    bad = 0;
    for (int i = 0; i < M; i++) {
        double want = 0;
        for (int j = 0; j < K; j++) want += all[i + M * j];
        bad += sw[i] != want;
    }
    for (long long l = 0; l < ns; l++) {
        long long g = 0;
        hpf_dad_local_to_global(nat, 1, l, &g);
        double want = 0;
        for (int j = 0; j < K; j++) want += all[(g - 1) + M * j];
        bad += s[l] != want;
    }
    CHECK(bad == 0, "SUM(B, DIM=2): %d cells wrong", bad);
    /* C = MATMUL(B, Y), Y(4x3) collapsed, C aligned like B. */
    double yv[K * N], cw[M * N];
    for (int j = 0; j < N; j++)
        for (int k = 0; k < K; k++) yv[k + K * j] = (double)(k + 2 * j - 1);
    int wy = whole(2, K, N), wc = whole(2, M, N), c = -1;
    long long cext[2] = {M, N};
    EXPECT(hpf_dad_align(col, 2, lb, cext, td, st, of, NULL, NULL, &c), HPF_OK);
    double *z = local_buffer(c, sizeof(double)), want[M * N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            want[i + M * j] = 0;
            for (int k = 0; k < K; k++) want[i + M * j] += all[i + M * k] * yv[k + K * j];
        }
    /* Into C aligned like B, then into a collapsed result. */
    for (int into_c = 1; into_c >= 0; into_c--) {
        if (into_c) {
            EXPECT(hpf_matmul(b, x, wy, yv, c, z, HPF_REAL8), HPF_OK);
            EXPECT(hpf_copy(c, z, wc, cw, HPF_REAL8), HPF_OK);
        } else {
            EXPECT(hpf_matmul(b, x, wy, yv, wc, cw, HPF_REAL8), HPF_OK);
        }
        bad = 0;
        for (int q = 0; q < M * N; q++) bad += cw[q] != want[q];
        CHECK(bad == 0, "MATMUL(B, Y) into %s: %d cells wrong",
              into_c ? "C WITH T(2i, 4)" : "a collapsed C", bad);
    }
    free(x), free(s), free(z);
    free_cells2(cb);
    hpf_dad_free(b), hpf_dad_free(nat), hpf_dad_free(c), hpf_dad_free(col);
    hpf_dad_free(wb), hpf_dad_free(wr), hpf_dad_free(wy), hpf_dad_free(wc);
}

static void errors(int t)
{
    int two[2] = {2, 1}, one[1] = {1}, three[1] = {3}, twice[2] = {2, 2}, d = -1;
    long long outside[1] = {6}, inside[2] = {2, 3};
    EXPECT(hpf_dad_template_at(t, 1, two, outside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(t, 1, three, inside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(t, 2, twice, inside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(t, 2, two, inside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(t, 0, one, inside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(t, 1, NULL, inside, &d), HPF_EBADARG);
    EXPECT(hpf_dad_template_at(9999, 1, one, inside, &d), HPF_EBADHANDLE);
}

int main(void)
{
    if (hpf_init() != HPF_OK) return 2;
    int n = 0;
    hpf_nprocs(&n);
    if (n == 2) dims[0] = 1;
    EXPECT(hpf_grid_create(2, dims, &grid), HPF_OK);
    hpf_grid_info(grid, &me, coords);
    tally_who = me;

    long long tlb[2] = {1, 1}, text[2] = {12, 5};
    int tdist[2] = {HPF_BLOCK, HPF_BLOCK}, tpdim[2] = {0, 1}, t = -1;
    EXPECT(hpf_dad_create(grid, 2, tlb, text, tdist, NULL, tpdim, NULL, NULL, &t), HPF_OK);
    vector_on_one_column(t);
    matrix_on_one_column(t);
    errors(t);
    hpf_dad_free(t);
    printf("hpf_align_fixed rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
