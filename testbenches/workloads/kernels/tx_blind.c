/* Blind write-write conflicts between lanes of one warp, in one transaction
 * on each arm of an if. Thread i writes, without reading them, the pair
 * (value, ~value) of word i / group of array odd (odd i) or even (even i):
 * the lanes of a warp sharing a word and an arm conflict only by their
 * writes (Warp TM's intra-warp check must abort all but one of them per
 * round). Each arm begins with its transaction, the shape clang merged
 * into one tx_begin above the branch before gpu.h made each site distinct
 * (issue 26, defect 11); the arms differ (~ and -) so that they cannot be
 * folded into one. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void tx_blind(const struct tx_blind_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    uint32_t word = 2 * (i / args->group);
    uint32_t *odd = (uint32_t *)args->odd, *even = (uint32_t *)args->even;
    uint32_t value = i + 1;
    if (i & 1) {
        gpu_tx_begin();
        odd[word] = value;
        odd[word + 1] = ~value;
        gpu_tx_commit();
    } else {
        gpu_tx_begin();
        even[word] = value;
        even[word + 1] = -value;
        gpu_tx_commit();
    }
}
