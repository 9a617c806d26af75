/* GEMM (PolyBench's C = alpha A B + beta C) as durable transactions, one per
 * unit of a CTA (durable_args.h): rows of A and columns of B reused through
 * the caches, one logged output per thread and transaction. The k loop runs
 * in transactions of args->chunk iterations (n: one), each logging the output
 * again and adding its part (c = beta c first, then c += alpha a b, as
 * PolyBench's kernel accumulates in C; Table II: GEMM logs each output 17
 * times at PolyBench's n = 512). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_gemm(const struct pm_gemm_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    volatile uint32_t *c = (volatile uint32_t *)args->c;
    const uint32_t *a = (const uint32_t *)args->a, *b = (const uint32_t *)args->b;
    /* This thread's item in the CTA's first unit; a block further each round. */
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        uint32_t index = first + round * gpu_block_dim_x();
        uint32_t active = index < n * n;
        uint32_t i = index / n, j = index % n;
        for (uint32_t start = 0; start < n; start += args->chunk) {
            if (round || start) gpu_durable_next(&tx);
            uint32_t end = n - start < args->chunk ? n : start + args->chunk;
            if (active) gpu_durable_log(&tx, &c[index]);
            gpu_durable_begin(&tx);
            if (active) {
                uint32_t sum = 0;
                for (uint32_t k = start; k < end; k++) sum += a[i * n + k] * b[k * n + j];
                gpu_durable_store(&tx, &c[index], args->alpha * sum + (start ? 1 : args->beta) * c[index]);
            }
            gpu_durable_commit(&tx);
        }
    }
}
