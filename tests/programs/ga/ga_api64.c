/* Global Arrays C API: every int64_t ("64") entry point checked against its
 * int twin and against values the program computes itself, plus the
 * cluster, handle, block-count, complex-gop and patch-printing calls.
 * Starts with NGA_Initialize_ltd. Prints "ga_api64: N passed, M failed";
 * the harness also checks what NGA_Print_patch/GA_Print_patch print. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 13
#define C 10

static int me, np;

static double absd(double x) { return x < 0 ? -x : x; }
static double f(int64_t i, int64_t j) { return (double)(i * 100 + j) + 0.5; }

/* A 2-D irregular double array made with NGA_Create_irreg64 (and its int
 * twin), filled through NGA_Put64 from a buffer with a padded row (ld =
 * C + 3), read back through NGA_Get64 with another ld; NGA_Distribution64,
 * NGA_Inquire64 and the locate calls agree with the int calls. */
static void irregular_put_get(void) {
    int64_t dims[2] = {R, C};
    int64_t block[2] = {np >= 2 ? 2 : 1, np >= 4 ? 2 : 1};
    int64_t map[4];
    int k = 0;
    map[k++] = 0;
    if (block[0] == 2) map[k++] = 5;
    map[k++] = 0;
    if (block[1] == 2) map[k++] = 3;
    int g = NGA_Create_irreg64(C_DBL, 2, dims, "irreg64", block, map);
    CHECK(g != 0, "NGA_Create_irreg64 returned 0");
    int idims[2] = {R, C}, iblock[2] = {(int)block[0], (int)block[1]}, imap[4];
    for (int i = 0; i < k; i++) imap[i] = (int)map[i];
    int gi = NGA_Create_irreg(C_DBL, 2, idims, "irreg", iblock, imap);
    EXPECT(GA_Compare_distr(g, gi), 0);

    int type = -1, ndim = -1;
    int64_t d64[2] = {0, 0};
    NGA_Inquire64(g, &type, &ndim, d64);
    EXPECT(type, C_DBL);
    EXPECT(ndim, 2);
    EXPECT(d64[0], R);
    EXPECT(d64[1], C);

    int nb[2] = {0, 0};
    GA_Nblock(g, nb);
    EXPECT(nb[0], block[0]);
    EXPECT(nb[1], block[1]);
    nb[0] = nb[1] = 0;
    NGA_Nblock(gi, nb);
    EXPECT(nb[0] * nb[1], block[0] * block[1]);

    for (int p = 0; p < np; p++) {
        int64_t lo[2], hi[2];
        int ilo[2], ihi[2];
        NGA_Distribution64(g, p, lo, hi);
        NGA_Distribution(gi, p, ilo, ihi);
        for (int d = 0; d < 2; d++) {
            EXPECT(lo[d], ilo[d]);
            EXPECT(hi[d], ihi[d]);
        }
    }
    /* Process 0's block starts at the origin and ends where the map says. */
    {
        int64_t lo[2], hi[2];
        NGA_Distribution64(g, 0, lo, hi);
        EXPECT(lo[0], 0);
        EXPECT(lo[1], 0);
        EXPECT(hi[0], block[0] == 2 ? 4 : R - 1);
        EXPECT(hi[1], block[1] == 2 ? 2 : C - 1);
    }

    /* Rank 0 puts the whole array from a padded buffer. */
    double *src = malloc(sizeof(double) * R * (C + 3));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C + 3; j++) src[i * (C + 3) + j] = j < C ? f(i, j) : -1.0;
    int64_t lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C + 3};
    if (me == 0) NGA_Put64(g, lo, hi, src, ld);
    GA_Sync();

    /* Every rank reads rows 2..11, columns 1..8 with ld 11 (64) and ld 8 (int). */
    int64_t plo[2] = {2, 1}, phi[2] = {11, 8}, pld[1] = {11};
    double got64[10 * 11], got[10 * 8];
    for (int x = 0; x < 110; x++) got64[x] = -7;
    NGA_Get64(g, plo, phi, got64, pld);
    int iplo[2] = {2, 1}, iphi[2] = {11, 8}, ipld[1] = {8};
    NGA_Get(g, iplo, iphi, got, ipld);
    int bad = 0, pad = 0;
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 8; j++) {
            bad += got64[i * 11 + j] != f(i + 2, j + 1);
            bad += got[i * 8 + j] != got64[i * 11 + j];
        }
        for (int j = 8; j < 11; j++) pad += got64[i * 11 + j] != -7;
    }
    CHECK(bad == 0, "NGA_Get64 with ld: %d wrong", bad);
    CHECK(pad == 0, "NGA_Get64 wrote %d elements past the patch rows", pad);

    /* Locate64 / Locate_region64 / Locate_nnodes64 against the int calls. */
    for (int i = 0; i < R; i += 3) {
        for (int j = 0; j < C; j += 2) {
            int64_t s64[2] = {i, j};
            int s[2] = {i, j};
            int o = NGA_Locate64(g, s64);
            EXPECT(o, NGA_Locate(gi, s));
            int64_t blo[2], bhi[2];
            NGA_Distribution64(g, o, blo, bhi);
            CHECK(blo[0] <= i && i <= bhi[0] && blo[1] <= j && j <= bhi[1],
                  "owner %d of (%d,%d) does not hold it", o, i, j);
        }
    }
    {
        int64_t s64[2] = {R, 0};
        EXPECT(NGA_Locate64(g, s64), -1);
    }
    int64_t map64[4 * 16];
    int imap2[4 * 16], procs[16], iprocs[16];
    int n64 = NGA_Locate_region64(g, plo, phi, map64, procs);
    int nint = NGA_Locate_region(gi, iplo, iphi, imap2, iprocs);
    EXPECT(n64, nint);
    EXPECT(NGA_Locate_nnodes64(g, plo, phi), n64);
    EXPECT(NGA_Locate_nnodes(gi, iplo, iphi), n64);
    int same = n64 == nint;
    for (int r = 0; same && r < n64; r++) {
        same = same && procs[r] == iprocs[r];
        for (int x = 0; x < 4; x++) same = same && map64[4 * r + x] == imap2[4 * r + x];
    }
    CHECK(same, "NGA_Locate_region64 differs from NGA_Locate_region");
    EXPECT(n64, (np >= 2 ? 2 : 1) * (np >= 4 ? 2 : 1));

    /* Everyone has read the array before anyone changes it. */
    GA_Sync();
    /* Acc64: every rank adds 2*ones to rows 4..6, columns 0..9 (ld 12). */
    double ones[3 * 12];
    for (int x = 0; x < 36; x++) ones[x] = 1.0;
    int64_t alo[2] = {4, 0}, ahi[2] = {6, 9}, ald[1] = {12};
    double two = 2.0;
    NGA_Acc64(g, alo, ahi, ones, ald, &two);
    GA_Sync();
    double row[C];
    int64_t rlo[2] = {5, 0}, rhi[2] = {5, C - 1};
    NGA_Get64(g, rlo, rhi, row, NULL);
    bad = 0;
    for (int j = 0; j < C; j++) bad += row[j] != f(5, j) + 2.0 * np;
    CHECK(bad == 0, "NGA_Acc64: %d wrong", bad);
    GA_Sync();

    /* Non-blocking: each rank owns row me (rank < R) through NbPut64, then
     * NbAcc64 adds 1 to it, then NbGet64 reads it back. */
    if (me < R) {
        double v[C], back[C];
        for (int j = 0; j < C; j++) v[j] = 1000.0 * me + j;
        int64_t nlo[2] = {me, 0}, nhi[2] = {me, C - 1};
        ga_nbhdl_t h1, h2, h3;
        NGA_NbPut64(g, nlo, nhi, v, NULL, &h1);
        NGA_NbWait(&h1);
        double one = 1.0;
        NGA_NbAcc64(g, nlo, nhi, v, NULL, &one, &h2);
        NGA_NbWait(&h2);
        NGA_NbGet64(g, nlo, nhi, back, NULL, &h3);
        NGA_NbWait(&h3);
        bad = 0;
        for (int j = 0; j < C; j++) bad += back[j] != 2.0 * (1000.0 * me + j);
        CHECK(bad == 0, "NbPut64/NbAcc64/NbGet64: %d wrong", bad);
    }
    GA_Sync();

    /* Access64 on this process's own block, then Release_update64. */
    int64_t olo[2], ohi[2];
    NGA_Distribution64(g, me, olo, ohi);
    if (olo[0] >= 0) {
        double *p = NULL;
        int64_t ald64[1] = {0};
        NGA_Access64(g, olo, ohi, &p, ald64);
        CHECK(p != NULL, "NGA_Access64 gave NULL");
        EXPECT(ald64[0], ohi[1] - olo[1] + 1);
        int ilo2[2] = {(int)olo[0], (int)olo[1]}, ihi2[2] = {(int)ohi[0], (int)ohi[1]};
        double *q = NULL;
        int ild[1] = {0};
        NGA_Access(g, ilo2, ihi2, &q, ild);
        CHECK(p == q, "NGA_Access64 and NGA_Access differ");
        EXPECT(ild[0], ald64[0]);
        NGA_Release(g, ilo2, ihi2);
        p[0] = -123.0;
        NGA_Release_update64(g, olo, ohi);
        NGA_Access64(g, olo, olo, &p, ald64);
        CHECK(p[0] == -123.0, "NGA_Access64 of one element: %g", p[0]);
        NGA_Release64(g, olo, olo);
    }
    GA_Sync();
    for (int p = 0; p < np; p++) {
        int64_t blo[2], bhi[2];
        NGA_Distribution64(g, p, blo, bhi);
        if (blo[0] < 0) continue;
        double v = 0;
        NGA_Get64(g, blo, blo, &v, NULL);
        CHECK(v == -123.0, "block corner of process %d is %g", p, v);
    }
    GA_Sync();
    free(src);
    GA_Destroy(gi);
    GA_Destroy(g);
}

