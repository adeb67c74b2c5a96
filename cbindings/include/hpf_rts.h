/* hpf_rts.h: the C API of mpbridge's HPF / Fortran 90D style
 * distributed-array run-time (link with -lmpbridge).
 *
 * A processor grid is a Cartesian arrangement of all processes; a DAD
 * (distributed array descriptor) maps an array onto a grid dimension by
 * dimension. The program allocates each local buffer itself (its size is
 * hpf_dad_local_size elements, overlap included, column-major) and passes
 * its base pointer with the DAD handle to every operation.
 *
 * Every function returns HPF_OK (0) or a negative HPF_E* code; the text of
 * the calling thread's last error is available from hpf_error_message.
 * Operations on arrays are collective over the grid's processes.
 *
 * Counting: `dim` arguments count from 1 (Fortran's DIM); grid dimensions
 * and coordinates from 0; global subscripts keep the array's lower bounds;
 * local indices count from 0 and do not include the overlap.
 */
#ifndef HPF_RTS_H
#define HPF_RTS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define HPF_OK          0  /* success */
#define HPF_EBADARG    -1  /* an argument is out of range, NULL or misaligned */
#define HPF_ENOTINIT   -2  /* hpf_init was not called */
#define HPF_EBADHANDLE -3  /* no grid or DAD has this handle */
#define HPF_EMISMATCH  -4  /* arrays not conformable (shape, grid) */
#define HPF_ESYSTEM    -5  /* the message-passing backend failed */
#define HPF_EINTERNAL  -6  /* internal error (reported on stderr) */

/* Element types. */
#define HPF_INTEGER4 1 /* int */
#define HPF_INTEGER8 2 /* long long */
#define HPF_REAL4    3 /* float */
#define HPF_REAL8    4 /* double */
#define HPF_COMPLEX8 5 /* float _Complex (real, imaginary) */
#define HPF_COMPLEX16 6 /* double _Complex */
#define HPF_LOGICAL  7 /* int, non-zero true; SUM/PRODUCT refuse it, its
                        * DOT_PRODUCT is ANY(a .AND. b), MATMUL logical */
/* MAXVAL, MINVAL, MAXLOC, MINLOC refuse the complex and logical types;
 * DOT_PRODUCT of complex vectors is SUM(CONJG(a) * b). */

/* Distributions (dist[] of hpf_dad_create). */
#define HPF_COLLAPSED 0 /* not distributed */
#define HPF_BLOCK     1 /* BLOCK: blocks of ceil(N/P) */
#define HPF_CYCLIC    2 /* CYCLIC */
#define HPF_CYCLIC_K  3 /* CYCLIC(k), k in block[] */
#define HPF_GEN_BLOCK 4 /* GEN_BLOCK, sizes of hpf_dad_create_gen */

/* Start and stop (collective). hpf_finalize frees every handle. */
int hpf_init(void);
int hpf_finalize(void);
/* Copies the last error's message (NUL-terminated, truncated to len). */
int hpf_error_message(char *buf, int len);
/* Number of processes. */
int hpf_nprocs(int *n);

/* Processor grids (1 to 3 dimensions over all processes; zero sizes in
 * dims are filled in and written back). Grid ranks are row-major. */
int hpf_grid_create(int ndims, int *dims, int *grid);
int hpf_grid_free(int grid);
/* This process's grid rank and coordinates (either may be NULL). */
int hpf_grid_info(int grid, int *rank, int *coords);

/* DADs. Per dimension: lower bound, extent, distribution, CYCLIC(k) block
 * (block may be NULL when no dimension is HPF_CYCLIC_K), grid dimension,
 * overlap widths below/above (NULL: none; BLOCK, GEN_BLOCK or collapsed). */
int hpf_dad_create(int grid, int rank, const long long *lb, const long long *extent,
                   const int *dist, const int *block, const int *pdim,
                   const int *olo, const int *ohi, int *dad);
/* The same with HPF_GEN_BLOCK dimensions: sizes holds, for each of them in
 * dimension order, one block size per process of its grid dimension
 * (coordinate order, >= 0, adding up to the extent); NULL if none. */
int hpf_dad_create_gen(int grid, int rank, const long long *lb, const long long *extent,
                       const int *dist, const int *block, const int *pdim,
                       const int *olo, const int *ohi, const long long *sizes, int *dad);
