/*
 * pvm3.h - C interface of mpbridge's PVM 3.4 layer.
 *
 * Programs written for PVM 3.4.6 compile against this header without
 * changes: the constants carry PVM's values, the structures PVM's layout
 * and the functions PVM's signatures.  The calls themselves run on the
 * mpbridge backend (MPI) instead of a pvmd.
 *
 * Unless its prototype says otherwise, every function returns a PVM code:
 * a value >= 0 means success (a count, an id, or PvmOk), a value < 0 is
 * one of the Pvm* error codes below.  The code of the last failure is also
 * stored in pvm_errno; pvm_perror() and pvm_strerror() describe it.
 */

#ifndef _PVM3_H_
#define _PVM3_H_

#include <stdarg.h>   /* va_list: pvm_vpackf, pvm_vunpackf */
#include <stdio.h>    /* FILE: pvm_catchout; fprintf in PvmMboxDirectIndex */
#include <sys/time.h> /* struct timeval: pvm_trecv, pvm_hostsync */

/* ---- Release ---------------------------------------------------------- */

#define PVM_VER "3.4.6"
#define PVM_MAJOR_VERSION 3
#define PVM_MINOR_VERSION 4
#define PVM_PATCH_VERSION 6

/* ---- Message encodings: pvm_initsend(), pvm_mkbuf() -------------------- */

#define PvmDataDefault 0  /* portable (XDR) */
#define PvmDataRaw     1  /* native byte copy */
#define PvmDataInPlace 2  /* data stays in user memory until the send */
#define PvmDataTrace   4  /* reserved for trace records */
#define PvmDataFoo     PvmDataDefault

/* ---- pvm_spawn() flags (OR them together) ----------------------------- */

#define PvmTaskDefault   0   /* any host */
#define PvmTaskHost      1   /* `where' names a host */
#define PvmTaskArch      2   /* `where' names an architecture */
#define PvmTaskDebug     4   /* start under a debugger */
#define PvmTaskTrace     8   /* the task writes trace events */
#define PvmMppFront      16  /* start on the front end of an MPP */
#define PvmHostCompl     32  /* any host except `where' */
#define PvmNoSpawnParent 64  /* the children get no parent */

/* ---- pvm_notify() events, and the cancel flag ------------------------- */

#define PvmTaskExit     1
#define PvmHostDelete   2
#define PvmHostAdd      3
#define PvmRouteAdd     4
#define PvmRouteDelete  5
#define PvmNotifyCancel 256  /* OR with an event to withdraw a request */

/* ---- pvm_setopt() / pvm_getopt() options ------------------------------ */

#define PvmRoute             1   /* values: PvmDontRoute .. PvmRouteDirect */
#define PvmDebugMask         2
#define PvmAutoErr           3   /* 0 quiet, 1 print, 2 print+exit, 3 abort */
#define PvmOutputTid         4   /* children's stdout goes to this task */
#define PvmOutputCode        5
#define PvmTraceTid          6   /* children's trace goes to this task */
#define PvmTraceCode         7
#define PvmTraceBuffer       8
#define PvmTraceOptions      9   /* values: PvmTraceFull .. PvmTraceCount */
#define PvmFragSize          10
#define PvmResvTids          11  /* allow reserved tags and tids */
#define PvmSelfOutputTid     12  /* same as above, for the calling task */
#define PvmSelfOutputCode    13
#define PvmSelfTraceTid      14
#define PvmSelfTraceCode     15
#define PvmSelfTraceBuffer   16
#define PvmSelfTraceOptions  17
#define PvmShowTids          18
#define PvmPollType          19  /* values: PvmPollConstant, PvmPollSleep */
#define PvmPollTime          20
#define PvmOutputContext     21
#define PvmTraceContext      22
#define PvmSelfOutputContext 23
#define PvmSelfTraceContext  24
#define PvmNoReset           25

/* values of PvmRoute */
#define PvmDontRoute   1
#define PvmAllowDirect 2
#define PvmRouteDirect 3

/* values of PvmTraceOptions and PvmSelfTraceOptions */
#define PvmTraceFull  1
#define PvmTraceTime  2
#define PvmTraceCount 3

/* values of PvmPollType */
#define PvmPollConstant 1
#define PvmPollSleep    2

/* ---- pvm_gettmask() / pvm_settmask() ---------------------------------- */

#define PvmTaskSelf  0
#define PvmTaskChild 1

/* ---- Contexts --------------------------------------------------------- */

#define PvmBaseContext 0  /* where every task starts */

/* ---- Mailbox: pvm_putinfo(), pvm_recvinfo(), pvm_delinfo() ------------ */

