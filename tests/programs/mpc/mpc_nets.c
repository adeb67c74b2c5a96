/* The mpC-style run-time from C: networks made by the dispatcher, their
 * region descriptors and communicators, subnetworks, HeteroMPI-style
 * groups, and the dispatcher's deadlock check.
 *
 *   mpc_nets mpc       the host makes a 3-node and a 2x2 network; free
 *                      processes are hired through MPC_Offer
 *   mpc_nets hmpi      HMPI_Recon, HMPI_Timeof, HMPI_Group_create and
 *                      HMPI_Group_auto_create on host and free processes
 *   mpc_nets deadlock  two members of one network each ask for a network
 *                      bigger than the free processes: the dispatcher
 *                      ends the job with MPC_Abort
 *   mpc_nets patience  the host comes late to a barrier of a 3-node
 *                      network; the members waiting in MPI_Barrier use
 *                      little CPU (they sleep, not spin)
 *
 * Run on 4 processes (host, two free, dispatcher). Each computing process
 * prints "mpc_nets rank R: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <mpc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "../tally.h"

static int me;

/* Work every member of a network does: check the descriptor against the
 * communicator and sum the node numbers over it. */
static void work(MPC_Net net)
{
    int size = -1, node = -1, kind = -1, parent = -1, ndims = 0;
    EXPECT(MPC_Is_member(net), 1);
    EXPECT(MPC_Net_size(net, &size), MPC_OK);
    EXPECT(MPC_Net_rank(net, &node), MPC_OK);
    EXPECT(MPC_Net_kind(net, &kind), MPC_OK);
    EXPECT(MPC_Net_parent(net, &parent), MPC_OK);
    EXPECT(MPC_Net_ndims(net, &ndims), MPC_OK);
    CHECK_EQ(parent, 0, "parent node");
    MPI_Comm comm = MPI_COMM_NULL;
    EXPECT(MPC_Net_comm(net, &comm), MPC_OK);
    int crank = -1, csize = -1;
    MPI_Comm_rank(comm, &crank);
    MPI_Comm_size(comm, &csize);
    CHECK_EQ(crank, node, "communicator rank is the node number");
    CHECK_EQ(csize, size, "communicator size");
    int proc = -1;
    EXPECT(MPC_Net_proc(net, node, &proc), MPC_OK);
    CHECK_EQ(proc, me, "the node's process is this one");
    int sum = 0;
    MPI_Allreduce(&node, &sum, 1, MPI_INT, MPI_SUM, comm);
    CHECK_EQ(sum, size * (size - 1) / 2, "sum of node numbers over the network");
    int coords[4] = {-1, -1, -1, -1}, back = -1;
    EXPECT(MPC_Net_coords(net, node, coords), MPC_OK);
    EXPECT(MPC_Net_linear(net, coords, &back), MPC_OK);
    CHECK_EQ(back, node, "coordinates round trip");
    if (kind == 1) {
        double p = 0, len = -1;
        EXPECT(MPC_Net_power(net, node, &p), MPC_OK);
        CHECK(p == 1.0 + node, "node %d has power %g", node, p);
        EXPECT(MPC_Net_link(net, 0, 2, &len), MPC_OK);
        CHECK(len == 4096.0, "link 0->2 is %g bytes", len);
        EXPECT(MPC_Net_power(net, 7, &p), MPC_ERR_ARG);
        /* Subnetwork of the nodes but the parent. */
        MPC_Net sub = 0;
        EXPECT(MPC_Subnet_create(net, node != 0, &sub), MPC_OK);
        CHECK_EQ(MPC_Is_member(sub), node != 0, "subnetwork membership");
        if (node != 0) {
            MPI_Comm sc = MPI_COMM_NULL;
            int ss = -1, one = 1, n = 0;
            EXPECT(MPC_Net_comm(sub, &sc), MPC_OK);
            MPI_Comm_size(sc, &ss);
            MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, sc);
            CHECK_EQ(ss, 2, "subnetwork size");
            CHECK_EQ(n, 2, "sum over the subnetwork");
        }
        EXPECT(MPC_Subnet_free(&sub), MPC_OK);
        CHECK_EQ(sub, 0, "freed subnetwork handle");
    } else {
        CHECK_EQ(ndims, 2, "the second network has two coordinates");
        CHECK_EQ(coords[0] * 2 + coords[1], node, "row-major coordinates");
    }
}

