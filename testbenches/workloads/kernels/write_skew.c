/* Write skew (the doctors on call): pair p's two words start at 1 (both on
 * call); threads p and p + pairs share it, one word each. Each thread, in
 * one transaction, reads both words and, if both are 1, sets its own to 0
 * and records that it left. In any serial order exactly one of the two
 * leaves; snapshot isolation without dependency-loop detection lets both
 * read (1, 1) from one snapshot and commit writes to different words. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void write_skew(const struct write_skew_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= 2 * args->pairs) return;
    uint32_t pair = t % args->pairs, role = t / args->pairs;
    volatile uint32_t *words = (volatile uint32_t *)args->words + 2 * pair;
    volatile uint32_t *left = (volatile uint32_t *)args->left;
    gpu_tx_begin();
    uint32_t mine = words[role], other = words[1 - role];
    uint32_t leaves = mine + other == 2;
    if (leaves) words[role] = 0;
    left[t] = leaves;
    gpu_tx_commit();
}
