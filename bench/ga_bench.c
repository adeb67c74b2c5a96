/*
 * ga_bench.c - one-sided Global Arrays operations and the TCGMSG shared
 * counter, timed through the public GA and TCGMSG C APIs only (ga.h,
 * ga-mpi.h, tcgmsg.h), so the same source builds against any GA.
 *
 * Built twice by scripts/bench.sh: against the mpbridge GA (run as
 * `mpiexec -n N ga_bench : -n 1 ga-server`) and against Debian's GA 5.8.
 *
 *     mpiexec -n N ga_bench [--rounds R] [--round-ms MS]
 *                           [--min-bytes B] [--max-bytes B] [--no-nxtval]
 *
 * Every compute rank takes part (N >= 2):
 *   get/put/acc  each rank moves a contiguous patch of B bytes (doubles) at
 *                the start of the block owned by rank (me+1)%N; all ranks
 *                at once.  B doubles from 8 B to 1 MiB.
 *   read_inc     every rank calls NGA_Read_inc on one C_LONG element
 *                (owned by rank 0).
 *   nxtval       every rank calls tcg_nxtval(N); each round ends with the
 *                collective tcg_nxtval(-N) reset.
 * Each (op, size) is timed in R rounds of about MS milliseconds (after a
 * warm-up that also picks the iteration count); a round's time per op is
 * the mean over ranks of each rank's elapsed time / its op count, and the
 * reported time is the best round.
 *
 * Remote mode (environment MPBRIDGE_GA_REMOTE=1, honoured by the mpbridge
 * GA, which then sends every operation through the owner's ga-server):
 * only rank 0 works, on rank 1's block, while the other ranks wait without
 * spinning; the same job times a raw MPI request/reply between compute
 * ranks 0 and 1 on GA_MPI_Comm() with the same payload (B bytes one way, 8
 * bytes back), which is the least any remote operation has to do.
 *
 * Correctness is checked along the way (a run that fails a check aborts):
 * put/get/acc values on every rank's neighbour block, the read_inc counter
 * against the total number of increments, and that nxtval handed out each
 * value exactly once per round.
 *
 * Rank 0 prints one line per result:
 *     RESULT <op> <bytes> <us>                  (normal mode)
 *     RESULT <op>-remote <bytes> <us> <mpi_us>  (remote mode)
 */
#include <mpi.h>

#include "ga.h"
#include "ga-mpi.h"
#include "tcgmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK_DOUBLES (1 << 17) /* 1 MiB of doubles per rank */
#define DEFAULT_MIN_BYTES 8L
#define DEFAULT_MAX_BYTES (1L << 20)
#define DEFAULT_ROUNDS 5
#define DEFAULT_ROUND_MS 10.0
#define WARMUP_OPS 20L
#define MAX_ITERS 1000000L
#define TAG_PING 11
#define TAG_PONG 12
#define TAG_DONE 13

enum op { OP_GET, OP_PUT, OP_ACC, NOPS };
static const char *const op_name[NOPS] = {"get", "put", "acc"};

struct options {
    int rounds;
    double round_ms;
    long min_bytes;
    long max_bytes;
    int nxtval;
};

static int me = -1;
static int nproc = 0;
static MPI_Comm comm; /* the compute ranks (GA_MPI_Comm) */

static void die(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ga_bench[rank %d]: %s\n", me, msg);
    fflush(stderr);
    GA_Error(msg, 1);
    exit(1); /* not reached */
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!s[0] || *end || v < lo || v > hi) {
        fprintf(stderr, "ga_bench: %s wants a whole number from %ld to %ld, not '%s'\n",
                opt, lo, hi, s);
        exit(2);
    }
    return v;
}

static void parse_options(int argc, char **argv, struct options *o)
{
    o->rounds = DEFAULT_ROUNDS;
    o->round_ms = DEFAULT_ROUND_MS;
    o->min_bytes = DEFAULT_MIN_BYTES;
    o->max_bytes = DEFAULT_MAX_BYTES;
    o->nxtval = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-nxtval")) {
            o->nxtval = 0;
            continue;
        }
        if (!v) {
            fprintf(stderr, "ga_bench: unknown option or missing value: '%s'\n", a);
            exit(2);
        }
        if (!strcmp(a, "--rounds"))
            o->rounds = (int)parse_long(a, v, 1, 1000);
        else if (!strcmp(a, "--round-ms"))
            o->round_ms = (double)parse_long(a, v, 1, 10000);
        else if (!strcmp(a, "--min-bytes"))
            o->min_bytes = parse_long(a, v, 8, DEFAULT_MAX_BYTES);
        else if (!strcmp(a, "--max-bytes"))
            o->max_bytes = parse_long(a, v, 8, DEFAULT_MAX_BYTES);
        else {
            fprintf(stderr, "ga_bench: unknown option '%s'\n", a);
            exit(2);
        }
        i++;
    }
}

