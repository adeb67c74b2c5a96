/*
 * ensemble.h -- the Ensemble component runtime of mpbridge.
 *
 * A component never names its partners. It declares port types (PVM) or a
 * virtual envelope of contexts, roots and multiports (MPI); the script
 * binds them and the loader (`mpbridge ensemble run SCRIPT`) hands each
 * process its bindings. Link with -lmpbridge (or -lpvm3 for PVM
 * components: the same library).
 *
 * PVM components
 * --------------
 *     enum { C, P };                        indices into Interface
 *     static const char *types[] = { "C", "P" };
 *     if (MakePorts(2, types) != 0 || SetInterface() != 0) return ENSDone(1);
 *     for (p = 1; p <= Interface[C].nports; p++)
 *         pvm_recv(Interface[C].port[p].tid, Interface[C].port[p].tag);
 *     ...
 *     return ENSDone(0);
 *
 * Ports are numbered as in the script: port[1] .. port[nports]; port[0] is
 * unused. An unconnected port has tid 0 and tag -1. Messages on a port use
 * the port's tag in both directions.
 *
 * MPI components
 * --------------
 *     MPI_Init(&argc, &argv);
 *     SetEnvArgs(&argc, &argv);             collective; strips the envelope
 *     MPI_Reduce(&v, &m, 1, MPI_INT, MPI_MAX, ENVRoot(CalcRoot, LocalGroup));
 *     MPI_Send(&m, 1, MPI_INT, ENVPort(Out, 1, ServerGroup));
 *
 * ENVPort(mp, i, ctx) expands to "rank, tag, communicator" and
 * ENVRoot(root, ctx) to "root, communicator": the trailing arguments of
 * the MPI point-to-point and collective calls. Names are written bare, as
 * in the script. A name the envelope does not bind ends the job with a
 * message saying which.
 */
#ifndef MPBRIDGE_ENSEMBLE_H
#define MPBRIDGE_ENSEMBLE_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- PVM ---------------------------------------------------------------- */

/* One port: the peer task and the channel's tag. */
typedef struct ENSPort {
    int tid;
    int tag;
} ENSPort;

/* The ports of one type; port[1..nports]. */
typedef struct ENSPortType {
    const char *name;
    int nports;
    ENSPort *port;
} ENSPortType;

/* One entry per port type, in the order given to MakePorts. */
extern ENSPortType *Interface;

/* Receives the port counts from the loader and builds Interface with the
   component's port types `names[0..ntypes-1]`. Returns 0, or -1 after
   printing why. */
int MakePorts(int ntypes, const char *const names[]);

/* Receives the bindings (peer tid and tag of every port). Returns 0, or -1
   after printing why. */
int SetInterface(void);

/* Reports `status` to the loader and leaves PVM; returns `status`. */
int ENSDone(int status);

/* ---- MPI ---------------------------------------------------------------- */
#ifndef ENSEMBLE_NO_MPI
#include <mpi.h>

/* Reads and removes the envelope from the command line and builds the
   communicators (call once, after MPI_Init, in every process). Returns 0;
   aborts the job with a message if the envelope is missing or wrong. */
int SetEnvArgs(int *argc, char ***argv);

MPI_Comm ENS_comm(const char *context);
int ENS_root_rank(const char *root, const char *context);
int ENS_port_rank(const char *multiport, int index, const char *context);
int ENS_port_tag(const char *multiport, int index, const char *context);
/* Number of bound ports of a multiport (0 if none). */
int ENS_nports(const char *multiport);
/* Integer topology argument, or `dflt` when the script gives none. */
int ENS_arg_int(const char *name, int dflt);
/* This process's id (its rank in MPI_COMM_WORLD), -1 before SetEnvArgs. */
int ENS_id(void);

#define ENVComm(ctx) ENS_comm(#ctx)
#define ENVRoot(root, ctx) ENS_root_rank(#root, #ctx), ENS_comm(#ctx)
#define ENVPort(mp, i, ctx) \
    ENS_port_rank(#mp, (i), #ctx), ENS_port_tag(#mp, (i), #ctx), ENS_comm(#ctx)
#define ENVNPorts(mp) ENS_nports(#mp)
#define ENVArg(name, dflt) ENS_arg_int(#name, (dflt))

#endif /* ENSEMBLE_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* MPBRIDGE_ENSEMBLE_H */
