/* The memory request protocol: every access from an initiator (a core's
 * L1, a traffic generator, a commit unit) to the memory side (crossbar,
 * routers, caches, commit units passing it on, DRAM controllers, memories).
 *
 * PARTIES
 *
 *   initiator  makes the request on an initiator socket and keeps its own
 *              tag in msg.id;
 *   routing    crossbar, router: move a request by its address, pass its
 *   blocks     response back the way it came;
 *   caches     l1_cache, l2_cache: serve what they can, forward the rest as
 *              requests of their own identity;
 *   targets    dram_controller, nvm_controller, memory: answer every
 *              request.
 *
 * ORDER OF EVENTS (one access)
 *
 *   1. The initiator fills a simtx_msg with simtx_msg_init (all bytes
 *      enabled, core/warp/cta = -1, flags 0) and sends it; env->send returns
 *      false when the port is busy (backpressure, below).
 *   2. Each routing block pushes the port the request came in on onto
 *      msg.route (route_depth grows by one, at most SIMTX_MSG_MAX_ROUTE) and
 *      sends it to the output its mapping chooses. A request no output owns
 *      is answered at once with SIMTX_STATUS_ADDRESS_ERROR.
 *   3. The target turns the request into its response in place
 *      (simtx_msg_make_response: is_response set, status set, id, handle,
 *      route and flags unchanged) and sends it back on the port it came from.
 *   4. Each routing block pops the top of the route stack and sends the
 *      response out of that port. A block that forwards a request under a
 *      new identity (a cache: fresh id, handle NULL, route_depth 0) answers
 *      the original request itself when the forwarded one is answered.
 *   Requests of one initiator may be answered out of order: the initiator
 *   matches responses by msg.id.
 *
 * OPS AND FIELDS (request -> response)
 *
 *   READ        address, size (at most SIMTX_MSG_MAX_DATA, within one cache
 *               line for cached blocks) -> data[0..size) holds the bytes.
 *   WRITE       address, size, data, byte_enable (bit i: data[i] is
 *               written; simtx_msg_enable_bytes) -> acknowledgement, no data.
 *               aux says why a cache's write-back leaves it (targets may
 *               count by it): MEM_WRITEBACK_EVICTION (replaced, or dropped
 *               before an op acting on the line), MEM_WRITEBACK_CLEAN (a
 *               CLEAN_LINE or FLUSH_LINE asked for it); 0 on a requester's
 *               own write.
 *   ATOMIC      a 32-bit read-modify-write: atomic_op (simtx_atomic_op),
 *               data[0..3] the operand, aux the expected value of a CAS ->
 *               data[0..3] the old value. The L2 executes it (Fermi's ROP)
 *               or forwards it to memory; an L1 forwards it after dropping
 *               its copy of the line.
 *   CLEAN_LINE  write the line holding address back if dirty, keep it;
 *   FLUSH_LINE  write it back and drop it -> acknowledgement once the next
 *               level has the data, no data. A cache holding the line
 *               dirty answers when its write-back is acknowledged; any
 *               other cache passes the request on (behind a write-back of
 *               the line still on its way), so the answer comes from the
 *               target: every line reaching it is there (a clwb: durable
 *               at an NVM controller, mem.h's PERSISTENT below).
 *   FENCE       -> acknowledgement once every request the block forwarded
 *               before it is acknowledged. aux bit MEM_FENCE_INVALIDATE: a
 *               write-through cache also drops every line (the kernel
 *               boundary of non-coherent L1s: a core's ldst_unit sends one
 *               at each launch, ldst.h, its tag in aux bits 32-63 the
 *               launch's shared memory bytes per CTA), once no fill is in
 *               flight.
 *   ROW_COPY    in-DRAM bulk copy of size bytes from address to aux (both
 *               in one bank's subarray) -> acknowledgement, no data; caches
 *               write back every dirty line of the whole source row
 *               (keeping it clean) and drop every line of the destination
 *               row before passing it on (its dirty lines are discarded:
 *               the copy overwrites them); a cache knows a row's lines
 *               from its row_copy_column_bits (the DRAM map's C and S bits).
 *   core, warp, cta, lane_mask, transaction_id: the initiator's metadata,
 *   for statistics and for blocks that attribute traffic; caches copy them
 *   into the requests they make on an access's behalf. Outside
 *   transactions the ldst_unit puts into transaction_id of each WRITE of a
 *   warp's store the number of requests the store made (its coalescing
 *   degree: BUCL's bypass test). The ldst_unit also
 *   puts its request's tag (ldst.h ldst_tag) into aux bits 32-63 of every
 *   request it makes (0 from the core), for blocks between it and the L1;
 *   caches do not carry aux into their fills.
 *
 *   What a generic block needs of an op (family, which direction carries
 *   data, whether it acts on the line at address, whether it is answered)
 *   is in simtx_op_info_of(op); a block fails the run on an op of a family
 *   it neither serves nor passes through (simtx_op_unserved names both).
 *
 * LEVELS (msg.served_by, simtx_level)
 *
 *   Which level of the hierarchy held the data of a READ or ATOMIC: 0 in
 *   every request; the block that answers one from its own storage sets
 *   it in the response: a cache on a hit (SIMTX_LEVEL_L1 or _L2, its
 *   block's level), a target (DRAM, NVM, MEMORY) on every response. A
 *   block that answers an access from another request's response copies
 *   that response's level into its answer: a cache answering the accesses
 *   merged into a fill (the farthest level of the fill's responses) or a
 *   forwarded request (bypass, uncached read, forwarded atomic). Routing
 *   blocks and pass-through blocks carry it unchanged, as every field.
 *   Only statistics read it (the ldst_unit's load-to-use latency by
 *   level); no block's behaviour depends on it. Other responses leave it
 *   as the target set it, or 0.
 *
 * STATUS
 *
 *   SIMTX_STATUS_OK; SIMTX_STATUS_ADDRESS_ERROR: no target owns the address
 *   (routing blocks answer it); SIMTX_STATUS_COMMAND_ERROR: the target does
 *   not support the op (e.g. an atomic_op the memory does not know). A
 *   cache answers every access merged into a failed fill with its status.
 *
 * FLAGS (msg.flags, simtx_msg_flag)
 *
 *   Orthogonal attributes, set by the initiator, copied into the response,
 *   passed on by every block that does not act on them; their meaning when
 *   a block acts on them:
 *   TRANSACTIONAL  the access belongs to a running transaction (the
 *                  transaction_id field says which);
 *   PERSISTENT     the target is persistent memory: a write is acknowledged
 *                  once durable (an nvm_controller acknowledges every
 *                  write once its write-pending queue holds it, flag or
 *                  not: the queue is in the persistent domain);
 *   NON_TEMPORAL   no reuse expected (set by the ldst_unit for a
 *                  non-temporal store): a cache never allocates or keeps
 *                  the line of such a WRITE: it drops its copy (written
 *                  back first if dirty, ahead of the write) and passes
 *                  the write on, answered when the target acknowledges it
 *                  (an NVM controller: once durable in its WPQ);
 *   SNAPSHOT       a read of a snapshot version (SI-TM), not the latest;
 *   BROADCAST      core-mapped networks only (notify.h); address-mapped
 *                  routing blocks ignore it.
 *   PM_LOG         a durable transaction's log update (set by the core for
 *                  gpu_persist_log, with NON_TEMPORAL: where nothing acts
 *                  on it, it is a non-temporal write). A path selector
 *                  between the ldst_unit and the L1 (agpm_selector) may
 *                  choose its path: it clears NON_TEMPORAL and follows the
 *                  write with a CLEAN_LINE of its line (the temporal path).
 *                  Caches, controllers and monitors only pass it on or copy
 *                  it into their events (monitor.h).
 *   PM_LOG_NAMES   with PM_LOG (gpu_persist_log_name): each 4-byte word the
 *                  write carries is the address of the data the log entry
 *                  saves (AGPM tracks the logged data's locality).
 *
 * BACKPRESSURE
 *
 *   A block refuses an arrival it has no room for (accept returns
 *   SIMTX_BUSY); the shim holds it and offers it again. A sender whose
 *   send() returned false keeps the message and tries again after
 *   port_free() for that port. Requests and responses travel on separate
 *   resources in every block (a crossbar's request and reply networks, a
 *   cache's input and response queues), and every target answers without
 *   waiting for a later request, so a response is never stuck behind a
 *   request that waits for it. So taking a response must never wait for
 *   room on the request side: a block that answers a response with a
 *   request of its own (a path selector's CLEAN_LINE after a temporal log
 *   write's acknowledgement) keeps that request's place from the moment
 *   it takes the request causing it (one per request it holds), and never
 *   refuses the response for want of request room. Otherwise the
 *   responses back up through the caches and the crossbar's reply
 *   network into the targets, whose requests then fill the request
 *   network behind the held requests: a cycle.
 *
 * COSTS
 *
 *   Set by each block's parameters: a crossbar charges header_bytes plus
 *   size for a direction that carries data, in flits; a cache charges its
 *   access and hit latencies; a DRAM controller its timing. No cost is
 *   part of the protocol. A cache answers a FENCE hit_latency cycles after
 *   the tag-lookup slot (one, like an access's) in which it finds the
 *   condition above; an invalidating one drops every line in that slot
 *   (valid bits cleared at once, as hardware flash-invalidates).
 */
#ifndef SIMTX_MEM_H
#define SIMTX_MEM_H

#include "simtx_msg.h"

/* msg.aux bit of a FENCE asking a write-through cache to drop all its lines. */
#define MEM_FENCE_INVALIDATE UINT64_C(1)
/* msg.aux of a cache's write-back WRITE: why its data leaves the cache. */
#define MEM_WRITEBACK_EVICTION UINT64_C(1)
#define MEM_WRITEBACK_CLEAN UINT64_C(2)

#endif
