/*
 * ga_bench_stencil.c - the Global Arrays calls of stencil codes, timed
 * through the public GA C API only (ga.h, ga-mpi.h, macdecls.h), so the same source
 * builds against any GA.
 *
 * Built twice by scripts/bench.sh: against the mpbridge GA (run as
 * `mpiexec -n N ga_bench_stencil : -n 1 ga-server`) and against Debian's
 * GA 5.8, and run on 4 compute ranks.
 *
 *     mpiexec -n N ga_bench_stencil [--rounds R] [--round-ms MS]
 *
 *   update-ghosts  GA_Update_ghosts on a 2-D double array of E x E
 *                  elements with ghost width 1 (corners included); the
 *                  bytes reported are the ghost cells one rank fills.
 *                  E = 256 and 1024.
 *   strided-get    every rank, at once, NGA_Strided_get of every second
 *                  element in both dimensions of a square patch at the
 *                  start of the block owned by rank (me+1)%N; the bytes
 *                  reported are those received. 8 B to 128 KiB.
 *   pgroup-dgop    GA_Pgroup_dgop(..., "+") of B bytes of doubles over a
 *                  processor group of compute ranks 0 and 1 (made by
 *                  GA_Pgroup_create on every rank); the other ranks wait
 *                  without spinning (they nap 2 ms between checks).
 *                  8 B to 128 KiB.
 *
 * Each (op, size) is timed in R rounds of about MS milliseconds after a
 * warm-up that picks the iteration count; a round's time per op is the
 * mean over ranks (over the group's members for pgroup-dgop) of each rank's
 * time per op, and the reported time is the best round. Results are checked once before timing (a wrong value
 * aborts). Rank 0 prints one line per result:  RESULT <op> <bytes> <us>
 */
#include <mpi.h>

#include "ga.h"
#include "ga-mpi.h"
#include "macdecls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_ROUNDS 5
#define DEFAULT_ROUND_MS 20.0
#define WARMUP_OPS 5L
#define MAX_ITERS 1000000L
#define TAG_DONE 21

static int me, nproc;

static void die(const char *msg, long v)
{
    fprintf(stderr, "ga_bench_stencil[rank %d]: %s (%ld)\n", me, msg, v);
    GA_Error((char *)msg, (int)v);
}

/* Iterations so that one round takes about round_ms on the slowest rank. */
static long iterations(double per_op_s, double round_ms)
{
    double t = per_op_s;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, GA_MPI_Comm());
    long n = t > 0 ? (long)(round_ms / 1000.0 / t) : MAX_ITERS;
    if (n < 1) n = 1;
    if (n > MAX_ITERS) n = MAX_ITERS;
    return n;
}

/* Mean over ranks of the per-op time of `mine` seconds over n ops, in us. */
static double mean_us(double mine, long n)
{
    double per = mine / (double)n * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPI_DOUBLE, MPI_SUM, GA_MPI_Comm());
    return per / nproc;
}

