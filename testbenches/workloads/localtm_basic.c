/* GPU-LocalTM end to end (kernels/localtm_basic.c) on platforms/
 * si_localtm.lua. Option mode:
 *   table1   the paper's Table 1 (needs --define lanes=4): oracle on the
 *            words the work-items wrote and on the lds's LocalTM statistics
 *            (5 wavefront attempts, 1 wavefront serialisation, none of the
 *            work-group, 4 lane aborts, 5 lane commits);
 *   counter  n threads (one CTA, n <= 256) each add 1 to one shared word in
 *            a transaction: the word ends at n and the values read are a
 *            permutation of 0..n-1; expect_wg=1 also requires a work-group
 *            serialisation that held another wavefront's TX_BEGIN;
 *   outside  a transactional store beyond the region's data words: the
 *            run fails naming lane and pc (no oracle: the error is it).
 * Every mode also runs the serializability oracle on the lds's commit
 * records (check_serializability=0 turns it off). */
#include <stdio.h>

#include "host_common.h"
#include "kernels/localtm_basic_args.h"
#include "tm_check.h"

static double statistic(gpu_device *device, const char *name)
{
    double value = 0;
    char query[96];
    snprintf(query, sizeof query, "lds:%s", name);
    gpu_statistic(device, query, &value);
    return value;
}

int localtm_basic_main(gpu_device *device, workload_context *context)
{
    const char *mode = workload_string(context, "mode", "counter");
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 256);
    int64_t expect_wg = workload_int(context, "expect_wg", 0, 0, 1);
    char path[1024];
    workload_kernel_path(context, "localtm_basic", path, sizeof path);
    if (context->bad_input) return 1;
    bool table1 = !strcmp(mode, "table1"), outside = !strcmp(mode, "outside");
    if (!table1 && !outside && strcmp(mode, "counter")) return workload_bad_option(context, "workload.mode: expected table1, counter or outside");
    if (table1) n = 8;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t out[257] = {0}, d_flags = 0, d_out = 0;
    HOST_CHECK(module = gpu_module_load(device, path));
    HOST_CHECK(d_flags = gpu_malloc(device, 16));
    HOST_CHECK(d_out = gpu_malloc(device, sizeof out));
    HOST_CHECK(gpu_memset(device, d_flags, 0, 16));
    HOST_CHECK(gpu_memset(device, d_out, 0, sizeof out));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    struct localtm_basic_args args = {d_flags, d_out, n};
    HOST_CHECK(gpu_launch(device, module, table1 ? "localtm_table1" : outside ? "localtm_outside" : "localtm_counter", dim3_1d(1), dim3_1d(n), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, out, d_out, sizeof out));
    double attempts = statistic(device, "wf_attempts"), wf = statistic(device, "wf_serializations");
    double wg = statistic(device, "wg_serializations"), holds = statistic(device, "wg_holds");
    double aborts = statistic(device, "lane_aborts"), commits = statistic(device, "lane_commits");
    if (table1) {
        const uint32_t expected[5] = {10, 11, 12, 13, 0};
        for (unsigned t = 0; t < 5; t++)
            if (out[t] != expected[t]) {
                status = workload_fail(context, "localtm table1: work-item %u saw %u, expected %u", t, out[t], expected[t]);
                goto done;
            }
        if (attempts != 5 || wf != 1 || wg != 0 || aborts != 4 || commits != 5) {
            status = workload_fail(context,
                                   "localtm table1: %.0f wavefront attempts, %.0f wavefront and %.0f work-group serialisations, %.0f lane aborts, %.0f lane commits; expected 5, 1, 0, 4, 5 (Table 1 plus WI4's)",
                                   attempts, wf, wg, aborts, commits);
            goto done;
        }
    } else {
        if (out[n] != n) {
            status = workload_fail(context, "localtm counter: the word ends at %u, expected %u", out[n], n);
            goto done;
        }
        static uint8_t seen[256];
        memset(seen, 0, sizeof seen);
        for (uint32_t t = 0; t < n; t++) {
            if (out[t] >= n || seen[out[t]]++) {
                status = workload_fail(context, "localtm counter: thread %u read %u, twice or beyond %u: not a serial order", t, out[t], n);
                goto done;
            }
        }
        if (commits != n) {
            status = workload_fail(context, "localtm counter: %.0f lane commits, expected %u", commits, n);
            goto done;
        }
        if (expect_wg && (wg < 1 || holds < 1)) {
            status = workload_fail(context, "localtm counter: %.0f work-group serialisations, %.0f held TX_BEGINs; expected one at least", wg, holds);
            goto done;
        }
    }
    if (context->log)
        fprintf(context->log, "localtm %s: %.0f wavefront attempts, %.0f wavefront / %.0f work-group serialisations (%.0f held begins), %.0f lane aborts, %.0f lane commits\n",
                mode, attempts, wf, wg, holds, aborts, commits);
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    return status;
}
