/* Global Arrays C API: creation, put/get/acc on regular and irregular
 * distributions and strided patches, atomic accumulate and read-increment
 * from every rank, scatter/gather, non-blocking operations, direct access,
 * locks, collectives. Prints "ga_basic: N passed, M failed". */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "ga.h"
#include "ga-mpi.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_finish.h"

#define ROWS 13
#define COLS 9

static double value(int i, int j) { return 100.0 * i + j + 0.25; }

static void identity(int me, int np) {
    int size = -1, rank = -1;
    MPI_Comm_size(GA_MPI_Comm(), &size);
    MPI_Comm_rank(GA_MPI_Comm(), &rank);
    CHECK_EQ(size, np, "GA_MPI_Comm size == GA_Nnodes");
    CHECK_EQ(rank, me, "GA_MPI_Comm rank == GA_Nodeid");
    EXPECT(GA_Uses_ma(), 0);
    EXPECT(GA_Uses_fapi(), 0);
    EXPECT(GA_Initialized(), 1);
    double t0 = GA_Wtime(), t1 = GA_Wtime();
    CHECK(t1 >= t0, "GA_Wtime goes forward");
}

/* Whole-array put by rank 0, get everywhere; strided patches with padded
 * buffers; accumulate from every rank. */
static void put_get_acc(int g, int me, int np, const char *what) {
    int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1}, ld[1] = {COLS};
    double all[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) all[i][j] = value(i, j);
    if (me == 0) NGA_Put(g, lo, hi, all, ld);
    GA_Sync();
    double back[ROWS][COLS];
    memset(back, 0, sizeof back);
    NGA_Get(g, lo, hi, back, ld);
    int bad = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) bad += back[i][j] != value(i, j);
    CHECK(bad == 0, "%s: whole get after put: %d wrong", what, bad);

    /* One row with ld = 1, as GA's own tests pass it: the stride of a
     * single row is never used. */
    double row[COLS];
    int one = 1, rlo1[2] = {3, 0}, rhi1[2] = {3, COLS - 1};
    NGA_Get(g, rlo1, rhi1, row, &one);
    bad = 0;
    for (int j = 0; j < COLS; j++) bad += row[j] != value(3, j);
    CHECK(bad == 0, "%s: one-row get with ld=1: %d wrong", what, bad);

    /* A 4x3 patch at (5,2) read into a 6x7 buffer at (1,2), ld = 7. */
    double pad[6][7];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 7; j++) pad[i][j] = -1.0;
    int plo[2] = {5, 2}, phi[2] = {8, 4}, pld[1] = {7};
    NGA_Get(g, plo, phi, &pad[1][2], pld);
    bad = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 7; j++) {
            int in = i >= 1 && i <= 4 && j >= 2 && j <= 4;
            double want = in ? value(5 + i - 1, 2 + j - 2) : -1.0;
            bad += pad[i][j] != want;
        }
    CHECK(bad == 0, "%s: strided get into padded buffer: %d wrong", what, bad);
    GA_Sync();

    /* Each rank puts its own row of a strided patch from a padded buffer. */
    if (me < ROWS) {
        double src[2][5];
        for (int j = 0; j < 5; j++) src[0][j] = -(me * 10.0 + j), src[1][j] = 999.0;
        int rlo[2] = {me, 3}, rhi[2] = {me, 5}, rld[1] = {5};
        NGA_Put(g, rlo, rhi, &src[0][1], rld);
    }
    GA_Sync();
    NGA_Get(g, lo, hi, back, ld);
    bad = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            double want = (i < np && j >= 3 && j <= 5) ? -(i * 10.0 + (j - 3 + 1)) : value(i, j);
            bad += back[i][j] != want;
        }
    CHECK(bad == 0, "%s: strided put from padded buffers: %d wrong", what, bad);
    GA_Sync();

    /* Accumulate: every rank adds alpha*ones 20 times to one patch that
     * spans several owners. */
    GA_Zero(g);
    double ones[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) ones[i][j] = 1.0;
    double alpha = 0.5;
    int alo[2] = {2, 1}, ahi[2] = {11, 7};
    for (int r = 0; r < 20; r++) NGA_Acc(g, alo, ahi, ones, ld, &alpha);
    GA_Sync();
    NGA_Get(g, lo, hi, back, ld);
    bad = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int in = i >= 2 && i <= 11 && j >= 1 && j <= 7;
            bad += back[i][j] != (in ? 10.0 * np : 0.0);
        }
    CHECK(bad == 0, "%s: concurrent NGA_Acc from %d ranks: %d wrong", what, np, bad);
    GA_Sync();
}