static void bench_update_ghosts(int edge, int rounds, double round_ms)
{
    int dims[2] = {edge, edge}, width[2] = {1, 1};
    int g = NGA_Create_ghosts(C_DBL, 2, dims, width, "stencil", NULL);
    if (!g) die("NGA_Create_ghosts failed", edge);
    int lo[2], hi[2];
    NGA_Distribution(g, me, lo, hi);
    /* Fill with i*edge+j, update, check one ghost cell of each side. */
    double *p;
    int gd[2], ld[1];
    NGA_Access_ghosts(g, gd, &p, ld);
    for (int a = 1; a < gd[0] - 1; a++)
        for (int b = 1; b < gd[1] - 1; b++)
            p[a * ld[0] + b] = (double)(lo[0] + a - 1) * edge + (lo[1] + b - 1);
    GA_Sync();
    GA_Update_ghosts(g);
    int up = (lo[0] - 1 + edge) % edge, left = (lo[1] - 1 + edge) % edge;
    if (p[0 * ld[0] + 1] != (double)up * edge + lo[1] || p[1 * ld[0] + 0] != (double)lo[0] * edge + left)
        die("GA_Update_ghosts gave a wrong ghost cell", edge);
    long bytes = ((long)gd[0] * gd[1] - (long)(gd[0] - 2) * (gd[1] - 2)) * (long)sizeof(double);

    GA_Sync();
    double t0 = MPI_Wtime();
    for (long k = 0; k < WARMUP_OPS; k++) GA_Update_ghosts(g);
    long n = iterations((MPI_Wtime() - t0) / WARMUP_OPS, round_ms);
    double best = 0;
    for (int r = 0; r < rounds; r++) {
        GA_Sync();
        t0 = MPI_Wtime();
        for (long k = 0; k < n; k++) GA_Update_ghosts(g);
        double us = mean_us(MPI_Wtime() - t0, n);
        if (r == 0 || us < best) best = us;
    }
    if (me == 0) printf("RESULT update-ghosts %ld %.3f\n", bytes, best);
    fflush(stdout);
    NGA_Release_ghosts(g);
    GA_Destroy(g);
}

static void bench_strided_get(int rounds, double round_ms)
{
    int edge = 1024;
    int dims[2] = {edge, edge};
    int g = NGA_Create(C_DBL, 2, dims, "strided", NULL);
    if (!g) die("NGA_Create failed", edge);
    int lo[2], hi[2];
    NGA_Distribution(g, me, lo, hi);
    double *p;
    int ld[1];
    NGA_Access(g, lo, hi, &p, ld);
    for (int a = 0; a <= hi[0] - lo[0]; a++)
        for (int b = 0; b <= hi[1] - lo[1]; b++)
            p[a * ld[0] + b] = (double)(lo[0] + a) * edge + (lo[1] + b);
    NGA_Release_update(g, lo, hi);
    GA_Sync();
    int tlo[2], thi[2];
    NGA_Distribution(g, (me + 1) % nproc, tlo, thi);
    double *buf = malloc(128 * 128 * sizeof(double));
    if (!buf) die("out of memory", 0);
    /* Selected edge n: n x n elements, every second of a 2n-1 patch. */
    for (int sel = 1; sel <= 128; sel *= 2) {
        if (2 * sel - 1 > thi[0] - tlo[0] + 1 || 2 * sel - 1 > thi[1] - tlo[1] + 1) break;
        int slo[2] = {tlo[0], tlo[1]}, shi[2] = {tlo[0] + 2 * sel - 2, tlo[1] + 2 * sel - 2};
        int skip[2] = {2, 2}, sld[1] = {sel};
        NGA_Strided_get(g, slo, shi, skip, buf, sld);
        for (int a = 0; a < sel; a++)
            for (int b = 0; b < sel; b++)
                if (buf[a * sel + b] != (double)(tlo[0] + 2 * a) * edge + (tlo[1] + 2 * b))
                    die("NGA_Strided_get gave a wrong element", sel);
        GA_Sync();
        double t0 = MPI_Wtime();
        for (long k = 0; k < WARMUP_OPS; k++) NGA_Strided_get(g, slo, shi, skip, buf, sld);
        long n = iterations((MPI_Wtime() - t0) / WARMUP_OPS, round_ms);
        double best = 0;
        for (int r = 0; r < rounds; r++) {
            GA_Sync();
            t0 = MPI_Wtime();
            for (long k = 0; k < n; k++) NGA_Strided_get(g, slo, shi, skip, buf, sld);
            double us = mean_us(MPI_Wtime() - t0, n);
            if (r == 0 || us < best) best = us;
        }
        if (me == 0) printf("RESULT strided-get %ld %.3f\n", (long)sel * sel * (long)sizeof(double), best);
        fflush(stdout);
    }
    free(buf);
    GA_Destroy(g);
}

/* GA_Pgroup_dgop sums over a group of ranks 0 and 1; the other ranks nap
 * until rank 0 says the group is done. */
