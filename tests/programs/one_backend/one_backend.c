/* One process, four legacy APIs, one MPI: PVM, TCGMSG, Express and Global
 * Arrays used side by side by every compute rank, with one ga-server beside
 * them
 *
 *     mpiexec -n N one_backend [mpi|pend] : -n 1 ga-server      (N >= 2)
 *
 * "pend" (the default) is a TCGMSG program: tcg_pbegin starts everything and
 * tcg_pend ends the process. "mpi" is a program that owns MPI: MPI_Init
 * before tcg_pbegin, MPI_Finalize at the end.
 *
 * Checks that the three agree on how many compute ranks there are and which
 * one this is, that PVM and TCGMSG messages with the same tag between the
 * same ranks do not mix, that a PVM ring and a TCGMSG ring deliver the right
 * data from the right sender, that an Express message of the same type
 * between the same ranks is received by Express only (and Express receives
 * nothing of the others, even with DONTCARE), that NXTVAL hands out every value exactly once,
 * and that GA put/get and NGA_Read_inc give the right values. Each rank
 * prints "one_backend rank R: P passed, F failed". */
#include <mpi.h>
#include <pvm3.h>
#include <tcgmsg.h>
#include <ga.h>
#include <express.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"

#define TAG 5            /* the same number for PVM and TCGMSG on purpose */
#define TCG_RING 21
#define NXT_LIMIT 60
#define GA_PER_RANK 10
#define INCS_PER_RANK 5

static long me, nproc;

static long next_rank(void) { return (me + 1) % nproc; }
static long prev_rank(void) { return (me + nproc - 1) % nproc; }

/* PVM: a ring of one packed int and one string, checking the sender. */
static void pvm_ring(const int *sibs)
{
    int value = (int)me * 100 + 7;
    char text[32];
    snprintf(text, sizeof text, "pvm from %ld", me);
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&value, 1, 1);
    pvm_pkstr(text);
    EXPECT(pvm_send(sibs[next_rank()], TAG), PvmOk);

    int bufid = pvm_recv(sibs[prev_rank()], TAG);
    CHECK(bufid > 0, "pvm_recv from the previous sibling returned %d", bufid);
    int bytes = 0, tag = 0, src = 0;
    EXPECT(pvm_bufinfo(bufid, &bytes, &tag, &src), PvmOk);
    CHECK_EQ(src, sibs[prev_rank()], "PVM ring: sender tid");
    CHECK_EQ(tag, TAG, "PVM ring: tag");
    int got = -1;
    char got_text[32] = "";
    EXPECT(pvm_upkint(&got, 1, 1), PvmOk);
    EXPECT(pvm_upkstr(got_text), PvmOk);
    CHECK_EQ(got, prev_rank() * 100 + 7, "PVM ring: value");
    snprintf(text, sizeof text, "pvm from %ld", prev_rank());
    CHECK(strcmp(got_text, text) == 0, "PVM ring: text '%s', expected '%s'", got_text, text);
}

/* TCGMSG: a ring of doubles, synchronous sends, even ranks send first. */
static void tcg_ring(void)
{
    double out[16], in[16];
    for (int i = 0; i < 16; i++)
        out[i] = me * 1000.0 + i;
    long lenmes = -1, from = -1;
    if (me % 2 == 0) {
        tcg_snd(TCG_RING, out, (long)sizeof out, next_rank(), 1);
        tcg_rcv(TCG_RING, in, (long)sizeof in, &lenmes, prev_rank(), &from, 1);
    } else {
        tcg_rcv(TCG_RING, in, (long)sizeof in, &lenmes, prev_rank(), &from, 1);
        tcg_snd(TCG_RING, out, (long)sizeof out, next_rank(), 1);
    }
    CHECK_EQ(lenmes, sizeof in, "TCGMSG ring: message length");
    CHECK_EQ(from, prev_rank(), "TCGMSG ring: sender");
    int bad = 0;
    for (int i = 0; i < 16; i++)
        bad += in[i] != prev_rank() * 1000.0 + i;
    CHECK_EQ(bad, 0, "TCGMSG ring: wrong doubles");
}

/* The same tag number on PVM and TCGMSG to the same rank: each API gets its
 * own message, whichever is received first. */