/* The DAD of an array aligned to the template DAD `template` (ALIGN
 * A(i, ..) WITH T(..)): per dimension lb, extent, the template dimension
 * tdim[d] (1-based; 0: not aligned, the dimension is collapsed) and
 * A(i) WITH T(stride[d]*i + offset[d]) there (any template distribution;
 * any stride: negative runs down the template, 0 puts the dimension on
 * one template cell; every cell inside the template), overlap widths
 * (NULL: none; only where each process owns one run of the dimension).
 * Each process keeps its elements in increasing subscript order. Template
 * dimensions no array dimension is aligned with replicate the array. */
int hpf_dad_align(int template_dad, int rank, const long long *lb, const long long *extent,
                  const int *tdim, const long long *stride, const long long *offset,
                  const int *olo, const int *ohi, int *dad);
/* The section of a template at fixed positions, for ALIGN A(i) WITH
 * T(i, 3) (A aligned with the section T(:, 3)): for k < nfixed, template
 * dimension fixed_tdim[k] (1-based) at subscript fixed_pos[k] is dropped
 * (the other dimensions keep their order) and the section is held only by
 * the processes whose grid coordinate owns those positions. Arrays aligned
 * to the section by hpf_dad_align live there only; the other processes
 * hold nothing (local size 0) and take part in collective calls with
 * empty buffers. */
int hpf_dad_template_at(int template_dad, int nfixed, const int *fixed_tdim,
                        const long long *fixed_pos, int *section);
int hpf_dad_free(int dad);
/* Elements of this process's local buffer, overlap included. */
int hpf_dad_local_size(int dad, long long *n);
/* Per dimension: owned count, allocated extent (olo + count + ohi) and
 * memory stride in elements; any pointer may be NULL. The owned element
 * with local indices l[] is at sum((olo[d] + l[d]) * stride[d]). */
int hpf_dad_local_shape(int dad, long long *count, long long *alloc, long long *stride);
/* Global subscript of local index `local` of dimension `dim` here. */
int hpf_dad_local_to_global(int dad, int dim, long long local, long long *global);
/* Owner (grid rank) of global subscripts gidx[] and the element's offset
 * in the owner's local buffer. */
int hpf_dad_owner(int dad, const long long *gidx, int *owner, long long *offset);
/* ScaLAPACK NUMROC; -1 for invalid arguments. */
long long hpf_numroc(long long n, long long nb, int iproc, int isrcproc, int nprocs);

/* Reductions of a whole array (no DIM, no MASK); *result has the element
 * type. Empty arrays give SUM 0, PRODUCT 1, MAXVAL -HUGE, MINVAL HUGE. */
int hpf_sum(int dad, int type, const void *a, void *result);
int hpf_product(int dad, int type, const void *a, void *result);
int hpf_maxval(int dad, int type, const void *a, void *result);
int hpf_minval(int dad, int type, const void *a, void *result);
/* LOGICAL masks stored as ints (non-zero true) with DAD dad. */
int hpf_count(int dad, const int *mask, long long *result);
int hpf_all(int dad, const int *mask, int *result);
int hpf_any(int dad, const int *mask, int *result);
/* Rank-1 arrays sharing one DAD. */
int hpf_dot_product(int dad, int type, const void *a, const void *b, void *result);
/* pos[rank]: 1-based positions of the first maximum/minimum; zeros if
 * the array is empty. */
int hpf_maxloc(int dad, int type, const void *a, long long *pos);
int hpf_minloc(int dad, int type, const void *a, long long *pos);

/* Reductions with MASK and DIM. Ops: */
#define HPF_OP_SUM     1
#define HPF_OP_PRODUCT 2
#define HPF_OP_MAXVAL  3
#define HPF_OP_MINVAL  4
#define HPF_OP_COUNT   5 /* DIM form only; LOGICAL (int) array, int result */
#define HPF_OP_ALL     6 /* DIM form only; result 1/0 */
#define HPF_OP_ANY     7 /* DIM form only; result 1/0 */
/* Combining scatters only (hpf_combine_scatter), with the codes above. */
#define HPF_OP_PARITY  8
#define HPF_OP_IALL    9
#define HPF_OP_IANY    10
#define HPF_OP_IPARITY 11
#define HPF_OP_COPY    12 /* combining scatters only: COPY_SCATTER, any type */
/* *result = op(a, MASK=mask) over the whole array; mask is a LOGICAL int
 * array with a's DAD, NULL for all true; masked-out elements count as the
 * identity. */
int hpf_reduce_mask(int op, int dad, int type, const void *a, const int *mask, void *result);
/* res = op(a, DIM=dim, MASK=mask) (dim 1-based) into an array with DAD
 * res_dad (a's shape without DIM, same grid, any distribution). */
int hpf_reduce_dim(int op, int dad, int type, const void *a, const int *mask, int dim,
                   int res_dad, void *res);