/* NGA_Create64 with a chunk, GA_Create_handle + GA_Set_data64 +
 * GA_Set_chunk64 / NGA_Set_data64 + (N)GA_Set_irreg_distr64; read_inc and
 * scatter/gather in all their 64 forms. */
static void creation_and_elements(void) {
    int64_t dims[2] = {8, 6}, chunk[2] = {8, 1};
    int g = NGA_Create64(C_LONG, 2, dims, "longs64", chunk);
    CHECK(g != 0, "NGA_Create64 returned 0");
    int idims[2] = {8, 6}, ichunk[2] = {8, 1};
    int gi = NGA_Create(C_LONG, 2, idims, "longs", ichunk);
    EXPECT(GA_Compare_distr(g, gi), 0);

    int h = GA_Create_handle();
    GA_Set_data64(h, 2, dims, C_LONG);
    GA_Set_chunk64(h, chunk);
    GA_Set_array_name(h, "handle64");
    EXPECT(GA_Allocate(h), 1);
    EXPECT(GA_Compare_distr(h, gi), 0);

    int64_t block[2] = {np >= 2 ? 2 : 1, 1}, map[3] = {0, 3, 0};
    if (block[0] == 1) map[1] = 0;
    int h2 = GA_Create_handle();
    NGA_Set_data64(h2, 2, dims, C_LONG);
    NGA_Set_irreg_distr64(h2, map, block);
    EXPECT(NGA_Allocate(h2), 1);
    int h3 = NGA_Create_handle();
    GA_Set_data64(h3, 2, dims, C_LONG);
    GA_Set_irreg_distr64(h3, map, block);
    EXPECT(GA_Allocate(h3), 1);
    EXPECT(GA_Compare_distr(h2, h3), 0);
    int64_t lo[2], hi[2];
    NGA_Distribution64(h2, 0, lo, hi);
    EXPECT(hi[0], block[0] == 2 ? 2 : 7);
    EXPECT(hi[1], 5);

    /* Read_inc64: every rank adds me+1 to (3,4) and 1 to (0,0) of the int twin. */
    GA_Zero(g);
    GA_Zero(gi);
    GA_Sync();
    int64_t s64[2] = {3, 4};
    int s[2] = {3, 4};
    long old = NGA_Read_inc64(g, s64, me + 1);
    CHECK(old >= 0 && old < (long)np * (np + 1) / 2, "NGA_Read_inc64 old value %ld", old);
    NGA_Read_inc(gi, s, me + 1);
    GA_Sync();
    long sum = (long)np * (np + 1) / 2;
    EXPECT(NGA_Read_inc64(g, s64, 0), sum);
    EXPECT(NGA_Read_inc(gi, s, 0), sum);
    GA_Sync();

    /* Scatter64 / Gather64: rank 0 scatters n elements, everyone gathers. */
    enum { NS = 7 };
    int64_t sub[NS][2], flat[2 * NS];
    int64_t *subp[NS];
    long vals[NS], back[NS];
    for (int i = 0; i < NS; i++) {
        sub[i][0] = (i * 3) % 8;
        sub[i][1] = (i * 5 + 1) % 6;
        flat[2 * i] = sub[i][0];
        flat[2 * i + 1] = sub[i][1];
        subp[i] = sub[i];
        vals[i] = 11 * i + 5;
    }
    GA_Zero(g);
    GA_Sync();
    if (me == 0) NGA_Scatter64(g, vals, subp, NS);
    GA_Sync();
    NGA_Gather64(g, back, subp, NS);
    int bad = 0;
    for (int i = 0; i < NS; i++) bad += back[i] != vals[i];
    CHECK(bad == 0, "NGA_Scatter64/NGA_Gather64: %d wrong", bad);
    for (int i = 0; i < NS; i++) back[i] = -1;
    NGA_Gather_flat64(g, back, flat, NS);
    bad = 0;
    for (int i = 0; i < NS; i++) bad += back[i] != vals[i];
    CHECK(bad == 0, "NGA_Gather_flat64: %d wrong", bad);
    GA_Sync();
    GA_Zero(g);
    for (int i = 0; i < NS; i++) vals[i] = 2 * i + 1;
    GA_Sync();
    if (me == np - 1) NGA_Scatter_flat64(g, vals, flat, NS);
    GA_Sync();
    /* Everyone accumulates 3*vals (pointer form) and 1*vals (flat form). */
    long three = 3, one = 1;
    NGA_Scatter_acc64(g, vals, subp, NS, &three);
    NGA_Scatter_acc_flat64(g, vals, flat, NS, &one);
    GA_Sync();
    NGA_Gather64(g, back, subp, NS);
    bad = 0;
    for (int i = 0; i < NS; i++) bad += back[i] != vals[i] * (1 + 4L * np);
    CHECK(bad == 0, "NGA_Scatter_flat64 + NGA_Scatter_acc(_flat)64: %d wrong", bad);
    /* The int forms see the same values. */
    int isub[2 * NS];
    for (int i = 0; i < 2 * NS; i++) isub[i] = (int)flat[i];
    long back2[NS];
    NGA_Gather_flat(g, back2, isub, NS);
    bad = 0;
    for (int i = 0; i < NS; i++) bad += back2[i] != back[i];
    CHECK(bad == 0, "NGA_Gather_flat disagrees with NGA_Gather64: %d", bad);
    /* n = 0 is fine. */
    NGA_Scatter64(g, vals, subp, 0);
    NGA_Gather_flat64(g, back, flat, 0);
    GA_Sync();

    GA_Destroy(h3);
    GA_Destroy(h2);
    GA_Destroy(h);
    GA_Destroy(gi);
    GA_Destroy(g);
}

