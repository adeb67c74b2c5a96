/* Get-Maximum relay (PVM): any number of C (client) and P (peer) ports.
 * Receives one value from every C port; sends the local maximum to every
 * P port; receives one value from every P port; sends the overall maximum
 * back to every C port. C and P carry one integer each way, so the same
 * relay forms all-to-all, star and tree compositions. */
#include <limits.h>
#include <stdio.h>
#include <pvm3.h>
#include <ensemble.h>

enum { C, P };

static int get(ENSPort p, int *v)
{
    return pvm_recv(p.tid, p.tag) < 0 || pvm_upkint(v, 1, 1) < 0 ? -1 : 0;
}

static int put(ENSPort p, int v)
{
    return pvm_initsend(PvmDataDefault) < 0 || pvm_pkint(&v, 1, 1) < 0 ||
                   pvm_send(p.tid, p.tag) < 0
               ? -1
               : 0;
}

static int connected(int type)
{
    for (int i = 1; i <= Interface[type].nports; i++)
        if (Interface[type].port[i].tid == 0) {
            fprintf(stderr, "relay t%x: port %s[%d] is not connected\n", pvm_mytid(),
                    Interface[type].name, i);
            return 0;
        }
    return 1;
}

/* Raises *max to the largest value received from the ports of `type`. */
static int receive_max(int type, int *max)
{
    int v;
    for (int i = 1; i <= Interface[type].nports; i++) {
        if (get(Interface[type].port[i], &v) != 0)
            return -1;
        if (v > *max)
            *max = v;
    }
    return 0;
}

/* Sends `v` to every port of `type`. */
static int send_all(int type, int v)
{
    for (int i = 1; i <= Interface[type].nports; i++)
        if (put(Interface[type].port[i], v) != 0)
            return -1;
    return 0;
}

int main(void)
{
    static const char *const types[] = { "C", "P" };
    if (pvm_mytid() < 0 || MakePorts(2, types) != 0 || SetInterface() != 0)
        return ENSDone(1);
    if (!connected(C) || !connected(P))
        return ENSDone(1);
    int local = INT_MIN;
    if (receive_max(C, &local) != 0 || send_all(P, local) != 0)
        return ENSDone(1);
    int global = local;
    if (receive_max(P, &global) != 0 || send_all(C, global) != 0)
        return ENSDone(1);
    return ENSDone(0);
}
