/* Trace masks select what a traced task records. Two tasks (mpiexec -n 2,
 * MPBRIDGE_TRACE set): the first checks that its fresh mask selects sends,
 * sends tag 1, clears the send event with pvm_settmask, checks the cleared
 * bit with pvm_gettmask, sends tag 2; the second receives both. The test
 * reads the trace files: one send (tag 1), two receives. */
#include <pvm3.h>
#include <stdio.h>
#include <string.h>

/* PVM's trace mask layout (pvmtev.h): event k is bit k%4 of byte k/4. */
#define MASK_LENGTH 36
#define EVENT_SEND 47
int pvm_gettmask(int who, char *mask);
int pvm_settmask(int who, char *mask);

static int selects(const char *mask, int k) { return (mask[k / 4] & (1 << (k & 3))) != 0; }

int main(void) {
    int me = pvm_mytid();
    int *tids = NULL;
    int n = pvm_siblings(&tids);
    if (n != 2) {
        printf("FAIL: %d siblings\n", n);
        pvm_exit();
        return 1;
    }
    int ok = 1;
    if (me == tids[0]) {
        char mask[MASK_LENGTH];
        ok &= pvm_gettmask(PvmTaskSelf, mask) == 0 && selects(mask, EVENT_SEND);
        int v = 1;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&v, 1, 1);
        ok &= pvm_send(tids[1], 1) == 0;
        mask[EVENT_SEND / 4] &= (char)~(1 << (EVENT_SEND & 3));
        ok &= pvm_settmask(PvmTaskSelf, mask) == 0;
        char again[MASK_LENGTH];
        memset(again, 0, sizeof again);
        ok &= pvm_gettmask(PvmTaskSelf, again) == 0 && !selects(again, EVENT_SEND);
        ok &= pvm_gettmask(7, again) == PvmBadParam;
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&v, 1, 1);
        ok &= pvm_send(tids[1], 2) == 0;
        pvm_recv(tids[1], 3);
    } else {
        ok &= pvm_recv(tids[0], 1) > 0 && pvm_recv(tids[0], 2) > 0;
        pvm_initsend(PvmDataDefault);
        ok &= pvm_send(tids[0], 3) == 0;
    }
    printf("%s: task %x\n", ok ? "PASS" : "FAIL", me);
    pvm_exit();
    return ok ? 0 : 1;
}
