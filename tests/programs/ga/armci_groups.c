/* ARMCI's processor groups: the world group, a group of the even ranks
 * made from the default group, a child group made from it, memory from
 * ARMCI_Malloc_group reached with put/get/accumulate by absolute rank,
 * the group collectives (barrier, broadcast, reductions of every type)
 * and the default group; ARMCI started by ARMCI_Init_thread, and the
 * memory-device forms of the allocations. Every rank checks what it sees
 * against what it can work out; rank 0 prints a line per step so the
 * harness can compare the run with Debian's ARMCI running this same
 * source. Prints
 * "armci_groups: N passed, M failed" on rank 0 (checks of all ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "armci.h"
#include "message.h"
#include "../tally.h"

enum { N = 16 };

static int me, np;

static double val(int rank, int i) { return 100.0 * rank + i + 0.5; }

/* Who this process is, then the world and default groups. */
static void world(void) {
    me = armci_msg_me();
    np = armci_msg_nproc();
    tally_who = me;
    ARMCI_Group w;
    int rank = -2, size = -2;
    ARMCI_Group_get_world(&w);
    EXPECT(ARMCI_Group_rank(&w, &rank), 0);
    ARMCI_Group_size(&w, &size);
    CHECK_EQ(rank, me, "world rank");
    CHECK_EQ(size, np, "world size");
    for (int r = 0; r < np; r++) CHECK_EQ(ARMCI_Absolute_id(&w, r), r, "world absolute id");
    CHECK(ARMCI_Uses_shm_grp(&w) == 0 || ARMCI_Uses_shm_grp(&w) == 1, "uses_shm_grp");
    ARMCI_Group d;
    ARMCI_Group_get_default(&d);
    ARMCI_Group_size(&d, &size);
    CHECK_EQ(size, np, "default group is the world");
    void *p[64];
    EXPECT(ARMCI_Malloc_memdev(p, 64, "host"), 0);
    CHECK(p[me] != NULL, "memory from ARMCI_Malloc_memdev");
    EXPECT(ARMCI_Free_memdev(p[me]), 0);
    if (me == 0) printf("world %d\n", np);
}

/* Memory on group g (this rank is its member `rank` of `size`). */
static void group_memory(ARMCI_Group *g, int rank, int size) {
    void *ptrs[64];
    double src[N], back[N];
    /* The memory-device form on the world group, the plain one otherwise. */
    if (size == np)
        EXPECT(ARMCI_Malloc_group_memdev(ptrs, N * sizeof(double), g, "host"), 0);
    else
        EXPECT(ARMCI_Malloc_group(ptrs, N * sizeof(double), g), 0);
    double *mine = ptrs[rank];
    CHECK(mine != NULL, "own group memory is there");
    int next = (rank + 1) % size;
    int next_abs = ARMCI_Absolute_id(g, next);
    for (int i = 0; i < N; i++) src[i] = val(me, i);
    armci_msg_group_barrier(g);
    EXPECT(ARMCI_Put(src, ptrs[next], N * sizeof(double), next_abs), 0);
    ARMCI_Fence(next_abs);
    double two = 2.0;
    EXPECT(ARMCI_Acc(ARMCI_ACC_DBL, &two, src, ptrs[next], N * sizeof(double), next_abs), 0);
    ARMCI_AllFence();
    armci_msg_group_barrier(g);
    EXPECT(ARMCI_Get(ptrs[next], back, N * sizeof(double), next_abs), 0);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += back[i] != 3 * val(me, i);
    CHECK_EQ(bad, 0, "put, accumulate and get back");
    armci_msg_group_barrier(g);
    if (me == 0) {
        double s = 0;
        for (int r = 0; r < size; r++) {
            EXPECT(ARMCI_Get(ptrs[r], back, N * sizeof(double), ARMCI_Absolute_id(g, r)), 0);
            for (int i = 0; i < N; i++) s += back[i] * (r + 1);
        }
        printf("group memory %d %.2f\n", size, s);
    }
    armci_msg_group_barrier(g);
    EXPECT(ARMCI_Free_group(mine, g), 0);
}

