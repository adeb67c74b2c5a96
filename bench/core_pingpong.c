/*
 * core_pingpong.c - one-way message time of the mpbridge core API against
 * raw MPI, measured in the same mpiexec job on the same buffers.
 *
 * Run with exactly two processes:
 *
 *     mpiexec -n 2 core_pingpong [--csv PATH] [--baseline-only]
 *                                [--rounds N] [--round-ms MS]
 *                                [--min-bytes N] [--max-bytes N]
 *
 * For every message size (powers of two from --min-bytes to --max-bytes,
 * default 8 B to 4 MiB) the program
 *   1. checks one round trip of each kind end to end (full buffer compare
 *      on both processes, plus source/tag/length for mpb_recv),
 *   2. runs untimed warm-up round trips of both kinds, then times three
 *      more batches and uses the fastest to choose an iteration count that
 *      gives rounds of about --round-ms,
 *   3. runs --rounds timed rounds of each kind, alternating which kind goes
 *      first, and keeps the minimum over rounds of the mean one-way time
 *      (round trip / 2).
 * The table also shows how noisy the rounds were: "spread%" is the larger,
 * over the two kinds, of (median - minimum) / minimum of the round means.
 *
 * Rank 0 prints a table to stdout and, with --csv, appends rows
 *     core,pingpong,BYTES,OURS_US,mpi,MPI_US,RATIO
 * to PATH (the caller writes the header line).
 *
 * MPI is initialised by this program before mpb_init, and finalised by it
 * after mpb_finalize: mpbridge must accept a process whose MPI someone else
 * started, and must leave it running when it is done.
 *
 * --baseline-only measures raw MPI alone and never calls mpbridge (no CSV
 * rows are written in that mode).  Building with -DBENCH_WITHOUT_MPB gives a
 * program that does not reference mpbridge at all and always runs that way.
 */
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BENCH_WITHOUT_MPB
#include "mpbridge.h"
#endif

#define PING_TAG 1
#define DEFAULT_MIN_BYTES ((size_t)8)
#define DEFAULT_MAX_BYTES ((size_t)4 << 20)
#define DEFAULT_ROUNDS 9
#define DEFAULT_ROUND_MS 20.0
#define MIN_ITERS 10L
#define MAX_ITERS 200000L

enum kind { KIND_MPI = 0, KIND_OURS = 1, NKINDS = 2 };
static const char *const kind_name[NKINDS] = {"mpi", "mpbridge"};

struct options {
    const char *csv_path;
    int baseline_only;
    int rounds;
    double round_ms;
    size_t min_bytes;
    size_t max_bytes;
};

struct state {
    int rank;          /* MPI_COMM_WORLD rank: 0 pings, 1 echoes */
    int peer_rank;     /* the other MPI rank */
    int ctx;           /* mpbridge context handle */
    int peer_id;       /* mpbridge id of the other process */
    unsigned char *sbuf;
    unsigned char *rbuf;
};

static int g_rank = -1;

static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "core_pingpong[rank %d]: ", g_rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* not reached */
}

static void check_mpi(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
            snprintf(msg, sizeof msg, "error code %d", rc);
        die("%s failed: %s", what, msg);
    }
}

#ifndef BENCH_WITHOUT_MPB
/* Any negative result of an mpb_* call is fatal. */
static int check_mpb(int rc, const char *what)
{
    if (rc < 0)
        die("%s failed: %s (%d)", what, mpb_strerror(rc), rc);
    return rc;
}

/* For calls that must return exactly MPB_OK. */
static void check_mpb_ok(int rc, const char *what)
{
    if (rc != MPB_OK)
        die("%s failed: %s (%d)", what, mpb_strerror(rc), rc);
}
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mpiexec -n 2 core_pingpong [--csv PATH] [--baseline-only]\n"
            "           [--rounds N] [--round-ms MS] [--min-bytes N] "
            "[--max-bytes N]\n"
            "  --csv PATH       append result rows to PATH (rank 0)\n"
            "  --baseline-only  time raw MPI only; mpbridge is not used\n"
            "  --rounds N       timed rounds per size and kind (default %d)\n"
            "  --round-ms MS    target duration of one round (default %.0f)\n"
            "  --min-bytes N    smallest message (default %zu)\n"
            "  --max-bytes N    largest message (default %zu)\n",
            DEFAULT_ROUNDS, DEFAULT_ROUND_MS, DEFAULT_MIN_BYTES,
            DEFAULT_MAX_BYTES);
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        die("%s: expected an integer in [%ld, %ld], got '%s'", opt, lo, hi, s);
    return v;
}

