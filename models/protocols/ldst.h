/* The protocol between a SIMT core and the units that execute a warp's memory
 * instruction after operand read: the ldst_unit (global and persistent
 * memory through the L1, models/core/ldst_unit) and the lds (the core's
 * shared memory, models/core/lds).
 *
 * The core reads the base and data registers at issue, computes the lanes'
 * addresses, decides per lane which unit serves it (the shared window goes to
 * the lds, the global and persistent windows to the ldst_unit; local memory
 * and the constant path stay in the core),
 * and sends each unit one REQUEST per warp memory instruction. The unit
 * answers with the lanes' values of rd; the core writes them back and
 * releases its scoreboard. The register file, the scoreboard and the
 * reservation of lr/sc stay in the core.
 *
 * The core's local memory (the private stack) stays in the core, with its
 * transactional undo: a rollback restores it together with the register
 * checkpoint, which the core owns (tx.h).
 *
 * PARTIES AND ORDER OF EVENTS (one warp memory instruction)
 *
 *   1. Beats. A request is a run of BEATS, each one simtx_msg request on the
 *      core's socket to the unit. A beat carries the 4-byte slots of 32 lanes
 *      (LDST_BEAT_BYTES = 128 = SIMTX_MSG_MAX_DATA): lane 32 g + i of lane
 *      group g at data[4 i .. 4 i + 3], little endian. Per lane group with at
 *      least one active lane, in ascending group order, the core sends
 *        - LDST_BEAT_ADDRESSES: the lanes' addresses (see ADDRESSES below),
 *        - LDST_BEAT_DATA (stores, atomics, sc): the lanes' store data or
 *          atomic operands, the low access-size bytes of each slot,
 *        - LDST_BEAT_EXPECTED (CAS and sc only): the value each lane expects
 *          to find (sc: the value its lr read, which the core kept).
 *      So a 32-lane load is one beat, a 64-lane store four. Slots of
 *      inactive lanes are ignored. The final beat of the request sets
 *      LDST_LAST. An op without lanes (fence, clear) is one beat of size 0.
 *      A RUN (LDST_RUN in aux, ldst_unit only): a plain load or store whose
 *      lane l accesses msg.address + 4 l (lane 0's address, every lane
 *      counted whether active or not; the run does not wrap around). Its
 *      addresses travel in msg.address instead of slots: a load's
 *      ADDRESSES beats carry no slots (their responses carry the values),
 *      and a store sends no ADDRESSES beats at all (DATA beats only), so
 *      a warp's contiguous store is one beat each way instead of two. The
 *      lds and a tm_unit's transactional path do not serve runs (command
 *      error); the core sends them only to the ldst_unit, outside
 *      transactions.
 *      ldst_make_beats (below) writes the beats of a request.
      A transactional request under a pausing filter starts with one more
      beat, LDST_BEAT_VERDICT, before the groups' (tx.h 2, THE VERDICT):
      a tm_unit serves it, and answers it before the request completes;
      an lds whose policy serves transactions answers it first among the
      request's responses (tx.h 2); any other unit answers
      LDST_FAULT_UNSUPPORTED.
 *   2. Reassembly. The core sends the beats of one request back to back and
 *      never interleaves two requests on one socket, so a unit reassembles
 *      in one staging area per socket: every beat repeats the request's
 *      fields (op, aux except the beat fields, lane_mask, id, warp, cta), and
 *      (group, beat kind) says where a beat's slots go (ldst_group_beats:
 *      the kinds each group of an op takes). The request exists
 *      once its LDST_LAST beat has arrived.
 *   3. Execution. A unit performs the request for every active lane, or for
 *      none: it checks every lane first (window, alignment, op) and answers
 *      an error without touching memory (FAULTS below).
 *   4. Responses. Every beat, being a TLM transaction, gets exactly one
 *      response (simtx_msg_make_response, same handle). A unit sends the
 *      responses of one request when the request completes, in the order of
 *      its beats:
 *        - the response to the ADDRESSES beat of group g carries the values
 *          of rd of that group's lanes in its slots (size = the request
 *          beat's size), for loads (zero-extended access-size bytes; the
 *          core applies its instruction's sign extension), atomics and CAS
 *          (the old value), lr (the word read) and sc (0 = stored, 1 = not);
 *        - every other response is empty (size 0), and so are all of a
 *          store's, a fence's and a clear's;
 *        - the response to the LDST_LAST beat carries LDST_LAST: the
 *          request's completion. The core counts it for fences and, for a
 *          load, releases rd's scoreboard entry on it.
 *      lane_mask and aux come back as sent (except the fault fields), so the
 *      core finds the instruction by id and the lanes by group.
 *
 * OPS (msg.op, msg.atomic_op, and the kind in aux)
 *
 *   SIMTX_OP_READ                        load of 1, 2 or 4 bytes per lane
 *   SIMTX_OP_READ + LDST_KIND_LR         lr.w: a 4-byte load; the core keeps
 *                                        the reservation (address, value)
 *   SIMTX_OP_WRITE                       store of 1, 2 or 4 bytes per lane
 *   SIMTX_OP_ATOMIC, atomic_op = SWAP, ADD, XOR, AND, OR, MIN, MAX, MINU,
 *                    MAXU                4-byte read-modify-write per lane
 *                                        (simtx_atomic_apply), old value back
 *   SIMTX_OP_ATOMIC, atomic_op = CAS     compare-and-swap against the
 *                                        EXPECTED beat, old value back
 *   SIMTX_OP_ATOMIC, CAS + LDST_KIND_SC  sc.w: stores where the word still
 *                                        holds the expected value; the core
 *                                        sends only lanes whose reservation
 *                                        matches the address and answers the
 *                                        others (1) itself, as today
 *   SIMTX_OP_CLEAN_LINE                  clwb of each lane's line (ldst_unit:
 *                                        one mem.h CLEAN_LINE per touched
 *                                        segment, complete when all are
 *                                        answered: durable at an NVM
 *                                        controller); access size 1, 2 or 4
 *                                        (the core sends 1); addresses beats
 *                                        only
 *   SIMTX_OP_FENCE                       completes after every earlier request
 *                                        of the socket has completed
 *   SIMTX_OP_FENCE + LDST_KIND_INVALIDATE  the same, and the caches behind
 *                                        the unit drop their lines (ldst_unit:
 *                                        its mem.h FENCE carries
 *                                        MEM_FENCE_INVALIDATE): the kernel
 *                                        boundary of non-coherent L1s. The
 *                                        core sends one (id
 *                                        LDST_LAUNCH_FENCE_ID) at each launch
 *                                        and dispatches no CTA of the launch
 *                                        before its answer; its window size
 *                                        (aux bits 32-63) is the launch's
 *                                        shared memory per CTA, which the
 *                                        ldst_unit passes on as the mem.h
 *                                        FENCE's tag (AGPM's reason h)
 *   SIMTX_OP_WRITE + LDST_KIND_CLEAR     zero the window (lds: a CTA's region
 *                                        at dispatch), no lanes
 *   Lanes of one atomic request that name the same word are applied in
 *   ascending lane order (each sees the previous lane's result).
 *   Orthogonal attributes (non-temporal stores, transactional accesses)
 *   travel in the message layer's flags field, not in aux: a unit that does
 *   not model an attribute ignores it (the lds has no temporal hint); the
 *   ldst_unit copies them into every mem.h request it makes for the request.
 *   A non-temporal store (gpu.nt_store) is a WRITE with
 *   SIMTX_FLAG_NON_TEMPORAL: the caches pass it on uncached (mem.h), so it
 *   completes when the target takes it (an NVM controller's WPQ: durable).
 *   The core sends clwb and non-temporal stores only for lanes in the
 *   persistent window and outside transactions (it fails the run on any
 *   other); its sfence sends nothing: the warp waits until its earlier
 *   requests have completed.
 *   Inside a transaction the core flags the lanes of the socket that
 *   carries its tx.h events (parameter tm_events, tx.h TRANSPORT): global
 *   lanes to a tm_unit, or shared lanes to an lds whose policy serves
 *   transactions (localtm: the access is versioned in the CTA's region and
 *   may abort lanes, answered in a VERDICT beat, tx.h 2; a lane outside
 *   the region's data words, runtime/kernel/gpu_localtm.h, is an address
 *   error). The plain lds ignores the flag, and answers a VERDICT beat and
 *   the TX family with a command error.
 *   A transactional load (SIMTX_FLAG_TRANSACTIONAL) is an ordinary load to
 *   the ldst_unit; the tm_unit logs the values that come back (lazy
 *   versioning keeps transactional stores in its write log). Its OK
 *   responses carry the read stamp (ldst_stamp, aux bits 32-63): the
 *   lowest aux of the mem.h READ responses that served it, 0 when none was
 *   stamped. A commit unit on the way to the L2 stamps a transactional READ
 *   with the oldest commit ID not yet retired at its partition (tm_lazy.h
 *   5), so every ID below the stamp is in the values read.
 *
 * PASS-THROUGH (ldst_unit)
 *
 *   Every message on the core's socket whose op is of a family that crosses
 *   the core's memory path (simtx_family_infos[f].crosses_core_path in
 *   simtx_msg.c, declared by its protocol: today the lazy TM family,
 *   tm_lazy.h, and the versioned-memory family, version.h) is not an ldst.h request: the ldst_unit forwards it unchanged to its
 *   memory socket (inside accept when the socket takes it, else queued in
 *   order ahead of its own mem.h requests) and returns its response
 *   unchanged. Such messages may arrive between the beats of a request. The
 *   pass-through stays when a tm_unit sits between core and ldst_unit: the
 *   tm_unit then sends its protocol through it. Any other op the unit does
 *   not serve is answered with LDST_FAULT_UNSUPPORTED, never guessed at.
 *
 * FIELDS
 *
 *   address    the base of the request's window in the unit's space. lds:
 *              the CTA's region (an offset into the LDS, chosen by the core
 *              at dispatch); ldst_unit: 0, or a run's lane 0 address
 *              (LDST_RUN).
 *   aux        bits 0-7 rd (0: no register), 8-15 access size in bytes,
 *              16-17 beat kind, 20-23 lane group, 24 LDST_LAST, 25 LDST_RUN
 *              (the same in every beat), 28-31 kind,
 *              32-63 the window's size (lds: the CTA's shared bytes, which
 *              lane addresses are checked against; clear: the bytes to zero),
 *              or for the ldst_unit the request's tag (ldst_tag; 0 from the
 *              core, set by a unit in between such as a tm_unit filter's
 *              forward hook): the ldst_unit copies it into bits 32-63 of the
 *              aux of every mem.h request it makes for the request (their
 *              bits 0-31 stay the op's own: a CAS's expected value, a
 *              write-back's cause). Responses replace bits 32-63 by the fault,
 *              or, on a transactional load's OK responses, by the read stamp.
 *              Use the accessors below, never the bits.
 *   lane_mask  the request's active lanes (all groups), the same in every
 *              beat and response
 *   size       the beat's bytes: LDST_BEAT_BYTES, or 4 x (the highest active
 *              lane of its group - 32 g + 1); 0 for fence and clear
 *   id         the core's tag of the instruction, returned unchanged (below
 *              bit 61: a tm_unit tags its own requests with bits 61-62)
 *   core, warp, cta   the issuing warp (statistics; the lds's localtm
 *              policy keys its conflict masks on warp, its signatures and
 *              shadow memory on cta)
 *   transaction_id    0 from the core; a unit in between may set it (a
 *              tm_unit filter: SI-TM's snapshot timestamp); the ldst_unit
 *              copies it, as the flags, into every mem.h request it makes
 *              for the request, and caches carry it into their fills
 *              (mem.h)
 *
 * ADDRESSES
 *
 *   ldst_unit: each lane's 32-bit kernel address. lds: each lane's offset
 *   into the CTA's region (the kernel address minus the shared window's
 *   base); the lds adds the region base from msg.address. A core therefore
 *   needs no per-CTA table in the lds, and the lds checks a lane against its
 *   own CTA's bytes.
 *
 * FAULTS
 *
 *   A request with a bad lane answers, in every response, status
 *   SIMTX_STATUS_ADDRESS_ERROR (fault LDST_FAULT_RANGE: the access leaves
 *   the window; LDST_FAULT_MISALIGNED: not aligned to its size) or
 *   SIMTX_STATUS_COMMAND_ERROR (LDST_FAULT_UNSUPPORTED: an op, atomic code,
 *   access size or beat layout the unit does not serve), with the lowest bad
 *   lane (ldst_fault_lane). No lane took effect. The core reports it (naming
 *   the lane and its instruction) or, inside a transaction that may have read
 *   inconsistent data, aborts the transaction instead.
 *   LDST_FAULT_MEMORY (ldst_unit): the memory side answered one of the
 *   request's mem.h requests with an error (the status is the memory
 *   side's); the lane is the lowest of that mem.h request. The other lanes
 *   may have taken effect.
 *
 * BACKPRESSURE, ORDER AND DEADLOCK FREEDOM
 *
 *   A unit may refuse (SIMTX_BUSY) only the FIRST beat of a request, when it
 *   has no room for another request; having taken it, it takes the rest at
 *   once, so a refused request never leaves half a request inside.
 *   Order: a unit keeps each warp's requests in program order (the order
 *   their last beats arrived) for the words they share, so a warp's later
 *   access sees its earlier stores; requests of different warps are ordered
 *   only by fences and barriers. The lds performs every request of its
 *   socket in arrival order, whatever the warp, so a core need not wait for
 *   a shared store's completion before a barrier: any access sent after it
 *   sees it.
 *   Responses of different requests may come back in any order (the ldst_unit
 *   answers L1 hits before misses); those of one request come in beat order.
 *   The lds answers in request order, except a TX_BEGIN its policy holds
 *   (tx.h 1: GPU-LocalTM's work-group serialisation), answered when
 *   released, after requests that came later.
 *   The core must take responses without waiting to send a request on the
 *   same socket (responses are its write-back path): a unit whose responses
 *   are refused stops taking requests.
 *
 * COSTS
 *
 *   Host: a request costs one message per beat each way (a 32-lane load is
 *   one message and one response, a 32-lane store two, or one as a run);
 *   a run spares the unit the copy and the scan of the lanes' addresses.
 *   lds: a request starts at the later of its last beat's arrival and the
 *   cycle the banks are free; it holds the banks for its conflict DEGREE
 *   cycles: the most distinct bank-width words that its lanes touch in one
 *   bank (lanes reading one word share it, a broadcast). Its responses leave
 *   latency + degree - 1 cycles after its start, and at the earliest the
 *   cycle after its arrival. Clear and fence take no bank cycles. Under
 *   the localtm policy a transactional request holds them longer: its
 *   degree, plus one filter evaluation, plus its slowest bank's sum of the
 *   lanes' shadow work, plus a conflict broadcast (models/core/lds/
 *   README.md); a TX
 *   event holds the banks for its cycles and is answered the cycle after. The
 *   lds's parameters latency, banks and bank_width set these costs; the
 *   messages' hops come on top.
 *   ldst_unit: a request's mem.h requests leave one per cycle from the
 *   later of its arrival and the unit's previous request's last one (the
 *   coalescer's rate); its responses leave when its last mem.h response
 *   arrives (no cycle of its own), a fault's the cycle after its arrival.
 *   A fence is one mem.h FENCE (one issue cycle); it is answered when that
 *   is and every earlier request has completed (an invalidating one: the
 *   L1's cost in mem.h's COSTS), so a launch's fence costs the core the
 *   round trip to its L1 before its first CTA.
 *   The L1's and the memory side's timing come on top (its README).
 */
