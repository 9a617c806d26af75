/* HT: transactional chained hash table insert. Oracle: every key is in the
 * table exactly once, in its own bucket, every chain ends (with values=1
 * every entry also holds its value), plus the serializability oracle. */
#include "host_common.h"
#include "tm_check.h"

static uint32_t bucket_of(uint32_t key, uint32_t buckets) { return (key * 2654435761u) % buckets; }

int ht_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 2048, 1, 1 << 24);
    uint32_t bucket_count = (uint32_t)workload_int(context, "buckets", 1024, 1, 1 << 24);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    /* values=1: entries {key, value, next} as EA/PG's Hash Table (write set 4). */
    uint32_t words = 2 + (uint32_t)workload_int(context, "values", 0, 0, 1);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, words == 3 ? "ht_kv" : "ht", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *keys = malloc(sizeof(uint32_t) * n), *buckets = malloc(sizeof(uint32_t) * bucket_count);
    uint32_t *nodes = malloc(sizeof(uint32_t) * words * n);
    uint8_t *seen = calloc(n, 1);
    if (!keys || !buckets || !nodes || !seen) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    /* Distinct keys: a random permutation of spaced values. */
    for (uint32_t i = 0; i < n; i++) keys[i] = i * 7 + 3;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(&seed) % i), t = keys[i - 1];
        keys[i - 1] = keys[j], keys[j] = t;
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_keys, d_buckets, d_nodes;
    HOST_CHECK(d_keys = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(d_buckets = gpu_malloc(device, sizeof(uint32_t) * bucket_count));
    HOST_CHECK(d_nodes = gpu_malloc(device, sizeof(uint32_t) * words * n));
    HOST_CHECK(gpu_copy_to_device(device, d_keys, keys, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_memset(device, d_buckets, 0, sizeof(uint32_t) * bucket_count));
    HOST_CHECK(gpu_memset(device, d_nodes, 0, sizeof(uint32_t) * words * n));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_buckets, sizeof(uint32_t) * bucket_count) ||
        !tm_check_region(check, device, d_nodes, sizeof(uint32_t) * words * n)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct ht_args args = {d_keys, d_buckets, d_nodes, n, bucket_count};
    HOST_CHECK(gpu_launch(device, module, words == 3 ? "ht_kv" : "ht", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, buckets, d_buckets, sizeof(uint32_t) * bucket_count));
    HOST_CHECK(gpu_copy_from_device(device, nodes, d_nodes, sizeof(uint32_t) * words * n));
    uint32_t found = 0;
    for (uint32_t b = 0; b < bucket_count; b++) {
        for (uint32_t link = buckets[b], steps = 0; link; link = nodes[words * (link - 1) + words - 1], steps++) {
            if (link > n || steps > n) {
                status = workload_fail(context, "ht: bucket %u has a broken chain (link %u after %u nodes)", b, link, steps);
                goto done;
            }
            uint32_t node = link - 1, key = nodes[words * node];
            if (key != keys[node] || bucket_of(key, bucket_count) != b || (words == 3 && nodes[3 * node + 1] != ~key)) {
                status = workload_fail(context, "ht: node %u in bucket %u holds key %u, expected %u of bucket %u", node, b, key,
                                       keys[node], bucket_of(keys[node], bucket_count));
                goto done;
            }
            if (seen[node]++) {
                status = workload_fail(context, "ht: key %u is in the table twice", key);
                goto done;
            }
            found++;
        }
    }
    if (found != n) {
        for (uint32_t i = 0; i < n; i++)
            if (!seen[i]) {
                status = workload_fail(context, "ht: key %u (thread %u) is missing (%u of %u keys present)", keys[i], i, found, n);
                goto done;
            }
    }
    if (context->log) fprintf(context->log, "ht: %u keys in %u buckets, each present exactly once\n", n, bucket_count);
    tm_print_statistics(device, context, "ht");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(keys), free(buckets), free(nodes), free(seen);
    return status;
}
