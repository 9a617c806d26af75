#include "atomic_op.h"

bool atomic_op_supported(const simtx_msg *msg)
{
    return msg->op == SIMTX_OP_ATOMIC && msg->size == ATOMIC_OP_BYTES && msg->atomic_op < SIMTX_ATOMIC_COUNT;
}

void atomic_op_perform(simtx_msg *msg, uint8_t *word)
{
    uint32_t old, operand, updated;
    /* memcpy keeps the words little endian on the (little-endian) hosts we
     * build on and tolerates unaligned storage. */
    memcpy(&old, word, ATOMIC_OP_BYTES);
    memcpy(&operand, msg->data, ATOMIC_OP_BYTES);
    updated = simtx_atomic_apply((simtx_atomic_op)msg->atomic_op, old, operand, (uint32_t)msg->aux);
    memcpy(word, &updated, ATOMIC_OP_BYTES);
    memcpy(msg->data, &old, ATOMIC_OP_BYTES);
}
