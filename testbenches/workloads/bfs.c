/* Frontier-based BFS: one launch per level until the frontier is empty;
 * the levels must equal a host BFS's exactly. */
#include "host_common.h"

int bfs_main(gpu_device *device, workload_context *context)
{
    uint32_t nodes = (uint32_t)workload_int(context, "n", 4096, 2, 1 << 24);
    uint32_t degree = (uint32_t)workload_int(context, "degree", 4, 1, 256);
    uint32_t block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "bfs", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t edges = nodes * degree;
    uint32_t *offsets = malloc(sizeof(uint32_t) * (nodes + 1)), *columns = malloc(sizeof(uint32_t) * edges);
    uint32_t *levels = malloc(sizeof(uint32_t) * nodes), *expected = malloc(sizeof(uint32_t) * nodes);
    uint32_t *queue = malloc(sizeof(uint32_t) * nodes);
    if (!offsets || !columns || !levels || !expected || !queue) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    /* A random graph with a chain through all nodes (so the BFS is deep
     * enough to need many launches) plus random edges. */
    for (uint32_t v = 0; v < nodes; v++) {
        offsets[v] = v * degree;
        columns[v * degree] = (v + 1) % nodes;
        for (uint32_t k = 1; k < degree; k++) columns[v * degree + k] = (uint32_t)(workload_random(&seed) % nodes);
    }
    offsets[nodes] = edges;
    for (uint32_t v = 0; v < nodes; v++) expected[v] = UINT32_MAX, levels[v] = UINT32_MAX;
    uint32_t head = 0, tail = 0;
    expected[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t j = offsets[v]; j < offsets[v + 1]; j++)
            if (expected[columns[j]] == UINT32_MAX) {
                expected[columns[j]] = expected[v] + 1;
                queue[tail++] = columns[j];
            }
    }
    levels[0] = 0;
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_offsets, d_columns, d_levels, d_frontier[2], d_size;
    HOST_CHECK(d_offsets = gpu_malloc(device, sizeof(uint32_t) * (nodes + 1)));
    HOST_CHECK(d_columns = gpu_malloc(device, sizeof(uint32_t) * edges));
    HOST_CHECK(d_levels = gpu_malloc(device, sizeof(uint32_t) * nodes));
    HOST_CHECK(d_frontier[0] = gpu_malloc(device, sizeof(uint32_t) * nodes));
    HOST_CHECK(d_frontier[1] = gpu_malloc(device, sizeof(uint32_t) * nodes));
    HOST_CHECK(d_size = gpu_malloc(device, sizeof(uint32_t)));
    HOST_CHECK(gpu_copy_to_device(device, d_offsets, offsets, sizeof(uint32_t) * (nodes + 1)));
    HOST_CHECK(gpu_copy_to_device(device, d_columns, columns, sizeof(uint32_t) * edges));
    HOST_CHECK(gpu_copy_to_device(device, d_levels, levels, sizeof(uint32_t) * nodes));
    uint32_t source = 0, frontier_size = 1, level = 0;
    HOST_CHECK(gpu_copy_to_device(device, d_frontier[0], &source, sizeof source));
    for (; frontier_size; level++) {
        uint32_t zero = 0;
        HOST_CHECK(gpu_copy_to_device(device, d_size, &zero, sizeof zero));
        struct bfs_args args = {d_offsets, d_columns, d_levels, d_frontier[level & 1], d_frontier[(level + 1) & 1], frontier_size,
                                d_size, level, nodes};
        HOST_CHECK(gpu_launch(device, module, "bfs", dim3_1d((frontier_size + block - 1) / block), dim3_1d(block), &args,
                              sizeof args, 0));
        HOST_CHECK(gpu_synchronize(device));
        HOST_CHECK(gpu_copy_from_device(device, &frontier_size, d_size, sizeof frontier_size));
        if (frontier_size > nodes) {
            status = workload_fail(context, "bfs: level %u produced a frontier of %u nodes (of %u)", level, frontier_size, nodes);
            goto done;
        }
    }
    HOST_CHECK(gpu_copy_from_device(device, levels, d_levels, sizeof(uint32_t) * nodes));
    for (uint32_t v = 0; v < nodes; v++)
        if (levels[v] != expected[v]) {
            status = workload_fail(context, "bfs: node %u at level %d, expected %d", v, (int)levels[v], (int)expected[v]);
            goto done;
        }
    if (context->log) fprintf(context->log, "bfs: %u nodes, %u levels (%u launches) correct\n", nodes, level - 1, level);
done:
    gpu_module_unload(module);
    free(offsets), free(columns), free(levels), free(expected), free(queue);
    return status;
}
