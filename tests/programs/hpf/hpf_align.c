/* Alignment to a template through hpf_dad_align, on a 2-D grid with the
 * template T(0:19, 1:6) on (BLOCK, BLOCK):
 *
 * - A(1:9) WITH T(2i + 1, *): every element on the grid row of its
 *   template cell, replicated along the other grid dimension; a copy to a
 *   collapsed DAD and SUM equal to the serial values;
 * - B(1:6, 1:4) WITH T(i + 3, j + 1) with an overlap area, and the
 *   transposed C(j, i) WITH T(i, j): each element on the process of its
 *   template cell; TRANSPOSE between B and an array aligned like C;
 * - D(1:11) WITH T2(-2i + 25) on a CYCLIC(3) template: each element on
 *   its cell's grid row, local order rising, copied whole, SUM, CSHIFT;
 *   an overlap area there refused; E(1:5) WITH T2(7) (stride 0) all on
 *   one grid row; F(i, j) WITH T3(i + 3, j + 1) on (CYCLIC, BLOCK);
 * - error codes: cells outside the template (also by a negative stride),
 *   a template dimension out of range or used twice, a bad handle.
 *
 * Prints "hpf_align rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

static int grid, me, dims[2] = {0, 0};

/* Grid row (coordinate 0) of grid rank r (ranks are row-major). */
static int coord0(int r) { return r / dims[1]; }

/* The grid rank owning T(i, j). */
static int t_owner(int t, long long i, long long j)
{
    long long g[2] = {i, j}, off = 0;
    int owner = -1;
    EXPECT(hpf_dad_owner(t, g, &owner, &off), HPF_OK);
    return owner;
}

/* The collapsed DAD of a vector V(1:n). */
static int whole1(long long n)
{
    long long lb[1] = {1}, ext[1] = {n};
    int d[1] = {HPF_COLLAPSED}, p[1] = {0}, w = -1;
    EXPECT(hpf_dad_create(grid, 1, lb, ext, d, NULL, p, NULL, NULL, &w), HPF_OK);
    return w;
}

/* V(1:n) (DAD v) aligned WITH T(stride*i + offset, ..) of template t:
 * sets V(i) = i*i; checks that each element lies on the grid row of its
 * template cell, in rising local order, and that V copied whole onto
 * the collapsed DAD w and SUM(V) equal the serial ones. Returns the
 * local buffer. */
static double *squares_with_their_cells(const char *name, int v, int t, long long stride,
                                        long long offset, long long n, int w)
{
    long long cnt = 0, prev = 0;
    hpf_dad_local_shape(v, &cnt, NULL, NULL);
    double *x = local_buffer(v, sizeof(double)), all[32], sum = -1, want = 0;
    int bad = 0;
    for (long long l = 0; l < cnt; l++) {
        long long g = 0;
        hpf_dad_local_to_global(v, 1, l, &g);
        bad += coord0(t_owner(t, stride * g + offset, 1)) != coord0(me);
        bad += g <= prev;
        prev = g;
        x[l] = (double)(g * g);
    }
    CHECK(bad == 0, "%s(i) with T(%lld i + %lld): %d elements elsewhere or out of order", name,
          stride, offset, bad);
    EXPECT(hpf_copy(v, x, w, all, HPF_REAL8), HPF_OK);
    bad = 0;
    for (long long i = 1; i <= n; i++) {
        bad += all[i - 1] != (double)(i * i);
        want += (double)(i * i);
    }
    CHECK(bad == 0, "aligned %s copied whole: %d cells wrong", name, bad);
    EXPECT(hpf_sum(v, HPF_REAL8, x, &sum), HPF_OK);
    CHECK(sum == want, "SUM of aligned %s: %g", name, sum);
    return x;
}