/* Patch operations and dot products in their 64 forms against the int
 * forms and a serial reference. */
static void patch_ops(void) {
    int64_t dims[2] = {9, 7};
    int a = NGA_Create64(C_DBL, 2, dims, "pa", NULL);
    int b = NGA_Create64(C_DBL, 2, dims, "pb", NULL);
    int c = NGA_Create64(C_DBL, 2, dims, "pc", NULL);
    double ref[9 * 7], got[9 * 7];
    double one = 1.0, half = 0.5, three = 3.0, m2 = -2.0;
    GA_Fill(a, &one);
    GA_Zero(b);
    int64_t lo[2] = {1, 2}, hi[2] = {6, 5};
    NGA_Fill_patch64(b, lo, hi, &three);
    NGA_Scale_patch64(b, lo, hi, &half);
    int64_t zlo[2] = {2, 3}, zhi[2] = {3, 4};
    NGA_Zero_patch64(b, zlo, zhi);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 7; j++) {
            int in = i >= 1 && i <= 6 && j >= 2 && j <= 5;
            int z = i >= 2 && i <= 3 && j >= 3 && j <= 4;
            ref[i * 7 + j] = in && !z ? 1.5 : 0.0;
        }
    int64_t all_lo[2] = {0, 0}, all_hi[2] = {8, 6};
    NGA_Get64(b, all_lo, all_hi, got, NULL);
    int bad = 0;
    for (int x = 0; x < 63; x++) bad += got[x] != ref[x];
    CHECK(bad == 0, "Fill/Scale/Zero_patch64: %d wrong", bad);

    /* c[rows 0..5, cols 0..3] = 1*a[...] + -2*b[rows 1..6, cols 2..5] */
    int64_t clo[2] = {0, 0}, chi[2] = {5, 3};
    GA_Zero(c);
    NGA_Add_patch64(&one, a, clo, chi, &m2, b, lo, hi, c, clo, chi);
    NGA_Get64(c, all_lo, all_hi, got, NULL);
    bad = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 7; j++) {
            double want = i <= 5 && j <= 3 ? 1.0 - 2.0 * ref[(i + 1) * 7 + j + 2] : 0.0;
            bad += got[i * 7 + j] != want;
        }
    CHECK(bad == 0, "NGA_Add_patch64: %d wrong", bad);

    /* Copy_patch64 with a transpose: a[0..3, 0..5] = b[1..6, 2..5]^T */
    int64_t tlo[2] = {0, 0}, thi[2] = {3, 5};
    GA_Zero(a);
    NGA_Copy_patch64('T', b, lo, hi, a, tlo, thi);
    NGA_Get64(a, all_lo, all_hi, got, NULL);
    bad = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 7; j++) {
            double want = i <= 3 && j <= 5 ? ref[(j + 1) * 7 + i + 2] : 0.0;
            bad += got[i * 7 + j] != want;
        }
    CHECK(bad == 0, "NGA_Copy_patch64 'T': %d wrong", bad);

    /* Ddot_patch64 = Ddot_patch = serial. */
    double want = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) want += got[i * 7 + j] * ref[(j + 1) * 7 + i + 2];
    double d64 = NGA_Ddot_patch64(a, 'N', tlo, thi, b, 'T', lo, hi);
    int itlo[2] = {0, 0}, ithi[2] = {3, 5}, ilo[2] = {1, 2}, ihi[2] = {6, 5};
    double d32 = NGA_Ddot_patch(a, 'N', itlo, ithi, b, 'T', ilo, ihi);
    CHECK(absd(d64 - want) < 1e-9 && d64 == d32, "NGA_Ddot_patch64 %g, int %g, want %g", d64,
          d32, want);
    GA_Destroy(c);
    GA_Destroy(b);
    GA_Destroy(a);

    /* The typed dot products on 1-D arrays of 20: values i+1 and 2. */
    int64_t n1[1] = {20}, dlo[1] = {3}, dhi[1] = {12};
    int idlo[1] = {3}, idhi[1] = {12};
    long wsum = 0;
    for (int i = 3; i <= 12; i++) wsum += 2 * (i + 1);
    int types[6] = {C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DCPL, C_SCPL};
    for (int t = 0; t < 6; t++) {
        int x = NGA_Create64(types[t], 1, n1, "dx", NULL);
        int y = NGA_Create64(types[t], 1, n1, "dy", NULL);
        if (me == 0) {
            for (int64_t i = 0; i < 20; i++) {
                int64_t s[1] = {i};
                union { int i; long l; long long ll; float f; DoubleComplex z; SingleComplex c; } u, w;
                memset(&u, 0, sizeof u);
                memset(&w, 0, sizeof w);
                switch (types[t]) {
                case C_INT: u.i = (int)i + 1; w.i = 2; break;
                case C_LONG: u.l = i + 1; w.l = 2; break;
                case C_LONGLONG: u.ll = i + 1; w.ll = 2; break;
                case C_FLOAT: u.f = (float)i + 1; w.f = 2; break;
                case C_DCPL: u.z.real = (double)i + 1; u.z.imag = 1; w.z.real = 2; w.z.imag = 0; break;
                default: u.c.real = (float)i + 1; u.c.imag = 1; w.c.real = 2; w.c.imag = 0; break;
                }
                NGA_Put64(x, s, s, &u, NULL);
                NGA_Put64(y, s, s, &w, NULL);
            }
        }
        GA_Sync();
        switch (types[t]) {
        case C_INT:
            EXPECT(NGA_Idot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi), wsum);
            EXPECT(NGA_Idot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi), wsum);
            break;
        case C_LONG:
            EXPECT(NGA_Ldot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi), wsum);
            EXPECT(NGA_Ldot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi), wsum);
            break;
        case C_LONGLONG:
            EXPECT(NGA_Lldot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi), wsum);
            EXPECT(NGA_Lldot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi), wsum);
            break;
        case C_FLOAT:
            EXPECT((long)NGA_Fdot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi), wsum);
            EXPECT((long)NGA_Fdot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi), wsum);
            break;
        case C_DCPL: {
            DoubleComplex z = NGA_Zdot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi);
            DoubleComplex z2 = NGA_Zdot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi);
            CHECK(z.real == wsum && z.imag == 20 && z2.real == z.real && z2.imag == z.imag,
                  "NGA_Zdot_patch64 (%g,%g)", z.real, z.imag);
            break;
        }
        default: {
            SingleComplex z = NGA_Cdot_patch64(x, 'N', dlo, dhi, y, 'N', dlo, dhi);
            SingleComplex z2 = NGA_Cdot_patch(x, 'N', idlo, idhi, y, 'N', idlo, idhi);
            CHECK(z.real == wsum && z.imag == 20 && z2.real == z.real && z2.imag == z.imag,
                  "NGA_Cdot_patch64 (%g,%g)", z.real, z.imag);
            break;
        }
        }
        GA_Destroy(y);
        GA_Destroy(x);
    }
}