static void distribution_checks(int g, int np, const int *block, const int *map) {
    /* The blocks of an irregular array follow map; they tile the array. */
    int covered[ROWS][COLS];
    memset(covered, 0, sizeof covered);
    for (int p = 0; p < np; p++) {
        int lo[2], hi[2];
        NGA_Distribution(g, p, lo, hi);
        if (lo[0] < 0) continue;
        int rowstart = 0;
        for (int b = 0; b < block[0]; b++) rowstart += map[b] == lo[0];
        int colstart = 0;
        for (int b = 0; b < block[1]; b++) colstart += map[block[0] + b] == lo[1];
        CHECK(rowstart == 1 && colstart == 1, "block of %d starts at map entries (%d,%d)", p, lo[0], lo[1]);
        for (int i = lo[0]; i <= hi[0]; i++)
            for (int j = lo[1]; j <= hi[1]; j++) covered[i][j]++;
        int sub[2] = {lo[0], hi[1]};
        EXPECT(NGA_Locate(g, sub), p);
    }
    int bad = 0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) bad += covered[i][j] != 1;
    CHECK(bad == 0, "irregular blocks tile the array: %d elements not owned once", bad);
    int out[2] = {ROWS, 0};
    EXPECT(NGA_Locate(g, out), -1);

    int lo[2] = {0, 0}, hi[2] = {ROWS - 1, COLS - 1};
    int rmap[4 * 64], procs[64];
    int n = NGA_Locate_region(g, lo, hi, rmap, procs);
    int total = 0;
    for (int k = 0; k < n; k++)
        total += (rmap[4 * k + 2] - rmap[4 * k] + 1) * (rmap[4 * k + 3] - rmap[4 * k + 1] + 1);
    CHECK(n >= 1 && n <= np, "NGA_Locate_region owners: %d", n);
    EXPECT(total, ROWS * COLS);
    EXPECT(NGA_Locate_nnodes(g, lo, hi), n);
}

static void read_inc(int me, int np) {
    int dims[1] = {2};
    int g = NGA_Create(C_LONG, 1, dims, "counter", NULL);
    CHECK(g != 0, "create counter");
    GA_Zero(g);
    enum { N = 200 };
    long got[N];
    int sub[1] = {1};
    for (int k = 0; k < N; k++) got[k] = NGA_Read_inc(g, sub, 1);
    long *hist = calloc((size_t)N * np, sizeof(long));
    for (int k = 0; k < N; k++)
        if (got[k] >= 0 && got[k] < (long)N * np) hist[got[k]]++;
    GA_Lgop(hist, N * np, "+");
    int bad = 0;
    for (long v = 0; v < (long)N * np; v++) bad += hist[v] != 1;
    CHECK(bad == 0, "NGA_Read_inc from %d ranks: %d values not handed out exactly once", np, bad);
    free(hist);
    GA_Sync();
    long final = NGA_Read_inc(g, sub, 0);
    EXPECT(final, (long)N * np);
    int z[1] = {0};
    if (me == 0) EXPECT(NGA_Read_inc(g, z, 5), 0);
    GA_Sync();
    if (me == np - 1) EXPECT(NGA_Read_inc(g, z, 1), 5);
    /* C_INT counters work as well. */
    int gi = NGA_Create(C_INT, 1, dims, "icounter", NULL);
    GA_Zero(gi);
    for (int k = 0; k < 10; k++) NGA_Read_inc(gi, sub, 3);
    GA_Sync();
    int v[2];
    int lo[1] = {0}, hi[1] = {1};
    NGA_Get(gi, lo, hi, v, NULL);
    EXPECT(v[1], 30 * np);
    GA_Destroy(gi);
    GA_Destroy(g);
}

