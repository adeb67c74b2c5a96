/*
 * macommon.h - MA's boolean values, limits and type codes (mpbridge),
 * shared by C (macdecls.h) and GA (gacommon.h).
 */
#ifndef MPBRIDGE_MACOMMON_H
#define MPBRIDGE_MACOMMON_H

#define MA_FALSE 0
#define MA_TRUE 1
#define MA_DEFAULT_SPACE (-1)
#define MA_NAMESIZE 32

/* Type codes: C types from 1000, Fortran types from 1009. */
#define MT_BASE 1000
#define MT_C_CHAR     (MT_BASE + 0)   /* char */
#define MT_C_INT      (MT_BASE + 1)   /* int */
#define MT_C_LONGINT  (MT_BASE + 2)   /* long */
#define MT_C_FLOAT    (MT_BASE + 3)   /* float */
#define MT_C_DBL      (MT_BASE + 4)   /* double */
#define MT_C_LDBL     (MT_BASE + 5)   /* long double */
#define MT_C_SCPL     (MT_BASE + 6)   /* single complex */
#define MT_C_DCPL     (MT_BASE + 7)   /* double complex */
#define MT_C_LDCPL    (MT_BASE + 8)   /* long double complex */
#define MT_F_BYTE     (MT_BASE + 9)   /* Fortran byte */
#define MT_F_INT      (MT_BASE + 10)  /* Fortran INTEGER (8 bytes) */
#define MT_F_LOG      (MT_BASE + 11)  /* Fortran LOGICAL (8 bytes) */
#define MT_F_REAL     (MT_BASE + 12)  /* Fortran REAL */
#define MT_F_DBL      (MT_BASE + 13)  /* Fortran DOUBLE PRECISION */
#define MT_F_SCPL     (MT_BASE + 14)  /* Fortran COMPLEX */
#define MT_F_DCPL     (MT_BASE + 15)  /* Fortran DOUBLE COMPLEX */
#define MT_C_LONGLONG (MT_BASE + 16)  /* long long */
#define MT_FIRST      MT_C_CHAR
#define MT_LAST       MT_C_LONGLONG
#define MT_NUMTYPES   (MT_LAST - MT_FIRST + 1)

#endif /* MPBRIDGE_MACOMMON_H */
