/*
 * ga.h - Global Arrays C API (mpbridge).
 *
 * Conventions (as in Global Arrays): indices are 0-based and row-major
 * (the last dimension varies fastest); a patch is lo[]..hi[] with hi
 * inclusive; ld[] gives the ndim-1 trailing extents of the user's buffer
 * (NULL: a contiguous buffer shaped like the patch).
 * Both C_* and F_* type codes are accepted. Handles are non-zero; creation
 * calls return 0 when the array cannot be made. A bad argument (invalid
 * handle, patch outside the array, wrong type) ends the job through
 * GA_Error with a message naming the call and the patch.
 *
 * Every call taking indices has a "64" variant (NGA_Put64, ...) that takes
 * them as int64_t; the int variants end the job through GA_Error rather
 * than return a value that does not fit in an int.
 *
 * Run with one ga-server data server per node beside the compute ranks:
 *     mpiexec -n 4 ./app : -n 1 ga-server
 * GA_Nnodes() counts the compute ranks only; use GA_MPI_Comm() (ga-mpi.h)
 * instead of MPI_COMM_WORLD for your own MPI calls.
 */
#ifndef MPBRIDGE_GA_H
#define MPBRIDGE_GA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "typesf2c.h"
#include "gacommon.h"
#include "macdecls.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Handle of a non-blocking operation. */
typedef Integer ga_nbhdl_t;

/* --- start, stop, identity ------------------------------------------ */
extern void   GA_Initialize(void);
extern void   GA_Initialize_args(int *argc, char ***argv);
extern void   GA_Initialize_ltd(size_t limit);
extern void   NGA_Initialize(void);
extern void   NGA_Initialize_ltd(size_t limit);
extern int    GA_Initialized(void);
extern int    NGA_Initialized(void);
extern void   GA_Terminate(void);
extern void   NGA_Terminate(void);
extern int    GA_Nodeid(void);
extern int    NGA_Nodeid(void);
extern int    GA_Nnodes(void);
extern int    NGA_Nnodes(void);
/* Nodes are the hosts the compute ranks run on, numbered 0.. in the order
 * of their lowest compute rank; loc counts a node's ranks in rank order. */
extern int    GA_Cluster_nnodes(void);
extern int    GA_Cluster_nodeid(void);
extern int    GA_Cluster_nprocs(int x);
extern int    GA_Cluster_procid(int x, int y);
extern int    GA_Cluster_proc_nodeid(int proc);
extern int    GA_Uses_ma(void);
extern int    NGA_Uses_ma(void);
extern int    GA_Uses_fapi(void);
extern double GA_Wtime(void);
extern double NGA_Wtime(void);
/* Prints "<rank>: str code" and ends the whole job. */
extern void   GA_Error(char *str, int code);
extern void   NGA_Error(char *str, int code);

/* --- synchronisation and collectives -------------------------------- */
extern void GA_Sync(void);
extern void NGA_Sync(void);
extern void GA_Mask_sync(int first, int last);
extern void NGA_Mask_sync(int first, int last);
extern void GA_Fence(void);
extern void NGA_Fence(void);
extern void GA_Init_fence(void);
extern void NGA_Init_fence(void);
extern void GA_Brdcst(void *buf, int lenbuf, int root);
/* op: "+", "*", "max", "min", "absmax", "absmin" (and "or" for integers). */
extern void GA_Dgop(double x[], int n, char *op);
extern void NGA_Dgop(double x[], int n, char *op);
/* Any type: C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL, C_DCPL. */
extern void GA_Gop(int type, void *x, int n, char *op);
extern void GA_Fgop(float x[], int n, char *op);
extern void GA_Igop(int x[], int n, char *op);
extern void NGA_Igop(int x[], int n, char *op);
extern void GA_Lgop(long x[], int n, char *op);
extern void GA_Llgop(long long x[], int n, char *op);
/* Complex values: op must be "+". */
extern void GA_Zgop(DoubleComplex x[], int n, char *op);
extern void GA_Cgop(SingleComplex x[], int n, char *op);

/* --- creating and describing arrays --------------------------------- */
extern int   NGA_Create(int type, int ndim, int dims[], char *name, int chunk[]);
extern int   NGA_Create_irreg(int type, int ndim, int dims[], char *name, int block[], int map[]);
extern int   NGA_Create64(int type, int ndim, int64_t dims[], char *name, int64_t chunk[]);
extern int   NGA_Create_irreg64(int type, int ndim, int64_t dims[], char *name, int64_t block[],
                                int64_t map[]);
extern int   GA_Create_handle(void);
extern int   NGA_Create_handle(void);
extern void  GA_Set_data(int g_a, int ndim, int dims[], int type);
extern void  NGA_Set_data(int g_a, int ndim, int dims[], int type);
extern void  GA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
extern void  NGA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
extern void  GA_Set_array_name(int g_a, char *name);
extern void  NGA_Set_array_name(int g_a, char *name);
extern void  GA_Set_chunk(int g_a, int chunk[]);
extern void  NGA_Set_chunk(int g_a, int chunk[]);
extern void  GA_Set_chunk64(int g_a, int64_t chunk[]);
extern void  GA_Set_irreg_distr(int g_a, int map[], int block[]);
extern void  NGA_Set_irreg_distr(int g_a, int map[], int block[]);
extern void  GA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]);
extern void  NGA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]);
extern int   GA_Allocate(int g_a);
extern int   NGA_Allocate(int g_a);
extern int   GA_Duplicate(int g_a, char *array_name);
extern int   NGA_Duplicate(int g_a, char *array_name);
/* Frees the memory of an array GA_Allocate made from a GA_Create_handle
 * handle but keeps its description, so that GA_Allocate makes it again
 * (1; 0 if it is not allocated). */
