/*
 * express.h - ParaSoft Express message passing on MPI (mpbridge).
 *
 * No public Express manual, header or source exists. Every call below is
 * "Express-compatible as specified here": this header is the project's
 * specification (a reconstruction; see the project's express.md), and the
 * test suite freezes each choice it makes. Link with -lexpress (or
 * pkg-config express) and build with mpicc.
 *
 * Processes and nodes
 *   The first Express call of a process starts the layer; that start is
 *   collective over every process of the job, so every process (host
 *   included) must make an Express call, usually exparam first.
 *   Nodes are numbered 0..nprocs-1. A job launched as one host program
 *   plus N nodes (mpiexec -n 1 ./host : -n N ./node) has a host: the single
 *   process of the first application. The host is not a node; its number
 *   is nprocs (it can be written to and read from like a node) and it takes
 *   no part in collectives or grids (EXNOTMEMBER). Without such a launch
 *   there is no host and exparam reports host = EXNOHOST.
 *
 * Messages
 *   A message's type is any int; it is a user tag in mpbridge's envelope,
 *   never an MPI tag. DONTCARE (-1) as source or type in a receive or test
 *   matches anything, and the actual values are written back; a message
 *   sent with type -1 is therefore only received by a DONTCARE receive.
 *   Messages between a pair of nodes arrive in the order they were sent;
 *   a receive takes the earliest matching arrival. EXNONODE as destination
 *   or source makes a send or receive do nothing (returns 0): grid shifts
 *   give it past a non-periodic edge.
 *   A message longer than the receive buffer is not received: it stays
 *   queued, the call writes its source and type back and returns
 *   EXTOOLONG, and extest reports its length so a larger buffer can take
 *   it. Nothing is truncated.
 *
 * Node lists (exbroadcast, excombine, exconcat)
 *   nnodes = ALLNODES (0) means every node; nodelist is then not read and
 *   may be NULL. Otherwise nodelist holds nnodes distinct node numbers in
 *   any order; the participants are taken in increasing node number
 *   ("node order"). Each distinct list gets its own MPI communicator,
 *   made by its members only and cached. A node that is not in the list
 *   gets EXNOTMEMBER at once and nobody waits for it. The type argument of
 *   collectives is accepted and not used: collectives never match
 *   point-to-point messages.
 *   Arguments are checked before any communication; if they are wrong on
 *   only some participants, the others wait, as in any MPI collective.
 *
 * Message handlers (exhandle)
 *   Handlers run only inside Express calls, on the calling thread: at the
 *   start of every Express call (all but exerrmsg and exgridsize), and on every turn
 *   of the wait of a blocking receive (exread, exvread, exchange,
 *   exmsgwait), so a handler runs while the process is blocked waiting for
 *   another message. They do not run while the program computes outside
 *   Express, nor inside the MPI part of exsync, exbroadcast, excombine and
 *   exconcat (they run at those calls' start). A message matching a
 *   handler goes to the handler before any receive can take it; posted
 *   exreceive buffers come next, blocking receives last. Handlers do not
 *   nest (Express calls inside a handler run no handlers). The message
 *   passed to a handler is valid only during the call.
 *
 * Errors
 *   Every call returns a negative code on failure and records a text
 *   naming the call and argument, returned by exerrmsg().
 */
#ifndef MPBRIDGE_EXPRESS_H
#define MPBRIDGE_EXPRESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Wildcard source or type in receives and tests. */
#define DONTCARE (-1)
/* nnodes value meaning every node (the node list is not read). */
#define ALLNODES 0
/* A node that does not exist: sends to and receives from it do nothing. */
#define EXNONODE (-100)
/* exparam's host field when the job has no host process. */
#define EXNOHOST (-1)
#define NULLPTR ((void *)0)

/* Return codes. */
#define EXOK 0
#define EXNOMSG (-1)     /* extest: no matching message is waiting */
#define EXBADNODE (-2)   /* not a node (nor the host, nor EXNONODE) */
#define EXBADLEN (-3)    /* negative length, size, count; bad stride */
#define EXNULLBUF (-4)   /* NULL buffer or pointer where memory is needed */
#define EXTOOLONG (-5)   /* message or result longer than the buffer */
#define EXNOTMEMBER (-6) /* caller not in the node list, or the host */
#define EXBADLIST (-7)   /* malformed node list */
#define EXBADGRID (-8)   /* unknown grid id, or shape not fitting the nodes */
#define EXBADID (-9)     /* unknown message id */
#define EXBADFUNC (-10)  /* NULL function, or predefined one not fitting size */
#define EXBADARG (-11)   /* other argument out of range (dim, coords, dir) */
#define EXSYSERR (-12)   /* the MPI backend failed */
#define EXINTERNAL (-13) /* internal error caught at the API boundary */

