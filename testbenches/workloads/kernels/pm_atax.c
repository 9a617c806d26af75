/* ATAX (PolyBench: y = A^T (A x)) as durable transactions, one per unit of a
 * CTA (durable_args.h), each output written back and persisted every
 * iteration as Figure 1's loop does. pm_atax1 walks a row of A per thread
 * (each thread's lines reused from L1: the AGPM paper's ATAX1, reason b);
 * pm_atax2 a column per thread (a warp's loads coalesced, A's rows streamed,
 * tmp shared by every thread: ATAX2, reason b). The loop runs in
 * transactions of args->chunk iterations (n: one), each logging the output
 * again, as the paper's ATAX logs each output 44 times at n = 4096. Integer
 * arithmetic (mod 2^32), so the host's oracle is exact. */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_atax1(const struct pm_atax_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    volatile uint32_t *tmp = (volatile uint32_t *)args->tmp;
    const uint32_t *a = (const uint32_t *)args->a, *x = (const uint32_t *)args->x;
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        uint32_t i = first + round * gpu_block_dim_x();
        for (uint32_t start = 0; start < n; start += args->chunk) {
            if (round || start) gpu_durable_next(&tx);
            uint32_t end = n - start < args->chunk ? n : start + args->chunk;
            if (i < n) gpu_durable_log(&tx, &tmp[i]);
            gpu_durable_begin(&tx);
            if (i < n) {
                uint32_t t = tmp[i];
                for (uint32_t j = start; j < end; j++) {
                    t += a[i * n + j] * x[j];
                    gpu_durable_store(&tx, &tmp[i], t);
                }
            }
            gpu_durable_commit(&tx);
        }
    }
}

GPU_KERNEL void pm_atax2(const struct pm_atax_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    volatile uint32_t *y = (volatile uint32_t *)args->y;
    const uint32_t *a = (const uint32_t *)args->a, *tmp = (const uint32_t *)args->tmp;
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        uint32_t j = first + round * gpu_block_dim_x();
        for (uint32_t start = 0; start < n; start += args->chunk) {
            if (round || start) gpu_durable_next(&tx);
            uint32_t end = n - start < args->chunk ? n : start + args->chunk;
            if (j < n) gpu_durable_log(&tx, &y[j]);
            gpu_durable_begin(&tx);
            if (j < n) {
                uint32_t v = y[j];
                for (uint32_t i = start; i < end; i++) {
                    v += a[i * n + j] * tmp[i];
                    gpu_durable_store(&tx, &y[j], v);
                }
            }
            gpu_durable_commit(&tx);
        }
    }
}
