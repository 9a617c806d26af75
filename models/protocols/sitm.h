/* SI-TM's concurrency-control protocol (Chen, Peng, Irving, ISCA'17 §4-5):
 * the tm_unit beside each core and the concurrency-control block
 * (models/tm/sitm_cc) that holds the Writer Table, the Scalable Reader List
 * and the logical timestamp table. Its ops form the SI concurrency-control
 * family of the op property table (simtx_op_info_of; docs/protocols.md).
 *
 * PLACEMENT. One sitm_cc block, in partition 0's before_l2 chain (after the
 * commit unit and the VIT slice), serves every SITM message at address
 * SITM_CC_ADDRESS; the family crosses the core's memory path, so the
 * messages travel through the ldst_unit, the L1 and the crossbar like the
 * lazy-TM protocol's, and the commit unit and the VIT slice pass them on.
 * The paper puts the Writer Table and the Reader List "on the same level as
 * the L2" and does not place the timestamp table (Figure 11 is not in the
 * text). Holding all three in one place keeps every post-dating step local:
 * a write's readers and a read's writer are post-dated where they are found,
 * with no partition-to-partition path (the baseline GPU has none, section
 * 5). The price is one hot spot instead of six slices: its throughput
 * (`entries_per_cycle`, `edges_per_cycle`) and latency are parameters, and
 * the tables have the paper's total capacities (3000 WT entries, 87,856 SRL
 * entries, 1024 timestamp entries).
 *
 * TRANSACTION IDS. A running transaction has a 10-bit ID (at most 1024, the
 * Reader List's limit): the tm_unit of core c gives the lanes of its k-th
 * transactional warp slot IDs (c * warp_slots + k) * lanes + lane (960 on
 * the GTX480: 15 cores x 2 warps x 32 lanes). An ID is reused only after its
 * transaction's SI_END was answered.
 *
 * ORDER OF EVENTS (one attempt of a warp's lanes)
 *
 *   1. SI_BEGIN (tm_unit -> sitm_cc) at TX_BEGIN, once the attempt's
 *      snapshot is acquired (version.h) and before the attempt runs:
 *      transaction_id = the ID of lane 0 of the warp (lane l: + l),
 *      lane_mask = the attempt's lanes, aux = the snapshot's point (it sees
 *      exactly the commit IDs up to it), data (size 1) = 1 when the warp's
 *      attempts committed no lane 8 times in a row: it asks to run alone (the block
 *      then drains and runs transactions one at a time, as after a table
 *      overflow below: progress for lockstep lanes that doom one another
 *      every round). The block starts them only once
 *      every commit ID up to the point has ended here (SI_END, 4): a
 *      writer the snapshot sees has then left the tables and has its final
 *      timestamp, so every running writer is one the reader does not see
 *      (reader -> writer) and the reader starts above every writer it sees.
 *      The block starts their timestamp
 *      entries (CTS = clock + 1, PDTS unset: lts_postdate.h). After a table
 *      refused an entry (section 4.3) new transactions wait until every
 *      running one ended, and then run one at a time (the response starts
 *      only the message's lowest lane) until one ended alone: the paper's
 *      rule (abort and wait until space is freed) livelocks when a warp's
 *      lanes overflow together and retry together. While a timestamp reset
 *      is pending new transactions wait too. Response: status OK, aux = the
 *      lanes started; the tm_unit aborts the others at their first access
 *      (SITM_OVERFLOW) and they retry.
 *      A HELD TRANSACTION PINS NO VERSION (ISCA'17 section 5: a snapshot's
 *      reference count goes up "when a transaction starts"; with few
 *      versions a transaction reads an older snapshot, and old snapshots are
 *      recycled once no transaction references them, since a restart takes
 *      the newest). The block therefore never holds an SI_BEGIN that carries
 *      a pinned snapshot while new transactions are kept out (serial mode,
 *      a reset pending): it answers at once with aux = SITM_BEGIN_WAIT
 *      (nothing started). The tm_unit releases the snapshot (version.h),
 *      reads the clock again and sends the ADMIT form (data[1] =
 *      SITM_BEGIN_ADMIT, aux 0, no snapshot), which the block holds, in
 *      order, until it may come in, and answers with aux = the lanes let in
 *      (serial mode: the lowest, reserved to run alone). The unit then
 *      acquires a snapshot and sends the ADMITTED form (data[1] =
 *      SITM_BEGIN_ADMITTED, aux = the point): the block starts exactly the
 *      admitted lanes (a serial drain waits for admitted lanes as for
 *      running ones), or answers WAIT again if a reset became pending
 *      meanwhile. Only the wait for the snapshot's commit IDs above holds a
 *      pinned begin; those IDs are written back at every slice (the point
 *      is a boundary every slice closed), so it waits for no version.
 *      Before this, with 2 versions every benchmark deadlocked: held
 *      SI_BEGINs pinned the older version while the committing warp they
 *      waited for waited at a VIT slice for a version slot.
 *      A post-dating never takes an edge
 *      with a transaction that was answered a verdict that aborts it (it
 *      will not commit; its constraints would be phantoms).
 *   2. SI_ACCESS (tm_unit -> sitm_cc) for every transactional access of the
 *      attempt, sent when the unit serves it (overlapped with the access):
 *      data = up to 16 entries of 8 bytes {uint32 word address, uint16 ID,
 *      uint8 kind (SITM_READ, SITM_WRITE), uint8 verdict (0 in requests)}
 *      (sitm_get_entry, sitm_append_entry). For a
 *      read the block adds the ID to the word's reader list and post-dates
 *      the edge reader -> writer when the word has a running writer, and,
 *      when a writer with a commit ID past the reader's snapshot point
 *      replaced the word (a stale read), reader -> the first such writer; for a
 *      write it claims the word in the Writer Table (single writer: when
 *      another running transaction owns it, the NEW writer gets
 *      SITM_SINGLE_WRITER) and post-dates reader -> writer for every running
 *      reader of the word and for its committed readers (their largest
 *      final timestamp). Committed transactions are known by their final
 *      timestamps (a per-word history of the last 4 committed writers by commit ID, and
 *      the committed readers' largest timestamp), since their entries left
 *      the tables at their SI_END. A table without room answers SITM_OVERFLOW; a
 *      post-dating that closes a loop, SITM_LOOP (the accessing transaction
 *      aborts: its entries stay until its SI_END); a timestamp past its
 *      width, SITM_OVERFLOW, and every running transaction becomes doomed
 *      (section 4.3: all abort, the timestamps restart): their later entries
 *      are answered SITM_OVERFLOW at once, new SI_BEGINs are held, and once
 *      every doomed transaction sent SI_END the table restarts at 0. A
 *      doomed transaction that accesses nothing more may still commit: every
 *      edge it has was post-dated before the overflow, and no transaction
 *      started after the reset can reach it. The response: the request's
 *      entries, each with its verdict (SITM_OK ...) in its last byte
 *      (sitm_entry.verdict), so that it names its own transactions. An entry
 *      of an ID that is not running (its SI_END overtook it) is answered
 *      SITM_OVERFLOW and counted stale.
 *      aux = the attempt's snapshot C (it sees commit IDs below C: the
 *      snapshot point + 1; 0 when the unit has none), for readers per
 *      snapshot and the exact policy.
 *      SITM_Oracle (section 6: an exact dependency graph, no single-writer
 *      rule, no cost): the block's `loops = exact` policy (sitm_ddg.h)
 *      keeps no tables, answers SITM_LOOP exactly when the entry's edge
 *      would close a cycle in the graph of running and committed
 *      transactions, and serves every message in no time.
 *   3. A lane answered with a verdict other than SITM_OK aborts at once
 *      while its attempt runs: the tm_unit sends TX_ABORT (tx.h 6; causes
 *      single_writer, loop, overflow) to its core and SI_END for it. The
 *      tm_unit commits the attempt only once every SI_ACCESS it sent is
 *      answered (section 4.3: every timestamp update a transaction starts
 *      finishes before it commits); lanes whose verdict came after the
 *      core's TX_COMMIT fail there, as do lanes an SI_BEGIN did not start.
 *   4. SI_END (tm_unit -> sitm_cc) once the attempt ended for `lane_mask`:
 *      transaction_id as in SI_BEGIN, aux = the lanes that committed,
 *      data = the commit ID each lane took, committed or failed at the
 *      commit units (4 bytes at 4 x lane, 0: none; sitm_set_end_cid): what
 *      orders a committed lane against snapshots and other writers (the
 *      exact policy's commits, the ended-ID count). (aux bits 32-63 once
 *      carried the lowest committed ID too: derivable from data, dropped.)
 *      The
 *      block drops the lanes' Writer Table and Reader List entries (it
 *      keeps, per ID, the words it entered: the hardware clears by ID) and
 *      applies AtCommitOrAbort (a committed entry becomes a fixed point at
 *      its CTS). Response: status OK, once done; the unit sends the warp's
 *      next SI_BEGIN only after it.
 *
 * WHICH TRANSACTION A VERDICT ABORTS
 *
 *   Always the transaction whose entry the verdict answers (the requester),
 *   never another one; so the protocol has no event from the block to a
 *   third transaction's tm_unit, and the requester's own tm_unit aborts it
 *   through TX_ABORT to its core (3). ISCA'17 names no other victim:
 *   section 5, "The loop detection results will be sent back to the
 *   transaction that made the access to abort transactions that may form
 *   dependency loops", and for writes "if there already exists a writer,
 *   the new writer is aborted, otherwise, the writer with a larger ID will
 *   abort". Read here: a running writer keeps its word whatever its ID
 *   (the new writer loses even with the smaller ID); the "otherwise" case,
 *   writers that claim a free word together, arises only for a warp's
 *   lanes in one SI_ACCESS, whose entries come in lane order (ascending
 *   IDs), so the lowest ID claims the word and the larger ones are refused,
 *   all of the same warp. Figure 7 line 17 declares a loop while
 *   post-dating an edge's successor, which may be a transaction other than
 *   the requester (a read closing the loop: the reader is the
 *   predecessor); the verdict still goes to the requester, whose abort
 *   breaks the loop (the closing edge needs it to commit), and the
 *   successor runs on. SITM_Oracle (section 6: "perfect loop detection")
 *   does the same: the access whose edge would close a cycle is refused.
 *   A victim on another core would need an event that may not wait for
 *   room the victim's own progress frees, and an order against the
 *   victim's in-flight accesses and TX_COMMIT; the paper has neither.
 *   test_sitm_cc (requester_is_the_victim) pins this down.
 *
 * FIELDS
 *
 *   address         SITM_CC_ADDRESS (partition 0)
 *   transaction_id  SI_BEGIN, SI_END: the ID of lane 0 of the warp
 *   lane_mask       SI_BEGIN, SI_END: the lanes
 *   data            SI_BEGIN: data[0] run alone, data[1] the form
 *                   (SITM_BEGIN_*; size 2, or 0/1 for the snapshot form)
 *   aux             SI_BEGIN: the snapshot's point (ADMIT: 0); its answer:
 *                   the lanes started or admitted, or SITM_BEGIN_WAIT;
 *                   SI_ACCESS: the snapshot C
 *                   (0: none); SI_END: the committed lanes
 *   data            SI_ACCESS and its response: the entries (response: with
 *                   verdicts); SI_END: the lanes' commit IDs
 *   core, warp      the sender (statistics)
 *
 * COSTS
 *
 *   Each message one request and one response on the crossbars (8 bytes
 *   per entry, 1 byte per verdict). The block takes `entries_per_cycle`
 *   entries per cycle (a table access each) and `edges_per_cycle`
 *   post-datings per cycle (a timestamp table access for each end); a
 *   response leaves `latency` cycles after its last entry was served.
 *   SI_END drops one entry per entry-cycle.
 *
 * DEADLOCK RULES
 *
 *   SI_ACCESS and SI_END never wait for anything but the block's own
 *   bandwidth. A held ADMIT form waits for entries to be freed (or a
 *   reset), and pins nothing; a held SI_BEGIN with a snapshot waits only
 *   for the commit IDs of its snapshot to end, which only SI_END does (an
 *   ID's commit needs nothing of a held BEGIN, and those IDs are written
 *   back already), and SI_END never waits for a BEGIN; so no committing
 *   warp waits at a VIT slice for a version a held begin pins (version.h,
 *   DEADLOCK RULES). A running attempt that
 *   needs an entry is refused at once (SITM_OVERFLOW) and aborts, so every
 *   running transaction ends without the held ones. The block holds any
 *   number of SI_BEGINs (at most one per warp slot) without refusing other
 *   messages. A transaction whose own entries fill its set can never run:
 *   the block fails the run naming it (wt_table.h).
 */
