/* A transactional load followed by an independent transactional store, and
 * the loaded value stored after the commit (test_tx_verdict.c). */
#include "gpu.h"

struct tx_verdict_args {
    uint32_t a, b, c;
};

GPU_KERNEL void tx_verdict(const struct tx_verdict_args *args)
{
    uint32_t t = gpu_thread_x();
    const volatile uint32_t *a = (const volatile uint32_t *)args->a;
    volatile uint32_t *b = (volatile uint32_t *)args->b, *c = (volatile uint32_t *)args->c;
    uint32_t marker = t + 1; /* made before the transaction: the store below needs only the address */
    uint32_t x;
    gpu_tx_begin();
    x = a[t];
    b[t] = marker;
    gpu_tx_commit();
    c[t] = x;
}
