/* MATMUL on a P x Q grid and ScaLAPACK interop, through hpf_rts.h:
 *
 * - hpf_matmul (SUMMA with local products on the system BLAS) on
 *   CYCLIC(k) x CYCLIC(k), (BLOCK, BLOCK) and mixed operand layouts, each
 *   against a serial DGEMM of the whole matrices (OpenBLAS dgemm_),
 * - hpf_dad_scalapack_desc on the same DADs, handed with the local
 *   buffers to Debian libscalapack's pdgemm_, whose result must equal the
 *   serial one too (the BLACS grid is made with Cblacs_gridinit "Row" on
 *   the same processes, and its coordinates must be the HPF grid's),
 * - the error codes of a descriptor ScaLAPACK cannot use and of operands
 *   that do not conform.
 *
 * Prints "hpf_pdgemm rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"

void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int keep_mpi);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc);

static int grid;

static double aval(long long i, long long j) { return (double)((i * 7 + j * 13) % 17) - 8.0 + 0.25 * (double)(i % 3); }
static double bval(long long i, long long j) { return (double)((i * 5 + j * 11) % 19) / 4.0 - 2.0; }

/* A rank-2 DAD with dist/block per dimension on grid dimensions 0 and 1. */
static int dad2(long long m, long long n, int d0, int b0, int d1, int b1)
{
    long long lb[2] = {1, 1}, ext[2] = {m, n};
    int dist[2] = {d0, d1}, block[2] = {b0, b1}, pdim[2] = {0, 1}, h = -1;
    EXPECT(hpf_dad_create(grid, 2, lb, ext, dist, block, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

/* A local buffer of `dad` filled with f(i, j). */
static double *fill(int dad, double (*f)(long long, long long))
{
    double *buf = local_buffer(dad, sizeof(double));
    struct cells2 c = owned_cells2(dad);
    for (long long k = 0; k < c.n; k++) buf[c.at[k]] = f(c.gi[k], c.gj[k]);
    free_cells2(c);
    return buf;
}

/* Cells of the local buffer of C (DAD `dad`) that differ from the serial
 * product `ref` (m rows, column-major) by more than the rounding bound. */
static int wrong(int dad, const double *c, const double *ref, const double *mag, int m, int k)
{
    struct cells2 cells = owned_cells2(dad);
    int bad = 0;
    for (long long q = 0; q < cells.n; q++) {
        long long at = (cells.gi[q] - 1) + m * (cells.gj[q] - 1);
        double got = c[cells.at[q]];
        if (fabs(got - ref[at]) > 4.0 * (k + 2) * 2.3e-16 * mag[at]) bad++;
    }
    free_cells2(cells);
    return bad;
}

/* One product m x k times k x n with the given layouts of A, B and C. */
static void product(int m, int k, int n, const int ad[4], const int bd[4], const int cd[4],
                    int ctxt, int scalapack)
{
    char what[160];
    snprintf(what, sizeof what, "%dx%d * %dx%d A(%d:%d,%d:%d) B(%d:%d,%d:%d) C(%d:%d,%d:%d)", m,
             k, k, n, ad[0], ad[1], ad[2], ad[3], bd[0], bd[1], bd[2], bd[3], cd[0], cd[1],
             cd[2], cd[3]);
    int da = dad2(m, k, ad[0], ad[1], ad[2], ad[3]);
    int db = dad2(k, n, bd[0], bd[1], bd[2], bd[3]);
    int dc = dad2(m, n, cd[0], cd[1], cd[2], cd[3]);
    double *a = fill(da, aval), *b = fill(db, bval), *c = fill(dc, bval);

    /* The serial reference with DGEMM on the whole matrices. */
    double *ga = malloc(sizeof(double) * (size_t)(m * k + 1));
    double *gb = malloc(sizeof(double) * (size_t)(k * n + 1));
    double *ref = calloc((size_t)(m * n + 1), sizeof(double));
    double *mag = calloc((size_t)(m * n + 1), sizeof(double));
    for (int j = 0; j < k; j++)
        for (int i = 0; i < m; i++) ga[i + m * j] = aval(i + 1, j + 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < k; i++) gb[i + k * j] = bval(i + 1, j + 1);
    double one = 1.0, zero = 0.0;
    dgemm_("N", "N", &m, &n, &k, &one, ga, &m, gb, &k, &zero, ref, &m);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            for (int p = 0; p < k; p++) mag[i + m * j] += fabs(ga[i + m * p] * gb[p + k * j]);

    int rc = hpf_matmul(da, a, db, b, dc, c, HPF_REAL8);
    char msg[200] = "";
    if (rc != HPF_OK) hpf_error_message(msg, sizeof msg);
    CHECK(rc == HPF_OK, "hpf_matmul %s: %d %s", what, rc, msg);
    int bad = wrong(dc, c, ref, mag, m, k);
    CHECK(bad == 0, "hpf_matmul %s: %d cells differ from DGEMM", what, bad);

    if (scalapack) {
        int desca[9], descb[9], descc[9], ione = 1;
        EXPECT(hpf_dad_scalapack_desc(da, ctxt, desca), HPF_OK);
        EXPECT(hpf_dad_scalapack_desc(db, ctxt, descb), HPF_OK);
        EXPECT(hpf_dad_scalapack_desc(dc, ctxt, descc), HPF_OK);
        double *c2 = fill(dc, aval);
        pdgemm_("N", "N", &m, &n, &k, &one, a, &ione, &ione, desca, b, &ione, &ione, descb,
                &zero, c2, &ione, &ione, descc);
        bad = wrong(dc, c2, ref, mag, m, k);
        CHECK(bad == 0, "pdgemm on hpf descriptors %s: %d cells differ from DGEMM", what, bad);
        free(c2);
    }
    free(a), free(b), free(c), free(ga), free(gb), free(ref), free(mag);
    hpf_dad_free(da), hpf_dad_free(db), hpf_dad_free(dc);
}

int main(void)
{
    int me = 0, np = 0;
    if (hpf_init() != HPF_OK) return 2;
    int dims[2] = {0, 0};
    EXPECT(hpf_grid_create(2, dims, &grid), HPF_OK);
    int rank = -1, coords[2] = {-1, -1};
    hpf_grid_info(grid, &rank, coords);
    tally_who = rank;

    Cblacs_pinfo(&me, &np);
    int ctxt = -1, p = 0, q = 0, row = -1, col = -1;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", dims[0], dims[1]);
    Cblacs_gridinfo(ctxt, &p, &q, &row, &col);
    CHECK(p == dims[0] && q == dims[1] && row == coords[0] && col == coords[1],
          "BLACS grid %dx%d at (%d,%d), HPF grid %dx%d at (%d,%d)", p, q, row, col, dims[0],
          dims[1], coords[0], coords[1]);

    const int cyc4[4] = {HPF_CYCLIC_K, 4, HPF_CYCLIC_K, 4};
    const int cyc3[4] = {HPF_CYCLIC_K, 3, HPF_CYCLIC_K, 5};
    const int blk[4] = {HPF_BLOCK, 0, HPF_BLOCK, 0};
    const int cb[4] = {HPF_CYCLIC, 0, HPF_BLOCK, 0};
    product(37, 29, 23, cyc4, cyc4, cyc4, ctxt, 1);
    product(64, 64, 64, cyc4, cyc4, cyc4, ctxt, 1);
    product(50, 41, 33, blk, blk, blk, ctxt, 1);
    product(30, 17, 25, cyc3, cb, blk, ctxt, 1);
    product(1, 1, 1, cyc4, cyc4, cyc4, ctxt, 1);
    product(200, 130, 90, cyc4, blk, cyc4, ctxt, 0);

    /* Errors: overlap, wrong grid dimension, shapes that do not conform. */
    long long lb[2] = {1, 1}, ext[2] = {8, 8};
    int dist[2] = {HPF_BLOCK, HPF_BLOCK}, pdim[2] = {0, 1}, ov[2] = {1, 1}, swap[2] = {1, 0};
    int dov = -1, dsw = -1, desc[9];
    EXPECT(hpf_dad_create(grid, 2, lb, ext, dist, NULL, pdim, ov, ov, &dov), HPF_OK);
    EXPECT(hpf_dad_scalapack_desc(dov, ctxt, desc), HPF_EBADARG);
    EXPECT(hpf_dad_create(grid, 2, lb, ext, dist, NULL, swap, NULL, NULL, &dsw), HPF_OK);
    if (dims[0] > 1 || dims[1] > 1)
        EXPECT(hpf_dad_scalapack_desc(dsw, ctxt, desc), HPF_EBADARG);
    EXPECT(hpf_dad_scalapack_desc(9999, ctxt, desc), HPF_EBADHANDLE);
    int d1 = dad2(8, 7, HPF_BLOCK, 0, HPF_BLOCK, 0), d2 = dad2(6, 8, HPF_BLOCK, 0, HPF_BLOCK, 0);
    double *x = fill(d1, aval), *y = fill(d2, bval), *z = fill(d1, aval);
    EXPECT(hpf_matmul(d1, x, d2, y, d1, z, HPF_REAL8), HPF_EMISMATCH);
    char msg[200];
    hpf_error_message(msg, sizeof msg);
    CHECK(msg[0] != 0, "a message for the mismatch");
    free(x), free(y), free(z);

    Cblacs_gridexit(ctxt);
    Cblacs_exit(1);
    printf("hpf_pdgemm rank %d: %d passed, %d failed\n", rank, passed, failed);
    hpf_finalize();
    return failed != 0;
}