static void scatter_gather(int me, int np) {
    int dims[2] = {7, 11};
    int g = NGA_Create(C_DBL, 2, dims, "sg", NULL);
    GA_Zero(g);
    /* Each rank scatters to a diagonal-ish set of elements of its own. */
    enum { K = 7 };
    int subs_store[K][2];
    int *subs[K];
    double v[K];
    for (int k = 0; k < K; k++) {
        subs_store[k][0] = k;
        subs_store[k][1] = (k + me) % 11;
        subs[k] = subs_store[k];
        v[k] = 1000.0 * me + k;
    }
    if (me < 11) NGA_Scatter(g, v, subs, K);
    GA_Sync();
    double w[K];
    for (int k = 0; k < K; k++) w[k] = -1;
    if (me < 11) NGA_Gather(g, w, subs, K);
    int bad = 0;
    for (int k = 0; k < K; k++) bad += me < 11 && w[k] != v[k];
    CHECK(bad == 0, "gather after scatter: %d wrong", bad);
    GA_Sync();
    /* Scatter-accumulate from everyone into the same elements. */
    GA_Zero(g);
    int flat[K * 2];
    double ones[K], alpha = 2.0;
    for (int k = 0; k < K; k++) flat[2 * k] = k, flat[2 * k + 1] = 10 - k, ones[k] = 1.0;
    NGA_Scatter_acc_flat(g, ones, flat, K, &alpha);
    NGA_Scatter_acc(g, ones, subs, 1, &alpha);
    GA_Sync();
    NGA_Gather_flat(g, w, flat, K);
    bad = 0;
    for (int k = 0; k < K; k++) {
        double want = 2.0 * np;
        /* subs[0] of each rank is (0, me % 11); (0,10) is flat[0]. */
        for (int p = 0; p < np; p++) want += (k == 0 && p % 11 == 10) ? 2.0 : 0.0;
        bad += w[k] != want;
    }
    CHECK(bad == 0, "NGA_Scatter_acc from %d ranks: %d wrong", np, bad);
    GA_Destroy(g);
}

static void nonblocking(int me, int np) {
    int dims[1] = {40 * np};
    int g = NGA_Create(C_INT, 1, dims, "nb", NULL);
    GA_Zero(g);
    int mine[40];
    for (int k = 0; k < 40; k++) mine[k] = me * 1000 + k;
    /* Write the next rank's slot, so the data crosses ranks. */
    int slot = (me + 1) % np;
    int lo[1] = {40 * slot}, hi[1] = {40 * slot + 39};
    ga_nbhdl_t h;
    NGA_NbPut(g, lo, hi, mine, NULL, &h);
    NGA_NbWait(&h);
    GA_Sync();
    int back[40];
    NGA_NbGet(g, lo, hi, back, NULL, &h);
    NGA_NbWait(&h);
    int bad = 0;
    for (int k = 0; k < 40; k++) bad += back[k] != mine[k];
    CHECK(bad == 0, "NbGet after NbPut: %d wrong", bad);
    GA_Sync();
    int one[40], alpha = 1;
    for (int k = 0; k < 40; k++) one[k] = 1;
    int alo[1] = {0}, ahi[1] = {39};
    NGA_NbAcc(g, alo, ahi, one, NULL, &alpha, &h);
    /* NGA_NbTest is 1 once complete, 0 while pending (as GA 5.8). */
    long spins = 0;
    while (!NGA_NbTest(&h) && spins < 100000000L) spins++;
    CHECK(spins < 100000000L, "NGA_NbTest never reported completion");
    GA_Sync();
    NGA_Get(g, alo, ahi, back, NULL);
    bad = 0;
    int owner0 = np - 1; /* rank np-1 wrote slot 0 */
    for (int k = 0; k < 40; k++) bad += back[k] != owner0 * 1000 + k + np;
    CHECK(bad == 0, "NbAcc from %d ranks: %d wrong", np, bad);
    GA_Destroy(g);
}

