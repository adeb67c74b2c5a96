/*
 * matypes.h - the C types MA's calls use (mpbridge).
 */
#ifndef MPBRIDGE_MATYPES_H
#define MPBRIDGE_MATYPES_H

#include "typesf2c.h"

typedef Integer Boolean;      /* MA_TRUE or MA_FALSE */
typedef char *Pointer;
typedef long MA_AccessIndex;
typedef long double MA_LongDouble;
typedef struct { float dummy[2]; } MA_SingleComplex;
typedef struct { double dummy[2]; } MA_DoubleComplex;
typedef struct { double dummy[4]; } MA_LongDoubleComplex;

#endif /* MPBRIDGE_MATYPES_H */
