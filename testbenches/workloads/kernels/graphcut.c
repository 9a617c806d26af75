/* GraphCut: Karger's randomized contraction (SI-TM's GraphCut 1 and 2) on
 * a shared multigraph. Super-vertices are union-find trees (parent[x] == x
 * at a root); `vertices` counts them. The host permutes the edges; thread t
 * takes positions t, t + threads, ... and contracts each edge in its own
 * transaction: once two super-vertices are left it stops; an edge whose
 * endpoints already share a root is a self-loop, dropped; otherwise one
 * root is linked under the other (a merge). outcome[edge] records which. */
#include "gpu.h"
#include "workload_args.h"

GPU_KERNEL void graphcut(const struct graphcut_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->threads) return;
    const uint32_t *edges = (const uint32_t *)args->edges, *order = (const uint32_t *)args->order;
    volatile uint32_t *parent = (volatile uint32_t *)args->parent, *vertices = (volatile uint32_t *)args->vertices;
    volatile uint32_t *outcome = (volatile uint32_t *)args->outcome;
    for (uint32_t i = t; i < args->edge_count; i += args->threads) {
        uint32_t edge = order[i], a = edges[2 * edge], b = edges[2 * edge + 1];
        gpu_tx_begin();
        uint32_t u = a, v = b, result = GRAPHCUT_STOPPED;
        if (*vertices > 2) {
            while (parent[u] != u) u = parent[u];
            while (parent[v] != v) v = parent[v];
            result = GRAPHCUT_SELF_LOOP;
            if (u != v) {
                parent[u] = v;
                *vertices = *vertices - 1;
                result = GRAPHCUT_MERGED;
            }
        }
        outcome[edge] = result;
        gpu_tx_commit();
        if (result == GRAPHCUT_STOPPED) break;
    }
}
