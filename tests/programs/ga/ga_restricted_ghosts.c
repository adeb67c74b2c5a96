/* Global Arrays C API: restricted arrays with ghost cells. GA_Set_ghosts
 * and GA_Set_restricted (every process listed, in reverse order, or
 * rotated by one) between GA_Create_handle and GA_Allocate give each
 * listed process the block of its place in the list, framed by ghost
 * cells. After GA_Update_ghosts every rank checks its whole frame
 * (corners included, periodic images) through NGA_Access_ghosts, and
 * after NGA_Update_ghost_dir the one side it names; rank 0 prints what
 * NGA_Distribution gives for every process and a digest of every rank's
 * frame. GA 5.8 cannot allocate the ghost update of a list that leaves a
 * process out, so every process is listed. Prints
 * "ga_restricted_ghosts: N passed, M failed" on rank 0.
 *
 * With the argument "partial" it only tries to allocate an array with
 * ghost cells restricted to all processes but the last (for the error
 * test) and prints what GA_Allocate returned. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 10
#define C 12
static int me, np;

static double value(int i, int j) { return 100 * i + j + 1; }

static int wrap(int i, int n) { return ((i % n) + n) % n; }

/* Checks this rank's frame against the periodic image of the array:
 * the block's own range and, where `all` or the cell lies on the side
 * `dim`/`side` names, the ghost cells. Returns the frame's digest. */
static double check_frame(int g, const int *w, int all, int dim, int side, const char *what) {
    int lo[2], hi[2];
    NGA_Distribution(g, me, lo, hi);
    if (lo[0] > hi[0] || lo[1] > hi[1]) return 0;
    double *p;
    int gdims[2], ld[1];
    NGA_Access_ghosts(g, gdims, (void *)&p, ld);
    CHECK(gdims[0] == hi[0] - lo[0] + 1 + 2 * w[0] && gdims[1] == hi[1] - lo[1] + 1 + 2 * w[1],
          "%s: framed extents %d x %d", what, gdims[0], gdims[1]);
    int bad = 0;
    double sum = 0;
    for (int a = 0; a < gdims[0]; a++)
        for (int b = 0; b < gdims[1]; b++) {
            int i = lo[0] - w[0] + a, j = lo[1] - w[1] + b;
            int out0 = i < lo[0] ? -1 : i > hi[0] ? 1 : 0;
            int out1 = j < lo[1] ? -1 : j > hi[1] ? 1 : 0;
            int inside = out0 == 0 && out1 == 0;
            int named = dim == 0 ? out0 == side && out1 == 0 : out1 == side && out0 == 0;
            double got = p[a * ld[0] + b];
            if (inside || all || named) {
                bad += got != value(wrap(i, R), wrap(j, C));
                sum += got * (1 + (a * gdims[1] + b) % 13);
            }
        }
    NGA_Release_ghosts(g);
    CHECK(bad == 0, "%s: %d frame cells differ", what, bad);
    return sum;
}

/* Rank 0 prints every rank's digest. */
static void print_digests(double mine, const char *what) {
    double *all = calloc((size_t)np, sizeof(double));
    all[me] = mine;
    GA_Dgop(all, np, "+");
    if (me == 0)
        for (int p = 0; p < np; p++) printf("%s frame %d: %.1f\n", what, p, all[p]);
    free(all);
}

static void one(const char *label, const int *list, const int *w) {
    int dims[2] = {R, C};
    int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_array_name(g, (char *)label);
    GA_Set_ghosts(g, (int *)w);
    GA_Set_restricted(g, (int *)list, np);
    EXPECT(GA_Allocate(g), 1);
    EXPECT(GA_Has_ghosts(g), 1);
    for (int p = 0; p < np; p++) {
        int lo[2], hi[2];
        NGA_Distribution(g, p, lo, hi);
        if (me == 0)
            printf("%s distribution %d: [%d:%d, %d:%d]\n", label, p, lo[0], hi[0], lo[1], hi[1]);
    }
    /* Rank 0 writes the whole array. */
    if (me == 0) {
        static double buf[R * C];
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) buf[i * C + j] = value(i, j);
        int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
        NGA_Put(g, lo, hi, buf, &ld);
    }
    GA_Sync();
    /* One side first: the high side of the last axis (GA's dimension 0),
     * without corners. */
    EXPECT(NGA_Update_ghost_dir(g, 0, 1, 0), 1);
    GA_Sync();
    print_digests(check_frame(g, w, 0, 1, 1, label), label);
    GA_Update_ghosts(g);
    GA_Sync();
    print_digests(check_frame(g, w, 1, 0, 0, label), label);
    GA_Destroy(g);
}

int main(int argc, char **argv) {
    me = start_ga(&argc, &argv, &np, 100000);
    int *rev = malloc(sizeof(int) * (size_t)np), *rot = malloc(sizeof(int) * (size_t)np);
    for (int k = 0; k < np; k++) {
        rev[k] = np - 1 - k;
        rot[k] = (k + 1) % np;
    }
    int w1[2] = {1, 1}, w2[2] = {2, 1};
    if (argc > 1) {
        int dims[2] = {R, C}, g = GA_Create_handle();
        GA_Set_data(g, 2, dims, C_DBL);
        GA_Set_ghosts(g, w1);
        GA_Set_array_name(g, "partial");
        GA_Set_restricted(g, rev, np - 1);
        printf("partial allocate returned %d\n", GA_Allocate(g));
        free(rev);
        free(rot);
        return finish_ga("ga_restricted_ghosts", me);
    }
    one("reversed", rev, w1);
    one("rotated", rot, w2);
    free(rev);
    free(rot);
    return finish_ga("ga_restricted_ghosts", me);
}
