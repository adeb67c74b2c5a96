/* Ghost cells and periodic transfers: NGA_Create_ghosts, GA_Update_ghosts
 * (corners included), NGA_Update_ghost_dir on each side of each dimension
 * with and without corners, NGA_Access_ghosts and NGA_Access_ghost_element,
 * NGA_Get_ghost_block, GA_Has_ghosts, writes through the ghost pointer seen
 * by other ranks, NGA_Periodic_get/put/acc wrapping around both ends
 * of both dimensions, and the GA_Set_ghosts/GA_Allocate route with
 * NGA_Update_ghosts_nb. Every rank checks against the periodic image of a
 * serial model; rank 0 prints per-rank digests (gathered), so the harness
 * can compare with Debian's GA running this source. Prints
 * "ga_ghosts: N passed, M failed" on rank 0 (checks of all ranks). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

static int me, np;

static int wrapi(int x, int n) { return ((x % n) + n) % n; }

/* Block counts per dimension for np ranks, so that both GA builds lay the
 * arrays out alike (their default blockings differ): the first entry for
 * 2-D arrays, the second for 3-D. */
static void blocking(int nd, int *nblock, int *map, const int *dims) {
    static const int b2[5][2] = {{1, 1}, {1, 1}, {2, 1}, {3, 1}, {2, 2}};
    static const int b3[5][3] = {{1, 1, 1}, {1, 1, 1}, {2, 1, 1}, {1, 3, 1}, {2, 1, 2}};
    int m = 0;
    for (int d = 0; d < nd; d++) {
        nblock[d] = nd == 2 ? b2[np][d] : b3[np][d];
        for (int b = 0; b < nblock[d]; b++) map[m++] = b * dims[d] / nblock[d];
    }
}

static double f2(int i, int j) { return 100.0 * i + j + 0.25; }
static double f3(int i, int j, int k) { return 10000.0 * i + 100.0 * j + k; }

/* Rank 0 prints one value per rank, gathered with a sum. */
static void per_rank(const char *what, double mine) {
    double v[8] = {0};
    v[me] = mine;
    GA_Dgop(v, np, "+");
    if (me == 0) {
        printf("%-26s", what);
        for (int p = 0; p < np; p++) printf(" %.2f", v[p]);
        printf("\n");
    }
}

#define R 12
#define C 10

static void two_d(void) {
    int dims[2] = {R, C}, width[2] = {2, 1};
    int nblock[2], map[8];
    blocking(2, nblock, map, dims);
    int g = NGA_Create_ghosts_irreg(C_DBL, 2, dims, width, "ghosts2", nblock, map);
    CHECK(g != 0, "NGA_Create_ghosts_irreg");
    int reg = NGA_Create_ghosts(C_DBL, 2, dims, width, "regular", NULL);
    CHECK(reg != 0 && GA_Has_ghosts(reg) == 1, "NGA_Create_ghosts");
    GA_Destroy(reg);
    CHECK(GA_Has_ghosts(g) == 1, "GA_Has_ghosts on a ghost array");
    int plain = NGA_Create(C_DBL, 2, dims, "plain", NULL);
    CHECK(GA_Has_ghosts(plain) == 0, "GA_Has_ghosts on a plain array");
    GA_Destroy(plain);

    static double all[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) all[i][j] = f2(i, j);
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld[1] = {C};
    if (me == 0) NGA_Put(g, lo, hi, all, ld);
    GA_Sync();
    GA_Update_ghosts(g);

    int blo[2], bhi[2];
    NGA_Distribution(g, me, blo, bhi);
    double *p = NULL;
    int gdims[2], gld[1];
    NGA_Access_ghosts(g, gdims, &p, gld);
    CHECK(gdims[0] == bhi[0] - blo[0] + 1 + 4 && gdims[1] == bhi[1] - blo[1] + 1 + 2,
          "NGA_Access_ghosts dims %d x %d", gdims[0], gdims[1]);
    CHECK(gld[0] == gdims[1], "NGA_Access_ghosts ld %d", gld[0]);
    int bad = 0;
    double sum = 0;
    for (int a = 0; a < gdims[0]; a++)
        for (int b = 0; b < gdims[1]; b++) {
            int i = wrapi(blo[0] - 2 + a, R), j = wrapi(blo[1] - 1 + b, C);
            double v = p[a * gld[0] + b];
            bad += v != f2(i, j);
            sum += v * (1 + a * gdims[1] + b);
        }
    CHECK(bad == 0, "GA_Update_ghosts: %d framed cells wrong", bad);
    per_rank("2d framed after update", sum);

    /* One element of the frame by its framed subscript: the low corner. */
    int sub[2] = {0, 0};
    double *e = NULL;
    int eld[1];
    NGA_Access_ghost_element(g, &e, sub, eld);
    /* (Debian's GA does not fill ld here.) */
    CHECK(e == p, "NGA_Access_ghost_element(0,0) is the frame's corner");
    NGA_Release_ghost_element(g, sub);
    int sub2[2] = {1, 2};
    NGA_Access_ghost_element(g, &e, sub2, eld);
    CHECK(e == p + gld[0] + 2, "NGA_Access_ghost_element(1,2)");
    NGA_Release_update_ghost_element(g, sub2);

    /* A patch reaching one cell into the frame, from local memory. */
    int glo[2] = {blo[0] - 1, blo[1] - 1}, ghi[2] = {blo[0] + 1, blo[1] + 1}, bld[1] = {3};
    double blk[3][3];
    NGA_Get_ghost_block(g, glo, ghi, blk, bld);
    bad = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) bad += blk[a][b] != f2(wrapi(glo[0] + a, R), wrapi(glo[1] + b, C));
    CHECK(bad == 0, "NGA_Get_ghost_block: %d wrong", bad);
    NGA_Release_ghosts(g);

    /* Writes through the ghost pointer land in the array itself. */
    for (int a = 0; a < gdims[0] - 4; a++)
        for (int b = 0; b < gdims[1] - 2; b++)
            p[(a + 2) * gld[0] + b + 1] = -f2(blo[0] + a, blo[1] + b);
    NGA_Release_update_ghosts(g);
    GA_Sync();
    static double back[R][C];
    NGA_Get(g, lo, hi, back, ld);
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) bad += back[i][j] != -f2(i, j);
    CHECK(bad == 0, "writes through NGA_Access_ghosts: %d elements not seen", bad);
    GA_Sync();
    GA_Destroy(g);
}

