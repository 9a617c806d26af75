/* Fails at run time: pm_stream's kernel with a second durable transaction
 * on one log without gpu_durable_next between them (gpu_durable.h traps). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_stream(const struct pm_stream_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t first = gpu_global_id_x(), stride = gpu_grid_dim_x() * gpu_block_dim_x(), n = args->n;
    uint32_t end = first + args->per_thread * stride, step = args->tx_per_cta * stride;
    volatile uint32_t *a = (volatile uint32_t *)args->a;
    const uint32_t *b = (const uint32_t *)args->b, *c = (const uint32_t *)args->c;
    for (uint32_t round = 0; round < args->tx_per_cta; round++) {
        uint32_t start = first + round * stride;
        for (uint32_t i = start; i < end && i < n; i += step) gpu_durable_log(&tx, &a[i]);
        gpu_durable_begin(&tx);
        for (uint32_t i = start; i < end && i < n; i += step) gpu_durable_store(&tx, &a[i], b[i] + args->scalar * c[i]);
        gpu_durable_commit(&tx);
    }
}
