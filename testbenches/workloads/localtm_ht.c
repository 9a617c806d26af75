/* localtm_ht: GPU-LocalTM's Hash Table (HT2..HT256). Oracle, true of every
 * serial order of the probes: bucket b's slots hold exactly the ids of the
 * work-items t with t % buckets == b, each once, and each work-item's
 * reported slot holds its id. */
#include "localtm_common.h"

int localtm_ht_main(gpu_device *device, workload_context *context)
{
    localtm_setup setup;
    if (localtm_setup_read(context, "localtm_ht", &setup)) return 1;
    uint32_t buckets = (uint32_t)workload_int(context, "buckets", 8, 1, LOCALTM_MAX_WORK_ITEMS);
    if (context->bad_input) return 1;
    if (setup.n % buckets)
        return workload_bad_option(context, "workload.buckets=%u must divide workload.n=%u (every bucket sized to its inserts)",
                                   buckets, setup.n);
    int status = 0;
    gpu_module *module = NULL;
    uint32_t n = setup.n, slots = n / buckets, *placed = malloc(sizeof(uint32_t) * n), *table = malloc(sizeof(uint32_t) * n);
    uint8_t *seen = calloc(n, 1);
    if (!placed || !table || !seen) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    HOST_CHECK(module = gpu_module_load(device, setup.path));
    uint32_t d_placed, d_table;
    HOST_CHECK(d_placed = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_table = gpu_malloc(device, sizeof(uint32_t) * n));
    struct localtm_ht_args args = {d_placed, d_table, n, buckets, slots, n};
    if ((status = localtm_launch(device, context, module, "localtm_ht", &setup, &args, sizeof args, LOCALTM_HT_WORDS(n)))) goto done;
    HOST_CHECK(gpu_copy_from_device(device, placed, d_placed, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_copy_from_device(device, table, d_table, sizeof(uint32_t) * n));
    for (uint32_t word = 0; word < n; word++) {
        uint32_t bucket = word % buckets, id = table[word] - 1; /* slot s of bucket b at word s * buckets + b */
        if (!table[word] || table[word] > n || id % buckets != bucket || seen[id]++) {
            status = workload_fail(context, "localtm_ht: bucket %u slot %u holds %u (expected the id + 1 of a work-item t with "
                                            "t %% %u == %u, once)", bucket, word / buckets, table[word], buckets, bucket);
            goto done;
        }
    }
    for (uint32_t t = 0; t < n; t++)
        if (placed[t] >= slots || table[placed[t] * buckets + t % buckets] != t + 1) {
            status = workload_fail(context, "localtm_ht: work-item %u reports slot %u of bucket %u, which does not hold its id", t,
                                   placed[t], t % buckets);
            goto done;
        }
    if (context->log)
        fprintf(context->log, "localtm_ht: %u ids in %u buckets of %u slots, each once in its bucket (mode %s)\n", n, buckets, slots,
                setup.serial ? "serial" : "tm");
    localtm_print_statistics(device, context, "localtm_ht");
done:
    gpu_module_unload(module);
    free(placed), free(table), free(seen);
    return status;
}