static void bench_pgroup_dgop(int rounds, double round_ms)
{
    int list[2] = {0, 1};
    int grp = GA_Pgroup_create(list, 2);
    MPI_Comm world = GA_MPI_Comm();
    if (me >= 2) {
        char token;
        MPI_Request req;
        int flag = 0;
        struct timespec nap = {0, 2000 * 1000};
        MPI_Irecv(&token, 1, MPI_CHAR, 0, TAG_DONE, world, &req);
        while (MPI_Test(&req, &flag, MPI_STATUS_IGNORE), !flag) nanosleep(&nap, NULL);
    } else {
        int maxn = 128 * 1024 / (int)sizeof(double);
        double *x = malloc((size_t)maxn * sizeof(double));
        if (!x) die("out of memory", 0);
        for (int n = 1; n <= maxn; n *= 4) {
            /* Checked: the sum of 1+me+i over the two members. */
            for (int i = 0; i < n; i++) x[i] = 1.0 + me + i;
            GA_Pgroup_dgop(grp, x, n, "+");
            for (int i = 0; i < n; i++)
                if (x[i] != 3.0 + 2.0 * i) die("GA_Pgroup_dgop gave a wrong sum", n);
            memset(x, 0, (size_t)n * sizeof(double));
            double t0 = MPI_Wtime();
            for (long k = 0; k < WARMUP_OPS; k++) GA_Pgroup_dgop(grp, x, n, "+");
            double per[1] = {(MPI_Wtime() - t0) / WARMUP_OPS};
            GA_Pgroup_dgop(grp, per, 1, "max");
            long iters = per[0] > 0 ? (long)(round_ms / 1000.0 / per[0]) : MAX_ITERS;
            if (iters < 1) iters = 1;
            if (iters > MAX_ITERS) iters = MAX_ITERS;
            double best = 0;
            for (int r = 0; r < rounds; r++) {
                GA_Pgroup_sync(grp);
                t0 = MPI_Wtime();
                for (long k = 0; k < iters; k++) GA_Pgroup_dgop(grp, x, n, "+");
                double us[1] = {(MPI_Wtime() - t0) / (double)iters * 1e6};
                GA_Pgroup_dgop(grp, us, 1, "+");
                if (r == 0 || us[0] / 2 < best) best = us[0] / 2;
            }
            if (me == 0) printf("RESULT pgroup-dgop %ld %.3f\n", (long)n * (long)sizeof(double), best);
            fflush(stdout);
        }
        free(x);
        if (me == 0) {
            char token = 1;
            for (int r = 2; r < nproc; r++) MPI_Send(&token, 1, MPI_CHAR, r, TAG_DONE, world);
        }
    }
    if (me < 2) GA_Pgroup_destroy(grp);
    GA_Sync();
}

int main(int argc, char **argv)
{
    int rounds = DEFAULT_ROUNDS;
    double round_ms = DEFAULT_ROUND_MS;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--round-ms") == 0) round_ms = atof(argv[i + 1]);
        else {
            fprintf(stderr, "ga_bench_stencil: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (rounds < 1 || round_ms <= 0) {
        fprintf(stderr, "ga_bench_stencil: --rounds and --round-ms must be positive\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    GA_Initialize();
    /* Debian's GA takes its ghost-update buffers from MA. */
    MA_init(C_DBL, 1000000, 1000000);
    me = GA_Nodeid();
    nproc = GA_Nnodes();
    if (me == 0) {
        printf("# ga_bench_stencil: %d compute ranks, %d rounds of ~%.0f ms, best round\n", nproc,
               rounds, round_ms);
        fflush(stdout);
    }
    bench_update_ghosts(256, rounds, round_ms);
    bench_update_ghosts(1024, rounds, round_ms);
    bench_strided_get(rounds, round_ms);
    if (nproc >= 3) bench_pgroup_dgop(rounds, round_ms);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