#define X 8
#define Y 9
#define Z 10

/* NGA_Update_ghost_dir on a 3-D array: frame reset to -1, one side
 * updated, then every framed cell checked: updated ones hold the periodic
 * image, the rest still -1. `dimension` counts as GA counts it. */
static void ghost_dir(void) {
    int dims[3] = {X, Y, Z}, width[3] = {1, 2, 1};
    int nblock[3], map[8];
    blocking(3, nblock, map, dims);
    int g = NGA_Create_ghosts_irreg(C_DBL, 3, dims, width, "ghosts3", nblock, map);
    CHECK(g != 0, "NGA_Create_ghosts_irreg 3-D");
    static double all[X][Y][Z];
    for (int i = 0; i < X; i++)
        for (int j = 0; j < Y; j++)
            for (int k = 0; k < Z; k++) all[i][j][k] = f3(i, j, k);
    int lo[3] = {0, 0, 0}, hi[3] = {X - 1, Y - 1, Z - 1}, ld[2] = {Y, Z};
    if (me == 0) NGA_Put(g, lo, hi, all, ld);
    GA_Sync();
    int blo[3], bhi[3], gd[3], gld[2];
    NGA_Distribution(g, me, blo, bhi);
    double *p = NULL;
    NGA_Access_ghosts(g, gd, &p, gld);
    for (int dimension = 0; dimension < 3; dimension++)
        for (int dir = -1; dir <= 1; dir += 2)
            for (int flag = 0; flag <= 1; flag++) {
                /* Reset the frame (not the block). */
                for (int a = 0; a < gd[0]; a++)
                    for (int b = 0; b < gd[1]; b++)
                        for (int c = 0; c < gd[2]; c++) {
                            int inside = a >= width[0] && a < gd[0] - width[0] && b >= width[1] &&
                                         b < gd[1] - width[1] && c >= width[2] && c < gd[2] - width[2];
                            if (!inside) p[(a * gd[1] + b) * gd[2] + c] = -1.0;
                        }
                GA_Sync();
                int st = NGA_Update_ghost_dir(g, dimension, dir, flag);
                CHECK(st == 1, "NGA_Update_ghost_dir returned %d", st);
                int bad = 0, updated = 0;
                double sum = 0;
                for (int a = 0; a < gd[0]; a++)
                    for (int b = 0; b < gd[1]; b++)
                        for (int c = 0; c < gd[2]; c++) {
                            int pos[3] = {a, b, c}, side[3];
                            for (int d = 0; d < 3; d++)
                                side[d] = pos[d] < width[d] ? -1 : pos[d] >= gd[d] - width[d] ? 1 : 0;
                            if (side[0] == 0 && side[1] == 0 && side[2] == 0) continue;
                            /* GA's `dimension` counts from the last C axis. */
                            int axis = 2 - dimension, want_upd = side[axis] == dir;
                            for (int d = 0; d < 3; d++)
                                if (d != axis && side[d] != 0 && !flag) want_upd = 0;
                            double v = p[(a * gd[1] + b) * gd[2] + c];
                            double img = f3(wrapi(blo[0] - width[0] + a, X),
                                            wrapi(blo[1] - width[1] + b, Y),
                                            wrapi(blo[2] - width[2] + c, Z));
                            bad += want_upd ? v != img : v != -1.0;
                            updated += v != -1.0;
                            sum += (v == -1.0 ? 0 : v) * (1 + (a * gd[1] + b) * gd[2] + c);
                        }
                CHECK(bad == 0, "NGA_Update_ghost_dir(%d, %d, %d): %d cells wrong", dimension, dir,
                      flag, bad);
                CHECK(updated > 0, "NGA_Update_ghost_dir(%d, %d, %d) updated nothing", dimension,
                      dir, flag);
                char what[40];
                snprintf(what, sizeof what, "3d dir %d %+d %d", dimension, dir, flag);
                per_rank(what, sum);
            }
    NGA_Release_ghosts(g);
    GA_Sync();
    GA_Destroy(g);
}

