/* BinTree: binary search tree insert and delete. Node 0 is a sentinel whose
 * right child is the root; node t+1 is thread t's: {key, left, right}
 * (node indices, 0 = none). The whole descent is in the transaction.
 * remove = 0: thread t inserts keys[t]; remove = 1: odd threads delete
 * keys[t] (a node with two children is replaced by its successor node). */
#include "gpu.h"
#include "workload_args.h"

static void delete_key(uint32_t *nodes, uint32_t key)
{
    uint32_t parent = 0, side = 1, z = nodes[2];
    while (z && nodes[3 * z] != key) {
        parent = z;
        side = key > nodes[3 * z];
        z = nodes[3 * z + 1 + side];
    }
    if (!z) return;
    uint32_t replacement = nodes[3 * z + 2];
    if (nodes[3 * z + 1] && nodes[3 * z + 2]) {
        uint32_t successor_parent = z, successor = nodes[3 * z + 2];
        while (nodes[3 * successor + 1]) {
            successor_parent = successor;
            successor = nodes[3 * successor + 1];
        }
        if (successor_parent != z) {
            nodes[3 * successor_parent + 1] = nodes[3 * successor + 2];
            nodes[3 * successor + 2] = nodes[3 * z + 2];
        }
        nodes[3 * successor + 1] = nodes[3 * z + 1];
        replacement = successor;
    } else if (nodes[3 * z + 1]) {
        replacement = nodes[3 * z + 1];
    }
    nodes[3 * parent + 1 + side] = replacement;
}

static void insert_key(uint32_t *nodes, uint32_t key, uint32_t mine)
{
    uint32_t parent = 0, right = 1;
    uint32_t current = nodes[2];
    while (current) {
        parent = current;
        right = key > nodes[3 * current];
        current = nodes[3 * current + 1 + right];
    }
    nodes[3 * mine] = key;
    nodes[3 * mine + 1] = 0;
    nodes[3 * mine + 2] = 0;
    nodes[3 * parent + 1 + right] = mine;
}

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
