/* BinTree: binary search tree insert. Node 0 is a sentinel whose right
 * child is the root; node t+1 is thread t's: {key, left, right} (node
 * indices, 0 = none). The whole descent is in the transaction. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void bintree(const struct bintree_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->n) return;
    uint32_t *nodes = (uint32_t *)args->nodes;
    uint32_t key = ((const uint32_t *)args->keys)[t], mine = t + 1;
    gpu_tx_begin();
    uint32_t parent = 0, right = 1;
    uint32_t current = nodes[3 * 0 + 2];
    while (current) {
        parent = current;
        right = key > nodes[3 * current];
        current = nodes[3 * current + 1 + right];
    }
    nodes[3 * mine] = key;
    nodes[3 * mine + 1] = 0;
    nodes[3 * mine + 2] = 0;
    nodes[3 * parent + 1 + right] = mine;
    gpu_tx_commit();
}