/* Mean over ranks of x. */
static double mean_over_ranks(double x)
{
    GA_Dgop(&x, 1, "+");
    return x / nproc;
}

static double max_over_ranks(double x)
{
    GA_Dgop(&x, 1, "max");
    return x;
}

static long sum_over_ranks(long x)
{
    GA_Lgop(&x, 1, "+");
    return x;
}

/* Iterations for one round, from a measured time per op (seconds). */
static long iters_for(double per_op, double round_ms)
{
    double n = per_op > 0 ? (round_ms * 1e-3) / per_op : (double)MAX_ITERS;
    if (n < 10)
        n = 10;
    if (n > MAX_ITERS)
        n = MAX_ITERS;
    return (long)n;
}

/* ---- get / put / acc ------------------------------------------------- */

struct patch {
    int g;        /* the C_DBL array */
    int lo, hi;   /* first element of the target block, and its last */
    double *buf;  /* BLOCK_DOUBLES doubles */
};

static void one_op(enum op op, const struct patch *p, int n)
{
    int lo = p->lo, hi = p->lo + n - 1, ld = n;
    double one = 1.0;
    switch (op) {
    case OP_GET:
        NGA_Get(p->g, &lo, &hi, p->buf, &ld);
        break;
    case OP_PUT:
        NGA_Put(p->g, &lo, &hi, p->buf, &ld);
        break;
    case OP_ACC:
        NGA_Acc(p->g, &lo, &hi, p->buf, &ld, &one);
        break;
    default:
        break;
    }
}

static double time_ops(enum op op, const struct patch *p, int n, long iters)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++)
        one_op(op, p, n);
    return (MPI_Wtime() - t0) / (double)iters;
}

/*
 * Best-of-rounds time per op (microseconds), all ranks working on their
 * neighbour's block at once.
 */
static double bench_patch_all(enum op op, const struct patch *p, int n, const struct options *o)
{
    GA_Sync();
    double warm = time_ops(op, p, n, WARMUP_OPS);
    long iters = iters_for(warm, o->round_ms);
    double best = 1e300;
    for (int r = 0; r < o->rounds; r++) {
        GA_Sync();
        double t = mean_over_ranks(time_ops(op, p, n, iters));
        if (t < best)
            best = t;
    }
    GA_Sync();
    return best * 1e6;
}

/* Checked put, get and acc on the neighbour's whole block, every rank. */
static void check_patch_ops(const struct patch *p)
{
    int lo = p->lo, hi = p->hi, ld = hi - lo + 1;
    int n = hi - lo + 1;
    double one = 1.0;
    for (int i = 0; i < n; i++)
        p->buf[i] = me * 1e6 + i;
    NGA_Put(p->g, &lo, &hi, p->buf, &ld);
    GA_Sync();
    memset(p->buf, 0, (size_t)n * sizeof(double));
    NGA_Get(p->g, &lo, &hi, p->buf, &ld);
    for (int i = 0; i < n; i++)
        if (p->buf[i] != me * 1e6 + i)
            die("get after put: element %d of the block at %d is %g, expected %g", i, lo,
                p->buf[i], me * 1e6 + i);
    GA_Sync();
    for (int i = 0; i < n; i++)
        p->buf[i] = me * 1e6 + i;
    NGA_Acc(p->g, &lo, &hi, p->buf, &ld, &one);
    GA_Sync();
    NGA_Get(p->g, &lo, &hi, p->buf, &ld);
    for (int i = 0; i < n; i++)
        if (p->buf[i] != 2 * (me * 1e6 + i))
            die("get after acc: element %d of the block at %d is %g, expected %g", i, lo,
                p->buf[i], 2 * (me * 1e6 + i));
    GA_Sync();
}

/* ---- read_inc and nxtval ---------------------------------------------- */

