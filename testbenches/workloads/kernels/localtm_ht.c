/* GPU-LocalTM Hash Table (section 5.1.1): each work-item inserts its id
 * into bucket id % buckets, probing the bucket's slots from the first; a
 * transaction reads one slot and, if it is empty, writes the id + 1 (a
 * read-modify-write of one word). Every bucket holds exactly its inserts.
 * Slots are interleaved (slot s of bucket b at word s * buckets + b), so
 * neighbouring work-items probe neighbouring words in distinct banks: the
 * coalesced allocation section 3.3 expects of GPU programmers. */
#include "localtm.h"

GPU_KERNEL void localtm_ht(const struct localtm_ht_args *args)
{
    volatile uint32_t *table = LOCALTM_DATA;
    uint32_t t = gpu_thread_x(), slots = args->slots, buckets = args->buckets;
    uint32_t bucket = t % buckets, placed = ~0u;
    for (uint32_t s = 0; s < slots && placed == ~0u; s++) {
        LOCALTM_TRANSACTION(&table[args->lock_word], if (table[s * buckets + bucket] == 0u) {
            table[s * buckets + bucket] = t + 1u;
            placed = s;
        });
    }
    ((uint32_t *)args->placed)[t] = placed;
    gpu_sync_threads();
    for (uint32_t i = t; i < args->n; i += gpu_block_dim_x()) ((uint32_t *)args->table)[i] = table[i];
}
