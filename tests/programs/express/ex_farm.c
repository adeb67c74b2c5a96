/* A host/node work farm with DONTCARE receives:
 *
 *     mpiexec -n 1 ex_farm : -n N ex_farm [TASKS]
 *
 * The single process of the first application is the Express host (node
 * number nprocs); the N others are nodes 0..N-1. The host hands out task
 * numbers, receives results from whichever node answers first (source and
 * type DONTCARE), and gives that node the next task; STOP ends each node.
 * Every node checks that its tasks came from the host; the host checks every
 * result once. Nodes also synchronise among themselves, which the host may
 * not join. Each process prints "ex_farm PROC: P passed, F failed". */
#include <express.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tally.h"

#define WORK 10
#define RESULT 20
#define STOP 30

static long answer(int task) { return (long)task * task + 7; }

static void host(int nodes, int tasks)
{
    char *seen = calloc((size_t)tasks, 1);
    int next = 0, busy = 0;
    for (int k = 0; k < nodes && next < tasks; k++, next++, busy++) {
        int dest = k, type = WORK;
        EXPECT(exwrite(&next, sizeof next, &dest, &type), (int)sizeof next);
    }
    int per_node[64] = {0};
    while (busy > 0) {
        long r[2];
        int src = DONTCARE, type = DONTCARE;
        EXPECT(exread(r, sizeof r, &src, &type), (int)sizeof r);
        CHECK_EQ(type, RESULT, "result type");
        CHECK(src >= 0 && src < nodes, "result from node %d", src);
        int task = (int)r[0];
        CHECK(task >= 0 && task < tasks && !seen[task], "task %d once", task);
        if (task >= 0 && task < tasks)
            seen[task] = 1;
        CHECK_EQ(r[1], answer(task), "result value");
        if (src >= 0 && src < 64)
            per_node[src]++;
        busy--;
        if (next < tasks) {
            int dest = src, t = WORK;
            EXPECT(exwrite(&next, sizeof next, &dest, &t), (int)sizeof next);
            next++;
            busy++;
        }
    }
    for (int k = 0; k < nodes; k++) {
        int dest = k, type = STOP, zero = 0;
        EXPECT(exwrite(&zero, sizeof zero, &dest, &type), (int)sizeof zero);
    }
    int done = 0;
    for (int i = 0; i < tasks; i++)
        done += seen[i];
    CHECK_EQ(done, tasks, "every task done");
    EXPECT(exsync(), EXNOTMEMBER);
    int v = 1;
    EXPECT(excombine(&v, ex_isum, sizeof v, 1, ALLNODES, NULL, 0), EXNOTMEMBER);
    EXPECT(exbroadcast(&v, sizeof v, 0, ALLNODES, NULL, 0), EXNOTMEMBER);
    EXPECT(exconcat(&v, sizeof v, &v, sizeof v, ALLNODES, NULL, 0), EXNOTMEMBER);
    int dims[1] = {0};
    EXPECT(exgridinit(1, dims, NULL), EXNOTMEMBER);
    /* The host can write to itself like to any node. */
    int me = nodes, t = 40, back = -1, s = DONTCARE, tt = DONTCARE;
    EXPECT(exwrite(&tasks, sizeof tasks, &me, &t), (int)sizeof tasks);
    EXPECT(exread(&back, sizeof back, &s, &tt), (int)sizeof back);
    CHECK(back == tasks && s == nodes && tt == 40, "host to itself");
    printf("ex_farm host: %d tasks over %d nodes\n", tasks, nodes);
    free(seen);
}

static void node(int me, int hostid)
{
    int count = 0;
    for (;;) {
        int task = -1, src = DONTCARE, type = DONTCARE;
        EXPECT(exread(&task, sizeof task, &src, &type), (int)sizeof task);
        CHECK_EQ(src, hostid, "work comes from the host");
        if (type == STOP)
            break;
        CHECK_EQ(type, WORK, "work type");
        long r[2] = {task, answer(task)};
        int dest = hostid, t = RESULT;
        EXPECT(exwrite(r, sizeof r, &dest, &t), (int)sizeof r);
        count++;
    }
    EXPECT(exsync(), 0);
    int total = count;
    EXPECT(excombine(&total, ex_isum, sizeof total, 1, ALLNODES, NULL, 0), 0);
    if (me == 0)
        printf("ex_farm nodes did %d tasks\n", total);
}

int main(int argc, char **argv)
{
    int tasks = argc > 1 ? atoi(argv[1]) : 100;
    struct nodenv env;
    EXPECT(exparam(&env), 0);
    CHECK(env.host == env.nprocs, "a host exists: host %d nprocs %d", env.host,
          env.nprocs);
    tally_who = env.procnum;
    char who[32];
    if (env.procnum == env.host) {
        snprintf(who, sizeof who, "host");
        host(env.nprocs, tasks);
    } else {
        snprintf(who, sizeof who, "node %d", env.procnum);
        node(env.procnum, env.host);
    }
    printf("ex_farm %s: %d passed, %d failed\n", who, passed, failed);
    return failed != 0;
}
