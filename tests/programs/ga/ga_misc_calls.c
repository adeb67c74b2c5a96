/* Global Arrays C API: GA_Gop (every type it reduces), GA_Randomize and
 * NGA_Randomize (double, float, int, long; values follow the C library's
 * rand() sequence of each process, seeded here, as GA draws them), GA_Print_file, GA_Deallocate
 * with a second GA_Allocate of the same handle (of GA_Create_handle and of
 * NGA_Create_irreg), GA_Register_stack_memory,
 * GA_Set_tiled_irreg_proc_grid (tiles of irregular sizes over a process
 * grid), GA_Overlay (an array in another's memory, block-cyclic and
 * restricted arrays too, and one too large for it) and GA_Getmem/GA_Assemble_duplicate/GA_Freemem. Rank 0 prints what a user sees: reduced values, the
 * randomized arrays, what GA_Print_file wrote, the tiled array's blocks,
 * owners and contents; every rank checks what it can on its own. Then
 * "ga_misc_calls: N passed, M failed". Argument "debian": see below. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

static int me, np;
/* Argument "debian": leave out what Debian's GA 5.8 gets wrong: a failed
 * GA_Overlay makes it free memory it never allocated, and GA_Destroy of
 * an array from GA_Assemble_duplicate or GA_Freemem frees GA_Getmem
 * memory at a wrong address; both abort the job (ARMCI_Free_group's
 * "Invalid shared pointer", or a segmentation fault). */
static int debian;

static void gops(void) {
    int i[3] = {me + 1, -3 * me, 7};
    long l[2] = {100L * (me + 1), -5L * me};
    long long ll[2] = {1LL << 40, me};
    float f[2] = {0.5f * (me + 1), -1.0f * me};
    double d[3] = {1.25 * (me + 1), -2.0 * me, 3.0};
    SingleComplex c = {1.0f * (me + 1), 0.5f};
    DoubleComplex z = {2.0 * (me + 1), -1.0 * me};
    GA_Gop(C_INT, i, 3, "+");
    GA_Gop(C_LONG, l, 2, "max");
    GA_Gop(C_LONGLONG, ll, 2, "+");
    GA_Gop(C_FLOAT, f, 2, "min");
    GA_Gop(C_DBL, d, 3, "absmax");
    GA_Gop(C_SCPL, &c, 1, "+");
    GA_Gop(C_DCPL, &z, 1, "+");
    long sum = (long)np * (np + 1) / 2;
    CHECK_EQ(i[0], sum, "GA_Gop C_INT +");
    CHECK_EQ(l[0], 100L * np, "GA_Gop C_LONG max");
    CHECK_EQ(ll[0], (long long)np << 40, "GA_Gop C_LONGLONG +");
    CHECK(f[1] == -1.0f * (np - 1), "GA_Gop C_FLOAT min: %g", f[1]);
    CHECK(d[1] == 2.0 * (np - 1), "GA_Gop C_DBL absmax: %g", d[1]);
    CHECK(c.real == (float)sum, "GA_Gop C_SCPL +: %g", c.real);
    if (me == 0) {
        printf("gop int: %d %d %d\n", i[0], i[1], i[2]);
        printf("gop long: %ld %ld\n", l[0], l[1]);
        printf("gop long long: %lld %lld\n", ll[0], ll[1]);
        printf("gop float: %g %g\n", f[0], f[1]);
        printf("gop double: %g %g %g\n", d[0], d[1], d[2]);
        printf("gop scpl: %g %g\n", c.real, c.imag);
        printf("gop dcpl: %g %g\n", z.real, z.imag);
    }
}

/* Randomizes a rows x cols array of `type` with bound `value`; rank 0
 * prints it; every rank checks its own block lies in [0, bound]. */