extern int   GA_Deallocate(int g_a);
extern int   NGA_Deallocate(int g_a);
/* Completes a described handle in the memory of allocated array g_p
 * (same processes; 1, or 0 when g_p's memory is too small somewhere). */
extern int   GA_Overlay(int g_a, int g_p);
extern int   NGA_Overlay(int g_a, int g_p);
/* Memory for GA_Assemble_duplicate (collective), freed by GA_Freemem. */
extern void *GA_Getmem(int type, int nelem, int grp_id);
extern void  GA_Freemem(void *ptr);
extern int   GA_Assemble_duplicate(int g_a, char *name, void *ptr);
/* Recorded only: temporaries come from the library's own allocator. */
extern void  GA_Register_stack_memory(void *(*ext_alloc)(size_t, int, char *),
                                      void (*ext_free)(void *));
extern void  GA_Destroy(int g_a);
extern void  NGA_Destroy(int g_a);
extern int   GA_Valid_handle(int g_a);
extern int   NGA_Valid_handle(int g_a);
/* 1 if g_a is a live array, else 0. */
extern int   GA_Verify_handle(int g_a);
extern int   NGA_Verify_handle(int g_a);
/* Ends the job through GA_Error, quoting string, unless g_a is live. */
extern void  GA_Check_handle(int g_a, char *string);
extern char *GA_Inquire_name(int g_a);
extern char *NGA_Inquire_name(int g_a);
extern void  NGA_Inquire(int g_a, int *type, int *ndim, int dims[]);
extern void  NGA_Inquire64(int g_a, int *type, int *ndim, int64_t dims[]);
extern int   GA_Ndim(int g_a);
extern int   NGA_Ndim(int g_a);
extern int   GA_Get_dimension(int g_a);
extern int   NGA_Get_dimension(int g_a);
/* 1 if g_a was made on the mirror group (one copy per node), else 0. */
extern int   GA_Is_mirrored(int g_a);
extern int   NGA_Is_mirrored(int g_a);
/* Mirrored arrays (collective over every process): every copy becomes
   the sum of all copies; or the patch of the ordinary g_b becomes the sum
   over all copies of the patch of g_a (same shape). */
extern void  GA_Merge_mirrored(int g_a);
extern void  NGA_Merge_mirrored(int g_a);
extern void  NGA_Merge_distr_patch(int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]);
extern void  NGA_Merge_distr_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b,
                                     int64_t blo[], int64_t bhi[]);
/* 0: no array is on a ScaLAPACK-style processor grid here. */
extern int   GA_Uses_proc_grid(int g_a);
extern int   NGA_Uses_proc_grid(int g_a);
/* A flag kept for GA_Get_debug; it changes nothing. */
extern void  GA_Set_debug(int flag);
extern void  NGA_Set_debug(int flag);
extern int   GA_Get_debug(void);
extern int   NGA_Get_debug(void);
/* 0 if both arrays have the same shape and distribution, 1 if not. */
extern int   GA_Compare_distr(int g_a, int g_b);
extern int   NGA_Compare_distr(int g_a, int g_b);

/* --- where data lives ----------------------------------------------- */
extern void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]);
extern int  NGA_Locate(int g_a, int subscript[]);
extern int  NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]);
extern int  NGA_Locate_nnodes(int g_a, int lo[], int hi[]);
extern void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]);
extern int  NGA_Locate64(int g_a, int64_t subscript[]);
extern int  NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]);
extern int  NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]);
/* The process grid (Fortran order; zeros for a block-cyclic array without
 * one), a process's place in it (Fortran order, wrapping past the grid),
 * and its place in a ScaLAPACK-style or tiled grid (C order). */
extern void GA_Get_proc_grid(int g_a, int dims[]);
extern void NGA_Get_proc_grid(int g_a, int dims[]);
extern void NGA_Proc_topology(int g_a, int proc, int coord[]);
extern void GA_Get_proc_index(int g_a, int iproc, int subscript[]);
extern void NGA_Get_proc_index(int g_a, int iproc, int subscript[]);
/* Blocks of the distribution along each dimension (ndim entries). */
extern void GA_Nblock(int g_a, int *nblock);
extern void NGA_Nblock(int g_a, int *nblock);

/* --- one-sided data movement ---------------------------------------- */
extern void NGA_Put(int g_a, int lo[], int hi[], void *buf, int ld[]);
extern void NGA_Get(int g_a, int lo[], int hi[], void *buf, int ld[]);
extern void NGA_Acc(int g_a, int lo[], int hi[], void *buf, int ld[], void *alpha);
extern long NGA_Read_inc(int g_a, int subscript[], long inc);
extern void NGA_Scatter(int g_a, void *v, int *subsArray[], int n);
extern void NGA_Scatter_flat(int g_a, void *v, int subsArray[], int n);
extern void NGA_Gather(int g_a, void *v, int *subsArray[], int n);
extern void NGA_Gather_flat(int g_a, void *v, int subsArray[], int n);
extern void NGA_Scatter_acc(int g_a, void *v, int *subsArray[], int n, void *alpha);
extern void NGA_Scatter_acc_flat(int g_a, void *v, int subsArray[], int n, void *alpha);
extern void NGA_NbPut(int g_a, int lo[], int hi[], void *buf, int ld[], ga_nbhdl_t *nbhandle);
extern void NGA_NbGet(int g_a, int lo[], int hi[], void *buf, int ld[], ga_nbhdl_t *nbhandle);
extern void NGA_NbAcc(int g_a, int lo[], int hi[], void *buf, int ld[], void *alpha,
                      ga_nbhdl_t *nbhandle);
