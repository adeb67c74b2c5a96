/* mpc.h: mpbridge's mpC-style run-time for heterogeneous networks, and
 * HeteroMPI-style groups on top of it (link with -lmpbridge; include
 * after or instead of mpi.h).
 *
 * Roles. World rank 0 is the host. The job's last rank is the dispatcher:
 * it never returns from MPC_Init and serves the others until they end.
 * The ranks in between are free processes: they offer themselves with
 * MPC_Offer and are hired into networks the host (or any member of a
 * network) creates with MPC_Net_create.
 *
 * A network type gives coordinates (node count = product of dims, nodes
 * numbered row-major), a parent node (the creating process), a relative
 * volume of computation per node and link lengths in bytes. The
 * dispatcher maps the nodes onto free processes greedily: biggest
 * volumes first, each onto the host expected to finish it soonest given
 * its speed, its scalability and what it runs already. Host speeds come
 * from the virtual machine file named by MPBRIDGE_VPM (written by
 * `mpbridge recon`), or from HMPI_Recon. When no creation request can
 * ever be served the dispatcher ends the job with MPC_Abort and says why.
 *
 * Every function returns MPC_OK (0), a positive status it names, or a
 * negative MPC_ERR_* code; MPC_Error_message gives the text of the calling
 * thread's last error.
 */
#ifndef MPBRIDGE_MPC_H
#define MPBRIDGE_MPC_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define MPC_OK            0  /* success */
#define MPC_DONE          1  /* MPC_Offer: the program is over */
#define MPC_NOT_HIRED     2  /* MPC_Offer_once: a network was made without us */
#define MPC_ERR_ARG      -1  /* an argument is out of range, NULL or misaligned */
#define MPC_ERR_NOTINIT  -2  /* MPC_Init was not called */
#define MPC_ERR_HANDLE   -3  /* no such network, or not a member of it */
#define MPC_ERR_SYSTEM   -4  /* the message-passing backend failed */
#define MPC_ERR_MAP      -5  /* the network cannot be mapped */
#define MPC_ERR_ROLE     -6  /* the call is not for this process's role */
#define MPC_ERR_INTERNAL -7  /* internal error (reported on stderr) */

/* A network handle; 0 is no network. */
typedef int MPC_Net;

/* A network type with its parameters bound. */
typedef struct {
    int kind;              /* the program's number for the type */
    int ndims;             /* number of coordinates (>= 1) */
    const int *dims;       /* extent of each coordinate */
    const double *power;   /* relative volume of each node; NULL: all 1 */
    int nlinks;            /* number of links */
    const int *link_from;  /* link k goes from node link_from[k] ... */
    const int *link_to;    /* ... to node link_to[k] ... */
    const double *link_len;/* ... carrying link_len[k] bytes */
    int parent;            /* the parent node (the creating process) */
} MPC_Nettype;

int MPC_Init(int *argc, char ***argv);
int MPC_Finalize(void);
int MPC_Abort(int code);                 /* never returns */
int MPC_Is_host(void);                   /* 1 or 0 */
int MPC_Processes(void);                 /* computing processes */
double MPC_Wtime(void);
int MPC_Error_message(char *buf, int len);

/* The dispatcher's services. */
int MPC_Net_create(const MPC_Nettype *type, MPC_Net *net);
int MPC_Offer(MPC_Net *net);             /* MPC_OK: hired; or MPC_DONE */
int MPC_Offer_once(MPC_Net *net);        /* also MPC_NOT_HIRED */
int MPC_Net_free(MPC_Net *net);          /* collective over the members */
int MPC_Subnet_create(MPC_Net net, int inside, MPC_Net *sub);
int MPC_Subnet_free(MPC_Net *sub);
int MPC_Is_member(MPC_Net net);          /* 1 or 0 */
int MPC_Barrier(MPC_Net net);
int MPC_Global_barrier(void);

/* The region descriptor: topological data, coordinates, communicator. */
int MPC_Net_kind(MPC_Net net, int *kind);
int MPC_Net_size(MPC_Net net, int *size);
int MPC_Net_ndims(MPC_Net net, int *ndims);
int MPC_Net_rank(MPC_Net net, int *node);
int MPC_Net_parent(MPC_Net net, int *node);
int MPC_Net_coords(MPC_Net net, int node, int *coords);
int MPC_Net_linear(MPC_Net net, const int *coords, int *node);
int MPC_Net_power(MPC_Net net, int node, double *power);
int MPC_Net_link(MPC_Net net, int from, int to, double *len);
int MPC_Net_proc(MPC_Net net, int node, int *world_rank);
int MPC_Net_comm(MPC_Net net, MPI_Comm *comm);

/* ---- HeteroMPI-style groups --------------------------------------------
 * A performance model fills the relative volume of each of nprocs
 * processes (power, preset to 1) and the bytes between each pair
 * (links[i*nprocs+j], preset to 0), and returns 0 to accept nprocs.
 * Process 0 of a group is the host. HMPI_Group_create and
 * HMPI_Group_auto_create are called by the host and by every free
 * process; a free process not chosen returns MPC_OK with *gid 0. */
#define HMPI_SUCCESS MPC_OK
typedef MPC_Net HMPI_Group;
typedef int (*HMPI_Shape_function)(const void *params, int nparams, int nprocs,
                                   double *power, double *links);
typedef void (*HMPI_Benchmark_function)(const void *input, int nparams, void *output);
typedef struct {
    HMPI_Shape_function shape;
    int nprocs;            /* processes for HMPI_Group_create and HMPI_Timeof */
} HMPI_Model;

int HMPI_Init(int *argc, char ***argv);
int HMPI_Finalize(int exitcode);
int HMPI_Recon(HMPI_Benchmark_function f, const void *input, int nparams, void *output);
double HMPI_Timeof(const HMPI_Model *model, const void *params, int nparams); /* < 0: error */
int HMPI_Group_create(HMPI_Group *gid, const HMPI_Model *model, const void *params, int nparams);
int HMPI_Group_auto_create(HMPI_Group *gid, const HMPI_Model *model, const void *params, int nparams);
int HMPI_Group_free(HMPI_Group *gid);
int HMPI_Is_host(void);
int HMPI_Is_free(void);
int HMPI_Is_member(const HMPI_Group *gid);
const MPI_Comm *HMPI_Get_comm(const HMPI_Group *gid);   /* NULL: not a member */
int HMPI_Group_rank(const HMPI_Group *gid, int *rank);
int HMPI_Group_size(const HMPI_Group *gid, int *size);
int HMPI_Get_number_of_processors(int *n);
int HMPI_Get_processors_info(double *speeds);
int HMPI_Group_performances(const HMPI_Group *gid, double *perfs);
int HMPI_Group_topology(const HMPI_Group *gid, int maxdims, int *ndims, int *dims);

#ifdef __cplusplus
}
#endif

#endif