#ifndef SIMTX_LDST_H
#define SIMTX_LDST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LDST_LANES_PER_BEAT 32u
#define LDST_BEAT_BYTES (4u * LDST_LANES_PER_BEAT) /* = SIMTX_MSG_MAX_DATA */
#define LDST_MAX_LANES 64u                          /* lane_mask's width */
#define LDST_MAX_GROUPS (LDST_MAX_LANES / LDST_LANES_PER_BEAT)
#define LDST_MAX_BEATS (3u * LDST_MAX_GROUPS) /* addresses, data, expected per group */

/* LDST_BEAT_VERDICT: a tm_unit's only (tx.h 2, THE VERDICT). */
typedef enum ldst_beat { LDST_BEAT_ADDRESSES, LDST_BEAT_DATA, LDST_BEAT_EXPECTED, LDST_BEAT_VERDICT } ldst_beat;
typedef enum ldst_kind { LDST_KIND_PLAIN, LDST_KIND_LR, LDST_KIND_SC, LDST_KIND_CLEAR, LDST_KIND_INVALIDATE } ldst_kind;
typedef enum ldst_fault {
    LDST_FAULT_NONE,
    LDST_FAULT_RANGE,      /* SIMTX_STATUS_ADDRESS_ERROR: outside the window */
    LDST_FAULT_MISALIGNED, /* SIMTX_STATUS_ADDRESS_ERROR: not aligned to its size */
    LDST_FAULT_UNSUPPORTED, /* SIMTX_STATUS_COMMAND_ERROR */
    LDST_FAULT_MEMORY       /* the memory side's status: it answered an error */
} ldst_fault;

