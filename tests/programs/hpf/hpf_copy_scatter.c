/* COPY_SCATTER(B, A, V, MASK) through hpf_copy_scatter, hpf_combine_scatter
 * with HPF_OP_COPY and a planned scatter schedule, on a 2-D grid:
 *
 * - A(1:10) BLOCK over grid dimension 1 (replicated along dimension 2),
 *   B(1:8) CYCLIC over grid dimension 2, V without repeats and a MASK:
 *   the named cells take B's values, the others keep theirs, as the
 *   serial loop gives;
 * - V with repeats: each cell keeps the value from B's element on the
 *   highest grid rank, the last of them in local order (hpf_dad_owner
 *   says where each lies), on every process alike; REAL*8, INTEGER*8,
 *   COMPLEX*16 and LOGICAL;
 * - a planned schedule run twice with another MASK; an unknown op and a
 *   gather schedule refused.
 *
 * Prints "hpf_copy_scatter rank R: P passed, F failed". */
#include <complex.h>
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

enum { NA = 10, NB = 8 };

static int grid, me, dims[2] = {0, 0};
static int ad, bd, w_a, w_b;

static int dad1(long long n, int dist, int pdim)
{
    long long lb[1] = {1}, ext[1] = {n};
    int d[1] = {dist}, p[1] = {pdim}, h = -1;
    EXPECT(hpf_dad_create(grid, 1, lb, ext, d, NULL, p, NULL, NULL, &h), HPF_OK);
    return h;
}

/* The local buffer of DAD d holding the whole vector `all` of elements
 * of `size` bytes (copied from the collapsed DAD w). */
static void *spread_out(int w, const void *all, int d, size_t size, int type)
{
    void *x = local_buffer(d, size);
    EXPECT(hpf_copy(w, all, d, x, type), HPF_OK);
    return x;
}

/* For each cell of A, the k (0-based) of the element of B that COPY_SCATTER
 * keeps: among the k with mask[k] and v[k] naming the cell, the largest
 * (owner grid rank, local offset) of B(k+1); -1 if none. */
static void winners(const long long *v, const int *mask, int *win)
{
    int owner[NB];
    long long off[NB];
    for (int k = 0; k < NB; k++) {
        long long g[1] = {k + 1};
        EXPECT(hpf_dad_owner(bd, g, &owner[k], &off[k]), HPF_OK);
    }
    for (int i = 0; i < NA; i++) win[i] = -1;
    for (int k = 0; k < NB; k++) {
        if (mask && !mask[k]) continue;
        int *w = &win[v[k] - 1];
        if (*w < 0 || owner[k] > owner[*w] || (owner[k] == owner[*w] && off[k] > off[*w]))
            *w = k;
    }
}

static void without_repeats(void)
{
    long long v[NB] = {3, 10, 1, 7, 5, 2, 9, 4};
    int mask[NB] = {1, 0, 1, 1, 0, 1, 1, 0};
    double a0[NA], b0[NB], got[NA];
    for (int i = 0; i < NA; i++) a0[i] = 100.0 + i;
    for (int k = 0; k < NB; k++) b0[k] = -1.5 * k;
    double *a = spread_out(w_a, a0, ad, sizeof(double), HPF_REAL8);
    double *b = spread_out(w_b, b0, bd, sizeof(double), HPF_REAL8);
    long long *vl = spread_out(w_b, v, bd, sizeof(long long), HPF_INTEGER8);
    int *ml = spread_out(w_b, mask, bd, sizeof(int), HPF_INTEGER4);
    long long nb = 0;
    hpf_dad_local_size(bd, &nb);
    EXPECT(hpf_copy_scatter(bd, b, bd, vl, nb, HPF_INTEGER8, ad, a, HPF_REAL8, ml), HPF_OK);
    EXPECT(hpf_copy(ad, a, w_a, got, HPF_REAL8), HPF_OK);
    double want[NA];
    for (int i = 0; i < NA; i++) want[i] = a0[i];
    for (int k = 0; k < NB; k++)
        if (mask[k]) want[v[k] - 1] = b0[k];
    int bad = 0;
    for (int i = 0; i < NA; i++) bad += got[i] != want[i];
    CHECK(bad == 0, "COPY_SCATTER with MASK, no repeats: %d cells wrong", bad);
    /* Without MASK. */
    EXPECT(hpf_copy_scatter(bd, b, bd, vl, nb, HPF_INTEGER8, ad, a, HPF_REAL8, NULL), HPF_OK);
    EXPECT(hpf_copy(ad, a, w_a, got, HPF_REAL8), HPF_OK);
    for (int k = 0; k < NB; k++) want[v[k] - 1] = b0[k];
    bad = 0;
    for (int i = 0; i < NA; i++) bad += got[i] != want[i];
    CHECK(bad == 0, "COPY_SCATTER without MASK: %d cells wrong", bad);
    free(a), free(b), free(vl), free(ml);
}

/* One type with repeats: A from a0, B from b0 (elements of `size`
 * bytes), V and MASK as given; checks each cell against the winner rule
 * with `same(x, y)` comparing elements. */
