/* Global Arrays C API: the default block distribution. Arrays of 1 to 4
 * dimensions (extents smaller than the rank count, primes, long and flat
 * shapes) are made with NGA_Create, with and without chunk hints (-1 and 0
 * entries, hints larger than the extent), and a few through
 * NGA_Create64 and GA_Create_handle/GA_Set_chunk/GA_Allocate. Rank 0
 * prints each array's process grid and every process's block as
 * NGA_Distribution gives it; every rank checks that the blocks cover the
 * array exactly once, that NGA_Locate names the owner of each block's
 * corners and that its own block is what rank 0 sees. Then
 * "ga_distribution: N passed, M failed". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define MAXD 4
#define NO_HINT 99 /* a case's chunk list starts with this: no chunk */

static int me, np;

struct shape {
    int nd;
    int dims[MAXD];
    int chunk[MAXD];
};

static const struct shape shapes[] = {
    /* 1-D */
    {1, {1}, {NO_HINT}}, {1, {2}, {NO_HINT}}, {1, {3}, {NO_HINT}}, {1, {4}, {NO_HINT}},
    {1, {5}, {NO_HINT}}, {1, {7}, {NO_HINT}}, {1, {10}, {NO_HINT}}, {1, {13}, {NO_HINT}},
    {1, {17}, {NO_HINT}}, {1, {64}, {NO_HINT}}, {1, {100}, {NO_HINT}}, {1, {1001}, {NO_HINT}},
    /* 2-D */
    {2, {1, 1}, {NO_HINT}}, {2, {1, 7}, {NO_HINT}}, {2, {7, 1}, {NO_HINT}},
    {2, {2, 2}, {NO_HINT}}, {2, {3, 3}, {NO_HINT}}, {2, {5, 3}, {NO_HINT}},
    {2, {3, 5}, {NO_HINT}}, {2, {7, 3}, {NO_HINT}}, {2, {12, 10}, {NO_HINT}},
    {2, {10, 12}, {NO_HINT}}, {2, {13, 17}, {NO_HINT}}, {2, {17, 13}, {NO_HINT}},
    {2, {100, 100}, {NO_HINT}}, {2, {64, 1}, {NO_HINT}}, {2, {1, 64}, {NO_HINT}},
    {2, {2, 100}, {NO_HINT}}, {2, {100, 2}, {NO_HINT}}, {2, {6, 4}, {NO_HINT}},
    {2, {4, 6}, {NO_HINT}}, {2, {9, 9}, {NO_HINT}}, {2, {1000, 3}, {NO_HINT}},
    {2, {3, 1000}, {NO_HINT}}, {2, {11, 2}, {NO_HINT}},
    /* 3-D and 4-D */
    {3, {1, 1, 1}, {NO_HINT}}, {3, {2, 2, 2}, {NO_HINT}}, {3, {4, 4, 4}, {NO_HINT}},
    {3, {2, 3, 5}, {NO_HINT}}, {3, {5, 3, 2}, {NO_HINT}}, {3, {7, 1, 3}, {NO_HINT}},
    {3, {10, 20, 30}, {NO_HINT}}, {3, {30, 20, 10}, {NO_HINT}}, {3, {3, 3, 3}, {NO_HINT}},
    {3, {1, 8, 1}, {NO_HINT}}, {3, {16, 1, 1}, {NO_HINT}}, {3, {6, 6, 6}, {NO_HINT}},
    {3, {2, 1, 2}, {NO_HINT}}, {4, {2, 3, 4, 5}, {NO_HINT}}, {4, {1, 2, 1, 3}, {NO_HINT}},
    /* chunk hints */
    {1, {10}, {2}}, {1, {100}, {10}}, {1, {7}, {1}}, {1, {100}, {50}},
    {1, {100}, {200}}, {1, {9}, {-1}}, {1, {3}, {3}}, {1, {13}, {4}},
    {2, {12, 10}, {-1, 5}}, {2, {12, 10}, {5, -1}}, {2, {12, 10}, {3, 0}},
    {2, {12, 10}, {0, 3}}, {2, {12, 10}, {12, -1}}, {2, {12, 10}, {-1, 10}},
    {2, {12, 10}, {2, 2}}, {2, {12, 10}, {1, 1}}, {2, {12, 10}, {6, 5}},
    {2, {12, 10}, {100, 100}}, {2, {100, 100}, {10, 10}}, {2, {100, 100}, {-1, -1}},
    {2, {100, 100}, {50, -1}}, {2, {7, 3}, {-1, 1}}, {2, {7, 3}, {0, 0}},
    {2, {3, 7}, {2, 0}}, {2, {13, 17}, {4, 3}},
    {3, {10, 20, 30}, {-1, -1, 10}}, {3, {10, 20, 30}, {5, 5, 5}},
    {3, {10, 20, 30}, {10, 0, -1}}, {3, {10, 20, 30}, {-1, 20, -1}},
    {3, {4, 4, 4}, {1, -1, 2}}, {4, {2, 3, 4, 5}, {-1, 1, -1, 2}},
};