static void same_tag_both_apis(const int *sibs)
{
    long tcg_out = 4000 + me, tcg_in = -1, lenmes = -1, from = -1;
    int pvm_out = 3000 + (int)me, pvm_in = -1;

    pvm_initsend(PvmDataRaw);
    pvm_pkint(&pvm_out, 1, 1);
    EXPECT(pvm_send(sibs[next_rank()], TAG), PvmOk);
    tcg_snd(TAG, &tcg_out, (long)sizeof tcg_out, next_rank(), 0);

    /* TCGMSG first: the PVM message, sent earlier, must not be taken. */
    tcg_rcv(TAG, &tcg_in, (long)sizeof tcg_in, &lenmes, prev_rank(), &from, 1);
    CHECK_EQ(tcg_in, 4000 + prev_rank(), "TCGMSG message with the PVM tag");
    CHECK_EQ(lenmes, sizeof tcg_in, "TCGMSG message length");
    CHECK(pvm_recv(sibs[prev_rank()], TAG) > 0, "pvm_recv after the TCGMSG message");
    EXPECT(pvm_upkint(&pvm_in, 1, 1), PvmOk);
    CHECK_EQ(pvm_in, 3000 + prev_rank(), "PVM message with the TCGMSG type");
    tcg_waitcom(-1);
}

/* Express beside PVM and TCGMSG: the same number as PVM tag, TCGMSG type
 * and Express type between the same ranks; each API gets only its own
 * message, and an Express receive with DONTCARE source and type takes
 * nothing of the other APIs. */
static void express_beside_the_others(const int *sibs)
{
    struct nodenv env;
    EXPECT(exparam(&env), 0);
    CHECK_EQ(env.procnum, me, "Express node number against tcg_nodeid");
    CHECK_EQ(env.nprocs, nproc, "Express nprocs against tcg_nnodes");
    CHECK_EQ(env.host, EXNOHOST, "no Express host beside the ga-server");

    int pvm_out = 3000 + (int)me;
    long tcg_out = 4000 + me;
    int ex_out = 5000 + (int)me;
    pvm_initsend(PvmDataRaw);
    pvm_pkint(&pvm_out, 1, 1);
    EXPECT(pvm_send(sibs[next_rank()], TAG), PvmOk);
    tcg_snd(TAG, &tcg_out, (long)sizeof tcg_out, next_rank(), 0);
    int dest = (int)next_rank(), type = TAG;
    EXPECT(exwrite(&ex_out, sizeof ex_out, &dest, &type), (int)sizeof ex_out);

    int ex_in = -1, src = DONTCARE, t = DONTCARE;
    EXPECT(exread(&ex_in, sizeof ex_in, &src, &t), (int)sizeof ex_in);
    CHECK_EQ(ex_in, 5000 + prev_rank(), "Express message among PVM and TCGMSG ones");
    CHECK_EQ(src, prev_rank(), "Express sender");
    CHECK_EQ(t, TAG, "Express type");
    long tcg_in = -1, lenmes = -1, from = -1;
    tcg_rcv(TAG, &tcg_in, (long)sizeof tcg_in, &lenmes, prev_rank(), &from, 1);
    CHECK_EQ(tcg_in, 4000 + prev_rank(), "TCGMSG message beside Express");
    CHECK(pvm_recv(sibs[prev_rank()], TAG) > 0, "pvm_recv beside Express");
    int pvm_in = -1;
    EXPECT(pvm_upkint(&pvm_in, 1, 1), PvmOk);
    CHECK_EQ(pvm_in, 3000 + prev_rank(), "PVM message beside Express");
    tcg_waitcom(-1);
    src = DONTCARE;
    t = DONTCARE;
    EXPECT(extest(&src, &t), EXNOMSG);

    int sum = (int)me + 1;
    EXPECT(excombine(&sum, ex_isum, sizeof sum, 1, ALLNODES, NULL, 0), 0);
    CHECK_EQ(sum, nproc * (nproc + 1) / 2, "Express combine beside the others");
    EXPECT(exsync(), 0);
}

/* NXTVAL: every value below the limit goes to exactly one rank. */
static void nxtval_once_each(void)
{
    long taken[NXT_LIMIT];
    memset(taken, 0, sizeof taken);
    long v, mine = 0;
    while ((v = tcg_nxtval(nproc)) < NXT_LIMIT) {
        CHECK(v >= 0, "tcg_nxtval returned %ld", v);
        if (v >= 0)
            taken[v]++;
        mine++;
    }
    tcg_igop(TAG, taken, NXT_LIMIT, "+");
    int bad = 0;
    for (int i = 0; i < NXT_LIMIT; i++)
        bad += taken[i] != 1;
    CHECK_EQ(bad, 0, "values not handed out exactly once by tcg_nxtval");
    tcg_igop(TAG, &mine, 1, "+");
    CHECK_EQ(mine, NXT_LIMIT, "tcg_nxtval values below the limit, all ranks");
    (void)tcg_nxtval(-nproc);
    /* After the reset the counter starts again from 0 (rank 0 takes one,
     * then all reset again). */
    if (me == 0)
        CHECK_EQ(tcg_nxtval(nproc), 0, "tcg_nxtval after the reset");
    (void)tcg_nxtval(-nproc);
}