static int run_mpc(void)
{
    if (MPC_Is_host()) {
        int dims1[1] = {3};
        double power[3] = {1.0, 2.0, 3.0};
        int from[1] = {0}, to[1] = {2};
        double len[1] = {4096.0};
        MPC_Nettype t1 = {1, 1, dims1, power, 1, from, to, len, 0};
        MPC_Net net = 0;
        EXPECT(MPC_Net_create(&t1, &net), MPC_OK);
        /* One host: the biggest volume (node 2) takes the lowest free rank. */
        int p2 = -1, p1 = -1;
        EXPECT(MPC_Net_proc(net, 2, &p2), MPC_OK);
        EXPECT(MPC_Net_proc(net, 1, &p1), MPC_OK);
        CHECK(p2 == 1 && p1 == 2, "nodes 1, 2 on processes %d, %d", p1, p2);
        work(net);
        EXPECT(MPC_Net_free(&net), MPC_OK);
        CHECK_EQ(net, 0, "freed handle");
        EXPECT(MPC_Is_member(net), 0);

        int dims2[2] = {1, 2};
        MPC_Nettype t2 = {2, 2, dims2, NULL, 0, NULL, NULL, NULL, 0};
        EXPECT(MPC_Net_create(&t2, &net), MPC_OK);
        work(net);
        EXPECT(MPC_Net_free(&net), MPC_OK);

        /* Bad input gets MPC_ERR_ARG and a message. */
        int bad[1] = {0};
        MPC_Nettype t3 = {3, 1, bad, NULL, 0, NULL, NULL, NULL, 0};
        EXPECT(MPC_Net_create(&t3, &net), MPC_ERR_ARG);
        char msg[200] = "";
        EXPECT(MPC_Error_message(msg, sizeof msg), MPC_OK);
        CHECK(strstr(msg, "MPC_Net_create") && strstr(msg, "extent 0"), "message: %s", msg);
        EXPECT(MPC_Net_create(NULL, &net), MPC_ERR_ARG);
        EXPECT(MPC_Offer(&net), MPC_ERR_ROLE);
        EXPECT(MPC_Net_size(12345, &dims2[0]), MPC_ERR_HANDLE);
    } else {
        MPC_Net net = 0;
        int rc, jobs = 0;
        while ((rc = MPC_Offer(&net)) == MPC_OK) {
            jobs++;
            work(net);
            EXPECT(MPC_Net_free(&net), MPC_OK);
        }
        EXPECT(rc, MPC_DONE);
        CHECK_EQ(net, 0, "no network after MPC_DONE");
        /* Each free process: the first network and, for one, the second. */
        CHECK(jobs == 1 || jobs == 2, "%d networks", jobs);
    }
    return 0;
}

/* Model: n processes share a volume of 6 evenly; the host's share is
 * the same. Refuses more than 3. */
static int even_shape(const void *params, int nparams, int nprocs, double *power, double *links)
{
    (void)links;
    if (nparams != 1 || nprocs > 3)
        return 1;
    double total = *(const double *)params;
    for (int i = 0; i < nprocs; i++)
        power[i] = total / nprocs;
    return 0;
}

static void bench(const void *in, int n, void *out)
{
    (void)in;
    (void)n;
    volatile double x = 0;
    for (int i = 0; i < 2000000; i++)
        x += 1.0 / (i + 1);
    *(double *)out = x;
}

