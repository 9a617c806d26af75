/* ATM: each thread makes per_thread transfers between accounts, each in a
 * transaction (read both balances, move the amount if the source covers it). */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void atm(const struct atm_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->threads) return;
    uint32_t *accounts = (uint32_t *)args->accounts;
    const uint32_t *sources = (const uint32_t *)args->sources, *destinations = (const uint32_t *)args->destinations;
    const uint32_t *amounts = (const uint32_t *)args->amounts;
    for (uint32_t k = 0; k < args->per_thread; k++) {
        uint32_t i = t * args->per_thread + k;
        uint32_t source = sources[i], destination = destinations[i], amount = amounts[i];
        gpu_tx_begin();
        uint32_t from = accounts[source], to = accounts[destination];
        if (amount && from >= amount) { /* amount 0: a read-only balance query */
            accounts[source] = from - amount;
            accounts[destination] = to + amount;
        }
        gpu_tx_commit();
    }
}
