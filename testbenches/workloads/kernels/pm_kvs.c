/* A persistent key-value store's batched insert (GPM's gpKVS kind): each
 * thread takes a slot of its key's bucket from a volatile count (an atomic
 * in global memory), logs the slot's old {key, value}, and writes the new
 * pair, tx_per_cta durable transactions per CTA (durable_args.h). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_kvs(const struct pm_kvs_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    /* This thread's item in the CTA's first unit; a block further each round. */
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        if (round) gpu_durable_next(&tx);
        uint32_t t = first + round * gpu_block_dim_x();
        volatile uint32_t *slot = 0;
        uint32_t key = 0, value = 0;
        if (t < args->n) {
            key = ((const uint32_t *)args->keys)[t];
            value = ((const uint32_t *)args->values)[t];
            /* The host's hash (pm_kvs.c). */
            uint32_t bucket = (key * 2654435761u >> 8) % args->buckets;
            uint32_t way = gpu_atomic_add((volatile uint32_t *)args->counts + bucket, 1);
            /* The host sized the batch so no bucket overflows. */
            slot = (volatile uint32_t *)args->table + (bucket * PM_KVS_WAYS + way) * 2;
            gpu_durable_log(&tx, &slot[0]);
            gpu_durable_log(&tx, &slot[1]);
        }
        gpu_durable_begin(&tx);
        if (slot) {
            gpu_durable_store(&tx, &slot[1], value);
            gpu_durable_store(&tx, &slot[0], key);
        }
        gpu_durable_commit(&tx);
    }
}
