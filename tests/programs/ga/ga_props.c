/* Global Arrays C API: array properties (GA_Set_property "read_only" and
 * "read_cache", GA_Unset_property, the NGA_ spellings), user element types
 * (NGA_Register_type, NGA_Deregister_type; arrays of a registered type:
 * create, inquire, put, get, access, copy, zero, gather, scatter, and
 * deregistering while such an array lives) and field access
 * (NGA_Get_field, NGA_Put_field, NGA_Nbget_field, NGA_Nbput_field) on a
 * double complex matrix and vector: the real or imaginary parts of a
 * patch. Every result is checked on every rank against a serial model;
 * rank 0 prints the type codes and the fields, then
 * "ga_props: N passed, M failed".
 *
 * Arguments: "ours" adds what only ours runs: field patches of several
 * rows with a leading dimension (Debian's GA 5.8 steps ld+1 items from row
 * to row), and GA_Fill and NGA_Copy_patch of arrays of a registered type
 * (Debian's GA 5.8 refuses the fill, "type not supported", and fails the
 * patch copy of 12-byte elements, "GA datatype cannot be aligned"), and
 * GA_Zero of such an array on 1 process; "bad
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

/* A 12-byte element: what a registered type holds. */
typedef struct {
    char tag[8];
    int n;
} rec12;

static rec12 rec_of(int i, int j, int k) {
    rec12 r;
    memset(&r, 0, sizeof r);
    snprintf(r.tag, sizeof r.tag, "r%d.%d", i, j);
    r.n = 1000 * k + 10 * i + j;
    return r;
}

/* How many of the UR x UC elements of g (read whole) differ from
 * rec_of(i, j, k), leaving out element (skip_i, skip_j). */
#define UR 5
#define UC 7
static int rec_diffs(int g, int k, int skip_i, int skip_j) {
    int lo[2] = {0, 0}, hi[2] = {UR - 1, UC - 1}, ld = UC, bad = 0;
    rec12 all[UR * UC];
    NGA_Get(g, lo, hi, all, &ld);
    for (int i = 0; i < UR; i++)
        for (int j = 0; j < UC; j++) {
            rec12 w = rec_of(i, j, k);
            bad += !(i == skip_i && j == skip_j) && memcmp(&all[i * UC + j], &w, sizeof w) != 0;
        }
    return bad;
}

/* Arrays of a registered type of 12 bytes: every call that moves or
 * copies elements whole; `ours` adds GA_Fill and NGA_Copy_patch. */
