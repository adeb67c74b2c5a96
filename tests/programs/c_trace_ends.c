/* How a traced process that never leaves mpbridge ends its trace file.
 * One process (mpiexec -n 1, MPBRIDGE_TRACE set) that started MPI itself
 * sends itself messages of tags 1, 2, 3 and receives each, then:
 *   exit  calls exit(0) without mpb_finalize or MPI_Finalize: every event
 *         must be in the file (written by the exit handler);
 *   kill  waits 1.2 s before tag 2 (an event that late writes the buffer
 *         out, itself included) and kills itself with SIGKILL after tag 3:
 *         the file must read up to that write (send 1, receive 1, send 2),
 *         and what came after it is lost.
 * Prints "ready to end" before ending. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <mpbridge.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void round_trip(int ctx, int me, int tag) {
    int v = tag, got = 0, src = -1, t = -1;
    size_t len = 0;
    if (mpb_send(ctx, me, tag, &v, sizeof v) != MPB_OK ||
        mpb_recv(ctx, me, tag, &got, sizeof got, &src, &t, &len) != MPB_OK || got != tag) {
        printf("FAIL: round trip of tag %d\n", tag);
        exit(1);
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int kill_self = strcmp(mode, "kill") == 0;
    if (!kill_self && strcmp(mode, "exit") != 0) {
        fprintf(stderr, "usage: c_trace_ends exit|kill\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    if (mpb_init() != MPB_OK) {
        printf("FAIL: mpb_init\n");
        return 1;
    }
    int ctx = mpb_context("trace-ends"), me = mpb_myid();
    round_trip(ctx, me, 1);
    if (kill_self) {
        struct timespec pause = {1, 200000000};
        nanosleep(&pause, NULL);
    }
    round_trip(ctx, me, 2);
    round_trip(ctx, me, 3);
    printf("ready to end\n");
    fflush(stdout);
    if (kill_self)
        raise(SIGKILL);
    exit(0);
}
