#include "tm_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct tm_check {
    gpu_serializability *oracle;
};

tm_check *tm_check_begin(gpu_device *device, workload_context *context, int *status)
{
    *status = 0;
    if (!workload_int(context, "check_serializability", 1, 0, 1)) return NULL;
    tm_check *check = calloc(1, sizeof *check);
    if (!check) {
        *status = workload_fail(context, "out of host memory");
        return NULL;
    }
    check->oracle = gpu_serializability_begin(device);
    if (!check->oracle) {
        *status = workload_fail(context, "%s", gpu_last_error(device));
        free(check);
        return NULL;
    }
    return check;
}

bool tm_check_region(tm_check *check, gpu_device *device, uint32_t address, uint32_t bytes)
{
    return !check || gpu_serializability_region(check->oracle, address, bytes);
}

int tm_check_end(tm_check *check, gpu_device *device, workload_context *context)
{
    if (!check) return 0;
    gpu_serializability_report report;
    bool serializable = gpu_serializability_finish(check->oracle, &report);
    free(check);
    if (!serializable) return workload_fail(context, "%s", gpu_last_error(device));
    if (context->log && report.snapshots_checked) {
        if (report.validated_torn_reads)
            fprintf(context->log,
                    "snapshot-isolation checker: %" PRIu64 " reads of transactions validated at commit did not come from their snapshot "
                    "(harmless to the result); the first: %s\n",
                    report.validated_torn_reads, report.torn_note);
        fprintf(context->log,
                "snapshot-isolation checker: %zu committed transactions, %s, dependency graph "
                "(%" PRIu64 " wr, %" PRIu64 " ww, %" PRIu64 " rw edges) acyclic\n",
                report.commits, report.validated_torn_reads ? "every unvalidated read from its snapshot" : "every read from its snapshot",
                report.edges_wr, report.edges_ww, report.edges_rw);
    }
    if (context->log && report.replayed)
        fprintf(context->log, "serializability oracle: %zu committed transactions replayed in commit order, consistent\n",
                report.commits);
    return 0;
}

void tm_check_discard(tm_check *check, gpu_device *device)
{
    if (!check) return;
    gpu_serializability_discard(check->oracle);
    free(check);
}

void tm_print_statistics(gpu_device *device, workload_context *context, const char *name)
{
    /* The tm_units' and the cores' statistics (the commit units count commits and aborts too). */
    /* Qualified by block type (host_api.h), printed by name. */
    static const char *const queries[] = {"tm_unit:aborts_validation", "tm_unit:aborts_intra_warp", "tm_unit:aborts_timeout",
                                          "simt_core:tm_wasted_cycles", "tm_unit:commit_cycles",      "tm_unit:log_bytes"};
    if (!context->log) return;
    fprintf(context->log, "%s:", name);
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        double value = 0;
        if (gpu_statistic(device, queries[i], &value)) fprintf(context->log, " %s=%.0f", strchr(queries[i], ':') + 1, value);
    }
    fprintf(context->log, "\n");
}
