/* A 2-D Jacobi solver on an Express processor grid:
 *
 *     mpiexec -n N ex_jacobi [ITERATIONS]
 *
 * The NX x NY plate (fixed edges: 1 on the top row, 0 elsewhere) is split
 * in blocks over an exgridinit grid; every iteration swaps halo rows with
 * exchange and halo columns with exvwrite/exvread to the exgridshift
 * partners, and the largest change is found with excombine(ex_dmax). At the
 * end exconcat brings every block to every node, and each node checks that
 * the assembled plate equals a serial run on one node bit for bit. Prints
 * "ex_jacobi node K: P passed, F failed" and node 0 a checksum line. */
#include <express.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"

#define NX 30
#define NY 22

static double serial_a[NX][NY], serial_b[NX][NY];

static void initial(double *u, int nx, int ny, int r0, int c0, int ld)
{
    /* u has (nx+2) x (ny+2) entries with halo, row length ld. */
    for (int i = 0; i < nx + 2; i++)
        for (int j = 0; j < ny + 2; j++) {
            int gi = r0 + i - 1, gj = c0 + j - 1;
            double v = 0.0;
            if (gi == 0 && gj >= 0 && gj < NY)
                v = 1.0;
            u[i * ld + j] = v;
        }
}

static double serial(int iters)
{
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            serial_a[i][j] = i == 0 ? 1.0 : 0.0;
    double change = 0.0;
    for (int it = 0; it < iters; it++) {
        change = 0.0;
        memcpy(serial_b, serial_a, sizeof serial_a);
        for (int i = 1; i < NX - 1; i++)
            for (int j = 1; j < NY - 1; j++) {
                double v = 0.25 * (serial_a[i - 1][j] + serial_a[i + 1][j] +
                                   serial_a[i][j - 1] + serial_a[i][j + 1]);
                double d = v > serial_a[i][j] ? v - serial_a[i][j]
                                              : serial_a[i][j] - v;
                if (d > change)
                    change = d;
                serial_b[i][j] = v;
            }
        memcpy(serial_a, serial_b, sizeof serial_a);
    }
    return change;
}

/* First index and count of block k of m over n points. */
static void split(int n, int m, int k, int *first, int *count)
{
    int base = n / m, extra = n % m;
    *first = k * base + (k < extra ? k : extra);
    *count = base + (k < extra ? 1 : 0);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    struct nodenv env;
    EXPECT(exparam(&env), 0);
    int me = env.procnum, n = env.nprocs;
    tally_who = me;

    int dims[2] = {0, 0};
    int g = exgridinit(2, dims, NULL);
    CHECK(g >= 0, "exgridinit %d", g);
    int c[2];
    EXPECT(exgridcoord(g, me, c), 0);
    int r0, nx, c0, ny;
    split(NX, dims[0], c[0], &r0, &nx);
    split(NY, dims[1], c[1], &c0, &ny);
    int ld = ny + 2;
    double *u = calloc((size_t)(nx + 2) * ld, sizeof *u);
    double *w = calloc((size_t)(nx + 2) * ld, sizeof *w);
    initial(u, nx, ny, r0, c0, ld);

    int up, down, left, right, s, d;
    EXPECT(exgridshift(g, 0, 1, &up, &down), 0);
    EXPECT(exgridshift(g, 1, 1, &left, &right), 0);

    double change = 0.0;
    for (int it = 0; it < iters; it++) {
        /* Rows: last row down / top halo from above, then back. */
        s = up; d = down;
        int t1 = 1, t2 = 1;
        exchange(&u[0 * ld + 1], ny * 8, &s, &t1, &u[nx * ld + 1], ny * 8, &d, &t2);
        s = down; d = up;
        t1 = 2; t2 = 2;
        exchange(&u[(nx + 1) * ld + 1], ny * 8, &s, &t1, &u[1 * ld + 1], ny * 8, &d, &t2);
        /* Columns, strided: last column right / left halo from the left. */
        d = right; t1 = 3;
        exvwrite(&u[1 * ld + ny], 8, nx, ld * 8, &d, &t1);
        s = left; t1 = 3;
        exvread(&u[1 * ld + 0], 8, nx, ld * 8, &s, &t1);
        d = left; t1 = 4;
        exvwrite(&u[1 * ld + 1], 8, nx, ld * 8, &d, &t1);
        s = right; t1 = 4;
        exvread(&u[1 * ld + ny + 1], 8, nx, ld * 8, &s, &t1);

        change = 0.0;
        memcpy(w, u, sizeof *u * (size_t)(nx + 2) * ld);
        for (int i = 1; i <= nx; i++)
            for (int j = 1; j <= ny; j++) {
                int gi = r0 + i - 1, gj = c0 + j - 1;
                if (gi == 0 || gi == NX - 1 || gj == 0 || gj == NY - 1)
                    continue;
                double *p = &u[i * ld + j];
                double v = 0.25 * (p[-ld] + p[ld] + p[-1] + p[1]);
                double dd = v > *p ? v - *p : *p - v;
                if (dd > change)
                    change = dd;
                w[i * ld + j] = v;
            }
        double *tmp = u; u = w; w = tmp;
        EXPECT(excombine(&change, ex_dmax, sizeof change, 1, ALLNODES, NULL, 0), 0);
    }

    /* Every block (with its position) to every node. */
    int head = 4 * (int)sizeof(int);
    int mine = head + nx * ny * 8;
    char *part = malloc((size_t)mine);
    int pos4[4] = {r0, nx, c0, ny};
    memcpy(part, pos4, head);
    for (int i = 0; i < nx; i++)
        memcpy(part + head + i * ny * 8, &u[(i + 1) * ld + 1], ny * 8);
    int cap = n * head + NX * NY * 8;
    char *all = malloc((size_t)cap);
    EXPECT(exconcat(part, mine, all, cap, ALLNODES, NULL, 0), cap);
    static double plate[NX][NY];
    char *p = all;
    for (int k = 0; k < n; k++) {
        int q[4];
        memcpy(q, p, head);
        p += head;
        for (int i = 0; i < q[1]; i++) {
            memcpy(&plate[q[0] + i][q[2]], p, q[3] * 8);
            p += q[3] * 8;
        }
    }
    double want = serial(iters);
    CHECK(memcmp(plate, serial_a, sizeof plate) == 0,
          "the plate equals the serial run bit for bit");
    CHECK(memcmp(&change, &want, sizeof change) == 0,
          "the last change equals the serial one: %.17g vs %.17g", change, want);
    if (me == 0) {
        double sum = 0.0;
        for (int i = 0; i < NX; i++)
            for (int j = 0; j < NY; j++)
                sum += plate[i][j];
        printf("ex_jacobi grid %dx%d, %d iterations, checksum %.17g\n", dims[0],
               dims[1], iters, sum);
    }
    printf("ex_jacobi node %d: %d passed, %d failed\n", me, passed, failed);
    free(u); free(w); free(part); free(all);
    return failed != 0;
}