extern void NGA_NbWait(ga_nbhdl_t *nbhandle);
/* 1 once the operation has completed, 0 while it is pending (GA 5.8). */
extern int  NGA_NbTest(ga_nbhdl_t *nbhandle);
/* ptr is really a void **: the address of element lo is stored there. */
extern void NGA_Access(int g_a, int lo[], int hi[], void *ptr, int ld[]);
extern void NGA_Release(int g_a, int lo[], int hi[]);
extern void NGA_Release_update(int g_a, int lo[], int hi[]);
/* Every skip[d]-th element of lo..hi; buf holds the selection densely and
   ld counts selected elements. */
extern void NGA_Strided_put(int g_a, int lo[], int hi[], int skip[], void *buf, int ld[]);
extern void NGA_Strided_get(int g_a, int lo[], int hi[], int skip[], void *buf, int ld[]);
extern void NGA_Strided_acc(int g_a, int lo[], int hi[], int skip[], void *buf, int ld[],
                            void *alpha);
extern void NGA_Strided_put64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void *buf,
                              int64_t ld[]);
extern void NGA_Strided_get64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void *buf,
                              int64_t ld[]);
extern void NGA_Strided_acc64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void *buf,
                              int64_t ld[], void *alpha);

/* The same with int64_t indices (n too for scatter/gather). */
extern void NGA_Put64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[]);
extern void NGA_Get64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[]);
extern void NGA_Acc64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[], void *alpha);
extern long NGA_Read_inc64(int g_a, int64_t subscript[], long inc);
extern void NGA_Scatter64(int g_a, void *v, int64_t *subsArray[], int64_t n);
extern void NGA_Scatter_flat64(int g_a, void *v, int64_t subsArray[], int64_t n);
extern void NGA_Gather64(int g_a, void *v, int64_t *subsArray[], int64_t n);
extern void NGA_Gather_flat64(int g_a, void *v, int64_t subsArray[], int64_t n);
extern void NGA_Scatter_acc64(int g_a, void *v, int64_t *subsArray[], int64_t n, void *alpha);
extern void NGA_Scatter_acc_flat64(int g_a, void *v, int64_t subsArray[], int64_t n,
                                   void *alpha);
extern void NGA_NbPut64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[],
                        ga_nbhdl_t *nbhandle);
extern void NGA_NbGet64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[],
                        ga_nbhdl_t *nbhandle);
extern void NGA_NbAcc64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[],
                        void *alpha, ga_nbhdl_t *nbhandle);
extern void NGA_Access64(int g_a, int64_t lo[], int64_t hi[], void *ptr, int64_t ld[]);
extern void NGA_Release64(int g_a, int64_t lo[], int64_t hi[]);
extern void NGA_Release_update64(int g_a, int64_t lo[], int64_t hi[]);

/* --- mutexes -------------------------------------------------------- */
extern int  GA_Create_mutexes(int number);
extern int  NGA_Create_mutexes(int number);
extern int  GA_Destroy_mutexes(void);
extern int  NGA_Destroy_mutexes(void);
extern void GA_Lock(int mutex);
extern void NGA_Lock(int mutex);
extern void GA_Unlock(int mutex);
extern void NGA_Unlock(int mutex);

/* --- whole-array operations (collective) ---------------------------- */
extern void          GA_Zero(int g_a);
extern void          NGA_Zero(int g_a);
extern void          GA_Fill(int g_a, void *value);
extern void          NGA_Fill(int g_a, void *value);
/* Own elements = *value * rand() / RAND_MAX (int, long, long long, float,
 * double), drawn from the C library's rand() in local memory order. */
extern void          GA_Randomize(int g_a, void *value);
extern void          NGA_Randomize(int g_a, void *value);
extern void          GA_Scale(int g_a, void *value);
extern void          GA_Copy(int g_a, int g_b);
extern void          GA_Add(void *alpha, int g_a, void *beta, int g_b, int g_c);
extern double        GA_Ddot(int g_a, int g_b);
extern int           GA_Idot(int g_a, int g_b);
extern long          GA_Ldot(int g_a, int g_b);
extern long long     GA_Lldot(int g_a, int g_b);
extern float         GA_Fdot(int g_a, int g_b);
extern DoubleComplex GA_Zdot(int g_a, int g_b);
extern SingleComplex GA_Cdot(int g_a, int g_b);
extern void          GA_Transpose(int g_a, int g_b);
extern void          GA_Symmetrize(int g_a);
/* C = alpha*op(A)*op(B) + beta*C, op(A) m x k, op(B) k x n, row-major. */
extern void GA_Dgemm(char ta, char tb, int m, int n, int k, double alpha, int g_a, int g_b,
                     double beta, int g_c);
