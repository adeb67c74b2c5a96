/* The HPF library's combining scatters through hpf_combine_scatter,
 * hpf_combine_scatter_mask and planned schedules run by
 * hpf_index_execute_combine(_mask), from C, against a serial fold every
 * process does itself:
 *
 * - a vector A(1:9) on BLOCK with an overlap area, K = 14 values B on
 *   CYCLIC, subscripts V(k) = 1 + k*k mod 9 on CYCLIC(2) (cells named up
 *   to four times, some never) and MASK(k) = (k mod 3 != 1) on B's DAD;
 * - every op with the types it takes: SUM, PRODUCT, MAXVAL, MINVAL of
 *   REAL*8 and integers, COUNT of a LOGICAL B into INTEGER*4 and *8,
 *   ALL, ANY, PARITY of LOGICAL, IALL, IANY, IPARITY of integers; each
 *   without MASK, with MASK, and planned once and run twice with MASK;
 * - error codes: unknown ops, a type the op does not take (IALL of REAL*8,
 *   ALL of INTEGER*4, MAXVAL of COMPLEX*16, COUNT into REAL*8), a gather
 *   schedule, a freed schedule, a bad DAD handle, B of another shape.
 *
 * Prints "hpf_scatter_ops rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

#define NA 9
#define K 14

static int grid, me;

static int dad1(long long ext, int dist, int olo)
{
    long long l[1] = {1}, e[1] = {ext};
    int d[1] = {dist}, block[1] = {2}, pdim[1] = {0}, lo[1] = {olo}, hi[1] = {olo};
    int h = -1;
    EXPECT(hpf_dad_create(grid, 1, l, e, d, block, pdim, lo, hi, &h), HPF_OK);
    return h;
}

static long long count1(int d)
{
    long long c = 0;
    hpf_dad_local_shape(d, &c, NULL, NULL);
    return c;
}

/* Offset of owned local index l (past the overlap below). */
static long long at1(int d, long long l)
{
    long long alloc = 0, count = 0;
    hpf_dad_local_shape(d, &count, &alloc, NULL);
    return l + (alloc - count) / 2;
}

static long long g1(int d, long long l)
{
    long long g = 0;
    EXPECT(hpf_dad_local_to_global(d, 1, l, &g), HPF_OK);
    return g;
}

static void put(void *buf, int type, long long i, long long v)
{
    switch (type) {
    case HPF_INTEGER8: ((long long *)buf)[i] = v; break;
    case HPF_REAL8: ((double *)buf)[i] = (double)v; break;
    default: ((int *)buf)[i] = (int)v; break;
    }
}

static long long get(const void *buf, int type, long long i)
{
    switch (type) {
    case HPF_INTEGER8: return ((const long long *)buf)[i];
    case HPF_REAL8: return (long long)((const double *)buf)[i];
    default: return ((const int *)buf)[i];
    }
}

/* Start values of A(g) and B(k) for an op: LOGICAL 0/1, else small
 * integers of either sign (bit patterns with both signs for IALL..). */
static long long a_of(int op, long long g)
{
    if (op == HPF_OP_ALL || op == HPF_OP_ANY || op == HPF_OP_PARITY) return g % 2;
    return (g * 13) % 11 - 5;
}

static long long b_of(int op, long long k)
{
    if (op >= HPF_OP_COUNT && op <= HPF_OP_PARITY) return (k * 7) % 3 == 0;
    return (k * 5) % 9 - 4;
}

static long long vsub(long long k) { return 1 + (k * k) % NA; }
static int mask_of(long long k) { return k % 3 != 1; }

static long long step(int op, long long a, long long b)
{
    switch (op) {
    case HPF_OP_SUM: return a + b;
    case HPF_OP_PRODUCT: return a * b;
    case HPF_OP_MAXVAL: return b > a ? b : a;
    case HPF_OP_MINVAL: return b < a ? b : a;
    case HPF_OP_COUNT: return a + (b != 0);
    case HPF_OP_ALL: return a && b;
    case HPF_OP_ANY: return a || b;
    case HPF_OP_PARITY: return (a != 0) != (b != 0);
    case HPF_OP_IALL: return a & b;
    case HPF_OP_IANY: return a | b;
    default: return a ^ b;
    }
}

