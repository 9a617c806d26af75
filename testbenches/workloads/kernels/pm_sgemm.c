/* SGEMM (Parboil's kind: C = alpha A B + beta C in single precision) as
 * durable transactions, one per CTA: a PM_SGEMM_TILE x PM_SGEMM_TILE CTA
 * computes a tile of C, staging tiles of A and B in shared memory (the
 * AGPM paper's SGEMM: reason h, shared memory in use; the global loads see
 * little cache reuse). Each thread logs and persists its one output. The
 * host's inputs are small integers, so every partial sum is an exact float
 * whatever the order or fusing, and the oracle is exact. */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_sgemm(const struct pm_sgemm_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    const uint32_t tile = PM_SGEMM_TILE, n = args->n;
    float *as = (float *)GPU_SHARED_BASE, *bs = as + tile * tile;
    const float *a = (const float *)args->a, *b = (const float *)args->b;
    volatile uint32_t *c = (volatile uint32_t *)args->c; /* float bits: the log and the durable store take words */
    uint32_t tx_ = gpu_thread_x(), ty = gpu_thread_y();
    uint32_t row = gpu_block_y() * tile + ty, col = gpu_block_x() * tile + tx_, index = row * n + col;
    gpu_durable_log(&tx, &c[index]);
    gpu_durable_begin(&tx);
    float sum = 0.0f;
    for (uint32_t k0 = 0; k0 < n; k0 += tile) {
        as[ty * tile + tx_] = a[row * n + k0 + tx_];
        bs[ty * tile + tx_] = b[(k0 + ty) * n + col];
        gpu_sync_threads();
        for (uint32_t k = 0; k < tile; k++) sum += as[ty * tile + k] * bs[k * tile + tx_];
        gpu_sync_threads();
    }
    union { float f; uint32_t u; } old = {.u = c[index]}, result;
    result.f = (float)args->alpha * sum + (float)args->beta * old.f;
    gpu_durable_store(&tx, &c[index], result.u);
    gpu_durable_commit(&tx);
}
