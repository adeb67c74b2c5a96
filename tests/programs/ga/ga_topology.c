/* Global Arrays C API: the process-grid queries GA_Get_proc_grid (and
 * NGA_Get_proc_grid), NGA_Proc_topology and GA_Get_proc_index (and
 * NGA_Get_proc_index) on regular 2- and 3-D arrays and on
 * ScaLAPACK-style block-cyclic arrays with row, column and square process
 * grids. Each rank checks that the grid holds exactly the processes that
 * own data, that the owners' places in it are distinct and agree with
 * NGA_Distribution (owners in the same grid row or column start their
 * blocks at the same index), and that GA_Get_proc_index is the topology in
 * C order; rank 0 prints every grid and place, including one process past
 * the grid, then "ga_topology: N passed, M failed".
 *
 * Arguments: "bad NAME" makes one bad call that must end the job naming
 * the call (Debian's GA divides by zero on "cyclic"). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

static int me, np;

/* Checks and prints the grid of g (nd dimensions); `pgrid` tells whether
 * it is a ScaLAPACK-style proc grid (GA_Get_proc_index applies). */
static void grid_of(int g, int nd, int pgrid, const char *name) {
    int grid[3], grid2[3], coord[4][3], lo[4][3], hi[4][3], owners = 0, cells = 1;
    GA_Get_proc_grid(g, grid);
    NGA_Get_proc_grid(g, grid2);
    for (int d = 0; d < nd; d++) {
        CHECK_EQ(grid2[d], grid[d], "NGA_Get_proc_grid");
        cells *= grid[d];
    }
    if (me == 0) {
        printf("%s grid:", name);
        for (int d = 0; d < nd; d++) printf(" %d", grid[d]);
        printf("\n");
    }
    for (int p = 0; p <= np; p++) {
        int c[3], idx[3] = {-1, -1, -1};
        NGA_Proc_topology(g, p, c);
        for (int d = 0; d < nd; d++)
            CHECK(c[d] >= 0 && c[d] < grid[d], "%s p%d: coordinate %d out of the grid", name, p, d);
        if (pgrid) {
            GA_Get_proc_index(g, p, idx);
            int idx2[3];
            NGA_Get_proc_index(g, p, idx2);
            for (int d = 0; d < nd; d++) {
                CHECK_EQ(idx[d], c[nd - 1 - d], "GA_Get_proc_index is the topology in C order");
                CHECK_EQ(idx2[d], idx[d], "NGA_Get_proc_index");
            }
        }
        if (me == 0) {
            printf("  p%d:", p);
            for (int d = 0; d < nd; d++) printf(" %d", c[d]);
            if (pgrid) {
                printf(" index");
                for (int d = 0; d < nd; d++) printf(" %d", idx[d]);
            }
            printf("\n");
        }
        if (p == np || pgrid) continue;
        int l[3], h[3];
        NGA_Distribution(g, p, l, h);
        if (h[0] < l[0]) continue;
        for (int d = 0; d < nd; d++) {
            coord[owners][d] = c[d];
            lo[owners][d] = l[d];
            hi[owners][d] = h[d];
        }
        owners++;
    }
    if (pgrid) {
        CHECK_EQ(cells, np, "a proc grid holds every process");
        return;
    }
    CHECK_EQ(cells, owners, "the grid holds the processes that own data");
    for (int a = 0; a < owners; a++)
        for (int b = a + 1; b < owners; b++) {
            int same = 1;
            for (int d = 0; d < nd; d++) {
                /* Fortran-order coordinate d places C dimension nd-1-d. */
                int cd = nd - 1 - d;
                same &= coord[a][d] == coord[b][d];
                if (coord[a][d] == coord[b][d])
                    CHECK(lo[a][cd] == lo[b][cd] && hi[a][cd] == hi[b][cd],
                          "%s: owners %d and %d share coordinate %d but not the block's rows", name,
                          a, b, d);
                else
                    CHECK(lo[a][cd] != lo[b][cd], "%s: owners %d and %d differ in coordinate %d", name,
                          a, b, d);
            }
            CHECK(!same, "%s: owners %d and %d have the same place", name, a, b);
        }
}

static int cyclic(int *dims, int rows, int cols) {
    int g = GA_Create_handle(), block[2] = {3, 4}, grid[2] = {rows, cols};
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_block_cyclic_proc_grid(g, block, grid);
    GA_Allocate(g);
    return g;
}

static void bad(const char *what) {
    int dims[2] = {12, 10}, out[2], block[2] = {3, 4};
    int g = NGA_Create(C_DBL, 2, dims, "regular", NULL);
    int c = GA_Create_handle();
    GA_Set_data(c, 2, dims, C_DBL);
    GA_Set_block_cyclic(c, block);
    GA_Allocate(c);
    if (!strcmp(what, "index")) GA_Get_proc_index(g, 0, out);
    else if (!strcmp(what, "cyclic")) NGA_Proc_topology(c, 0, out);
    else if (!strcmp(what, "negative")) NGA_Proc_topology(g, -1, out);
    if (me == 0) printf("the bad call returned\n");
}

int main(int argc, char **argv) {
    me = start_ga(&argc, &argv, &np, 100000);
    if (argc > 2 && !strcmp(argv[1], "bad")) {
        bad(argv[2]);
        return finish_ga("ga_topology", me);
    }
    int d2[2] = {10, 12}, wide[2] = {3, 20}, d3[3] = {4, 6, 8};
    int g[8], n = 0;
    g[n++] = NGA_Create(C_DBL, 2, d2, "matrix", NULL);
    grid_of(g[n - 1], 2, 0, "matrix");
    g[n++] = NGA_Create(C_INT, 2, wide, "wide", NULL);
    grid_of(g[n - 1], 2, 0, "wide");
    g[n++] = NGA_Create(C_INT, 3, d3, "cube", NULL);
    grid_of(g[n - 1], 3, 0, "cube");
    g[n++] = cyclic(d2, np, 1);
    grid_of(g[n - 1], 2, 1, "rows");
    g[n++] = cyclic(d2, 1, np);
    grid_of(g[n - 1], 2, 1, "columns");
    if (np == 4) {
        g[n++] = cyclic(d2, 2, 2);
        grid_of(g[n - 1], 2, 1, "square");
    }
    for (int i = 0; i < n; i++) GA_Destroy(g[i]);
    return finish_ga("ga_topology", me);
}