#define PR 7
#define PC 11

static void periodic(void) {
    int dims[2] = {PR, PC};
    int g = NGA_Create(C_INT, 2, dims, "periodic", NULL);
    CHECK(g != 0, "NGA_Create for periodic transfers");
    int model[PR][PC];
    for (int i = 0; i < PR; i++)
        for (int j = 0; j < PC; j++) model[i][j] = 1000 * i + j;
    int lo[2] = {0, 0}, hi[2] = {PR - 1, PC - 1}, ld[1] = {PC};
    if (me == 0) NGA_Put(g, lo, hi, model, ld);
    GA_Sync();
    /* Get across both low edges and the high end of the columns. */
    int glo[2] = {-2, 8}, ghi[2] = {3, 14}, gld[1] = {9};
    int got[6][9];
    memset(got, 0xff, sizeof got);
    NGA_Periodic_get(g, glo, ghi, got, gld);
    int bad = 0;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 7; b++) bad += got[a][b] != model[wrapi(-2 + a, PR)][wrapi(8 + b, PC)];
    CHECK(bad == 0, "NGA_Periodic_get: %d wrong", bad);
    bad = 0;
    for (int a = 0; a < 6; a++)
        for (int b = 7; b < 9; b++) bad += got[a][b] != -1;
    CHECK(bad == 0, "NGA_Periodic_get wrote %d padding elements", bad);
    GA_Sync();
    /* Put by the last rank across the high row edge and low column edge. */
    int plo[2] = {5, -3}, phi[2] = {8, 1}, pld[1] = {5};
    int pv[4][5];
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 5; b++) pv[a][b] = -(10 * a + b + 1);
    if (me == np - 1) NGA_Periodic_put(g, plo, phi, pv, pld);
    GA_Sync();
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 5; b++) model[wrapi(5 + a, PR)][wrapi(-3 + b, PC)] = pv[a][b];
    /* Accumulate from every rank, wrapping at the top and the right. */
    int alo[2] = {6, 9}, ahi[2] = {7, 12}, ald[1] = {4}, alpha = 2;
    int av[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    NGA_Periodic_acc(g, alo, ahi, av, ald, &alpha);
    GA_Sync();
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 4; b++) model[wrapi(6 + a, PR)][wrapi(9 + b, PC)] += 2 * np * av[a][b];
    int all[PR][PC];
    NGA_Get(g, lo, hi, all, ld);
    bad = 0;
    long s = 0;
    for (int i = 0; i < PR; i++)
        for (int j = 0; j < PC; j++) {
            bad += all[i][j] != model[i][j];
            s += (long)all[i][j] * (1 + i * PC + j);
        }
    CHECK(bad == 0, "NGA_Periodic_put/acc: %d elements differ", bad);
    if (me == 0) printf("%-26s %ld\n", "periodic after put/acc", s);
    GA_Destroy(g);
}

/* The handle route: GA_Create_handle, GA_Set_data, GA_Set_ghosts,
 * GA_Allocate; then NGA_Update_ghosts_nb and NGA_NbWait. Checked only (the
 * default blocking differs between GA builds). */
static void handle_route(void) {
    int g = GA_Create_handle();
    int dims[2] = {9, 7}, width[2] = {1, 2};
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_ghosts(g, width);
    CHECK(GA_Allocate(g) == 1, "GA_Allocate with ghosts");
    CHECK(GA_Has_ghosts(g) == 1, "GA_Has_ghosts after GA_Set_ghosts");
    double all[9][7];
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 7; j++) all[i][j] = f2(i, j);
    int lo[2] = {0, 0}, hi[2] = {8, 6}, ld[1] = {7};
    if (me == 0) NGA_Put(g, lo, hi, all, ld);
    GA_Sync();
    ga_nbhdl_t nb;
    NGA_Update_ghosts_nb(g, &nb);
    NGA_NbWait(&nb);
    GA_Sync();
    int blo[2], bhi[2], gd[2], gld[1];
    NGA_Distribution(g, me, blo, bhi);
    double *p = NULL;
    NGA_Access_ghosts(g, gd, &p, gld);
    int bad = 0;
    for (int a = 0; a < gd[0]; a++)
        for (int b = 0; b < gd[1]; b++)
            bad += p[a * gld[0] + b] != f2(wrapi(blo[0] - 1 + a, 9), wrapi(blo[1] - 2 + b, 7));
    CHECK(bad == 0, "NGA_Update_ghosts_nb: %d framed cells wrong", bad);
    NGA_Release_ghosts(g);
    GA_Sync();
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    /* Debian's GA takes its ghost-update buffers from MA. */
    me = start_ga(&argc, &argv, &np, 200000);
    two_d();
    ghost_dir();
    periodic();
    handle_route();
    return finish_ga("ga_ghosts", me);
}