extern void GA_Sgemm(char ta, char tb, int m, int n, int k, float alpha, int g_a, int g_b,
                     float beta, int g_c);
extern void GA_Zgemm(char ta, char tb, int m, int n, int k, DoubleComplex alpha, int g_a,
                     int g_b, DoubleComplex beta, int g_c);
extern void GA_Cgemm(char ta, char tb, int m, int n, int k, SingleComplex alpha, int g_a,
                     int g_b, SingleComplex beta, int g_c);
extern void GA_Dgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                       int g_a, int g_b, double beta, int g_c);
extern void GA_Sgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha,
                       int g_a, int g_b, float beta, int g_c);
extern void GA_Zgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, DoubleComplex alpha,
                       int g_a, int g_b, DoubleComplex beta, int g_c);
extern void GA_Cgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, SingleComplex alpha,
                       int g_a, int g_b, SingleComplex beta, int g_c);

/* --- linear algebra (collective; double precision; ScaLAPACK) ------- */
/* As in GA, these see arrays as Fortran does: element (i,j) is C's [j][i]
   and a right-hand side of k columns is an array {k, n}. */
/* B = op(A)^-1 B (LU); tran 't' or 'T' for A transposed. */
extern void          GA_Lu_solve(char tran, int g_a, int g_b);
/* B = A^-1 B (Cholesky); 0, or the order of the leading minor of A that
   is not positive definite (B unchanged). */
extern int           GA_Llt_solve(int g_a, int g_b);
/* Cholesky, else LU: 0 when Cholesky solved it, else the minor's order. */
extern int           GA_Solve(int g_a, int g_b);
/* A = A^-1 for symmetric positive definite A: 0, the order of the minor
   that is not positive definite, or -i for a zero on the factor's
   diagonal (A unchanged but on 0). */
extern int           GA_Spd_invert(int g_a);
/* A x = lambda S x: eval (n doubles, every process) ascending, the
   eigenvectors the columns of g_v with V^T S V = I. */
extern void          GA_Diag(int g_a, int g_s, int g_v, void *eval);
/* GA_Diag for repeated calls; reuse changes no result here. */
extern void          GA_Diag_reuse(int reuse, int g_a, int g_s, int g_v, void *eval);
/* GA_Diag on one process (serial LAPACK). */
extern void          GA_Diag_seq(int g_a, int g_s, int g_v, void *eval);
/* A x = lambda x: eval ascending, orthonormal eigenvectors in g_v. */
extern void          GA_Diag_std(int g_a, int g_v, void *eval);
/* GA_Diag_std on one process (serial LAPACK). */
extern void          GA_Diag_std_seq(int g_a, int g_v, void *eval);

/* --- patch operations (collective) ---------------------------------- */
extern void NGA_Zero_patch(int g_a, int lo[], int hi[]);
extern void NGA_Fill_patch(int g_a, int lo[], int hi[], void *val);
extern void NGA_Scale_patch(int g_a, int lo[], int hi[], void *alpha);
extern void NGA_Copy_patch(char trans, int g_a, int alo[], int ahi[], int g_b, int blo[],
                           int bhi[]);
extern void NGA_Add_patch(void *alpha, int g_a, int alo[], int ahi[], void *beta, int g_b,
                          int blo[], int bhi[], int g_c, int clo[], int chi[]);
extern double        NGA_Ddot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern int           NGA_Idot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern long          NGA_Ldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern float         NGA_Fdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern DoubleComplex NGA_Zdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern SingleComplex NGA_Cdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                    int blo[], int bhi[]);
extern long long     NGA_Lldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b,
                                     int blo[], int bhi[]);
extern void NGA_Matmul_patch(char transa, char transb, void *alpha, void *beta, int g_a,
                             int alo[], int ahi[], int g_b, int blo[], int bhi[], int g_c,
                             int clo[], int chi[]);
extern void GA_Matmul_patch(char transa, char transb, void *alpha, void *beta,
                            int g_a, int ailo, int aihi, int ajlo, int ajhi,
                            int g_b, int bilo, int bihi, int bjlo, int bjhi,
                            int g_c, int cilo, int cihi, int cjlo, int cjhi);

/* The same with int64_t patch bounds. */
extern void NGA_Zero_patch64(int g_a, int64_t lo[], int64_t hi[]);
extern void NGA_Fill_patch64(int g_a, int64_t lo[], int64_t hi[], void *val);
extern void NGA_Scale_patch64(int g_a, int64_t lo[], int64_t hi[], void *alpha);
extern void NGA_Copy_patch64(char trans, int g_a, int64_t alo[], int64_t ahi[], int g_b,
                             int64_t blo[], int64_t bhi[]);
extern void NGA_Add_patch64(void *alpha, int g_a, int64_t alo[], int64_t ahi[], void *beta,
                            int g_b, int64_t blo[], int64_t bhi[], int g_c, int64_t clo[],
                            int64_t chi[]);
extern double        NGA_Ddot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern int           NGA_Idot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern long          NGA_Ldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern long long     NGA_Lldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                       char t_b, int64_t blo[], int64_t bhi[]);
extern float         NGA_Fdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern DoubleComplex NGA_Zdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern SingleComplex NGA_Cdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b,
                                      char t_b, int64_t blo[], int64_t bhi[]);