static double time_read_inc(int g, long iters, long *done)
{
    int sub = 0;
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++)
        (void)NGA_Read_inc(g, &sub, 1);
    *done += iters;
    return (MPI_Wtime() - t0) / (double)iters;
}

static double bench_read_inc(const struct options *o)
{
    int dims = nproc;
    int g = NGA_Create(C_LONG, 1, &dims, "read_inc", NULL);
    if (!g)
        die("NGA_Create of the read_inc counter failed");
    GA_Zero(g);
    GA_Sync();
    long done = 0;
    double warm = time_read_inc(g, WARMUP_OPS, &done);
    long iters = iters_for(max_over_ranks(warm), o->round_ms);
    double best = 1e300;
    for (int r = 0; r < o->rounds; r++) {
        GA_Sync();
        double t = mean_over_ranks(time_read_inc(g, iters, &done));
        if (t < best)
            best = t;
    }
    GA_Sync();
    long total = sum_over_ranks(done);
    int sub = 0;
    long value = 0;
    int ld = 1;
    NGA_Get(g, &sub, &sub, &value, &ld);
    if (value != total)
        die("NGA_Read_inc: counter is %ld after %ld increments", value, total);
    GA_Sync();
    GA_Destroy(g);
    return best * 1e6;
}

/* One round of nxtval: returns time per call; checks the values. */
static double nxtval_round(long iters)
{
    long top = -1;
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        long v = tcg_nxtval(nproc);
        if (v < top)
            die("tcg_nxtval went backwards: %ld after %ld", v, top);
        top = v;
    }
    double t = (MPI_Wtime() - t0) / (double)iters;
    long total = sum_over_ranks(iters);
    double topd = max_over_ranks((double)top);
    if ((long)topd != total - 1)
        die("tcg_nxtval: %ld calls in all, but the largest value was %ld", total, (long)topd);
    (void)tcg_nxtval(-nproc);
    return t;
}

static double bench_nxtval(const struct options *o)
{
    double warm = nxtval_round(WARMUP_OPS);
    long iters = iters_for(max_over_ranks(warm), o->round_ms);
    double best = 1e300;
    for (int r = 0; r < o->rounds; r++) {
        double t = mean_over_ranks(nxtval_round(iters));
        if (t < best)
            best = t;
    }
    return best * 1e6;
}

/* ---- remote mode --------------------------------------------------------- */

/* Ranks with nothing to do wait here without taking a core. They nap as
 * long as an idle ga-server does (2 ms), so the rank left idle during the
 * GA operations disturbs the two cores no more than the server left idle
 * during the MPI ping-pong. */
static void quiet_wait_for(int from)
{
    char token;
    MPI_Request req;
    int flag = 0;
    struct timespec nap = {0, 2000 * 1000};
    MPI_Irecv(&token, 1, MPI_CHAR, from, TAG_DONE, comm, &req);
    for (;;) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        if (flag)
            break;
        nanosleep(&nap, NULL);
    }
}

static void release_waiters(int first)
{
    char token = 1;
    for (int r = first; r < nproc; r++)
        MPI_Send(&token, 1, MPI_CHAR, r, TAG_DONE, comm);
}

/* Rank 0 alone times op on rank 1's block; returns microseconds (rank 0). */
static double bench_patch_rank0(enum op op, const struct patch *p, int n, const struct options *o)
{
    double best = 1e300;
    GA_Sync();
    if (me == 0) {
        double warm = time_ops(op, p, n, WARMUP_OPS);
        long iters = iters_for(warm, o->round_ms);
        for (int r = 0; r < o->rounds; r++) {
            double t = time_ops(op, p, n, iters);
            if (t < best)
                best = t;
        }
        release_waiters(1);
    } else {
        quiet_wait_for(0);
    }
    GA_Sync();
    return best * 1e6;
}

static double pingpong_round(char *buf, int bytes, long iters)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        if (me == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, TAG_PING, comm);
            MPI_Recv(buf, 8, MPI_BYTE, 1, TAG_PONG, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG_PING, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, TAG_PONG, comm);
        }
    }
    return (MPI_Wtime() - t0) / (double)iters;
}

