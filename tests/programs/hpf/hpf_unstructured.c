/* RESHAPE, PACK and UNPACK of hpf_rts.h from C on a 2-D grid, each
 * against a serial computation every process does itself:
 *
 * - RESHAPE of an M x N (BLOCK, CYCLIC) array into a CYCLIC(3) vector of
 *   all its elements and into a smaller (N-1) x M (CYCLIC, BLOCK) array;
 * - PACK with a mask on another DAD than the array, without and with
 *   VECTOR (the result filled beforehand);
 * - UNPACK of the packed vector into a FIELD on (BLOCK, BLOCK);
 * - error codes of a result too short for PACK and a RESHAPE that needs
 *   more elements than the source has.
 *
 * Results are gathered with hpf_copy onto a collapsed DAD. Prints
 * "hpf_unstructured rank R: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tally.h"
#include "hpf_cells.h"
#include "hpf_start.h"

#define M 9
#define N 7

static int grid;

static int dad(int rank, const long long *ext, const int *dist, const int *pdim)
{
    long long lb[2] = {1, 1};
    int block[2] = {3, 3}, h = -1;
    EXPECT(hpf_dad_create(grid, rank, lb, ext, dist, block, pdim, NULL, NULL, &h), HPF_OK);
    return h;
}

static double f(long long i, long long j) { return (double)(i * 100 + j); }
static int masked(long long i, long long j) { return (i + 2 * j) % 3 == 0; }

/* The owned cells of a rank-2 buffer: doubles from f or ints from
 * masked (1-based subscripts). */
static void fill2(int d, double *x, int *m)
{
    struct cells2 c = owned_cells2(d);
    for (long long k = 0; k < c.n; k++) {
        if (x) x[c.at[k]] = f(c.gi[k], c.gj[k]);
        if (m) m[c.at[k]] = masked(c.gi[k], c.gj[k]);
    }
    free_cells2(c);
}

/* The whole array (rank `rank`, extents ext) on every process. */
static void gather(int d, const double *buf, int rank, const long long *ext, double *out)
{
    int dist[2] = {HPF_COLLAPSED, HPF_COLLAPSED}, pdim[2] = {0, 0};
    int whole = dad(rank, ext, dist, pdim);
    EXPECT(hpf_copy(d, buf, whole, out, HPF_REAL8), HPF_OK);
    hpf_dad_free(whole);
}

