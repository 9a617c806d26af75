/* The durable example's host plugin:
 *   simtx run gpu_pm.lua --host libdurable.so [--set workload.n=N] [--set workload.path=1|2]
 *   simtx run gpu_pm.lua --host libdurable.so --crash-seed S --crash-window NS   (a power failure)
 *   simtx-crash-campaign --host libdurable.so --points 100                       (many of them)
 * Without a failure: every element updated. After one: the recovery rolls
 * back every CTA found IN_TX, and the oracle checks each CTA's elements in
 * the durable image: all old (rolled back or never begun) or all new
 * (COMPLETE). A mix is a torn transaction; a COMPLETE CTA with old data a
 * lost one. */
#include <stdio.h>
#include <stdlib.h>

#include <simtx/durable_recovery.h>
#include <simtx/host_api.h>

#include "durable.h"

#define BLOCK 128

const simtx_host_option simtx_host_options[] = {
    {"n", 2048, 1, 1 << 20, "elements, one per thread"},
    {"path", GPU_PERSIST_CLWB, GPU_PERSIST_NT, GPU_PERSIST_CLWB, "log path: 1 non-temporal stores, 2 store + clwb"},
    {NULL, 0, 0, 0, NULL},
};

/* Checks each CTA's elements of the durable image against its state. */
static int check_image(gpu_device *device, const uint32_t *old, uint32_t *now, uint32_t n, uint32_t ctas, const uint8_t *states,
                       const gpu_durable_recovery *report)
{
    unsigned torn = 0, lost = 0;
    for (uint32_t c = 0; c < ctas; c++) {
        unsigned updated = 0, count = 0;
        for (uint32_t i = c * BLOCK; i < n && i < (c + 1) * BLOCK; i++, count++) updated += now[i] == durable_updated(old[i], i);
        bool complete = states ? states[c] == GPU_DURABLE_COMPLETE : true;
        if (updated && updated < count) torn++;
        else if (complete && updated < count) lost++;
        else if (!complete && updated) torn++; /* rolled back, yet new data survived */
    }
    if (report)
        printf("durable: after the power failure: %u CTAs complete, %u rolled back (%u log entries undone), %u not begun; %u torn, %u lost\n",
               report->complete, report->rolled_back, report->entries_undone, report->idle, torn, lost);
    else
        printf("durable: %u elements updated in %u CTAs; %u torn, %u lost\n", n, ctas, torn, lost);
    if (torn) return gpu_set_error(device, "durable: %u torn transaction(s): a CTA's elements are partly updated", torn), 1;
    if (lost) return gpu_set_error(device, "durable: %u lost transaction(s): COMPLETE but not updated", lost), 1;
    return 0;
}

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    (void)argv;
    if (argc > 1) return gpu_set_error(device, "durable: takes no arguments (options: --set workload.n=N, workload.path=1|2)"), 2;
    int64_t n_option, path_option;
    if (!gpu_option(device, "n", &n_option) || !gpu_option(device, "path", &path_option)) return 1;
    if (!gpu_has_durable_image(device))
        return gpu_set_error(device, "durable: the platform keeps no durable image (run it on gpu_pm.lua or gtx480_pm.lua)"), 2;
    uint32_t n = (uint32_t)n_option, ctas = (n + BLOCK - 1) / BLOCK;
    uint32_t *old = malloc(n * sizeof *old), *now = malloc(n * sizeof *now);
    uint8_t *states = malloc(ctas);
    gpu_module *module = NULL;
    int status = 1;
    if (!old || !now || !states) {
        gpu_set_error(device, "durable: out of host memory");
        goto done;
    }
    srand((unsigned)gpu_seed(device)); /* the inputs follow simtx run --seed */
    for (uint32_t i = 0; i < n; i++) old[i] = (uint32_t)rand() % 1000u;
    module = gpu_module_load(device, "durable_update_O2.elf"); /* beside this plugin */
    if (!module) {
        status = gpu_last_error_is_input(device) ? 2 : 1;
        goto done;
    }
    struct durable_args args = {.path = (uint32_t)path_option, .n = n};
    args.balances = gpu_malloc_persistent(device, n * sizeof *old);
    if (!args.balances || !gpu_copy_to_device(device, args.balances, old, n * sizeof *old) ||
        !gpu_durable_region_create(device, ctas, BLOCK, 1, &args.region))
        goto done;
    bool finished = gpu_launch(device, module, "durable_update", (gpu_dim3){ctas, 1, 1}, (gpu_dim3){BLOCK, 1, 1}, &args, sizeof args, 0) &&
                    gpu_synchronize(device);
    if (!finished && !gpu_crashed(device)) goto done;
    if (finished) { /* no failure: the data in memory and in the durable image */
        if (!gpu_copy_from_device(device, now, args.balances, n * sizeof *now)) goto done;
        status = check_image(device, old, now, n, ctas, NULL, NULL);
        goto done;
    }
    gpu_durable_recovery report;
    if (!gpu_durable_recover(device, &args.region, ctas, states, &report) ||
        !gpu_copy_from_durable(device, now, args.balances, n * sizeof *now))
        goto done;
    status = check_image(device, old, now, n, ctas, states, &report);
done:
    gpu_module_unload(module);
    free(old), free(now), free(states);
    return status;
}
