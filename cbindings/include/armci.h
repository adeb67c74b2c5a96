/*
 * armci.h - ARMCI, the one-sided layer of Global Arrays (mpbridge).
 *
 * ARMCI runs on mpbridge's GA client, beside one ga-server per node:
 *     mpiexec -n 4 ./app : -n 1 ga-server
 * Processes are numbered as GA numbers them (GA_Nodeid, armci_msg_me).
 *
 * Memory. ARMCI_Malloc is collective; ptrs[p] receives process p's address
 * as this process sees it: for a process on the same node, an address in
 * shared memory that may be read and written directly; for a process on
 * another node, an address that only ARMCI calls accept; NULL where p asked
 * for 0 bytes. Remote addresses given to ARMCI calls must lie inside such
 * memory of the target process.
 *
 * Completion. Every operation is complete at its target when its call
 * returns; non-blocking calls therefore complete at once, and ARMCI_Wait,
 * ARMCI_Test (0 = complete), ARMCI_WaitProc and ARMCI_WaitAll return 0.
 *
 * Return codes. int-returning calls return 0 on success. Bad input (a
 * process out of range, an address outside ARMCI_Malloc memory, a NULL
 * buffer with a non-zero byte count, stride levels outside 0..8, negative
 * counts or strides, an unknown type or operation, a mutex that does not
 * exist) ends the job through ARMCI_Error with a message naming the call.
 *
 * Groups. ARMCI_Group_create is collective over the default group (the
 * world at first), ARMCI_Group_create_child over its parent; members are
 * named by their rank there. A process left out gets rank -1 and
 * comm MPI_COMM_NULL. The library keeps grp_to_abs/abs_to_grp until
 * ARMCI_Group_free and knows its groups by them (a copy of the struct is
 * the same group). ARMCI_Malloc_group is collective over the group;
 * ptr_arr[r] is group rank r's address, and ARMCI calls reach it with
 * the owner's absolute rank.
 *
 * ARMCI_Init_thread_comm takes only a communicator of the whole job
 * (MPI_COMM_WORLD).
 *
 * Profiling: every ARMCI_ call below the groups has a PARMCI_ twin that
 * does the same. A tool defines ARMCI_Put (say) in the program, measures
 * and calls PARMCI_Put; the program's own ARMCI_Put calls reach the tool.
 */
#ifndef MPBRIDGE_ARMCI_H
#define MPBRIDGE_ARMCI_H

#include <stddef.h>
#if defined(__has_include)
#if __has_include(<mpi.h>)
#include <mpi.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Types an accumulate adds as: int, long, float, double, float complex,
 * double complex. */
enum ARMCI_Acc_e {
    ARMCI_ACC_INT = 0,
    ARMCI_ACC_LNG = 1,
    ARMCI_ACC_FLT = 2,
    ARMCI_ACC_DBL = 3,
    ARMCI_ACC_CPL = 4,
    ARMCI_ACC_DCP = 5
};

/* Read-modify-write operations of ARMCI_Rmw. */
enum ARMCI_Rmw_e {
    ARMCI_FETCH_AND_ADD = 0,
    ARMCI_FETCH_AND_ADD_LONG = 1,
    ARMCI_SWAP = 2,
    ARMCI_SWAP_LONG = 3
};

typedef long armci_size_t;

/* Handle of a non-blocking operation. */
typedef struct armci_hdl_s {
    int target;
    int aggregate;
} armci_hdl_t;

/* One entry of an I/O vector: ptr_array_len segments of `bytes` bytes,
 * from src_ptr_array[i] to dst_ptr_array[i]. */
typedef struct {
    void **src_ptr_array;
    void **dst_ptr_array;
    int bytes;
    int ptr_array_len;
} armci_giov_t;

/* --- start and stop -------------------------------------------------- */
int    ARMCI_Init(void);
int    ARMCI_Init_args(int *argc, char ***argv);
int    ARMCI_Init_thread(int armci_requested);
#if defined(MPI_VERSION)
int    ARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
#endif
int    ARMCI_Initialized(void);
int    ARMCI_Finalize(void);
void   ARMCI_Cleanup(void);
void   ARMCI_Error(const char *msg, int code);