/* MAXLOC/MINLOC with MASK (NULL: all true): pos[rank] positions of the
 * first extreme among the true elements, zeros if none. With DIM: a long
 * long array (DAD res_dad, a's shape without DIM) of 1-based positions
 * along DIM, 0 for a line without true elements. */
int hpf_maxloc_mask(int dad, int type, const void *a, const int *mask, long long *pos);
int hpf_minloc_mask(int dad, int type, const void *a, const int *mask, long long *pos);
int hpf_maxloc_dim(int dad, int type, const void *a, const int *mask, int dim, int res_dad,
                   long long *res);
int hpf_minloc_dim(int dad, int type, const void *a, const int *mask, int dim, int res_dad,
                   long long *res);
/* The natural result DAD of a reduction along dim: the other dimensions as
 * in dad, no overlap. */
int hpf_reduced_dad(int dad, int dim, int *res_dad);

/* Communication. Schedules are planned on first use and cached. */
/* Fill the overlap area from the owners, corners included; periodic[rank]
 * (NULL: none periodic). */
int hpf_shift_overlap(int dad, int type, void *a, const int *periodic);
/* dst = CSHIFT(src, shift, dim); separate buffers with the same DAD. */
int hpf_cshift(int dad, int type, const void *src, void *dst, long long shift, int dim);
/* dst = src between two DADs of the same shape and grid (remap). */
int hpf_copy(int src_dad, const void *src, int dst_dad, void *dst, int type);
/* dst(dsec) = src(ssec): section copy between any two DADs on one grid.
 * Per dimension of each array lo[d], hi[d], stride[d] in global
 * subscripts: the triplet lo:hi:stride (Fortran's element count, stride
 * of either sign); stride 0 is the scalar subscript lo[d], which drops the
 * dimension from the section's shape. The shapes must be equal; src and
 * dst may be the same buffer. */
int hpf_copy_section(int src_dad, const void *src, const long long *src_lo,
                     const long long *src_hi, const long long *src_stride,
                     int dst_dad, void *dst, const long long *dst_lo,
                     const long long *dst_hi, const long long *dst_stride,
                     int type);
/* dst = RESHAPE(src, SHAPE(dst)): the first size(dst) elements of src in
 * array element order fill dst in that order; any two DADs on one grid,
 * src at least as large (no PAD). */
int hpf_reshape(int src_dad, const void *src, int dst_dad, void *dst, int type);
/* r(1:COUNT(mask)) = PACK(a, mask): mask is a LOGICAL array (int,
 * non-zero true) of a's shape with its own DAD; r is rank 1 with at least
 * COUNT(mask) elements, the rest keep their values (fill r with VECTOR
 * first for PACK(a, mask, VECTOR)). */
int hpf_pack(int a_dad, const void *a, int mask_dad, const int *mask, int r_dad, void *r,
             int type);
/* r = UNPACK(v, mask, r): r has mask's shape; where mask is true r takes
 * the next element of the rank-1 v, elsewhere it keeps its value (fill r
 * with FIELD first). */
int hpf_unpack(int v_dad, const void *v, int mask_dad, const int *mask, int r_dad, void *r,
               int type);
/* dst = TRANSPOSE(src): rank 2, dst has the reversed shape, any DADs on
 * the same grid. */
int hpf_transpose(int src_dad, const void *src, int dst_dad, void *dst, int type);
/* dst = SPREAD(src, dim, ncopies): dst has one dimension more, of extent
 * ncopies at dim (1-based). */
int hpf_spread(int src_dad, const void *src, int dim, int dst_dad, void *dst, int type);
/* dst = EOSHIFT(src, shift, *boundary, dim); boundary NULL means zero. */
int hpf_eoshift(int dad, int type, const void *src, void *dst, long long shift,
                const void *boundary, int dim);

/* Gather and scatter through index arrays (vector subscripts). For a
 * rank-n array a, v holds n index arrays of one shape, each a local buffer
 * of v_dad with elements of vtype (HPF_INTEGER4: int, HPF_INTEGER8: long
 * long); the k-th starts k * ldv elements after v (ldv >= the local size
 * of v_dad; unused when n is 1) and holds subscripts of dimension k of a
 * (a's lower bounds kept). A subscript outside a on any process gives
 * HPF_EBADARG on every process. */
/* r(s) = a(V1(s), .., Vn(s)); r has the index arrays' shape (any DAD on
 * the grid). */
int hpf_gather(int a_dad, const void *a, int v_dad, const void *v, long long ldv, int vtype,
               int r_dad, void *r, int type);