static void access_and_handles(int me, int np) {
    /* GA_Create_handle / Set_data / Set_chunk / Allocate. */
    int g = GA_Create_handle();
    CHECK(g != 0, "GA_Create_handle non-zero");
    int dims[2] = {10, 6}, chunk[2] = {-1, 6};
    GA_Set_data(g, 2, dims, MT_F_INT);
    GA_Set_array_name(g, "described");
    GA_Set_chunk(g, chunk);
    EXPECT(GA_Allocate(g), 1);
    EXPECT(GA_Ndim(g), 2);
    CHECK(strcmp(GA_Inquire_name(g), "described") == 0, "name '%s'", GA_Inquire_name(g));
    int type = 0, nd = 0, d[2];
    NGA_Inquire(g, &type, &nd, d);
    /* GA reports the C type: Fortran INTEGER is a C long. */
    EXPECT(type, C_LONG);
    EXPECT(nd, 2);
    CHECK(d[0] == 10 && d[1] == 6, "dims %d x %d", d[0], d[1]);
    /* chunk 6 on the last dimension: every block spans whole rows. */
    int lo[2], hi[2];
    NGA_Distribution(g, me, lo, hi);
    if (lo[0] >= 0) CHECK(lo[1] == 0 && hi[1] == 5, "whole rows per block: [%d:%d]", lo[1], hi[1]);
    GA_Zero(g);

    /* Access: every rank writes its own block directly; others see it. */
    if (lo[0] >= 0) {
        long *p = NULL;
        int ld[1];
        NGA_Access(g, lo, hi, &p, ld);
        for (int i = 0; i <= hi[0] - lo[0]; i++)
            for (int j = 0; j <= hi[1] - lo[1]; j++) p[i * ld[0] + j] = 100 * (lo[0] + i) + (lo[1] + j);
        NGA_Release_update(g, lo, hi);
    }
    GA_Sync();
    long all[10][6];
    int alo[2] = {0, 0}, ahi[2] = {9, 5}, ald[1] = {6};
    NGA_Get(g, alo, ahi, all, ald);
    int bad = 0;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 6; j++) bad += all[i][j] != 100 * i + j;
    CHECK(bad == 0, "values written through NGA_Access: %d wrong", bad);

    /* Duplicate keeps shape and distribution, not data. */
    int g2 = GA_Duplicate(g, "copy");
    CHECK(g2 != 0 && g2 != g, "GA_Duplicate handle %d", g2);
    EXPECT(GA_Compare_distr(g, g2), 0);
    GA_Copy(g, g2);
    NGA_Get(g2, alo, ahi, all, ald);
    bad = 0;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 6; j++) bad += all[i][j] != 100 * i + j;
    CHECK(bad == 0, "GA_Copy into duplicate: %d wrong", bad);
    int other = NGA_Create(C_LONG, 2, dims, "other", NULL);
    int ndims[2] = {6, 10};
    int third = NGA_Create(C_LONG, 2, ndims, "third", NULL);
    EXPECT(GA_Compare_distr(g, third), 1);
    EXPECT(GA_Valid_handle(g2), 1);
    GA_Destroy(g2);
    EXPECT(GA_Valid_handle(g2), 0);
    GA_Destroy(third);
    GA_Destroy(other);
    GA_Destroy(g);
    (void)np;
}

