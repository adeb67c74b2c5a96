/* A program that never calls MPI itself: mpbridge initialises MPI and
 * finalises it when the program leaves. */
#include <mpi.h>
#include <mpbridge.h>
#include <stdio.h>
#include "tally.h"

int main(void) {
    int flag = 1;
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI not running before mpb_init");
    CHECK(mpb_init() == MPB_OK, "mpb_init starts MPI");
    MPI_Initialized(&flag);
    CHECK(flag, "MPI running after mpb_init");
    CHECK(mpb_init() == MPB_OK, "second mpb_init is harmless");
    int n = mpb_nprocs(), me = mpb_myid();
    int ctx = mpb_context("self-init");
    int root = mpb_world_id(0);
    if (me == root) {
        for (int i = 1; i < n; i++) {
            int v = 0, src = 0;
            CHECK(mpb_recv(ctx, MPB_ANY, 9, &v, sizeof v, &src, NULL, NULL) == MPB_OK, "gather");
            CHECK(v == src, "each rank sends its id");
        }
    } else {
        CHECK(mpb_send(ctx, root, 9, &me, sizeof me) == MPB_OK, "send id to rank 0");
    }
    CHECK(mpb_finalize() == MPB_OK, "mpb_finalize");
    MPI_Finalized(&flag);
    CHECK(flag, "mpbridge finalised the MPI it started");
    CHECK(mpb_myid() == MPB_ENOTINIT, "calls after mpb_finalize report MPB_ENOTINIT");
    CHECK(mpb_init() == MPB_ENOTINIT, "MPI cannot start twice in one process");
    printf("c_self_init id %x: %d passed, %d failed\n", me, passed, failed);
    return failed != 0;
}
