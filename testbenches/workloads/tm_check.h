/* The serializability oracle for transactional workloads (the host API's
 * gpu_serializability_*, runtime/host_serializability.c) behind the
 * workloads' option check_serializability, fed from the commit records: every committed
 * transaction's reads and writes replayed in commit-ID order on a shadow of
 * the memory regions the transactions use; each read must see the replayed
 * value and the final memory must equal the replay. When the transactions
 * took snapshots (SI-TM), the snapshot-isolation checker (verification/
 * si_check.h) runs first: each read against its snapshot, and an acyclic
 * dependency graph (it names the cycle it finds).
 *
 *   tm_check *check = tm_check_begin(device, context);   // NULL: disabled or failed
 *   tm_check_region(check, d_table, bytes);              // before the launch
 *   ... launch, synchronize ...
 *   status = tm_check_end(check, device, context);        // 0: serializable
 *
 * On by default in every TM workload (option check_serializability=0 turns
 * it off, e.g. for paper-size runs). */
#ifndef SIMTX_WORKLOAD_TM_CHECK_H
#define SIMTX_WORKLOAD_TM_CHECK_H

#include "workload.h"

typedef struct tm_check tm_check;

/* Reads the option and turns recording on; *status = 1 on an error. */
tm_check *tm_check_begin(gpu_device *device, workload_context *context, int *status);
/* Snapshots a region of device memory as the replay's initial image. */
bool tm_check_region(tm_check *check, gpu_device *device, uint32_t address, uint32_t bytes);
/* Replays the history and compares; frees the check. Returns 0 when
 * serializable (or check is NULL), else 1 with context->error set. */
int tm_check_end(tm_check *check, gpu_device *device, workload_context *context);
/* Drops a check on an error path (no oracle verdict, recording off). */
void tm_check_discard(tm_check *check, gpu_device *device);
/* The statistics every TM workload prints after its oracle. */
void tm_print_statistics(gpu_device *device, workload_context *context, const char *name);

#endif
