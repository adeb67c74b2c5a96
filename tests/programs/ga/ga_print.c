/* GA_Print, GA_Print_distribution and GA_Summarize: the harness checks the
 * printed layout. A 3x4 int array holds 10*i+j, a 2x3 double array
 * i+0.5*j, a 1-D long array 1..3. */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    int me = GA_Nodeid();
    int d2[2] = {3, 4};
    int gi = NGA_Create(C_INT, 2, d2, "ints", NULL);
    int lo[2] = {0, 0}, hi[2] = {2, 3}, ld[1] = {4};
    int iv[12];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) iv[i * 4 + j] = 10 * i + j;
    if (me == 0) NGA_Put(gi, lo, hi, iv, ld);
    int dd[2] = {2, 3};
    int gd = NGA_Create(C_DBL, 2, dd, "dbls", NULL);
    double dv[6];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) dv[i * 3 + j] = i + 0.5 * j;
    int hi2[2] = {1, 2}, ld2[1] = {3};
    if (me == 0) NGA_Put(gd, lo, hi2, dv, ld2);
    int d1[1] = {3};
    int gl = NGA_Create(C_LONG, 1, d1, "longs", NULL);
    long lv[3] = {1, 2, 3};
    int lo1[1] = {0}, hi1[1] = {2};
    if (me == 0) NGA_Put(gl, lo1, hi1, lv, NULL);
    GA_Sync();
    if (me == 0) printf("before print\n");
    GA_Print(gi);
    GA_Print(gd);
    GA_Print(gl);
    GA_Print_distribution(gd);
    GA_Summarize(1);
    if (me == 0) printf("after print\n");
    GA_Destroy(gl);
    GA_Destroy(gd);
    GA_Destroy(gi);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
