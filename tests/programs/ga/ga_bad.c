/* Bad input to the GA C API must end the job with a message naming the
 * call (and the patch), never crash or hang. argv[1] picks the mistake. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    const char *what = argc > 1 ? argv[1] : "";
    int dims[2] = {10, 10};
    int g = NGA_Create(C_DBL, 2, dims, "A", NULL);
    double buf[400] = {0};
    int lo[2] = {0, 3}, hi[2] = {9, 20}, ld[1] = {20};
    if (strcmp(what, "bounds") == 0) {
        NGA_Put(g, lo, hi, buf, ld); /* columns 3..20 of a 10x10 array */
    } else if (strcmp(what, "handle") == 0) {
        int olo[2] = {0, 0}, ohi[2] = {1, 1};
        NGA_Get(g + 4242, olo, ohi, buf, ld);
    } else if (strcmp(what, "type") == 0) {
        int sub[2] = {1, 1};
        NGA_Read_inc(g, sub, 1); /* a double array */
    } else if (strcmp(what, "gemm") == 0) {
        int d3[2] = {10, 7};
        int c = NGA_Create(C_DBL, 2, d3, "C", NULL);
        GA_Dgemm('N', 'N', 10, 10, 10, 1.0, g, g, 0.0, c); /* C is too small */
    } else if (strcmp(what, "copy") == 0) {
        int alo[2] = {0, 0}, ahi[2] = {2, 2}, blo[2] = {0, 0}, bhi[2] = {3, 3};
        NGA_Copy_patch('N', g, alo, ahi, g, blo, bhi); /* 9 vs 16 elements */
    } else if (strcmp(what, "ld") == 0) {
        int plo[2] = {0, 0}, phi[2] = {1, 5}, small[1] = {4};
        NGA_Get(g, plo, phi, buf, small); /* ld 4 < 6 columns */
    } else if (strcmp(what, "bounds64") == 0) {
        int64_t lo64[2] = {0, 3}, hi64[2] = {9, 20}, ld64[1] = {20};
        NGA_Put64(g, lo64, hi64, buf, ld64); /* the same patch through the 64 call */
    } else if (strcmp(what, "get64") == 0) {
        int64_t lo64[2] = {-1, 0}, hi64[2] = {1, 1};
        NGA_Get64(g, lo64, hi64, buf, NULL);
    } else if (strcmp(what, "big") == 0) {
        /* 2^31 + 16 chars (sparse memory): fine for the 64 call, too many
         * for the int one. */
        int64_t big[1] = {((int64_t)1 << 31) + 16}, got[1] = {0};
        int b = NGA_Create64(C_CHAR, 1, big, "big", NULL);
        int type = 0, ndim = 0, dims1[1] = {0};
        NGA_Inquire64(b, &type, &ndim, got);
        if (got[0] != big[0]) printf("ga_bad: NGA_Inquire64 gave %lld\n", (long long)got[0]);
        else printf("ga_bad: NGA_Inquire64 ok\n");
        fflush(stdout);
        NGA_Inquire(b, &type, &ndim, dims1);
    } else if (strcmp(what, "huge64") == 0) {
        /* 2^31 x 2^31 doubles: 2^65 bytes, beyond any address space. */
        int64_t huge[2] = {(int64_t)1 << 31, (int64_t)1 << 31};
        int h = NGA_Create64(C_DBL, 2, huge, "huge", NULL);
        printf("ga_bad: NGA_Create64 gave handle %d\n", h);
        fflush(stdout);
        int64_t one[2] = {0, 0};
        double v = 1.0;
        NGA_Put64(h, one, one, &v, NULL);
    } else if (strcmp(what, "hugeint") == 0) {
        /* INT_MAX^3 doubles through the int call: the byte count wraps
         * 64 bits. */
        int huge[3] = {2147483647, 2147483647, 2147483647};
        int h = NGA_Create(C_DBL, 3, huge, "cube", NULL);
        printf("ga_bad: NGA_Create gave handle %d\n", h);
    } else if (strcmp(what, "ldhuge") == 0) {
        /* Leading dimensions whose product (2^80 elements) wraps 64 bits. */
        int64_t d3[3] = {2, 2, 2}, lo3[3] = {0, 0, 0}, hi3[3] = {1, 1, 1};
        int64_t ld3[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
        int c = NGA_Create64(C_DBL, 3, d3, "cube", NULL);
        NGA_Get64(c, lo3, hi3, buf, ld3);
    } else if (strcmp(what, "check") == 0) {
        GA_Check_handle(g + 4242, "in the solver");
    } else if (strcmp(what, "cluster") == 0) {
        GA_Cluster_procid(0, 99);
    } else if (strcmp(what, "zgop") == 0) {
        DoubleComplex z[1] = {{1, 2}};
        GA_Zgop(z, 1, "max");
    } else if (strcmp(what, "cyclicghost") == 0) {
        /* Ghost widths on a block-cyclic array: refused by GA_Allocate
         * (Debian's GA 5.8 accepts them and dies of a division by zero in
         * the next GA_Fill); the failed handle then ends the job. */
        int c = GA_Create_handle();
        int w[2] = {1, 1}, blk[2] = {2, 2};
        GA_Set_data(c, 2, dims, C_DBL);
        GA_Set_array_name(c, "cyc");
        GA_Set_ghosts(c, w);
        GA_Set_block_cyclic(c, blk);
        printf("ga_bad: GA_Allocate gave %d\n", GA_Allocate(c));
        fflush(stdout);
        double one = 1.0;
        GA_Fill(c, &one);
    } else if (strcmp(what, "error") == 0) {
        GA_Error("user says stop", 42);
    }
    printf("ga_bad: %s did not stop the job\n", what);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
