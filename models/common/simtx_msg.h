/* The C message every block exchanges. Over TLM it rides in one payload
 * extension; plain reads and writes also fill the generic payload's command,
 * address, data and length so that standard TLM targets interoperate. */
#ifndef SIMTX_MSG_H
#define SIMTX_MSG_H

#include <stdbool.h>
#include <stddef.h>
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
    /* Partition -> core notifications over a notify network, unanswered
     * (models/protocols/notify.h). */
    SIMTX_OP_NOTIFY,
    /* Cache monitor events, unanswered (models/protocols/monitor.h). */
    SIMTX_OP_MONITOR_HIT,
    SIMTX_OP_MONITOR_MISS,
    SIMTX_OP_MONITOR_EVICT,
    SIMTX_OP_MONITOR_WRITEBACK,
    /* Transaction events between a SIMT core and its tm_unit
     * (models/protocols/tx.h). */
    SIMTX_OP_TX_BEGIN,    /* an attempt of lane_mask starts; response: it may run */
    SIMTX_OP_TX_COMMIT,   /* response data: struct tx_outcome */
    SIMTX_OP_TX_ROLLBACK, /* the core abandons the attempt (aux: the cause) */
    SIMTX_OP_TX_RESUME,   /* paused lanes run again (Pause-and-Go) */
    SIMTX_OP_TX_ABORT,    /* tm_unit -> core, posted: lanes must abort (tx.h 6) */
    /* Versioned memory (SI-TM): the Version Index Table slices and their bulk
     * copy units (models/protocols/version.h). */
    SIMTX_OP_VERSION_REGISTER, /* a versioned region: address, size, aux = relocated area */
    SIMTX_OP_VERSION_ACQUIRE,  /* pin a snapshot: aux = timestamp; response aux = handle */
    SIMTX_OP_VERSION_RELEASE,  /* unpin it: aux = handle */
    SIMTX_OP_VERSION_CLOSE,    /* S2 -> S3 at creation time aux; response aux = handle base */
    SIMTX_OP_VERSION_COPY,     /* VIT -> bulk copy: copy a version, address -> aux, size bytes */
    SIMTX_OP_PEER,        /* partition-side block -> a block elsewhere, answered (peer.h) */
    /* SI-TM's concurrency control: tm_unit <-> the Writer Table, Reader List
     * and timestamp table (models/protocols/sitm.h). */
    SIMTX_OP_SI_BEGIN,  /* transactions start: timestamp entries (held while a table overflows) */
    SIMTX_OP_SI_ACCESS, /* reads and writes of running transactions; response: a verdict per entry */
    SIMTX_OP_SI_END,    /* transactions ended (aux: the committed lanes): their entries go */
    /* AGPM's control wires between the path selectors and the tracker,
     * posted (models/protocols/agpm.h). */
    SIMTX_OP_AGPM_LOG,      /* selector -> tracker: a log update left by a path */
    SIMTX_OP_AGPM_DONE,     /* selector -> tracker: a log update is durable (cycles waited) */
    SIMTX_OP_AGPM_KERNEL,   /* selector -> tracker: a launch boundary */
    SIMTX_OP_AGPM_DECISION, /* tracker -> selector: the path for the next period */
    SIMTX_OP_COUNT
} simtx_op;

/* What a generic block (crossbar, cache, commit unit) needs to know of an op
 * without naming it. A block serves some families, passes some through and
 * fails the run, naming itself and the op, on any other. */
typedef enum simtx_op_family {
    SIMTX_FAMILY_ACCESS,   /* read, write (models/protocols/mem.h) */
    SIMTX_FAMILY_ATOMIC,   /* read-modify-write at the memory side */
    SIMTX_FAMILY_LINE,     /* line maintenance: clean, flush */
    SIMTX_FAMILY_FENCE,
    SIMTX_FAMILY_ROW_COPY, /* in-DRAM bulk copy */
    SIMTX_FAMILY_TM_LAZY,  /* KILO TM / Warp TM commit protocol (tm_lazy.h) */
    SIMTX_FAMILY_NOTIFY,   /* partition -> core notifications (notify.h) */
    SIMTX_FAMILY_MONITOR,  /* cache monitor events (monitor.h) */
    SIMTX_FAMILY_TX,       /* core <-> tm_unit transaction events (tx.h) */
    SIMTX_FAMILY_VERSION,  /* versioned memory: VIT slices and bulk copy units (version.h) */
    SIMTX_FAMILY_PEER,     /* between partition-side blocks over a peer network (peer.h) */
    SIMTX_FAMILY_TM_SI,    /* SI-TM's concurrency control (sitm.h) */
    SIMTX_FAMILY_PM_CONTROL, /* AGPM's selectors <-> tracker (agpm.h) */
    SIMTX_FAMILY_COUNT
} simtx_op_family;

/* What a family's protocol declares about the blocks its ops cross. */
typedef struct simtx_family_info {
    const char *name;
    /* Its ops travel from a core-side unit (the tm_unit) through the core's
     * memory path, the ldst_unit and the L1, unchanged to partition-side
     * blocks (tm_lazy.h's commit protocol): those pass them on, in order. */
    bool crosses_core_path;
} simtx_family_info;

