#include "localtm_common.h"

#include <stdio.h>

int localtm_setup_read(workload_context *context, const char *base, localtm_setup *setup)
{
    setup->n = (uint32_t)workload_int(context, "n", LOCALTM_MAX_WORK_ITEMS, 1, LOCALTM_MAX_WORK_ITEMS);
    const char *mode = workload_string(context, "mode", "tm");
    setup->seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    if (context->bad_input) return 1;
    if (strcmp(mode, "tm") && strcmp(mode, "serial"))
        return workload_bad_option(context, "workload.mode must be tm or serial, got '%s'", mode);
    setup->serial = !strcmp(mode, "serial");
    char kernel[64];
    snprintf(kernel, sizeof kernel, "%s%s", base, setup->serial ? "_serial" : "");
    workload_kernel_path(context, kernel, setup->path, sizeof setup->path);
    return context->bad_input ? 1 : 0;
}

int localtm_launch(gpu_device *device, workload_context *context, gpu_module *module, const char *base,
                   const localtm_setup *setup, const void *args, size_t args_size, uint32_t data_words)
{
    int status = 0;
    /* TX serialization has no transactions to check. */
    tm_check *check = setup->serial ? NULL : tm_check_begin(device, context, &status);
    if (status) return status;
    if (!gpu_launch(device, module, base, dim3_1d(1), dim3_1d(setup->n), args, args_size, GPU_LOCALTM_REGION_BYTES(data_words)) ||
        !gpu_synchronize(device)) {
        tm_check_discard(check, device);
        context->bad_input |= gpu_last_error_is_input(device);
        return workload_fail(context, "%s", gpu_last_error(device));
    }
    return tm_check_end(check, device, context);
}

void localtm_print_statistics(gpu_device *device, workload_context *context, const char *name)
{
    /* Spec section 5's names, wherever the platform keeps them. */
    static const char *const names[] = {"tx_lds_accesses", "ltm_conflicts", "ltm_false_conflicts", "wf_attempts",
                                        "wf_serializations", "wg_serializations", "lane_commits", "lane_aborts"};
    static const char *const blocks[] = {"lds", "simt_core"};
    if (!context->log) return;
    char line[512];
    size_t used = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            char query[64];
            double value = 0;
            snprintf(query, sizeof query, "%s:%s", blocks[b], names[i]);
            if (!gpu_statistic(device, query, &value)) continue;
            used += (size_t)snprintf(line + used, sizeof line - used, " %s=%.0f", names[i], value);
            if (used >= sizeof line) used = sizeof line - 1;
            break;
        }
    if (used) fprintf(context->log, "%s:%s\n", name, line);
}