static double ea(int i, int j) { return (i * 7 + j * 3) % 11 - 4.5; }
static double eb(int i, int j) { return (i * 5 + j * 2) % 13 * 0.25 - 1.0; }

/* GA_Dgemm64/Sgemm64/Zgemm64/Cgemm64, NGA_Matmul_patch64 and
 * GA_Matmul_patch64 against a serial product. */
static void products(void) {
    enum { M = 8, K = 6, N = 5 };
    int64_t da[2] = {M, K}, db[2] = {K, N}, dc[2] = {M, N};
    int types[4] = {C_DBL, C_FLOAT, C_DCPL, C_SCPL};
    double want[M * N];
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += ea(i, k) * eb(k, j);
            want[i * N + j] = s;
        }
    for (int t = 0; t < 4; t++) {
        int a = NGA_Create64(types[t], 2, da, "A", NULL);
        int b = NGA_Create64(types[t], 2, db, "B", NULL);
        int c = NGA_Create64(types[t], 2, dc, "C", NULL);
        int es = types[t] == C_DBL ? 8 : types[t] == C_FLOAT ? 4 : types[t] == C_DCPL ? 16 : 8;
        char *buf = calloc(M * K, 16);
        /* Real parts only: the product's real part is the serial one. */
        if (me == 0) {
            for (int pass = 0; pass < 2; pass++) {
                int rows = pass ? K : M, cols = pass ? N : K;
                memset(buf, 0, (size_t)M * K * 16);
                for (int i = 0; i < rows; i++)
                    for (int j = 0; j < cols; j++) {
                        double v = pass ? eb(i, j) : ea(i, j);
                        char *p = buf + (size_t)(i * cols + j) * es;
                        if (types[t] == C_DBL || types[t] == C_DCPL) memcpy(p, &v, 8);
                        else { float fv = (float)v; memcpy(p, &fv, 4); }
                    }
                int64_t lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1};
                NGA_Put64(pass ? b : a, lo, hi, buf, NULL);
            }
        }
        GA_Sync();
        GA_Zero(c);
        switch (types[t]) {
        case C_DBL: GA_Dgemm64('N', 'N', M, N, K, 1.0, a, b, 0.0, c); break;
        case C_FLOAT: GA_Sgemm64('N', 'N', M, N, K, 1.0f, a, b, 0.0f, c); break;
        case C_DCPL: {
            DoubleComplex one = {1, 0}, zero = {0, 0};
            GA_Zgemm64('N', 'N', M, N, K, one, a, b, zero, c);
            break;
        }
        default: {
            SingleComplex one = {1, 0}, zero = {0, 0};
            GA_Cgemm64('N', 'N', M, N, K, one, a, b, zero, c);
            break;
        }
        }
        char *out = calloc(M * N, 16);
        int64_t lo[2] = {0, 0}, hi[2] = {M - 1, N - 1};
        NGA_Get64(c, lo, hi, out, NULL);
        int bad = 0;
        for (int x = 0; x < M * N; x++) {
            double v;
            if (types[t] == C_DBL || types[t] == C_DCPL) memcpy(&v, out + (size_t)x * es, 8);
            else { float fv; memcpy(&fv, out + (size_t)x * es, 4); v = fv; }
            bad += absd(v - want[x]) > 1e-4;
        }
        CHECK(bad == 0, "gemm64 type %d: %d wrong", types[t], bad);
        free(out);
        free(buf);
        GA_Destroy(c);
        GA_Destroy(b);
        GA_Destroy(a);
    }

    /* Matmul on patches: C[1..3, 2..5] = A[2..4, 1..3] * B[0..2, 1..4]. */
    int64_t big[2] = {7, 7};
    int a = NGA_Create64(C_DBL, 2, big, "MA", NULL);
    int b = NGA_Create64(C_DBL, 2, big, "MB", NULL);
    int c = NGA_Create64(C_DBL, 2, big, "MC", NULL);
    int c2 = NGA_Create64(C_DBL, 2, big, "MC2", NULL);
    double va[49], vb[49], got[49], got2[49];
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            va[i * 7 + j] = ea(i, j);
            vb[i * 7 + j] = eb(i, j);
        }
    int64_t lo[2] = {0, 0}, hi[2] = {6, 6};
    if (me == 0) {
        NGA_Put64(a, lo, hi, va, NULL);
        NGA_Put64(b, lo, hi, vb, NULL);
    }
    GA_Sync();
    GA_Zero(c);
    GA_Zero(c2);
    double one = 1.0, zero = 0.0;
    int64_t alo[2] = {2, 1}, ahi[2] = {4, 3}, blo[2] = {0, 1}, bhi[2] = {2, 4};
    int64_t clo[2] = {1, 2}, chi[2] = {3, 5};
    NGA_Matmul_patch64('N', 'N', &one, &zero, a, alo, ahi, b, blo, bhi, c, clo, chi);
    GA_Matmul_patch64('N', 'N', &one, &zero, a, 2, 4, 1, 3, b, 0, 2, 1, 4, c2, 1, 3, 2, 5);
    NGA_Get64(c, lo, hi, got, NULL);
    NGA_Get64(c2, lo, hi, got2, NULL);
    int bad = 0, diff = 0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            double w = 0;
            if (i >= 1 && i <= 3 && j >= 2 && j <= 5)
                for (int k = 0; k < 3; k++) w += va[(i + 1) * 7 + 1 + k] * vb[k * 7 + j - 1];
            bad += absd(got[i * 7 + j] - w) > 1e-9;
            diff += got[i * 7 + j] != got2[i * 7 + j];
        }
    CHECK(bad == 0, "NGA_Matmul_patch64: %d wrong", bad);
    CHECK(diff == 0, "GA_Matmul_patch64 differs from NGA_Matmul_patch64 in %d", diff);
    GA_Destroy(c2);
    GA_Destroy(c);
    GA_Destroy(b);
    GA_Destroy(a);
}