/* The id of the core's invalidating fence at a launch (no instruction's). */
#define LDST_LAUNCH_FENCE_ID (UINT64_C(1) << 32)

#define LDST_LAST (UINT64_C(1) << 24)
#define LDST_RUN (UINT64_C(1) << 25)

/* The fields of a request's aux (the window size is the upper 32 bits). */
static inline uint64_t ldst_aux(unsigned rd, unsigned access_size, ldst_beat beat, unsigned group, bool last,
                                ldst_kind kind, uint32_t window_size)
{
    return (uint64_t)(rd & 0xffu) | (uint64_t)(access_size & 0xffu) << 8 | (uint64_t)(beat & 3u) << 16 |
           (uint64_t)(group & 15u) << 20 | (last ? LDST_LAST : 0) | (uint64_t)(kind & 15u) << 28 |
           (uint64_t)window_size << 32;
}

static inline unsigned ldst_rd(const simtx_msg *msg) { return (unsigned)(msg->aux & 0xffu); }
static inline unsigned ldst_access_size(const simtx_msg *msg) { return (unsigned)(msg->aux >> 8 & 0xffu); }
static inline ldst_beat ldst_beat_of(const simtx_msg *msg) { return (ldst_beat)(msg->aux >> 16 & 3u); }
static inline unsigned ldst_group(const simtx_msg *msg) { return (unsigned)(msg->aux >> 20 & 15u); }
static inline bool ldst_is_last(const simtx_msg *msg) { return (msg->aux & LDST_LAST) != 0; }
static inline ldst_kind ldst_kind_of(const simtx_msg *msg) { return (ldst_kind)(msg->aux >> 28 & 15u); }
static inline uint32_t ldst_window_size(const simtx_msg *msg) { return (uint32_t)(msg->aux >> 32); }
/* A request to the ldst_unit: its tag (the same bits as the window size). */
static inline uint32_t ldst_tag(const simtx_msg *msg) { return (uint32_t)(msg->aux >> 32); }
static inline bool ldst_is_run(const simtx_msg *msg) { return (msg->aux & LDST_RUN) != 0; }

