/* y = a * x + y, one element per thread, in integers (exact, so the host
 * compares without tolerance; the float saxpy is the `saxpy` workload). */
#include "gpu.h"
#include "saxpy.h"

GPU_KERNEL void saxpy(const struct saxpy_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    int32_t *x = (int32_t *)args->x, *y = (int32_t *)args->y;
    y[i] = args->a * x[i] + y[i];
}
