/* Backprop (Rodinia's backprop, integers mod 2^32) as durable
 * transactions, a CTA per 16 inputs in Rodinia's 16 x 16 threads and its
 * weight layout (rows of 17 words: row 0 and column 0 the bias, so a
 * warp's two rows straddle 128-byte blocks that the neighbouring warps
 * share). pm_backprop1, bpnn_layerforward: as Rodinia, thread (0, ty)
 * writes the CTA's partial sum of hidden unit ty (the product and the
 * reduction done by that thread, not in shared memory: Rodinia's tree
 * reduction is the only use of it, and reason h would hide the
 * locality); two partial sums per warp, a CTA's sixteen in half a block.
 * pm_backprop2, bpnn_adjust_weights: every thread updates its weight and
 * its momentum term (two log entries). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_backprop1(const struct pm_backprop_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t t = gpu_thread_x(), col = t % PM_BP_HIDDEN, row = t / PM_BP_HIDDEN, by = gpu_block_x();
    const uint32_t *in = (const uint32_t *)args->in, *w = (const uint32_t *)args->w;
    volatile uint32_t *partial = (volatile uint32_t *)args->partial + by * PM_BP_HIDDEN + row;
    uint32_t writer = col == 0; /* Rodinia's if (tx == 0) hidden_partial_sum[by * hid + ty] = ... */
    if (writer) gpu_durable_log(&tx, partial);
    gpu_durable_begin(&tx);
    if (writer) {
        uint32_t sum = 0;
        for (uint32_t i = 1; i <= PM_BP_HIDDEN; i++) {
            uint32_t r = by * PM_BP_HIDDEN + i;
            sum += w[r * (PM_BP_HIDDEN + 1) + row + 1] * in[r];
        }
        gpu_durable_store(&tx, partial, sum);
    }
    gpu_durable_commit(&tx);
}

GPU_KERNEL void pm_backprop2(const struct pm_backprop_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t t = gpu_thread_x(), col = t % PM_BP_HIDDEN + 1, r = gpu_block_x() * PM_BP_HIDDEN + t / PM_BP_HIDDEN + 1;
    const uint32_t *in = (const uint32_t *)args->in, *delta = (const uint32_t *)args->delta;
    volatile uint32_t *w = (volatile uint32_t *)args->w + r * (PM_BP_HIDDEN + 1) + col;
    volatile uint32_t *oldw = (volatile uint32_t *)args->oldw + r * (PM_BP_HIDDEN + 1) + col;
    gpu_durable_log(&tx, w);
    gpu_durable_log(&tx, oldw);
    gpu_durable_begin(&tx);
    uint32_t d = args->eta * delta[col] * in[r] + args->momentum * *oldw;
    gpu_durable_store(&tx, w, *w + d);
    gpu_durable_store(&tx, oldw, d);
    gpu_durable_commit(&tx);
}
