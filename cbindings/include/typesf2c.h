/*
 * typesf2c.h - the C names of GA's Fortran-compatible types (mpbridge).
 * Integer and Logical are 8 bytes, matching Fortran INTEGER in GA's
 * -fdefault-integer-8 build; ga.h, macdecls.h and tcgmsg-style C code
 * that takes Integer arguments use them.
 */
#ifndef MPBRIDGE_TYPESF2C_H
#define MPBRIDGE_TYPESF2C_H

/* Calling-convention marker of Fortran-callable C functions: empty here. */
#ifndef FATR
#define FATR
#endif

#ifndef MPBRIDGE_GA_TYPES
#define MPBRIDGE_GA_TYPES
typedef long Integer;
typedef float Real;
typedef double DoublePrecision;
typedef Integer logical;
typedef Integer Logical;
typedef struct { DoublePrecision real; DoublePrecision imag; } DoubleComplex;
typedef struct { Real real; Real imag; } SingleComplex;
typedef long intp;
#endif

#endif /* MPBRIDGE_TYPESF2C_H */
