/* The user's code owns MPI: it calls MPI_Init before mpbridge and
 * MPI_Finalize after it. mpbridge must share that MPI, leave it running
 * after mpb_finalize, and report bad arguments with its error codes. */
#include <mpi.h>
#include <mpbridge.h>
#include <stdio.h>
#include <string.h>
#include "tally.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    CHECK(mpb_myid() == MPB_ENOTINIT, "calls before mpb_init report MPB_ENOTINIT");
    CHECK(mpb_init() == MPB_OK, "mpb_init with MPI already running");
    CHECK(mpb_nprocs() == size, "mpb_nprocs equals the MPI world size");
    CHECK(mpb_world_id(rank) == mpb_myid(), "own id by rank");
    CHECK(mpb_world_id(size) == MPB_EINVAL, "rank out of range");
    int ctx = mpb_context("c-ring");
    CHECK(ctx >= 0, "context created");
    CHECK(mpb_context(NULL) == MPB_EINVAL, "NULL context name");

    /* A ring carrying a growing array of ints. */
    int right = mpb_world_id((rank + 1) % size), left = mpb_world_id((rank + size - 1) % size);
    int data[1000];
    for (int i = 0; i < 1000; i++) data[i] = rank * 1000 + i;
    CHECK(mpb_send(ctx, right, 42, data, sizeof data) == MPB_OK, "send to the right");
    int got[1000], src = -1, tag = -1;
    size_t len = 0;
    CHECK(mpb_recv(ctx, MPB_ANY, 42, got, sizeof got, &src, &tag, &len) == MPB_OK, "receive from the left");
    CHECK(src == left && tag == 42 && len == sizeof got, "envelope of the ring message");
    int lr = (rank + size - 1) % size, ok = 1;
    for (int i = 0; i < 1000; i++) ok &= got[i] == lr * 1000 + i;
    CHECK(ok, "ring payload");

    /* Bad input gets error codes. */
    CHECK(mpb_send(ctx, right, -3, data, 4) == MPB_EINVAL, "negative tag");
    CHECK(mpb_send(ctx, right, 1, NULL, 4) == MPB_EINVAL, "NULL buffer with a length");
    CHECK(mpb_send(ctx, 0x40000, 1, data, 4) == MPB_EINVAL, "malformed process id (rank part 0)");
    CHECK(mpb_send(ctx, -5, 1, data, 4) == MPB_EINVAL, "negative process id");
    CHECK(mpb_send(ctx, mpb_world_id(0) + size, 1, data, 4) == MPB_ENOPEER, "no such rank in this world");
    CHECK(mpb_send(999, right, 1, data, 4) == MPB_ENOCTX, "unknown context");
    CHECK(mpb_recv(ctx, MPB_ANY, -7, got, 4, NULL, NULL, NULL) == MPB_EINVAL, "tag below -1");
    double t0 = MPI_Wtime();
    CHECK(mpb_trecv(ctx, MPB_ANY, 77, got, 4, 0.1, NULL, NULL, NULL) == MPB_ETIMEOUT, "timed receive expires");
    CHECK(MPI_Wtime() - t0 >= 0.1, "after the timeout");
    CHECK(mpb_trecv(ctx, MPB_ANY, 77, got, 4, -1.0, NULL, NULL, NULL) == MPB_EINVAL, "negative timeout");
    CHECK(mpb_send(ctx, mpb_myid(), 5, data, 40) == MPB_OK, "send to self");
    CHECK(mpb_probe(ctx, MPB_ANY, 5, &src, &tag, &len) == 1 && len == 40, "probe sees the self-message");
    CHECK(mpb_probe(ctx, MPB_ANY, 6, NULL, NULL, NULL) == 0, "probe of nothing");
    len = 0;
    CHECK(mpb_recv(ctx, MPB_ANY, 5, got, 8, NULL, NULL, &len) == MPB_ETRUNC && len == 40, "truncation reports the length");
    CHECK(got[0] == data[0] && got[1] == data[1], "truncated receive keeps the first bytes");
    CHECK(strcmp(mpb_strerror(MPB_ETRUNC), "message truncated") == 0, "error text");
    CHECK(mpb_strerror(-999) != NULL, "text for an unknown code");

    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mpb_finalize() == MPB_OK, "mpb_finalize");
    CHECK(mpb_finalize() == MPB_ENOTINIT, "second mpb_finalize");
    int finalized = 1;
    MPI_Finalized(&finalized);
    CHECK(!finalized, "MPI still running after mpb_finalize: the user owns it");
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size, "user's MPI still works");
    printf("c_user_init rank %d: %d passed, %d failed\n", rank, passed, failed);
    MPI_Finalize();
    return failed != 0;
}