/* --- memory ----------------------------------------------------------- */
int    ARMCI_Malloc(void **ptrs, armci_size_t bytes);
int    ARMCI_Free(void *ptr);
/* Memory devices: the name is not consulted (all ARMCI memory is in the
 * ga-server's shared memory). */
int    ARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char *device);
int    ARMCI_Free_memdev(void *ptr);
void  *ARMCI_Malloc_local(armci_size_t bytes);
int    ARMCI_Free_local(void *ptr);
void   ARMCI_Copy(void *src, void *dst, int bytes);
void   ARMCI_Access_begin(void *ptr);
void   ARMCI_Access_end(void *ptr);

/* --- synchronisation -------------------------------------------------- */
void   ARMCI_Barrier(void);
void   ARMCI_Fence(int proc);
void   ARMCI_AllFence(void);

/* --- contiguous transfers --------------------------------------------- */
int    ARMCI_Put(void *src, void *dst, int bytes, int proc);
int    ARMCI_Get(void *src, void *dst, int bytes, int proc);
int    ARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes,
                 int proc);
int    ARMCI_Put_flag(void *src, void *dst, int bytes, int *flag, int value,
                      int proc);

/* --- strided transfers: count[0] bytes per piece, count[1..levels]
 * pieces per level; strides (levels entries) in bytes ------------------ */
int    ARMCI_PutS(void *src, int src_stride[], void *dst, int dst_stride[],
                  int count[], int levels, int proc);
int    ARMCI_GetS(void *src, int src_stride[], void *dst, int dst_stride[],
                  int count[], int levels, int proc);
int    ARMCI_AccS(int datatype, void *scale, void *src, int src_stride[],
                  void *dst, int dst_stride[], int count[], int levels,
                  int proc);
int    ARMCI_PutS_flag(void *src, int src_stride[], void *dst,
                       int dst_stride[], int count[], int levels, int *flag,
                       int value, int proc);

/* Local copies between strided memory at ptr and a contiguous buffer:
 * armci_write_strided writes the strided data into buf, armci_read_strided
 * reads buf into the strided places. */
void   armci_write_strided(void *ptr, int levels, int stride[], int count[],
                           char *buf);
void   armci_read_strided(void *ptr, int levels, int stride[], int count[],
                          char *buf);

/* --- I/O vectors -------------------------------------------------------- */
int    ARMCI_PutV(armci_giov_t *iov, int len, int proc);
int    ARMCI_GetV(armci_giov_t *iov, int len, int proc);
int    ARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int len,
                  int proc);

/* --- non-blocking forms (the handle may be NULL) ------------------------ */
void   ARMCI_INIT_HANDLE(armci_hdl_t *hdl);
void   ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *hdl);
void   ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *hdl);
int    ARMCI_NbPut(void *src, void *dst, int bytes, int proc,
                   armci_hdl_t *hdl);
int    ARMCI_NbGet(void *src, void *dst, int bytes, int proc,
                   armci_hdl_t *hdl);
int    ARMCI_NbAcc(int datatype, void *scale, void *src, void *dst,
                   int bytes, int proc, armci_hdl_t *hdl);
int    ARMCI_NbPutS(void *src, int src_stride[], void *dst, int dst_stride[],
                    int count[], int levels, int proc, armci_hdl_t *hdl);
int    ARMCI_NbGetS(void *src, int src_stride[], void *dst, int dst_stride[],
                    int count[], int levels, int proc, armci_hdl_t *hdl);
int    ARMCI_NbAccS(int datatype, void *scale, void *src, int src_stride[],
                    void *dst, int dst_stride[], int count[], int levels,
                    int proc, armci_hdl_t *hdl);
int    ARMCI_NbPutV(armci_giov_t *iov, int len, int proc, armci_hdl_t *hdl);
int    ARMCI_NbGetV(armci_giov_t *iov, int len, int proc, armci_hdl_t *hdl);
int    ARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int len,
                    int proc, armci_hdl_t *hdl);
