/* The transaction contract between a SIMT core and the transactional-memory
 * unit beside it: the only TM the core knows. KILO TM, Warp TM and the
 * designs that follow them (Early-Abort / Pause-and-Go, SI-TM, GPU-LocalTM)
 * differ behind it, in the tm_unit's policy slots and in the memory side.
 *
 * TRANSPORT. The events travel on the socket the core's `tm_events`
 * parameter names, chosen at its creation, together with the ldst.h
 * requests of that socket, as requests of the TX family (simtx_msg.h); the
 * lanes of that socket's requests inside a transaction carry
 * SIMTX_FLAG_TRANSACTIONAL, the other socket's are plain:
 *   ldst  (KILO TM, Warp TM, EA/PG, SI-TM) global lanes, to a tm_unit;
 *   lds   (GPU-LocalTM) shared lanes, to an lds whose policy serves
 *         transactions (models/core/lds, policy localtm): global accesses
 *         inside a transaction stay plain, as in the paper.
 * The tm_unit sits in line between the core and its ldst_unit
 * (parts/gpu.lua's core_side hook); the tm_unit passes every request without
 * SIMTX_FLAG_TRANSACTIONAL on unchanged (ldst.h back-pressure: only a first
 * beat is refused) and sends its own requests (forwarded loads, the lazy TM
 * protocol) through the same ldst_unit to the memory side. Ids with bit 61
 * or bit 62 set are the tm_unit's own on that path: a core's ids leave both
 * clear. A block that does not speak this protocol (ldst_unit, L1) answers
 * a TX op with a command error.
 *
 * PARTIES
 *
 *   core     owns the SIMT stack (Retry, Transaction and Paused entries:
 *            simt_core/simt_stack.h),
 *            the registers and their checkpoint at tx_begin, the private
 *            stack (local memory) and its undo log, the transactional-warp
 *            tokens, and the attempt's timeout. It decides nothing about
 *            conflicts.
 *   tm_unit  owns the lanes' read and write logs, conflict detection before
 *            the commit (policy slots: none, intra-warp, temporal), the
 *            access filters (Early-Abort's conflict address table, Pause-
 *            and-Go, SI-TM's snapshot reads), the commit protocol with the
 *            memory side (protocols/tm_lazy.h for KILO/Warp TM) and the
 *            commit records of the serializability oracle.
 *   lds      (tm_events = lds, policy localtm) in the tm_unit's place:
 *            per-bank per-work-item signatures, eager versioning in the
 *            CTA's region, the conflict mask (TCM), TCM OLD and the mode of
 *            each wavefront, and the serialisation of retries.
 *
 * ORDER OF EVENTS (one warp's transaction; lanes = a lane mask)
 *
 *   1. TX_BEGIN (core -> tm_unit). At the outer
 *      tx_begin of `lanes`, after the core checkpointed their registers
 *      and opened its Retry and Transaction entries (nesting is flattened
 *      by the core and never reaches the tm_unit). aux = the attempt number
 *      of the warp (0 for the first). The response says the attempt may run:
 *      at once, or once the unit has what its first access needs (KILO TM's
 *      temporal conflict detection fetches the start time first). The warp
 *      issues nothing of the attempt before the response. transaction_id
 *      = the warp's first thread in its CTA (warp index in the CTA x lanes:
 *      a unit keying state per work-item, GPU-LocalTM's owners and
 *      signatures, adds the lane). The response may name lanes HELD out of
 *      the attempt (size 8, data = a 64-bit lane mask, tx_begin_held): a
 *      serialised retry (GPU-LocalTM: in wavefront- or work-group-serial
 *      mode one retry lane runs); the core moves them into the Retry entry
 *      before the attempt runs (never all of them). A unit may HOLD a
 *      TX_BEGIN, answering it later (GPU-LocalTM's work-group
 *      serialisation holds the other wavefronts of the work-group at their
 *      TX_BEGIN until the serialised attempt commits); it answers the
 *      link's later requests meanwhile, so its answers leave request order
 *      there. A response with
 *      SIMTX_FLAG_TX_PAUSE says the attempt's accesses may pause lanes (a
 *      pausing filter is configured): its transactional requests then ask
 *      for a verdict (2, THE VERDICT), and the warp issues nothing after a
 *      transactional access until that access's verdict has come, so a
 *      paused lane has run nothing past it.
 *   2. Transactional accesses. Global loads and stores of lanes inside a
 *      transaction go to the tm_unit as protocols/ldst.h requests with
 *      SIMTX_FLAG_TRANSACTIONAL; other accesses never reach it. A store
 *      goes to the write log; a load of a logged word is answered from the
 *      logs (after the logs' latency); the other lanes of a load go on to
 *      the memory side as one word load (access size 4, word addresses,
 *      the flag kept) whose words are logged on the way back; the core gets
 *      its access-size bytes, zero-extended, as from any ldst.h load. A
 *      store is answered the cycle after it arrives. A check that must hear
 *      from the memory side first (temporal conflict detection's
 *      last-written times) holds the load and the warp's later requests.
 *      Misaligned lanes are an address error, a sub-word store to a word
 *      the transaction neither read nor wrote fails the run.
 *      A pausing filter (Pause-and-Go, a conflict address table hit) may
 *      pause lanes at the access: they leave the running attempt before it
 *      (their values are not written, their store data not logged); the
 *      core parks them, at the access's pc, in a Paused entry that keeps
 *      their log index (with their copies of the divergent and call entries
 *      they were in), right below the running Transaction entry. The unit
 *      never pauses the attempt's last running lanes (one lane runs on), so
 *      every pause ends with a commit of the others; a round of pauses is
 *      bounded by the lanes, and a paused lane never aborts a committing
 *      transaction. A filter may also abort lanes at the access: they leave
 *      the attempt, and a TX_ABORT (6) tells the core.
 *
 *      THE VERDICT. Under SIMTX_FLAG_TX_PAUSE (1) each transactional
 *      request of the core starts with a VERDICT beat (ldst.h
 *      LDST_BEAT_VERDICT): the request's fields, group 0, size 0, not last,
 *      flags SIMTX_FLAG_TRANSACTIONAL | SIMTX_FLAG_TX_PAUSE (tx_verdict_beat
 *      below). The unit answers it once the request's last beat has
 *      arrived and its filters have looked every lane up (Pause-and-Go:
 *      cat_ports lanes per cycle), before serving the access: status OK,
 *      flags as sent, not last, size 8, data = the paused lanes (a 64-bit
 *      lane mask, little endian; 0: none), transaction_id = their log
 *      index (tx_verdict_lanes). A faulty request's verdict comes with its
 *      other responses and pauses nothing. The core parks the paused lanes
 *      at the verdict and lets the warp issue again: the access's data
 *      arrive later, in the responses of the request's other beats, which
 *      still carry SIMTX_FLAG_TX_PAUSE with aux bits 32-63 = the paused
 *      lanes of the beat's group when lanes paused, so that the core
 *      writes only the others; a later instruction that reads the load's
 *      register waits for them on the scoreboard, as for any load. Every
 *      response of the request comes after its verdict (ldst.h's beat
 *      order). The lds under GPU-LocalTM answers every verdict with size
 *      16: data[0..7] paused lanes (always 0), data[8..15] the lanes the
 *      access ABORTED (tx_verdict_aborted): the request's lanes in the
 *      warp's conflict mask, which lost a conflict at this access or
 *      earlier (requester loses) and ran nothing since. Their accesses were
 *      not performed, their rd values are garbage; the core rolls them back
 *      into the Retry entry before the warp issues again, once its
 *      accesses completed, as for a TX_ABORT (6), and sends nothing for
 *      them. Its aux bit TX_VERDICT_RETRY_AT_COMMIT (GPU-LocalTM, section
 *      3.1: a work-item in the TCM is "quiesced until the transaction is
 *      re-started", which happens at TX Commit) says the aborted lanes'
 *      retry waits for the attempt's end: when no lane runs on, the warp
 *      still walks the rest of the attempt to its tx_commit with no lane
 *      (THE EMPTY WALK below) and only then re-runs (TX_BEGIN, no
 *      TX_COMMIT sent); without it, or when a TX_ABORT (6) took the last
 *      lanes, it re-runs at once. A beat of its own because a beat's TLM transaction has one
 *      response, and a load's data come in its ADDRESSES beats'. Without
 *      the flag no request carries a VERDICT beat and none of this costs
 *      anything.
 *      Atomics inside a transaction are refused (a command error naming
 *      the lane), as today.
 *
 *      THE EMPTY WALK. A wavefront whose every lane is quiesced keeps
 *      issuing, one instruction per issue slot, none of them acting on a
 *      lane (no register, no request), from the pc where its outermost
 *      running entry would continue (the divergent and call entries above
 *      the Transaction entry are dropped: their lanes are gone) to the
 *      attempt's tx_commit: a conditional branch goes to its reconvergence
 *      point (no lane takes either side: a Southern Islands wavefront's
 *      execz branches skip the leg), a call to its return address, a jump
 *      to its target; a pc outside the transaction's body ends the walk.
 *      Branches and jumps take the core's branch latency, the rest one
 *      issue slot. The instructions count as issues with no active lane.
 *   3. TX_COMMIT (core -> tm_unit) at the outer tx_commit of `lanes`, once
 *      none of the warp's accesses is in flight. The unit runs its pre-
 *      commit checks and the commit protocol; the response comes when every
 *      lane is resolved, with data = a tx_outcome: `committed` lanes leave
 *      with tx_commit's result 1; `retry` lanes roll back (the core restores
 *      their registers from the checkpoint and undoes their private-stack
 *      stores) and re-run under a new Transaction entry, which starts with
 *      TX_BEGIN again; `serialize` asks the core to run the retry
 *      serialised (GPU-LocalTM: per wavefront or work-group): the next
 *      attempt runs the lowest retry lane, the others wait in the Retry
 *      entry for the attempt after (the unit holds the work-group's other
 *      wavefronts itself). GPU-LocalTM's `retry` names the committing lanes
 *      in its conflict mask only (lanes aborted earlier are in Retry
 *      already). When every running lane was aborted (6, or a verdict) no
 *      TX_COMMIT comes: the attempt ends at the next TX_BEGIN, which the
 *      unit then takes as the end of the previous attempt.
 *   4. TX_ROLLBACK (core -> tm_unit): the core abandons the running attempt
 *      of `lanes` (aux = TX_ROLLBACK_TIMEOUT, or TX_ROLLBACK_FAULT for a
 *      doomed attempt that read inconsistent data), with none of their
 *      accesses in flight; the unit drops their logs and counts the abort.
 *      Response: an acknowledgement. The lanes re-run as in 3.
 *   5. TX_RESUME (core -> tm_unit): once the running attempt ended (its
 *      TX_COMMIT answered, or its TX_ROLLBACK sent), the newest Paused entry
 *      becomes the Transaction entry and its `lanes` run again from the
 *      paused access, with their log index in transaction_id; the unit
 *      truncates their logs there and its log pointer continues from it.
 *      The response is TX_BEGIN's (the warp issues nothing before it). The
 *      Retry entry's lanes re-run (TX_BEGIN) only after every Paused entry
 *      resumed and ended (HPCA'16 Figure 6). TX_BEGIN while lanes are
 *      paused, or TX_RESUME of lanes not paused, during an attempt or with
 *      another log index, fails the run.
 *
 *      LOG INDEX. The paper interleaves a warp's logs in one buffer with one
 *      entry per transactional access for every lane (zero for inactive
 *      lanes), so a per-warp log pointer is every lane's position. Here each
 *      lane has its own read and write logs (a word once per log), and the
 *      unit keeps the paper's pointer beside them: the attempt's
 *      transactional accesses that served lanes so far (0 at TX_BEGIN). A
 *      pause's log index is the pointer before the paused access, i.e. the
 *      position the lanes' next entry takes (the paper's Figures 6-7 show
 *      the last position written, one less). The unit checks TX_RESUME's
 *      index against the one it paused the lanes at, and truncates each
 *      lane's logs to what they held then plus the words of loads it
 *      issued before the pause that came back later (the warp goes on at
 *      the verdict, not at the data): nothing of the paused access or
 *      after it is ever appended to a paused lane's logs, so the
 *      truncation drops nothing today; it makes the paper's guarantee
 *      explicit.
 *   6. TX_ABORT (tm_unit -> core, unsolicited, posted): a filter of the
 *      unit aborted `lanes` of the warp's running attempt at one of its
 *      accesses (SI-TM's writer conflicts, LocalTM's conflict masks; the
 *      test filter of testbenches/tm/tm_unit), or when it learned that
 *      the attempt's snapshot is gone (SI-TM's timestamp overflow, at a
 *      load's answer or another attempt's acquire: version.h); never for
 *      lanes at TX_COMMIT (from its arrival to its answer, the pre-commit
 *      checks included: the commit decides them). It travels on its own link:
 *      the tm_unit's `tx_events` initiator socket bound to the core's
 *      `tx_events` target socket (a netlist must bind it when a configured
 *      filter may abort: the unit's socket_needed refuses the netlist
 *      otherwise, before the run). Posted (simtx_op_info.answered false):
 *      no response. Fields: lane_mask = the aborted lanes, aux = the cause
 *      (TX_ABORT_*), transaction_id = the attempt number of the TX_BEGIN it
 *      aborts (BEGIN's aux), warp, core, cta as in BEGIN.
 *      At the unit the lanes leave the attempt at once: their logs are
 *      dropped, they are counted (aborts, aborts_<the filter's cause>), the
 *      access is served for the others only, and when no lane runs on the
 *      attempt is over there (as after a commit). The unit sends TX_ABORT
 *      before the answer of the access that caused it. Until the core acts
 *      on it, the warp's requests and its TX_COMMIT or TX_ROLLBACK may
 *      still name the lanes: the unit serves such a request for the others
 *      only, answers the TX_COMMIT with them in `retry`, and counts none of
 *      them twice.
 *      The core takes it at once and, at the warp's next issue once none of
 *      its accesses is in flight (as for a doomed attempt), rolls the lanes
 *      back (registers from the checkpoint, private-stack stores undone)
 *      into the Retry entry; the other lanes run on. It sends nothing for
 *      them (no TX_ROLLBACK: the unit dropped them). When every running
 *      lane was aborted the transaction settles as after a commit: paused
 *      lanes resume (5), else the Retry entry re-runs (TX_BEGIN, the next
 *      attempt number). A TX_ABORT for another attempt, or whose lanes no
 *      longer run (the attempt's TX_COMMIT or TX_ROLLBACK already covered
 *      them), is stale and ignored.

 * FIELDS
 *
 *   op         SIMTX_OP_TX_BEGIN, _COMMIT, _ROLLBACK, _RESUME, _ABORT
 *   lane_mask  the lanes the event is about
 *   warp, cta, core   the warp (the unit keeps its state per warp slot)
 *   aux        BEGIN: attempt number (0: the lanes' first; the unit counts
 *              aborts per transaction from it); ROLLBACK, ABORT: cause
 *              (TX_ROLLBACK_*, TX_ABORT_*);
 *              a pause's response beats: bits 32-63 the group's paused lanes
 *   flags      SIMTX_FLAG_TX_PAUSE: on BEGIN's and RESUME's responses, the
 *              accesses may pause; on a VERDICT beat and its response; on
 *              an access's other response beats, lanes paused
 *   transaction_id    RESUME, a verdict and a pause's responses: the log
 *              index; ABORT: the attempt number it aborts; BEGIN: the
 *              warp's first thread in its CTA
 *   size, data BEGIN's response: 8 and the held lanes, or 0
 *   data       COMMIT's response: struct tx_outcome (size = its bytes)
 *
 * COSTS
 *
 *   One message and its response per event on the core <-> tm_unit link;
 *   under GPU-LocalTM the lds's begin and commit cycles (its README).
 *   TX_ABORT one posted message on the tx_events link (no response), and
 *   the aborted lanes' rollback on the core as for a doomed attempt.
 *   A pausing filter looks every lane of an access up before serving it
 *   (Pause-and-Go: cat_ports lanes per cycle), in the access's latency;
 *   under it each transactional request takes one more beat each way (the
 *   VERDICT), and the warp waits for the lookup (the verdict), not for the
 *   access's data.
 *   TX_COMMIT's latency is the commit protocol's (tm_lazy.h for KILO/Warp
 *   TM). The core measures what it can see of an attempt (its time from
 *   TX_BEGIN's response to TX_COMMIT, the instructions and cycles of
 *   aborted attempts); the tm_unit counts commits, aborts by cause, read
 *   and write sets, log traffic and the commit's time (TX_COMMIT to its
 *   response).
 *
 * DEADLOCK RULES
 *
 *   The core accepts every response and every TX_ABORT at once (they free
 *   its warps); the tm_unit may refuse a request only while it has work
 *   that will free room without the core's help. TX_ABORT is posted on a
 *   link of its own, so it never waits behind a response or a request of
 *   the ldst link, and nothing waits for it: the unit has already dropped
 *   the lanes, and the core's rollback needs only the warp's own accesses
 *   to complete, which the unit answers without the core's help. A warp sends TX_COMMIT only
 *   with no access in flight, so no log is still being filled when the
 *   commit starts. A held TX_BEGIN waits for another wavefront's commit,
 *   which needs nothing of the held warp; the unit does not count it in
 *   its queue limit, so it refuses none of the serialised warp's requests
 *   for it. A verdict needs nothing from the core after the
 *   request's last beat, and the core takes it at once: a warp waiting for
 *   one always gets it. Tokens (transactional warps per core) are the core's: a
 *   warp without one waits before TX_BEGIN, never inside a transaction.
 */
