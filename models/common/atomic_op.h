/* The atomic read-modify-write of SIMTX_OP_ATOMIC, shared by every block
 * that executes atomics (the memory block, the L2 slices) so that they agree
 * on its semantics: one 32-bit little-endian word at msg->address (msg->size
 * must be 4; the lane mask and byte enables play no part), the operand in
 * msg->data[0..3], CAS comparing with msg->aux; the response carries the old
 * value in msg->data[0..3]. */
#ifndef SIMTX_ATOMIC_OP_H
#define SIMTX_ATOMIC_OP_H

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ATOMIC_OP_BYTES 4u

/* True when msg is an atomic a memory-side block can perform (size and code);
 * others are answered with SIMTX_STATUS_COMMAND_ERROR. */
bool atomic_op_supported(const simtx_msg *msg);

/* Performs a supported atomic on the ATOMIC_OP_BYTES bytes at word (the
 * stored copy of msg->address): word receives the new value and
 * msg->data[0..3] the old one. */
void atomic_op_perform(simtx_msg *msg, uint8_t *word);

#ifdef __cplusplus
}
#endif
#endif
