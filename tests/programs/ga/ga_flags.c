/* Array queries and flags: GA_Get_dimension of 1-, 2- and 3-D arrays,
 * GA_Is_mirrored and GA_Uses_proc_grid of plain arrays, and the debug
 * flag GA_Set_debug keeps for GA_Get_debug, with their NGA_ names. Rank 0
 * prints what it saw, so the harness can compare with Debian's GA. Prints
 * "ga_flags: N passed, M failed" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    int me = GA_Nodeid();
    tally_who = me;
    int dims[3] = {4, 5, 6};
    int g[3];
    for (int n = 1; n <= 3; n++) {
        g[n - 1] = NGA_Create(C_DBL, n, dims, "flags", NULL);
        CHECK(g[n - 1] != 0, "NGA_Create of %d dimensions", n);
        CHECK_EQ(GA_Get_dimension(g[n - 1]), n, "GA_Get_dimension");
        CHECK_EQ(NGA_Get_dimension(g[n - 1]), GA_Ndim(g[n - 1]), "NGA_Get_dimension as GA_Ndim");
    }
    if (me == 0)
        printf("dimensions %d %d %d; mirrored %d %d; proc grid %d %d\n", GA_Get_dimension(g[0]),
               GA_Get_dimension(g[1]), NGA_Get_dimension(g[2]), GA_Is_mirrored(g[1]),
               NGA_Is_mirrored(g[2]), GA_Uses_proc_grid(g[1]), NGA_Uses_proc_grid(g[2]));
    int before = GA_Get_debug();
    GA_Set_debug(1);
    int on = NGA_Get_debug();
    NGA_Set_debug(0);
    int off = GA_Get_debug();
    CHECK(on == 1 && off == 0, "debug flag kept: %d %d", on, off);
    if (me == 0) printf("debug %d %d %d\n", before, on, off);
    for (int n = 0; n < 3; n++) GA_Destroy(g[n]);
    return finish_ga("ga_flags", me);
}