static void locks(int me, int np) {
    EXPECT(GA_Create_mutexes(2), 1);
    int dims[1] = {1};
    int g = NGA_Create(C_INT, 1, dims, "crit", NULL);
    GA_Zero(g);
    int lo[1] = {0}, hi[1] = {0};
    for (int k = 0; k < 50; k++) {
        GA_Lock(1);
        int v;
        NGA_Get(g, lo, hi, &v, NULL);
        v += 1;
        NGA_Put(g, lo, hi, &v, NULL);
        GA_Unlock(1);
    }
    GA_Sync();
    int v;
    NGA_Get(g, lo, hi, &v, NULL);
    CHECK_EQ(v, 50 * np, "critical-section counter");
    GA_Destroy(g);
    EXPECT(GA_Destroy_mutexes(), 1);
    (void)me;
}

static void collectives(int me, int np) {
    double x[3] = {me + 1.0, -(me + 1.0), 2.0};
    GA_Dgop(x, 3, "+");
    CHECK(x[0] == np * (np + 1) / 2.0 && x[1] == -x[0] && x[2] == 2.0 * np, "GA_Dgop +");
    int iv[2] = {me, -me};
    GA_Igop(iv, 2, "max");
    CHECK(iv[0] == np - 1 && iv[1] == 0, "GA_Igop max: %d %d", iv[0], iv[1]);
    long lv[1] = {-(long)me - 5};
    GA_Lgop(lv, 1, "absmax");
    CHECK_EQ(lv[0], np + 4, "GA_Lgop absmax");
    char msg[16];
    memset(msg, 0, sizeof msg);
    if (me == np - 1) strcpy(msg, "from the last");
    GA_Brdcst(msg, sizeof msg, np - 1);
    CHECK(strcmp(msg, "from the last") == 0, "GA_Brdcst got '%s'", msg);
}

/* MA for C: sizes, a stack block and a heap block used through their
 * pointers, the space they take. */
static void ma_basics(void) {
    EXPECT(MA_sizeof(MT_DBL, 3, MT_INT), 6);
    EXPECT(MA_sizeof(MT_C_CHAR, 9, MT_F_DBL), 2);
    EXPECT(MA_sizeof(MT_F_INT, 1, MT_C_CHAR), 8);
    EXPECT(MA_initialized(), MA_TRUE);
    Integer avail = MA_inquire_avail(MT_DBL);
    Integer hs, hh;
    MA_AccessIndex is;
    CHECK(MA_push_get(MT_DBL, 100, "work", &hs, &is) == MA_TRUE, "MA_push_get");
    CHECK(MA_alloc_get(MT_INT, 10, "iwork", &hh, &is) == MA_TRUE, "MA_alloc_get");
    double *d = NULL;
    int *iv = NULL;
    CHECK(MA_get_pointer(hs, &d) == MA_TRUE && d != NULL, "MA_get_pointer stack");
    CHECK(MA_get_pointer(hh, &iv) == MA_TRUE && iv != NULL, "MA_get_pointer heap");
    for (int k = 0; k < 100; k++) d[k] = k;
    for (int k = 0; k < 10; k++) iv[k] = -k;
    CHECK(d[99] == 99.0 && iv[9] == -9, "MA blocks hold data");
    CHECK(MA_inquire_avail(MT_DBL) <= avail - 100 - 5, "MA space taken by the blocks");
    EXPECT(MA_free_heap(hh), MA_TRUE);
    EXPECT(MA_pop_stack(hs), MA_TRUE);
    EXPECT(MA_inquire_avail(MT_DBL), avail);
    Integer big;
    MA_set_error_print(MA_FALSE);
    EXPECT(MA_push_stack(MT_DBL, avail + 1, "too big", &big), MA_FALSE);
    /* A null handle pointer is refused without taking any space. */
    EXPECT(MA_push_get(MT_DBL, 10, "no handle", NULL, &is), MA_FALSE);
    EXPECT(MA_alloc_get(MT_DBL, 10, "no index", &big, NULL), MA_FALSE);
    EXPECT(MA_inquire_avail(MT_DBL), avail);
}

