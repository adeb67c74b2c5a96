/*
 * hpf_bench.c - the HPF run-time against hand-written MPI and ScaLAPACK,
 * in the same mpiexec job, on the same data layout:
 *
 *     mpiexec -n 4 hpf_bench [--csv PATH] [--rounds N]    (2x2 grid: all rows)
 *     mpiexec -n 2 hpf_bench --small [--csv PATH]         (1x2 grid: halo, matmul)
 *     ... [--only ROW]      one row only (halo, remap, sum, cshift, matmul),
 *                           e.g. to count its instructions under callgrind
 *
 * Rows (rank 0 prints "RESULT op bytes ours_us baseline baseline_us ratio"
 * and, with --csv, appends "hpf,OP,BYTES,OURS,BASELINE,BASE_US,RATIO"):
 *   halo-PxQ     overlap update of a 2048x2048 (BLOCK, BLOCK) double array,
 *                width 1, corners included (hpf_shift_overlap) against two
 *                phases of MPI_Sendrecv (rows, then whole columns);
 *   remap        2048x2048 (BLOCK, BLOCK) to (CYCLIC(64), CYCLIC(64))
 *                (hpf_copy) against ScaLAPACK's pdgemr2d on the same
 *                descriptors (hpf_dad_scalapack_desc);
 *   matmul-PxQ   C = A*B, 2048x2048, CYCLIC(64) both ways (hpf_matmul)
 *                against ScaLAPACK's pdgemm;
 *   sum          SUM of 2^22 BLOCK doubles (hpf_sum) against a local loop
 *                and MPI_Allreduce;
 *   cshift       CSHIFT by 1 along the distributed dimension of a
 *                2048x2048 (*, BLOCK) array (hpf_cshift) against a local
 *                copy and one MPI_Sendrecv of a column.
 * Each figure is the minimum over --rounds rounds of the mean time of a
 * batch; the two kinds alternate which goes first. Each pair of results is
 * compared, and the program fails if they differ.
 */
#include <hpf_rts.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int keep_mpi);
void pdgemr2d_(const int *m, const int *n, const double *a, const int *ia, const int *ja,
               const int *desca, double *b, const int *ib, const int *jb, const int *descb,
               const int *ictxt);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb,
             const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);

#define NN 2048

static int rank, size, rounds = 3, P, Q, myr, myc, grid2, grid1, ctxt;
static FILE *csv;

