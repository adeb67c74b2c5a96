/*
 * gacommon.h - Global Arrays limits, version and element type codes
 * (mpbridge), shared by ga.h and C code that only needs the codes.
 */
#ifndef MPBRIDGE_GACOMMON_H
#define MPBRIDGE_GACOMMON_H

#include "macommon.h"

#define GA_MAX_DIM 7
#define GA_MAX_CACHE 10

#define GA_VERSION_MAJOR 5
#define GA_VERSION_MINOR 8
#define GA_VERSION_PATCH 0

/* Element types of global arrays. */
#define C_CHAR     MT_C_CHAR
#define C_INT      MT_C_INT
#define C_LONG     MT_C_LONGINT
#define C_LONGLONG MT_C_LONGLONG
#define C_FLOAT    MT_C_FLOAT
#define C_DBL      MT_C_DBL
#define C_LDBL     MT_C_LDBL
#define C_SCPL     MT_C_SCPL
#define C_DCPL     MT_C_DCPL
#define C_LDCPL    MT_C_LDCPL
#define F_BYTE     MT_F_BYTE
#define F_INT      MT_F_INT
#define F_LOG      MT_F_LOG
#define F_REAL     MT_F_REAL
#define F_DBL      MT_F_DBL
#define F_SCPL     MT_F_SCPL
#define F_DCPL     MT_F_DCPL

#endif /* MPBRIDGE_GACOMMON_H */