static void randomized(int type, void *value, double bound, int n_form) {
    int dims[2] = {7, 5}, lo[2] = {0, 0}, hi[2] = {6, 4}, ld[1] = {5};
    int g = NGA_Create(type, 2, dims, "random", NULL);
    /* Each rank seeds its own sequence: with Debian's GA on ARMCI-MPI a
     * remote get between two calls starts the C library's sequence over
     * (seed 1, two draws taken), so a sequence left running would compare
     * that layer rather than GA_Randomize. */
    srand(11 + 3 * me);
    if (n_form) NGA_Randomize(g, value);
    else GA_Randomize(g, value);
    double v[35];
    long lv[35];
    int iv[35];
    float fv[35];
    for (int k = 0; k < 35; k++) {
        v[k] = 0;
    }
    if (type == C_DBL) NGA_Get(g, lo, hi, v, ld);
    if (type == C_LONG) {
        NGA_Get(g, lo, hi, lv, ld);
        for (int k = 0; k < 35; k++) v[k] = (double)lv[k];
    }
    if (type == C_INT) {
        NGA_Get(g, lo, hi, iv, ld);
        for (int k = 0; k < 35; k++) v[k] = iv[k];
    }
    if (type == C_FLOAT) {
        NGA_Get(g, lo, hi, fv, ld);
        for (int k = 0; k < 35; k++) v[k] = fv[k];
    }
    int distinct = 0;
    for (int k = 0; k < 35; k++) {
        if (type != C_INT) CHECK(v[k] >= 0 && v[k] <= bound, "randomized %g in [0, %g]", v[k], bound);
        if (k > 0 && v[k] != v[k - 1]) distinct++;
    }
    /* GA forms value * rand() in the array's type: for int the product
     * wraps, which leaves values near 0 (Debian's GA gives all zeros for
     * 1000), so only the other types must vary. */
    if (type != C_INT) CHECK(distinct > 10, "randomized values vary (%d changes)", distinct);
    if (me == 0) {
        printf("randomized type %d:", type);
        for (int k = 0; k < 35; k++) printf(" %.6g", v[k]);
        printf("\n");
    }
    GA_Destroy(g);
}

static void print_file(void) {
    int dims[2] = {3, 4};
    int g = NGA_Create(C_INT, 2, dims, "printed", NULL);
    int val = 42;
    GA_Fill(g, &val);
    char path[64];
    snprintf(path, sizeof path, "/tmp/ga_misc_calls.%d.txt", (int)getpid());
    FILE *f = me == 0 ? fopen(path, "w") : NULL;
    if (me == 0) CHECK(f != NULL, "fopen %s", path);
    GA_Print_file(f, g);
    if (me == 0 && f) {
        fclose(f);
        f = fopen(path, "r");
        char line[256];
        int lines = 0;
        printf("GA_Print_file wrote:\n");
        while (f && fgets(line, sizeof line, f)) {
            printf("| %s", line);
            lines++;
        }
        if (f) fclose(f);
        unlink(path);
        CHECK(lines >= 4, "GA_Print_file wrote %d lines", lines);
    }
    GA_Destroy(g);
}

/* An array of NGA_Create_irreg deallocated (as GA 5.8 allows): its
 * handle is no longer valid and no other array gets it; GA_Allocate makes
 * it again with its type, name and distribution, twice over. */