/* The node environment. */
struct nodenv {
    int procnum; /* this node, 0..nprocs-1 (the host: nprocs) */
    int nprocs;  /* number of nodes, the host not counted */
    int host;    /* the host's node number (nprocs), or EXNOHOST */
    int taskid;  /* mpbridge task id (the id other layers report) */
};

/* Combine function: stores a o b into a, for one item of size bytes.
 * Its return value is ignored.
 */
typedef int (*excombine_fn)(void *a, const void *b, int size);
/* Message handler: the message, its length, source node and type. */
typedef void (*exhandler_fn)(void *buf, int len, int src, int type);

/* Fills *env. Returns 0; EXNULLBUF, EXSYSERR. */
int exparam(struct nodenv *env);

/* Blocking receive from *src of type *type (DONTCARE allowed) into buf of
 * len bytes; *src and *type receive the message's. Returns its length;
 * EXTOOLONG (message stays queued), EXBADNODE, EXBADLEN, EXNULLBUF.
 */
int exread(void *buf, int len, int *src, int *type);
/* Blocking send of len bytes to *dest with type *type; returns when buf
 * may be reused. Returns len (0 to EXNONODE); EXBADNODE, EXBADLEN,
 * EXNULLBUF.
 */
int exwrite(void *buf, int len, int *dest, int *type);
/* Asynchronous send: the message is copied, the id (> 0) is complete at
 * once. Errors as exwrite.
 */
int exsend(void *buf, int len, int *dest, int *type);
/* Asynchronous receive: returns a message id (> 0). buf, src and type
 * must stay valid until exmsgwait; the message, its source and type are
 * stored when it completes (in any later Express call). Errors as
 * exread.
 */
int exreceive(void *buf, int len, int *src, int *type);
/* Length of the first waiting message from *src of type *type (wildcards
 * allowed, actual values written back); EXNOMSG when none. EXBADNODE,
 * EXNULLBUF.
 */
int extest(int *src, int *type);
/* 1 when operation msgid has finished, 0 while pending (the id stays
 * valid until exmsgwait). EXBADID.
 */
int exmsgtest(int msgid);
/* Waits for operation msgid and releases the id: its byte count or its
 * error (EXTOOLONG: the message stays queued). EXBADID.
 */
int exmsgwait(int msgid);
/* Sends outlen bytes of out to *dest (type *desttype) and receives into
 * in (inlen bytes) from *src (type *srctype; wildcards allowed, actual
 * values written back), without deadlock whatever the partner does.
 * Returns the bytes received; errors as exread and exwrite.
 */
int exchange(void *in, int inlen, int *src, int *srctype, void *out,
             int outlen, int *dest, int *desttype);
/* Strided send: nitems items of itemsize bytes, stride bytes apart
 * (stride >= itemsize), as one message. Returns the bytes sent; EXBADLEN,
 * EXBADNODE, EXNULLBUF.
 */
int exvwrite(void *buf, int itemsize, int nitems, int stride, int *dest,
             int *type);
/* Strided receive: up to nitems items of itemsize bytes; item i is stored
 * at byte i*stride of buf. Returns the bytes received; errors as exread
 * and exvwrite.
 */
int exvread(void *buf, int itemsize, int nitems, int stride, int *src,
            int *type);

/* Barrier over all nodes. Returns 0; EXNOTMEMBER on the host. */
int exsync(void);
/* Broadcasts len bytes of buf from node src to the listed nodes. Returns
 * the broadcast length; a shorter receiving buffer keeps its first len
 * bytes and gets EXTOOLONG. EXBADNODE (src not listed), EXBADLIST,
 * EXNOTMEMBER, EXBADLEN, EXNULLBUF.
 */
int exbroadcast(void *buf, int len, int src, int nnodes, int *nodelist,
                int type);
/* Combines nitems items of size bytes in buf over the listed nodes with
 * func; every participant gets the result in buf. Returns 0; EXBADFUNC,
 * EXBADLEN, EXNULLBUF, EXBADLIST, EXNOTMEMBER.
 * A user function is applied as the left fold in node order: with the
 * participants' items x0, x1, ..., xk (increasing node number) the result
 * is ((x0 o x1) o x2) o ... o xk, where func(a, b) stores a o b into a.
 * Every participant computes the same fold, so the result is identical
 * everywhere, commutative or not. The predefined functions below use
 * MPI's own reduction (element type must divide size).
 */