#define PvmMboxDefault          0
#define PvmMboxPersistent       1    /* entry outlives its owner */
#define PvmMboxMultiInstance    2    /* a name may hold several entries */
#define PvmMboxOverWritable     4
#define PvmMboxFirstAvail       8    /* first free index >= the one given */
#define PvmMboxReadAndDelete    16
#define PvmMboxWaitForInfo      32   /* pvm_recvinfo blocks until present */
#define PvmMboxMaxFlag          512  /* flags above this hold an index */
#define PvmMboxDirectIndexShift 10

/* An entry index can also travel inside the flags word. */
#define PvmMboxMaxDirectIndex \
    ((unsigned)1 << (31 - PvmMboxDirectIndexShift))
#define PvmMboxDirectIndexOf(_flags) \
    (((_flags) & ((PvmMboxMaxDirectIndex - 1) << PvmMboxDirectIndexShift)) \
     >> PvmMboxDirectIndexShift)
#define PvmMboxDirectIndex(_index) \
    (((_index) >= PvmMboxMaxDirectIndex) \
     ? (fprintf(stderr, "Mbox Direct Index Too Large: %d >= %d\n", \
                (_index), PvmMboxMaxDirectIndex), 0) \
     : ((_index) << PvmMboxDirectIndexShift))

/* Mailbox names reserved for the system. */
#define PVMNORESETCLASS "###_PVM_NO_RESET_###"
#define PVMHOSTERCLASS  "###_PVM_HOSTER_###"
#define PVMTASKERCLASS  "###_PVM_TASKER_###"
#define PVMTRACERCLASS  "###_PVM_TRACER_###"
#define PVMRMCLASS      "###_PVM_RM_###"

/* ---- Error codes (pvm_errno, and the result of a failing call) -------- */

#define PvmOk           0
#define PvmBadParam     (-2)   /* an argument is invalid */
#define PvmMismatch     (-3)
#define PvmOverflow     (-4)   /* a value does not fit */
#define PvmNoData       (-5)   /* read past the end of a message */
#define PvmNoHost       (-6)
#define PvmNoFile       (-7)   /* executable not found */
#define PvmDenied       (-8)
#define PvmNoMem        (-10)
#define PvmBadMsg       (-12)  /* message cannot be decoded */
#define PvmSysErr       (-14)  /* the runtime is not reachable */
#define PvmNoBuf        (-15)  /* no active buffer */
#define PvmNoSuchBuf    (-16)  /* bad buffer id */
#define PvmNullGroup    (-17)
#define PvmDupGroup     (-18)  /* already a member */
#define PvmNoGroup      (-19)
#define PvmNotInGroup   (-20)
#define PvmNoInst       (-21)
#define PvmHostFail     (-22)
#define PvmNoParent     (-23)
#define PvmNotImpl      (-24)
#define PvmDSysErr      (-25)
#define PvmBadVersion   (-26)
#define PvmOutOfRes     (-27)
#define PvmDupHost      (-28)
#define PvmCantStart    (-29)
#define PvmAlready      (-30)
#define PvmNoTask       (-31)
#define PvmNotFound     (-32)
#define PvmExists       (-33)
#define PvmHostrNMstr   (-34)
#define PvmParentNotSet (-35)
#define PvmIPLoopback   (-36)

/* Names kept from PVM 3.3 (fpvm3.h gives them -32 and -33 instead). */
#define PvmNoEntry  PvmNotFound
#define PvmDupEntry PvmDenied

/* ---- Data types: pvm_psend(), pvm_precv(), pvm_reduce(), ... ---------- */

#define PVM_STR    0
#define PVM_BYTE   1
#define PVM_SHORT  2
#define PVM_INT    3
#define PVM_FLOAT  4
#define PVM_CPLX   5   /* pair of float */
#define PVM_DOUBLE 6
#define PVM_DCPLX  7   /* pair of double */
#define PVM_LONG   8
#define PVM_USHORT 9
#define PVM_UINT   10
#define PVM_ULONG  11

/* ---- Structures filled in by the library ------------------------------ */

/* One host of the virtual machine (pvm_config). */
struct pvmhostinfo {
    int hi_tid;      /* host id */
    char *hi_name;   /* host name */
    char *hi_arch;   /* architecture name */
    int hi_speed;    /* relative speed */
    int hi_dsig;     /* data format signature */
};

/* One task (pvm_tasks). */
struct pvmtaskinfo {
    int ti_tid;      /* task id */
    int ti_ptid;     /* parent's task id */
    int ti_host;     /* host id */
    int ti_flag;     /* status bits */
    char *ti_a_out;  /* program name */
    int ti_pid;      /* process id */
};

/* Header of a message (pvm_getminfo, pvm_setminfo). */
struct pvmminfo {
    int len;         /* body length in bytes */
    int ctx;         /* context */
    int tag;         /* message tag */
    int wid;         /* wait id */
    int enc;         /* encoding */
    int crc;         /* checksum */
    int src;         /* sender */
    int dst;         /* receiver */
};

