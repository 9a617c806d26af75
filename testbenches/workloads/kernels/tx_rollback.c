/* Transaction rollback: every thread increments one shared counter and a
 * pair kept at (k, -k) in a transaction, under maximal contention.
 * - A stack variable incremented inside the transaction must be exactly 1
 *   after the commit however often the attempt aborted (private-stack undo;
 *   the variable is volatile so it lives in local memory).
 * - Lazy versioning lets an attempt read pair[0] and pair[1] across another
 *   commit (a doomed transaction): it then either loops forever or stores
 *   through a wild pointer; the core must abort it (timeout or fault). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void tx_rollback(const struct tx_rollback_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    uint32_t *counter = (uint32_t *)args->counter, *pair = (uint32_t *)args->pair;
    volatile uint32_t private_count[4];
    private_count[i & 3] = 0;
    gpu_tx_begin();
    private_count[i & 3] += 1;
    /* Each load's address depends on the previous value (the top bits are
     * always 0): the reads of the pair lie a memory round trip apart. */
    uint32_t a = pair[0];
    uint32_t c = counter[a >> 31];
    uint32_t b = pair[1 + (c >> 31)];
    if (a + b != 0) {
        if (args->doomed_fault) *(volatile uint32_t *)(0x90000000u + 4 * (a & 0xff)) = b;
        else
            for (;;) __asm__ volatile("");
    }
    pair[0] = a + 1;
    pair[1] = b - 1;
    counter[0] = c + 1;
    gpu_tx_commit();
    ((uint32_t *)args->out)[i] = private_count[i & 3];
}
