/* localtm_ga: GPU-LocalTM's Genetic Algorithm (GA2..GA256): knapsack of 8
 * objects, one transaction per work-item (kernels/localtm_args.h). Oracle:
 * exact serializability from the writer tags and the logged reads
 * (localtm_ga_oracle.h); any serial order passes. */
#include "localtm_common.h"
#include "localtm_ga_oracle.h"

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
    uint32_t *log = malloc(sizeof(uint32_t) * 2 * n);
    if (!initial || !final || !first || !second || !cross || !log) {
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
    localtm_ga_history history = {n, solutions, capacity, weights[0], weights[1], initial, final, first, second, cross, log};
    char why[256];
    int verdict = localtm_ga_check(&history, why, sizeof why);
    if (verdict) {
        status = verdict < 0 ? workload_fail(context, "out of host memory") : workload_fail(context, "localtm_ga: %s", why);
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
    free(initial), free(final), free(first), free(second), free(cross), free(log);
    return status;
}
