/*
 * ga-mpi.h - MPI interoperability for Global Arrays programs (mpbridge).
 *
 * The data-server ranks (ga-server) are part of MPI_COMM_WORLD but not of
 * the computation: MPI code in a GA program must use GA_MPI_Comm(), the
 * communicator of the compute ranks, whose ranks match GA_Nodeid().
 */
#ifndef MPBRIDGE_GA_MPI_H
#define MPBRIDGE_GA_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The compute ranks' communicator. */
extern MPI_Comm GA_MPI_Comm(void);
/* The default process group's communicator (the compute ranks). */
extern MPI_Comm GA_MPI_Comm_pgroup_default(void);
/* The communicator of processor group `pgroup` (this process must be in it). */
extern MPI_Comm GA_MPI_Comm_pgroup(int pgroup);

#ifdef __cplusplus
}
#endif

#endif /* MPBRIDGE_GA_MPI_H */