static int run_hmpi(void)
{
    double out = 0;
    EXPECT(HMPI_Recon(bench, NULL, 0, &out), HMPI_SUCCESS);
    CHECK(out > 1.0, "the benchmark ran");
    double total = 6.0;
    HMPI_Model three = {even_shape, 3};
    HMPI_Group g = 0;
    int np = 0;
    EXPECT(HMPI_Get_number_of_processors(&np), HMPI_SUCCESS);
    CHECK_EQ(np, 3, "computing processes");
    if (HMPI_Is_host()) {
        double speeds[3] = {0, 0, 0};
        EXPECT(HMPI_Get_processors_info(speeds), HMPI_SUCCESS);
        for (int i = 0; i < 3; i++)
            CHECK(speeds[i] == 1.0, "one host: speed of process %d is %g", i, speeds[i]);
        HMPI_Model one = {even_shape, 1};
        double t3 = HMPI_Timeof(&three, &total, 1);
        double t1 = HMPI_Timeof(&one, &total, 1);
        /* 3 processes of volume 2 on one host of 2 processors share them:
         * half the time of one process doing all 6. */
        CHECK(t3 > 0 && t1 > 0 && t3 / t1 > 0.499 && t3 / t1 < 0.501,
              "HMPI_Timeof gives %g for 3 and %g for 1", t3, t1);
        CHECK_EQ(HMPI_Is_free(), 0, "the host is never free");
    }
    EXPECT(HMPI_Group_create(&g, &three, &total, 1), HMPI_SUCCESS);
    CHECK_EQ(HMPI_Is_member(&g), 1, "everyone is in the group of 3");
    int size = 0, rank = -1;
    EXPECT(HMPI_Group_size(&g, &size), HMPI_SUCCESS);
    EXPECT(HMPI_Group_rank(&g, &rank), HMPI_SUCCESS);
    CHECK_EQ(size, 3, "group size");
    const MPI_Comm *c = HMPI_Get_comm(&g);
    CHECK(c != NULL, "member has a communicator");
    if (c) {
        int r = -1;
        MPI_Comm_rank(*c, &r);
        CHECK_EQ(r, rank, "communicator rank");
    }
    if (HMPI_Is_host())
        CHECK_EQ(rank, 0, "the host is process 0 of its group");
    /* The last member asks late, when the others have left the group
     * already and wait for it in HMPI_Group_free's barrier: the answer
     * must not wait for them to offer themselves again. */
    if (rank == 2) {
        const struct timespec late = {0, 300000000};
        nanosleep(&late, NULL);
    }
    double perf[3] = {0, 0, 0};
    EXPECT(HMPI_Group_performances(&g, perf), HMPI_SUCCESS);
    CHECK(perf[0] == 1.0 && perf[2] == 1.0, "group performances");
    int nd = 0, dims[2] = {0, 0};
    EXPECT(HMPI_Group_topology(&g, 2, &nd, dims), HMPI_SUCCESS);
    CHECK(nd == 1 && dims[0] == 3, "topology %d [%d]", nd, dims[0]);
    EXPECT(HMPI_Group_free(&g), HMPI_SUCCESS);
    CHECK_EQ(g, 0, "freed group handle");

    /* With 2 processors on the one host, 2 processes are as fast as 3:
     * the fewer win. One free process is left out. */
    HMPI_Model any = {even_shape, 0};
    EXPECT(HMPI_Group_auto_create(&g, &any, &total, 1), HMPI_SUCCESS);
    int n_in = HMPI_Is_member(&g);
    if (n_in) {
        EXPECT(HMPI_Group_size(&g, &size), HMPI_SUCCESS);
        CHECK_EQ(size, 2, "auto-created group size");
        CHECK_EQ(HMPI_Is_free(), 0, "a member is not free");
    } else {
        CHECK(HMPI_Get_comm(&g) == NULL, "a non-member has no communicator");
        CHECK_EQ(HMPI_Is_free(), 1, "a process left out is free");
    }
    EXPECT(HMPI_Group_free(&g), HMPI_SUCCESS);
    printf("mpc_nets member rank %d: %d\n", me, n_in);
    return 0;
}

