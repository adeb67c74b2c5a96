/*
 * message.h - ARMCI's message calls among the compute ranks (mpbridge).
 *
 * Every scope (SCOPE_ALL, SCOPE_NODE, SCOPE_MASTERS) covers all compute
 * ranks. Reductions take TCGMSG's op strings ("+", "*", "max", "min",
 * "absmax", "absmin"; integers also "or", "and"). All calls here are
 * collective except armci_msg_me, armci_msg_nproc, armci_timer,
 * armci_msg_abort, armci_msg_bintree and the point-to-point calls; bad
 * input ends the job through ARMCI_Error. The job is one cluster: the
 * armci_msg_clus_* calls cover all ranks. armci_msg_reduce leaves the
 * result on every rank (ARMCI promises rank 0).
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

/* Point to point: a message of len bytes with a tag (>= 0); a receive
 * stores the message's length at *msglen unless NULL; armci_msg_rcvany
 * returns the sender. A message longer than buflen is an error. */
void   armci_msg_snd(int tag, void *buffer, int len, int to);
void   armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from);
int    armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen);

void   armci_msg_barrier(void);
/* This rank's root (0), parent and children in a binary tree (-1: none). */
void   armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right);
void   armci_msg_bcast(void *buf, int len, int root);
void   armci_msg_brdcst(void *buf, int len, int root);
void   armci_msg_bcast_scope(int scope, void *buf, int len, int root);

void   armci_msg_igop(int *x, int n, char *op);
void   armci_msg_lgop(long *x, int n, char *op);
void   armci_msg_llgop(long long *x, int n, char *op);
void   armci_msg_fgop(float *x, int n, char *op);
void   armci_msg_dgop(double *x, int n, char *op);
void   armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);
void   armci_msg_reduce(void *x, int n, char *op, int type);
void   armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type);
/* x (n bytes) becomes the data of the contributing rank whose leading
 * value of `type` is the largest ("max") or smallest ("min"). */
void   armci_msg_sel(void *x, int n, char *op, int type, int contribute);
void   armci_msg_sel_scope(int scope, void *x, int n, char *op, int type,
                           int contribute);

void   armci_exchange_address(void *ptr_ar[], int n);
void   armci_msg_clus_brdcst(void *buf, int len);
void   armci_msg_clus_igop(int *x, int n, char *op);
void   armci_msg_clus_fgop(float *x, int n, char *op);
void   armci_msg_clus_lgop(long *x, int n, char *op);
void   armci_msg_clus_llgop(long long *x, int n, char *op);
void   armci_msg_clus_dgop(double *x, int n, char *op);

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
void   armci_exchange_address_grp(void *ptr_arr[], int n, ARMCI_Group *group);
void   armci_grp_clus_brdcst(void *buf, int len, int grp_master, int grp_clus_nproc,
                             ARMCI_Group *mastergroup);

#ifdef __cplusplus
}
#endif

#endif
