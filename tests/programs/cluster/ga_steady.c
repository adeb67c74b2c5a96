/* A GA job that keeps reading every other rank's block until it has run
 * for the number of seconds given (default 60), so a host can be taken
 * down while it runs. Rank 0 prints "ga_steady: running" once every rank
 * read the others' data (and creates the file named by the second
 * argument, if given, for whoever waits for that moment), and at the end
 * "ga_steady: N passed, M failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"

#define BLOCK 64

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    double seconds = argc > 1 ? atof(argv[1]) : 60.0;
    int me = GA_Nodeid(), np = GA_Nnodes();
    tally_who = me;
    int dims[1] = {BLOCK * np}, chunk[1] = {BLOCK};
    int g = NGA_Create(C_DBL, 1, dims, "steady", chunk);
    CHECK(g != 0, "create");
    int lo[1] = {BLOCK * me}, hi[1] = {BLOCK * me + BLOCK - 1}, ld[1] = {1};
    double mine[BLOCK], got[BLOCK];
    for (int i = 0; i < BLOCK; i++) mine[i] = me * 1000.0 + i;
    NGA_Put(g, lo, hi, mine, ld);
    GA_Sync();
    double start = MPI_Wtime();
    long rounds = 0;
    do {
        for (int p = 0; p < np; p++) {
            int plo[1] = {BLOCK * p}, phi[1] = {BLOCK * p + BLOCK - 1};
            NGA_Get(g, plo, phi, got, ld);
            int bad = 0;
            for (int i = 0; i < BLOCK; i++) bad += got[i] != p * 1000.0 + i;
            if (bad) CHECK(0, "block of %d: %d wrong", p, bad);
        }
        if (++rounds == 1) {
            GA_Sync();
            if (me == 0) {
                printf("ga_steady: running\n");
                fflush(stdout);
                if (argc > 2) {
                    FILE *f = fopen(argv[2], "w");
                    if (f) fclose(f);
                }
            }
        }
    } while (MPI_Wtime() - start < seconds);
    CHECK(rounds > 0, "reads done");
    GA_Destroy(g);
    if (me == 0) printf("ga_steady: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
