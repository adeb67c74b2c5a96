/* Get-Maximum terminal (PVM): one port of type S. Sends its value to S[1]
 * and prints the maximum S[1] sends back. The value is the first argument
 * when the script gives one (printed in decimal), else the task id
 * (printed in hex, as the published component did). */
#include <stdio.h>
#include <stdlib.h>
#include <pvm3.h>
#include <ensemble.h>

enum { S };

int main(int argc, char **argv)
{
    static const char *const types[] = { "S" };
    int me = pvm_mytid();
    if (me < 0 || MakePorts(1, types) != 0 || SetInterface() != 0)
        return ENSDone(1);
    if (Interface[S].nports < 1 || Interface[S].port[1].tid == 0) {
        fprintf(stderr, "terminal t%x: port S[1] is not connected\n", me);
        return ENSDone(1);
    }
    ENSPort s = Interface[S].port[1];
    int value = argc > 1 ? atoi(argv[1]) : me;
    int max = 0;
    if (pvm_initsend(PvmDataDefault) < 0 || pvm_pkint(&value, 1, 1) < 0 ||
        pvm_send(s.tid, s.tag) < 0 || pvm_recv(s.tid, s.tag) < 0 ||
        pvm_upkint(&max, 1, 1) < 0)
        return ENSDone(1);
    if (argc > 1)
        printf("The maximum is %d\n", max);
    else
        printf("The maximum tid is %x\n", max);
    fflush(stdout);
    return ENSDone(0);
}