/* The beat kinds each lane group of a request takes, bit 1 << ldst_beat
 * (addresses, then data, then expected values; a run's store data only);
 * the addresses bit alone for the ops without lanes. */
static inline unsigned ldst_group_beats(const simtx_msg *msg)
{
    if (msg->op == SIMTX_OP_WRITE) return ldst_kind_of(msg) == LDST_KIND_CLEAR ? 1u : ldst_is_run(msg) ? 2u : 3u;
    if (msg->op == SIMTX_OP_ATOMIC) return msg->atomic_op == SIMTX_ATOMIC_CAS ? 7u : 3u;
    return 1u;
}

/* The lanes of group g in a 64-bit lane mask, as bits 0..31. */
static inline uint32_t ldst_group_lanes(uint64_t lane_mask, unsigned group)
{
    return (uint32_t)(lane_mask >> (LDST_LANES_PER_BEAT * group));
}

/* The size of a beat of group g: its slots up to the highest active lane. */
static inline uint32_t ldst_beat_size(uint64_t lane_mask, unsigned group)
{
    uint32_t lanes = ldst_group_lanes(lane_mask, group);
    return lanes ? 4u * (32u - (uint32_t)__builtin_clz(lanes)) : 0u;
}

/* Slot i (lane 32 g + i of the beat's group g) of a beat's data. */
static inline uint32_t ldst_slot(const simtx_msg *msg, unsigned i)
{
    uint32_t value;
    memcpy(&value, msg->data + 4 * i, 4);
    return value;
}

