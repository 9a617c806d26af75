/* Blind write-write conflicts inside a warp (kernels/tx_blind.c). Oracle:
 * each written pair holds one writer's (value, ~value) or (value, -value),
 * the writer a thread of its group and arm; words no thread wrote stay 0;
 * plus the serializability oracle. Option group: threads per word (a power
 * of two dividing the block and the warp width, so that a group lies in
 * one warp). expect_intra_warp=1 (on Warp TM) also requires the intra-warp
 * check's aborts to be exactly what its lane-priority rounds give: a word
 * written by h lanes of one arm costs h(h-1)/2 aborts (one lane commits per
 * round); a check that let writes to one word pass would abort none. */
#include "host_common.h"
#include "tm_check.h"

int tx_blind_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint32_t group = (uint32_t)workload_int(context, "group", 4, 1, 32);
    int64_t expect_intra_warp = workload_int(context, "expect_intra_warp", 0, 0, 1);
    char path[1024];
    workload_kernel_path(context, "tx_blind", path, sizeof path);
    if (context->bad_input) return 1;
    if (group & (group - 1) || block % group)
        return workload_bad_option(context, "workload.group: %u must be a power of two dividing workload.block (%u)", group, block);
    uint32_t groups = (n + group - 1) / group, bytes = 8 * groups;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *pairs[2] = {malloc(bytes), malloc(bytes)}; /* [0]: even arm, [1]: odd arm */
    if (!pairs[0] || !pairs[1]) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_pairs[2];
    for (int arm = 0; arm < 2; arm++) {
        HOST_CHECK(d_pairs[arm] = gpu_malloc(device, bytes));
        HOST_CHECK(gpu_memset(device, d_pairs[arm], 0, bytes));
    }
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_pairs[0], bytes) || !tm_check_region(check, device, d_pairs[1], bytes)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    double before = 0, after = 0;
    gpu_statistic(device, "tm_unit:aborts_intra_warp", &before);
    struct tx_blind_args args = {d_pairs[1], d_pairs[0], n, group};
    HOST_CHECK(gpu_launch(device, module, "tx_blind", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    gpu_statistic(device, "tm_unit:aborts_intra_warp", &after);
    uint64_t expected_aborts = 0;
    for (int arm = 0; arm < 2; arm++) {
        HOST_CHECK(gpu_copy_from_device(device, pairs[arm], d_pairs[arm], bytes));
        for (uint32_t g = 0; g < groups; g++) {
            uint32_t writers = 0;
            for (uint32_t i = g * group; i < n && i < (g + 1) * group; i++) writers += (i & 1) == (uint32_t)arm;
            expected_aborts += (uint64_t)writers * (writers - 1) / 2;
            uint32_t value = pairs[arm][2 * g], check_word = arm ? ~value : -value, writer = value - 1;
            bool fine = writers ? value && writer / group == g && (writer & 1) == (uint32_t)arm && writer < n && pairs[arm][2 * g + 1] == check_word
                                : !value && !pairs[arm][2 * g + 1];
            if (!fine) {
                status = workload_fail(context, "tx_blind: %s pair %u holds (0x%x, 0x%x): not one writer's pair (%u threads of group %u write it)",
                                       arm ? "odd" : "even", g, value, pairs[arm][2 * g + 1], writers, g);
                goto done;
            }
        }
    }
    if (expect_intra_warp && after - before != (double)expected_aborts) {
        status = workload_fail(context, "tx_blind: the intra-warp check aborted %.0f lanes, expected %llu (lanes of one warp blind-writing one word conflict)",
                               after - before, (unsigned long long)expected_aborts);
        goto done;
    }
    if (context->log)
        fprintf(context->log, "tx_blind: %u threads, %u per word: every pair written whole by one writer; %.0f intra-warp aborts%s\n", n,
                group, after - before, expect_intra_warp ? " as expected" : "");
    tm_print_statistics(device, context, "tx_blind");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(pairs[0]), free(pairs[1]);
    return status;
}
