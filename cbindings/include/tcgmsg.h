/* tcgmsg.h - mpbridge TCGMSG: the C API (arguments by value).
 *
 * Link with -ltcgmsg (libmpbridge). Lengths are in bytes; node numbers are
 * 0..tcg_nnodes()-1 and count compute processes only (Global Arrays data
 * servers are not nodes). A failure prints "<node>: <message> <code>
 * (<hex>)." and ends the whole job with a non-zero status, as TCGMSG does.
 * tcg_nxtval is provided with the Global Arrays data server. */
#ifndef TCGMSG_H_
#define TCGMSG_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Start: collective over all processes; starts MPI unless the program
 * already did (MPI_Init before tcg_pbegin is fine). Only once. */
extern void   tcg_pbegin(int argc, char **argv);
extern void   tcg_alt_pbegin(int *argc, char ***argv);
extern void   tcg_pbeginf(void);
extern void   tcg_pbginf(void);
/* Stop: finalises MPI and exits the process with status 0. */
extern void   tcg_pend(void);

extern long   tcg_nnodes(void);
extern long   tcg_nodeid(void);
extern long   tcg_ready(void);

/* Typed messages. sync = 1 blocks until buf may be reused; sync = 0 is
 * asynchronous: buf belongs to TCGMSG until tcg_waitcom. nodeselect = -1
 * receives from any node; a message longer than lenbuf is an error. */
extern void   tcg_snd(long type, void *buf, long lenbuf, long node, long sync);
extern void   tcg_rcv(long type, void *buf, long lenbuf, long *lenmes,
                      long nodeselect, long *nodefrom, long sync);
extern long   tcg_probe(long type, long node);
extern void   tcg_waitcom(long node);

/* Collectives (every node calls them). op: "+", "*", "max", "min",
 * "absmax", "absmin", "&&"/"land", "||"/"lor"; tcg_igop also "or",
 * "&"/"band", "|"/"bor". Matched by prefix. */
extern void   tcg_brdcst(long type, void *buf, long lenbuf, long originator);
extern void   tcg_dgop(long type, double *x, long n, char *op);
extern void   tcg_igop(long type, long *x, long n, char *op);
extern void   tcg_synch(long type);
extern void   tcg_pfcopy(long type, long node0, char *fname);

/* Shared loop counter (served by the Global Arrays data server). */
extern long   tcg_nxtval(long mproc);

extern long   tcg_mtime(void);
extern double tcg_time(void);
extern long   tcg_mdtob(long n);
extern long   tcg_mdtoi(long n);
extern long   tcg_mitob(long n);
extern long   tcg_mitod(long n);
extern void   tcg_llog(void);
extern void   tcg_stats(void);
extern void   tcg_setdbg(long value);
extern long   tcg_niceftn(long ival);
extern double tcg_drand48(void);
extern void   tcg_srand48(long seed);
extern void   tcg_error(char *msg, long code);
extern void   tcg_parerr(long code);

#ifdef __cplusplus
}
#endif

#endif /* TCGMSG_H_ */