/* Rank 0 prints the grid and every block of g; all ranks check them. */
static void check_and_print(int g, const struct shape *s, const char *how) {
    int nd = s->nd, grid[MAXD], lo[MAXD], hi[MAXD];
    long cells = 0, total = 1;
    GA_Get_proc_grid(g, grid);
    for (int d = 0; d < nd; d++) total *= s->dims[d];
    if (me == 0) {
        printf("%s", how);
        for (int d = 0; d < nd; d++) printf("%s%d", d ? "x" : " ", s->dims[d]);
        if (s->chunk[0] != NO_HINT) {
            printf(" chunk");
            for (int d = 0; d < nd; d++) printf(" %d", s->chunk[d]);
        }
        printf(" grid");
        for (int d = 0; d < nd; d++) printf(" %d", grid[d]);
        printf(":");
    }
    for (int p = 0; p < np; p++) {
        NGA_Distribution(g, p, lo, hi);
        if (me == 0) {
            printf(" [");
            for (int d = 0; d < nd; d++) printf("%s%d:%d", d ? "," : "", lo[d], hi[d]);
            printf("]");
        }
        if (hi[0] < lo[0]) continue;
        long n = 1;
        for (int d = 0; d < nd; d++) {
            CHECK(0 <= lo[d] && lo[d] <= hi[d] && hi[d] < s->dims[d],
                  "block of %d lies in the array", p);
            n *= hi[d] - lo[d] + 1;
        }
        cells += n;
        CHECK_EQ(NGA_Locate(g, lo), p, "NGA_Locate of a block's first corner");
        CHECK_EQ(NGA_Locate(g, hi), p, "NGA_Locate of a block's last corner");
    }
    if (me == 0) printf("\n");
    CHECK_EQ(cells, total, "the blocks cover the array once");
    /* Every rank sees the same blocks: compare the sum of all bounds. */
    long sum = 0, all;
    for (int p = 0; p < np; p++) {
        NGA_Distribution(g, p, lo, hi);
        for (int d = 0; d < nd; d++) sum += (p + 1) * (lo[d] * 7L + hi[d]);
    }
    all = sum;
    GA_Lgop(&all, 1, "+");
    CHECK_EQ(all, sum * np, "every rank sees the same blocks");
}

int main(int argc, char **argv) {
    me = start_ga(&argc, &argv, &np, 0);
    int count = (int)(sizeof shapes / sizeof shapes[0]);
    for (int i = 0; i < count; i++) {
        const struct shape *s = &shapes[i];
        int *chunk = s->chunk[0] == NO_HINT ? NULL : (int *)s->chunk;
        int g = NGA_Create(C_INT, s->nd, (int *)s->dims, "dist", chunk);
        CHECK(g != 0, "NGA_Create of case %d", i);
        check_and_print(g, s, "create");
        GA_Destroy(g);
    }
    /* The same rule through NGA_Create64 and through a handle. */
    for (int i = 0; i < count; i += 5) {
        const struct shape *s = &shapes[i];
        int64_t dims[MAXD], chunk[MAXD];
        for (int d = 0; d < s->nd; d++) {
            dims[d] = s->dims[d];
            chunk[d] = s->chunk[d];
        }
        int64_t *c = s->chunk[0] == NO_HINT ? NULL : chunk;
        int g = NGA_Create64(C_DBL, s->nd, dims, "dist64", c);
        check_and_print(g, s, "create64");
        GA_Destroy(g);
        g = GA_Create_handle();
        GA_Set_data(g, s->nd, (int *)s->dims, C_LONG);
        if (s->chunk[0] != NO_HINT) GA_Set_chunk(g, (int *)s->chunk);
        CHECK(GA_Allocate(g), "GA_Allocate of case %d", i);
        check_and_print(g, s, "handle");
        GA_Destroy(g);
    }
    return finish_ga("ga_distribution", me);
}