static void die(const char *what)
{
    fprintf(stderr, "hpf_bench rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void ok(int rc, const char *what)
{
    if (rc != HPF_OK) {
        char msg[256];
        hpf_error_message(msg, sizeof msg);
        fprintf(stderr, "hpf_bench rank %d: %s: %d %s\n", rank, what, rc, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void report(const char *op, long bytes, double ours, const char *base, double theirs)
{
    if (rank != 0) return;
    printf("RESULT %s %ld %.3f %s %.3f %.3f\n", op, bytes, ours, base, theirs, ours / theirs);
    fflush(stdout);
    if (csv)
        fprintf(csv, "hpf,%s,%ld,%.3f,%s,%.3f,%.3f\n", op, bytes, ours, base, theirs,
                ours / theirs);
}

/* Mean microseconds per call over `reps`, minimum over rounds, for ours
 * and the baseline, alternating which goes first. */
static void timed_pair(void (*ours)(void), void (*base)(void), int reps, double *t_ours,
                       double *t_base)
{
    *t_ours = *t_base = 1e300;
    for (int r = 0; r < 2 * rounds; r++) {
        int which = (r % 2) ^ ((r / 2) % 2);
        void (*f)(void) = which ? base : ours;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < reps; i++) f();
        MPI_Barrier(MPI_COMM_WORLD);
        double t = (MPI_Wtime() - t0) / reps * 1e6;
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        double *best = which ? t_base : t_ours;
        if (t < *best) *best = t;
    }
}

static int dad2(int grid, long long m, long long n, int d0, int b0, int d1, int b1, int ov)
{
    long long lb[2] = {1, 1}, ext[2] = {m, n};
    int dist[2] = {d0, d1}, block[2] = {b0, b1}, pdim[2] = {0, 1}, o[2] = {ov, ov}, h;
    ok(hpf_dad_create(grid, 2, lb, ext, dist, block, pdim, o, o, &h), "dad");
    return h;
}

static double *local_of(int dad)
{
    long long n;
    ok(hpf_dad_local_size(dad, &n), "local size");
    double *b = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!b) die("out of memory");
    return b;
}

static void fill(int dad, double *buf, int seed, int ov)
{
    long long cnt[2], stride[2];
    hpf_dad_local_shape(dad, cnt, NULL, stride);
    for (long long j = 0; j < cnt[1]; j++) {
        long long gj;
        hpf_dad_local_to_global(dad, 2, j, &gj);
        for (long long i = 0; i < cnt[0]; i++) {
            long long gi;
            hpf_dad_local_to_global(dad, 1, i, &gi);
            buf[(i + ov) * stride[0] + (j + ov) * stride[1]] = (double)((gi * 31 + gj * 17 + seed) % 101) / 8.0;
        }
    }
}

/* ---- halo ---------------------------------------------------------------- */

static int hdad;
static double *ha, *hb;
static long long hcnt[2], halloc[2];
static MPI_Datatype rowt;

static void halo_ours(void) { ok(hpf_shift_overlap(hdad, HPF_REAL8, ha, NULL), "shift"); }

static void halo_mpi(void)
{
    long long a0 = halloc[0];
    int up = myr > 0 ? (myr - 1) * Q + myc : MPI_PROC_NULL;
    int down = myr < P - 1 ? (myr + 1) * Q + myc : MPI_PROC_NULL;
    int left = myc > 0 ? myr * Q + myc - 1 : MPI_PROC_NULL;
    int right = myc < Q - 1 ? myr * Q + myc + 1 : MPI_PROC_NULL;
    /* Rows (strided) of the owned columns, then whole columns (corners). */
    MPI_Sendrecv(hb + 1 + a0, 1, rowt, up, 0, hb + hcnt[0] + 1 + a0, 1, rowt, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(hb + hcnt[0] + a0, 1, rowt, down, 1, hb + a0, 1, rowt, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(hb + a0, (int)a0, MPI_DOUBLE, left, 2, hb + a0 * (hcnt[1] + 1), (int)a0,
                 MPI_DOUBLE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(hb + a0 * hcnt[1], (int)a0, MPI_DOUBLE, right, 3, hb, (int)a0, MPI_DOUBLE,
                 left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void bench_halo(void)
{
    hdad = dad2(grid2, NN, NN, HPF_BLOCK, 0, HPF_BLOCK, 0, 1);
    ok(hpf_dad_local_shape(hdad, hcnt, halloc, NULL), "shape");
    ha = local_of(hdad), hb = local_of(hdad);
    fill(hdad, ha, 1, 1);
    memcpy(hb, ha, sizeof(double) * (size_t)(halloc[0] * halloc[1]));
    MPI_Type_vector((int)hcnt[1], 1, (int)halloc[0], MPI_DOUBLE, &rowt);
    MPI_Type_commit(&rowt);
    double o, b;
    timed_pair(halo_ours, halo_mpi, 50, &o, &b);
    if (memcmp(ha, hb, sizeof(double) * (size_t)(halloc[0] * halloc[1])) != 0)
        die("halo: our overlap differs from the MPI exchange");
    char op[32];
    snprintf(op, sizeof op, "halo-%dx%d", P, Q);
    report(op, (long)NN * NN * 8, o, "mpi", b);
    MPI_Type_free(&rowt);
    free(ha), free(hb);
    hpf_dad_free(hdad);
}

/* ---- remap --------------------------------------------------------------- */

static int rbd, rcd, descb[9], descc[9];
static double *ra, *rb, *rc;

static void remap_ours(void) { ok(hpf_copy(rbd, ra, rcd, rb, HPF_REAL8), "copy"); }

static void remap_scalapack(void)
{
    int n = NN, one = 1;
    pdgemr2d_(&n, &n, ra, &one, &one, descb, rc, &one, &one, descc, &ctxt);
}

static void bench_remap(void)
{
    rbd = dad2(grid2, NN, NN, HPF_BLOCK, 0, HPF_BLOCK, 0, 0);
    rcd = dad2(grid2, NN, NN, HPF_CYCLIC_K, 64, HPF_CYCLIC_K, 64, 0);
    ok(hpf_dad_scalapack_desc(rbd, ctxt, descb), "desc");
    ok(hpf_dad_scalapack_desc(rcd, ctxt, descc), "desc");
    ra = local_of(rbd), rb = local_of(rcd), rc = local_of(rcd);
    fill(rbd, ra, 2, 0);
    double o, b;
    timed_pair(remap_ours, remap_scalapack, 3, &o, &b);
    long long n;
    hpf_dad_local_size(rcd, &n);
    if (memcmp(rb, rc, sizeof(double) * (size_t)n) != 0)
        die("remap: our result differs from pdgemr2d's");
    report("remap", (long)NN * NN * 8, o, "pdgemr2d", b);
    free(ra), free(rb), free(rc);
    hpf_dad_free(rbd), hpf_dad_free(rcd);
}

/* ---- matmul -------------------------------------------------------------- */

static int md;
static int mdesc[9];
static double *ma, *mb, *mc, *mc2;

static void matmul_ours(void) { ok(hpf_matmul(md, ma, md, mb, md, mc, HPF_REAL8), "matmul"); }

static void matmul_scalapack(void)
{
    int n = NN, one = 1;
    double alpha = 1.0, beta = 0.0;
    pdgemm_("N", "N", &n, &n, &n, &alpha, ma, &one, &one, mdesc, mb, &one, &one, mdesc, &beta,
            mc2, &one, &one, mdesc);
}

static void bench_matmul(void)
{
    md = dad2(grid2, NN, NN, HPF_CYCLIC_K, 64, HPF_CYCLIC_K, 64, 0);
    ok(hpf_dad_scalapack_desc(md, ctxt, mdesc), "desc");
    ma = local_of(md), mb = local_of(md), mc = local_of(md), mc2 = local_of(md);
    fill(md, ma, 3, 0);
    fill(md, mb, 4, 0);
    double o, b;
    int save = rounds;
    rounds = 2;
    timed_pair(matmul_ours, matmul_scalapack, 1, &o, &b);
    rounds = save;
    long long n;
    hpf_dad_local_size(md, &n);
    for (long long i = 0; i < n; i++)
        if (fabs(mc[i] - mc2[i]) > 1e-9 * (fabs(mc2[i]) + 1.0)) die("matmul: results differ");
    char op[32];
    snprintf(op, sizeof op, "matmul-%dx%d", P, Q);
    report(op, (long)NN * NN * 8, o, "pdgemm", b);
    free(ma), free(mb), free(mc), free(mc2);
    hpf_dad_free(md);
}

/* ---- sum ----------------------------------------------------------------- */

static int sd;
static double *sa, s_ours, s_mpi;
static long long scnt;

static void sum_ours(void) { ok(hpf_sum(sd, HPF_REAL8, sa, &s_ours), "sum"); }

static void sum_mpi(void)
{
    double part = 0;
    for (long long i = 0; i < scnt; i++) part += sa[i];
    MPI_Allreduce(&part, &s_mpi, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void bench_sum(void)
{
    long long lb = 1, ext = 1LL << 22;
    int dist = HPF_BLOCK, pdim = 0;
    ok(hpf_dad_create(grid1, 1, &lb, &ext, &dist, NULL, &pdim, NULL, NULL, &sd), "dad");
    ok(hpf_dad_local_shape(sd, &scnt, NULL, NULL), "shape");
    sa = local_of(sd);
    for (long long i = 0; i < scnt; i++) sa[i] = (double)((i * 7 + rank) % 13) / 4.0;
    double o, b;
    timed_pair(sum_ours, sum_mpi, 10, &o, &b);
    if (fabs(s_ours - s_mpi) > 1e-9 * fabs(s_mpi)) die("sum: results differ");
    report("sum", (long)ext * 8, o, "mpi", b);
    free(sa);
    hpf_dad_free(sd);
}

/* ---- cshift -------------------------------------------------------------- */

static int cd;
static double *ca, *cb, *cc;
static long long ccnt[2];

static void cshift_ours(void) { ok(hpf_cshift(cd, HPF_REAL8, ca, cb, 1, 2), "cshift"); }

static void cshift_mpi(void)
{
    long long col = NN, n = ccnt[1];
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    if (n > 1) memcpy(cc, ca + col, sizeof(double) * (size_t)(col * (n - 1)));
    MPI_Sendrecv(ca, (int)col, MPI_DOUBLE, left, 4, cc + col * (n - 1), (int)col, MPI_DOUBLE,
                 right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void bench_cshift(void)
{
    long long lb[2] = {1, 1}, ext[2] = {NN, NN};
    int dist[2] = {HPF_COLLAPSED, HPF_BLOCK}, pdim[2] = {0, 0};
    ok(hpf_dad_create(grid1, 2, lb, ext, dist, NULL, pdim, NULL, NULL, &cd), "dad");
    ok(hpf_dad_local_shape(cd, ccnt, NULL, NULL), "shape");
    if (NN % size != 0) die("cshift: the baseline needs equal blocks");
    ca = local_of(cd), cb = local_of(cd), cc = local_of(cd);
    fill(cd, ca, 5, 0);
    double o, b;
    timed_pair(cshift_ours, cshift_mpi, 5, &o, &b);
    if (memcmp(cb, cc, sizeof(double) * (size_t)(ccnt[0] * ccnt[1])) != 0)
        die("cshift: results differ");
    report("cshift", (long)NN * NN * 8, o, "mpi", b);
    free(ca), free(cb), free(cc);
    hpf_dad_free(cd);
}

int main(int argc, char **argv)
{
    int small = 0;
    const char *only = NULL;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            csv = fopen(argv[++i], "a");
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--small")) {
            small = 1;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        }
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ok(hpf_init(), "init");
    int dims[2] = {small ? 1 : 0, 0}, coords[2], grank;
    ok(hpf_grid_create(2, dims, &grid2), "grid");
    P = dims[0], Q = dims[1];
    ok(hpf_grid_info(grid2, &grank, coords), "grid info");
    myr = coords[0], myc = coords[1];
    if (grank != rank) die("grid ranks are not MPI_COMM_WORLD ranks");
    int d1 = 0;
    ok(hpf_grid_create(1, &d1, &grid1), "grid");
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", P, Q);

#define ROW(name) (!only || !strcmp(only, name))
    if (ROW("halo")) bench_halo();
    if (!small) {
        if (ROW("remap")) bench_remap();
        if (ROW("sum")) bench_sum();
        if (ROW("cshift")) bench_cshift();
    }
    if (ROW("matmul")) bench_matmul();

    Cblacs_gridexit(ctxt);
    Cblacs_exit(1);
    if (csv) fclose(csv);
    hpf_finalize();
    MPI_Finalize();
    return 0;
}