extern void NGA_Matmul_patch64(char transa, char transb, void *alpha, void *beta, int g_a,
                               int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                               int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]);
extern void GA_Matmul_patch64(char transa, char transb, void *alpha, void *beta,
                              int g_a, int64_t ailo, int64_t aihi, int64_t ajlo, int64_t ajhi,
                              int g_b, int64_t bilo, int64_t bihi, int64_t bjlo, int64_t bjhi,
                              int g_c, int64_t cilo, int64_t cihi, int64_t cjlo, int64_t cjhi);

/* --- printing (process 0 prints; collective) ------------------------ */
extern void GA_Print(int g_a);
extern void NGA_Print(int g_a);
extern void GA_Print_file(FILE *file, int g_a);
/* A patch: pretty != 0 lays it out as GA_Print does (labelled with the
 * array's own 1-based Fortran-order indices), pretty == 0 prints one
 * "name(i,j) = value" line per element. GA_Print_patch takes the rows
 * ilo..ihi and columns jlo..jhi (0-based) of a 2-D array. */
extern void NGA_Print_patch(int g_a, int lo[], int hi[], int pretty);
extern void NGA_Print_patch64(int g_a, int64_t lo[], int64_t hi[], int pretty);
extern void GA_Print_patch(int g_a, int ilo, int ihi, int jlo, int jhi, int pretty);
extern void GA_Print_distribution(int g_a);
extern void NGA_Print_distribution(int g_a);
extern void GA_Summarize(int verbose);
extern void GA_Print_stats(void);

/* --- memory (arrays live in the data servers' shared memory) -------- */
extern void   GA_Set_memory_limit(size_t limit);
extern void   NGA_Set_memory_limit(size_t limit);
extern int    GA_Memory_limited(void);
extern int    NGA_Memory_limited(void);
extern size_t GA_Memory_avail(void);
extern size_t NGA_Memory_avail(void);
extern size_t GA_Inquire_memory(void);
extern size_t NGA_Inquire_memory(void);

/* --- block-cyclic arrays --------------------------------------------- */
/* Set on a handle from GA_Create_handle after GA_Set_data. For these
   arrays NGA_Distribution, NGA_Locate and NGA_Locate_region number blocks
   (C order over the block grid), not processes. Each block is kept as a
   tile; a process's tiles lie end to end in block order. */
extern void GA_Set_block_cyclic(int g_a, int dims[]);
extern void NGA_Set_block_cyclic(int g_a, int dims[]);
extern void GA_Set_block_cyclic64(int g_a, int64_t dims[]);
extern void NGA_Set_block_cyclic64(int g_a, int64_t dims[]);
extern void GA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]);
extern void NGA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]);
extern void GA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern void NGA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern void GA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]);
extern void NGA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]);
extern void GA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern void NGA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
/* Tiles of irregular sizes (mapc/nblocks as for NGA_Create_irreg) dealt
 * over a process grid as GA_Set_tiled_proc_grid deals its tiles. */
extern void GA_Set_tiled_irreg_proc_grid(int g_a, int mapc[], int nblocks[], int proc_grid[]);
extern void NGA_Set_tiled_irreg_proc_grid(int g_a, int mapc[], int nblocks[], int proc_grid[]);
extern void GA_Set_tiled_irreg_proc_grid64(int g_a, int64_t mapc[], int64_t nblocks[], int64_t proc_grid[]);
extern void NGA_Set_tiled_irreg_proc_grid64(int g_a, int64_t mapc[], int64_t nblocks[], int64_t proc_grid[]);
extern void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
extern void NGA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
extern int  GA_Total_blocks(int g_a);
extern int  NGA_Total_blocks(int g_a);
extern int  NGA_Locate_num_blocks(int g_a, int lo[], int hi[]);
extern void NGA_Access_block(int g_a, int idx, void *ptr, int ld[]);
extern void NGA_Access_block64(int g_a, int64_t idx, void *ptr, int64_t ld[]);
extern void NGA_Access_block_grid(int g_a, int index[], void *ptr, int ld[]);
extern void NGA_Access_block_grid64(int g_a, int64_t index[], void *ptr, int64_t ld[]);
extern void NGA_Access_block_segment(int g_a, int proc, void *ptr, int *len);
extern void NGA_Access_block_segment64(int g_a, int proc, void *ptr, int64_t *len);
extern void NGA_Release_block(int g_a, int idx);
extern void NGA_Release_update_block(int g_a, int idx);
extern void NGA_Release_block_grid(int g_a, int index[]);
extern void NGA_Release_update_block_grid(int g_a, int index[]);
extern void NGA_Release_block_segment(int g_a, int proc);
extern void NGA_Release_update_block_segment(int g_a, int proc);

/* --- ghost cells and periodic transfers ----------------------------- */
/* A ghost cell shows the periodic image of the element it stands for.
   NGA_Update_ghost_dir counts `dimension` from the last C dimension, as
   GA does. */
extern int  NGA_Create_ghosts(int type, int ndim, int dims[], int width[], char *name,
                              int chunk[]);
extern int  NGA_Create_ghosts64(int type, int ndim, int64_t dims[], int64_t width[], char *name,
                                int64_t chunk[]);
extern int  NGA_Create_ghosts_irreg(int type, int ndim, int dims[], int width[], char *name,
                                    int nblock[], int map[]);
