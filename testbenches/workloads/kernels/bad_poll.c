/* Loads and starts, but thread 0 waits for a word of a to change, which
 * nothing does: its loads keep the memory busy while no thread changes
 * anything. The watchdog must stop it as a livelock; every other thread
 * exits. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void vector_add(const struct vector_add_args *args)
{
    volatile const uint32_t *word = (volatile const uint32_t *)(uintptr_t)args->a;
    if (gpu_global_id_x() == 0)
        for (uint32_t first = *word; *word == first;) {
        }
}
