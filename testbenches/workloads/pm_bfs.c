/* pm_bfs: breadth-first search from node 0 on persistent memory, one launch
 * per level (pm_bfs pulls: a node with a neighbour on the level joins the
 * next), each CTA's new levels one durable transaction (durable_common.h).
 * The graph: n nodes, a chain v - v+1 (so all are reachable) and `degree`
 * random edges from each node to one of the next `window` nodes, symmetric,
 * so each level holds a band of about `window` nodes and a launch logs few
 * words while every thread reads its adjacency list (the AGPM paper's BFS,
 * reason e). Oracle: every node's level against the host's BFS after each
 * launch; each launch's durable image checked after it or after a power
 * failure (which ends the workload). */
#include "durable_common.h"

int pm_bfs_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 2048, 2, 1 << 20);
    uint32_t degree = (uint32_t)workload_int(context, "degree", 2, 0, 16);
    uint32_t window = (uint32_t)workload_int(context, "window", 32, 1, 4096);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_bfs", &run) || context->bad_input) return 1;
    uint32_t ctas = (n + block - 1) / block, edges = 2 * (n - 1 + n * degree), levels_run = 0, most_new = 0;
    int status = 0;
    bool crashed = false;
    gpu_module *module = NULL;
    uint32_t *from = malloc(4 * (size_t)edges), *to = malloc(4 * (size_t)edges), *offsets = calloc((size_t)n + 1, 4),
             *columns = malloc(4 * (size_t)edges), *fill = calloc(n, 4), *level = malloc(4 * (size_t)n), *before = malloc(4 * (size_t)n),
             *after = malloc(4 * (size_t)n), *owner = malloc(4 * (size_t)n);
    if (!from || !to || !offsets || !columns || !fill || !level || !before || !after || !owner) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint32_t m = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (v + 1 < n) from[m] = v, to[m++] = v + 1;
        for (uint32_t k = 0; k < degree; k++) {
            uint32_t u = v + 1 + (uint32_t)(workload_random(&seed) % window);
            if (u < n) from[m] = v, to[m++] = u;
        }
    }
    for (uint32_t e = 0, half = m; e < half; e++) from[m] = to[e], to[m++] = from[e]; /* symmetric */
    for (uint32_t e = 0; e < m; e++) offsets[from[e] + 1]++;
    for (uint32_t v = 0; v < n; v++) offsets[v + 1] += offsets[v];
    for (uint32_t e = 0; e < m; e++) columns[offsets[from[e]] + fill[from[e]]++] = to[e];
    for (uint32_t v = 0; v < n; v++) level[v] = v ? PM_BFS_UNVISITED : 0, owner[v] = v / block;
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t doffsets, dcolumns, dlevels;
    HOST_CHECK(doffsets = gpu_malloc_persistent(device, 4 * ((size_t)n + 1)));
    HOST_CHECK(dcolumns = gpu_malloc_persistent(device, 4 * (size_t)(m ? m : 1)));
    HOST_CHECK(dlevels = gpu_malloc_persistent(device, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, doffsets, offsets, 4 * ((size_t)n + 1)));
    HOST_CHECK(m == 0 || gpu_copy_to_device(device, dcolumns, columns, 4 * (size_t)m));
    HOST_CHECK(gpu_copy_to_device(device, dlevels, level, 4 * (size_t)n));
    for (uint32_t l = 0;; l++) {
        /* The host's level l + 1, pulled as the kernel does. */
        uint32_t added = 0;
        memcpy(before, level, 4 * (size_t)n);
        for (uint32_t v = 0; v < n; v++) {
            after[v] = before[v];
            if (before[v] != PM_BFS_UNVISITED) continue;
            for (uint32_t e = offsets[v]; e < offsets[v + 1]; e++)
                if (before[columns[e]] == l) {
                    after[v] = l + 1, added++;
                    break;
                }
        }
        if (!added) break;
        memcpy(level, after, 4 * (size_t)n);
        bool last = true; /* whether a further level exists: one more pass, cheap on the host */
        for (uint32_t v = 0; v < n && last; v++)
            if (level[v] == PM_BFS_UNVISITED)
                for (uint32_t e = offsets[v]; e < offsets[v + 1]; e++)
                    if (level[columns[e]] == l + 1) {
                        last = false;
                        break;
                    }
        struct pm_bfs_args args = {{0, 0, 0, 0}, 0, 1, doffsets, dcolumns, dlevels, n, l};
        durable_launch launch = {"pm_bfs", dim3_1d(ctas), dim3_1d(block), &args, sizeof args, 0, 1, "level", dlevels, before, after, owner, n, last, 1};
        if ((status = durable_launch_run(device, context, &run, module, &launch, &crashed)) || crashed) goto done;
        levels_run++;
        if (added > most_new) most_new = added;
    }
    uint32_t reached = 0;
    for (uint32_t v = 0; v < n; v++) reached += level[v] != PM_BFS_UNVISITED;
    if (context->log)
        fprintf(context->log, "pm_bfs: %u elements correct (%u reached in %u launches, at most %u new nodes logged by one)\n", n, reached,
                levels_run, most_new);
done:
    gpu_module_unload(module);
    free(from), free(to), free(offsets), free(columns), free(fill), free(level), free(before), free(after), free(owner);
    return status;
}