extern int  NGA_Create_ghosts_irreg64(int type, int ndim, int64_t dims[], int64_t width[],
                                      char *name, int64_t nblock[], int64_t map[]);
extern int  GA_Has_ghosts(int g_a);
extern int  NGA_Has_ghosts(int g_a);
extern void GA_Update_ghosts(int g_a);
extern void NGA_Update_ghosts(int g_a);
extern int  NGA_Update_ghost_dir(int g_a, int dimension, int idir, int flag);
extern void NGA_Access_ghosts(int g_a, int dims[], void *ptr, int ld[]);
extern void NGA_Access_ghosts64(int g_a, int64_t dims[], void *ptr, int64_t ld[]);
extern void NGA_Access_ghost_element(int g_a, void *ptr, int subscript[], int ld[]);
extern void NGA_Access_ghost_element64(int g_a, void *ptr, int64_t subscript[], int64_t ld[]);
extern void NGA_Release_ghosts(int g_a);
extern void NGA_Release_update_ghosts(int g_a);
extern void NGA_Release_ghost_element(int g_a, int index[]);
extern void NGA_Release_update_ghost_element(int g_a, int index[]);
extern void NGA_Release_ghost_element64(int g_a, int64_t index[]);
extern void NGA_Release_update_ghost_element64(int g_a, int64_t index[]);
extern void GA_Set_ghost_corner_flag(int g_a, int flag);
extern void GA_Set_ghosts(int g_a, int width[]);
extern void NGA_Set_ghosts(int g_a, int width[]);
extern void GA_Set_ghosts64(int g_a, int64_t width[]);
extern void NGA_Set_ghosts64(int g_a, int64_t width[]);
extern void NGA_Update_ghosts_nb(int g_a, ga_nbhdl_t *nbhandle);
extern void NGA_NbGet_ghost_dir(int g_a, int mask[], ga_nbhdl_t *nbhandle);
extern void NGA_NbGet_ghost_dir64(int g_a, int64_t mask[], ga_nbhdl_t *nbhandle);
extern void NGA_Get_ghost_block(int g_a, int lo[], int hi[], void *buf, int ld[]);
extern void NGA_Get_ghost_block64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[]);
extern void NGA_Periodic_get(int g_a, int lo[], int hi[], void *buf, int ld[]);
extern void NGA_Periodic_put(int g_a, int lo[], int hi[], void *buf, int ld[]);
extern void NGA_Periodic_acc(int g_a, int lo[], int hi[], void *buf, int ld[], void *alpha);
extern void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[]);
extern void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[]);
extern void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void *buf, int64_t ld[],
                               void *alpha);

/* --- processor groups ----------------------------------------------- */
/* World group -1, mirror group 0, made groups from 2; members in ascending
   rank order. GA_Nodeid, GA_Nnodes, GA_Sync, GA_Brdcst and the GA_*gop
   reductions refer to the default group. Arrays live on all ranks: with
   another default group, creating an array fails (0, with a message). */
extern int  GA_Pgroup_create(int *list, int count);
extern int  NGA_Pgroup_create(int *list, int count);
extern int  GA_Pgroup_split(int grp_id, int num_group);
extern int  NGA_Pgroup_split(int grp_id, int num_group);
extern int  GA_Pgroup_split_irreg(int grp_id, int color);
extern int  NGA_Pgroup_split_irreg(int grp_id, int color);
extern int  GA_Pgroup_self(void);
extern int  NGA_Pgroup_self(void);
extern int  GA_Pgroup_duplicate(int grp);
extern int  NGA_Pgroup_duplicate(int grp);
extern int  GA_Pgroup_destroy(int grp);
extern int  NGA_Pgroup_destroy(int grp);
extern void GA_Pgroup_set_default(int p_handle);
extern void NGA_Pgroup_set_default(int p_handle);
extern int  GA_Pgroup_get_default(void);
extern int  NGA_Pgroup_get_default(void);
extern int  GA_Pgroup_get_world(void);
extern int  NGA_Pgroup_get_world(void);
extern int  GA_Pgroup_get_mirror(void);
extern int  NGA_Pgroup_get_mirror(void);
extern int  GA_Pgroup_nodeid(int grp_id);
extern int  NGA_Pgroup_nodeid(int grp_id);
extern int  GA_Pgroup_nnodes(int grp_id);
extern int  NGA_Pgroup_nnodes(int grp_id);
extern int  GA_Pgroup_absolute_id(int pgroup, int pid);
extern int  NGA_Pgroup_absolute_id(int pgroup, int pid);
extern void GA_Pgroup_sync(int grp_id);
extern void NGA_Pgroup_sync(int grp_id);
extern void GA_Pgroup_brdcst(int grp, void *buf, int lenbuf, int root);
extern void GA_Pgroup_dgop(int grp, double x[], int n, char *op);
extern void NGA_Pgroup_dgop(int grp, double x[], int n, char *op);
extern void GA_Pgroup_fgop(int grp, float x[], int n, char *op);
extern void NGA_Pgroup_fgop(int grp, float x[], int n, char *op);
extern void GA_Pgroup_igop(int grp, int x[], int n, char *op);
extern void NGA_Pgroup_igop(int grp, int x[], int n, char *op);
extern void GA_Pgroup_lgop(int grp, long x[], int n, char *op);
extern void NGA_Pgroup_lgop(int grp, long x[], int n, char *op);
extern void GA_Pgroup_llgop(int grp, long long x[], int n, char *op);
extern void NGA_Pgroup_llgop(int grp, long long x[], int n, char *op);
extern void GA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char *op);
extern void NGA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char *op);
extern void GA_Pgroup_cgop(int grp, SingleComplex x[], int n, char *op);
extern void NGA_Pgroup_cgop(int grp, SingleComplex x[], int n, char *op);
extern int  GA_Get_pgroup(int g_a);
extern int  NGA_Get_pgroup(int g_a);
extern int  GA_Get_pgroup_size(int grp_id);
extern int  NGA_Get_pgroup_size(int grp_id);
/* Arrays live on the world group (-1) only: another p_handle makes no
   array (the calls return 0) and GA_Set_pgroup ends the job. */
