/* Processor groups: GA_Pgroup_create (from an unsorted list), split into
 * consecutive groups, split by color, self, duplicate, destroy; ranks,
 * sizes and absolute ids; sync, broadcast and the typed reductions on a
 * group; and the default group, which GA_Nodeid, GA_Nnodes, GA_Dgop,
 * GA_Igop, GA_Brdcst and GA_Sync then refer to. Every rank records what it
 * saw; rank 0 prints one line per rank (gathered over the world), so the
 * harness can compare with Debian's GA running this source. Prints
 * "ga_pgroups: N passed, M failed" on rank 0 (checks of all ranks). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "ga.h"
#include "ga-mpi.h"
#include "macdecls.h"
#include "../tally.h"
#include "ga_record.h"

#define NV 20

int main(int argc, char **argv) {
    int np, me = start_ga_record(&argc, &argv, &np);
    long v[8][NV] = {{0}};
    long *mine = v[me];
    int k = 0;

    CHECK_EQ(GA_Pgroup_get_world(), -1, "world handle");
    CHECK_EQ(GA_Pgroup_get_default(), -1, "first default group");
    CHECK_EQ(GA_Pgroup_get_mirror(), 0, "mirror handle");

    /* Last and first rank, listed out of order. */
    int list[2] = {np - 1, 0};
    int g = GA_Pgroup_create(list, np > 1 ? 2 : 1);
    mine[k++] = g;
    int in_g = me == 0 || me == np - 1;
    if (in_g) {
        int r = GA_Pgroup_nodeid(g), n = GA_Pgroup_nnodes(g);
        mine[k++] = r;
        mine[k++] = n;
        mine[k++] = GA_Pgroup_absolute_id(g, n - 1);
        CHECK_EQ(GA_Get_pgroup_size(g), n, "GA_Get_pgroup_size");
        double d[2] = {me + 0.5, -me};
        GA_Pgroup_dgop(g, d, 2, "+");
        CHECK(d[0] == (np > 1 ? np - 1 + 1.0 : 0.5), "group dgop sum %g", d[0]);
        int iv[1] = {me + 1};
        GA_Pgroup_igop(g, iv, 1, "max");
        mine[k++] = iv[0];
        long lv[1] = {-(me + 3)};
        GA_Pgroup_lgop(g, lv, 1, "absmax");
        mine[k++] = lv[0];
        long long ll[1] = {me + 1};
        GA_Pgroup_llgop(g, ll, 1, "*");
        mine[k++] = (long)ll[0];
        float f[1] = {1.5f};
        GA_Pgroup_fgop(g, f, 1, "+");
        mine[k++] = (long)(f[0] * 10);
        DoubleComplex z[1];
        z[0].real = me;
        z[0].imag = 1;
        GA_Pgroup_zgop(g, z, 1, "+");
        mine[k++] = (long)z[0].real * 100 + (long)z[0].imag;
        int b[2] = {me == np - 1 ? 42 : 0, me == np - 1 ? 7 : 0};
        GA_Pgroup_brdcst(g, b, sizeof b, n - 1);
        CHECK(b[0] == 42 && b[1] == 7, "group broadcast from its last rank: %d %d", b[0], b[1]);
        GA_Pgroup_sync(g);
        int size = -1;
        MPI_Comm_size(GA_MPI_Comm_pgroup(g), &size);
        CHECK_EQ(size, n, "GA_MPI_Comm_pgroup size");
    } else {
        k += 8;
    }

    /* Two groups of consecutive ranks. */
    int s = GA_Pgroup_split(GA_Pgroup_get_world(), 2);
    mine[k++] = s;
    mine[k++] = GA_Pgroup_nodeid(s);
    mine[k++] = GA_Pgroup_nnodes(s);
    mine[k++] = GA_Pgroup_absolute_id(s, 0);

    /* Even and odd ranks; made the default group. */
    int c = GA_Pgroup_split_irreg(GA_Pgroup_get_world(), me % 2);
    mine[k++] = c;
    int dup = GA_Pgroup_duplicate(c);
    int self = GA_Pgroup_self();
    mine[k++] = dup * 100 + self;
    CHECK_EQ(GA_Pgroup_nnodes(self), 1, "self group size");
    CHECK_EQ(GA_Pgroup_nodeid(dup), GA_Pgroup_nodeid(c), "duplicate keeps ranks");
    GA_Pgroup_set_default(c);
    CHECK_EQ(GA_Pgroup_get_default(), c, "default group set");
    mine[k++] = GA_Nodeid() * 100 + GA_Nnodes();
    double x = me + 1;
    GA_Dgop(&x, 1, "+");
    mine[k++] = (long)x;
    int root[1] = {GA_Nodeid() == 0 ? 100 + me : -1};
    GA_Brdcst(root, sizeof root, 0);
    mine[k++] = root[0];
    int ones[1] = {1};
    GA_Igop(ones, 1, "+");
    CHECK_EQ(ones[0], GA_Nnodes(), "GA_Igop over the default group");
    GA_Sync();
    GA_Pgroup_set_default(GA_Pgroup_get_world());
    CHECK_EQ(GA_Nnodes(), np, "GA_Nnodes after the world is the default again");
    CHECK_EQ(GA_Pgroup_destroy(dup), 1, "GA_Pgroup_destroy");
    return finish_ga_record("ga_pgroups", &v[0][0], NV, k, me, np);
}
