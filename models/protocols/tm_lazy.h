/* The transactional-memory protocol between SIMT cores (their log walkers)
 * and the commit units of the memory partitions (KILO TM, Warp TM).
 * Its ops form the lazy-TM family of the op property table
 * (simtx_op_info_of in simtx_msg.h; docs/protocols.md lists every protocol).
 * The core side's log transfer and decisions (steps 2 and 4 below) are written once,
 * in tm_lazy_walker.h, which the SIMT core and tm_traffic both drive.
 *
 * Every message is a simtx_msg request from the core side, answered by a
 * response (simtx_msg_make_response, same handle) from a commit unit, so the
 * crossbar routes it like any other access: a request goes to the partition
 * owning msg.address, the response comes back to the requesting core.
 *
 * PARTIES AND ORDER OF EVENTS (one transaction, commit ID c)
 *
 *   1. Commit ID. When a warp reaches tx_commit, its core asks the commit-ID
 *      allocator for IDs: TM_CID_REQUEST to address TM_CID_ALLOCATOR_ADDRESS
 *      (an address of partition 0; the commit unit with cid_allocator = true
 *      serves it). aux = number of IDs wanted (KILO TM and Warp TM: the
 *      number of committing lanes of the warp, so one request per warp).
 *      Response: aux = the first ID; the lanes of lane_mask get first,
 *      first+1, ... in ascending lane order. IDs start at 1 (0 means none).
 *      aux = 0 in the request reads the clock (the next ID to be handed out)
 *      without allocating: the start time of a read-only transaction (5).
 *   2. Log transfer. For every partition p and every ID c of the warp the
 *      core sends either
 *        - the entries of c owned by p (TM_READ_LOG / TM_WRITE_LOG, see the
 *          entry format below), then one TM_LOG_DONE for c, or
 *        - nothing but a TM_SKIP covering c (c has no entries at p).
 *      Every commit unit must hear of every ID, because it processes IDs in
 *      order (a ring) and retires an ID only after all smaller ones. A skip
 *      covers aux consecutive IDs from transaction_id, so a warp whose lanes
 *      have no entries at p retires all of them there with one message.
 *      A message for partition p that has no address of its own (TM_SKIP,
 *      TM_LOG_DONE, TM_DECISION) carries msg.address = tm_partition_address(p),
 *      any address the crossbar maps to p.
 *      Log-entry and skip requests are acknowledged at once (a response with
 *      size 0): the acknowledgement is TLM bookkeeping, the core may send on
 *      without waiting for it.
 *   3. Per-partition outcome. The response to TM_LOG_DONE comes when c has
 *      been validated at p: aux = TM_OUTCOME_PASS or TM_OUTCOME_FAIL
 *      (coalesced form: a mask, see below).
 *      A commit unit validates c once every smaller ID has passed hazard
 *      detection there, and once every smaller ID that wrote a word c read
 *      (its last-writer history says so, conservatively) has retired: then
 *      the values c read are compared with the memory values (read through
 *      the L2). Only partitions that received TM_LOG_DONE answer.
 *   4. Final decision. When the core has every outcome of c, it sends
 *      TM_DECISION (aux = TM_DECISION_COMMIT if all passed, else
 *      TM_DECISION_ABORT) to every partition that answered TM_LOG_DONE for c
 *      (coalesced form below).
 *      A commit unit writes the write log of a committed ID back to the L2 in
 *      ID order, one word per cycle. The response to TM_DECISION is the
 *      write-back acknowledgement: sent when the writes of c at p are
 *      acknowledged by the L2 (at once for an abort). Then c retires at p.
 *   5. Temporal conflict detection (read-only transactions, KILO TM's TCD).
 *      The commit unit stamps every transactional READ it passes to the L2
 *      with its oldest ID not yet retired (aux = the stamp; the L2 returns
 *      aux unchanged, so the read's values hold every write of the IDs
 *      below it). A transaction's read stamp R is the lowest stamp of its
 *      loads (ldst.h carries it back to the tm_unit). At tx_commit a
 *      read-only transaction sends TM_LWT_QUERY (address = any address in
 *      the block, aux = 0) for every 128-byte block B it read; the commit
 *      unit answers at once with aux = the last-written time of B (the
 *      largest ID whose write to B has been issued to the L2; conservative
 *      when the table lost the block). If every answer is < R, no ID from R
 *      on has written what it read: it commits at the core, serialized just
 *      before ID R, with no commit ID and no log transfer; otherwise it
 *      takes the normal path (1). Nothing waits before tx_commit, so the
 *      check costs only read-only transactions. A query with aux = T > 0 is
 *      answered once every ID below T has retired (a start-time variant:
 *      models/traffic/tm_traffic takes T = TM_CID_REQUEST with aux = 0 at
 *      tx_begin and queries before its first load of each block, which then
 *      sees every ID below T; see its README). The table holds
 *      `lwt_entries` blocks in `lwt_subarrays` ways; an evicted block
 *      raises a floor that every miss then answers. The loads must reach
 *      the L2 through the commit unit (global data not cached in the L1, as
 *      in the TM configurations). The oracle places such a transaction just
 *      before ID R (T) in the commit order.
 *
 * FIELDS
 *
 *   transaction_id  the commit ID c (TM_READ_LOG/TM_WRITE_LOG: the base ID of
 *                   the entries, see below; TM_SKIP: the first ID)
 *   core, warp      the warp committing (statistics and probes only)
 *   lane_mask       lanes the message concerns (statistics only)
 *   aux             per op, as described above and below
 *   id              the core's tag, returned unchanged. Ids whose top byte is
 *                   TM_COMMIT_UNIT_ID_TAG are reserved for the commit unit's
 *                   own requests to the L2.
 *
 * LOG ENTRY FORMAT (TM_READ_LOG, TM_WRITE_LOG)
 *
 *   data holds size / 8 entries of 8 bytes: a 32-bit word address and the
 *   32-bit value (read: the value the transaction saw; write: the value to
 *   store), little endian. Addresses are 4-byte aligned and owned by the
 *   receiving partition. msg.address is the first entry's address (routing).
 *   Entry k belongs to ID transaction_id + ((aux >> 4k) & 15):
 *     - KILO TM sends per-transaction messages: aux = 0, every entry is c's;
 *     - Warp TM coalesces the entries of up to 16 lanes with consecutive IDs
 *       (the warp's IDs are consecutive) into one message of up to 16 entries.
 *   Within one ID, write entries are applied in the order sent (the last
 *   write to a word wins); a read entry may repeat a word.
 *   TM_LOG_DONE for c carries the counts sent for c to this partition:
 *   aux = read entries | write entries << 32; the commit unit waits until it
 *   has them all, so the network need not keep a core's messages in order.
 *
 * COALESCED DONE AND DECISION (Warp TM; the single forms above are KILO TM's)
 *
 *   A warp's IDs are consecutive, so one message per partition can stand
 *   for up to 16 (TM_LOG_DONE) or 64 (TM_DECISION) of them, first ID in
 *   transaction_id:
 *   - TM_LOG_DONE with size = 8 x n (n <= 16): data holds n records
 *     {uint32 reads, uint32 writes}, the entry counts of IDs first..first+n-1
 *     at this partition (tm_done_append). A record of 0 and 0 is a skip: that
 *     ID has no entries here (no separate TM_SKIP). The response comes when
 *     every ID with entries has been validated: aux bit i = ID first+i passed
 *     (bits of skipped IDs are set too). size = 0 is the single form
 *     (counts in aux).
 *   An ID that read a word an older, undecided ID of the same warp writes
 *   fails at once: the warp may decide only when it has all outcomes, so
 *   waiting for that ID could deadlock. "Same warp" is the same core and
 *   warp fields in the TM_LOG_DONE (set them!) or the same coalesced
 *   TM_LOG_DONE. Warp TM's intra-warp conflict detection removes such pairs
 *   before commit, so with it this only happens on a last-writer-history
 *   overflow.
 *   - TM_DECISION with size = 8: data[0..3] = n (1..64), aux bit i = commit
 *     ID first+i. IDs with no entries here are ignored. The response (the
 *     write-back acknowledgement) comes when every committing ID of the
 *     range has been written back here.
 *
 * WRITE-WRITE VALIDATION (SI-TM, ISCA'17 section 5)
 *
 *   Under snapshot isolation a transaction sends no read log. Its core's
 *   write_set commit sends, in its place, one read entry per word it writes
 *   at the partition, whose value is the attempt's snapshot point S (every
 *   ID up to S is in its snapshot). A commit unit with validation =
 *   write_write treats them so: hazard detection waits, as for reads, until
 *   the last older live writer of each word retired; validation then fails
 *   the ID when the last ID whose write of the word was written back there
 *   is above S (committed after the snapshot: first committer wins). No L2
 *   reads. The entries cost as read entries (8 bytes each): the paper's
 *   commit units need the snapshot point too, and do not say how it travels.

 * HELD REQUESTS AND DEADLOCK FREEDOM
 *
 *   TM_LOG_DONE, TM_DECISION and TM_LWT_QUERY are answered late, so they are
 *   outstanding requests for a long time. The commit unit never refuses a
 *   TM_DECISION because of them (it takes messages out of order), but every
 *   block on the way from the core must be able to hold all of a core's
 *   held requests without blocking its later ones: a core's decision for an
 *   older ID must never wait behind its own held TM_LOG_DONE of a younger
 *   ID. The L1 forwards other ops through its `pending_entries` table
 *   (64 by default): TM platforms should size it for the worst case
 *   (transactional warps x lanes x partitions, e.g. 2 x 32 x 6 = 384 with
 *   per-ID messages; 2 x 2 x 6 = 24 coalesced). Likewise `window` must
 *   cover every ID of a running transaction (960 concurrent transactions
 *   on the GTX480: window 1024): messages for IDs beyond it wait (held
 *   aside, so they never block older IDs' messages), and a warp whose lanes
 *   commit together would wait for ever for a lane's ID past it.
 *   platforms/parts/tm_lazy.lua sizes both from the cores, lanes and
 *   transactional warps (all warps of a core when tokens = 0). Waiting TM_LWT_QUERY messages are held
 *   without limit for the same reason.
 *
 * COSTS
 *
 *   Log traffic counts TM_LOG_HEADER_BYTES per message plus 8 bytes per
 *   entry; the commit unit's input stage takes one message per cycle,
 *   hazard detection one entry per cycle, and validation reads plus
 *   write-backs share one word per cycle towards the L2.
 */