#ifndef SIMTX_SITM_H
#define SIMTX_SITM_H

#include <stdint.h>
#include <string.h>

#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SITM_CC_ADDRESS UINT64_C(0) /* in partition 0 */
#define SITM_ENTRY_BYTES 8
#define SITM_MAX_ENTRIES (SIMTX_MSG_MAX_DATA / SITM_ENTRY_BYTES) /* 16 */
#define SITM_MAX_IDS 1024

enum { SITM_READ = 0, SITM_WRITE = 1 };

/* Verdicts (SI_ACCESS's response bytes). */
enum { SITM_OK = 0, SITM_SINGLE_WRITER, SITM_LOOP, SITM_OVERFLOW, SITM_VERDICTS };

typedef struct sitm_entry {
    uint32_t word; /* a word address (byte address / 4) */
    uint16_t id;
    uint8_t kind;  /* SITM_READ, SITM_WRITE */
    uint8_t verdict; /* responses: SITM_OK ... */
} sitm_entry;

static inline unsigned sitm_entry_count(const simtx_msg *msg) { return msg->size / SITM_ENTRY_BYTES; }

static inline sitm_entry sitm_get_entry(const simtx_msg *msg, unsigned k)
{
    sitm_entry e;
    memcpy(&e.word, msg->data + k * SITM_ENTRY_BYTES, 4);
    memcpy(&e.id, msg->data + k * SITM_ENTRY_BYTES + 4, 2);
    e.kind = msg->data[k * SITM_ENTRY_BYTES + 6];
    e.verdict = msg->data[k * SITM_ENTRY_BYTES + 7];
    return e;
}

