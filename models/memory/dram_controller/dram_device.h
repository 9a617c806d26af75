/* dram_device: the device side of the dram_controller block, internal to
 * it (one module of the block, not a block): RowClone copies, which are
 * admitted, given their mode (FPM within a subarray, PSM between banks,
 * through the controller otherwise), run command by command and completed
 * here, and zero-time access to the data store. The copies' commands go
 * through the controller's timing and observers (dram_controller_try_command). */
#ifndef SIMTX_DRAM_DEVICE_H
#define SIMTX_DRAM_DEVICE_H

#include "dram_controller_internal.h"

/* Admits a ROW_COPY there is room for (or answers it at once: an error, or
 * a copy onto the same row). */
void dram_device_accept_copy(dram_controller *c, const simtx_msg *msg, uint64_t now);
/* Marks the copy's banks busy (it goes ahead of later requests there). */
void dram_device_start_copy(dram_controller *c, dram_copy *copy, uint64_t now);
/* Issues the started copy's next command when its timing allows, moving its
 * data as the command goes; otherwise lowers *wake to when it may. */
void dram_device_advance_copy(dram_controller *c, dram_copy *copy, uint64_t now, uint64_t *wake);
/* Answers the copies done by now and frees their banks. */
void dram_device_complete_copies(dram_controller *c, uint64_t now);
/* The block's debug access: the data store, in zero time. */
size_t dram_device_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                int *forward_port);

#endif