#ifndef SIMTX_TM_LAZY_H
#define SIMTX_TM_LAZY_H

#include <stdint.h>
#include <string.h>

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TM_CID_ALLOCATOR_ADDRESS UINT64_C(0) /* in partition 0 */
#define TM_ENTRY_BYTES 8
#define TM_MAX_ENTRIES_PER_MSG (SIMTX_MSG_MAX_DATA / TM_ENTRY_BYTES) /* 16 */
#define TM_LOG_HEADER_BYTES 8
#define TM_LWT_BLOCK_BYTES 128
#define TM_COMMIT_UNIT_ID_TAG UINT64_C(0xC7) /* top byte of the commit unit's own ids */

enum { TM_OUTCOME_FAIL = 0, TM_OUTCOME_PASS = 1 };
enum { TM_DECISION_ABORT = 0, TM_DECISION_COMMIT = 1 };

typedef struct tm_entry {
    uint32_t address;
    uint32_t value;
} tm_entry;

/* An address the crossbar's interleaved mapping sends to partition p. */
static inline uint64_t tm_partition_address(unsigned partition, uint64_t interleave)
{
    return (uint64_t)partition * interleave;
}

/* The partition owning an address under interleaved mapping. */
static inline unsigned tm_partition_of(uint64_t address, uint64_t interleave, unsigned partitions)
{
    return (unsigned)((address / interleave) % partitions);
}