static inline void sitm_set_verdict(simtx_msg *msg, unsigned k, uint8_t verdict)
{
    msg->data[k * SITM_ENTRY_BYTES + 7] = verdict;
}

/* SI_BEGIN's form (data[1]; size 2, data[0] the run-alone request): sitm.h 1. */
enum { SITM_BEGIN_SNAPSHOT = 0, /* with the snapshot's point, pinned */
       SITM_BEGIN_ADMIT,        /* no snapshot yet: held until the lanes may start */
       SITM_BEGIN_ADMITTED };   /* with the point, for lanes an ADMIT form admitted */
/* SI_BEGIN's answer, aux: nothing started, the block would hold the
 * transaction (a table overflow or a timestamp reset): ask with ADMIT. */
#define SITM_BEGIN_WAIT (UINT64_C(1) << 63)

static inline unsigned sitm_begin_form(const simtx_msg *msg) { return msg->size >= 2 ? msg->data[1] : SITM_BEGIN_SNAPSHOT; }

static inline void sitm_set_begin(simtx_msg *msg, bool alone, unsigned form)
{
    msg->size = form != SITM_BEGIN_SNAPSHOT ? 2 : alone ? 1 : 0;
    if (msg->size >= 1) msg->data[0] = alone;
    if (msg->size >= 2) msg->data[1] = (uint8_t)form;
}