static void created_deallocate(void) {
    int n = 12, map[4] = {0, 1, 3, 6}, nb = np < 4 ? np : 4, lo, hi, before[8], after[8];
    int g = NGA_Create_irreg(C_DBL, 1, &n, "created", &nb, map);
    for (int p = 0; p < nb; p++) NGA_Distribution(g, p, &before[2 * p], &before[2 * p + 1]);
    CHECK_EQ(GA_Deallocate(g), 1, "GA_Deallocate of an NGA_Create array");
    CHECK_EQ(GA_Valid_handle(g), 0, "its handle after GA_Deallocate");
    CHECK_EQ(GA_Deallocate(g), 0, "GA_Deallocate again");
    int other = NGA_Create(C_INT, 1, &n, "other", NULL);
    CHECK(other != g, "a new array took the deallocated handle %d", g);
    for (int round = 0; round < 2; round++) {
        CHECK_EQ(GA_Allocate(g), 1, "GA_Allocate of the deallocated array");
        CHECK_EQ(GA_Valid_handle(g), 1, "its handle after GA_Allocate");
        int type, nd, dim;
        NGA_Inquire(g, &type, &nd, &dim);
        CHECK(type == C_DBL && nd == 1 && dim == n, "kept: type %d, %d dims, %d", type, nd, dim);
        CHECK(!strcmp(GA_Inquire_name(g), "created"), "name kept: %s", GA_Inquire_name(g));
        for (int p = 0; p < nb; p++) NGA_Distribution(g, p, &after[2 * p], &after[2 * p + 1]);
        CHECK(!memcmp(before, after, 2 * nb * sizeof(int)), "distribution kept");
        double v = 2.5 + round, got[12];
        GA_Fill(g, &v);
        lo = 0, hi = n - 1;
        NGA_Get(g, &lo, &hi, got, NULL);
        int bad = 0;
        for (int k = 0; k < n; k++) bad += got[k] != v;
        CHECK_EQ(bad, 0, "data of the reallocated array");
        if (me == 0) {
            printf("created, deallocated, allocated again: '%s' %g, blocks", GA_Inquire_name(g), got[n - 1]);
            for (int p = 0; p < nb; p++) printf(" %d:%d", after[2 * p], after[2 * p + 1]);
            printf("\n");
        }
        if (round == 0) CHECK_EQ(GA_Deallocate(g), 1, "GA_Deallocate of the reallocated array");
    }
    GA_Destroy(other);
    GA_Destroy(g);
}

static void deallocate(void) {
    int dims[2] = {6, 4}, lo[2] = {0, 0}, hi[2] = {5, 3}, ld[1] = {4}, buf[24];
    int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_INT);
    GA_Set_array_name(g, "again");
    CHECK_EQ(GA_Allocate(g), 1, "first GA_Allocate");
    int seven = 7, nine = 9;
    GA_Fill(g, &seven);
    CHECK_EQ(GA_Deallocate(g), 1, "GA_Deallocate of an allocated array");
    CHECK_EQ(NGA_Deallocate(g), 0, "NGA_Deallocate of a deallocated array");
    CHECK_EQ(NGA_Allocate(g), 1, "GA_Allocate after GA_Deallocate");
    GA_Fill(g, &nine);
    NGA_Get(g, lo, hi, buf, ld);
    for (int k = 0; k < 24; k++) CHECK_EQ(buf[k], 9, "value after the second allocation");
    char *name;
    int type, nd, d2[2];
    NGA_Inquire(g, &type, &nd, d2);
    name = GA_Inquire_name(g);
    CHECK_EQ(type, C_INT, "type kept");
    CHECK_EQ(d2[0] * 10 + d2[1], 64, "dims kept");
    if (me == 0) printf("reallocated '%s' %dx%d\n", name, d2[0], d2[1]);
    GA_Destroy(g);
    created_deallocate();
}

static int allocs;
static void *my_alloc(size_t n, int align, char *name) {
    (void)align;
    (void)name;
    allocs++;
    return malloc(n);
}
static void my_free(void *p) { free(p); }

static void stack_memory(void) {
    GA_Register_stack_memory(my_alloc, my_free);
    int dims[1] = {100};
    int g = NGA_Create(C_DBL, 1, dims, "after register", NULL);
    double one = 1.0;
    GA_Fill(g, &one);
    double dot = GA_Ddot(g, g);
    CHECK(dot == 100.0, "GA_Ddot after GA_Register_stack_memory: %g", dot);
    GA_Destroy(g);
}

