/* localtm_ga: GPU-LocalTM's Genetic Algorithm (GA2..GA256): knapsack of 8
 * objects, one transaction per work-item (localtm_args.h).
 *
 * Oracle (exact serializability): every solution word carries the id of
 * its last writer, and every work-item logs the two words it read. A
 * history is serializable iff, for every solution, the transactions that
 * touched it form one chain of reads-from from the initial word (each read
 * sees the initial word or exactly what an earlier toucher wrote, no two
 * transactions read the same version: no lost update) ending at the final
 * word, and the chains of all solutions together are acyclic (a serial
 * order exists: found by topological sort). Each transaction's writes are
 * recomputed on the host from what it read. Any serial order passes. */
#include "localtm_common.h"

static uint32_t ga_written(const struct localtm_ga_args *args, const uint32_t *first, const uint32_t *cross, const uint32_t *log,
                           uint32_t t, uint32_t slot)
{
    uint32_t new_a, new_b;
    localtm_ga_crossover(log[2 * t] & 0xffu, log[2 * t + 1] & 0xffu, cross[t], args->capacity, args->weights_low,
                         args->weights_high, &new_a, &new_b);
    return (slot == first[t] ? new_a : new_b) | (t + 1) << 8;
}

int localtm_ga_main(gpu_device *device, workload_context *context)
{
    localtm_setup setup;
    if (localtm_setup_read(context, "localtm_ga", &setup)) return 1;
    uint32_t solutions = (uint32_t)workload_int(context, "solutions", 8, 2, LOCALTM_MAX_WORK_ITEMS);
    /* 0: half the objects' total weight. */
    uint32_t capacity = (uint32_t)workload_int(context, "capacity", 0, 0, 8 * 255);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t n = setup.n;
    uint32_t *initial = malloc(sizeof(uint32_t) * solutions), *final = malloc(sizeof(uint32_t) * solutions);
    uint32_t *first = malloc(sizeof(uint32_t) * n), *second = malloc(sizeof(uint32_t) * n), *cross = malloc(sizeof(uint32_t) * n);
    uint32_t *log = malloc(sizeof(uint32_t) * 2 * n), *successor = malloc(sizeof(uint32_t) * 2 * n);
    uint32_t *from_initial = malloc(sizeof(uint32_t) * solutions), *indegree = calloc(n, sizeof(uint32_t));
    uint32_t *touches = calloc(solutions, sizeof(uint32_t)), *ready = malloc(sizeof(uint32_t) * n);
    if (!initial || !final || !first || !second || !cross || !log || !successor || !from_initial || !indegree || !touches || !ready) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint64_t seed = setup.seed;
    uint32_t weights[2] = {0, 0}, total = 0;
    for (uint32_t k = 0; k < LOCALTM_GA_OBJECTS; k++) {
        uint32_t weight = 5 + (uint32_t)(workload_random(&seed) % 36);
        weights[k / 4] |= weight << (8 * (k % 4));
        total += weight;
    }
    if (!capacity) capacity = total / 2;
    for (uint32_t i = 0; i < solutions; i++) initial[i] = (uint32_t)(workload_random(&seed) & 0xffu);
    for (uint32_t t = 0; t < n; t++) {
        first[t] = (uint32_t)(workload_random(&seed) % solutions);
        second[t] = (first[t] + 1 + (uint32_t)(workload_random(&seed) % (solutions - 1))) % solutions;
        cross[t] = (uint32_t)(workload_random(&seed) & 0xffu);
    }
    HOST_CHECK(module = gpu_module_load(device, setup.path));
    uint32_t d_initial, d_first, d_second, d_cross, d_log, d_final;
    HOST_CHECK(d_initial = gpu_malloc(device, sizeof(uint32_t) * solutions));
    HOST_CHECK(d_first = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_second = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_cross = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_log = gpu_malloc(device, sizeof(uint32_t) * 2 * n));
    HOST_CHECK(d_final = gpu_malloc(device, sizeof(uint32_t) * solutions));
    HOST_CHECK(gpu_copy_to_device(device, d_initial, initial, sizeof(uint32_t) * solutions));
    HOST_CHECK(gpu_copy_to_device(device, d_first, first, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_copy_to_device(device, d_second, second, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_copy_to_device(device, d_cross, cross, sizeof(uint32_t) * n));
    struct localtm_ga_args args = {d_initial, d_first,  d_second,   d_cross,    d_log,      d_final,
                                   n,         solutions, capacity, weights[0], weights[1], solutions};
    if ((status = localtm_launch(device, context, module, "localtm_ga", &setup, &args, sizeof args, LOCALTM_GA_WORDS(solutions)))) goto done;
    HOST_CHECK(gpu_copy_from_device(device, log, d_log, sizeof(uint32_t) * 2 * n));
    HOST_CHECK(gpu_copy_from_device(device, final, d_final, sizeof(uint32_t) * solutions));
    /* Reads-from: each read names its version's writer (0: initial). */
    const uint32_t none = UINT32_MAX;
    for (uint32_t i = 0; i < 2 * n; i++) successor[i] = none;
    for (uint32_t s = 0; s < solutions; s++) from_initial[s] = none;
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t side = 0; side < 2; side++) {
            uint32_t slot = side ? second[t] : first[t], read = log[2 * t + side], writer = read >> 8;
            touches[slot]++;
            uint32_t *claim;
            if (!writer) {
                if (read != initial[slot]) {
                    status = workload_fail(context, "localtm_ga: work-item %u read %#x from solution %u, whose initial word is %#x", t,
                                           read, slot, initial[slot]);
                    goto done;
                }
                claim = &from_initial[slot];
            } else {
                uint32_t u = writer - 1;
                if (u >= n || u == t || (first[u] != slot && second[u] != slot) ||
                    read != ga_written(&args, first, cross, log, u, slot)) {
                    status = workload_fail(context, "localtm_ga: work-item %u read %#x from solution %u, which work-item %u never wrote",
                                           t, read, slot, u);
                    goto done;
                }
                claim = &successor[2 * u + (second[u] == slot)];
                indegree[t]++;
            }
            if (*claim != none) {
                status = workload_fail(context, "localtm_ga: work-items %u and %u both read the same version of solution %u (%#x): "
                                                "a lost update", *claim, t, slot, read);
                goto done;
            }
            *claim = t;
        }
    /* Each solution's chain covers its touchers and ends at its final word. */
    for (uint32_t s = 0; s < solutions; s++) {
        uint32_t value = initial[s], steps = 0;
        for (uint32_t t = from_initial[s]; t != none && steps <= touches[s]; steps++) {
            value = ga_written(&args, first, cross, log, t, s);
            t = successor[2 * t + (second[t] == s)];
        }
        if (steps != touches[s] || value != final[s]) {
            status = workload_fail(context, "localtm_ga: solution %u: %u of the %u transactions touching it chain from its initial word, "
                                            "ending at %#x, final word %#x", s, steps, touches[s], value, final[s]);
            goto done;
        }
    }
    /* A serial order: Kahn's topological sort of the reads-from edges. */
    uint32_t count = 0, ordered = 0;
    for (uint32_t t = 0; t < n; t++)
        if (!indegree[t]) ready[count++] = t;
    while (ordered < count) {
        uint32_t t = ready[ordered++];
        for (uint32_t side = 0; side < 2; side++)
            if (successor[2 * t + side] != none && !--indegree[successor[2 * t + side]]) ready[count++] = successor[2 * t + side];
    }
    if (ordered != n) {
        status = workload_fail(context, "localtm_ga: the reads-from order of %u transactions has a cycle: no serial order", n - ordered);
        goto done;
    }
    uint32_t before = UINT32_MAX, after = UINT32_MAX;
    for (uint32_t s = 0; s < solutions; s++) {
        uint32_t old = localtm_ga_distance(initial[s], capacity, weights[0], weights[1]);
        uint32_t new = localtm_ga_distance(final[s] & 0xffu, capacity, weights[0], weights[1]);
        before = old < before ? old : before, after = new < after ? new : after;
    }
    if (context->log)
        fprintf(context->log,
                "localtm_ga: %u transactions on %u solutions serializable, every write recomputed; best distance to capacity %u: "
                "%u before, %u after (mode %s)\n", n, solutions, capacity, before, after, setup.serial ? "serial" : "tm");
    localtm_print_statistics(device, context, "localtm_ga");
done:
    gpu_module_unload(module);
    free(initial), free(final), free(first), free(second), free(cross), free(log), free(successor);
    free(from_initial), free(indegree), free(touches), free(ready);
    return status;
}