extern const simtx_family_info simtx_family_infos[SIMTX_FAMILY_COUNT];

/* The families whose ops cross the core's memory path: bit f for family f. */
unsigned simtx_core_path_families(void);

typedef struct simtx_op_info {
    const char *name;
    uint8_t family;        /* simtx_op_family */
    bool request_data;     /* the request carries `size` bytes of data */
    bool response_data;    /* the response carries `size` bytes of data */
    bool request_is_log;   /* the request's data is a transaction log, which an ideal TM
                              network may move as a header only (crossbar tm_log_data) */
    bool acts_on_line;     /* it reads or changes the memory line at msg->address, so a
                              cache must not keep a stale or dirty copy across it */
    bool answered;         /* false: posted, no response ever comes (the receiver must
                              take it; forwarders clear msg->handle) */
} simtx_op_info;

/* One entry per value of msg->op's byte, so that a lookup needs no bounds
 * check: values past SIMTX_OP_COUNT are named "unknown", of no family any
 * block serves. */
extern const simtx_op_info simtx_op_infos[256];

/* The properties of an op (a msg->op byte). */
static inline const simtx_op_info *simtx_op_info_of(unsigned op) { return &simtx_op_infos[op & 0xFFu]; }

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

/* Attributes orthogonal to the op (in the manner of VCML's tlm_sbi), set by
 * the initiator; blocks that do not care pass them on untouched. Their
 * meaning per protocol is in models/protocols/mem.h and notify.h. */
typedef enum simtx_msg_flag {
    SIMTX_FLAG_TRANSACTIONAL = 1u << 0, /* issued inside a transaction */
    SIMTX_FLAG_PERSISTENT = 1u << 1,    /* targets persistent memory: done when durable */
    SIMTX_FLAG_NON_TEMPORAL = 1u << 2,  /* no reuse expected: caches need not allocate */
    SIMTX_FLAG_SNAPSHOT = 1u << 3,      /* reads a snapshot version (SI-TM), not the latest */
    SIMTX_FLAG_BROADCAST = 1u << 4,     /* to every destination of a core-mapped network */
    SIMTX_FLAG_TX_PAUSE = 1u << 5,      /* tx.h responses: lanes paused (Pause-and-Go), or accesses may pause them */
    SIMTX_FLAG_PM_LOG = 1u << 6,        /* a durable transaction's log update (gpu_persist_log): its path may be chosen */
    SIMTX_FLAG_PM_LOG_NAMES = 1u << 7,  /* with PM_LOG: each word written is the address of the data it logs */
} simtx_msg_flag;

/* msg.served_by of a response (models/protocols/mem.h, LEVELS): the level
 * of the memory hierarchy that held the data of a READ or ATOMIC, ordered
 * from nearest to farthest. */
typedef enum simtx_level {
    SIMTX_LEVEL_NONE,   /* no block said (requests, and answers of blocks that serve no data) */
    SIMTX_LEVEL_L1,     /* an L1 hit */
    SIMTX_LEVEL_L2,     /* an L2 hit */
    SIMTX_LEVEL_DRAM,   /* a DRAM controller */
    SIMTX_LEVEL_NVM,    /* an NVM controller (its media or its write-pending queue) */
    SIMTX_LEVEL_MEMORY, /* a fixed-latency memory block */
    SIMTX_LEVEL_COUNT
} simtx_level;

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
    /* simtx_msg_flag bits: orthogonal attributes of a request, copied into
     * its response. Sits in what was padding: the message keeps its size. */
    uint8_t flags;
    /* simtx_level of a response: who held the data (mem.h, LEVELS); 0 in
     * requests. Also in what was padding. */
    uint8_t served_by;
    uint64_t byte_enable[2]; /* bit i: data[i] is written; all ones when unused */
    /* Opaque to cores: the shim's handle on the TLM transaction carrying this
     * message. Copy it from a request into its response. */
    void *handle;
    uint8_t data[SIMTX_MSG_MAX_DATA];
} simtx_msg;

/* The bytes before data: every field but the payload (data is the last
 * field, so a message is copied or cleared without its 128 data bytes). */
#define SIMTX_MSG_HEADER_BYTES offsetof(simtx_msg, data)

/* A message's fields without its data. */
static inline void simtx_msg_copy_header(simtx_msg *to, const simtx_msg *from) { memcpy(to, from, SIMTX_MSG_HEADER_BYTES); }

/* A fresh request with all bytes enabled. */
static inline void simtx_msg_init(simtx_msg *msg, simtx_op op, uint64_t address, uint32_t size)
{
    memset(msg, 0, SIMTX_MSG_HEADER_BYTES);
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

static inline const char *simtx_op_name(simtx_op op) { return simtx_op_info_of(op)->name; }

/* The run-time error text for an op a block does not serve:
 * "<block> does not serve op <name> (<family>)". */
void simtx_op_unserved(char *text, size_t size, const char *block, unsigned op);

#ifdef __cplusplus
}
#endif
#endif
