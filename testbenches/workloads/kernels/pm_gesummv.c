/* GESUMMV (PolyBench: y = alpha A x + beta B x) as durable transactions, one
 * per unit of a CTA (durable_args.h): a row of A and of B per thread, both
 * partial sums (tmp[i], y[i]: two log entries per thread) written back and
 * persisted every iteration, then y[i] = alpha tmp[i] + beta y[i] (the AGPM
 * paper's GESUMMV, reason b: strong L1 reuse of each thread's lines).
 * Integer arithmetic (mod 2^32), so the host's oracle is exact. */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_gesummv(const struct pm_gesummv_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n;
    volatile uint32_t *tmp = (volatile uint32_t *)args->out, *y = tmp + n;
    const uint32_t *a = (const uint32_t *)args->a, *b = (const uint32_t *)args->b, *x = (const uint32_t *)args->x;
    uint32_t first = gpu_block_x() * args->tx_per_cta * gpu_block_dim_x() + gpu_thread_x();
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        if (round) gpu_durable_next(&tx);
        uint32_t i = first + round * gpu_block_dim_x();
        if (i < n) {
            gpu_durable_log(&tx, &tmp[i]);
            gpu_durable_log(&tx, &y[i]);
        }
        gpu_durable_begin(&tx);
        if (i < n) {
            uint32_t t = tmp[i], v = y[i];
            for (uint32_t j = 0; j < n; j++) {
                t += a[i * n + j] * x[j];
                gpu_durable_store(&tx, &tmp[i], t);
                v += b[i * n + j] * x[j];
                gpu_durable_store(&tx, &y[i], v);
            }
            gpu_durable_store(&tx, &y[i], args->alpha * t + args->beta * v);
        }
        gpu_durable_commit(&tx);
    }
}
