/* Device printf (gpu_printf.h): every thread below n prints one line with
 * each kind of argument. */
#include "gpu.h"
#include "gpu_printf.h"
#include "workload_args.h"

GPU_KERNEL void hello(const struct printf_args *args)
{
    uint32_t t = gpu_thread_x(), c = gpu_block_x();
    if (gpu_global_id_x() >= args->n) return;
    gpu_printf("thread %u of CTA %u: %d %.2f %s %#x %c%%\n", t, c, -(int32_t)t, (float)t * 0.5f, "ok", 0xab + t, 'A' + t);
}
