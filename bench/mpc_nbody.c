/* The galaxy N-body on mpc.h: the host asks the dispatcher for a network
 * of nine nodes whose volumes are the groups' work (size squared); the
 * dispatcher maps them onto the free processes by the hosts' speeds from
 * the virtual machine file (MPBRIDGE_VPM, written by `mpbridge recon`).
 * Node k simulates the k-th group of the order given, with node 0 on the
 * host. Prints "NBODY mpc ORDER SECONDS" (from when every process has
 * started, as the MPI program, so the dispatcher's mapping and the
 * network's creation count) and the host of every node.
 *
 *   mpc_nbody ORDER [OUTER INNER]     run on 10 or more processes */
#include <mpc.h>
#include "nbody_galaxy.h"

static int outer = 10, inner = 100, sizes[NGROUPS];

static void simulate(MPC_Net net)
{
    MPI_Comm comm;
    int node;
    if (MPC_Net_comm(net, &comm) != MPC_OK || MPC_Net_rank(net, &node) != MPC_OK) {
        fprintf(stderr, "nbody: not a member of the network\n");
        MPC_Abort(3);
    }
    int n = sizes[node];
    body *b = malloc((size_t)n * sizeof *b);
    group_init(b, n, node);
    simulate_group(b, n, node, outer, inner, comm);
    char host[MPI_MAX_PROCESSOR_NAME] = "", all[NGROUPS][MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(host, &len);
    MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm);
    if (node == 0)
        for (int k = 0; k < NGROUPS; k++)
            printf("NODE %d size %d on %s\n", k, sizes[k], all[k]);
    free(b);
}

int main(int argc, char **argv)
{
    if (MPC_Init(&argc, &argv) != MPC_OK) {
        fprintf(stderr, "nbody: MPC_Init failed\n");
        return 1;
    }
    if (argc < 2 || parse_order(argv[1], sizes) != 0) {
        if (MPC_Is_host() == 1)
            fprintf(stderr, "usage: mpc_nbody N1,...,N9 [OUTER INNER]\n");
        MPC_Abort(2);
    }
    if (argc > 3) {
        outer = atoi(argv[2]);
        inner = atoi(argv[3]);
    }
    /* As the MPI program, time from when every process has started. */
    MPC_Global_barrier();
    MPC_Net net = 0;
    if (MPC_Is_host() == 1) {
        double power[NGROUPS];
        int dims[1] = {NGROUPS};
        for (int k = 0; k < NGROUPS; k++)
            power[k] = (double)sizes[k] * sizes[k];
        MPC_Nettype galaxy = {1, 1, dims, power, 0, NULL, NULL, NULL, 0};
        double t0 = MPC_Wtime();
        int rc = MPC_Net_create(&galaxy, &net);
        if (rc != MPC_OK) {
            char msg[256];
            MPC_Error_message(msg, sizeof msg);
            fprintf(stderr, "nbody: %s\n", msg);
            MPC_Abort(4);
        }
        double made = MPC_Wtime() - t0;
        simulate(net);
        MPC_Barrier(net);
        double t = MPC_Wtime() - t0;
        printf("NBODY mpc %s %.4f\n", argv[1], t);
        printf("MAPPED in %.4f s\n", made);
        MPC_Net_free(&net);
    } else {
        while (MPC_Offer(&net) == MPC_OK) {
            simulate(net);
            MPC_Barrier(net);
            MPC_Net_free(&net);
        }
    }
    MPC_Finalize();
    return 0;
}
