/* agpm_tracker: the AGPM paper's statistics side (Figure 6, section IV):
 * the L1-level AGPM buffer (fed by the sampled core's L1 monitor and its
 * selector's log reports), the L2-level buffer shared by all partitions (the
 * L2 slices' monitors, the other selectors' log reports, entries the L1
 * level evicts), the reservation buffer (entries whose line the L2 wrote
 * back), the periods of log updates with their CWPPR threshold rule, and
 * the Table III classifier, whose decision goes to every selector at each
 * period end (models/protocols/agpm.h). */
#ifndef SIMTX_AGPM_TRACKER_H
#define SIMTX_AGPM_TRACKER_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct agpm_tracker_params {
    int64_t cores;               /* selectors: reports in, decisions out */
    int64_t partitions;          /* L2 slices whose monitors it observes */
    int64_t sampled_core;        /* the core whose L1 it observes */
    int64_t entries;             /* per AGPM buffer, both ways */
    int64_t counter_bits;
    int64_t reservation_entries;
    int64_t initial_threshold;   /* log updates per period */
    int64_t first_period;        /* log updates in a launch's first period (0: the threshold) */
    int64_t step_percent;
    int64_t minimum_threshold, maximum_threshold;
    double ratio;                /* Table III b/d */
    int64_t few_logs;            /* Table III e */
    char *shared_memory;         /* Table III h: launch (the launch's shared memory) | yes | no */
} agpm_tracker_params;

extern const simtx_block_info agpm_tracker_block_info;

#ifdef __cplusplus
}
#endif
#endif