static void parse_args(int argc, char **argv, struct options *o)
{
    o->csv_path = NULL;
    o->baseline_only = 0;
    o->rounds = DEFAULT_ROUNDS;
    o->round_ms = DEFAULT_ROUND_MS;
    o->min_bytes = DEFAULT_MIN_BYTES;
    o->max_bytes = DEFAULT_MAX_BYTES;
#ifdef BENCH_WITHOUT_MPB
    o->baseline_only = 1;
#endif
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (g_rank == 0)
                usage(stdout);
            MPI_Finalize();
            exit(0);
        } else if (strcmp(a, "--baseline-only") == 0) {
            o->baseline_only = 1;
        } else if (v == NULL && (strcmp(a, "--csv") == 0 ||
                                 strcmp(a, "--rounds") == 0 ||
                                 strcmp(a, "--round-ms") == 0 ||
                                 strcmp(a, "--min-bytes") == 0 ||
                                 strcmp(a, "--max-bytes") == 0)) {
            die("%s needs a value", a);
        } else if (strcmp(a, "--csv") == 0) {
            o->csv_path = v;
            i++;
        } else if (strcmp(a, "--rounds") == 0) {
            o->rounds = (int)parse_long(a, v, 1, 1000);
            i++;
        } else if (strcmp(a, "--round-ms") == 0) {
            o->round_ms = (double)parse_long(a, v, 1, 100000);
            i++;
        } else if (strcmp(a, "--min-bytes") == 0) {
            o->min_bytes = (size_t)parse_long(a, v, 1, 1L << 30);
            i++;
        } else if (strcmp(a, "--max-bytes") == 0) {
            o->max_bytes = (size_t)parse_long(a, v, 1, 1L << 30);
            i++;
        } else {
            if (g_rank == 0)
                usage(stderr);
            die("unknown argument '%s'", a);
        }
    }
    if (o->min_bytes > o->max_bytes)
        die("--min-bytes (%zu) is larger than --max-bytes (%zu)",
            o->min_bytes, o->max_bytes);
    if (o->max_bytes > (size_t)INT_MAX)
        die("--max-bytes must fit in an int for MPI_Send");
}

/* The byte expected at offset i of a message of `size` bytes of one kind. */
static unsigned char pattern(size_t i, size_t size, int kind)
{
    return (unsigned char)((i * 131u + size * 7u + (size_t)kind * 61u + 17u) &
                           0xffu);
}

static void fill(unsigned char *buf, size_t size, int kind)
{
    for (size_t i = 0; i < size; i++)
        buf[i] = pattern(i, size, kind);
}

static void verify(const unsigned char *buf, size_t size, int kind,
                   const char *where)
{
    for (size_t i = 0; i < size; i++) {
        if (buf[i] != pattern(i, size, kind))
            die("%s: data mismatch for %s at %zu-byte message, offset %zu: "
                "got 0x%02x, expected 0x%02x",
                where, kind_name[kind], size, i, buf[i],
                pattern(i, size, kind));
    }
}

/* ---- one round trip of each kind ---------------------------------------- */

