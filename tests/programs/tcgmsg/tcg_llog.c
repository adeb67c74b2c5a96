/* LLOG: after tcg_llog every node's output goes to log.<node> in the
 * current directory. */
#include <stdio.h>
#include <tcgmsg.h>

int main(int argc, char **argv) {
    tcg_pbegin(argc, argv);
    printf("before llog from node %ld\n", tcg_nodeid());
    fflush(stdout);
    tcg_llog();
    printf("logged stdout from node %ld\n", tcg_nodeid());
    fprintf(stderr, "logged stderr from node %ld\n", tcg_nodeid());
    tcg_pend();
    return 3;
}