static inline void ldst_set_slot(simtx_msg *msg, unsigned i, uint32_t value)
{
    memcpy(msg->data + 4 * i, &value, 4);
}

/* A response's fault: the kind and the lowest bad lane (aux bits 32-47). */
static inline void ldst_set_fault(simtx_msg *msg, ldst_fault fault, unsigned lane)
{
    msg->aux = (msg->aux & UINT64_C(0xffffffff)) | (uint64_t)(fault & 0xffu) << 32 | (uint64_t)(lane & 0xffu) << 40;
    msg->status = (uint8_t)(fault == LDST_FAULT_NONE          ? SIMTX_STATUS_OK
                            : fault == LDST_FAULT_UNSUPPORTED ? SIMTX_STATUS_COMMAND_ERROR
                                                              : SIMTX_STATUS_ADDRESS_ERROR);
}

static inline ldst_fault ldst_fault_of(const simtx_msg *msg)
{
    return msg->status == SIMTX_STATUS_OK ? LDST_FAULT_NONE : (ldst_fault)(msg->aux >> 32 & 0xffu);
}

static inline unsigned ldst_fault_lane(const simtx_msg *msg) { return (unsigned)(msg->aux >> 40 & 0xffu); }

/* A transactional load's read stamp (aux bits 32-63 of its OK responses). */
static inline void ldst_set_stamp(simtx_msg *msg, uint32_t stamp)
{
    msg->aux = (msg->aux & UINT64_C(0xffffffff)) | (uint64_t)stamp << 32;
}