/* Cluster layout (one host here), handles, complex gops, aliases. */
static void cluster_and_misc(void) {
    EXPECT(GA_Cluster_nnodes(), 1);
    EXPECT(GA_Cluster_nodeid(), 0);
    EXPECT(GA_Cluster_nprocs(0), np);
    for (int p = 0; p < np; p++) {
        EXPECT(GA_Cluster_procid(0, p), p);
        EXPECT(GA_Cluster_proc_nodeid(p), 0);
    }
    int64_t d[1] = {5};
    int g = NGA_Create64(C_INT, 1, d, "v", NULL);
    EXPECT(GA_Verify_handle(g), 1);
    EXPECT(NGA_Verify_handle(g), 1);
    EXPECT(GA_Verify_handle(g + 4242), 0);
    EXPECT(NGA_Verify_handle(0), 0);
    GA_Check_handle(g, "cluster_and_misc");
    int nb[1] = {0};
    NGA_Nblock(g, nb);
    CHECK(nb[0] >= 1 && nb[0] <= np, "NGA_Nblock of 5 elements: %d", nb[0]);
    GA_Destroy(g);
    EXPECT(GA_Verify_handle(g), 0);

    DoubleComplex z[2] = {{me, 1}, {2, -me}};
    GA_Zgop(z, 2, "+");
    double tri = np * (np - 1) / 2.0;
    CHECK(z[0].real == tri && z[0].imag == np && z[1].real == 2.0 * np && z[1].imag == -tri,
          "GA_Zgop: (%g,%g) (%g,%g)", z[0].real, z[0].imag, z[1].real, z[1].imag);
    SingleComplex s[1] = {{0.5f, (float)me}};
    GA_Cgop(s, 1, "+");
    CHECK(s[0].real == 0.5f * np && s[0].imag == (float)tri, "GA_Cgop: (%g,%g)", s[0].real,
          s[0].imag);

    NGA_Mask_sync(1, 1);
    NGA_Set_memory_limit(1 << 20);
    EXPECT(NGA_Memory_limited(), GA_Memory_limited());
    CHECK(NGA_Memory_avail() == GA_Memory_avail(), "NGA_Memory_avail");
}