static void tiled_irregular(void) {
    int dims[2] = {9, 7}, mapc[6] = {0, 2, 5, 6, 0, 3}, nblocks[2] = {4, 2};
    int grid[2] = {np >= 2 ? 2 : 1, np >= 4 ? 2 : 1};
    if (np == 3) grid[0] = 3;
    int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_INT);
    NGA_Set_tiled_irreg_proc_grid(g, mapc, nblocks, grid);
    CHECK_EQ(GA_Allocate(g), 1, "GA_Allocate of a tiled irregular array");
    int all[63], back[63], lo[2] = {0, 0}, hi[2] = {8, 6}, ld[1] = {7};
    for (int k = 0; k < 63; k++) all[k] = (k / 7) * 100 + k % 7;
    if (me == 0) NGA_Put(g, lo, hi, all, ld);
    GA_Sync();
    NGA_Get(g, lo, hi, back, ld);
    for (int k = 0; k < 63; k++) CHECK_EQ(back[k], all[k], "tiled irregular round trip");
    int plo[2] = {1, 2}, phi[2] = {6, 5}, part[24], pld[1] = {4};
    NGA_Get(g, plo, phi, part, pld);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 4; c++)
            CHECK_EQ(part[r * 4 + c], (r + 1) * 100 + c + 2, "tiled irregular patch");
    int pg[2];
    GA_Get_proc_grid(g, pg);
    if (me == 0) {
        printf("tiled irregular: proc grid %d %d\n", pg[0], pg[1]);
        int pts[5][2] = {{0, 0}, {1, 6}, {2, 3}, {5, 0}, {8, 6}};
        for (int k = 0; k < 5; k++) {
            int owner = NGA_Locate(g, pts[k]);
            printf("  (%d,%d) in block %d\n", pts[k][0], pts[k][1], owner);
        }
    }
    GA_Destroy(g);
}

/* GA_Overlay of a block-cyclic array (dealt in turn, then over a process
 * grid) and of a restricted one on a plain parent, and of a plain array on
 * a block-cyclic parent: each process's blocks lie end to end from the
 * start of its part of the parent, as in GA. */
static void overlays_cyclic_restricted(void) {
    const char *kinds[4] = {"block-cyclic", "block-cyclic grid", "restricted", "on block-cyclic"};
    for (int kind = 0; kind < 4; kind++) {
        int n = 12, pn = 40, bs = 2, pbs = 3, grid = np, list[4] = {np - 1, 0, 1, 2};
        double two = 2.0, v = 3.0 + kind, c[12], p[40];
        int parent = GA_Create_handle();
        GA_Set_data(parent, 1, &pn, C_DBL);
        if (kind == 3) GA_Set_block_cyclic(parent, &pbs);
        GA_Allocate(parent);
        GA_Fill(parent, &two);
        int child = GA_Create_handle();
        GA_Set_data(child, 1, &n, C_DBL);
        if (kind == 0) GA_Set_block_cyclic(child, &bs);
        if (kind == 1) GA_Set_block_cyclic_proc_grid(child, &bs, &grid);
        if (kind == 2) GA_Set_restricted(child, list, np > 1 ? np / 2 : 1);
        CHECK_EQ(GA_Overlay(child, parent), 1, kinds[kind]);
        GA_Fill(child, &v);
        GA_Sync();
        int lo = 0, hi = n - 1, plo = 0, phi = pn - 1, in_child = 0, in_parent = 0;
        NGA_Get(child, &lo, &hi, c, NULL);
        NGA_Get(parent, &plo, &phi, p, NULL);
        for (int k = 0; k < n; k++) in_child += c[k] == v;
        for (int k = 0; k < pn; k++) in_parent += p[k] == v;
        CHECK_EQ(in_child, n, "the overlay holds its values");
        CHECK_EQ(in_parent, n, "the overlay's elements lie in the parent");
        if (me == 0) {
            printf("%s overlay, parent:", kinds[kind]);
            for (int k = 0; k < pn; k++) printf(" %g", p[k]);
            printf("\n");
        }
        GA_Destroy(child);
        GA_Destroy(parent);
    }
}