/* Raw MPI request/reply between ranks 0 and 1: microseconds (rank 0). */
static double bench_pingpong(char *buf, int bytes, const struct options *o)
{
    double best = 1e300;
    GA_Sync();
    if (me <= 1) {
        double warm = pingpong_round(buf, bytes, WARMUP_OPS);
        long iters = 0;
        if (me == 0)
            iters = iters_for(warm, o->round_ms);
        MPI_Bcast(&iters, 1, MPI_LONG, 0, comm); /* all ranks, see below */
        for (int r = 0; r < o->rounds; r++) {
            double t = pingpong_round(buf, bytes, iters);
            if (t < best)
                best = t;
        }
        if (me == 0)
            release_waiters(2);
    } else {
        long iters = 0;
        MPI_Bcast(&iters, 1, MPI_LONG, 0, comm);
        quiet_wait_for(0);
    }
    GA_Sync();
    return best * 1e6;
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    struct options o;
    parse_options(argc, argv, &o);

    tcg_pbegin(argc, argv);
    GA_Initialize();
    me = GA_Nodeid();
    nproc = GA_Nnodes();
    comm = GA_MPI_Comm();
    if (nproc < 2)
        die("needs at least 2 compute ranks, got %d", nproc);
    if ((long)tcg_nnodes() != nproc || (long)tcg_nodeid() != me)
        die("TCGMSG says rank %ld of %ld, GA says %d of %d", (long)tcg_nodeid(),
            (long)tcg_nnodes(), me, nproc);
    const char *remote_env = getenv("MPBRIDGE_GA_REMOTE");
    int remote = remote_env && remote_env[0] && strcmp(remote_env, "0") != 0;

    int dims = nproc * BLOCK_DOUBLES, chunk = BLOCK_DOUBLES;
    struct patch p;
    p.g = NGA_Create(C_DBL, 1, &dims, "bench", &chunk);
    if (!p.g)
        die("NGA_Create of %d doubles failed", dims);
    p.buf = malloc(BLOCK_DOUBLES * sizeof(double));
    char *pp = malloc(BLOCK_DOUBLES * sizeof(double));
    if (!p.buf || !pp)
        die("out of memory");
    /* Real bytes: a zeroed malloc may become calloc's untouched zero pages,
     * which MPI would copy faster than any data a program sends. */
    for (long k = 0; k < BLOCK_DOUBLES * (long)sizeof(double); k++)
        pp[k] = (char)(k * 7 + 1);
    GA_Zero(p.g);

    /* Checked on the neighbour's block, then timed on the target's. */
    int targets[2] = {(me + 1) % nproc, remote ? 1 : (me + 1) % nproc};
    for (int t = 0; t < 2; t++) {
        NGA_Distribution(p.g, targets[t], &p.lo, &p.hi);
        if (p.hi - p.lo + 1 != BLOCK_DOUBLES)
            die("rank %d owns [%d:%d], expected %d elements", targets[t], p.lo, p.hi,
                BLOCK_DOUBLES);
        if (t == 0)
            check_patch_ops(&p);
    }
    if (me == 0) {
        printf("# ga_bench: %d compute ranks%s, %d rounds of ~%.0f ms, best round\n", nproc,
               remote ? ", remote mode (every op through the ga-server)" : "", o.rounds,
               o.round_ms);
        printf("# %-12s %9s %12s%s\n", "op", "bytes", "us/op", remote ? "       mpi_us" : "");
        fflush(stdout);
    }

    for (int op = 0; op < NOPS; op++) {
        for (long bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= 2) {
            int n = (int)(bytes / (long)sizeof(double));
            if (!remote) {
                double us = bench_patch_all((enum op)op, &p, n, &o);
                if (me == 0)
                    printf("RESULT %s %ld %.3f\n", op_name[op], bytes, us);
            } else {
                double us = bench_patch_rank0((enum op)op, &p, n, &o);
                double mpi = bench_pingpong(pp, (int)bytes, &o);
                if (me == 0)
                    printf("RESULT %s-remote %ld %.3f %.3f\n", op_name[op], bytes, us, mpi);
            }
            if (me == 0)
                fflush(stdout);
        }
    }

    if (!remote) {
        double us = bench_read_inc(&o);
        if (me == 0)
            printf("RESULT read_inc 8 %.3f\n", us);
        if (o.nxtval) {
            us = bench_nxtval(&o);
            if (me == 0)
                printf("RESULT nxtval 8 %.3f\n", us);
        }
        if (me == 0)
            fflush(stdout);
    }

    GA_Sync();
    GA_Destroy(p.g);
    free(p.buf);
    free(pp);
    GA_Terminate();
    tcg_pend();
    return 0;
}
