/* RBT: red-black tree insert and remove in transactions, the textbook
 * algorithm (CLRS, as in RSTM's RBTree benchmark: a sentinel nil node,
 * parent pointers, rotations, insert and delete fix-ups). Node 0 is nil
 * (black); node t+1 is thread t's: {key, red, parent, left, right}; the
 * root's index is one word of its own.
 * ops = 0: remove = 0: thread t inserts keys[t]; remove = 1: odd threads
 * remove keys[t] again. ops = an array: thread t removes keys[t] when
 * ops[t] is 1, else inserts it (one launch of mixed operations). The
 * tree operations are rbt_ops.h's (shared with vacation). */
#include "gpu.h"
#include "workload_args.h"

#include "rbt_ops.h"

GPU_KERNEL void rbt(const struct rbt_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->n) return;
    uint32_t removing = args->ops ? ((const uint32_t *)args->ops)[t] : args->remove;
    if (!args->ops && removing && !(t & 1)) return;
    uint32_t *nodes = (uint32_t *)args->nodes, *root = (uint32_t *)args->root;
    uint32_t key = ((const uint32_t *)args->keys)[t];
    gpu_tx_begin();
    if (!removing) {
        KEY(t + 1) = key;
        rbt_insert(nodes, root, t + 1);
    } else {
        uint32_t z = *root;
        while (z && KEY(z) != key) z = key < KEY(z) ? LEFT(z) : RIGHT(z);
        if (z) rbt_remove(nodes, root, z);
    }
    gpu_tx_commit();
}
