/* SAD (Parboil's sad: block-matching motion estimation, mb_sad_calc's kind)
 * as durable transactions: a CTA per 16 x 16 macroblock of the current
 * frame, a thread per search offset, each accumulating the sum of absolute
 * differences between the macroblock and the reference frame shifted by
 * its offset into its output word, `chunk` rows of the macroblock per
 * transaction (the word logged again each: the AGPM paper's SAD1 logs its
 * outputs repeatedly, Table II). Between a transaction's log and its data
 * update each thread streams chunk x 16 pixels of both frames: over the
 * SM's resident CTAs far more lines than the L1 holds, so an output line
 * the log's read brought in is gone before the update (no L1 locality),
 * while the L2 still holds it and neighbouring macroblocks' search windows
 * overlap there (the paper's reason c: locality at the L2 only). Pixels are
 * 32-bit words (0..255); sums mod 2^32. */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_sad(const struct pm_sad_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t n = args->n, side = n + 2 * PM_SAD_RANGE, per_row = n / PM_SAD_MB, t = gpu_thread_x();
    uint32_t mb = gpu_block_x(), x0 = mb % per_row * PM_SAD_MB, y0 = mb / per_row * PM_SAD_MB;
    /* The reference window's corner for this thread's offset (the border makes it non-negative). */
    uint32_t rx = x0 + t % (2 * PM_SAD_RANGE), ry = y0 + t / (2 * PM_SAD_RANGE);
    const uint32_t *cur = (const uint32_t *)args->cur, *ref = (const uint32_t *)args->ref;
    volatile uint32_t *out = (volatile uint32_t *)args->out + mb * PM_SAD_POSITIONS + t;
    for (uint32_t row = 0; row < PM_SAD_MB; row += args->chunk) {
        if (row) gpu_durable_next(&tx);
        uint32_t end = PM_SAD_MB - row < args->chunk ? PM_SAD_MB : row + args->chunk;
        gpu_durable_log(&tx, out);
        gpu_durable_begin(&tx);
        uint32_t sad = 0;
        for (uint32_t y = row; y < end; y++) {
            const uint32_t *c = cur + (y0 + y) * n + x0, *r = ref + (ry + y) * side + rx;
            for (uint32_t x = 0; x < PM_SAD_MB; x++) sad += c[x] > r[x] ? c[x] - r[x] : r[x] - c[x];
        }
        gpu_durable_store(&tx, out, *out + sad); /* the chunk's partial sum added to the output */
        gpu_durable_commit(&tx);
    }
}
