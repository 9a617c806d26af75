/* BinTree, one launch of mixed operations (SI-TM's Binary Tree 1 and 2):
 * thread t removes keys[t] when ops[t] is 1, else inserts keys[t] in its
 * own node t+1; the whole descent is in the transaction. */
#include "gpu.h"
#include "workload_args.h"
#include "bintree_ops.h"

GPU_KERNEL void bintree_mixed(const struct bintree_mixed_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->n) return;
    uint32_t *nodes = (uint32_t *)args->nodes;
    uint32_t key = ((const uint32_t *)args->keys)[t], remove = ((const uint32_t *)args->ops)[t];
    gpu_tx_begin();
    if (remove) delete_key(nodes, key);
    else insert_key(nodes, key, t + 1);
    gpu_tx_commit();
}