extern int  NGA_Create_config(int type, int ndim, int dims[], char *name, int chunk[],
                              int p_handle);
extern int  NGA_Create_config64(int type, int ndim, int64_t dims[], char *name, int64_t chunk[],
                                int p_handle);
extern int  NGA_Create_irreg_config(int type, int ndim, int dims[], char *name, int block[],
                                    int map[], int p_handle);
extern int  NGA_Create_irreg_config64(int type, int ndim, int64_t dims[], char *name,
                                      int64_t block[], int64_t map[], int p_handle);
extern int  NGA_Create_ghosts_config(int type, int ndim, int dims[], int width[], char *name,
                                     int chunk[], int p_handle);
extern int  NGA_Create_ghosts_config64(int type, int ndim, int64_t dims[], int64_t width[],
                                       char *name, int64_t chunk[], int p_handle);
extern int  NGA_Create_ghosts_irreg_config(int type, int ndim, int dims[], int width[],
                                           char *name, int nblock[], int map[], int p_handle);
extern int  NGA_Create_ghosts_irreg_config64(int type, int ndim, int64_t dims[],
                                             int64_t width[], char *name, int64_t nblock[],
                                             int64_t map[], int p_handle);
extern void GA_Set_pgroup(int g_a, int p_handle);
extern void NGA_Set_pgroup(int g_a, int p_handle);
/* Restricted arrays (between GA_Create_handle and GA_Allocate): only the
   listed processes hold data, the i-th listed one the i-th block; every
   process still reaches the whole array, and NGA_Distribution on any
   other process gives an empty range. */
extern void GA_Set_restricted(int g_a, int list[], int nproc);
extern void NGA_Set_restricted(int g_a, int list[], int nproc);
extern void GA_Set_restricted_range(int g_a, int lo_proc, int hi_proc);
extern void NGA_Set_restricted_range(int g_a, int lo_proc, int hi_proc);

/* Element-wise and diagonal arithmetic. Complex values are ordered by
   magnitude; a zero divisor or reciprocal ends the job. GA_Norm1 is the
   sum and GA_Norm_infinity the largest of the elements' magnitudes. The
   step calls store doubles. */
extern void GA_Abs_value(int g_a);
extern void GA_Abs_value_patch(int g_a, int *lo, int *hi);
extern void GA_Abs_value_patch64(int g_a, int64_t *lo, int64_t *hi);
extern void GA_Add_constant(int g_a, void *alpha);
extern void GA_Add_constant_patch(int g_a, int *lo, int *hi, void *alpha);
extern void GA_Add_constant_patch64(int g_a, int64_t *lo, int64_t *hi, void *alpha);
extern void GA_Recip(int g_a);
extern void GA_Recip_patch(int g_a, int *lo, int *hi);
extern void GA_Recip_patch64(int g_a, int64_t *lo, int64_t *hi);
extern void GA_Elem_multiply(int g_a, int g_b, int g_c);
extern void GA_Elem_divide(int g_a, int g_b, int g_c);
extern void GA_Elem_maximum(int g_a, int g_b, int g_c);
extern void GA_Elem_minimum(int g_a, int g_b, int g_c);
extern void GA_Elem_multiply_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi,
                                   int g_c, int *clo, int *chi);
extern void GA_Elem_divide_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi,
                                 int g_c, int *clo, int *chi);
extern void GA_Elem_maximum_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi,
                                  int g_c, int *clo, int *chi);
extern void GA_Elem_minimum_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi,
                                  int g_c, int *clo, int *chi);
extern void GA_Elem_multiply_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b,
                                     int64_t blo[], int64_t bhi[], int g_c, int64_t clo[],
                                     int64_t chi[]);
extern void GA_Elem_divide_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b,
                                   int64_t blo[], int64_t bhi[], int g_c, int64_t clo[],
                                   int64_t chi[]);
extern void GA_Elem_maximum_patch64(int g_a, int64_t *alo, int64_t *ahi, int g_b,
                                    int64_t *blo, int64_t *bhi, int g_c, int64_t *clo,
                                    int64_t *chi);
extern void GA_Elem_minimum_patch64(int g_a, int64_t *alo, int64_t *ahi, int g_b,
                                    int64_t *blo, int64_t *bhi, int g_c, int64_t *clo,
                                    int64_t *chi);
extern void GA_Median(int g_a, int g_b, int g_c, int g_m);
extern void GA_Median_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi, int g_c,
                            int *clo, int *chi, int g_m, int *mlo, int *mhi);
