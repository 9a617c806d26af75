/* Rollback of aborted transactions: private-stack undo and doomed
 * transactions (see kernels/tx_rollback.c). Oracle: every thread's stack
 * variable is 1, the counter is n, the pair is (n, -n), plus the
 * serializability oracle. Option doomed=loop|fault; expect_doomed=1 also
 * requires at least one abort by timeout (loop) or fault. */
#include "host_common.h"
#include "tm_check.h"

int tx_rollback_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    const char *doomed = workload_string(context, "doomed", "fault");
    int64_t expect_doomed = workload_int(context, "expect_doomed", 0, 0, 1);
    char path[1024];
    workload_kernel_path(context, "tx_rollback", path, sizeof path);
    if (context->bad_input) return 1;
    if (strcmp(doomed, "fault") && strcmp(doomed, "loop")) return workload_bad_option(context, "workload.doomed: expected fault or loop");
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *out = malloc(sizeof(uint32_t) * n);
    if (!out) return workload_fail(context, "out of host memory");
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_counter, d_pair, d_out, counter = 0, pair[2];
    HOST_CHECK(d_counter = gpu_malloc(device, 4));
    HOST_CHECK(d_pair = gpu_malloc(device, 8));
    HOST_CHECK(d_out = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_memset(device, d_counter, 0, 4));
    HOST_CHECK(gpu_memset(device, d_pair, 0, 8));
    HOST_CHECK(gpu_memset(device, d_out, 0, sizeof(uint32_t) * n));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_counter, 4) || !tm_check_region(check, device, d_pair, 8)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct tx_rollback_args args = {d_counter, d_pair, d_out, n, !strcmp(doomed, "fault")};
    HOST_CHECK(gpu_launch(device, module, "tx_rollback", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, &counter, d_counter, 4));
    HOST_CHECK(gpu_copy_from_device(device, pair, d_pair, 8));
    HOST_CHECK(gpu_copy_from_device(device, out, d_out, sizeof(uint32_t) * n));
    if (counter != n || pair[0] != n || pair[1] != (uint32_t)-n) {
        status = workload_fail(context, "tx_rollback: counter %u, pair (%d, %d), expected %u and (%u, -%u)", counter, (int)pair[0],
                               (int)pair[1], n, n, n);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        if (out[i] != 1) {
            status = workload_fail(context, "tx_rollback: thread %u's stack variable is %u after its commit, expected 1 (stack stores of aborted attempts not undone)",
                                   i, out[i]);
            goto done;
        }
    double aborts = 0, doomed_aborts = 0;
    gpu_statistic(device, "tm_unit:aborts_validation", &aborts);
    gpu_statistic(device, strcmp(doomed, "fault") ? "tm_unit:aborts_timeout" : "tm_unit:aborts_fault", &doomed_aborts);
    if (expect_doomed && !doomed_aborts) {
        status = workload_fail(context, "tx_rollback: no doomed transaction was aborted by %s", strcmp(doomed, "fault") ? "timeout" : "fault");
        goto done;
    }
    if (context->log)
        fprintf(context->log, "tx_rollback: %u threads committed once each; %.0f validation aborts, %.0f doomed aborts (%s)\n", n,
                aborts, doomed_aborts, doomed);
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(out);
    return status;
}