/* GA's memory figures: GA_Inquire_memory counts this process's blocks,
 * GA_Set_memory_limit makes GA_Memory_avail the limit less them. */
static void memory(int me) {
    size_t before = GA_Inquire_memory();
    int dims[2] = {ROWS, COLS};
    int gm = NGA_Create(C_DBL, 2, dims, "memory", NULL);
    CHECK(gm != 0, "NGA_Create memory");
    int lo[2], hi[2];
    NGA_Distribution(gm, me, lo, hi);
    size_t mine = 0;
    if (hi[0] >= lo[0] && hi[1] >= lo[1])
        mine = (size_t)(hi[0] - lo[0] + 1) * (size_t)(hi[1] - lo[1] + 1) * sizeof(double);
    CHECK(GA_Inquire_memory() == before + mine, "GA_Inquire_memory counts my block");
    CHECK(NGA_Inquire_memory() == before + mine, "NGA_Inquire_memory");
    EXPECT(GA_Memory_limited(), 0);
    CHECK(GA_Memory_avail() == (size_t)-1, "GA_Memory_avail without a limit");
    GA_Set_memory_limit(before + mine + 4096);
    EXPECT(GA_Memory_limited(), 1);
    CHECK(GA_Memory_avail() == 4096, "GA_Memory_avail under the limit");
    NGA_Set_memory_limit(before + mine + 100);
    CHECK(NGA_Memory_avail() == 100, "NGA_Memory_avail");
    GA_Destroy(gm);
    CHECK(GA_Inquire_memory() == before, "GA_Inquire_memory after GA_Destroy");
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    GA_Initialize();
    CHECK(MA_init(MT_DBL, 1000, 1000) == MA_TRUE, "MA_init");
    int me = GA_Nodeid(), np = GA_Nnodes();
    tally_who = me;
    identity(me, np);
    ma_basics();

    int dims[2] = {ROWS, COLS};
    int g = NGA_Create(C_DBL, 2, dims, "regular", NULL);
    CHECK(g != 0, "NGA_Create regular");
    put_get_acc(g, me, np, "regular");
    int gf = NGA_Create(MT_F_DBL, 2, dims, "fortran-coded", NULL);
    CHECK(gf != 0, "NGA_Create with F_DBL");
    put_get_acc(gf, me, np, "F_DBL");

    /* Irregular blocks of uneven sizes, as many as there are ranks. */
    int block[2], map[4];
    if (np == 1) {
        block[0] = 1, block[1] = 1, map[0] = 0, map[1] = 0;
    } else if (np == 2) {
        block[0] = 1, block[1] = 2, map[0] = 0, map[1] = 0, map[2] = 4;
    } else if (np == 3) {
        block[0] = 3, block[1] = 1, map[0] = 0, map[1] = 3, map[2] = 4, map[3] = 0;
    } else {
        block[0] = 2, block[1] = 2, map[0] = 0, map[1] = 5, map[2] = 0, map[3] = 4;
    }
    int gi = NGA_Create_irreg(C_DBL, 2, dims, "irregular", block, map);
    CHECK(gi != 0, "NGA_Create_irreg");
    distribution_checks(gi, np, block, map);
    put_get_acc(gi, me, np, "irregular");

    read_inc(me, np);
    scatter_gather(me, np);
    nonblocking(me, np);
    access_and_handles(me, np);
    locks(me, np);
    collectives(me, np);
    memory(me);

    GA_Destroy(gi);
    GA_Destroy(gf);
    GA_Destroy(g);
    return finish_ga("ga_basic", me);
}