/* The printing calls on a 5x8 int array holding 10*i+j; the harness checks
 * the output. */
static void print_patches(void) {
    int64_t d[2] = {5, 8};
    int g = NGA_Create64(C_INT, 2, d, "pp", NULL);
    int v[40];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 8; j++) v[i * 8 + j] = 10 * i + j;
    int64_t lo[2] = {0, 0}, hi[2] = {4, 7};
    if (me == 0) NGA_Put64(g, lo, hi, v, NULL);
    GA_Sync();
    if (me == 0) printf("== NGA_Print_patch64 pretty\n");
    int64_t plo[2] = {1, 2}, phi[2] = {2, 3};
    NGA_Print_patch64(g, plo, phi, 1);
    if (me == 0) printf("== NGA_Print_patch dense\n");
    int ilo[2] = {1, 2}, ihi[2] = {2, 3};
    NGA_Print_patch(g, ilo, ihi, 0);
    if (me == 0) printf("== GA_Print_patch pretty\n");
    GA_Print_patch(g, 3, 4, 0, 7, 1);
    if (me == 0) printf("== end of patches\n");
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    NGA_Initialize_ltd(1 << 24);
    MA_init(MT_DBL, 200000, 200000);
    me = GA_Nodeid();
    np = GA_Nnodes();
    tally_who = me;
    irregular_put_get();
    creation_and_elements();
    patch_ops();
    products();
    cluster_and_misc();
    print_patches();
    return finish_ga("ga_api64", me);
}