/* Appends an entry; returns 0 when the message is full. */
static inline int sitm_append_entry(simtx_msg *msg, uint32_t word, uint16_t id, uint8_t kind)
{
    unsigned k = sitm_entry_count(msg);
    if (k >= SITM_MAX_ENTRIES) return 0;
    memcpy(msg->data + k * SITM_ENTRY_BYTES, &word, 4);
    memcpy(msg->data + k * SITM_ENTRY_BYTES + 4, &id, 2);
    msg->data[k * SITM_ENTRY_BYTES + 6] = kind;
    msg->data[k * SITM_ENTRY_BYTES + 7] = 0;
    msg->size += SITM_ENTRY_BYTES;
    return 1;
}

/* SI_END's data: the commit ID lane l took (0: none), 4 bytes at 4 l. */
static inline void sitm_set_end_cid(simtx_msg *msg, unsigned lane, uint32_t cid)
{
    memcpy(msg->data + 4 * lane, &cid, 4);
    if (msg->size < 4 * (lane + 1)) {
        memset(msg->data + msg->size, 0, 4 * lane - msg->size);
        msg->size = 4 * (lane + 1);
    }
}

static inline uint32_t sitm_end_cid(const simtx_msg *msg, unsigned lane)
{
    uint32_t cid = 0;
    if (4 * (lane + 1) <= msg->size) memcpy(&cid, msg->data + 4 * lane, 4);
    return cid;
}

#ifdef __cplusplus
}
#endif
#endif