extern void GA_Median_patch64(int g_a, int64_t *alo, int64_t *ahi, int g_b, int64_t *blo,
                              int64_t *bhi, int g_c, int64_t *clo, int64_t *chi, int g_m,
                              int64_t *mlo, int64_t *mhi);
extern void GA_Scale_rows(int g_a, int g_v);
extern void GA_Scale_cols(int g_a, int g_v);
extern void GA_Set_diagonal(int g_a, int g_v);
extern void GA_Add_diagonal(int g_a, int g_v);
extern void GA_Get_diag(int g_a, int g_v);
extern void GA_Shift_diagonal(int g_a, void *c);
extern void GA_Zero_diagonal(int g_a);
extern void GA_Norm1(int g_a, double *nm);
extern void GA_Norm_infinity(int g_a, double *nm);
extern void GA_Step_max(int g_a, int g_b, void *step);
extern void GA_Step_max_patch(int g_a, int *alo, int *ahi, int g_b, int *blo, int *bhi,
                              void *step);
extern void GA_Step_max_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                                int64_t bhi[], void *step);
extern void GA_Step_bound_info(int g_xx, int g_vv, int g_xxll, int g_xxuu, void *boundmin,
                               void *wolfemin, void *boundmax);
extern void GA_Step_bound_info_patch(int g_xx, int *xxlo, int *xxhi, int g_vv, int *vvlo,
                                     int *vvhi, int g_xxll, int *xxlllo, int *xxllhi,
                                     int g_xxuu, int *xxuulo, int *xxuuhi, void *boundmin,
                                     void *wolfemin, void *boundmax);
/* As in Debian's ga.h, g_xxuu is an int64_t here. */
extern void GA_Step_bound_info_patch64(int g_xx, int64_t xxlo[], int64_t xxhi[], int g_vv,
                                       int64_t vvlo[], int64_t vvhi[], int g_xxll,
                                       int64_t xxlllo[], int64_t xxllhi[], int64_t g_xxuu,
                                       int64_t xxuulo[], int64_t xxuuhi[], void *boundmin,
                                       void *wolfemin, void *boundmax);

/* Pack, unpack, segmented scans and enumeration on lo..hi of 1-D arrays;
   an element of the mask (bit) array that is not zero is set. Scans leave
   g_b alone before the first set bit (GA_Scan_copy: zero there); packed
   data lives at the start of the packed array. NGA_Select_elem: op "max"
   or "min"; index[ndim] gets the first such element in row-major order. */
extern void GA_Pack(int g_src, int g_dest, int g_mask, int lo, int hi, int *icount);
extern void GA_Pack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t *icount);
extern void GA_Unpack(int g_src, int g_dest, int g_mask, int lo, int hi, int *icount);
extern void GA_Unpack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t *icount);
extern void GA_Scan_add(int g_a, int g_b, int g_sbit, int lo, int hi, int excl);
extern void GA_Scan_add64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi, int excl);
extern void GA_Scan_copy(int g_a, int g_b, int g_sbit, int lo, int hi);
extern void GA_Scan_copy64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi);
extern void GA_Patch_enum(int g_a, int lo, int hi, void *start, void *inc);
extern void GA_Patch_enum64(int g_a, int64_t lo, int64_t hi, void *start, void *inc);
extern void NGA_Select_elem(int g_a, char* op, void* val, int *index);
extern void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index);

/* Properties: "read_only" or "read_cache", one at a time; they change no
   result here (see the README). User types get codes from 1017 up;
   NGA_Deregister_type returns 0, -1 (a built-in type) or -2 (not
   registered). Field calls move bytes foff..foff+fsize-1 of each element;
   buf holds fsize-byte items with leading dimensions ld. */
extern void GA_Set_property(int g_a, char *property);
extern void NGA_Get_field(int g_a, int *lo, int *hi, int foff, int fsize, void *buf, int *ld);
extern void NGA_Set_property(int g_a, char *property);
extern void NGA_Put_field(int g_a, int *lo, int *hi, int foff, int fsize, void *buf, int *ld);
extern void GA_Unset_property(int g_a);
extern int  NGA_Register_type(size_t bytes);
extern void NGA_Unset_property(int g_a);
extern int  NGA_Deregister_type(int type);
extern void NGA_Nbget_field(int g_a, int *lo, int *hi, int foff, int fsize, void *buf, int *ld,
                            ga_nbhdl_t *nbhandle);
extern void NGA_Nbput_field(int g_a, int *lo, int *hi, int foff, int fsize, void *buf, int *ld,
                            ga_nbhdl_t *nbhandle);
/* Hints GA needs and this implementation does not: accepted, they change
 * nothing (every array lives in the ga-server's shared memory whatever
 * device GA_Set_memory_dev names; gather and scatter need no buffers).
 * GA_List_nodeid: list[i] = i for i < nprocs. */
extern void GA_Set_irreg_flag(int g_a, int flag);
extern void NGA_Set_irreg_flag(int g_a, int flag);
extern void GA_Set_memory_dev(int g_a, char *device);
extern void NGA_Set_memory_dev(int g_a, char *device);
extern void NGA_Alloc_gatscat_buf(int nelems);
extern void NGA_Free_gatscat_buf();
extern void GA_List_nodeid(int *list, int nprocs);
extern void NGA_List_nodeid(int *list, int nprocs);

#ifdef __cplusplus
}
#endif

#endif /* MPBRIDGE_GA_H */
