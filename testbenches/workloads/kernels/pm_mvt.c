/* MVT's first kernel (PolyBench: x1 += A y1) as durable transactions, one
 * per unit of a CTA (durable_args.h), the output written back and persisted
 * every iteration as Figure 1's loop does: each thread walks its own row of
 * A (lines reused from L1 iteration after iteration) and rewrites one word.
 * A row is walked in transactions of args->chunk iterations (n: one), each
 * logging the word again, as the AGPM paper's MVT1 does (Table II: 83 log
 * updates per output at PolyBench's n = 4096). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_mvt(const struct pm_mvt_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    volatile uint32_t *x1 = (volatile uint32_t *)args->x1;
    const uint32_t *a = (const uint32_t *)args->a, *y1 = (const uint32_t *)args->y1;
    /* This thread's item in the CTA's first unit; a block further each round. */
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        uint32_t i = first + round * gpu_block_dim_x();
        for (uint32_t start = 0; start < n; start += args->chunk) {
            if (round || start) gpu_durable_next(&tx);
            uint32_t end = n - start < args->chunk ? n : start + args->chunk;
            if (i < n) gpu_durable_log(&tx, &x1[i]);
            gpu_durable_begin(&tx);
            if (i < n) {
                uint32_t x = x1[i];
                for (uint32_t j = start; j < end; j++) {
                    x += a[i * n + j] * y1[j];
                    gpu_durable_store(&tx, &x1[i], x);
                }
            }
            gpu_durable_commit(&tx);
        }
    }
}
