/* Global Arrays C API: array properties (GA_Set_property "read_only" and
 * "read_cache", GA_Unset_property, the NGA_ spellings), user element types
 * (NGA_Register_type, NGA_Deregister_type) and field access
 * (NGA_Get_field, NGA_Put_field, NGA_Nbget_field, NGA_Nbput_field) on a
 * double complex matrix and vector: the real or imaginary parts of a
 * patch. Every result is checked on every rank against a serial model;
 * rank 0 prints the type codes and the fields, then
 * "ga_props: N passed, M failed".
 *
 * Arguments: "rows" adds field patches of several rows with a leading
 * dimension (Debian's GA 5.8 steps ld+1 items from row to row); "bad
 * NAME" makes one bad call that must end the job naming the call. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define R 6
#define C 5
static int me;

static double re_of(int i, int j) { return 10 * i + j; }
static double im_of(int i, int j) { return -(10 * i + j) - 0.5; }

static int matrix(void) {
    int dims[2] = {R, C}, lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
    int g = NGA_Create(C_DCPL, 2, dims, "z", NULL);
    DoubleComplex z[R * C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            z[i * C + j].real = re_of(i, j);
            z[i * C + j].imag = im_of(i, j);
        }
    if (me == 0) NGA_Put(g, lo, hi, z, &ld);
    GA_Sync();
    return g;
}

/* Every element of the matrix against the model, with the parts in
 * (ilo..ihi, jlo..jhi) replaced by f(i, j) in part `part` (0 re, 1 im). */
static void check_matrix(int g, int ilo, int ihi, int jlo, int jhi, int part, const char *what) {
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C, bad = 0;
    DoubleComplex z[R * C];
    NGA_Get(g, lo, hi, z, &ld);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int in = i >= ilo && i <= ihi && j >= jlo && j <= jhi;
            double wr = re_of(i, j), wi = im_of(i, j);
            if (in && part == 0) wr = 1000 + i * C + j;
            if (in && part == 1) wi = 1000 + i * C + j;
            bad += z[i * C + j].real != wr || z[i * C + j].imag != wi;
        }
    CHECK(bad == 0, "%s: %d elements differ", what, bad);
}

static void fields(int rows) {
    int g = matrix();
    /* One row of the matrix (and, with rows, a 3 x 3 block with ld 4). */
    int ilo = rows ? 1 : 2, ihi = rows ? 3 : 2, jlo = 1, jhi = 3, ld = 4;
    int lo[2] = {ilo, jlo}, hi[2] = {ihi, jhi};
    double f[3 * 4];
    for (int part = 0; part < 2; part++) {
        for (int k = 0; k < 12; k++) f[k] = -1;
        ga_nbhdl_t h;
        if (part) {
            NGA_Nbget_field(g, lo, hi, 8, 8, f, &ld, &h);
            NGA_NbWait(&h);
        } else {
            NGA_Get_field(g, lo, hi, 0, 8, f, &ld);
        }
        int bad = 0;
        for (int i = ilo; i <= ihi; i++)
            for (int j = jlo; j <= jhi; j++)
                bad += f[(i - ilo) * ld + (j - jlo)] != (part ? im_of(i, j) : re_of(i, j));
        for (int i = ilo; i <= ihi; i++) bad += f[(i - ilo) * ld + 3] != -1;
        CHECK(bad == 0, "get_field part %d rows %d: %d wrong", part, rows, bad);
        if (me == 0) {
            printf("field %s [%d:%d,%d:%d]:", part ? "imag" : "real", ilo, ihi, jlo, jhi);
            for (int i = ilo; i <= ihi; i++)
                for (int j = jlo; j <= jhi; j++) printf(" %g", f[(i - ilo) * ld + (j - jlo)]);
            printf("\n");
        }
        for (int i = ilo; i <= ihi; i++)
            for (int j = jlo; j <= jhi; j++) f[(i - ilo) * ld + (j - jlo)] = 1000 + i * C + j;
        GA_Sync();
        if (me == GA_Nnodes() - 1) {
            if (part) {
                NGA_Nbput_field(g, lo, hi, 8, 8, f, &ld, &h);
                NGA_NbWait(&h);
            } else {
                NGA_Put_field(g, lo, hi, 0, 8, f, &ld);
            }
        }
        GA_Sync();
        check_matrix(g, ilo, ihi, jlo, jhi, part, part ? "put_field imag" : "put_field real");
        GA_Destroy(g);
        g = matrix();
    }
    /* A 1-D vector: every other element's imaginary part. */
    int n = 9, vlo = 2, vhi = 7;
    int gv = NGA_Create(C_DCPL, 1, &n, "v", NULL);
    DoubleComplex v[9];
    for (int k = 0; k < n; k++) v[k].real = k, v[k].imag = 2 * k;
    int zlo = 0, zhi = n - 1;
    if (me == 0) NGA_Put(gv, &zlo, &zhi, v, NULL);
    GA_Sync();
    double im[6];
    NGA_Get_field(gv, &vlo, &vhi, 8, 8, im, NULL);
    int bad = 0;
    for (int k = vlo; k <= vhi; k++) bad += im[k - vlo] != 2 * k;
    CHECK(bad == 0, "1-D get_field: %d wrong", bad);
    if (me == 0) printf("vector imag [2:7]: %g %g %g %g %g %g\n", im[0], im[1], im[2], im[3], im[4], im[5]);
    GA_Destroy(gv);
    GA_Destroy(g);
}