#ifndef SIMTX_TX_H
#define SIMTX_TX_H

#include <stdint.h>
#include <string.h>

#include "ldst.h"
#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TX_COMMIT's response data. */
typedef struct tx_outcome {
    uint64_t committed; /* lanes that leave the transaction with result 1 */
    uint64_t retry;     /* lanes that roll back and run again */
    uint8_t serialize;  /* TX_SERIALIZE_*: how the retry runs */
} tx_outcome;

enum { TX_SERIALIZE_NONE, TX_SERIALIZE_WAVEFRONT, TX_SERIALIZE_WORK_GROUP };

/* The VERDICT beat (2) that starts a transactional request under
 * SIMTX_FLAG_TX_PAUSE, made from the request's first beat. */
static inline void tx_verdict_beat(simtx_msg *beat, const simtx_msg *first)
{
    simtx_msg_copy_header(beat, first);
    beat->size = 0;
    beat->aux = (first->aux & ~(UINT64_C(0x1ff) << 16)) | (uint64_t)LDST_BEAT_VERDICT << 16;
    beat->flags = (uint8_t)(first->flags | SIMTX_FLAG_TRANSACTIONAL | SIMTX_FLAG_TX_PAUSE);
}

/* A verdict's response: its paused lanes (their log index: transaction_id). */
static inline void tx_set_verdict_lanes(simtx_msg *response, uint64_t paused)
{
    response->size = 8;
    memcpy(response->data, &paused, 8);
}

