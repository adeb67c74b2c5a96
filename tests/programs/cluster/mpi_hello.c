/* Plain MPI across the hosts of a cluster: every rank reports the host it
 * runs on (gethostname, which each host's UTS namespace sets), then the
 * ranks pass a token around a ring, so messages really cross hosts, and
 * rank 0 checks the token came back with every rank's contribution.
 * usage: mpiexec -n N mpi_hello */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    printf("rank %d of %d on %s\n", me, n, host);
    fflush(stdout);
    long token = 0;
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    if (me == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_LONG, next, 5, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long want = 1;
        for (int r = 1; r < n; r++) want += r + 1;
        printf("ring token %ld, expected %ld: %s\n", token, want, token == want ? "ok" : "WRONG");
        fflush(stdout);
        if (token != want) MPI_Abort(MPI_COMM_WORLD, 1);
    } else {
        MPI_Recv(&token, 1, MPI_LONG, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += me + 1;
        MPI_Send(&token, 1, MPI_LONG, next, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