/* One mailbox name and its entries (pvm_getmboxinfo). */
struct pvmmboxinfo {
    char *mi_name;     /* the name */
    int mi_nentries;   /* how many entries follow */
    int *mi_indices;   /* their indices */
    int *mi_owners;    /* their owners' task ids */
    int *mi_flags;     /* their flags */
};

/* ---- Temporary file names --------------------------------------------- */

#ifdef NOTMPNAM
#define PVMTMPNAMFUN(x) pvmtmpnam(x)
#define PVMTMPNAMLEN 128
#else
#define PVMTMPNAMFUN(x) tmpnam(x)
#ifdef L_tmpnam
#define PVMTMPNAMLEN L_tmpnam
#else
#define PVMTMPNAMLEN 128
#endif
#endif

/* Prototype wrapper some PVM-era code uses for its own declarations. */
#ifndef __ProtoGlarp__
#define __ProtoGlarp__(x) x
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Error state ------------------------------------------------------ */

extern int pvm_errno;        /* code of the last failed call */
extern char *pvm_errlist[];  /* message texts, indexed by -code */
extern int pvm_nerr;         /* number of entries in pvm_errlist */

int pvm_perror(char *msg);   /* prints "libpvm [tid]: msg: text" */
char *pvm_strerror(void);    /* text for pvm_errno */

/* ---- Tasks ------------------------------------------------------------ */

int pvm_mytid(void);
int pvm_parent(void);
int pvm_siblings(int **tids);
int pvm_spawn(char *task, char **argv, int flag, char *where, int ntask,
              int *tids);
int pvm_exit(void);
int pvm_kill(int tid);
int pvm_pstat(int tid);
int pvm_sendsig(int tid, int signum);
int pvm_notify(int what, int msgtag, int cnt, int *tids);
int pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp);
int pvm_tidtohost(int tid);
int pvm_catchout(FILE *ff);
int pvm_export(char *name);
int pvm_unexport(char *name);

/* ---- Virtual machine -------------------------------------------------- */

int pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp);
int pvm_addhosts(char **hosts, int nhost, int *infos);
int pvm_delhosts(char **hosts, int nhost, int *infos);
int pvm_halt(void);
int pvm_mstat(char *host);
int pvm_archcode(char *arch);
int pvm_start_pvmd(int argc, char **argv, int block);
int pvm_hostsync(int host, struct timeval *clk, struct timeval *delta);
int pvm_tickle(int narg, int *argp, int *nres, int *resp);
int pvm_getfds(int **fds);
int pvm_getnoresets(int **tids, int *ntids);
int pvm_reg_hoster(void);
int pvm_reg_rm(struct pvmhostinfo **hip);
int pvm_reg_tasker(void);
int pvm_reg_tracer(int tctx, int ttag, int octx, int otag, char *tmask,
                   int tbuf, int topt);

/* ---- Message buffers -------------------------------------------------- */

int pvm_initsend(int encoding);
int pvm_mkbuf(int encoding);
int pvm_freebuf(int bufid);
int pvm_getsbuf(void);
int pvm_getrbuf(void);
int pvm_setsbuf(int bufid);
int pvm_setrbuf(int bufid);
int pvm_bufinfo(int bufid, int *bytes, int *msgtag, int *tid);
int pvm_getminfo(int bufid, struct pvmminfo *info);
int pvm_setminfo(int bufid, struct pvmminfo *info);

/* ---- Packing (each call appends nitem items, every stride-th one) ----- */

int pvm_pkbyte(char *xp, int nitem, int stride);
int pvm_pkcplx(float *xp, int nitem, int stride);
int pvm_pkdcplx(double *xp, int nitem, int stride);
int pvm_pkdouble(double *xp, int nitem, int stride);
int pvm_pkfloat(float *xp, int nitem, int stride);
int pvm_pkint(int *xp, int nitem, int stride);
int pvm_pklong(long *xp, int nitem, int stride);
int pvm_pkshort(short *xp, int nitem, int stride);
int pvm_pkuint(unsigned int *xp, int nitem, int stride);
int pvm_pkulong(unsigned long *xp, int nitem, int stride);
int pvm_pkushort(unsigned short *xp, int nitem, int stride);
int pvm_pkstr(char *s);
int pvm_pkmesg(int bufid);
int pvm_pkmesgbody(int bufid);
int pvm_packf(const char *fmt, ...);
int pvm_vpackf(const char *fmt, va_list ap);