static void group_collectives(ARMCI_Group *g, int rank, int size) {
    double d[2] = {me + 1.0, 0.5};
    armci_msg_group_dgop(d, 2, "+", g);
    double want = 0;
    for (int r = 0; r < size; r++) want += ARMCI_Absolute_id(g, r) + 1.0;
    CHECK(d[0] == want && d[1] == 0.5 * size, "group dgop");
    int i[2] = {me, -me};
    armci_msg_group_igop(i, 2, "max", g);
    CHECK_EQ(i[0], ARMCI_Absolute_id(g, size - 1), "group igop max");
    CHECK_EQ(i[1], 0, "group igop max of negatives");
    long l = rank;
    armci_msg_group_lgop(&l, 1, "+", g);
    CHECK_EQ(l, (long)size * (size - 1) / 2, "group lgop");
    long long ll = 2;
    armci_msg_group_llgop(&ll, 1, "*", g);
    CHECK_EQ(ll, 1LL << size, "group llgop");
    float f = 1.5f;
    armci_msg_group_fgop(&f, 1, "+", g);
    CHECK(f == 1.5f * size, "group fgop");
    double m = -(double)me;
    armci_msg_group_gop_scope(SCOPE_ALL, &m, 1, "min", ARMCI_DOUBLE, g);
    CHECK(m == -(double)ARMCI_Absolute_id(g, size - 1), "group gop_scope");
    int b[3] = {0, 0, 0};
    if (rank == size - 1) b[0] = 7, b[1] = me, b[2] = 9;
    /* The root is named by its absolute rank. */
    armci_msg_group_bcast_scope(SCOPE_ALL, b, sizeof b, ARMCI_Absolute_id(g, size - 1), g);
    CHECK(b[0] == 7 && b[1] == ARMCI_Absolute_id(g, size - 1) && b[2] == 9, "group bcast");
    if (me == 0) printf("group sums %.2f %d %ld %lld %.2f %.2f %d\n", d[0], i[0], l, ll, f, m, b[1]);
}

static void evens(void) {
    int list[64], n = 0;
    for (int r = 0; r < np; r += 2) list[n++] = r;
    ARMCI_Group ev;
    ARMCI_Group_create(n, list, &ev);
    int rank = -2, size = -2;
    /* A process outside a group gets rank -1, size 0 and a non-zero
     * return from ARMCI_Group_rank. */
    EXPECT(ARMCI_Group_rank(&ev, &rank), me % 2 == 0 ? 0 : 1);
    ARMCI_Group_size(&ev, &size);
    CHECK_EQ(size, me % 2 == 0 ? n : 0, "evens size");
    CHECK_EQ(rank, me % 2 == 0 ? me / 2 : -1, "evens rank");
    ARMCI_Barrier();
    if (me % 2 == 0) {
        for (int r = 0; r < n; r++) CHECK_EQ(ARMCI_Absolute_id(&ev, r), 2 * r, "evens absolute id");
        group_memory(&ev, rank, size);
        group_collectives(&ev, rank, size);

        /* A child of the evens: its first and last member. */
        int ends[2] = {0, n - 1};
        ARMCI_Group child;
        ARMCI_Group_create_child(n > 1 ? 2 : 1, ends, &child, &ev);
        int crank = -2, csize = -2;
        ARMCI_Group_rank(&child, &crank);
        ARMCI_Group_size(&child, &csize);
        int in = me == 0 || me == 2 * (n - 1);
        CHECK_EQ(csize, in ? (n > 1 ? 2 : 1) : 0, "child size");
        CHECK_EQ(crank, in ? (me == 0 ? 0 : 1) : -1, "child rank");
        if (in) {
            group_collectives(&child, crank, csize);
            ARMCI_Group_free(&child);
        }

        /* The evens as the default group: a group made from it. */
        ARMCI_Group_set_default(&ev);
        ARMCI_Group d;
        ARMCI_Group_get_default(&d);
        int dsize = -2;
        ARMCI_Group_size(&d, &dsize);
        CHECK_EQ(dsize, n, "default group is the evens");
        int first[1] = {n - 1};
        ARMCI_Group last;
        ARMCI_Group_create(1, first, &last);
        int lrank = -2;
        ARMCI_Group_rank(&last, &lrank);
        CHECK_EQ(lrank, me == 2 * (n - 1) ? 0 : -1, "group made from the default");
        if (lrank == 0) {
            CHECK_EQ(ARMCI_Absolute_id(&last, 0), me, "its one member");
            ARMCI_Group_free(&last);
        }
        ARMCI_Group w;
        ARMCI_Group_get_world(&w);
        ARMCI_Group_set_default(&w);
        armci_msg_group_barrier(&ev);
        ARMCI_Group_free(&ev);
    }
    ARMCI_Barrier();
    if (me == 0) printf("evens %d\n", n);
}

/* Rank 0 prints every rank's checks added up over the world group; ends
 * ARMCI and MPI. Returns the exit status: 1 if a check failed here. */
static int report(ARMCI_Group *world) {
    int sums[2] = {passed, failed};
    armci_msg_group_igop(sums, 2, "+", world);
    if (me == 0) printf("armci_groups: %d passed, %d failed\n", sums[0], sums[1]);
    ARMCI_Finalize();
    MPI_Finalize();
    return failed != 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    EXPECT(ARMCI_Init_thread(MPI_THREAD_SINGLE), 0);
    world();
    evens();
    /* The world group again after the evens are gone. */
    ARMCI_Group w;
    ARMCI_Group_get_world(&w);
    group_memory(&w, me, np);
    group_collectives(&w, me, np);
    return report(&w);
}
