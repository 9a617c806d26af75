/* An independent command-level timing checker, in the spirit of the
 * assertions in a DRAM vendor's Verilog model: it sees only the command
 * stream (kind, cycle, bank, row, column) and keeps its own history of past
 * commands, from which it re-derives every constraint listed in
 * dram_timing.h. It shares no bookkeeping with the scheduler, so a scheduler
 * bug shows up as a violation naming the constraint. */
#ifndef SIMTX_DRAM_TIMING_CHECKER_H
#define SIMTX_DRAM_TIMING_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dram_timing_checker dram_timing_checker;

/* rows: rows per bank, to reject out-of-range row numbers. */
dram_timing_checker *dram_timing_checker_create(const dram_timing *timing, unsigned rows);
void dram_timing_checker_destroy(dram_timing_checker *checker);

/* Checks one command. Returns false on the first violated constraint and
 * writes a message naming it (e.g. "tRCD violated: RD bank 3 at cycle 120,
 * 8 cycles after ACT at 112, needs 12"). Commands must come in issue order. */
bool dram_timing_checker_observe(dram_timing_checker *checker, const dram_command *command, char *error,
                                 size_t error_size);
/* End of run at cycle now: checks that refresh kept up. */
bool dram_timing_checker_finish(dram_timing_checker *checker, uint64_t now, char *error, size_t error_size);

/* The longest allowed gap between refreshes: JEDEC lets a controller
 * postpone up to 8 REF commands, so 9 * tREFI. */
#define DRAM_REFRESH_POSTPONE_LIMIT 9

#ifdef __cplusplus
}
#endif
#endif
