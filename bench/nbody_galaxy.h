/* The galaxy N-body of the mpC experiment, shared by its plain MPI and
 * its mpc.h versions: nine groups of bodies, one process each. A group
 * moves under its own gravity (every pair, softened) and the pull of the
 * other groups' centres of mass, which the processes exchange after
 * every outer step; between exchanges a group takes `inner` small steps.
 * Work per group and sub-step grows as the square of its size. */
#ifndef MPBRIDGE_BENCH_NBODY_GALAXY_H
#define MPBRIDGE_BENCH_NBODY_GALAXY_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NGROUPS 9

typedef struct {
    double x[3], v[3], m;
} body;

/* Group sizes in the order given as "a,b,c,..." (9 of them). */
static int parse_order(const char *s, int sizes[NGROUPS])
{
    int k = 0;
    const char *p = s;
    while (*p && k < NGROUPS) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 100000)
            return -1;
        sizes[k++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
    return (k == NGROUPS && *p == 0) ? 0 : -1;
}

/* A ball of bodies around a centre given by the group number. */
static void group_init(body *b, int n, int g)
{
    unsigned s = 12345u + 7919u * (unsigned)g;
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++) {
            s = s * 1103515245u + 12345u;
            b[i].x[d] = 10.0 * g + (double)(s >> 8) / (double)(1u << 24) - 0.5;
            b[i].v[d] = 0.0;
        }
        b[i].m = 1.0 / n;
    }
}

/* Centre of mass and total mass into out[4]. */
static void group_com(const body *b, int n, double out[4])
{
    double m = 0, c[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        m += b[i].m;
        for (int d = 0; d < 3; d++)
            c[d] += b[i].m * b[i].x[d];
    }
    for (int d = 0; d < 3; d++)
        out[d] = c[d] / m;
    out[3] = m;
}

/* `inner` sub-steps of group `self`; `coms` holds every group's centre
 * of mass and mass (4 doubles each). */
static void group_steps(body *b, int n, const double *coms, int self, int inner)
{
    const double dt = 1e-4, eps2 = 1e-2;
    double (*a)[3] = calloc((size_t)n, sizeof *a);
    if (!a) {
        fprintf(stderr, "nbody: out of memory\n");
        exit(1);
    }
    for (int s = 0; s < inner; s++) {
        memset(a, 0, (size_t)n * sizeof *a);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double r[3], r2 = eps2;
                for (int d = 0; d < 3; d++) {
                    r[d] = b[j].x[d] - b[i].x[d];
                    r2 += r[d] * r[d];
                }
                double f = 1.0 / (r2 * sqrt(r2));
                for (int d = 0; d < 3; d++) {
                    a[i][d] += f * b[j].m * r[d];
                    a[j][d] -= f * b[i].m * r[d];
                }
            }
            for (int g = 0; g < NGROUPS; g++) {
                if (g == self)
                    continue;
                const double *c = coms + 4 * g;
                double r[3], r2 = eps2;
                for (int d = 0; d < 3; d++) {
                    r[d] = c[d] - b[i].x[d];
                    r2 += r[d] * r[d];
                }
                double f = c[3] / (r2 * sqrt(r2));
                for (int d = 0; d < 3; d++)
                    a[i][d] += f * r[d];
            }
        }
        for (int i = 0; i < n; i++)
            for (int d = 0; d < 3; d++) {
                b[i].v[d] += dt * a[i][d];
                b[i].x[d] += dt * b[i].v[d];
            }
    }
    free(a);
}

/* Every group's centre of mass from every process. A process that is
 * done early waits asleep (polling every 0.2 ms), so it does not take CPU
 * from the groups still computing on its host: both programs wait so. */
static void exchange(const double mine[4], double *coms, MPI_Comm comm)
{
    MPI_Request req;
    int done = 0;
    MPI_Iallgather(mine, 4, MPI_DOUBLE, coms, 4, MPI_DOUBLE, comm, &req);
    const struct timespec nap = {0, 200000};
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nanosleep(&nap, NULL);
    }
}

/* Group `self` (its `n` bodies in `b`) through `outer` exchanges of the
 * centres of mass over `comm`, each followed by `inner` steps, and one
 * last exchange. */
static void simulate_group(body *b, int n, int self, int outer, int inner, MPI_Comm comm)
{
    double mine[4], coms[4 * NGROUPS];
    group_com(b, n, mine);
    exchange(mine, coms, comm);
    for (int s = 0; s < outer; s++) {
        group_steps(b, n, coms, self, inner);
        group_com(b, n, mine);
        exchange(mine, coms, comm);
    }
}

#endif