/* GA: each rank puts its own slice, everyone reads the whole array; all
 * ranks increment one counter, each old value seen once. */
static void ga_put_get_read_inc(void)
{
    int dims = (int)nproc * GA_PER_RANK;
    int g = NGA_Create(C_INT, 1, &dims, "one_backend", NULL);
    CHECK(g != 0, "NGA_Create(C_INT, [%d])", dims);
    if (!g)
        return;
    GA_Zero(g);
    int slice[GA_PER_RANK];
    for (int i = 0; i < GA_PER_RANK; i++)
        slice[i] = (int)me * 1000 + i;
    int lo = (int)me * GA_PER_RANK, hi = lo + GA_PER_RANK - 1, ld = 1;
    NGA_Put(g, &lo, &hi, slice, &ld);
    GA_Sync();
    int *all = malloc((size_t)dims * sizeof *all);
    lo = 0;
    hi = dims - 1;
    NGA_Get(g, &lo, &hi, all, &ld);
    int bad = 0;
    for (int i = 0; i < dims; i++)
        bad += all[i] != (i / GA_PER_RANK) * 1000 + i % GA_PER_RANK;
    CHECK_EQ(bad, 0, "GA elements wrong after put/get");
    free(all);
    GA_Sync();
    GA_Destroy(g);

    int one = 1;
    int c = NGA_Create(C_LONG, 1, &one, "counter", NULL);
    CHECK(c != 0, "NGA_Create(C_LONG, [1])");
    if (!c)
        return;
    GA_Zero(c);
    GA_Sync();
    long seen[INCS_PER_RANK * 4 * 16];
    long nseen = nproc * INCS_PER_RANK;
    memset(seen, 0, sizeof seen);
    int sub = 0;
    for (int i = 0; i < INCS_PER_RANK; i++) {
        long old = NGA_Read_inc(c, &sub, 1);
        CHECK(old >= 0 && old < nseen, "NGA_Read_inc returned %ld", old);
        if (old >= 0 && old < nseen)
            seen[old]++;
    }
    GA_Sync();
    long total = -1;
    NGA_Get(c, &sub, &sub, &total, &ld);
    CHECK_EQ(total, nseen, "counter after every rank's NGA_Read_inc");
    GA_Lgop(seen, (int)nseen, "+");
    bad = 0;
    for (long i = 0; i < nseen; i++)
        bad += seen[i] != 1;
    CHECK_EQ(bad, 0, "old values not returned exactly once by NGA_Read_inc");
    GA_Sync();
    GA_Destroy(c);
}

int main(int argc, char **argv)
{
    int user_mpi = argc > 1 && strcmp(argv[1], "mpi") == 0;
    if (user_mpi)
        MPI_Init(&argc, &argv);
    tcg_pbegin(argc, argv);
    GA_Initialize();
    me = tcg_nodeid();
    nproc = tcg_nnodes();
    tally_who = (int)me;

    int mytid = pvm_mytid();
    CHECK(mytid > 0, "pvm_mytid returned %d", mytid);
    int *sibs = NULL;
    int nsibs = pvm_siblings(&sibs);
    CHECK_EQ(nsibs, nproc, "pvm_siblings against tcg_nnodes");
    CHECK_EQ(GA_Nnodes(), nproc, "GA_Nnodes against tcg_nnodes");
    CHECK_EQ(GA_Nodeid(), me, "GA_Nodeid against tcg_nodeid");
    int agree = nsibs == nproc && nproc >= 2 && nproc <= 16 && sibs != NULL;
    if (agree) {
        CHECK_EQ(sibs[me], mytid, "my tid's place among the PVM siblings");
        pvm_ring(sibs);
        tcg_ring();
        same_tag_both_apis(sibs);
        express_beside_the_others(sibs);
    } else {
        CHECK(0, "needs 2 to 16 compute ranks on which PVM and TCGMSG agree (%d siblings, %ld nodes)",
              nsibs, nproc);
    }
    nxtval_once_each();
    ga_put_get_read_inc();
    tcg_synch(TAG);

    printf("one_backend rank %ld: %d passed, %d failed\n", me, passed, failed);
    fflush(stdout);
    GA_Terminate();
    pvm_exit();
    if (user_mpi) {
        MPI_Finalize();
        return failed != 0;
    }
    tcg_pend();
    return failed != 0; /* not reached: tcg_pend ends the process */
}