int main(void)
{
    int dims[2] = {0, 0}, rank = -1;
    if (start_grid(2, dims, &grid, &rank) != 0) return 2;

    long long ext[2] = {M, N};
    int bc[2] = {HPF_BLOCK, HPF_CYCLIC}, cb[2] = {HPF_CYCLIC, HPF_BLOCK};
    int bb[2] = {HPF_BLOCK, HPF_BLOCK}, pd[2] = {0, 1};
    int a = dad(2, ext, bc, pd);
    double *x = local_buffer(a, sizeof(double));
    fill2(a, x, NULL);
    double serial[M * N];
    for (int j = 1; j <= N; j++)
        for (int i = 1; i <= M; i++) serial[(i - 1) + M * (j - 1)] = f(i, j);

    /* RESHAPE into a vector of every element, CYCLIC(3). */
    {
        long long vext[1] = {M * N};
        int vd[1] = {HPF_CYCLIC_K}, vp[1] = {0};
        int v = dad(1, vext, vd, vp);
        double *y = local_buffer(v, sizeof(double)), whole[M * N];
        EXPECT(hpf_reshape(a, x, v, y, HPF_REAL8), HPF_OK);
        gather(v, y, 1, vext, whole);
        int bad = 0;
        for (int p = 0; p < M * N; p++) bad += whole[p] != serial[p];
        CHECK(bad == 0, "RESHAPE to a vector: %d cells wrong", bad);
        free(y);
        hpf_dad_free(v);
    }
    /* RESHAPE into (N-1) x M, fewer elements than the source. */
    {
        long long rext[2] = {N - 1, M};
        int r = dad(2, rext, cb, pd);
        double *y = local_buffer(r, sizeof(double)), whole[(N - 1) * M];
        EXPECT(hpf_reshape(a, x, r, y, HPF_REAL8), HPF_OK);
        gather(r, y, 2, rext, whole);
        int bad = 0;
        for (int p = 0; p < (N - 1) * M; p++) bad += whole[p] != serial[p];
        CHECK(bad == 0, "RESHAPE to (N-1) x M: %d cells wrong", bad);
        long long big[2] = {N + 1, M};
        int b = dad(2, big, cb, pd);
        double *z = local_buffer(b, sizeof(double));
        EXPECT(hpf_reshape(a, x, b, z, HPF_REAL8), HPF_EMISMATCH);
        free(y), free(z);
        hpf_dad_free(r), hpf_dad_free(b);
    }

    /* PACK with a (CYCLIC, BLOCK) mask. */
    int md = dad(2, ext, cb, pd);
    int *mask = local_buffer(md, sizeof(int));
    fill2(md, NULL, mask);
    long long count = -1;
    EXPECT(hpf_count(md, mask, &count), HPF_OK);
    double packed[M * N];
    int want = 0;
    for (int p = 0; p < M * N; p++)
        if (masked(p % M + 1, p / M + 1)) packed[want++] = serial[p];
    CHECK(count == want, "COUNT(mask) %lld != %d", count, want);
    {
        long long pext[1] = {count + 4};
        int pdd[1] = {HPF_BLOCK}, pp[1] = {1};
        int r = dad(1, pext, pdd, pp);
        double *y = local_buffer(r, sizeof(double)), whole[M * N + 4];
        long long cnt;
        hpf_dad_local_shape(r, &cnt, NULL, NULL);
        for (long long l = 0; l < cnt; l++) y[l] = -1.0;
        EXPECT(hpf_pack(a, x, md, mask, r, y, HPF_REAL8), HPF_OK);
        gather(r, y, 1, pext, whole);
        int bad = 0;
        for (int p = 0; p < count + 4; p++) bad += whole[p] != (p < count ? packed[p] : -1.0);
        CHECK(bad == 0, "PACK with VECTOR: %d cells wrong", bad);

        /* UNPACK the packed vector into a FIELD of 0.5 on (BLOCK, BLOCK). */
        int u = dad(2, ext, bb, pd);
        double *z = local_buffer(u, sizeof(double)), back[M * N];
        long long ucnt[2], ustride[2];
        hpf_dad_local_shape(u, ucnt, NULL, ustride);
        for (long long j = 0; j < ucnt[1]; j++)
            for (long long i = 0; i < ucnt[0]; i++) z[i * ustride[0] + j * ustride[1]] = 0.5;
        EXPECT(hpf_unpack(r, y, md, mask, u, z, HPF_REAL8), HPF_OK);
        gather(u, z, 2, ext, back);
        bad = 0;
        for (int p = 0; p < M * N; p++)
            bad += back[p] != (masked(p % M + 1, p / M + 1) ? serial[p] : 0.5);
        CHECK(bad == 0, "UNPACK: %d cells wrong", bad);
        free(y), free(z);
        hpf_dad_free(r), hpf_dad_free(u);
    }
    {
        /* A result one element too short. */
        long long pext[1] = {count - 1};
        int pdd[1] = {HPF_CYCLIC}, pp[1] = {0};
        int r = dad(1, pext, pdd, pp);
        double *y = local_buffer(r, sizeof(double));
        EXPECT(hpf_pack(a, x, md, mask, r, y, HPF_REAL8), HPF_EMISMATCH);
        free(y);
        hpf_dad_free(r);
    }

    free(x), free(mask);
    hpf_dad_free(a), hpf_dad_free(md);
    printf("hpf_unstructured rank %d: %d passed, %d failed\n", rank, passed, failed);
    hpf_finalize();
    return failed != 0;
}
