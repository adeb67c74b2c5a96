/*
 * macdecls.h - MA, the Global Arrays memory allocator, for C programs
 * (mpbridge). Type codes, MA's Integer/Boolean types, and the MA calls
 * mpbridge provides.
 *
 * MA_init, MA_sizeof and stack/heap blocks work as in GA's MA. An MA
 * index is the block's address divided by the element size:
 * MA_get_mbase() returns NULL, so base + index addresses the block.
 */
#ifndef MPBRIDGE_MACDECLS_H
#define MPBRIDGE_MACDECLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* GA's Fortran-compatible integer (8 bytes, as Fortran INTEGER in the
   -fdefault-integer-8 build) and friends. */
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

typedef Integer Boolean;      /* MA_TRUE or MA_FALSE */
typedef char *Pointer;
typedef long MA_AccessIndex;
typedef long double MA_LongDouble;
typedef struct { float dummy[2]; } MA_SingleComplex;
typedef struct { double dummy[2]; } MA_DoubleComplex;
typedef struct { double dummy[4]; } MA_LongDoubleComplex;

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

#define MT_CHAR     MT_C_CHAR
#define MT_INT      MT_C_INT
#define MT_LONGINT  MT_C_LONGINT
#define MT_LONGLONG MT_C_LONGLONG
#define MT_REAL     MT_C_FLOAT
#define MT_DBL      MT_C_DBL
#define MT_LDBL     MT_C_LDBL
#define MT_SCPL     MT_C_SCPL
#define MT_DCPL     MT_C_DCPL
#define MT_LDCPL    MT_C_LDCPL
#define MT_C_FIRST  MT_CHAR
#define MT_C_LAST   MT_LDCPL

/* Set up MA with room for nominal_stack + nominal_heap elements of datatype. */
extern Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap);
extern Boolean MA_initialized(void);
/* Elements of datatype2 needed to hold nelem1 elements of datatype1. */
extern Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2);
extern Integer MA_sizeof_overhead(Integer datatype);

extern Boolean MA_push_stack(Integer datatype, Integer nelem, const char *name, Integer *memhandle);
extern Boolean MA_push_get(Integer datatype, Integer nelem, const char *name, Integer *memhandle,
                           MA_AccessIndex *index);
extern Boolean MA_pop_stack(Integer memhandle);
extern Boolean MA_chop_stack(Integer memhandle);
extern Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char *name, Integer *memhandle);
extern Boolean MA_alloc_get(Integer datatype, Integer nelem, const char *name, Integer *memhandle,
                            MA_AccessIndex *index);
extern Boolean MA_free_heap(Integer memhandle);
/* pointer is really a void **: the block's address is stored there. */
extern Boolean MA_get_pointer(Integer memhandle, void *pointer);
extern Boolean MA_get_index(Integer memhandle, MA_AccessIndex *index);
extern Pointer MA_get_mbase(Integer datatype);

extern Integer MA_inquire_avail(Integer datatype);
extern Integer MA_inquire_heap(Integer datatype);
extern Integer MA_inquire_stack(Integer datatype);

extern Boolean MA_set_auto_verify(Boolean value);
extern Boolean MA_set_error_print(Boolean value);
extern Boolean MA_set_hard_fail(Boolean value);
extern Boolean MA_verify_allocator_stuff(void);
extern void MA_summarize_allocated_blocks(void);
extern void MA_print_stats(Boolean printroutines);

#ifdef __cplusplus
}
#endif

#endif /* MPBRIDGE_MACDECLS_H */
