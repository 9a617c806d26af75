/* dram_controller: one GDDR5 channel. An FR-FCFS scheduler with a bounded
 * request queue and return queue drives banks (in bank groups, split into
 * subarrays) under an open-page policy, with refresh, real data in a sparse
 * backing store, in-DRAM RowClone copies (SIMTX_OP_ROW_COPY), and an
 * optional independent timing checker on every command. See README.md. */
#ifndef SIMTX_DRAM_CONTROLLER_H
#define SIMTX_DRAM_CONTROLLER_H

#include "dram_address_map.h"
#include "dram_timing.h"
#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dram_controller_params {
    char *address_map;
    int64_t partition_count, partition_interleave; /* compaction before decoding (dram_address_map.h) */
    int64_t banks, bank_groups, rows, subarrays, row_bytes;
    int64_t bus_bytes, burst_length, transfers_per_clock;
    int64_t queue_depth, return_queue_depth, copy_queue_depth;
    int64_t t_rcd, t_rp, t_ras, t_rc, t_cl, t_wl, t_ccd_s, t_ccd_l, t_rrd, t_faw, t_wtr, t_rtw, t_wr, t_rtp;
    int64_t t_refi, t_rfc;
    bool refresh;
    bool check_timing;
    bool copy_activates_limited;
    bool inject_timing_error; /* tests only: the scheduler mistimes tRCD */
    char *row_copy_mode; /* auto | controller */
    int64_t starvation_cap; /* 0: classic FR-FCFS */
} dram_controller_params;

extern const simtx_block_info dram_controller_block_info;

typedef struct dram_controller dram_controller;

/* Builds the address map a params struct describes (same checks as create). */
bool dram_controller_params_address_map(const dram_controller_params *params, dram_address_map *map, char *error,
                                        size_t error_size);
const dram_address_map *dram_controller_address_map(const dram_controller *controller);
/* True when a RowClone copy between the rows holding a and b can use Fast
 * Parallel Mode (same bank, same subarray). */
bool dram_controller_same_subarray(const dram_controller *controller, uint64_t address_a, uint64_t address_b);

/* For tests: zero-time access to the backing store, and the cycle of the
 * first command of the last completed copy and its completion cycle. */
void dram_controller_peek(dram_controller *controller, uint64_t address, void *data, size_t size);
void dram_controller_last_copy_cycles(const dram_controller *controller, uint64_t *first_command, uint64_t *done);
/* For tests: every command issued goes to this callback too. */
void dram_controller_set_command_listener(dram_controller *controller,
                                          void (*listener)(void *context, const dram_command *command), void *context);

#ifdef __cplusplus
}
#endif
#endif