/* The serial model: A after `runs` runs, with or without MASK. */
static void model(int op, int masked, int runs, long long *want)
{
    for (long long g = 1; g <= NA; g++) want[g - 1] = a_of(op, g);
    for (int r = 0; r < runs; r++)
        for (long long k = 1; k <= K; k++)
            if (!masked || mask_of(k))
                want[vsub(k) - 1] = step(op, want[vsub(k) - 1], b_of(op, k));
}

static int a_dad, b_dad, v_dad, w_dad;
static long long *v;
static int *mask;

static void fill_a(int op, void *x, int type)
{
    for (long long l = 0; l < count1(a_dad); l++) put(x, type, at1(a_dad, l), a_of(op, g1(a_dad, l)));
}

/* Cells of A (gathered whole) that differ from the model. */
static int wrong(int op, const void *x, int type, int masked, int runs)
{
    long long want[NA];
    model(op, masked, runs, want);
    long long all[NA];
    EXPECT(hpf_copy(a_dad, x, w_dad, all, type), HPF_OK);
    int bad = 0;
    for (int i = 0; i < NA; i++) bad += get(all, type, i) != want[i];
    return bad;
}

static const char *name(int op)
{
    static const char *names[] = {"?", "SUM", "PRODUCT", "MAXVAL", "MINVAL", "COUNT", "ALL",
                                  "ANY", "PARITY", "IALL", "IANY", "IPARITY"};
    return names[op];
}

static void one_case(int op, int type)
{
    int btype = op >= HPF_OP_COUNT && op <= HPF_OP_PARITY ? HPF_LOGICAL : type;
    void *x = local_buffer(a_dad, 8), *b = local_buffer(b_dad, 8);
    for (long long l = 0; l < count1(b_dad); l++) put(b, btype, l, b_of(op, g1(b_dad, l)));

    fill_a(op, x, type);
    EXPECT(hpf_combine_scatter(op, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x, type), HPF_OK);
    int bad = wrong(op, x, type, 0, 1);
    CHECK(bad == 0, "%s_SCATTER type %d: %d cells wrong", name(op), type, bad);

    fill_a(op, x, type);
    EXPECT(hpf_combine_scatter_mask(op, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x, type,
                                    mask),
           HPF_OK);
    bad = wrong(op, x, type, 1, 1);
    CHECK(bad == 0, "%s_SCATTER type %d with MASK: %d cells wrong", name(op), type, bad);

    int s = -1;
    EXPECT(hpf_scatter_plan(b_dad, v_dad, v, 0, HPF_INTEGER8, a_dad, &s), HPF_OK);
    fill_a(op, x, type);
    EXPECT(hpf_index_execute_combine_mask(s, op, b, x, type, mask), HPF_OK);
    EXPECT(hpf_index_execute_combine_mask(s, op, b, x, type, mask), HPF_OK);
    bad = wrong(op, x, type, 1, 2);
    CHECK(bad == 0, "planned %s_SCATTER type %d with MASK run twice: %d cells wrong", name(op),
          type, bad);
    fill_a(op, x, type);
    EXPECT(hpf_index_execute_combine(s, op, b, x, type), HPF_OK);
    bad = wrong(op, x, type, 0, 1);
    CHECK(bad == 0, "planned %s_SCATTER type %d: %d cells wrong", name(op), type, bad);
    EXPECT(hpf_index_free(s), HPF_OK);
    free(x), free(b);
}

