/* One durable transaction per CTA (gpu_durable.h): each thread logs its
 * element's old value, then updates it in place. After a power failure the
 * host's recovery rolls every unfinished CTA back, so each CTA's elements
 * are all old or all new. */
#include "gpu_durable.h"
#include "durable.h"

GPU_KERNEL void durable_update(const struct durable_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    uint32_t i = gpu_global_id_x();
    volatile uint32_t *balance = (volatile uint32_t *)args->balances;
    if (i < args->n) gpu_durable_log(&tx, &balance[i]); /* every thread makes the begin and commit calls */
    gpu_durable_begin(&tx);
    if (i < args->n) gpu_durable_store(&tx, &balance[i], durable_updated(balance[i], i));
    gpu_durable_commit(&tx);
}
