/* The start of the HPF C test programs: start_grid(ndims, dims, &grid,
 * &rank) starts the run-time and a grid of `ndims` dimensions over every
 * process, the extents left 0 in dims chosen by the run-time and stored
 * there; rank is this process's place in the grid and also names its
 * tally (tally_who). Returns 0, or -1 when hpf_init fails (the program
 * then has nothing to check). Include after hpf_rts.h and ../tally.h. */
#ifndef MPBRIDGE_TEST_HPF_START_H
#define MPBRIDGE_TEST_HPF_START_H

static int start_grid(int ndims, int *dims, int *grid, int *rank)
{
    if (hpf_init() != HPF_OK) return -1;
    EXPECT(hpf_grid_create(ndims, dims, grid), HPF_OK);
    hpf_grid_info(*grid, rank, NULL);
    tally_who = *rank;
    return 0;
}

#endif
