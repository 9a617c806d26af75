/* GraphCut: Karger's contraction on a random connected multigraph (SI-TM
 * Table 3: 60 vertices / 180 edges and 90 / 270, 32 threads;
 * kernels/graphcut.c). Oracle, exact for every serial order of the
 * contractions: two super-vertices remain (the counter says 2); the merged
 * edges form a spanning forest of two trees (each merge joined two
 * different super-vertices: V - 2 merges), whose components are the
 * device's union-find partition; every self-loop edge lies inside a
 * component; each thread stopped at most once and processed nothing after;
 * the edges add up (merged + self-loops + stops + unreached = E) and the cut
 * is recomputed from the original edges; plus the serializability check. */
#include "host_common.h"
#include "tm_check.h"

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* The device's root of x, or UINT32_MAX when its parent chain leaves the graph or loops. */
static uint32_t device_root(const uint32_t *parent, uint32_t vertex_count, uint32_t x)
{
    for (uint32_t steps = 0; steps <= vertex_count; steps++) {
        if (parent[x] >= vertex_count) return UINT32_MAX;
        if (parent[x] == x) return x;
        x = parent[x];
    }
    return UINT32_MAX;
}

int graphcut_main(gpu_device *device, workload_context *context)
{
    uint32_t vertex_count = (uint32_t)workload_int(context, "vertices", 60, 3, 1 << 16);
    uint32_t edge_count = (uint32_t)workload_int(context, "edges", 180, 2, 1 << 20);
    uint32_t threads = (uint32_t)workload_int(context, "threads", 32, 1, 1 << 16);
    uint32_t block = (uint32_t)workload_int(context, "block", 32, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "graphcut", path, sizeof path);
    if (context->bad_input) return 1;
    if (edge_count < vertex_count - 1)
        return workload_bad_option(context, "workload.edges: %u edges cannot connect %u vertices (at least %u)", edge_count, vertex_count,
                                   vertex_count - 1);
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *edges = malloc(sizeof(uint32_t) * 2 * edge_count), *order = malloc(sizeof(uint32_t) * edge_count);
    uint32_t *parent = malloc(sizeof(uint32_t) * vertex_count), *outcome = calloc(edge_count, sizeof(uint32_t));
    uint32_t *forest = malloc(sizeof(uint32_t) * vertex_count), *pairing = malloc(sizeof(uint32_t) * vertex_count);
    if (!edges || !order || !parent || !outcome || !forest || !pairing) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    /* Connected: a random spanning tree, then random edges (parallel edges allowed, no loops). */
    for (uint32_t e = 0; e < edge_count; e++) {
        uint32_t u, v;
        if (e + 1 < vertex_count) {
            u = e + 1;
            v = (uint32_t)(workload_random(&seed) % u);
        } else {
            u = (uint32_t)(workload_random(&seed) % vertex_count);
            v = (u + 1 + (uint32_t)(workload_random(&seed) % (vertex_count - 1))) % vertex_count;
        }
        edges[2 * e] = u, edges[2 * e + 1] = v;
        order[e] = e;
    }
    for (uint32_t i = edge_count; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(&seed) % i), t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
    for (uint32_t x = 0; x < vertex_count; x++) parent[x] = x;
    uint32_t count = vertex_count;
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_edges, d_order, d_parent, d_vertices, d_outcome;
    HOST_CHECK(d_edges = gpu_malloc(device, sizeof(uint32_t) * 2 * edge_count));
    HOST_CHECK(d_order = gpu_malloc(device, sizeof(uint32_t) * edge_count));
    HOST_CHECK(d_parent = gpu_malloc(device, sizeof(uint32_t) * vertex_count));
    HOST_CHECK(d_vertices = gpu_malloc(device, sizeof(uint32_t)));
    HOST_CHECK(d_outcome = gpu_malloc(device, sizeof(uint32_t) * edge_count));
    HOST_CHECK(gpu_copy_to_device(device, d_edges, edges, sizeof(uint32_t) * 2 * edge_count));
    HOST_CHECK(gpu_copy_to_device(device, d_order, order, sizeof(uint32_t) * edge_count));
    HOST_CHECK(gpu_copy_to_device(device, d_parent, parent, sizeof(uint32_t) * vertex_count));
    HOST_CHECK(gpu_copy_to_device(device, d_vertices, &count, sizeof count));
    HOST_CHECK(gpu_copy_to_device(device, d_outcome, outcome, sizeof(uint32_t) * edge_count));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_parent, sizeof(uint32_t) * vertex_count) ||
        !tm_check_region(check, device, d_vertices, sizeof(uint32_t)) ||
        !tm_check_region(check, device, d_outcome, sizeof(uint32_t) * edge_count)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct graphcut_args args = {d_edges, d_order, d_parent, d_vertices, d_outcome, edge_count, threads};
    HOST_CHECK(gpu_launch(device, module, "graphcut", dim3_1d((threads + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, parent, d_parent, sizeof(uint32_t) * vertex_count));
    HOST_CHECK(gpu_copy_from_device(device, &count, d_vertices, sizeof count));
    HOST_CHECK(gpu_copy_from_device(device, outcome, d_outcome, sizeof(uint32_t) * edge_count));
    if (count != 2) {
        status = workload_fail(context, "graphcut: %u super-vertices remain, expected 2", count);
        goto done;
    }
    /* The merges: a spanning forest of two trees. */
    uint32_t tally[4] = {0, 0, 0, 0};
    for (uint32_t x = 0; x < vertex_count; x++) forest[x] = x;
    for (uint32_t e = 0; e < edge_count; e++) {
        if (outcome[e] > GRAPHCUT_STOPPED) {
            status = workload_fail(context, "graphcut: edge %u has outcome %u", e, outcome[e]);
            goto done;
        }
        tally[outcome[e]]++;
        if (outcome[e] != GRAPHCUT_MERGED) continue;
        uint32_t u = find(forest, edges[2 * e]), v = find(forest, edges[2 * e + 1]);
        if (u == v) {
            status = workload_fail(context, "graphcut: edge %u (%u-%u) was merged, but the other merges had joined its ends already",
                                   e, edges[2 * e], edges[2 * e + 1]);
            goto done;
        }
        forest[u] = v;
    }
    if (tally[GRAPHCUT_MERGED] != vertex_count - 2) {
        status = workload_fail(context, "graphcut: %u merges, expected %u", tally[GRAPHCUT_MERGED], vertex_count - 2);
        goto done;
    }
    /* The device's partition is the forest's: its roots pair one to one with the forest's. */
    for (uint32_t x = 0; x < vertex_count; x++) pairing[x] = UINT32_MAX;
    for (uint32_t x = 0; x < vertex_count; x++) {
        uint32_t root = device_root(parent, vertex_count, x), host = find(forest, x);
        if (root == UINT32_MAX) {
            status = workload_fail(context, "graphcut: vertex %u's parent chain is broken (leaves the graph or loops)", x);
            goto done;
        }
        if (pairing[host] == UINT32_MAX) pairing[host] = root;
        if (pairing[host] != root) {
            status = workload_fail(context, "graphcut: vertex %u is under root %u, but the merged edges put it with root %u's vertices", x,
                                   root, pairing[host]);
            goto done;
        }
    }
    uint32_t cut = 0;
    for (uint32_t e = 0; e < edge_count; e++) {
        bool inside = find(forest, edges[2 * e]) == find(forest, edges[2 * e + 1]);
        if (outcome[e] == GRAPHCUT_SELF_LOOP && !inside) {
            status = workload_fail(context, "graphcut: edge %u (%u-%u) was dropped as a self-loop, but its ends lie in different super-vertices",
                                   e, edges[2 * e], edges[2 * e + 1]);
            goto done;
        }
        cut += !inside;
    }
    for (uint32_t t = 0; t < threads && t < edge_count; t++) { /* each thread: processed edges, at most one stop, then none */
        bool stopped = false;
        for (uint32_t i = t; i < edge_count; i += threads) {
            uint32_t o = outcome[order[i]];
            if ((o == GRAPHCUT_UNREACHED) != stopped) {
                status = workload_fail(context, "graphcut: thread %u's edge %u (position %u) has outcome %u%s", t, order[i], i, o,
                                       stopped ? " after the thread stopped" : ", but the thread had not stopped");
                goto done;
            }
            if (o == GRAPHCUT_STOPPED) stopped = true;
        }
    }
    if (context->log)
        fprintf(context->log,
                "graphcut: %u vertices contracted to 2 by %u threads: %u merges (a spanning forest, the device's partition), %u "
                "self-loops, %u stops, %u unreached of %u edges; cut %u\n",
                vertex_count, threads, tally[GRAPHCUT_MERGED], tally[GRAPHCUT_SELF_LOOP], tally[GRAPHCUT_STOPPED],
                tally[GRAPHCUT_UNREACHED], edge_count, cut);
    tm_print_statistics(device, context, "graphcut");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(edges), free(order), free(parent), free(outcome), free(forest), free(pairing);
    return status;
}
