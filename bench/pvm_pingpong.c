/*
 * PVM ping-pong: one-way message time of two PVM tasks, by message size.
 *
 * The same source is built twice:
 *   - against mpbridge (-DWITH_MPI): run as `mpiexec -n 2`; the two ranks
 *     are PVM siblings, and the same job also times raw MPI_Send/MPI_Recv
 *     between them, alternating rounds, as the baseline;
 *   - against Debian's PVM 3.4.6: run as one task under a running pvmd; it
 *     spawns its partner (a copy of itself) and sets direct routing.
 *
 * Modes: "raw" = pvm_initsend(PvmDataRaw) + pvm_pkbyte + pvm_send and
 * pvm_recv + pvm_upkbyte; "inplace" = the same with PvmDataInPlace;
 * "psend" = pvm_psend / pvm_precv.
 *
 * The first task prints one line per size and mode:
 *   RESULT <mode> <bytes> <pvm_us> [<mpi_us>]
 * (minimum over rounds of the mean one-way time, in microseconds).
 *
 * Usage: pvm_pingpong [--max-bytes N] [--rounds N] [--round-ms MS]
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

#define TAG_CTL 9
#define TAG_DATA 1

static double now_us(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1e6 + tv.tv_usec;
}

static void check(int rc, const char *what) {
    if (rc < 0) {
        fprintf(stderr, "pvm_pingpong: %s failed (%d)\n", what, rc);
        pvm_exit();
        exit(1);
    }
}

enum mode { RAW = 0, PSEND = 1, INPLACE = 2, MPI = 3 };

/* One round trip started by the first task (`lead`) or answered. */
static void trip(enum mode m, int lead, int peer, char *buf, int size) {
    int atid, atag, alen;
    if (m == RAW || m == INPLACE) {
        int enc = m == RAW ? PvmDataRaw : PvmDataInPlace;
        if (lead) {
            check(pvm_initsend(enc), "pvm_initsend");
            check(pvm_pkbyte(buf, size, 1), "pvm_pkbyte");
            check(pvm_send(peer, TAG_DATA), "pvm_send");
            check(pvm_recv(peer, TAG_DATA), "pvm_recv");
            check(pvm_upkbyte(buf, size, 1), "pvm_upkbyte");
        } else {
            check(pvm_recv(peer, TAG_DATA), "pvm_recv");
            check(pvm_upkbyte(buf, size, 1), "pvm_upkbyte");
            check(pvm_initsend(enc), "pvm_initsend");
            check(pvm_pkbyte(buf, size, 1), "pvm_pkbyte");
            check(pvm_send(peer, TAG_DATA), "pvm_send");
        }
    } else if (m == PSEND) {
        if (lead) {
            check(pvm_psend(peer, TAG_DATA, buf, size, PVM_BYTE), "pvm_psend");
            check(pvm_precv(peer, TAG_DATA, buf, size, PVM_BYTE, &atid, &atag, &alen), "pvm_precv");
        } else {
            check(pvm_precv(peer, TAG_DATA, buf, size, PVM_BYTE, &atid, &atag, &alen), "pvm_precv");
            check(pvm_psend(peer, TAG_DATA, buf, size, PVM_BYTE), "pvm_psend");
        }
    }
#ifdef WITH_MPI
    else {
        int other = lead ? 1 : 0;
        if (lead) {
            MPI_Send(buf, size, MPI_BYTE, other, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, other, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, other, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, other, TAG_DATA, MPI_COMM_WORLD);
        }
    }
#endif
}

/* The first task tells its partner what to do next: mode, size, iterations
 * (iterations 0 ends the run). */
static void order(int peer, int m, int size, int iters) {
    int msg[3] = {m, size, iters};
    check(pvm_initsend(PvmDataDefault), "pvm_initsend");
    check(pvm_pkint(msg, 3, 1), "pvm_pkint");
    check(pvm_send(peer, TAG_CTL), "pvm_send");
}

int main(int argc, char **argv) {
    long max_bytes = 4L << 20;
    int rounds = 5;
    double round_ms = 20;
    int partner_mode = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) max_bytes = atol(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--round-ms") && i + 1 < argc) round_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--partner")) partner_mode = 1;
    }
#ifdef WITH_MPI
    /* The program owns MPI, as a code mixing MPI and PVM would. */
    MPI_Init(&argc, &argv);
#endif
    int me = pvm_mytid();
    check(me, "pvm_mytid");
    pvm_setopt(PvmRoute, PvmRouteDirect);
    int *sibs = NULL;
    int nsibs = pvm_siblings(&sibs);
    int lead, peer;
    if (partner_mode) {
        lead = 0;
        peer = pvm_parent();
    } else if (nsibs >= 2) {
        lead = sibs[0] == me;
        peer = lead ? sibs[1] : sibs[0];
        if (sibs[0] != me && sibs[1] != me) { pvm_exit(); return 0; }
    } else {
        char *args[] = {"--partner", NULL};
        int tid = 0;
        if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tid) != 1) {
            fprintf(stderr, "pvm_pingpong: cannot spawn the partner (%d)\n", tid);
            pvm_exit();
            return 1;
        }
        lead = 1;
        peer = tid;
    }
    char *buf = malloc(max_bytes > 0 ? max_bytes : 1);
    memset(buf, 7, max_bytes);

    if (!lead) {
        for (;;) {
            int msg[3];
            check(pvm_recv(peer, TAG_CTL), "pvm_recv");
            check(pvm_upkint(msg, 3, 1), "pvm_upkint");
            if (msg[2] == 0) break;
            for (int k = 0; k < msg[2]; k++) trip((enum mode)msg[0], 0, peer, buf, msg[1]);
        }
        pvm_exit();
#ifdef WITH_MPI
        MPI_Finalize();
#endif
        return 0;
    }

    int modes[4] = {RAW, PSEND, INPLACE, MPI};
#ifdef WITH_MPI
    int nmodes = 4;
#else
    int nmodes = 3;
#endif
    static const char *names[4] = {"raw", "psend", "inplace", "mpi"};
    for (long size = 8; size <= max_bytes; size *= 2) {
        double best[4] = {1e30, 1e30, 1e30, 1e30};
        int iters = 4;
        /* Calibrate on the raw mode: iterations for a round of round_ms. */
        for (;;) {
            order(peer, RAW, (int)size, iters);
            double t0 = now_us();
            for (int k = 0; k < iters; k++) trip(RAW, 1, peer, buf, (int)size);
            double t = now_us() - t0;
            if (t > round_ms * 1000 / 4 || iters > 1 << 20) {
                iters = (int)(iters * (round_ms * 1000) / (t > 1 ? t : 1)) + 1;
                break;
            }
            iters *= 4;
        }
        for (int r = 0; r < rounds; r++) {
            for (int mi = 0; mi < nmodes; mi++) {
                int m = modes[(mi + r) % nmodes];
                order(peer, m, (int)size, iters);
                double t0 = now_us();
                for (int k = 0; k < iters; k++) trip((enum mode)m, 1, peer, buf, (int)size);
                double one_way = (now_us() - t0) / iters / 2;
                if (one_way < best[m]) best[m] = one_way;
            }
        }
        for (int m = 0; m < 3; m++) {
            if (nmodes == 4)
                printf("RESULT %s %ld %.3f %.3f\n", names[m], size, best[m], best[MPI]);
            else
                printf("RESULT %s %ld %.3f\n", names[m], size, best[m]);
        }
        fflush(stdout);
    }
    order(peer, RAW, 0, 0);
    free(buf);
    pvm_exit();
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    return 0;
}
