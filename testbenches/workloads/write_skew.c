/* Write skew: the negative case of snapshot isolation (SI-TM, ISCA'17 §4;
 * kernels/write_skew.c). Oracle: in every pair exactly one of the two
 * threads left and its word (only) is 0, as every serial order leaves it;
 * before it, the serializability check: on snapshot platforms the
 * snapshot-isolation checker names the dependency cycle a plain-SI run
 * produces (two rw edges). */
#include "host_common.h"
#include "tm_check.h"

int write_skew_main(gpu_device *device, workload_context *context)
{
    uint32_t pairs = (uint32_t)workload_int(context, "pairs", 64, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    char path[1024];
    workload_kernel_path(context, "write_skew", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t threads = 2 * pairs;
    uint32_t *words = malloc(sizeof(uint32_t) * threads), *left = calloc(threads, sizeof(uint32_t));
    if (!words || !left) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < threads; i++) words[i] = 1;
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_words, d_left;
    HOST_CHECK(d_words = gpu_malloc(device, sizeof(uint32_t) * threads));
    HOST_CHECK(d_left = gpu_malloc(device, sizeof(uint32_t) * threads));
    HOST_CHECK(gpu_copy_to_device(device, d_words, words, sizeof(uint32_t) * threads));
    HOST_CHECK(gpu_copy_to_device(device, d_left, left, sizeof(uint32_t) * threads));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_words, sizeof(uint32_t) * threads) ||
        !tm_check_region(check, device, d_left, sizeof(uint32_t) * threads)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct write_skew_args args = {d_words, d_left, pairs};
    HOST_CHECK(gpu_launch(device, module, "write_skew", dim3_1d((threads + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, words, d_words, sizeof(uint32_t) * threads));
    HOST_CHECK(gpu_copy_from_device(device, left, d_left, sizeof(uint32_t) * threads));
    for (uint32_t p = 0; p < pairs; p++) {
        uint32_t a = p, b = p + pairs; /* the pair's threads; word 2p + role */
        if (left[a] + left[b] != 1) {
            status = workload_fail(context, "write_skew: pair %u: %s (threads %u and %u; words %u, %u): not serializable%s", p,
                                   left[a] + left[b] ? "both threads left" : "neither thread left", a, b, words[2 * p], words[2 * p + 1],
                                   left[a] + left[b] ? " (write skew)" : "");
            goto done;
        }
        uint32_t leaver = left[a] ? 0 : 1;
        if (words[2 * p + leaver] != 0 || words[2 * p + 1 - leaver] != 1) {
            status = workload_fail(context, "write_skew: pair %u holds (%u, %u) but thread %u left", p, words[2 * p], words[2 * p + 1],
                                   leaver ? b : a);
            goto done;
        }
    }
    if (context->log) fprintf(context->log, "write_skew: %u pairs, exactly one thread of each left\n", pairs);
    tm_print_statistics(device, context, "write_skew");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(words), free(left);
    return status;
}