static void types(void) {
    int a = NGA_Register_type(24), b = NGA_Register_type(8);
    int ra = NGA_Deregister_type(a), again = NGA_Deregister_type(a), builtin = NGA_Deregister_type(C_DBL);
    int c = NGA_Register_type(12);
    CHECK(b > a && c == a, "register: %d %d %d", a, b, c);
    CHECK_EQ(ra, 0, "deregister a registered type");
    CHECK(again != 0 && builtin != 0, "deregister: %d %d", again, builtin);
    if (me == 0) printf("types %d %d, deregister %d %d %d, again %d\n", a, b, ra, again, builtin, c);
    NGA_Deregister_type(b);
    NGA_Deregister_type(c);
}

static void properties(void) {
    int g = matrix();
    int lo[2] = {0, 0}, hi[2] = {R - 1, C - 1}, ld = C;
    const char *names[2] = {"read_only", "read_cache"};
    for (int p = 0; p < 2; p++) {
        if (p) NGA_Set_property(g, (char *)names[p]);
        else GA_Set_property(g, (char *)names[p]);
        DoubleComplex z[R * C];
        NGA_Get(g, lo, hi, z, &ld);
        int bad = 0;
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) bad += z[i * C + j].real != re_of(i, j) || z[i * C + j].imag != im_of(i, j);
        CHECK(bad == 0, "get with property %s: %d wrong", names[p], bad);
        if (p) NGA_Unset_property(g);
        else GA_Unset_property(g);
        check_matrix(g, 1, 0, 1, 0, 0, "after unset");
        if (me == 0) printf("property %s: read back\n", names[p]);
    }
    GA_Destroy(g);
}

static void bad(const char *what) {
    int g = matrix();
    int lo[2] = {0, 0}, hi[2] = {1, 1}, ld = 2;
    double f[4];
    if (!strcmp(what, "property")) GA_Set_property(g, "write_only");
    else if (!strcmp(what, "twice")) {
        GA_Set_property(g, "read_cache");
        GA_Set_property(g, "read_only");
    } else if (!strcmp(what, "field")) NGA_Get_field(g, lo, hi, 12, 8, f, &ld);
    else if (!strcmp(what, "ld")) NGA_Put_field(g, lo, hi, 0, 8, f, (ld = 1, &ld));
    else if (!strcmp(what, "size")) NGA_Register_type(0);
    if (me == 0) printf("the bad call returned\n");
}

int main(int argc, char **argv) {
    int np;
    me = start_ga(&argc, &argv, &np, 100000);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "bad") && argc > 2) {
        bad(argv[2]);
    } else {
        types();
        properties();
        fields(0);
        if (!strcmp(mode, "rows")) fields(1);
    }
    return finish_ga("ga_props", me);
}