int main(void)
{
    int dims[2] = {0, 0};
    if (start_grid(2, dims, &grid, &me) != 0) return 2;
    a_dad = dad1(NA, HPF_BLOCK, 1);
    b_dad = dad1(K, HPF_CYCLIC, 0);
    v_dad = dad1(K, HPF_CYCLIC_K, 0);
    w_dad = dad1(NA, HPF_COLLAPSED, 0);
    v = local_buffer(v_dad, sizeof(long long));
    for (long long l = 0; l < count1(v_dad); l++) v[l] = vsub(g1(v_dad, l));
    mask = local_buffer(b_dad, sizeof(int));
    for (long long l = 0; l < count1(b_dad); l++) mask[l] = mask_of(g1(b_dad, l));

    static const int cases[][2] = {
        {HPF_OP_SUM, HPF_REAL8},       {HPF_OP_SUM, HPF_INTEGER4},
        {HPF_OP_PRODUCT, HPF_REAL8},   {HPF_OP_PRODUCT, HPF_INTEGER8},
        {HPF_OP_MAXVAL, HPF_REAL8},    {HPF_OP_MAXVAL, HPF_INTEGER4},
        {HPF_OP_MINVAL, HPF_INTEGER8}, {HPF_OP_MINVAL, HPF_REAL8},
        {HPF_OP_COUNT, HPF_INTEGER4},  {HPF_OP_COUNT, HPF_INTEGER8},
        {HPF_OP_ALL, HPF_LOGICAL},     {HPF_OP_ANY, HPF_LOGICAL},
        {HPF_OP_PARITY, HPF_LOGICAL},  {HPF_OP_IALL, HPF_INTEGER4},
        {HPF_OP_IANY, HPF_INTEGER8},   {HPF_OP_IPARITY, HPF_INTEGER4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) one_case(cases[c][0], cases[c][1]);

    /* Errors. */
    {
        double *x = local_buffer(a_dad, 16), *b = local_buffer(b_dad, 16);
        EXPECT(hpf_combine_scatter(0, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x, HPF_REAL8),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter(13, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x, HPF_REAL8),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter(HPF_OP_IALL, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x,
                                   HPF_REAL8),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter(HPF_OP_ALL, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x,
                                   HPF_INTEGER4),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter(HPF_OP_MAXVAL, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x,
                                   HPF_COMPLEX16),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter_mask(HPF_OP_COUNT, b_dad, b, v_dad, v, 0, HPF_INTEGER8, a_dad,
                                        x, HPF_REAL8, mask),
               HPF_EBADARG);
        EXPECT(hpf_combine_scatter(HPF_OP_SUM, 9999, b, v_dad, v, 0, HPF_INTEGER8, a_dad, x,
                                   HPF_REAL8),
               HPF_EBADHANDLE);
        int other = dad1(K + 1, HPF_BLOCK, 0);
        double *o = local_buffer(other, 16);
        EXPECT(hpf_combine_scatter(HPF_OP_SUM, other, o, v_dad, v, 0, HPF_INTEGER8, a_dad, x,
                                   HPF_REAL8),
               HPF_EMISMATCH);
        int g = -1;
        EXPECT(hpf_gather_plan(a_dad, v_dad, v, 0, HPF_INTEGER8, b_dad, &g), HPF_OK);
        EXPECT(hpf_index_execute_combine(g, HPF_OP_SUM, x, b, HPF_REAL8), HPF_EBADARG);
        EXPECT(hpf_index_free(g), HPF_OK);
        EXPECT(hpf_index_execute_combine_mask(g, HPF_OP_SUM, b, x, HPF_REAL8, mask),
               HPF_EBADHANDLE);
        hpf_dad_free(other);
        free(x), free(b), free(o);
    }

    free(v), free(mask);
    hpf_dad_free(a_dad), hpf_dad_free(b_dad), hpf_dad_free(v_dad), hpf_dad_free(w_dad);
    printf("hpf_scatter_ops rank %d: %d passed, %d failed\n", me, passed, failed);
    hpf_finalize();
    return failed != 0;
}
