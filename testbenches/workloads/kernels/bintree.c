/* BinTree: binary search tree insert and delete. Node 0 is a sentinel whose
 * right child is the root; node t+1 is thread t's: {key, left, right}
 * (node indices, 0 = none). The whole descent is in the transaction.
 * remove = 0: thread t inserts keys[t]; remove = 1: odd threads delete
 * keys[t] (a node with two children is replaced by its successor node). */
#include "gpu.h"
#include "workload_args.h"

#include "bintree_ops.h"

/* One tx_begin and one tx_commit around both operations: separate
 * transactions per branch would let the compiler hoist the begin and keep
 * two commits, which the loader rejects. */
GPU_KERNEL void bintree(const struct bintree_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->n || (args->remove && !(t & 1))) return;
    uint32_t *nodes = (uint32_t *)args->nodes;
    uint32_t key = ((const uint32_t *)args->keys)[t];
    gpu_tx_begin();
    if (args->remove) delete_key(nodes, key);
    else insert_key(nodes, key, t + 1);
    gpu_tx_commit();
}
