/* MA's stack and heap as GA's MA keeps them: after MA_init(type, stack,
 * heap) each has its own room, blocks take MA's overhead, freed heap blocks
 * are reused and merged. Rank 0 prints MA_inquire_stack/heap/avail after
 * every step, for several types; the test compares the lines with what
 * the same program prints when linked with Debian's GA. */
#include <mpi.h>
#include <stdio.h>
#include "ga.h"
#include "macdecls.h"

static int me;

static void show(const char *step) {
    const Integer types[] = {MT_DBL, MT_INT, MT_C_CHAR, MT_C_LONGINT, MT_F_DBL, MT_F_INT};
    const char *names[] = {"dbl", "int", "char", "long", "f_dbl", "f_int"};
    if (me != 0) return;
    printf("%-22s", step);
    for (int t = 0; t < 6; t++)
        printf(" %s %ld/%ld/%ld", names[t], (long)MA_inquire_stack(types[t]),
               (long)MA_inquire_heap(types[t]), (long)MA_inquire_avail(types[t]));
    printf("\n");
}

static void ok(Integer r, const char *what) {
    if (me == 0) printf("%-22s %s\n", what, r ? "true" : "false");
}

int main(int argc, char **argv) {
    Integer s1, s2, s3, h1, h2, h3, h4, big;
    MA_AccessIndex i;
    MPI_Init(&argc, &argv);
    GA_Initialize();
    me = GA_Nodeid();
    ok(MA_init(MT_DBL, 400000, 400000), "MA_init");
    show("init");
    ok(MA_push_stack(MT_DBL, 1000, "s1", &s1), "push 1000 dbl");
    show("after push");
    ok(MA_push_get(MT_INT, 333, "s2", &s2, &i), "push 333 int");
    ok(MA_push_stack(MT_C_CHAR, 7, "s3", &s3), "push 7 char");
    show("three on the stack");
    ok(MA_allocate_heap(MT_DBL, 5000, "h1", &h1), "heap 5000 dbl");
    ok(MA_alloc_get(MT_DBL, 7, "h2", &h2, &i), "heap 7 dbl");
    show("two on the heap");
    ok(MA_chop_stack(s2), "chop to s2");
    show("chopped");
    ok(MA_free_heap(h1), "free h1");
    show("h1 free, below h2");
    ok(MA_allocate_heap(MT_C_LONGINT, 100, "h3", &h3), "heap 100 long");
    show("h3 in h1's place");
    ok(MA_pop_stack(s1), "pop s1");
    show("stack empty");
    /* A freed block bigger than the rest of the heap region. */
    ok(MA_free_heap(h3), "free h3");
    ok(MA_free_heap(h2), "free h2");
    show("heap empty");
    ok(MA_allocate_heap(MT_DBL, 300000, "h1", &h1), "heap 300000 dbl");
    ok(MA_allocate_heap(MT_INT, 10, "h2", &h2), "heap 10 int");
    ok(MA_allocate_heap(MT_DBL, 20000, "h3", &h3), "heap 20000 dbl");
    ok(MA_allocate_heap(MT_DBL, 10, "h4", &h4), "heap 10 dbl");
    show("four on the heap");
    ok(MA_free_heap(h1), "free h1");
    show("h1 free");
    ok(MA_free_heap(h3), "free h3");
    show("h1 and h3 free");
    ok(MA_free_heap(h2), "free h2");
    show("h1..h3 merged");
    /* The stack fills its own region; the heap keeps its room. */
    long n = MA_inquire_stack(MT_DBL);
    ok(MA_push_stack(MT_DBL, n, "big", &big), "push the whole stack");
    show("stack full");
    ok(MA_pop_stack(big), "pop big");
    ok(MA_free_heap(h4), "free h4");
    show("all free");
    /* More than the stack and the heap together. */
    MA_set_error_print(MA_FALSE);
    ok(MA_push_stack(MT_DBL, MA_inquire_avail(MT_DBL) + 1, "too big", &big), "push avail + 1");
    ok(MA_allocate_heap(MT_DBL, MA_inquire_avail(MT_DBL) + 1, "too big", &big), "heap avail + 1");
    ok(MA_push_stack(MT_DBL, MA_inquire_avail(MT_DBL), "just fits", &big), "push avail");
    /* The stack has crossed the partition: the heap region is left as it
     * was, no space is left between heap and stack. */
    if (me == 0)
        printf("stack over the heap    heap %ld avail %ld\n", (long)MA_inquire_heap(MT_DBL),
               (long)MA_inquire_avail(MT_DBL));
    ok(MA_pop_stack(big), "pop it");
    show("end");
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
