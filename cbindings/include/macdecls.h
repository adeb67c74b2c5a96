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

#include "macommon.h"
#include "matypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Short names of the C type codes. */
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
