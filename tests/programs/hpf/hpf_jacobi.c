/* A Fortran 90D style Jacobi iteration on an N x M array distributed
 * (BLOCK, BLOCK) with one overlap cell on each side, through hpf_rts.h:
 *
 *   FORALL (i=2:N-1, j=2:M-1) B(i,j) = (A(i-1,j)+A(i+1,j)+A(i,j-1)+A(i,j+1))/4
 *   residual = SUM(ABS(B - A))
 *
 * Each sweep updates the overlap (hpf_shift_overlap), computes on the
 * owned cells and takes the residual with hpf_sum. Every process also runs
 * the same iteration serially on the whole array and checks that the
 * distributed array (gathered by hpf_copy onto a collapsed DAD) and the
 * residuals are equal to it. Also checks MAXLOC, a CYCLIC(3) round trip,
 * NUMROC and error codes. Prints "hpf_jacobi rank R: P passed, F failed".
 */
#include <hpf_rts.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 13
#define M 10
#define SWEEPS 20

static int passed, failed, me;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAILED rank %d: %s\n", me, what);
    }
}

static double initial(long long i, long long j)
{
    /* Fixed boundary values, zero inside. */
    if (i == 1) return 1.0;
    if (j == M) return 2.0 + 0.1 * (double)i;
    return 0.0;
}