/* A verdict's response with the lanes the access aborted too (data[8..15];
 * the lds under GPU-LocalTM: its conflict mask). */
static inline void tx_set_verdict(simtx_msg *response, uint64_t paused, uint64_t aborted)
{
    response->size = 16;
    memcpy(response->data, &paused, 8);
    memcpy(response->data + 8, &aborted, 8);
}

static inline uint64_t tx_verdict_aborted(const simtx_msg *response)
{
    uint64_t aborted = 0;
    if (response->size >= 16) memcpy(&aborted, response->data + 8, 8);
    return aborted;
}

/* TX_BEGIN's answer: lanes held out of the attempt (data[0..7], size 8; a
 * serialised retry: they wait in the Retry entry). */
static inline uint64_t tx_begin_held(const simtx_msg *response)
{
    uint64_t held = 0;
    if (response->size >= 8) memcpy(&held, response->data, 8);
    return held;
}

static inline uint64_t tx_verdict_lanes(const simtx_msg *response)
{
    uint64_t paused = 0;
    if (response->size >= 8) memcpy(&paused, response->data, 8);
    return paused;
}

/* TX_BEGIN's (and TX_RESUME's) answer, aux: the unit's attempts never read
 * what another transaction may still change (eager versioning with
 * requester-loses conflicts: GPU-LocalTM), so an attempt is never doomed
 * and a fault inside it is the kernel's: the core fails the run naming
 * lane and pc, as outside a transaction, instead of rolling back, and it
 * does not time the attempt out (tm_timeout). */
#define TX_BEGIN_CONSISTENT (UINT64_C(1) << 63)

/* A verdict's answer, aux: the aborted lanes re-run at the attempt's
 * tx_commit, after an empty walk when no lane runs on (2, THE VERDICT). */
#define TX_VERDICT_RETRY_AT_COMMIT (UINT64_C(1) << 63)

/* TX_ROLLBACK's causes (aux). */
enum { TX_ROLLBACK_TIMEOUT, TX_ROLLBACK_FAULT };

/* TX_ABORT's causes (aux). */
enum { TX_ABORT_EARLY, TX_ABORT_WRITER_CONFLICT, TX_ABORT_LOCAL_CONFLICT,
       TX_ABORT_VERSION_OVERFLOW, /* SI-TM: its snapshot's epoch is over (version.h) */
       TX_ABORT_LOOP,             /* SI-TM: the access would close a dependency loop (protocols/sitm.h) */
       TX_ABORT_OVERFLOW          /* SI-TM: a Writer Table, Reader List or timestamp overflow */ };

#ifdef __cplusplus
}
#endif

#endif