static inline void mpi_ping(const struct state *s, size_t size)
{
    check_mpi(MPI_Send(s->sbuf, (int)size, MPI_BYTE, s->peer_rank, PING_TAG,
                       MPI_COMM_WORLD),
              "MPI_Send");
    check_mpi(MPI_Recv(s->rbuf, (int)size, MPI_BYTE, s->peer_rank, PING_TAG,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
}

static inline void mpi_echo(const struct state *s, size_t size)
{
    check_mpi(MPI_Recv(s->rbuf, (int)size, MPI_BYTE, s->peer_rank, PING_TAG,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
    check_mpi(MPI_Send(s->rbuf, (int)size, MPI_BYTE, s->peer_rank, PING_TAG,
                       MPI_COMM_WORLD),
              "MPI_Send");
}

#ifndef BENCH_WITHOUT_MPB
static inline void ours_ping(const struct state *s, size_t size)
{
    int rc = mpb_send(s->ctx, s->peer_id, PING_TAG, s->sbuf, size);
    if (rc != MPB_OK)
        check_mpb_ok(rc, "mpb_send");
    rc = mpb_recv(s->ctx, s->peer_id, PING_TAG, s->rbuf, size, NULL, NULL,
                  NULL);
    if (rc != MPB_OK)
        check_mpb_ok(rc, "mpb_recv");
}

static inline void ours_echo(const struct state *s, size_t size)
{
    int rc = mpb_recv(s->ctx, s->peer_id, PING_TAG, s->rbuf, size, NULL, NULL,
                      NULL);
    if (rc != MPB_OK)
        check_mpb_ok(rc, "mpb_recv");
    rc = mpb_send(s->ctx, s->peer_id, PING_TAG, s->rbuf, size);
    if (rc != MPB_OK)
        check_mpb_ok(rc, "mpb_send");
}
#endif

/* Runs `iters` round trips of one kind; returns the elapsed seconds on the
 * pinging process (rank 0) and 0 on the echoing one. */
static double run_iters(const struct state *s, int kind, size_t size,
                        long iters)
{
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    double t0 = MPI_Wtime();
    if (kind == KIND_MPI) {
        if (s->rank == 0)
            for (long i = 0; i < iters; i++)
                mpi_ping(s, size);
        else
            for (long i = 0; i < iters; i++)
                mpi_echo(s, size);
    } else {
#ifndef BENCH_WITHOUT_MPB
        if (s->rank == 0)
            for (long i = 0; i < iters; i++)
                ours_ping(s, size);
        else
            for (long i = 0; i < iters; i++)
                ours_echo(s, size);
#else
        die("mpbridge support was not compiled in");
#endif
    }
    double t1 = MPI_Wtime();
    return s->rank == 0 ? t1 - t0 : 0.0;
}

/* One round trip with fresh receive buffers and a full compare on both
 * sides: rank 0 sends the pattern, rank 1 checks it and sends it back,
 * rank 0 checks the echo. */
static void check_round_trip(const struct state *s, int kind, size_t size)
{
    fill(s->sbuf, size, kind);
    memset(s->rbuf, 0, size);
    if (kind == KIND_MPI) {
        MPI_Status st;
        int count = -1;
        if (s->rank == 0) {
            mpi_ping(s, size);
        } else {
            check_mpi(MPI_Recv(s->rbuf, (int)size, MPI_BYTE, s->peer_rank,
                               PING_TAG, MPI_COMM_WORLD, &st),
                      "MPI_Recv");
            check_mpi(MPI_Get_count(&st, MPI_BYTE, &count), "MPI_Get_count");
            if ((size_t)count != size)
                die("MPI_Recv got %d bytes, expected %zu", count, size);
            verify(s->rbuf, size, kind, "echoing rank");
            check_mpi(MPI_Send(s->rbuf, (int)size, MPI_BYTE, s->peer_rank,
                               PING_TAG, MPI_COMM_WORLD),
                      "MPI_Send");
        }
    } else {
#ifndef BENCH_WITHOUT_MPB
        int src = -2, tag = -2;
        size_t len = (size_t)-1;
        if (s->rank == 0)
            check_mpb_ok(mpb_send(s->ctx, s->peer_id, PING_TAG, s->sbuf, size),
                         "mpb_send");
        check_mpb_ok(mpb_recv(s->ctx, s->peer_id, PING_TAG, s->rbuf, size, &src,
                              &tag, &len),
                     "mpb_recv");
        if (src != s->peer_id || tag != PING_TAG || len != size)
            die("mpb_recv reported source %d, tag %d, length %zu; expected "
                "%d, %d, %zu",
                src, tag, len, s->peer_id, PING_TAG, size);
        if (s->rank == 1) {
            verify(s->rbuf, size, kind, "echoing rank");
            check_mpb_ok(mpb_send(s->ctx, s->peer_id, PING_TAG, s->rbuf, size),
                         "mpb_send");
        }
#else
        die("mpbridge support was not compiled in");
#endif
    }
    if (s->rank == 0)
        verify(s->rbuf, size, kind, "pinging rank");
}

/* Iterations per round so that one round lasts about round_ms, from a timed
 * batch of `probe` round trips of the slower kind.  Decided on rank 0 and
 * broadcast, so both processes run the same loops. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* (median - min) / min of n values, in percent; sorts v. */
static double spread_percent(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return v[0] > 0.0 ? (med - v[0]) / v[0] * 100.0 : 0.0;
}

static long choose_iters(double slowest_s, long probe, double round_ms)
{
    double per_rt = slowest_s / (double)probe;
    double want = (per_rt > 0.0) ? (round_ms * 1e-3) / per_rt : MAX_ITERS;
    long iters = (want > (double)MAX_ITERS) ? MAX_ITERS : (long)want;
    if (iters < MIN_ITERS)
        iters = MIN_ITERS;
    return iters;
}

int main(int argc, char **argv)
{
    struct options opt;
    struct state s;
    int nranks = 0;

    check_mpi(MPI_Init(&argc, &argv), "MPI_Init");
    check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &nranks), "MPI_Comm_size");
    g_rank = s.rank;
    parse_args(argc, argv, &opt);
    if (nranks != 2)
        die("run with exactly 2 processes (mpiexec -n 2), not %d", nranks);
    s.peer_rank = 1 - s.rank;
    s.ctx = -1;
    s.peer_id = -1;

    const int nkinds = opt.baseline_only ? 1 : NKINDS;

#ifndef BENCH_WITHOUT_MPB
    const char *version = "(not used)";
    if (!opt.baseline_only) {
        check_mpb_ok(mpb_init(), "mpb_init (after the program's MPI_Init)");
        int n = check_mpb(mpb_nprocs(), "mpb_nprocs");
        if (n != 2)
            die("mpb_nprocs() is %d, but MPI_COMM_WORLD has 2 processes", n);
        int id0 = check_mpb(mpb_world_id(0), "mpb_world_id(0)");
        int id1 = check_mpb(mpb_world_id(1), "mpb_world_id(1)");
        int me = check_mpb(mpb_myid(), "mpb_myid");
        if (id0 == id1)
            die("mpb_world_id(0) and mpb_world_id(1) are both %d", id0);
        if (me != (s.rank == 0 ? id0 : id1))
            die("mpb_myid() is %d, but MPI rank %d has mpb_world_id %d", me,
                s.rank, s.rank == 0 ? id0 : id1);
        s.peer_id = (s.rank == 0) ? id1 : id0;
        s.ctx = check_mpb(mpb_context("bench"), "mpb_context(\"bench\")");
        version = mpb_version();
    }
#else
    const char *version = "(not built in)";
#endif

    double *samples[NKINDS];
    for (int k = 0; k < NKINDS; k++) {
        samples[k] = malloc((size_t)opt.rounds * sizeof(double));
        if (samples[k] == NULL)
            die("out of memory");
    }
    s.sbuf = malloc(opt.max_bytes);
    s.rbuf = malloc(opt.max_bytes);
    if (s.sbuf == NULL || s.rbuf == NULL)
        die("cannot allocate two buffers of %zu bytes", opt.max_bytes);
    memset(s.sbuf, 0, opt.max_bytes);
    memset(s.rbuf, 0, opt.max_bytes);

    FILE *csv = NULL;
    if (s.rank == 0) {
        char mpi_version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        check_mpi(MPI_Get_library_version(mpi_version, &len),
                  "MPI_Get_library_version");
        char *nl = strchr(mpi_version, '\n');
        if (nl != NULL)
            *nl = '\0';
        printf("# core ping-pong: one-way time = round trip / 2, minimum "
               "over %d rounds of ~%.0f ms\n",
               opt.rounds, opt.round_ms);
        printf("# MPI: %s\n# mpbridge: %s%s\n", mpi_version, version,
               opt.baseline_only ? " (baseline only)" : "");
        printf("%10s %12s %12s %8s %8s %8s\n", "bytes", "ours_us", "mpi_us",
               "ratio", "iters", "spread%");
        fflush(stdout);
        if (opt.csv_path != NULL && !opt.baseline_only) {
            csv = fopen(opt.csv_path, "a");
            if (csv == NULL)
                die("cannot open %s for appending: %s", opt.csv_path,
                    strerror(errno));
        }
    }

    for (size_t size = opt.min_bytes; size <= opt.max_bytes; size *= 2) {
        double best[NKINDS] = {0.0, 0.0};
        double warm[NKINDS] = {0.0, 0.0};

        /* 1. correctness, once per size and kind */
        for (int k = 0; k < nkinds; k++)
            check_round_trip(&s, k, size);

        /* 2. warm-up, then a timed batch to size the rounds */
        long probe = (long)(((size_t)1 << 22) / size);
        if (probe < 4)
            probe = 4;
        if (probe > 2000)
            probe = 2000;
        for (int k = 0; k < nkinds; k++)
            (void)run_iters(&s, k, size, probe);
        for (int rep = 0; rep < 3; rep++) {
            /* fastest of three batches: a batch that lost the CPU to
             * another process would make the rounds too short */
            for (int k = 0; k < nkinds; k++) {
                double t = run_iters(&s, k, size, probe);
                if (rep == 0 || t < warm[k])
                    warm[k] = t;
            }
        }
        long iters = choose_iters(warm[0] > warm[1] ? warm[0] : warm[1],
                                  probe, opt.round_ms);
        check_mpi(MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD),
                  "MPI_Bcast");

        /* 3. timed rounds, alternating which kind goes first */
        for (int r = 0; r < opt.rounds; r++) {
            for (int j = 0; j < nkinds; j++) {
                int k = (r % 2 == 0) ? j : nkinds - 1 - j;
                double t = run_iters(&s, k, size, iters);
                double one_way_us = t / (double)iters / 2.0 * 1e6;
                samples[k][r] = one_way_us;
                if (r == 0 || one_way_us < best[k])
                    best[k] = one_way_us;
            }
        }

        if (s.rank == 0) {
            double spread = 0.0;
            for (int k = 0; k < nkinds; k++) {
                double p = spread_percent(samples[k], opt.rounds);
                if (p > spread)
                    spread = p;
            }
            if (opt.baseline_only) {
                printf("%10zu %12s %12.3f %8s %8ld %8.1f\n", size, "-",
                       best[KIND_MPI], "-", iters, spread);
            } else {
                double ratio = best[KIND_OURS] / best[KIND_MPI];
                printf("%10zu %12.3f %12.3f %8.3f %8ld %8.1f\n", size,
                       best[KIND_OURS], best[KIND_MPI], ratio, iters, spread);
                if (csv != NULL) {
                    fprintf(csv, "core,pingpong,%zu,%.3f,mpi,%.3f,%.3f\n",
                            size, best[KIND_OURS], best[KIND_MPI], ratio);
                    fflush(csv);
                }
            }
            fflush(stdout);
        }
        if (size > opt.max_bytes / 2)
            break; /* the next doubling would pass max_bytes (or wrap) */
    }

    if (csv != NULL && fclose(csv) != 0)
        die("cannot write %s: %s", opt.csv_path, strerror(errno));
    free(s.sbuf);
    free(s.rbuf);
    for (int k = 0; k < NKINDS; k++)
        free(samples[k]);

#ifndef BENCH_WITHOUT_MPB
    if (!opt.baseline_only) {
        check_mpb_ok(mpb_finalize(), "mpb_finalize");
        int finalized = 0;
        check_mpi(MPI_Finalized(&finalized), "MPI_Finalized");
        if (finalized) {
            fprintf(stderr,
                    "core_pingpong[rank %d]: mpb_finalize finalised MPI, "
                    "which this program initialised itself\n",
                    s.rank);
            return 1;
        }
    }
#endif
    check_mpi(MPI_Finalize(), "MPI_Finalize");
    return 0;
}