int main(void)
{
    int nprocs, grid, dims[2] = {0, 0}, coords[2];
    check(hpf_init() == HPF_OK, "hpf_init");
    check(hpf_nprocs(&nprocs) == HPF_OK, "hpf_nprocs");
    check(hpf_grid_create(2, dims, &grid) == HPF_OK, "grid");
    check(dims[0] * dims[1] == nprocs, "grid dims filled in");
    check(hpf_grid_info(grid, &me, coords) == HPF_OK, "grid info");

    long long lb[2] = {1, 1}, ext[2] = {N, M};
    int dist[2] = {HPF_BLOCK, HPF_BLOCK}, pdim[2] = {0, 1}, one[2] = {1, 1};
    int dad, whole;
    check(hpf_dad_create(grid, 2, lb, ext, dist, NULL, pdim, one, one, &dad) == HPF_OK, "dad");
    int coll[2] = {HPF_COLLAPSED, HPF_COLLAPSED};
    check(hpf_dad_create(grid, 2, lb, ext, coll, NULL, pdim, NULL, NULL, &whole) == HPF_OK, "whole dad");

    long long len, count[2], alloc[2], stride[2];
    check(hpf_dad_local_size(dad, &len) == HPF_OK, "local size");
    check(hpf_dad_local_shape(dad, count, alloc, stride) == HPF_OK, "local shape");
    check(alloc[0] == count[0] + 2 && stride[0] == 1 && stride[1] == alloc[0], "layout");
    double *a = calloc((size_t)len, sizeof *a), *b = calloc((size_t)len, sizeof *b);
    double *diff = calloc((size_t)len, sizeof *diff);
    double *g = malloc(sizeof(double) * N * M);

    /* Global subscripts of the owned cells. */
    long long gi0 = 0, gj0 = 0;
    if (count[0] > 0) hpf_dad_local_to_global(dad, 1, 0, &gi0);
    if (count[1] > 0) hpf_dad_local_to_global(dad, 2, 0, &gj0);
#define AT(i, j) (((i) + 1) * stride[0] + ((j) + 1) * stride[1])
    for (long long j = 0; j < count[1]; j++)
        for (long long i = 0; i < count[0]; i++)
            a[AT(i, j)] = b[AT(i, j)] = initial(gi0 + i, gj0 + j);

    /* The serial run. */
    double s[N + 2][M + 2], t[N + 2][M + 2], sres[SWEEPS];
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= M; j++) s[i][j] = t[i][j] = initial(i, j);
    for (int k = 0; k < SWEEPS; k++) {
        for (int i = 2; i < N; i++)
            for (int j = 2; j < M; j++)
                t[i][j] = (s[i - 1][j] + s[i + 1][j] + s[i][j - 1] + s[i][j + 1]) / 4;
        double r = 0;
        for (int j = 1; j <= M; j++)
            for (int i = 1; i <= N; i++) r += fabs(t[i][j] - s[i][j]);
        sres[k] = r;
        memcpy(s, t, sizeof s);
    }

    /* The distributed run. */
    int ok_res = 1, ok_shift = 1;
    for (int k = 0; k < SWEEPS; k++) {
        ok_shift &= hpf_shift_overlap(dad, HPF_REAL8, a, NULL) == HPF_OK;
        for (long long j = 0; j < count[1]; j++)
            for (long long i = 0; i < count[0]; i++) {
                long long gi = gi0 + i, gj = gj0 + j;
                if (gi > 1 && gi < N && gj > 1 && gj < M)
                    b[AT(i, j)] = (a[AT(i - 1, j)] + a[AT(i + 1, j)] + a[AT(i, j - 1)] +
                                   a[AT(i, j + 1)]) / 4;
                diff[AT(i, j)] = fabs(b[AT(i, j)] - a[AT(i, j)]);
            }
        double r;
        ok_res &= hpf_sum(dad, HPF_REAL8, diff, &r) == HPF_OK;
        /* Terms are summed in another order than serially: allow the
         * rounding bound of N*M additions. */
        ok_res &= fabs(r - sres[k]) <= 4.0 * N * M * 1e-16 * (sres[k] + 1.0);
        double *x = a;
        a = b;
        b = x;
    }
    check(ok_shift, "overlap shifts");
    check(ok_res, "residuals equal the serial run");

    /* The whole array on every process equals the serial result. */
    check(hpf_copy(dad, a, whole, g, HPF_REAL8) == HPF_OK, "gather by copy");
    int same = 1;
    for (int j = 1; j <= M; j++)
        for (int i = 1; i <= N; i++) same &= g[(i - 1) + (j - 1) * N] == s[i][j];
    check(same, "Jacobi result equals the serial run");

    /* MAXLOC: the largest value is on the last column's last row. */
    long long pos[2];
    check(hpf_maxloc(dad, HPF_REAL8, a, pos) == HPF_OK && pos[0] == N && pos[1] == M, "maxloc");

    /* BLOCK -> CYCLIC(3) -> BLOCK round trip. */
    int cyc, blk3[2] = {3, 3}, dcyc[2] = {HPF_CYCLIC_K, HPF_CYCLIC_K}, cdad;
    check(hpf_dad_create(grid, 2, lb, ext, dcyc, blk3, pdim, NULL, NULL, &cdad) == HPF_OK, "cyclic dad");
    long long clen;
    hpf_dad_local_size(cdad, &clen);
    double *c = calloc((size_t)clen + 1, sizeof *c);
    memset(b, 0, sizeof(double) * (size_t)len);
    check(hpf_copy(dad, a, cdad, c, HPF_REAL8) == HPF_OK, "to cyclic(3)");
    check(hpf_copy(cdad, c, dad, b, HPF_REAL8) == HPF_OK, "back to block");
    int back = 1;
    for (long long j = 0; j < count[1]; j++)
        for (long long i = 0; i < count[0]; i++) back &= a[AT(i, j)] == b[AT(i, j)];
    check(back, "round trip returns the original");
    /* NUMROC: 10 elements in blocks of 3 over 2 processes give 6 and 4;
     * from source process 1 they give 4 and 6. */
    cyc = hpf_numroc(10, 3, 0, 0, 2) == 6 && hpf_numroc(10, 3, 1, 0, 2) == 4 &&
          hpf_numroc(10, 3, 0, 1, 2) == 4 && hpf_numroc(10, 3, 1, 1, 2) == 6;
    check(cyc, "numroc");

    /* Errors come back as codes with messages. */
    char msg[200];
    check(hpf_sum(9999, HPF_REAL8, a, &msg) == HPF_EBADHANDLE, "bad handle");
    check(hpf_error_message(msg, sizeof msg) == HPF_OK && strstr(msg, "hpf_sum") != NULL, "message names the call");
    int bad[2] = {HPF_CYCLIC, HPF_BLOCK}, d2;
    check(hpf_dad_create(grid, 2, lb, ext, bad, NULL, pdim, one, one, &d2) == HPF_EBADARG, "overlap on cyclic refused");
    check(hpf_sum(dad, 42, a, &msg) == HPF_EBADARG, "bad type");
    check(hpf_numroc(10, 0, 0, 0, 1) == -1, "numroc bad block");

    free(a);
    free(b);
    free(c);
    free(diff);
    free(g);
    check(hpf_finalize() == HPF_OK, "finalize");
    printf("hpf_jacobi rank %d: %d passed, %d failed\n", me, passed, failed);
    return failed != 0;
}
