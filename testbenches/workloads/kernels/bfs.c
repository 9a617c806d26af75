/* One BFS level: every frontier node visits its neighbours; the first to
 * lower a neighbour's level (atomic min) appends it to the next frontier. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void bfs(const struct bfs_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->frontier_size) return;
    const uint32_t *offsets = (const uint32_t *)args->row_offsets, *columns = (const uint32_t *)args->columns;
    uint32_t *levels = (uint32_t *)args->levels, *next = (uint32_t *)args->frontier_out;
    uint32_t node = ((const uint32_t *)args->frontier_in)[i], level = args->level + 1;
    for (uint32_t j = offsets[node]; j < offsets[node + 1]; j++) {
        uint32_t neighbour = columns[j];
        if (levels[neighbour] <= level) continue; /* already reached: skip the atomic */
        if (gpu_atomic_min_unsigned(&levels[neighbour], level) > level)
            next[gpu_atomic_add((uint32_t *)args->out_size, 1)] = neighbour;
    }
}