/* a(V1(s), .., Vn(s)) = b(s); b has the index arrays' shape; cells of a
 * that no subscript names keep their values. For a repeated subscript
 * (tuple) the cell gets one of the values sent to it, which one is not
 * specified (Fortran forbids repeated subscripts on the left). */
int hpf_scatter(int b_dad, const void *b, int v_dad, const void *v, long long ldv, int vtype,
                int a_dad, void *a, int type);
/* a(V1(s), .., Vn(s)) += b(s) for every s: the HPF library's
 * SUM_SCATTER(b, a, V1, .., Vn) into a. A cell named more than once gets
 * the sum of all its values, added to its old value in a fixed order
 * (integers exact). Numeric types only. */
int hpf_sum_scatter(int b_dad, const void *b, int v_dad, const void *v, long long ldv,
                    int vtype, int a_dad, void *a, int type);
/* The same planned once (the inspector exchanges the subscripts) into an
 * index schedule handle, run by hpf_index_execute any number of times:
 * src/dst are a/r for a gather, b/a for a scatter. */
int hpf_gather_plan(int a_dad, int v_dad, const void *v, long long ldv, int vtype, int r_dad,
                    int *sched);
int hpf_scatter_plan(int b_dad, int v_dad, const void *v, long long ldv, int vtype, int a_dad,
                     int *sched);
int hpf_index_execute(int sched, const void *src, void *dst, int type);
/* A scatter schedule run adding, as hpf_sum_scatter. */
int hpf_index_execute_sum(int sched, const void *src, void *dst, int type);
/* The HPF library's combining scatters XXX_SCATTER(b, a, V1, .., Vn,
 * MASK) into a, arguments as hpf_scatter: each b(s) (where mask, ints
 * laid out as b, is non-zero; NULL: all) is combined into a(V1(s), ..)
 * by op: HPF_OP_SUM (+), HPF_OP_PRODUCT (*), HPF_OP_MAXVAL (max),
 * HPF_OP_MINVAL (min), HPF_OP_COUNT (+1 per true b(s); b LOGICAL ints, a
 * INTEGER4/8), HPF_OP_ALL (.AND.), HPF_OP_ANY (.OR.), HPF_OP_PARITY
 * (.NEQV.), HPF_OP_IALL (IAND), HPF_OP_IANY (IOR), HPF_OP_IPARITY (IEOR),
 * HPF_OP_COPY (stores; any type).
 * A cell named more than once gets every value, in a fixed order (per
 * sending grid rank in rank order, each sender's in its local order; COPY
 * keeps the last); type is a's. HPF_EBADARG for an unknown op or a type the op does not take. */
int hpf_combine_scatter(int op, int b_dad, const void *b, int v_dad, const void *v,
                        long long ldv, int vtype, int a_dad, void *a, int type);
int hpf_combine_scatter_mask(int op, int b_dad, const void *b, int v_dad, const void *v,
                             long long ldv, int vtype, int a_dad, void *a, int type,
                             const int *mask);
/* COPY_SCATTER(b, a, V1, .., Vn, MASK): hpf_combine_scatter_mask with
 * HPF_OP_COPY (mask NULL: all true). A cell named more than once keeps
 * the value from the highest sending grid rank (its last in local order),
 * on every replica of a alike. */
int hpf_copy_scatter(int b_dad, const void *b, int v_dad, const void *v, long long ldv,
                     int vtype, int a_dad, void *a, int type, const int *mask);
/* A scatter schedule run combining, as hpf_combine_scatter(_mask). */
int hpf_index_execute_combine(int sched, int op, const void *src, void *dst, int type);
int hpf_index_execute_combine_mask(int sched, int op, const void *src, void *dst, int type,
                                   const int *mask);
int hpf_index_free(int sched);

/* c = MATMUL(a, b) for rank-2 arrays on one grid (SUMMA; local products
 * on the system BLAS; operands in another layout than c's rows/columns
 * are remapped first). Only owned cells of c are written. */
int hpf_matmul(int a_dad, const void *a, int b_dad, const void *b, int c_dad, void *c,
               int type);

/* ScaLAPACK interop: desc[9] of a rank-2 DAD on a P x Q grid (dimension 1
 * on grid dimension 0, dimension 2 on grid dimension 1, no overlap) for a
 * BLACS context made with Cblacs_gridinit(&ictxt, "Row", P, Q) over the
 * same processes. The DAD's local buffer is the local array. */
int hpf_dad_scalapack_desc(int dad, int ictxt, int *desc);

#ifdef __cplusplus
}
#endif

#endif /* HPF_RTS_H */