static inline unsigned tm_entry_count(const simtx_msg *msg) { return msg->size / TM_ENTRY_BYTES; }

static inline tm_entry tm_get_entry(const simtx_msg *msg, unsigned k)
{
    tm_entry e;
    memcpy(&e.address, msg->data + k * TM_ENTRY_BYTES, 4);
    memcpy(&e.value, msg->data + k * TM_ENTRY_BYTES + 4, 4);
    return e;
}

static inline uint32_t tm_entry_cid(const simtx_msg *msg, unsigned k)
{
    return msg->transaction_id + (uint32_t)((msg->aux >> (4 * k)) & 15u);
}

/* Starts a log message (op TM_READ_LOG or TM_WRITE_LOG) for base ID cid. */
static inline void tm_log_init(simtx_msg *msg, simtx_op op, uint32_t cid, int core, int warp)
{
    simtx_msg_init(msg, op, 0, 0);
    msg->transaction_id = cid;
    msg->core = core;
    msg->warp = warp;
}

/* Appends an entry of ID cid (cid - base < 16) to a log message; returns 0
 * when the message is full or cid is out of its range. */
static inline int tm_log_append(simtx_msg *msg, uint32_t cid, uint32_t address, uint32_t value)
{
    unsigned k = tm_entry_count(msg);
    uint32_t offset = cid - msg->transaction_id;
    if (k >= TM_MAX_ENTRIES_PER_MSG || cid < msg->transaction_id || offset > 15) return 0;
    if (k == 0) msg->address = address;
    memcpy(msg->data + k * TM_ENTRY_BYTES, &address, 4);
    memcpy(msg->data + k * TM_ENTRY_BYTES + 4, &value, 4);
    msg->aux |= (uint64_t)offset << (4 * k);
    msg->size += TM_ENTRY_BYTES;
    return 1;
}

/* Starts a coalesced TM_LOG_DONE for IDs from first_cid (address: any of
 * the partition's, e.g. tm_partition_address). */
static inline void tm_done_init(simtx_msg *msg, uint64_t address, uint32_t first_cid)
{
    simtx_msg_init(msg, SIMTX_OP_TM_LOG_DONE, address, 0);
    msg->transaction_id = first_cid;
}

/* Appends the counts of the next ID (0 and 0: no entries here); returns 0
 * when the message is full. */
static inline int tm_done_append(simtx_msg *msg, uint32_t reads, uint32_t writes)
{
    if (msg->size >= 8 * TM_MAX_ENTRIES_PER_MSG) return 0;
    memcpy(msg->data + msg->size, &reads, 4);
    memcpy(msg->data + msg->size + 4, &writes, 4);
    msg->size += 8;
    return 1;
}

/* A coalesced TM_DECISION: count IDs from first_cid, commit_mask bit i =
 * commit ID first_cid + i. */
static inline void tm_decision_init(simtx_msg *msg, uint64_t address, uint32_t first_cid, uint32_t count,
                                    uint64_t commit_mask)
{
    simtx_msg_init(msg, SIMTX_OP_TM_DECISION, address, 8);
    msg->transaction_id = first_cid;
    msg->aux = commit_mask;
    memcpy(msg->data, &count, 4);
    memset(msg->data + 4, 0, 4);
}

#ifdef __cplusplus
}
#endif
#endif
