/* HT: chained hash table insert (KILO TM / EA-PG): each thread inserts its
 * key at the head of its bucket's chain inside a transaction. Node i holds
 * key i: {key, next (node index + 1, 0 ends the chain)}. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void ht(const struct ht_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    const uint32_t *keys = (const uint32_t *)args->keys;
    uint32_t *buckets = (uint32_t *)args->buckets;
    uint32_t *nodes = (uint32_t *)args->nodes;
    uint32_t key = keys[i];
    uint32_t bucket = (key * 2654435761u) % args->bucket_count;
    gpu_tx_begin();
    uint32_t head = buckets[bucket];
    nodes[2 * i] = key;
    nodes[2 * i + 1] = head;
    buckets[bucket] = i + 1;
    gpu_tx_commit();
}
