/* NGA_NbGet_ghost_dir: a 2-D int array with ghost widths {1, 2}; for each
 * direction mask, every rank blanks its whole ghost frame to -1, fetches
 * the part the mask names, waits, and checks every cell of the frame: in
 * the named part, the periodic image of the element it stands for; outside
 * it, still -1. The 64-bit variant runs on every mask too. Prints
 * "ga_ghost_dir: N passed, M failed" on rank 0.
 *
 * Debian's GA 5.8 cannot serve as a reference here: its C wrapper turns
 * the mask into Fortran indices (adding 1 to each entry), so a valid mask
 * such as {1, 0} ends with "invalid mask entry". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_record.h"

#define ROWS 8
#define COLS 10
#define NMASK 6
#define NV (2 * NMASK)

/* Blanks the frame around the block proper and returns the framed extents. */
static int *blank_frame(int g, int gd[2], int gld[1], const int w[2]) {
    int *p;
    NGA_Access_ghosts(g, gd, &p, gld);
    for (int i = 0; i < gd[0]; i++)
        for (int j = 0; j < gd[1]; j++) {
            int inner = i >= w[0] && i < gd[0] - w[0] && j >= w[1] && j < gd[1] - w[1];
            if (!inner) p[i * gld[0] + j] = -1;
        }
    return p;
}

/* Which side of the block proper framed index i lies on: -1, 0 or +1. */
static int side(int i, int extent, int w) { return i < w ? -1 : i >= extent - w ? 1 : 0; }

/* Frame cells that hold a wrong value for `mask`; counts the filled ones. */
static int wrong_cells(const int *p, const int gd[2], const int gld[1], const int w[2],
                       const int lo[2], const int mask[2], long *filled) {
    int bad = 0;
    *filled = 0;
    for (int i = 0; i < gd[0]; i++)
        for (int j = 0; j < gd[1]; j++) {
            int si = side(i, gd[0], w[0]), sj = side(j, gd[1], w[1]);
            if (si == 0 && sj == 0) continue;
            int gi = ((lo[0] - w[0] + i) % ROWS + ROWS) % ROWS;
            int gj = ((lo[1] - w[1] + j) % COLS + COLS) % COLS;
            int want = (si == mask[0] && sj == mask[1]) ? gi * 100 + gj : -1;
            int v = p[i * gld[0] + j];
            if (v != -1) (*filled)++;
            if (v != want) bad++;
        }
    return bad;
}

int main(int argc, char **argv) {
    int np, me = start_ga_record(&argc, &argv, &np);
    long v[8][NV] = {{0}};
    long *mine = v[me];
    int k = 0;

    int dims[2] = {ROWS, COLS}, width[2] = {1, 2};
    int g = NGA_Create_ghosts(C_INT, 2, dims, width, "dir", NULL);
    CHECK(g != 0, "NGA_Create_ghosts");
    int lo[2], hi[2];
    NGA_Distribution(g, me, lo, hi);
    if (lo[0] >= 0) {
        int gd[2], gld[1];
        int *p = blank_frame(g, gd, gld, width);
        for (int i = lo[0]; i <= hi[0]; i++)
            for (int j = lo[1]; j <= hi[1]; j++)
                p[(i - lo[0] + width[0]) * gld[0] + (j - lo[1] + width[1])] = i * 100 + j;
    }
    GA_Sync();

    int masks[NMASK][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}};
    for (int m = 0; m < NMASK && lo[0] >= 0; m++) {
        for (int wide = 0; wide < 2; wide++) {
            int gd[2], gld[1];
            int *p = blank_frame(g, gd, gld, width);
            ga_nbhdl_t h;
            if (wide) {
                int64_t m64[2] = {masks[m][0], masks[m][1]};
                NGA_NbGet_ghost_dir64(g, m64, &h);
            } else {
                NGA_NbGet_ghost_dir(g, masks[m], &h);
            }
            NGA_NbWait(&h);
            long filled = 0;
            int bad = wrong_cells(p, gd, gld, width, lo, masks[m], &filled);
            CHECK(bad == 0, "mask {%d,%d}%s: %d wrong frame cells", masks[m][0], masks[m][1],
                  wide ? " (64-bit)" : "", bad);
            long want = (long)(masks[m][0] ? width[0] : gd[0] - 2 * width[0]) *
                        (masks[m][1] ? width[1] : gd[1] - 2 * width[1]);
            CHECK_EQ(filled, want, "cells filled by one direction");
            mine[k++] = filled;
        }
    }
    GA_Sync();
    GA_Destroy(g);
    return finish_ga_record("ga_ghost_dir", &v[0][0], NV, k, me, np);
}