int    ARMCI_Wait(armci_hdl_t *hdl);
int    ARMCI_Test(armci_hdl_t *hdl);
int    ARMCI_WaitProc(int proc);
int    ARMCI_WaitAll(void);

/* --- single values ------------------------------------------------------ */
int    ARMCI_PutValueInt(int src, void *dst, int proc);
int    ARMCI_PutValueLong(long src, void *dst, int proc);
int    ARMCI_PutValueFloat(float src, void *dst, int proc);
int    ARMCI_PutValueDouble(double src, void *dst, int proc);
int    ARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int    ARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int    ARMCI_NbPutValueFloat(float src, void *dst, int proc,
                             armci_hdl_t *hdl);
int    ARMCI_NbPutValueDouble(double src, void *dst, int proc,
                              armci_hdl_t *hdl);
int    ARMCI_GetValueInt(void *src, int proc);
long   ARMCI_GetValueLong(void *src, int proc);
float  ARMCI_GetValueFloat(void *src, int proc);
double ARMCI_GetValueDouble(void *src, int proc);

/* --- read-modify-write and mutexes --------------------------------------
 * ARMCI_Rmw: FETCH_AND_ADD[_LONG] adds `value` to the int (long) at prem
 * of proc and stores the old one at ploc; SWAP[_LONG] exchanges *ploc
 * with it. Mutexes: ARMCI_Create_mutexes(n) makes n on every process
 * (collective); ARMCI_Lock(m, p) takes mutex m of process p. */
int    ARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);
int    ARMCI_Create_mutexes(int count);
int    ARMCI_Destroy_mutexes(void);
void   ARMCI_Lock(int mutex, int proc);
void   ARMCI_Unlock(int mutex, int proc);

/* --- topology: a domain is a node --------------------------------------- */
enum armci_domain_e { ARMCI_DOMAIN_SMP = 0 };
typedef int armci_domain_t;

int    armci_domain_nprocs(armci_domain_t domain, int id);
int    armci_domain_id(armci_domain_t domain, int proc);
int    armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc);
int    armci_domain_my_id(armci_domain_t domain);
int    armci_domain_count(armci_domain_t domain);
int    armci_domain_same_id(armci_domain_t domain, int proc);
int    ARMCI_Same_node(int proc);
int    ARMCI_Uses_shm(void);
void   ARMCI_Set_shm_limit(unsigned long limit);

/* Processor groups (as Debian's ARMCI-MPI lays the struct out). */
typedef struct {
#if defined(MPI_VERSION)
  MPI_Comm  comm;
  MPI_Comm  noncoll_pgroup_comm;
#else
  void     *comm;
  void     *noncoll_pgroup_comm;
#endif
  int      *grp_to_abs;
  int      *abs_to_grp;
  int       rank;
  int       size;
} ARMCI_Group;

void   ARMCI_Group_create(int grp_size, int *pid_list, ARMCI_Group *group_out);
void   ARMCI_Group_create_child(int grp_size, int *pid_list, ARMCI_Group *group_out,
                                ARMCI_Group *group_parent);
void   ARMCI_Group_free(ARMCI_Group *group);
int    ARMCI_Group_rank(ARMCI_Group *group, int *rank);
void   ARMCI_Group_size(ARMCI_Group *group, int *size);
void   ARMCI_Group_set_default(ARMCI_Group *group);
void   ARMCI_Group_get_default(ARMCI_Group *group_out);
void   ARMCI_Group_get_world(ARMCI_Group *group_out);
int    ARMCI_Absolute_id(ARMCI_Group *group, int group_rank);
int    ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group);
int    ARMCI_Free_group(void *ptr, ARMCI_Group *group);
int    ARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group,
                                 const char *device);
int    ARMCI_Uses_shm_grp(ARMCI_Group *group);