int pvm_upkbyte(char *xp, int nitem, int stride);
int pvm_upkcplx(float *xp, int nitem, int stride);
int pvm_upkdcplx(double *xp, int nitem, int stride);
int pvm_upkdouble(double *xp, int nitem, int stride);
int pvm_upkfloat(float *xp, int nitem, int stride);
int pvm_upkint(int *xp, int nitem, int stride);
int pvm_upklong(long *xp, int nitem, int stride);
int pvm_upkshort(short *xp, int nitem, int stride);
int pvm_upkuint(unsigned int *xp, int nitem, int stride);
int pvm_upkulong(unsigned long *xp, int nitem, int stride);
int pvm_upkushort(unsigned short *xp, int nitem, int stride);
int pvm_upkstr(char *s);
int pvm_upkmesg(void);
int pvm_unpackf(const char *fmt, ...);
int pvm_vunpackf(const char *fmt, va_list ap);

/* ---- Sending and receiving -------------------------------------------- */

int pvm_send(int tid, int msgtag);
int pvm_mcast(int *tids, int ntask, int msgtag);
int pvm_psend(int tid, int msgtag, void *buf, int len, int datatype);
int pvm_recv(int tid, int msgtag);
int pvm_nrecv(int tid, int msgtag);
int pvm_trecv(int tid, int msgtag, struct timeval *tmout);
int pvm_probe(int tid, int msgtag);
int pvm_precv(int tid, int msgtag, void *buf, int len, int datatype,
              int *atid, int *atag, int *alen);

/*
 * pvm_recvf installs a matching function match(bufid, tid, tag) used by
 * the receive calls and returns the previous one; NULL restores the
 * built-in matcher.  The declared result type is the one PVM 3.4.6
 * publishes (a function taking a matcher), kept so that code written for
 * it compiles the same; the value really is the previous matcher, and
 * the manual stores it as  int (*old)() = pvm_recvf(match);
 */
int (*pvm_recvf(int (*match)(int, int, int)))(int (*)(int, int, int));

/* Message handlers: func(mid) runs when a matching message arrives. */
int pvm_addmhf(int src, int tag, int ctx, int (*func)(int));
int pvm_delmhf(int mhid);

/* ---- Contexts --------------------------------------------------------- */

int pvm_newcontext(void);
int pvm_setcontext(int ctx);
int pvm_getcontext(void);
int pvm_freecontext(int ctx);

/* ---- Options ---------------------------------------------------------- */

int pvm_setopt(int what, int val);
int pvm_getopt(int what);
char *pvm_version(void);

/* ---- Mailbox ---------------------------------------------------------- */

int pvm_putinfo(char *name, int bufid, int flags);
int pvm_recvinfo(char *name, int index, int flags);
int pvm_delinfo(char *name, int index, int flags);
int pvm_getmboxinfo(char *pattern, int *nclasses,
                    struct pvmmboxinfo **classes);
/* the PVM 3.3 database calls, kept on top of the mailbox */
int pvm_insert(char *name, int req, int data);
int pvm_lookup(char *name, int req, int *datap);
int pvm_delete(char *name, int req);

/* ---- Groups (libgpvm3) ------------------------------------------------ */

int pvm_joingroup(char *group);
int pvm_lvgroup(char *group);
int pvm_gsize(char *group);
int pvm_getinst(char *group, int tid);
int pvm_gettid(char *group, int inst);
int pvm_barrier(char *group, int count);
int pvm_bcast(char *group, int msgtag);
int pvm_freezegroup(char *group, int size);
int pvm_reduce(void (*func)(int *, void *, void *, int *, int *),
               void *data, int count, int datatype, int msgtag,
               char *group, int rootinst);
int pvm_scatter(void *result, void *data, int count, int datatype,
                int msgtag, char *group, int rootinst);
int pvm_gather(void *result, void *data, int count, int datatype,
               int msgtag, char *group, int rootinst);

/* Reduction operators for pvm_reduce: y[i] = op(x[i], y[i]). */
void PvmMax(int *datatype, void *x, void *y, int *num, int *info);
void PvmMin(int *datatype, void *x, void *y, int *num, int *info);
void PvmSum(int *datatype, void *x, void *y, int *num, int *info);
void PvmProduct(int *datatype, void *x, void *y, int *num, int *info);

/* ---- Utilities -------------------------------------------------------- */

char *pvmgetrsh(void);
char *pvmgettmp(void);
int pvmsleep(int secs);                 /* sleep(secs) */
int pvmgetclock(struct timeval *now);   /* gettimeofday(now, 0) */
#ifdef NOTMPNAM
char *pvmtmpnam(char *buf);
#endif

/* Replaced in PVM 3.4; declared only for code that asks for 3.3. */
#ifdef PVM33COMPAT
int pvm_getmwid(int bufid);
int pvm_setmwid(int bufid, int waitid);
#endif

#ifdef __cplusplus
}
#endif

#endif /* _PVM3_H_ */
