/*
 * mpbridge.h - the core message API of mpbridge, callable from C.
 *
 * Every legacy layer (PVM, TCGMSG, Express, GA, ...) is built on the same
 * backend: one MPI initialisation per process, one private communicator per
 * context, and a small envelope on every message (context, source id, user
 * tag, encoding, length).  This header exposes that backend directly so C
 * programs and benchmarks can use it.
 *
 * Conventions: functions return MPB_OK (0) or a negative MPB_E* code.
 * Out-parameters may be NULL when the caller does not want them and are
 * written only on success.  Process ids are non-negative integers that are
 * the same from every process's point of view.
 */
#ifndef MPBRIDGE_H
#define MPBRIDGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPB_OK 0
#define MPB_EINVAL -1     /* an argument is out of range (bad tag, id, NULL buffer) */
#define MPB_ETRUNC -2     /* the message is longer than the receive buffer */
#define MPB_ETIMEOUT -3   /* a timed receive expired */
#define MPB_ENOTINIT -4   /* mpb_init has not been called (or mpb_finalize was) */
#define MPB_EMPI -5       /* the MPI library reported an error */
#define MPB_EPANIC -6     /* an internal error was caught at the API boundary */
#define MPB_ENOPEER -7    /* no process has that id, or it has ended */
#define MPB_ENOCTX -8     /* no context has that handle */

#define MPB_ANY -1        /* wildcard for source id and tag */

/* Joins the backend: initialises MPI only if nobody has.  Returns MPB_OK,
 * MPB_EMPI. */
int mpb_init(void);
/* Leaves the backend; MPI is finalised only if mpb_init initialised it and no
 * other layer is still active.  Returns MPB_OK, MPB_ENOTINIT. */
int mpb_finalize(void);
/* This process's id, or MPB_ENOTINIT. */
int mpb_myid(void);
/* Number of processes in this process's static world, or MPB_ENOTINIT. */
int mpb_nprocs(void);
/* The id of rank `rank` of this process's static world; MPB_EINVAL if out of
 * range. */
int mpb_world_id(int rank);
/* Creates (collectively over the static world, in the same order on every
 * rank) or finds the context called `name`.  Returns a handle >= 0, or
 * MPB_EINVAL, MPB_ENOTINIT, MPB_EMPI. */
int mpb_context(const char *name);
/* Sends `len` bytes to process `dest` with user tag `tag` (>= 0) in context
 * `ctx`.  Returns when `buf` may be reused.  Returns MPB_OK, MPB_EINVAL,
 * MPB_ENOCTX, MPB_ENOPEER, MPB_ENOTINIT, MPB_EMPI. */
int mpb_send(int ctx, int dest, int tag, const void *buf, size_t len);
/* Blocking receive of the first message matching (src, tag) (MPB_ANY
 * allowed) in context `ctx` into `buf` (capacity `cap`).  On MPB_ETRUNC the
 * message is consumed and `*out_len` tells its full length.  Returns MPB_OK,
 * MPB_ETRUNC, MPB_EINVAL, MPB_ENOCTX, MPB_ENOPEER (the named sender ended),
 * MPB_ENOTINIT, MPB_EMPI. */
int mpb_recv(int ctx, int src, int tag, void *buf, size_t cap,
             int *out_src, int *out_tag, size_t *out_len);
/* Like mpb_recv but gives up after `timeout_s` seconds (MPB_ETIMEOUT);
 * timeout_s == 0 polls once. */
int mpb_trecv(int ctx, int src, int tag, void *buf, size_t cap,
              double timeout_s, int *out_src, int *out_tag, size_t *out_len);
/* Non-blocking probe: returns 1 if a matching message is waiting (and fills
 * the out-parameters), 0 if not, or a negative MPB_E* code. */
int mpb_probe(int ctx, int src, int tag, int *out_src, int *out_tag,
              size_t *out_len);
/* A static English text for an MPB_* code (never NULL). */
const char *mpb_strerror(int code);
/* The library version, e.g. "0.1.0". */
const char *mpb_version(void);

#ifdef __cplusplus
}
#endif
#endif /* MPBRIDGE_H */