/* --- profiling interface: each PARMCI_x is ARMCI_x ------------------------ */
int    PARMCI_Init(void);
int    PARMCI_Init_args(int *argc, char ***argv);
int    PARMCI_Init_thread(int armci_requested);
#if defined(MPI_VERSION)
int    PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
#endif
int    PARMCI_Initialized(void);
int    PARMCI_Finalize(void);
int    PARMCI_Malloc(void **ptrs, armci_size_t bytes);
int    PARMCI_Free(void *ptr);
void  *PARMCI_Malloc_local(armci_size_t bytes);
int    PARMCI_Free_local(void *ptr);
int    PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char *device);
int    PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group,
                                  const char *device);
int    PARMCI_Free_memdev(void *ptr);
void   PARMCI_Barrier(void);
void   PARMCI_Fence(int proc);
void   PARMCI_AllFence(void);
void   PARMCI_Access_begin(void *ptr);
void   PARMCI_Access_end(void *ptr);
int    PARMCI_Put(void *src, void *dst, int bytes, int proc);
int    PARMCI_Get(void *src, void *dst, int bytes, int proc);
int    PARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc);
int    PARMCI_PutS(void *src, int *src_stride, void *dst, int *dst_stride, int *count,
                   int levels, int proc);
int    PARMCI_GetS(void *src, int *src_stride, void *dst, int *dst_stride, int *count,
                   int levels, int proc);
int    PARMCI_AccS(int datatype, void *scale, void *src, int *src_stride, void *dst,
                   int *dst_stride, int *count, int levels, int proc);
int    PARMCI_Put_flag(void *src, void *dst, int bytes, int *flag, int value, int proc);
int    PARMCI_PutS_flag(void *src, int *src_stride, void *dst, int *dst_stride, int *count,
                        int levels, int *flag, int value, int proc);
int    PARMCI_PutV(armci_giov_t *iov, int len, int proc);
int    PARMCI_GetV(armci_giov_t *iov, int len, int proc);
int    PARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int len, int proc);
int    PARMCI_Wait(armci_hdl_t *hdl);
int    PARMCI_Test(armci_hdl_t *hdl);
int    PARMCI_WaitProc(int proc);
int    PARMCI_WaitAll(void);
int    PARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int    PARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int    PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes, int proc,
                    armci_hdl_t *hdl);
int    PARMCI_NbPutS(void *src, int *src_stride, void *dst, int *dst_stride, int *count,
                     int levels, int proc, armci_hdl_t *hdl);
int    PARMCI_NbGetS(void *src, int *src_stride, void *dst, int *dst_stride, int *count,
                     int levels, int proc, armci_hdl_t *hdl);
int    PARMCI_NbAccS(int datatype, void *scale, void *src, int *src_stride, void *dst,
                     int *dst_stride, int *count, int levels, int proc, armci_hdl_t *hdl);
int    PARMCI_NbPutV(armci_giov_t *iov, int len, int proc, armci_hdl_t *hdl);
int    PARMCI_NbGetV(armci_giov_t *iov, int len, int proc, armci_hdl_t *hdl);
int    PARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int len, int proc,
                     armci_hdl_t *hdl);
int    PARMCI_PutValueInt(int src, void *dst, int proc);
int    PARMCI_PutValueLong(long src, void *dst, int proc);
int    PARMCI_PutValueFloat(float src, void *dst, int proc);
int    PARMCI_PutValueDouble(double src, void *dst, int proc);
int    PARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int    PARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int    PARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *hdl);
int    PARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *hdl);
int    PARMCI_GetValueInt(void *src, int proc);
long   PARMCI_GetValueLong(void *src, int proc);
float  PARMCI_GetValueFloat(void *src, int proc);
double PARMCI_GetValueDouble(void *src, int proc);
int    PARMCI_Create_mutexes(int count);
int    PARMCI_Destroy_mutexes(void);
void   PARMCI_Lock(int mutex, int proc);
void   PARMCI_Unlock(int mutex, int proc);
int    PARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);

#ifdef __cplusplus
}
#endif

#include "message.h"

#endif
