/* The C message every block exchanges. Over TLM it rides in one payload
 * extension; plain reads and writes also fill the generic payload's command,
 * address, data and length so that standard TLM targets interoperate. */
#ifndef SIMTX_MSG_H
#define SIMTX_MSG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIMTX_MSG_MAX_DATA 128 /* one 128-byte segment: a coalesced warp access */
#define SIMTX_MSG_MAX_ROUTE 8  /* routing blocks a request may cross */

typedef enum simtx_op {
    SIMTX_OP_READ,
    SIMTX_OP_WRITE,
    SIMTX_OP_ATOMIC,     /* read-modify-write at the memory side; atomic_op says which */
    SIMTX_OP_CLEAN_LINE, /* write a dirty line back, keep it (clwb) */
    SIMTX_OP_FLUSH_LINE, /* write back and invalidate */
    SIMTX_OP_FENCE,      /* completes when earlier writes of the source are durable/visible */
    SIMTX_OP_ROW_COPY,   /* in-DRAM bulk copy: address = source, aux = destination */
    /* Transactional memory (KILO TM / Warp TM) between cores and commit units;
     * the protocol is specified in models/protocols/tm_lazy.h. */
    SIMTX_OP_TM_CID_REQUEST, /* commit IDs from the allocator; response aux = first CID */
    SIMTX_OP_TM_READ_LOG,    /* read-log entries of one or more transactions */
    SIMTX_OP_TM_WRITE_LOG,   /* write-log entries of one or more transactions */
    SIMTX_OP_TM_LOG_DONE,    /* all entries of a CID sent; response = validation outcome */
    SIMTX_OP_TM_SKIP,        /* CIDs with no entries at this partition */
    SIMTX_OP_TM_DECISION,    /* final commit/abort; response = write-back acknowledgement */
    SIMTX_OP_TM_LWT_QUERY,   /* temporal conflict detection: last-written time of a block */
    SIMTX_OP_COUNT
} simtx_op;

/* Codes of SIMTX_OP_ATOMIC (msg.atomic_op): a 32-bit read-modify-write at
 * the memory side. data[0..3] carries the operand in the request and the old
 * value in the response (little endian). CAS writes the operand only if the
 * old value equals msg.aux (the SIMT core builds lr/sc on it). */
typedef enum simtx_atomic_op {
    SIMTX_ATOMIC_SWAP, SIMTX_ATOMIC_ADD, SIMTX_ATOMIC_XOR, SIMTX_ATOMIC_AND, SIMTX_ATOMIC_OR,
    SIMTX_ATOMIC_MIN, SIMTX_ATOMIC_MAX, SIMTX_ATOMIC_MINU, SIMTX_ATOMIC_MAXU, SIMTX_ATOMIC_CAS,
    SIMTX_ATOMIC_COUNT
} simtx_atomic_op;

/* The new memory value of an atomic, from the old value, the operand and
 * (CAS only) the expected value. */
static inline uint32_t simtx_atomic_apply(simtx_atomic_op op, uint32_t old, uint32_t operand, uint32_t expected)
{
    switch (op) {
    case SIMTX_ATOMIC_CAS: return old == expected ? operand : old;
    case SIMTX_ATOMIC_SWAP: return operand;
    case SIMTX_ATOMIC_ADD: return old + operand;
    case SIMTX_ATOMIC_XOR: return old ^ operand;
    case SIMTX_ATOMIC_AND: return old & operand;
    case SIMTX_ATOMIC_OR: return old | operand;
    case SIMTX_ATOMIC_MIN: return (int32_t)old < (int32_t)operand ? old : operand;
    case SIMTX_ATOMIC_MAX: return (int32_t)old > (int32_t)operand ? old : operand;
    case SIMTX_ATOMIC_MINU: return old < operand ? old : operand;
    case SIMTX_ATOMIC_MAXU: return old > operand ? old : operand;
    default: return old;
    }
}

typedef enum simtx_status {
    SIMTX_STATUS_OK,
    SIMTX_STATUS_ADDRESS_ERROR, /* no target owns the address */
    SIMTX_STATUS_COMMAND_ERROR, /* the target does not support the op */
    SIMTX_STATUS_COUNT
} simtx_status;

typedef struct simtx_msg {
    uint8_t op;           /* simtx_op */
    uint8_t atomic_op;    /* block-defined, for SIMTX_OP_ATOMIC */
    uint8_t status;       /* simtx_status, set in responses */
    bool is_response;
    uint32_t size;        /* bytes of data accessed */
    uint64_t address;
    uint64_t aux;         /* op-specific second operand */
    uint64_t id;          /* the initiator's tag, returned unchanged */
    uint64_t lane_mask;   /* GPU metadata: lanes taking part */
    int32_t core, warp, cta;
    uint32_t transaction_id;
    /* Routing blocks push the port a request came in on, and pop it to send
     * the response back. */
    uint8_t route[SIMTX_MSG_MAX_ROUTE];
    uint8_t route_depth;
    uint64_t byte_enable[2]; /* bit i: data[i] is written; all ones when unused */
    /* Opaque to cores: the shim's handle on the TLM transaction carrying this
     * message. Copy it from a request into its response. */
    void *handle;
    uint8_t data[SIMTX_MSG_MAX_DATA];
} simtx_msg;

/* A fresh request with all bytes enabled. */
static inline void simtx_msg_init(simtx_msg *msg, simtx_op op, uint64_t address, uint32_t size)
{
    memset(msg, 0, sizeof *msg - SIMTX_MSG_MAX_DATA);
    msg->op = (uint8_t)op;
    msg->address = address;
    msg->size = size;
    msg->byte_enable[0] = msg->byte_enable[1] = UINT64_MAX;
    msg->core = msg->warp = msg->cta = -1;
}

/* Turns a request into its response in place. */
static inline void simtx_msg_make_response(simtx_msg *msg, simtx_status status)
{
    msg->is_response = true;
    msg->status = (uint8_t)status;
}

static inline bool simtx_msg_byte_enabled(const simtx_msg *msg, unsigned byte)
{
    return (msg->byte_enable[byte >> 6] >> (byte & 63)) & 1u;
}

/* Enables data bytes [first, first + count). */
static inline void simtx_msg_enable_bytes(simtx_msg *msg, unsigned first, unsigned count)
{
    while (count) {
        unsigned shift = first & 63, n = count < 64 - shift ? count : 64 - shift;
        msg->byte_enable[first >> 6] |= (n < 64 ? (UINT64_C(1) << n) - 1 : UINT64_MAX) << shift;
        first += n;
        count -= n;
    }
}

const char *simtx_op_name(simtx_op op);

#ifdef __cplusplus
}
#endif
#endif
