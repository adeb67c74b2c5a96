/*
 * message.h - ARMCI's message calls among the compute ranks (mpbridge).
 *
 * Every scope (SCOPE_ALL, SCOPE_NODE, SCOPE_MASTERS) covers all compute
 * ranks. Reductions take TCGMSG's op strings ("+", "*", "max", "min",
 * "absmax", "absmin"; integers also "or", "and"). All calls here are
 * collective except armci_msg_me, armci_msg_nproc, armci_timer and
 * armci_msg_abort; bad input ends the job through ARMCI_Error.
 */
#ifndef MPBRIDGE_ARMCI_MESSAGE_H
#define MPBRIDGE_ARMCI_MESSAGE_H

#include "armci.h"

#ifdef __cplusplus
extern "C" {
#endif

enum armci_scope_e { SCOPE_ALL = 0, SCOPE_NODE = 1, SCOPE_MASTERS = 2 };
enum armci_type_e {
    ARMCI_INT = 0,
    ARMCI_LONG = 1,
    ARMCI_LONG_LONG = 2,
    ARMCI_FLOAT = 3,
    ARMCI_DOUBLE = 4
};

int    armci_msg_me(void);
int    armci_msg_nproc(void);
void   armci_msg_abort(int code);
double armci_timer(void);
/* GA's own ARMCI has it (not ARMCI-MPI): ends MPI for the process after
 * GA_Terminate; every layer leaves first. */
void   armci_msg_finalize(void);

void   armci_msg_barrier(void);
void   armci_msg_bcast(void *buf, int len, int root);
void   armci_msg_brdcst(void *buf, int len, int root);
void   armci_msg_bcast_scope(int scope, void *buf, int len, int root);

void   armci_msg_igop(int *x, int n, char *op);
void   armci_msg_lgop(long *x, int n, char *op);
void   armci_msg_llgop(long long *x, int n, char *op);
void   armci_msg_fgop(float *x, int n, char *op);
void   armci_msg_dgop(double *x, int n, char *op);
void   armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);

/* The same over the members of an ARMCI group (collective over them). */
void   armci_msg_group_barrier(ARMCI_Group *group);
void   armci_msg_group_bcast_scope(int scope, void *buf, int len, int root,
                                   ARMCI_Group *group);
void   armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group);
void   armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group);
void   armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group);
void   armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group);
void   armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *group);
void   armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type,
                                 ARMCI_Group *group);

#ifdef __cplusplus
}
#endif

#endif