int main(void)
{
    if (start_grid(2, dims, &grid, &me) != 0) return 2;

    long long tlb[2] = {0, 1}, text[2] = {20, 6};
    int tdist[2] = {HPF_BLOCK, HPF_BLOCK}, tpdim[2] = {0, 1}, t = -1;
    EXPECT(hpf_dad_create(grid, 2, tlb, text, tdist, NULL, tpdim, NULL, NULL, &t), HPF_OK);

    /* A(1:9) WITH T(2i + 1, *). */
    {
        long long lb[1] = {1}, ext[1] = {9}, st[1] = {2}, of[1] = {1};
        int td[1] = {1}, a = -1;
        EXPECT(hpf_dad_align(t, 1, lb, ext, td, st, of, NULL, NULL, &a), HPF_OK);
        int w = whole1(9);
        free(squares_with_their_cells("A", a, t, 2, 1, 9, w));
        hpf_dad_free(a), hpf_dad_free(w);
    }

    /* B(1:6, 1:4) WITH T(i + 3, j + 1), overlap 1; C(j, i) WITH T(i, j)
     * for i in 1:6 shifted the same way: C(1:4, 1:6) with dimension 1 on
     * template dimension 2 and dimension 2 on template dimension 1. */
    {
        long long lb[2] = {1, 1}, ext[2] = {6, 4}, st[2] = {1, 1}, of[2] = {3, 1};
        int td[2] = {1, 2}, ov[2] = {1, 1}, b = -1;
        EXPECT(hpf_dad_align(t, 2, lb, ext, td, st, of, ov, ov, &b), HPF_OK);
        long long cext[2] = {4, 6}, cof[2] = {1, 3};
        int ctd[2] = {2, 1}, c = -1;
        EXPECT(hpf_dad_align(t, 2, lb, cext, ctd, st, cof, NULL, NULL, &c), HPF_OK);
        long long cnt[2] = {0, 0}, alloc[2] = {0, 0}, stride[2] = {0, 0};
        hpf_dad_local_shape(b, cnt, alloc, stride);
        double *y = local_buffer(b, sizeof(double));
        int bad = 0;
        for (long long jj = 0; jj < cnt[1]; jj++)
            for (long long ii = 0; ii < cnt[0]; ii++) {
                long long gi = 0, gj = 0;
                hpf_dad_local_to_global(b, 1, ii, &gi);
                hpf_dad_local_to_global(b, 2, jj, &gj);
                bad += t_owner(t, gi + 3, gj + 1) != me;
                y[(ii + 1) * stride[0] + (jj + 1) * stride[1]] = (double)(10 * gi + gj);
            }
        CHECK(bad == 0, "B(i, j) with T(i+3, j+1): %d elements elsewhere", bad);
        struct cells2 cc = owned_cells2(c);
        bad = 0;
        for (long long q = 0; q < cc.n; q++)
            bad += t_owner(t, cc.gj[q] + 3, cc.gi[q] + 1) != me;
        CHECK(bad == 0, "C(j, i) with T(i+3, j+1): %d elements elsewhere", bad);
        /* C = TRANSPOSE(B): aligned alike, so every cell stays local. */
        double *z = local_buffer(c, sizeof(double));
        EXPECT(hpf_transpose(b, y, c, z, HPF_REAL8), HPF_OK);
        bad = 0;
        for (long long q = 0; q < cc.n; q++)
            bad += z[cc.at[q]] != (double)(10 * cc.gj[q] + cc.gi[q]);
        CHECK(bad == 0, "TRANSPOSE onto the transposed alignment: %d cells wrong", bad);
        /* The overlap area of B fills from the neighbours. */
        EXPECT(hpf_shift_overlap(b, HPF_REAL8, y, NULL), HPF_OK);
        bad = 0;
        for (long long ii = 0; ii < cnt[0] && cnt[1] > 0; ii++) {
            long long gi = 0;
            hpf_dad_local_to_global(b, 1, ii, &gi);
            long long gj = 0;
            hpf_dad_local_to_global(b, 2, cnt[1] - 1, &gj);
            if (gj < 4) bad += y[(ii + 1) * stride[0] + cnt[1] * stride[1] + stride[1]] !=
                               (double)(10 * gi + gj + 1);
        }
        CHECK(bad == 0, "overlap of aligned B past its last column: %d wrong", bad);
        free(y), free(z);
        free_cells2(cc);
        hpf_dad_free(b), hpf_dad_free(c);
    }

    /* D(1:11) WITH T2(-2i + 25) on a CYCLIC(3) template T2(1:30): cells
     * 23, 21, .., 3 from the top down; E(1:5) WITH T2(7), all on one
     * grid row; F(1:6, 1:4) WITH T3(i + 3, j + 1) on a (CYCLIC, BLOCK)
     * template. */
    {
        long long t2lb[1] = {1}, t2ext[1] = {30};
        int t2dist[1] = {HPF_CYCLIC_K}, t2blk[1] = {3}, t2pd[1] = {0}, t2 = -1;
        EXPECT(hpf_dad_create(grid, 1, t2lb, t2ext, t2dist, t2blk, t2pd, NULL, NULL, &t2), HPF_OK);
        long long lb[1] = {1}, ext[1] = {11}, st[1] = {-2}, of[1] = {25};
        int td[1] = {1}, d = -1;
        EXPECT(hpf_dad_align(t2, 1, lb, ext, td, st, of, NULL, NULL, &d), HPF_OK);
        int w = whole1(11);
        double *x = squares_with_their_cells("D", d, t2, -2, 25, 11, w), all[11];
        long long cnt = 0;
        double *y = local_buffer(d, sizeof(double));
        EXPECT(hpf_cshift(d, HPF_REAL8, x, y, 2, 1), HPF_OK);
        EXPECT(hpf_copy(d, y, w, all, HPF_REAL8), HPF_OK);
        int bad = 0;
        for (int i = 1; i <= 11; i++) {
            int j = 1 + (i - 1 + 2) % 11;
            bad += all[i - 1] != (double)(j * j);
        }
        CHECK(bad == 0, "CSHIFT(D, 2): %d cells wrong", bad);
        /* An overlap area where a process owns several runs (so on more
         * than one grid row): refused. */
        int ov[1] = {1}, dx = -1;
        EXPECT(hpf_dad_align(t2, 1, lb, ext, td, st, of, ov, ov, &dx),
               dims[0] > 1 ? HPF_EBADARG : HPF_OK);
        if (dims[0] == 1) hpf_dad_free(dx);
        free(x), free(y);
        hpf_dad_free(d);

        long long elb[1] = {1}, eext[1] = {5}, zero[1] = {0}, seven[1] = {7};
        int e = -1;
        EXPECT(hpf_dad_align(t2, 1, elb, eext, td, zero, seven, NULL, NULL, &e), HPF_OK);
        hpf_dad_local_shape(e, &cnt, NULL, NULL);
        int home = coord0(t_owner(t2, 7, 1)) == coord0(me);
        CHECK(cnt == (home ? 5 : 0), "E WITH T2(7): %lld elements here (home %d)", cnt, home);
        double *z = local_buffer(e, sizeof(double));
        for (long long l = 0; l < cnt; l++) z[l] = (double)(3 * (l + 1));
        int w5 = whole1(5);
        EXPECT(hpf_copy(e, z, w5, all, HPF_REAL8), HPF_OK);
        hpf_dad_free(w5);
        bad = 0;
        for (int i = 1; i <= 5; i++) bad += all[i - 1] != (double)(3 * i);
        CHECK(bad == 0, "E copied whole: %d cells wrong", bad);
        free(z);
        hpf_dad_free(e), hpf_dad_free(w), hpf_dad_free(t2);

        int cyc[2] = {HPF_CYCLIC, HPF_BLOCK}, t3 = -1;
        EXPECT(hpf_dad_create(grid, 2, tlb, text, cyc, NULL, tpdim, NULL, NULL, &t3), HPF_OK);
        long long flb[2] = {1, 1}, fext[2] = {6, 4}, fst[2] = {1, 1}, fof[2] = {3, 1};
        int ftd[2] = {1, 2}, f = -1;
        EXPECT(hpf_dad_align(t3, 2, flb, fext, ftd, fst, fof, NULL, NULL, &f), HPF_OK);
        struct cells2 fc = owned_cells2(f);
        bad = 0;
        for (long long q = 0; q < fc.n; q++) bad += t_owner(t3, fc.gi[q] + 3, fc.gj[q] + 1) != me;
        CHECK(bad == 0, "F(i, j) with T3(i+3, j+1) on (CYCLIC, BLOCK): %d elsewhere", bad);
        free_cells2(fc);
        hpf_dad_free(f), hpf_dad_free(t3);
    }

    /* Errors. */
    {
        long long lb[2] = {1, 1}, ext[2] = {6, 4}, st[2] = {1, 1}, of[2] = {3, 1};
        int td[2] = {1, 2}, d = -1;
        long long far[2] = {15, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, td, st, far, NULL, NULL, &d), HPF_EBADARG);
        long long down[2] = {-1, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, td, down, of, NULL, NULL, &d), HPF_EBADARG);
        int three[2] = {1, 3}, twice[2] = {1, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, three, st, of, NULL, NULL, &d), HPF_EBADARG);
        EXPECT(hpf_dad_align(t, 2, lb, ext, twice, st, of, NULL, NULL, &d), HPF_EBADARG);
        EXPECT(hpf_dad_align(9999, 2, lb, ext, td, st, of, NULL, NULL, &d), HPF_EBADHANDLE);
    }

    hpf_dad_free(t);
    printf("hpf_align rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
