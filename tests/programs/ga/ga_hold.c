/* A GA program that can be held inside array creation: process 0 asks for
 * the array at once, the others only once the file argv[1] exists, so the
 * ga-server has made the array's segment and the job waits in NGA_Create
 * until then. Prints "ga_hold: made" once the array exists. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "ga.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    const char *go = argc > 1 ? argv[1] : NULL;
    if (GA_Nodeid() != 0 && go) {
        struct timespec ms = {0, 1000000};
        for (int i = 0; i < 120000 && access(go, F_OK) != 0; i++) nanosleep(&ms, NULL);
    }
    int dims[1] = {1 << 16};
    int g = NGA_Create(C_DBL, 1, dims, "held", NULL);
    if (g != 0 && GA_Nodeid() == 0) printf("ga_hold: made\n");
    if (g != 0) GA_Destroy(g);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
