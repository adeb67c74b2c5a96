/* Alignment to a template through hpf_dad_align, on a 2-D grid with the
 * template T(0:19, 1:6) on (BLOCK, BLOCK):
 *
 * - A(1:9) WITH T(2i + 1, *): every element on the grid row of its
 *   template cell, replicated along the other grid dimension; a copy to a
 *   collapsed DAD and SUM equal to the serial values;
 * - B(1:6, 1:4) WITH T(i + 3, j + 1) with an overlap area, and the
 *   transposed C(j, i) WITH T(i, j): each element on the process of its
 *   template cell; TRANSPOSE between B and an array aligned like C;
 * - error codes: stride 0, a cell outside the template, a template
 *   dimension out of range or used twice, a CYCLIC template, a bad handle.
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
        long long cnt = 0;
        hpf_dad_local_shape(a, &cnt, NULL, NULL);
        double *x = local_buffer(a, sizeof(double));
        int bad = 0;
        for (long long l = 0; l < cnt; l++) {
            long long g = 0;
            hpf_dad_local_to_global(a, 1, l, &g);
            bad += coord0(t_owner(t, 2 * g + 1, 1)) != coord0(me);
            x[l] = (double)(g * g);
        }
        CHECK(bad == 0, "A(i) on the grid row of T(2i+1, *): %d elements elsewhere", bad);
        long long wlb[1] = {1}, wext[1] = {9};
        int wd[1] = {HPF_COLLAPSED}, wp[1] = {0}, w = -1;
        EXPECT(hpf_dad_create(grid, 1, wlb, wext, wd, NULL, wp, NULL, NULL, &w), HPF_OK);
        double all[9], sum = -1;
        EXPECT(hpf_copy(a, x, w, all, HPF_REAL8), HPF_OK);
        bad = 0;
        for (int i = 1; i <= 9; i++) bad += all[i - 1] != (double)(i * i);
        CHECK(bad == 0, "aligned A copied whole: %d cells wrong", bad);
        EXPECT(hpf_sum(a, HPF_REAL8, x, &sum), HPF_OK);
        CHECK(sum == 285.0, "SUM of aligned A: %g", sum);
        free(x);
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

    /* Errors. */
    {
        long long lb[2] = {1, 1}, ext[2] = {6, 4}, st[2] = {1, 1}, of[2] = {3, 1};
        int td[2] = {1, 2}, d = -1;
        long long zero[2] = {0, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, td, zero, of, NULL, NULL, &d), HPF_EBADARG);
        long long far[2] = {15, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, td, st, far, NULL, NULL, &d), HPF_EBADARG);
        int three[2] = {1, 3}, twice[2] = {1, 1};
        EXPECT(hpf_dad_align(t, 2, lb, ext, three, st, of, NULL, NULL, &d), HPF_EBADARG);
        EXPECT(hpf_dad_align(t, 2, lb, ext, twice, st, of, NULL, NULL, &d), HPF_EBADARG);
        int cyc[2] = {HPF_CYCLIC, HPF_BLOCK}, ct = -1;
        EXPECT(hpf_dad_create(grid, 2, tlb, text, cyc, NULL, tpdim, NULL, NULL, &ct), HPF_OK);
        EXPECT(hpf_dad_align(ct, 2, lb, ext, td, st, of, NULL, NULL, &d), HPF_EBADARG);
        EXPECT(hpf_dad_align(9999, 2, lb, ext, td, st, of, NULL, NULL, &d), HPF_EBADHANDLE);
        hpf_dad_free(ct);
    }

    hpf_dad_free(t);
    printf("hpf_align rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
