/* List: sorted linked-list insert. Node 0 is the head sentinel; node t+1
 * is thread t's: {key, next (node index, 0 ends the list)}.
 * search_outside = 0 (SI-TM): the whole traversal is in the transaction.
 * search_outside = 1 (EA/PG): search without a transaction, then continue
 * from that node inside it (insert-only: the node stays before the key). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void list(const struct list_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->n) return;
    uint32_t *nodes = (uint32_t *)args->nodes;
    uint32_t key = ((const uint32_t *)args->keys)[t], mine = t + 1;
    uint32_t start = 0;
    if (args->search_outside) {
        /* Plain reads, outside any transaction: a node may be linked before
         * its key is visible (a commit's writes land in any order); keys are
         * written once and never 0, so the search stops at a key read as 0. */
        volatile uint32_t *shared_nodes = nodes;
        for (uint32_t next = shared_nodes[1], next_key; next && (next_key = shared_nodes[2 * next]) && next_key < key;
             next = shared_nodes[2 * next + 1])
            start = next;
    }
    gpu_tx_begin();
    uint32_t previous = start, current = nodes[2 * start + 1];
    while (current && nodes[2 * current] < key) {
        previous = current;
        current = nodes[2 * current + 1];
    }
    nodes[2 * mine] = key;
    nodes[2 * mine + 1] = current;
    nodes[2 * previous + 1] = mine;
    gpu_tx_commit();
}
