/* One level of breadth-first search as a durable transaction per CTA,
 * pulled rather than pushed so that each output has one writer: thread v,
 * unvisited, looks for a neighbour at `level` and, if it finds one, logs
 * and persists levels[v] = level + 1. Every thread reads its adjacency
 * list and its neighbours' levels; only the frontier's new nodes log (the
 * AGPM paper's BFS: reason e, few log updates per kernel). */
#include "gpu_durable.h"
#include "durable_args.h"

GPU_KERNEL void pm_bfs(const struct pm_bfs_args *args)
{
    gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
    volatile uint32_t *levels = (volatile uint32_t *)args->levels;
    const uint32_t *offsets = (const uint32_t *)args->row_offsets, *columns = (const uint32_t *)args->columns;
    uint32_t v = gpu_global_id_x(), found = 0;
    if (v < args->n && levels[v] == PM_BFS_UNVISITED)
        for (uint32_t e = offsets[v]; e < offsets[v + 1] && !found; e++) found = levels[columns[e]] == args->level;
    if (found) gpu_durable_log(&tx, &levels[v]);
    gpu_durable_begin(&tx);
    if (found) gpu_durable_store(&tx, &levels[v], args->level + 1);
    gpu_durable_commit(&tx);
}
