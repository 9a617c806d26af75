/* Bank transfers: each thread makes per_thread transfers between accounts,
 * each in a transaction (both balances read and written atomically). */
#include "bank.h"
#include "gpu.h"

GPU_KERNEL void bank(const struct bank_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->threads) return;
    int32_t *balances = (int32_t *)args->accounts;
    for (uint32_t k = 0; k < args->per_thread; k++) {
        uint32_t i = t * args->per_thread + k;
        uint32_t from = bank_from(i, args->account_count), to = bank_to(i, args->account_count);
        int32_t amount = bank_amount(i);
        gpu_tx_begin();
        balances[from] -= amount;
        balances[to] += amount;
        gpu_tx_commit(); /* an aborted transaction is re-executed from gpu_tx_begin */
    }
}
