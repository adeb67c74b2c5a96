/* Bad input to every kind of Express call gets its error code, never a
 * crash or a hang; good calls still work afterwards:
 *
 *     mpiexec -n N ex_errors
 *
 * Prints "ex_errors node K: P passed, F failed". */
#include <express.h>

#include <stdio.h>
#include <string.h>

#include "../tally.h"

int main(void)
{
    struct nodenv env;
    EXPECT(exparam(&env), 0);
    int me = env.procnum, n = env.nprocs;
    tally_who = me;
    char buf[16] = "0123456789abcdef";
    int v = 0;

    /* Bad node numbers. */
    int bad[4] = {n, -2, -50, 1 << 30};
    for (int i = 0; i < 4; i++) {
        int d = bad[i], t = 1;
        EXPECT(exwrite(buf, 4, &d, &t), EXBADNODE);
        EXPECT(exsend(buf, 4, &d, &t), EXBADNODE);
        int s = bad[i];
        EXPECT(exread(buf, 4, &s, &t), EXBADNODE);
        s = bad[i];
        EXPECT(exreceive(buf, 4, &s, &t), EXBADNODE);
        s = bad[i];
        EXPECT(extest(&s, &t), EXBADNODE);
        EXPECT(exhandle(NULL, bad[i], 1), EXBADNODE);
    }
    CHECK(strstr(exerrmsg(), "exhandle") != NULL, "message names the call: %s",
          exerrmsg());
    int me_node = me, t1 = 1;
    int far = n + 3;
    EXPECT(exchange(buf, 4, &me_node, &t1, buf, 4, &far, &t1), EXBADNODE);
    EXPECT(exchange(buf, 4, &far, &t1, buf, 4, &me_node, &t1), EXBADNODE);

    /* Negative lengths. */
    int d = me, t = 2;
    EXPECT(exwrite(buf, -1, &d, &t), EXBADLEN);
    EXPECT(exsend(buf, -8, &d, &t), EXBADLEN);
    int s = me;
    EXPECT(exread(buf, -1, &s, &t), EXBADLEN);
    EXPECT(exreceive(buf, -1, &s, &t), EXBADLEN);
    EXPECT(exvwrite(buf, -4, 2, 8, &d, &t), EXBADLEN);
    EXPECT(exvwrite(buf, 4, -2, 8, &d, &t), EXBADLEN);
    EXPECT(exvread(buf, 4, 2, 2, &s, &t), EXBADLEN);
    EXPECT(exbroadcast(buf, -3, 0, ALLNODES, NULL, 0), EXBADLEN);
    EXPECT(excombine(buf, ex_isum, -4, 1, ALLNODES, NULL, 0), EXBADLEN);
    EXPECT(excombine(buf, ex_isum, 4, -1, ALLNODES, NULL, 0), EXBADLEN);
    EXPECT(exconcat(buf, -1, buf, 16, ALLNODES, NULL, 0), EXBADLEN);
    EXPECT(exconcat(buf, 1, buf, -16, ALLNODES, NULL, 0), EXBADLEN);
    EXPECT(exchange(buf, -4, &s, &t, buf, 4, &d, &t), EXBADLEN);
    CHECK(strstr(exerrmsg(), "negative") != NULL, "message says why: %s",
          exerrmsg());

    /* NULL buffers with a non-zero length, NULL pointers. */
    EXPECT(exwrite(NULL, 4, &d, &t), EXNULLBUF);
    EXPECT(exread(NULL, 4, &s, &t), EXNULLBUF);
    EXPECT(exsend(NULL, 4, &d, &t), EXNULLBUF);
    EXPECT(exreceive(NULL, 4, &s, &t), EXNULLBUF);
    EXPECT(exwrite(buf, 4, NULL, &t), EXNULLBUF);
    EXPECT(exread(buf, 4, &s, NULL), EXNULLBUF);
    EXPECT(extest(NULL, &t), EXNULLBUF);
    EXPECT(exvwrite(NULL, 4, 2, 4, &d, &t), EXNULLBUF);
    EXPECT(exbroadcast(NULL, 4, 0, ALLNODES, NULL, 0), EXNULLBUF);
    EXPECT(excombine(NULL, ex_isum, 4, 1, ALLNODES, NULL, 0), EXNULLBUF);
    EXPECT(exconcat(NULL, 4, buf, 16, ALLNODES, NULL, 0), EXNULLBUF);
    EXPECT(exconcat(buf, 4, NULL, 16, ALLNODES, NULL, 0), EXNULLBUF);
    EXPECT(exchange(NULL, 4, &s, &t, buf, 4, &d, &t), EXNULLBUF);
    EXPECT(exgridsize(4, 2, NULL), EXNULLBUF);
    EXPECT(exparam(NULL), EXNULLBUF);

    /* Bad node lists. */
    int dup[2] = {0, 0};
    int out_of_range[1] = {n};
    EXPECT(exbroadcast(buf, 4, 0, -1, NULL, 0), EXBADLIST);
    EXPECT(exbroadcast(buf, 4, 0, 2, NULL, 0), EXBADLIST);
    EXPECT(excombine(&v, ex_isum, 4, 1, 2, dup, 0), EXBADLIST);
    EXPECT(exconcat(buf, 1, buf, 16, 1, out_of_range, 0), EXBADLIST);
    int only0[1] = {0};
    EXPECT(exbroadcast(buf, 4, n > 1 ? 1 : 5, 1, only0, 0), EXBADNODE);

    /* Unknown grids and bad grid shapes. */
    int c[2] = {0, 0}, s2, d2;
    EXPECT(exgridcoord(0, me, c), EXBADGRID);
    EXPECT(exgridnode(7, c), EXBADGRID);
    EXPECT(exgridshift(-1, 0, 1, &s2, &d2), EXBADGRID);
    EXPECT(exgridnbr(99, 0, 1), EXBADGRID);
    EXPECT(exgriddims(3, c), EXBADGRID);
    int remain[1] = {1};
    EXPECT(exgridsplit(5, remain), EXBADGRID);
    int toobig[2] = {n + 1, 1};
    EXPECT(exgridinit(2, toobig, NULL), EXBADGRID);
    EXPECT(exgridinit(0, toobig, NULL), EXBADGRID);
    int neg[1] = {-1};
    EXPECT(exgridinit(1, neg, NULL), EXBADGRID);
    EXPECT(exgridsize(0, 1, neg), EXBADGRID);

    /* Unknown message ids, functions. */
    EXPECT(exmsgwait(0), EXBADID);
    EXPECT(exmsgtest(-5), EXBADID);
    EXPECT(excombine(&v, NULL, 4, 1, ALLNODES, NULL, 0), EXBADFUNC);

    /* Everything still works. */
    v = 1;
    EXPECT(excombine(&v, ex_isum, sizeof v, 1, ALLNODES, NULL, 0), 0);
    CHECK_EQ(v, n, "combine after errors");
    int dims[1] = {0};
    EXPECT(exgridinit(1, dims, NULL), 0);
    EXPECT(exgridnode(0, (int[]){me}), me);
    d = me;
    t = 5;
    EXPECT(exwrite("ok", 3, &d, &t), 3);
    s = DONTCARE;
    t = DONTCARE;
    char ok[3];
    EXPECT(exread(ok, 3, &s, &t), 3);
    CHECK(strcmp(ok, "ok") == 0 && s == me && t == 5, "self message");
    EXPECT(exsync(), 0);
    printf("ex_errors node %d: %d passed, %d failed\n", me, passed, failed);
    return failed != 0;
}
