/* The local storage of the HPF C test programs. local_buffer(d, size) is
 * a zeroed buffer for the cells this process owns of DAD d (at least one
 * element of `size` bytes); owned_cells2(d) lists the owned cells of a
 * rank-2 DAD, each with its offset in the local buffer and its 1-based
 * global subscripts, and free_cells2 releases the list. Include after
 * hpf_rts.h and stdlib.h. */
#ifndef MPBRIDGE_TEST_HPF_CELLS_H
#define MPBRIDGE_TEST_HPF_CELLS_H

struct cells2 {
    long long n;
    long long *at, *gi, *gj;
};

static inline void *local_buffer(int d, size_t size)
{
    long long n = 0;
    hpf_dad_local_size(d, &n);
    return calloc((size_t)(n > 0 ? n : 1), size);
}

static inline struct cells2 owned_cells2(int d)
{
    long long cnt[2] = {0, 0}, stride[2] = {0, 0};
    hpf_dad_local_shape(d, cnt, NULL, stride);
    long long total = cnt[0] * cnt[1];
    size_t room = (size_t)(total > 0 ? total : 1);
    struct cells2 c = {0, calloc(room, sizeof(long long)), calloc(room, sizeof(long long)),
                       calloc(room, sizeof(long long))};
    for (long long j = 0; j < cnt[1]; j++)
        for (long long i = 0; i < cnt[0]; i++, c.n++) {
            c.at[c.n] = i * stride[0] + j * stride[1];
            hpf_dad_local_to_global(d, 1, i, &c.gi[c.n]);
            hpf_dad_local_to_global(d, 2, j, &c.gj[c.n]);
        }
    return c;
}

static inline void free_cells2(struct cells2 c)
{
    free(c.at);
    free(c.gi);
    free(c.gj);
}

#endif