static int run_deadlock(void)
{
    int dims2[1] = {2}, dims3[1] = {3};
    MPC_Nettype pair = {1, 1, dims2, NULL, 0, NULL, NULL, NULL, 0};
    MPC_Nettype three = {2, 1, dims3, NULL, 0, NULL, NULL, NULL, 0};
    MPC_Net net = 0, more = 0;
    if (MPC_Is_host()) {
        EXPECT(MPC_Net_create(&pair, &net), MPC_OK);
    } else if (MPC_Offer(&net) != MPC_OK) {
        return 0; /* the one process left free */
    }
    /* Both members of the pair now need 2 free processes; 1 is free. */
    fprintf(stderr, "rank %d asks for a network of 3\n", me);
    MPC_Net_create(&three, &more);
    CHECK(0, "a request that can never be served returned");
    return 0;
}

/* CPU seconds this process has used. */
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
           (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

/* The host comes late to the second barrier of a network; its members
 * wait there, first measuring the share of a processor a spinning process
 * gets on this machine now. Waiting must take under half that share
 * (counted as at least 0.3 of a processor). */
static int run_patience(void)
{
    const char *y = getenv("OMPI_MCA_mpi_yield_when_idle");
    CHECK(y && strcmp(y, "1") == 0, "MPC_Init asks Open MPI to yield when idle (%s)", y ? y : "unset");
    MPC_Net net = 0;
    if (MPC_Is_host()) {
        int dims[1] = {3};
        MPC_Nettype t = {1, 1, dims, NULL, 0, NULL, NULL, NULL, 0};
        EXPECT(MPC_Net_create(&t, &net), MPC_OK);
        MPI_Comm c;
        EXPECT(MPC_Net_comm(net, &c), MPC_OK);
        MPI_Barrier(c);
        const struct timespec late = {1, 200000000};
        nanosleep(&late, NULL);
        MPI_Barrier(c);
        EXPECT(MPC_Net_free(&net), MPC_OK);
    } else {
        int rc;
        while ((rc = MPC_Offer(&net)) == MPC_OK) {
            MPI_Comm c;
            EXPECT(MPC_Net_comm(net, &c), MPC_OK);
            MPI_Barrier(c);
            double s0 = MPI_Wtime(), sc0 = cpu_seconds();
            while (MPI_Wtime() - s0 < 0.3)
                ;
            double share = (cpu_seconds() - sc0) / (MPI_Wtime() - s0);
            double w0 = MPI_Wtime(), c0 = cpu_seconds();
            MPI_Barrier(c);
            double wall = MPI_Wtime() - w0, cpu = cpu_seconds() - c0;
            printf("mpc_nets patience of rank %d: spinning gets %.3f of a processor; waiting %.3f s took %.4f s\n",
                   me, share, wall, cpu);
            CHECK(wall > 0.5, "waited %.3f s for the late host", wall);
            /* Waiting must take under half the share a spinning process
             * gets. On a machine so loaded that a spinner gets under 0.3
             * of a processor, a napping waiter's wake-ups cost about as
             * much (5 to 10 %), so the share counts as at least 0.3. */
            double bar = 0.5 * (share > 0.3 ? share : 0.3);
            CHECK(cpu < bar * wall,
                  "waiting %.3f s in MPI_Barrier took %.4f s of CPU (a spinning process gets %.3f)", wall, cpu,
                  share);
            EXPECT(MPC_Net_free(&net), MPC_OK);
        }
        EXPECT(rc, MPC_DONE);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "mpc";
    EXPECT(MPC_Init(&argc, &argv), MPC_OK);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    tally_who = me;
    if (strcmp(mode, "hmpi") == 0)
        run_hmpi();
    else if (strcmp(mode, "deadlock") == 0)
        run_deadlock();
    else if (strcmp(mode, "patience") == 0)
        run_patience();
    else
        run_mpc();
    EXPECT(MPC_Finalize(), MPC_OK);
    printf("mpc_nets rank %d: %d passed, %d failed\n", me, passed, failed);
    return 0;
}
