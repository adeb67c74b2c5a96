/* hpf_numroc against ScaLAPACK's own NUMROC (Debian's libscalapack):
 * every n < 200, block 1..9, 1..8 processes, every source and process.
 * Needs no MPI start. Prints "hpf_numroc rank 0: P passed, F failed". */
#include <hpf_rts.h>
#include <stdio.h>

/* ScaLAPACK's Fortran NUMROC (all arguments by reference). */
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);

int main(void)
{
    int passed = 0, failed = 0;
    for (int n = 0; n < 200; n++)
        for (int nb = 1; nb < 10; nb++)
            for (int p = 1; p <= 8; p++)
                for (int src = 0; src < p; src++)
                    for (int me = 0; me < p; me++) {
                        long long ours = hpf_numroc(n, nb, me, src, p);
                        int theirs = numroc_(&n, &nb, &me, &src, &p);
                        if (ours == theirs) {
                            passed++;
                        } else {
                            failed++;
                            fprintf(stderr, "FAILED numroc(%d,%d,%d,%d,%d): %lld != %d\n", n, nb,
                                    me, src, p, ours, theirs);
                        }
                    }
    printf("hpf_numroc rank 0: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