int excombine(void *buf, excombine_fn func, int size, int nitems, int nnodes,
              int *nodelist, int type);
/* Predefined combine functions (callable directly, too). i: int,
 * l: long, f: float, d: double; land/lor: logical and/or of int (non-zero
 * is true, result 1 or 0).
 */
int ex_isum(void *a, const void *b, int size);
int ex_iprod(void *a, const void *b, int size);
int ex_imax(void *a, const void *b, int size);
int ex_imin(void *a, const void *b, int size);
int ex_lsum(void *a, const void *b, int size);
int ex_lprod(void *a, const void *b, int size);
int ex_lmax(void *a, const void *b, int size);
int ex_lmin(void *a, const void *b, int size);
int ex_fsum(void *a, const void *b, int size);
int ex_fprod(void *a, const void *b, int size);
int ex_fmax(void *a, const void *b, int size);
int ex_fmin(void *a, const void *b, int size);
int ex_dsum(void *a, const void *b, int size);
int ex_dprod(void *a, const void *b, int size);
int ex_dmax(void *a, const void *b, int size);
int ex_dmin(void *a, const void *b, int size);
int ex_land(void *a, const void *b, int size);
int ex_lor(void *a, const void *b, int size);
/* Concatenates each participant's inlen bytes in node order into out on
 * every participant (lengths may differ). Returns the total length; if it
 * exceeds outlen the first outlen bytes are stored and EXTOOLONG
 * returned. EXBADLEN, EXNULLBUF, EXBADLIST, EXNOTMEMBER.
 */
int exconcat(void *in, int inlen, void *out, int outlen, int nnodes,
             int *nodelist, int type);
/* Registers func for messages from src of type type (DONTCARE allowed);
 * func NULL removes it; a second registration for the same src and type
 * replaces the function; among several matching handlers the first
 * registered runs. Returns 0; EXBADNODE.
 */
int exhandle(exhandler_fn func, int src, int type);

/* Processor grids. Grid ids count from 0 in creation order; every node
 * creates the same grids in the same order. Nodes fill a grid in node
 * order, last dimension fastest. Coordinates and dimension numbers count
 * from 0.
 */
/* Creates a grid of all nodes (collective over the nodes). Zero entries of
 * dims are chosen (balanced) and every size written back; periods (NULL:
 * none) flags periodic dimensions. Returns the grid id; EXBADGRID (ndim
 * not 1..16, sizes not multiplying to nprocs), EXNULLBUF, EXNOTMEMBER.
 */
int exgridinit(int ndim, int *dims, const int *periods);
/* Fills zero entries of dims with a balanced split of nnodes. Returns 0;
 * EXBADGRID, EXNULLBUF.
 */
int exgridsize(int nnodes, int ndim, int *dims);
/* Sub-grid of grid keeping the dimensions whose remain flag is non-zero
 * (collective over the grid); each node gets the one it is in. Returns
 * its id; EXBADGRID, EXNULLBUF.
 */
int exgridsplit(int grid, const int *remain);
/* Number of dimensions of grid; sizes to dims (may be NULL). EXBADGRID. */
int exgriddims(int grid, int *dims);
/* Coordinates of node in grid. Returns 0; EXBADGRID, EXBADNODE,
 * EXNULLBUF.
 */
int exgridcoord(int grid, int node, int *coords);
/* The node at coords (wrapped in periodic dimensions). EXBADGRID,
 * EXBADARG, EXNULLBUF.
 */
int exgridnode(int grid, const int *coords);
/* Shift by disp along dim: *src gets the node this one receives from,
   *dest the node it sends to (EXNONODE past a non-periodic edge). Returns
 * 0; EXBADGRID, EXBADARG, EXNULLBUF.
 */
int exgridshift(int grid, int dim, int disp, int *src, int *dest);
/* Neighbour along dim in direction dir (+1/-1), or EXNONODE. EXBADGRID,
 * EXBADARG.
 */
int exgridnbr(int grid, int dim, int dir);

/* Text of this thread's last Express error ("" if none). */
const char *exerrmsg(void);

#ifdef __cplusplus
}
#endif

#endif /* MPBRIDGE_EXPRESS_H */
