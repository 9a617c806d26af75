/* 2MM (PolyBench: D = alpha A B C + beta D, as tmp = alpha A B then D = tmp
 * C + beta D) as durable transactions, one per unit of a CTA
 * (durable_args.h), one output per thread and transaction: pm_2mm1 is the
 * AGPM paper's 2MM1 (reason a: rows of A and columns of B reused through
 * the caches, no reuse of the log), pm_2mm2 its second kernel. tmp
 * accumulates onto its old value (tmp += alpha A B), so that a rolled-back
 * transaction is visible. Integer arithmetic (mod 2^32): the oracle is exact. */
#include "gpu_durable.h"
#include "durable_args.h"

/* out[i][j] = scale * out[i][j] + alpha * sum_k left[i][k] right[k][j], one unit of outputs per transaction. */
GPU_INLINE void pm_2mm_product(const struct pm_2mm_args *args, const uint32_t *left, const uint32_t *right, volatile uint32_t *out,
                               uint32_t alpha, uint32_t scale)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        if (round) gpu_durable_next(&tx);
        uint32_t index = first + round * gpu_block_dim_x();
        uint32_t active = index < n * n;
        uint32_t i = index / n, j = index % n;
        if (active) gpu_durable_log(&tx, &out[index]);
        gpu_durable_begin(&tx);
        if (active) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < n; k++) sum += left[i * n + k] * right[k * n + j];
            gpu_durable_store(&tx, &out[index], scale * out[index] + alpha * sum);
        }
        gpu_durable_commit(&tx);
    }
}

GPU_KERNEL void pm_2mm1(const struct pm_2mm_args *args)
{
    pm_2mm_product(args, (const uint32_t *)args->a, (const uint32_t *)args->b, (volatile uint32_t *)args->tmp, args->alpha, 1);
}

GPU_KERNEL void pm_2mm2(const struct pm_2mm_args *args)
{
    pm_2mm_product(args, (const uint32_t *)args->tmp, (const uint32_t *)args->c, (volatile uint32_t *)args->d, 1, args->beta);
}