static void with_repeats(const char *name, int type, size_t size, const void *a0, const void *b0,
                         int (*same)(const void *, const void *), int planned)
{
    long long v[NB] = {2, 5, 2, 9, 5, 2, 9, 1};
    int mask[NB] = {1, 1, 0, 1, 1, 1, 1, 1};
    int mask2[NB] = {1, 0, 1, 1, 1, 0, 0, 1};
    char *a = spread_out(w_a, a0, ad, size, type);
    void *b = spread_out(w_b, b0, bd, size, type);
    long long *vl = spread_out(w_b, v, bd, sizeof(long long), HPF_INTEGER8);
    int *ml = spread_out(w_b, mask, bd, sizeof(int), HPF_INTEGER4);
    int *ml2 = spread_out(w_b, mask2, bd, sizeof(int), HPF_INTEGER4);
    long long nb = 0;
    hpf_dad_local_size(bd, &nb);
    int sched = -1;
    if (planned) {
        EXPECT(hpf_scatter_plan(bd, bd, vl, nb, HPF_INTEGER8, ad, &sched), HPF_OK);
        EXPECT(hpf_index_execute_combine_mask(sched, HPF_OP_COPY, b, a, type, ml), HPF_OK);
    } else {
        EXPECT(hpf_combine_scatter_mask(HPF_OP_COPY, bd, b, bd, vl, nb, HPF_INTEGER8, ad, a, type,
                                        ml),
               HPF_OK);
    }
    char got[NA * 16];
    int win[NA];
    for (int round = 0; round < 1 + planned; round++) {
        EXPECT(hpf_copy(ad, a, w_a, got, type), HPF_OK);
        winners(v, mask, win);
        if (round == 1) {
            /* The second run with mask2 over the first one's result. */
            int win2[NA];
            winners(v, mask2, win2);
            for (int i = 0; i < NA; i++)
                if (win2[i] >= 0) win[i] = win2[i];
        }
        int bad = 0;
        for (int i = 0; i < NA; i++) {
            const char *want =
                win[i] >= 0 ? (const char *)b0 + size * win[i] : (const char *)a0 + size * i;
            bad += !same(got + size * i, want);
        }
        CHECK(bad == 0, "%s COPY_SCATTER with repeats%s: %d cells wrong", name,
              round ? " (planned, second run)" : "", bad);
        if (planned && round == 0)
            EXPECT(hpf_index_execute_combine_mask(sched, HPF_OP_COPY, b, a, type, ml2), HPF_OK);
    }
    if (planned) {
        EXPECT(hpf_index_execute_combine(sched, 99, b, a, type), HPF_EBADARG);
        hpf_index_free(sched);
        EXPECT(hpf_gather_plan(ad, bd, vl, nb, HPF_INTEGER8, bd, &sched), HPF_OK);
        EXPECT(hpf_index_execute_combine(sched, HPF_OP_COPY, b, a, type), HPF_EBADARG);
        hpf_index_free(sched);
    }
    free(a), free(b), free(vl), free(ml), free(ml2);
}

static int same_double(const void *x, const void *y)
{
    return *(const double *)x == *(const double *)y;
}
static int same_ll(const void *x, const void *y)
{
    return *(const long long *)x == *(const long long *)y;
}
static int same_z(const void *x, const void *y)
{
    return *(const double _Complex *)x == *(const double _Complex *)y;
}
static int same_int(const void *x, const void *y) { return *(const int *)x == *(const int *)y; }

int main(void)
{
    if (start_grid(2, dims, &grid, &me) != 0) return 2;
    ad = dad1(NA, HPF_BLOCK, 0);
    bd = dad1(NB, HPF_CYCLIC, 1);
    w_a = dad1(NA, HPF_COLLAPSED, 0);
    w_b = dad1(NB, HPF_COLLAPSED, 0);

    without_repeats();
    double ar[NA], br[NB];
    long long ai[NA], bi[NB];
    double _Complex az[NA], bz[NB];
    int al[NA], bl[NB];
    for (int i = 0; i < NA; i++) ar[i] = i + 0.25, ai[i] = 7 * i, az[i] = i - 1.0 * I, al[i] = 0;
    for (int k = 0; k < NB; k++)
        br[k] = -k - 0.5, bi[k] = -100 - k, bz[k] = k * I + 3, bl[k] = k % 3 != 0;
    with_repeats("REAL*8", HPF_REAL8, sizeof(double), ar, br, same_double, 0);
    with_repeats("INTEGER*8", HPF_INTEGER8, sizeof(long long), ai, bi, same_ll, 1);
    with_repeats("COMPLEX*16", HPF_COMPLEX16, sizeof(double _Complex), az, bz, same_z, 1);
    with_repeats("LOGICAL", HPF_LOGICAL, sizeof(int), al, bl, same_int, 0);

    hpf_dad_free(ad), hpf_dad_free(bd), hpf_dad_free(w_a), hpf_dad_free(w_b);
    printf("hpf_copy_scatter rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