static void user_arrays(int ours) {
    int t = NGA_Register_type(sizeof(rec12));
    int dims[2] = {UR, UC}, lo[2] = {0, 0}, hi[2] = {UR - 1, UC - 1}, ld = UC;
    int g = NGA_Create(t, 2, dims, "records", NULL);
    CHECK(g != 0, "NGA_Create of a registered type");
    int ty, nd, d2[2];
    NGA_Inquire(g, &ty, &nd, d2);
    CHECK(ty == t && nd == 2 && d2[0] == UR && d2[1] == UC, "inquire: %d %d %dx%d", ty, nd, d2[0], d2[1]);
    rec12 all[UR * UC];
    for (int i = 0; i < UR; i++)
        for (int j = 0; j < UC; j++) all[i * UC + j] = rec_of(i, j, 1);
    if (me == 0) NGA_Put(g, lo, hi, all, &ld);
    GA_Sync();
    CHECK_EQ(rec_diffs(g, 1, -1, -1), 0, "records read back");
    /* This process's block in place. */
    int blo[2], bhi[2], bld[1], bad = 0;
    NGA_Distribution(g, me, blo, bhi);
    if (blo[0] >= 0) {
        rec12 *p;
        NGA_Access(g, blo, bhi, &p, bld);
        for (int i = blo[0]; i <= bhi[0]; i++)
            for (int j = blo[1]; j <= bhi[1]; j++) {
                rec12 w = rec_of(i, j, 1);
                bad += memcmp(&p[(i - blo[0]) * bld[0] + (j - blo[1])], &w, sizeof w) != 0;
            }
        NGA_Release(g, blo, bhi);
    }
    CHECK_EQ(bad, 0, "records through NGA_Access");
    int c = GA_Duplicate(g, "copy");
    GA_Copy(g, c);
    CHECK_EQ(rec_diffs(c, 1, -1, -1), 0, "GA_Copy of records");
    /* Two elements gathered, then scattered over by the last process. */
    int sub[4] = {1, 2, 3, 4}, *subs[2] = {&sub[0], &sub[2]};
    rec12 two[2];
    NGA_Gather(g, two, subs, 2);
    rec12 w12 = rec_of(1, 2, 1), w34 = rec_of(3, 4, 1);
    CHECK(!memcmp(&two[0], &w12, sizeof w12) && !memcmp(&two[1], &w34, sizeof w34), "NGA_Gather of records");
    GA_Sync();
    two[0] = rec_of(1, 2, 1);
    two[1] = rec_of(3, 4, 2);
    if (me == GA_Nnodes() - 1) NGA_Scatter(g, two, subs, 2);
    GA_Sync();
    NGA_Get(g, lo, hi, all, &ld);
    CHECK(!memcmp(&all[3 * UC + 4], &two[1], sizeof two[1]), "NGA_Scatter of records");
    CHECK_EQ(rec_diffs(g, 1, 3, 4), 0, "the rest after NGA_Scatter");
    /* Deregistered, the type's arrays keep their 12-byte elements; the
     * code is free for a type of another size. */
    int dr = NGA_Deregister_type(t), t20 = NGA_Register_type(20);
    CHECK_EQ(dr, 0, "deregistering a type with a live array");
    CHECK_EQ(t20, t, "the freed code");
    CHECK_EQ(rec_diffs(g, 1, 3, 4), 0, "records after deregistering");
    int h = GA_Create_handle(), n20 = 6;
    GA_Set_data(h, 1, &n20, t20);
    GA_Set_array_name(h, "twenties");
    CHECK_EQ(GA_Allocate(h), 1, "GA_Allocate of the 20-byte type");
    char b20[6][20], back20[6][20];
    for (int k = 0; k < 6; k++)
        for (int b = 0; b < 20; b++) b20[k][b] = (char)(k * 20 + b);
    int zlo = 0, zhi = 5;
    if (me == 0) NGA_Put(h, &zlo, &zhi, b20, NULL);
    GA_Sync();
    NGA_Get(h, &zlo, &zhi, back20, NULL);
    CHECK(!memcmp(b20, back20, sizeof b20), "20-byte elements read back");
    /* Debian's GA 5.8 on 1 process corrupts its memory here: its
     * GA_Destroy of the array then fails in MPI_Win_unlock_all. */
    if (ours || GA_Nnodes() > 1) {
        GA_Zero(g);
        NGA_Get(g, lo, hi, all, &ld);
        bad = 0;
        for (int k = 0; k < (int)sizeof all; k++) bad += ((char *)all)[k] != 0;
        CHECK_EQ(bad, 0, "GA_Zero of records");
    }
    if (me == 0)
        printf("registered type %d: %dx%d records, gathered %s %d, scattered %s %d; again %d: 20-byte %d %d\n",
               ty, d2[0], d2[1], w12.tag, w12.n, two[1].tag, two[1].n, t20, back20[0][19], back20[5][0]);
    if (ours) {
        /* c filled with one record less a zeroed patch; its top left
         * corner copied into the bottom right corner of a zeroed g. */
        rec12 v = rec_of(9, 9, 9), z;
        memset(&z, 0, sizeof z);
        GA_Zero(g);
        GA_Fill(c, &v);
        int plo[2] = {1, 2}, phi[2] = {2, 4}, slo[2] = {0, 0}, shi[2] = {1, 2}, dlo[2] = {3, 4};
        NGA_Zero_patch(c, plo, phi);
        NGA_Copy_patch('n', c, slo, shi, g, dlo, hi);
        NGA_Get(g, lo, hi, all, &ld);
        bad = 0;
        for (int i = 0; i < UR; i++)
            for (int j = 0; j < UC; j++) {
                int corner = i >= 3 && j >= 4 && !(i == 4 && j == 6);
                bad += memcmp(&all[i * UC + j], corner ? &v : &z, sizeof v) != 0;
            }
        CHECK_EQ(bad, 0, "GA_Fill, NGA_Zero_patch and NGA_Copy_patch of records");
    }
    GA_Destroy(h);
    GA_Destroy(c);
    GA_Destroy(g);
    NGA_Deregister_type(t20);
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
    else if (!strcmp(what, "arith")) {
        int n = 4, u = NGA_Create(NGA_Register_type(12), 1, &n, "u", NULL);
        double two = 2;
        GA_Scale(u, &two);
    }
    if (me == 0) printf("the bad call returned\n");
}

int main(int argc, char **argv) {
    int np;
    me = start_ga(&argc, &argv, &np, 100000);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "bad") && argc > 2) {
        bad(argv[2]);
    } else {
        int ours = !strcmp(mode, "ours");
        types();
        user_arrays(ours);
        properties();
        fields(0);
        if (ours) fields(1);
    }
    return finish_ga("ga_props", me);
}
