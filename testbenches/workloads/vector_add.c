/* Vector add: c = a + b, checked element by element. Option persistent:
 * none (default), output (c in the persistent window) or all (a, b and c
 * there), to run it on persistent memory; on a platform with NVM
 * controllers the durable image of c is checked too (each element 0 or its
 * sum) and its durable count printed. Option launches: the host writes new
 * a and b before each further launch, which must read them (no line an L1
 * kept from an earlier launch), and checks c after each. */
#include "host_common.h"

int vector_add_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 4096, 1, 1 << 26);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    const char *persistent = workload_string(context, "persistent", "none");
    uint32_t launches = (uint32_t)workload_int(context, "launches", 1, 1, 1000);
    char path[1024];
    workload_kernel_path(context, "vector_add", path, sizeof path);
    if (context->bad_input) return 1;
    bool inputs_persistent = !strcmp(persistent, "all"), output_persistent = inputs_persistent || !strcmp(persistent, "output");
    if (!output_persistent && strcmp(persistent, "none"))
        return workload_bad_option(context, "workload.persistent must be none, output or all, got '%s'", persistent);
    int status = 0;
    gpu_module *module = NULL;
    int32_t *a = malloc(sizeof(int32_t) * n), *b = malloc(sizeof(int32_t) * n), *c = malloc(sizeof(int32_t) * n);
    if (!a || !b || !c) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t da, db, dc;
    uint32_t (*allocate_input)(gpu_device *, size_t) = inputs_persistent ? gpu_malloc_persistent : gpu_malloc;
    uint32_t (*allocate_output)(gpu_device *, size_t) = output_persistent ? gpu_malloc_persistent : gpu_malloc;
    HOST_CHECK(da = allocate_input(device, sizeof(int32_t) * n));
    HOST_CHECK(db = allocate_input(device, sizeof(int32_t) * n));
    HOST_CHECK(dc = allocate_output(device, sizeof(int32_t) * n));
    struct vector_add_args args = {da, db, dc, n};
    for (uint32_t launch = 0; launch < launches; launch++) {
        for (uint32_t i = 0; i < n; i++) {
            a[i] = (int32_t)workload_random(&seed);
            b[i] = (int32_t)workload_random(&seed);
        }
        HOST_CHECK(gpu_copy_to_device(device, da, a, sizeof(int32_t) * n));
        HOST_CHECK(gpu_copy_to_device(device, db, b, sizeof(int32_t) * n));
        HOST_CHECK(gpu_launch(device, module, "vector_add", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
        HOST_CHECK(gpu_synchronize(device));
        HOST_CHECK(gpu_copy_from_device(device, c, dc, sizeof(int32_t) * n));
        uint32_t wrong = 0, first = 0;
        for (uint32_t i = n; i-- > 0;)
            if (c[i] != (int32_t)((uint32_t)a[i] + (uint32_t)b[i])) wrong++, first = i;
        if (wrong) {
            status = workload_fail(context, "vector_add: c[%u] = %d, expected %d (launch %u: %u of %u elements wrong)", first, c[first],
                                   (int32_t)((uint32_t)a[first] + (uint32_t)b[first]), launch, wrong, n);
            goto done;
        }
    }
    if (context->log) fprintf(context->log, "vector_add: %u elements correct\n", n);
    if (output_persistent && gpu_has_durable_image(device)) {
        /* What a power failure now would leave: each element of c is either
         * still 0 (its line dirty in a cache) or its sum, never anything else. */
        HOST_CHECK(gpu_copy_from_durable(device, c, dc, sizeof(int32_t) * n));
        uint32_t durable = 0;
        for (uint32_t i = 0; i < n; i++) {
            int32_t sum = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
            if (c[i] == sum) durable++;
            else if (c[i] != 0) {
                status = workload_fail(context, "vector_add: the durable c[%u] = %d, neither 0 nor %d", i, c[i], sum);
                goto done;
            }
        }
        if (context->log) fprintf(context->log, "vector_add: %u of %u elements of c durable\n", durable, n);
    }
done:
    gpu_module_unload(module);
    free(a), free(b), free(c);
    return status;
}
