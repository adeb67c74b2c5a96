/* sndrcv.h - mpbridge TCGMSG: the classic C names. Every integer argument
 * is passed by reference (long *), as the Fortran-style TCGMSG interface
 * has it; the operation of DGOP_/IGOP_ and the file name of PFCOPY_ are C
 * strings. Semantics as in tcgmsg.h. */
#ifndef SNDRCV_H_
#define SNDRCV_H_

#include "msgtypesc.h"

#ifdef __cplusplus
extern "C" {
#endif

extern void   tcgi_pbegin(int argc, char **argv);
extern void   tcgi_alt_pbegin(int *argc, char ***argv);
extern void   PBEGIN_(int argc, char **argv);
extern void   PBEGINF_(void);
extern void   PBGINF_(void);
extern void   PEND_(void);

extern long   NODEID_(void);
extern long   NNODES_(void);
extern long   TCGREADY_(void);

extern void   SND_(long *type, void *buf, long *lenbuf, long *node, long *sync);
extern void   RCV_(long *type, void *buf, long *lenbuf, long *lenmes,
                   long *nodeselect, long *nodefrom, long *sync);
extern long   PROBE_(long *type, long *node);
extern void   WAITCOM_(long *node);

extern void   BRDCST_(long *type, void *buf, long *lenbuf, long *originator);
extern void   DGOP_(long *type, double *x, long *n, char *op);
extern void   IGOP_(long *type, long *x, long *n, char *op);
extern void   SYNCH_(long *type);
extern void   PFCOPY_(long *type, long *node0, char *fname);
extern void   PFILECOPY_(long *type, long *node0, char *fname);

/* Shared loop counter (served by the Global Arrays data server). */
extern long   NXTVAL_(long *mproc);

extern long   MTIME_(void);
extern double TCGTIME_(void);
extern long   MDTOB_(long *n);
extern long   MITOB_(long *n);
extern long   MDTOI_(long *n);
extern long   MITOD_(long *n);
extern void   LLOG_(void);
extern void   STATS_(void);
extern void   SETDBG_(long *value);
extern long   NICEFTN_(long *ival);
extern double DRAND48_(void);
extern void   SRAND48_(long *seed);

/* Prints "<node>: string code (hex)." and ends the job. */
extern void   Error(char *string, long code);
#define ERROR_ Error
extern void   PARERR_(long *code);

#ifdef __cplusplus
}
#endif

#endif /* SNDRCV_H_ */
