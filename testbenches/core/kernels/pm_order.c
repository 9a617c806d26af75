/* Persist ordering, for the core linked with its ldst_unit and an in-test
 * memory (test_host_api): p[t] written and cleaned, then, after an sfence
 * when `fenced`, q[t] written. */
#include "gpu.h"

struct pm_order_args {
    uint32_t p, q, fenced;
};

GPU_KERNEL void pm_order(const struct pm_order_args *args)
{
    uint32_t t = gpu_thread_x();
    uint32_t *p = (uint32_t *)args->p, *q = (uint32_t *)args->q;
    p[t] = t + 1;
    gpu_clwb(&p[t]);
    if (args->fenced) gpu_sfence();
    q[t] = t + 2;
}

/* A non-temporal store: one write, flagged non-temporal. */
GPU_KERNEL void pm_nt(const struct pm_order_args *args)
{
    uint32_t t = gpu_thread_x();
    gpu_store_nontemporal((uint32_t *)args->p + t, t + 3);
}