static inline uint32_t ldst_stamp(const simtx_msg *msg) { return (uint32_t)(msg->aux >> 32); }

/* Writes the beats of a request into beats[LDST_MAX_BEATS] from the header
 * message (its data unused) and the lanes' slots (data and expected may be
 * NULL when the op takes none; a run's addresses are unused, its slots in
 * its addresses beats zero); returns how many. The reference layout of
 * section 1, for senders and tests. */
static inline unsigned ldst_make_beats(simtx_msg *beats, const simtx_msg *header, const uint32_t *addresses,
                                       const uint32_t *data, const uint32_t *expected)
{
    const uint32_t *sources[3] = {ldst_is_run(header) ? NULL : addresses, data, expected};
    unsigned kinds = ldst_group_beats(header), count = 0;
    uint64_t lanes = header->lane_mask;
    if (!lanes || ldst_kind_of(header) == LDST_KIND_CLEAR || header->op == SIMTX_OP_FENCE) {
        simtx_msg_copy_header(beats, header);
        beats[0].size = 0;
        beats[0].aux = (header->aux & ~(UINT64_C(0x1ff) << 16)) | LDST_LAST;
        return 1;
    }
    for (unsigned group = 0; group < LDST_MAX_GROUPS; group++) {
        uint32_t group_lanes = ldst_group_lanes(lanes, group);
        if (!group_lanes) continue;
        for (unsigned beat = 0; beat <= LDST_BEAT_EXPECTED; beat++) {
            if (!(kinds >> beat & 1)) continue;
            simtx_msg *msg = &beats[count++];
            simtx_msg_copy_header(msg, header);
            msg->size = ldst_beat_size(lanes, group);
            msg->aux = (header->aux & ~(UINT64_C(0x1ff) << 16)) | (uint64_t)beat << 16 | (uint64_t)group << 20;
            memset(msg->data, 0, SIMTX_MSG_MAX_DATA);
            for (uint32_t m = group_lanes; m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                ldst_set_slot(msg, i, sources[beat] ? sources[beat][LDST_LANES_PER_BEAT * group + i] : 0);
            }
        }
    }
    beats[count - 1].aux |= LDST_LAST;
    return count;
}

static inline const char *ldst_fault_name(ldst_fault fault)
{
    switch (fault) {
    case LDST_FAULT_NONE: return "none";
    case LDST_FAULT_RANGE: return "outside the window";
    case LDST_FAULT_MISALIGNED: return "misaligned";
    case LDST_FAULT_UNSUPPORTED: return "unsupported";
    case LDST_FAULT_MEMORY: return "a memory-side error";
    }
    return "unknown";
}

#ifdef __cplusplus
}
#endif
#endif
