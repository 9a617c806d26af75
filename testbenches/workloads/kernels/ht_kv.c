/* HT with key-value entries (EA/PG's Hash Table, Figure 13): entry i is
 * {key, value, next (entry index + 1, 0 ends the chain)}; each thread
 * inserts its entry at the head of its bucket's chain in a transaction
 * (read set: the bucket head; write set: key, value, next, head). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void ht_kv(const struct ht_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    const uint32_t *keys = (const uint32_t *)args->keys;
    uint32_t *buckets = (uint32_t *)args->buckets;
    uint32_t *entries = (uint32_t *)args->nodes;
    uint32_t key = keys[i];
    uint32_t bucket = (key * 2654435761u) % args->bucket_count;
    gpu_tx_begin();
    uint32_t head = buckets[bucket];
    entries[3 * i] = key;
    entries[3 * i + 1] = ~key; /* the value the host checks */
    entries[3 * i + 2] = head;
    buckets[bucket] = i + 1;
    gpu_tx_commit();
}
