/* The versioned-memory protocol of SI-TM (Chen, Peng, Irving, ISCA'17, §3
 * and §5): a Version Index Table slice (models/tm/vit) in every memory
 * partition, between the crossbar (after a commit unit, if any) and the L2,
 * and the partition's bulk copy unit (models/tm/bulk_copy) between the slice
 * and the L2. Its ops form the versioned-memory family of the op property
 * table (simtx_op_info_of; docs/protocols.md lists every protocol).
 *
 * PARTIES
 *
 *   TM side     the initiator of REGISTER, ACQUIRE, RELEASE and CLOSE (the
 *               host's versioned allocation, the tm_unit at a transaction's
 *               begin and end, the commit path at a version boundary); a
 *               message for partition p carries an address of p: a region
 *               address for that region, any other address for all of
 *               them (the all-regions form; VERSION_ALL_REGIONS is one for
 *               a slice reached without routing);
 *   VIT slice   holds the regions, their versions' states (Figure 4),
 *               creation times and reference counts; translates every access
 *               it passes on; answers every op of this family but COPY;
 *   bulk copy   takes COPY from its slice and answers it once every DRAM row
 *               of the version is copied (ROW_COPY through the L2, mem.h).
 *
 *   The family crosses the core's memory path (simtx_family_infos): a TM
 *   side beside a core sends its ops through the ldst_unit and the L1,
 *   which pass them unchanged, and the crossbar routes them by address.
 *   An L1 on that path must not cache global data (cache_global = false,
 *   as parts/tm_lazy.lua sets): its lines are keyed by the untranslated
 *   address, so a line of one version would serve another's reads.
 *
 * VERSIONS (per region; Figure 4)
 *
 *   A region has `versions` slots (8, Table 2). Version k of a region at
 *   [base, base + size) lives at base + k * stride, where stride is the
 *   distance between two rows of one DRAM subarray in the global address
 *   space (gtx480: +0x10000 partition-local = +0x60000 global), so that a
 *   RowClone FPM copy makes it. A slot is S1 (allocated, the newest S3 being
 *   copied into it: no read, no write), S2 (the version commits write into:
 *   write only), S3 (closed at a creation time: read only) or S4 (recycled:
 *   neither). Slot 0 starts in S3 at registration; while a region has an S3
 *   and no S1/S2, the next free slot (searched round-robin from the newest)
 *   enters S1 and its copy starts; the copy done, it is S2. A non-newest S3
 *   whose reference count is 0 goes to S4 at once. A region always has one
 *   readable (S3) version.
 *
 * ORDER OF EVENTS AND FIELDS (request -> response)
 *
 *   VERSION_REGISTER  address = region base, size = its bytes (global),
 *       aux = the relocated area's base (7 x size bytes for 8 versions). The
 *       region must lie in one row index: size <= stride; base, size and the
 *       relocated base are multiples of `align` (whole DRAM rows in every
 *       partition); the region, its versions' footprint and the relocated
 *       area overlap nothing already registered. -> status OK; or
 *       COMMAND_ERROR and the slice fails the run naming the allocation (no
 *       room among `regions` entries, or a layout it cannot hold). The same
 *       regions may be given before the run by the slice's `region_list`
 *       parameter (an error there stops the run before it starts, exit 2),
 *       or between launches by the host (gpu_malloc_versioned, at zero time:
 *       vit.h vit_register).
 *       Every slice must register the same regions in the same order.
 *   VERSION_ACQUIRE   address = an address of a region (that region only) or
 *       any other (every region); aux = the snapshot's commit point ts
 *       (OVERFLOW below: its epoch and creation time derive from it), or
 *       VERSION_NEWEST for the slice's newest creation time. Pins, in each
 *       region, the version that ts reads (refcount + 1). -> aux = the
 *       snapshot handle (epoch << 32 | creation time of ts): what snapshot
 *       reads and the RELEASE carry; transaction_id = the slice's boundary
 *       at ts: its latest CLOSE point at or below ts (0: none), the IDs
 *       the pinned version holds here (VERSION BOUNDARIES below; a slice
 *       whose CLOSEs no longer reach back to ts answers VERSION_TOO_OLD).
 *       A transaction acquires at its begin
 *       (§5). When some region has no version readable at ts any more
 *       (recycled, or ts's epoch is over): aux = VERSION_TOO_OLD, nothing
 *       pinned (the requester acquires again). A ts of a later epoch than
 *       every CLOSE so far fails the run (no TM side sends one).
 *   snapshot READ     a mem.h READ with SIMTX_FLAG_SNAPSHOT, the handle's
 *       epoch in aux bits 32-63 and its timestamp in transaction_id (what
 *       a core-side ldst.h request's tag and transaction_id become: the
 *       ldst_unit keeps aux bits 0-31 for the op): reads, of its region, the S3 version with the latest creation
 *       time <= ts that was still the newest at ts (its successor's creation
 *       time > ts). A handle of an earlier epoch (before an overflow: its
 *       transaction is to be aborted) reads the newest readable version.
 *       The response's aux: the slice's epoch in bits 32-63,
 *       and in bits 0-31 the read stamp (ldst.h; the TM side sees the
 *       lowest of a load's): the handle's creation time + 1, or 0 when the
 *       handle's epoch is over (at any address), so the reader learns that
 *       its snapshot is gone. A read no version serves (it was recycled:
 *       not pinned) fails the run.
 *   other accesses    (READ, WRITE, ATOMIC, CLEAN/FLUSH_LINE, no SNAPSHOT
 *       flag) inside a region go to its S2 version (host, commit write-back
 *       and validation reads see the newest state); reads with no S2 read
 *       the newest S3. Writes, atomics and line ops of a region without an
 *       S2 (its copy runs, or no slot is free) wait at the slice, in order,
 *       in a buffer of `hold_depth`; accesses to other addresses pass them.
 *       An access to the footprint of versions 1.. of a region (not itself
 *       versioned) is relocated to relocated + (k - 1) * size + offset.
 *   VERSION_RELEASE   address as ACQUIRE; aux = the handle ACQUIRE answered
 *       -> acknowledgement. The pinned versions' counts drop; a non-newest
 *       S3 reaching 0 is recycled (S4) and a waiting region gets its S1. A
 *       handle of an earlier epoch is ignored (counted): the overflow reset
 *       every count.
 *   VERSION_CLOSE     address = a region address, or any other (every region);
 *       aux = the commit point P -> aux = the handle of P (epoch << 32 |
 *       creation time T of P). Every addressed region whose S2 was written
 *       since it opened moves it to S3 with creation time T (Figure 4's
 *       S2 -> S3 when the warp's write-back is done); its next version's
 *       copy starts. P must exceed every earlier CLOSE's and ACQUIRE's
 *       point (the slice fails the run otherwise). The first CLOSE of a
 *       later epoch overflows first (OVERFLOW below).
 *   VERSION_COPY      slice -> bulk copy: address = source version base,
 *       aux = destination version base, size = region bytes (global) ->
 *       acknowledgement once every DRAM row of the version in this partition
 *       is copied (status of the worst ROW_COPY).
 *
 * OVERFLOW (§4.3; one rule for every slice)
 *
 *   Creation times have `timestamp_bits` bits (Table 1: 32). CLOSE and
 *   ACQUIRE carry commit points P (commit IDs on the core path), and every
 *   slice derives the same pair from P alone: epoch P >> timestamp_bits,
 *   creation time P mod 2^timestamp_bits (times restart at 0 at each
 *   epoch base, a multiple of 2^bits). So the slices agree on the handle
 *   of every point whatever CLOSEs each has seen, and each overflows once
 *   per epoch, at its own first CLOSE of a later epoch (the commit units
 *   close at their own retired IDs, so that CLOSE differs from slice to
 *   slice, as every CLOSE point does; a commit unit passes no ACQUIRE of
 *   the new epoch before it). There every version but each region's newest
 *   readable state is invalidated (S4), every reference count is reset,
 *   the newest state takes the CLOSE's creation time in the new epoch (it
 *   holds every point up to P), and the CLOSE then closes the written S2s
 *   as usual. A snapshot of an earlier epoch is gone at that slice: its
 *   ACQUIRE is answered VERSION_TOO_OLD, its RELEASE ignored (counted in
 *   stale_releases), its reads served from the newest version with read
 *   stamp 0. A snapshot of the new epoch whose point precedes the slice's
 *   first version of it is VERSION_TOO_OLD too (acquired again at a newer
 *   clock). 32-bit times never overflow before 32-bit commit IDs wrap.
 *
 * TM SIDE ON THE CORE PATH (tm_unit's `snapshot` filter, tmu_snapshot.c)
 *
 *   Version boundaries are commit-ID prefixes: the version closed at
 *   creation time T holds exactly the IDs 1..T. At TX_BEGIN the tm_unit
 *   reads the commit clock C (tm_lazy.h 1, TM_CID_REQUEST with aux 0) and
 *   sends ACQUIRE with ts = C - 1 (every ID below C) to every slice, at
 *   tm_partition_address(p) (tm_lazy.h; such an address must not lie in a
 *   region, so it means every region), lane field of the id = p; the
 *   attempt runs once every slice has answered with the same boundary
 *   (the handles must agree; else it acquires again, VERSION BOUNDARIES).
 *   Its forwarded loads carry SIMTX_FLAG_SNAPSHOT and the handle (epoch in
 *   the ldst.h tag, timestamp in transaction_id). At TX_COMMIT (before
 *   commit IDs), or when no lane of the attempt runs any more (rolled back
 *   or aborted), RELEASE goes to every slice. The handle's epoch is
 *   over once an ACQUIRE is answered in a later epoch (every slice has
 *   overflowed) or a load's read stamp is 0 (one has): the tm_unit then
 *   aborts every running attempt holding a snapshot of that epoch or an
 *   earlier one (TX_ABORT, tx.h 6, cause TX_ABORT_VERSION_OVERFLOW, counted
 *   in aborts_overflow), before the load's answer; the core re-runs them
 *   and they acquire in the new epoch (§4.3: every running transaction
 *   aborts). A read-only commit at the core is serialized after its
 *   snapshot's commit point, whatever its epoch.
 *
 *   Each commit unit (commit_unit version_close, the unit just above its
 *   partition's slice) sends CLOSE (address VERSION_ALL_REGIONS) with T =
 *   its newest retired ID whenever IDs retire: every write-back of IDs up
 *   to T has been acknowledged by then.
 *
 *   VERSION BOUNDARIES ARE EXACT. The slice puts every write it receives
 *   before a CLOSE into the version that CLOSE makes S3 (a write waiting
 *   for its region's S2 is held in order, and so is a CLOSE behind it), so
 *   the version closed at T holds exactly the IDs <= T only if no write-back
 *   of an ID above T reaches the slice before CLOSE(T). A commit unit
 *   writes several IDs back at once (IDs start in order, later ones before
 *   earlier ones are acknowledged), so its versions slot gates write-back:
 *   when IDs retire while a later ID is already writing, T becomes that
 *   later ID (the fence), no ID above the fence starts writing back, and
 *   CLOSE(fence) goes once the fence retires (bounded: only
 *   acknowledgements of issued writes are awaited). Chosen over a slice
 *   that stamps writes with their commit ID and keeps later IDs out of the
 *   version being closed: that slice would need a second writable version
 *   (the next S2 is not copied yet while S2 closes) or a buffer of every
 *   early write with no bound, and the paper's own order (§5, step 6: the
 *   warp's write-back finishes, then S2 -> S3, then the next version's
 *   writes) is the closer waiting. The cost is write-back pipelining across
 *   a boundary (the stall is the fence ID's acknowledgement latency). It
 *   holds an ACQUIRE whose ts is
 *   above its last CLOSE's T and passes it after the CLOSE that covers it,
 *   so the slice has closed every ID up to ts when it pins. At a slice a
 *   snapshot is thus a prefix of the commit order: the IDs up to the
 *   latest CLOSE at or below ts, its boundary (IDs retiring in one batch,
 *   or behind a fence, close together). That prefix differs from slice to
 *   slice (each unit closes at its own points), so a snapshot at ts read
 *   at two slices could be torn: the ACQUIRE's answer names the boundary,
 *   and when the slices' boundaries differ the TM side acquires again at
 *   the lowest, where each answers its boundary at or below it, until they
 *   agree (each round lowers the point; a recycled version answers
 *   VERSION_TOO_OLD and the TM side starts over from the clock). The
 *   snapshot's point is that common boundary. The commit
 *   unit restamps transactional reads' aux (tm_lazy.h 5) but not snapshot
 *   reads', so a slice sees the handle's epoch.
 *
 * COSTS
 *
 *   A slice takes one message a cycle from its input, `latency` cycles
 *   after its arrival: it answers a VERSION op then, and passes an access on
 *   (the paper looks the table up beside the L2's queue; 1 by default). A
 *   bulk copy unit keeps at most `copy_queue_depth` ROW_COPYs in flight, one
 *   issued per cycle; each costs what the L2 and the DRAM controller charge
 *   (FPM 2 tRAS + tRP within a subarray). Copies overlap execution (Fig. 12):
 *   only a region's writes wait for its copy.
 *
 * DEADLOCK RULES
 *
 *   - An access that must wait for an S2 version moves aside into the hold
 *     buffer (and so do later writes and reads of its region, and a CLOSE
 *     of it or of every region, to keep their order); everything else,
 *     RELEASE included, goes on past it. Only a full hold buffer (or no room
 *     below: queues that drain without waiting for anything) stops the input.
 *   - Held accesses wait only for a copy (which depends on nothing but the
 *     L2 and DRAM below) or for a free slot, i.e. for a RELEASE. The TM side
 *     must release a committing transaction's snapshot before its write-back
 *     (it reads nothing after validation). When the hold buffer is full and
 *     the input's head must wait, the first RELEASE or snapshot READ behind
 *     it in the input goes first (it passes accesses only, never another
 *     version op; neither waits for a slot): the commit units may have more
 *     writes in flight than hold_depth (with 2 versions under SITM_Oracle
 *     they filled it, and the releases that would free the older version
 *     queued behind them; and a running transaction's snapshot read queued
 *     behind them while the transaction pinned the older version, which it
 *     releases only at its end). That pass needs the RELEASE or read to
 *     reach the slice's input, so the writing side never sends more than a
 *     hold buffer: a commit unit keeps at most `writeback_window` (= the
 *     slice's hold_depth, gtx480_sitm.lua) write-backs unacknowledged, so
 *     that its held writes never stop the input and the path above it
 *     (commit unit output, sitm_cc, crossbar) never fills with writes that
 *     wait for a slot (BT2 with 2 versions stopped so: the RELEASE waited
 *     in the crossbar behind a commit unit's 32 refused write-backs). A
 *     transaction the
 *     sitm_cc block keeps out holds no snapshot (sitm.h 1).
 *   - Requests and responses travel on separate paths (mem.h).
 */
#ifndef SIMTX_VERSION_H
#define SIMTX_VERSION_H

#include "simtx_msg.h"

/* An ACQUIRE/RELEASE/CLOSE address outside every region: all of them. */
#define VERSION_ALL_REGIONS UINT64_MAX
/* ACQUIRE aux: the newest creation time the slice has. */
#define VERSION_NEWEST UINT64_MAX
/* ACQUIRE answer aux: a region has no version readable at ts any more (the
 * one ts read was recycled while the ACQUIRE travelled); nothing is pinned,
 * and the requester acquires again at a newer timestamp. */
#define VERSION_TOO_OLD (UINT64_MAX - 1)
/* Timestamps are at most 32 bits (Table 1's 8 x 32-bit creation times). */
#define VERSION_TIMESTAMP_BITS_MAX 32u

/* A snapshot handle: the overflow epoch above the timestamp. */
static inline uint64_t version_handle(uint64_t epoch, uint64_t timestamp) { return epoch << 32 | (timestamp & 0xFFFFFFFFu); }
static inline uint64_t version_handle_epoch(uint64_t handle) { return handle >> 32; }
static inline uint64_t version_handle_timestamp(uint64_t handle) { return handle & 0xFFFFFFFFu; }

#endif
