/* Checks for the project's C test programs: each check counts as passed or
 * failed; a failure is printed on stderr with who reported it (a rank or a
 * tid, set by the program in `tally_who`) and where. The program prints its
 * tally as "NAME: N passed, M failed", which the harness asserts. */
#ifndef MPBRIDGE_TEST_TALLY_H
#define MPBRIDGE_TEST_TALLY_H

#include <stdio.h>

static int passed, failed;
static int tally_who = -1;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (cond) {                                                           \
            passed++;                                                         \
        } else {                                                              \
            failed++;                                                         \
            fprintf(stderr, "FAILED [%x] %s:%d: ", (unsigned)tally_who,       \
                    __FILE__, __LINE__);                                      \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

/* Compares two integer values (each evaluated once). */
#define CHECK_EQ(a, b, what)                                                  \
    do {                                                                      \
        long va_ = (long)(a), vb_ = (long)(b);                                \
        CHECK(va_ == vb_, "%s: %ld != %ld", what, va_, vb_);                  \
    } while (0)

/* A call's result against the expected value. */
#define EXPECT(call, want) CHECK_EQ(call, want, #call)

#endif