static void overlays(void) {
    int pdims[1] = {40}, cdims[2] = {4, 5}, big[2] = {10, 10};
    int parent = NGA_Create(C_DBL, 1, pdims, "parent", NULL);
    double one5 = 1.5, seven = 7.0;
    GA_Fill(parent, &one5);
    int child = GA_Create_handle();
    GA_Set_data(child, 2, cdims, C_DBL);
    GA_Set_array_name(child, "child");
    CHECK_EQ(GA_Overlay(child, parent), 1, "GA_Overlay of a smaller array");
    GA_Fill(child, &seven);
    double p[40], c[20];
    int lo = 0, hi = 39, clo[2] = {0, 0}, chi[2] = {3, 4}, cld[1] = {5};
    NGA_Get(parent, &lo, &hi, p, NULL);
    NGA_Get(child, clo, chi, c, cld);
    int sevens = 0;
    for (int k = 0; k < 40; k++) sevens += p[k] == 7.0;
    for (int k = 0; k < 20; k++) CHECK(c[k] == 7.0, "overlay element %d: %g", k, c[k]);
    CHECK_EQ(sevens, 20, "the overlay's elements lie in the parent");
    if (me == 0) {
        printf("parent after filling its overlay:");
        for (int k = 0; k < 40; k++) printf(" %g", p[k]);
        printf("\n");
    }
    if (!debian) {
        int large = GA_Create_handle();
        GA_Set_data(large, 2, big, C_DBL);
        CHECK_EQ(NGA_Overlay(large, parent), 0, "GA_Overlay of an array larger than its parent");
        CHECK_EQ(GA_Allocate(large), 1, "GA_Allocate of the handle GA_Overlay refused");
        GA_Destroy(large);
    }
    GA_Destroy(child);
    GA_Destroy(parent);
    overlays_cyclic_restricted();
}

static void getmem(void) {
    double *m = GA_Getmem(C_DBL, 30, GA_Pgroup_get_world());
    CHECK(m != NULL, "GA_Getmem gives memory");
    if (!m) return;
    for (int k = 0; k < 30; k++) m[k] = me * 100 + k;
    int dims[1] = {30 * np};
    int shape = NGA_Create(C_DBL, 1, dims, "shape", NULL);
    int g = GA_Assemble_duplicate(shape, "assembled", m);
    CHECK(g != 0, "GA_Assemble_duplicate");
    double all[120];
    int lo = 0, hi = 30 * np - 1;
    NGA_Get(g, &lo, &hi, all, NULL);
    for (int k = 0; k < 30 * np; k++)
        CHECK(all[k] == (k / 30) * 100 + k % 30, "assembled element %d: %g", k, all[k]);
    double ten = 10.0;
    GA_Fill(g, &ten);
    CHECK(m[0] == 10.0 && m[29] == 10.0, "GA_Fill of the assembled array reaches the memory");
    if (me == 0) printf("assembled: %g %g %g\n", all[0], all[29], all[30 * np - 1]);
    if (!debian) {
        GA_Destroy(g);
        GA_Freemem(m);
    }
    GA_Destroy(shape);
}

int main(int argc, char **argv) {
    me = start_ga(&argc, &argv, &np, 0);
    debian = argc > 1 && !strcmp(argv[1], "debian");
    gops();
    double dv = 10.0;
    float fv = 2.5f;
    int iv = 1000;
    long lv = 1000;
    randomized(C_DBL, &dv, 10.0, 0);
    randomized(C_FLOAT, &fv, 2.5, 1);
    randomized(C_INT, &iv, 1000, 0);
    randomized(C_LONG, &lv, 1000, 1);
    print_file();
    deallocate();
    stack_memory();
    tiled_irregular();
    overlays();
    getmem();
    return finish_ga("ga_misc_calls", me);
}
