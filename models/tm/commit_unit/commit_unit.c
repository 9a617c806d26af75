#include "commit_unit.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assoc_table.h"
#include "commit_hold.h"
#include "commit_ring.h"
#include "commit_notify.h"
#include "commit_versions.h"
#include "commit_validation.h"
#include "version.h"
#include "msg_queue.h"

#define PARAM(field) offsetof(commit_unit_params, field)

static const simtx_param_spec commit_unit_param_specs[] = {
    {"partition", SIMTX_PARAM_INT, "0", "", 0, 4096, NULL, "this unit's memory partition", PARAM(partition)},
    {"partitions", SIMTX_PARAM_INT, "1", "", 1, 4096, NULL, "memory partitions (log entries must belong to this one)", PARAM(partitions)},
    {"interleave", SIMTX_PARAM_INT, "256", "bytes", 4, 1 << 30, NULL, "bytes per partition chunk of the crossbar's interleaved mapping", PARAM(interleave)},
    {"cid_allocator", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "this unit hands out commit IDs (TM_CID_REQUEST; the unit of partition 0)", PARAM(cid_allocator)},
    {"window", SIMTX_PARAM_INT, "1024", "IDs", 1, 1 << 20, NULL, "commit IDs in flight at once (the ring); must cover every concurrently committing transaction", PARAM(window)},
    {"input_queue_depth", SIMTX_PARAM_INT, "16", "messages", 1, 1 << 16, NULL, "TM messages waiting to be taken in; a full queue refuses more", PARAM(input_queue_depth)},
    {"output_queue_depth", SIMTX_PARAM_INT, "32", "messages", 1, 1 << 16, NULL, "messages waiting for each port (pass-through requests and responses included)", PARAM(output_queue_depth)},
    {"words_per_cycle", SIMTX_PARAM_INT, "1", "words", 1, 1 << 10, NULL, "validation reads plus write-backs issued to the L2 per cycle (KILO TM: 1)", PARAM(words_per_cycle)},
    {"writeback_window", SIMTX_PARAM_INT, "0", "words", 0, 1 << 20, NULL, "write-backs in flight at once (issued, not yet acknowledged); 0: no limit. SI-TM with few versions: at most the VIT slice's hold_depth, so that its held writes never stop its input, where releases and snapshot reads pass (protocols/version.h, DEADLOCK RULES)", PARAM(writeback_window)},
    {"hazard_words_per_cycle", SIMTX_PARAM_INT, "1", "words", 1, 1 << 10, NULL, "log entries through hazard detection per cycle", PARAM(hazard_words_per_cycle)},
    {"lwh_entries", SIMTX_PARAM_INT, "4096", "entries", 1, 1 << 24, NULL, "last-writer history entries (word address -> latest writing ID)", PARAM(lwh_entries)},
    {"lwh_ways", SIMTX_PARAM_INT, "4", "ways", 1, 64, NULL, "last-writer history associativity; an eviction makes later misses conservative", PARAM(lwh_ways)},
    {"lwt_entries", SIMTX_PARAM_INT, "2048", "entries", 1, 1 << 24, NULL, "last-written-time table entries, 128-byte blocks (temporal conflict detection)", PARAM(lwt_entries)},
    {"lwt_subarrays", SIMTX_PARAM_INT, "4", "ways", 1, 64, NULL, "last-written-time table subarrays (ways)", PARAM(lwt_subarrays)},
    {"validation", SIMTX_PARAM_ENUM, "values", "", 0, 0, "values|ideal|write_write", "values: KILO TM's value-based validation reading the L2; ideal: validation without L2 reads or bandwidth limits, exact unbounded histories; write_write: SI-TM's, the written words only against IDs committed after the snapshot (first committer wins; the core's write_set commit)", PARAM(validation)},
    {"notify", SIMTX_PARAM_ENUM, "none", "", 0, 0, "none|rct", "none: nothing is sent to the cores; rct: EA/PG's reference count table, each word's first and last reader or writer among committing transactions broadcast to the cores' conflict address tables (notify socket)", PARAM(notify)},
    {"rct_entries", SIMTX_PARAM_INT, "3072", "entries", 1, 1 << 24, NULL, "reference count table entries, words (notify = rct; EA/PG: 3072, 15 KB)", PARAM(rct_entries)},
    {"rct_ways", SIMTX_PARAM_INT, "8", "ways", 1, 64, NULL, "its associativity; a full set leaves a new word uncounted (no update is sent for it)", PARAM(rct_ways)},
    {"notify_batch_cycles", SIMTX_PARAM_INT, "8", "cycles", 0, 1 << 20, NULL, "the longest an update waits for others to share its broadcast: fewer, fuller broadcasts against staler tables (EA/PG: updates reach the cores within 5-25 cycles)", PARAM(notify_batch_cycles)},
    {"version_close", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "SI-TM (protocols/version.h): once IDs retire here, VERSION_CLOSE at the newest retired ID goes downstream to the partition's VIT slice, before any later ID's write-back (write-back waits at a fence for it), and a VERSION_ACQUIRE passes only once a CLOSE covers its timestamp", PARAM(version_close)},
    {"skip_validation_check", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "TEST ONLY: validation ignores changed values (a deliberately broken commit unit)", PARAM(skip_validation_check)},
};

static const simtx_param_table commit_unit_param_table = {
    commit_unit_param_specs, sizeof commit_unit_param_specs / sizeof commit_unit_param_specs[0],
    sizeof(commit_unit_params)};

static const simtx_socket_spec commit_unit_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "from the crossbar: TM protocol messages and pass-through accesses", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "to the L2 slice: validation reads, write-backs and pass-through accesses", false},
    {"notify", SIMTX_SOCKET_INITIATOR, NULL, "to the notify network: conflict-address updates for the cores (notify = rct; protocols/notify.h); may stay unbound with notify = none", true},
};

/* Own requests to the L2: tag | kind | ID | entry index. */
enum { OWN_VALIDATION = 1, OWN_WRITEBACK = 2, OWN_CLOSE = 3 };
#define OWN_ID(kind, cid, index) \
    ((TM_COMMIT_UNIT_ID_TAG << 56) | ((uint64_t)(kind) << 52) | ((uint64_t)(cid) << 16) | (uint64_t)(index))
#define IS_OWN_ID(id) (((id) >> 56) == TM_COMMIT_UNIT_ID_TAG)

struct commit_unit {
    commit_unit_params params;
    simtx_env env;
    commit_ring ring;       /* the live IDs, their groups and held requests */
    uint32_t next_cid;      /* the allocator's next ID */
    simtx_msg *input;
    size_t input_length;
    msg_queue out[COMMIT_UNIT_PORTS];
    bool port_blocked[COMMIT_UNIT_PORTS];
    assoc_table lwh, lwt;   /* last-writer history (word -> ID), last-written-time table (block -> ID) */
    const commit_validation *validation; /* the policy slots */
    void *validation_state;
    const commit_notify *notify;
    void *notify_state;
    bool notify_pending;    /* the notify policy holds messages its queue refused */
    const commit_versions *versions;
    void *versions_state;
    /* Per-cycle limits of the stages (UINT64_MAX: none). */
    uint64_t input_budget, hazard_budget, issue_budget;
    uint64_t writebacks_in_flight; /* issued, not acknowledged (writeback_window) */
    /* Bumped by every state change, so that an idle unit sleeps. */
    uint64_t activity;
    char error[256];
    struct {
        uint64_t n_commits, n_aborts, n_skips, n_pass, n_fail, read_entries, write_entries, log_messages,
            log_traffic_bytes, validations, validation_mismatches, commit_writes, hazards, hazard_stall_cycles,
            lwh_overflows, lwt_queries, lwt_misses, lwt_evictions, cids_allocated, cid_requests, passthrough,
            window_stalls, output_stalls, intra_warp_hazards, held_queries_max, held_beyond_max;
        simtx_histogram validation_latency, commit_latency, hazard_latency;
        simtx_average queue_depth, active_cids;
    } stats;
    struct {
        uint64_t queue_depth, retire_cid, hazard_cid, writeback_cid, head_state, active_cids, held_queries;
    } probes;
};

/* ---- creation ---- */

/* The validation policies, by their `validation` parameter value. */
static const commit_validation *const validations[] = {&commit_validation_values, &commit_validation_ideal, &commit_validation_write_write};

static const commit_validation *validation_named(const char *name)
{
    for (size_t i = 0; i < sizeof validations / sizeof validations[0]; i++)
        if (!strcmp(validations[i]->name, name)) return validations[i];
    return validations[0]; /* not reached: the parameter table admits only these names */
}

static bool issue_validation_read(void *unit, uint32_t cid, uint32_t index, const tm_entry *entry, uint64_t now);

/* The notify policies, by their `notify` parameter value; none tells nothing. */
static void notify_none_entry(void *self, uint32_t address, bool write) { (void)self, (void)address, (void)write; }
static bool notify_none_flush(void *self, uint64_t now) { (void)self, (void)now; return false; }
const commit_notify commit_notify_none = {.name = "none", .entered = notify_none_entry, .left = notify_none_entry, .flush = notify_none_flush};
static const commit_notify *const notifies[] = {&commit_notify_none, &commit_notify_rct};

static bool send_notification(void *unit, const simtx_msg *msg, uint64_t now)
{
    commit_unit *u = unit;
    return msg_queue_push(&u->out[COMMIT_UNIT_NOTIFY], msg, now);
}

/* The versions slot's environment: its requests go downstream, in order with
 * the pass-through traffic. */
static bool send_downstream(void *unit, const simtx_msg *msg, uint64_t now)
{
    commit_unit *u = unit;
    return msg_queue_push(&u->out[COMMIT_UNIT_DOWNSTREAM], msg, now);
}

static uint64_t own_close_id(uint32_t newest) { return OWN_ID(OWN_CLOSE, newest, 0); }

__attribute__((format(printf, 2, 3))) static void fail(commit_unit *u, const char *format, ...);
static void fail_text(void *unit, const char *text) { fail(unit, "%s", text); }

static void *commit_unit_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const commit_unit_params *p = params;
    if (p->partition >= p->partitions) {
        snprintf(error, error_size, "partition %lld must be below partitions (%lld)", (long long)p->partition,
                 (long long)p->partitions);
        return NULL;
    }
    if (p->interleave % 4) {
        snprintf(error, error_size, "interleave %lld must be a multiple of 4 bytes (words)", (long long)p->interleave);
        return NULL;
    }
    if (p->lwh_entries < p->lwh_ways) {
        snprintf(error, error_size, "lwh_entries %lld must be at least lwh_ways (%lld)", (long long)p->lwh_entries,
                 (long long)p->lwh_ways);
        return NULL;
    }
    if (p->lwt_entries < p->lwt_subarrays) {
        snprintf(error, error_size, "lwt_entries %lld must be at least lwt_subarrays (%lld)",
                 (long long)p->lwt_entries, (long long)p->lwt_subarrays);
        return NULL;
    }
    commit_unit *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->params = *p;
    u->env = *env;
    u->next_cid = 1;
    u->validation = validation_named(p->validation);
    u->input_budget = u->validation->unbounded ? UINT64_MAX : 1;
    u->hazard_budget = u->validation->unbounded ? UINT64_MAX : (uint64_t)p->hazard_words_per_cycle;
    u->issue_budget = u->validation->unbounded ? UINT64_MAX : (uint64_t)p->words_per_cycle;
    commit_validation_env validation_env = {u, issue_validation_read, &u->stats.validations,
                                            &u->stats.validation_mismatches, p->skip_validation_check};
    u->validation_state = u->validation->create(&validation_env);
    u->input = calloc((size_t)p->input_queue_depth, sizeof *u->input);
    bool grow = u->validation->unbounded;
    for (size_t i = 0; i < sizeof notifies / sizeof notifies[0]; i++)
        if (!strcmp(notifies[i]->name, p->notify)) u->notify = notifies[i];
    if (u->notify->create) {
        commit_notify_env notify_env = {u, send_notification};
        u->notify_state = u->notify->create(p, &notify_env, env->observer, error, error_size);
        if (!u->notify_state) {
            commit_unit_block_info.destroy(u);
            return NULL;
        }
    }
    u->versions = p->version_close ? &commit_versions_close : &commit_versions_none;
    if (u->versions->create) {
        commit_versions_env versions_env = {u, send_downstream, own_close_id, fail_text};
        u->versions_state = u->versions->create(&versions_env);
        if (!u->versions_state) {
            snprintf(error, error_size, "out of memory for the versions slot");
            commit_unit_block_info.destroy(u);
            return NULL;
        }
    }
    if (!commit_ring_init(&u->ring, (uint32_t)p->window) || !u->input || !u->validation_state ||
        !msg_queue_init(&u->out[COMMIT_UNIT_UPSTREAM], (size_t)p->output_queue_depth) ||
        !msg_queue_init(&u->out[COMMIT_UNIT_DOWNSTREAM], (size_t)p->output_queue_depth) ||
        !msg_queue_init(&u->out[COMMIT_UNIT_NOTIFY], (size_t)p->output_queue_depth) ||
        !assoc_table_init(&u->lwh, (uint64_t)p->lwh_entries, (uint64_t)p->lwh_ways, grow) ||
        !assoc_table_init(&u->lwt, (uint64_t)p->lwt_entries, (uint64_t)p->lwt_subarrays, grow)) {
        snprintf(error, error_size, "out of memory for window %lld", (long long)p->window);
        commit_unit_block_info.destroy(u);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "tm_n_commits", &u->stats.n_commits, "transactions", "IDs with entries here that committed (final decision commit)");
    simtx_observe_counter(o, "tm_n_aborts", &u->stats.n_aborts, "transactions", "IDs with entries here that aborted (final decision abort)");
    simtx_observe_counter(o, "tm_n_tx_skip", &u->stats.n_skips, "transactions", "IDs retired here without entries (skip messages)");
    simtx_observe_counter(o, "tm_n_tx_pass", &u->stats.n_pass, "transactions", "IDs that passed validation here");
    simtx_observe_counter(o, "tm_n_tx_fail", &u->stats.n_fail, "transactions", "IDs that failed validation here");
    simtx_observe_counter(o, "read_log_entries", &u->stats.read_entries, "words", "read-log entries received");
    simtx_observe_counter(o, "write_log_entries", &u->stats.write_entries, "words", "write-log entries received");
    simtx_observe_counter(o, "log_messages", &u->stats.log_messages, "messages", "read/write-log messages received");
    simtx_observe_counter(o, "log_traffic_bytes", &u->stats.log_traffic_bytes, "bytes", "log transfer: 8-byte header per message plus 8 bytes per entry");
    simtx_observe_counter(o, "tm_n_validations", &u->stats.validations, "words", "validation reads sent to the L2");
    simtx_observe_counter(o, "validation_mismatches", &u->stats.validation_mismatches, "words", "validation reads that found a changed value");
    simtx_observe_counter(o, "tm_n_commit_writes", &u->stats.commit_writes, "words", "write-backs sent to the L2");
    simtx_observe_counter(o, "hazards", &u->stats.hazards, "transactions", "IDs whose validation had to wait for an older writer to retire");
    simtx_observe_counter(o, "hazard_stall_cycles", &u->stats.hazard_stall_cycles, "cycles", "cycles from hazard detection to the start of validation, summed over IDs with a hazard");
    simtx_observe_counter(o, "intra_warp_hazards", &u->stats.intra_warp_hazards, "transactions", "IDs failed at once because an older, undecided ID of the same warp (or coalesced TM_LOG_DONE) wrote a word they read (or may have: history overflow)");
    simtx_observe_counter(o, "lwh_overflows", &u->stats.lwh_overflows, "entries", "last-writer history evictions (later misses wait conservatively)");
    simtx_observe_counter(o, "lwt_queries", &u->stats.lwt_queries, "queries", "temporal conflict detection queries answered");
    simtx_observe_counter(o, "lwt_misses", &u->stats.lwt_misses, "queries", "queries answered by the eviction floor");
    simtx_observe_counter(o, "held_queries_max", &u->stats.held_queries_max, "queries", "most temporal-conflict-detection queries held at once");
    simtx_observe_counter(o, "lwt_evictions", &u->stats.lwt_evictions, "entries", "last-written-time table evictions");
    simtx_observe_counter(o, "cid_requests", &u->stats.cid_requests, "requests", "commit-ID requests served (allocator only)");
    simtx_observe_counter(o, "cids_allocated", &u->stats.cids_allocated, "IDs", "commit IDs handed out (allocator only)");
    simtx_observe_counter(o, "passthrough_requests", &u->stats.passthrough, "requests", "non-TM requests passed to the L2");
    simtx_observe_counter(o, "window_stalls", &u->stats.window_stalls, "cycles", "cycles no waiting TM message could be taken in (full outputs, no free group)");
    simtx_observe_counter(o, "held_beyond_max", &u->stats.held_beyond_max, "messages", "most messages for IDs past the window held aside at once");
    simtx_observe_counter(o, "output_stalls", &u->stats.output_stalls, "cycles", "cycles an issue found its output queue full");
    simtx_observe_energy(o, "read_log_entry", &u->stats.read_entries, "a read-log entry written into the unit's log storage");
    simtx_observe_energy(o, "write_log_entry", &u->stats.write_entries, "a write-log entry written into the unit's log storage");
    simtx_observe_energy(o, "validation", &u->stats.validations, "a validation: log entry read and value compared (the L2 read is the L2's)");
    simtx_observe_energy(o, "commit_write", &u->stats.commit_writes, "a write-back issued from the write log");
    simtx_observe_energy(o, "lwt_query", &u->stats.lwt_queries, "a last-written-time table lookup (temporal conflict detection)");
    simtx_observe_energy(o, "cid_request", &u->stats.cid_requests, "a commit ID handed out");
    simtx_observe_histogram(o, "validation_latency", &u->stats.validation_latency, "cycles", "TM_LOG_DONE complete to outcome sent");
    simtx_observe_histogram(o, "commit_latency", &u->stats.commit_latency, "cycles", "decision received to write-back acknowledged");
    simtx_observe_histogram(o, "hazard_latency", &u->stats.hazard_latency, "cycles", "TM_LOG_DONE complete to hazard detection done (in-order wait included)");
    simtx_observe_average(o, "queue_depth", &u->stats.queue_depth, "messages", "TM input queue occupancy, sampled at each arrival");
    simtx_observe_average(o, "active_cids", &u->stats.active_cids, "IDs", "IDs between retire and hazard pointers, sampled each active cycle");
    simtx_observe_level_probe(o, "queue_depth", &u->probes.queue_depth, 16, 0, "TM messages waiting to be taken in");
    simtx_observe_probe(o, "retire_cid", &u->probes.retire_cid, 32, "oldest ID not yet retired");
    simtx_observe_probe(o, "hazard_cid", &u->probes.hazard_cid, 32, "next ID for hazard detection");
    simtx_observe_probe(o, "writeback_cid", &u->probes.writeback_cid, 32, "next ID to write back");
    static const char *const slot_states[] = {"free", "fill", "skip", "checked", "validating", "validated", "committing", "done"};
    _Static_assert(sizeof slot_states / sizeof *slot_states == COMMIT_SLOT_DONE + 1, "a name per commit slot state");
    simtx_observe_enum_probe(o, "head_state", &u->probes.head_state, 4, slot_states, COMMIT_SLOT_DONE + 1, "state of the oldest ID");
    simtx_observe_level_probe(o, "active_cids", &u->probes.active_cids, 16, 0, "IDs between retire and next-heard");
    simtx_observe_level_probe(o, "held_queries", &u->probes.held_queries, 16, 0, "TCD queries waiting for older IDs");
    return u;
}

static void commit_unit_destroy(void *core)
{
    commit_unit *u = core;
    if (!u) return;
    commit_ring_release(&u->ring);
    if (u->versions_state) u->versions->destroy(u->versions_state);
    free(u->input);
    for (unsigned port = 0; port < COMMIT_UNIT_PORTS; port++) msg_queue_release(&u->out[port]);
    if (u->notify_state) u->notify->destroy(u->notify_state);
    assoc_table_release(&u->lwh);
    assoc_table_release(&u->lwt);
    if (u->validation_state) u->validation->destroy(u->validation_state);
    free(u);
}

uint32_t commit_unit_retire_cid(const commit_unit *unit) { return unit->ring.retire_cid; }

/* ---- helpers ---- */

__attribute__((format(printf, 2, 3))) static void fail(commit_unit *u, const char *format, ...)
{
    char text[224];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    snprintf(u->error, sizeof u->error, "%s", text); /* the shim names the instance */
    u->env.fail(u->env.context, u->error);
}

static bool owned(const commit_unit *u, uint64_t address)
{
    return tm_partition_of(address, (uint64_t)u->params.interleave, (unsigned)u->params.partitions) ==
           (unsigned)u->params.partition;
}

static bool output_room(const commit_unit *u, unsigned port, size_t count)
{
    return u->out[port].capacity - u->out[port].length >= count;
}

static void respond(commit_unit *u, const simtx_msg *request, uint64_t aux, uint32_t size, uint64_t now)
{
    simtx_msg response = *request;
    response.aux = aux;
    response.size = size;
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    msg_queue_push(&u->out[COMMIT_UNIT_UPSTREAM], &response, now);
}

/* The ID's outcome is known and acted on (aborted, or written back): its
 * entries leave the notify policy's view. */
static void slot_done(commit_unit *u, commit_slot *s)
{
    for (uint32_t i = 0; i < s->hazard_progress; i++) {
        bool write = i >= s->reads.count;
        u->notify->left(u->notify_state, write ? s->writes.entries[i - s->reads.count].address : s->reads.entries[i].address, write);
    }
    s->state = COMMIT_SLOT_DONE;
}

/* The slot of cid, ready for log entries; NULL: the protocol was broken
 * (reported). */
static commit_slot *open_slot(commit_unit *u, uint32_t cid)
{
    commit_slot *s = commit_ring_open(&u->ring, cid);
    if (!s) {
        const commit_slot *taken = commit_ring_slot(&u->ring, cid);
        fail(u, "log message for commit ID %u after its TM_LOG_DONE was complete or a TM_SKIP (state %u)",
             (unsigned)cid, (unsigned)taken->state);
    }
    return s;
}

static void group_close(commit_unit *u, int32_t g, uint64_t now)
{
    respond(u, &u->ring.groups[g].request, u->ring.groups[g].mask, 0, now);
    commit_ring_group_free(&u->ring, g);
}

/* The ID range of a coalesced TM_LOG_DONE / TM_DECISION; false if malformed
 * (reported). */
static bool group_range(commit_unit *u, const simtx_msg *msg, uint32_t *count)
{
    if (msg->op == SIMTX_OP_TM_LOG_DONE) {
        *count = msg->size ? msg->size / 8 : 1;
        if (msg->size % 8 || *count > TM_MAX_ENTRIES_PER_MSG) {
            fail(u, "TM_LOG_DONE of %u bytes: 0, or 1 to 16 records of 8 bytes", (unsigned)msg->size);
            return false;
        }
    } else {
        uint32_t n = 1;
        if (msg->size) memcpy(&n, msg->data, 4);
        *count = n;
        if ((msg->size != 0 && msg->size != 8) || n == 0 || n > 64) {
            fail(u, "TM_DECISION of %u bytes for %u IDs: 0 bytes, or 8 with a count of 1 to 64", (unsigned)msg->size,
                 (unsigned)n);
            return false;
        }
    }
    if (msg->transaction_id < u->ring.retire_cid && msg->op == SIMTX_OP_TM_LOG_DONE) {
        fail(u, "TM_LOG_DONE for commit ID %u, already retired (oldest live %u)", (unsigned)msg->transaction_id,
             (unsigned)u->ring.retire_cid);
        return false;
    }
    return true;
}

/* ---- taking messages in ---- */

/* Takes one TM message in; false when it must wait (window, outputs). */
static bool take_in(commit_unit *u, const simtx_msg *msg, uint64_t now)
{
    switch ((simtx_op)msg->op) {
    case SIMTX_OP_TM_CID_REQUEST: {
        if (!u->params.cid_allocator) {
            fail(u, "TM_CID_REQUEST at address 0x%" PRIx64 " reached a unit that is not the commit-ID allocator (cid_allocator = false)",
                 msg->address);
            return true;
        }
        if (!output_room(u, COMMIT_UNIT_UPSTREAM, 1)) return false;
        respond(u, msg, u->next_cid, 0, now);
        u->next_cid += (uint32_t)msg->aux;
        u->stats.cid_requests++;
        u->stats.cids_allocated += (uint32_t)msg->aux;
        return true;
    }
    case SIMTX_OP_TM_READ_LOG:
    case SIMTX_OP_TM_WRITE_LOG: {
        unsigned count = tm_entry_count(msg);
        if (msg->size % TM_ENTRY_BYTES || count == 0 || count > TM_MAX_ENTRIES_PER_MSG) {
            fail(u, "log message of %u bytes: must be 1 to 16 entries of 8 bytes", msg->size);
            return true;
        }
        for (unsigned k = 0; k < count; k++)
            if (!commit_ring_in_window(&u->ring, tm_entry_cid(msg, k))) {
                if (tm_entry_cid(msg, k) < u->ring.retire_cid) {
                    fail(u, "log entry for commit ID %u, already retired (oldest live %u)",
                         (unsigned)tm_entry_cid(msg, k), (unsigned)u->ring.retire_cid);
                    return true;
                }
                return false;
            }
        if (!output_room(u, COMMIT_UNIT_UPSTREAM, 1)) return false;
        for (unsigned k = 0; k < count; k++) {
            tm_entry e = tm_get_entry(msg, k);
            if (e.address % 4 || !owned(u, e.address)) {
                fail(u, "log entry address 0x%x is not a word of partition %u", (unsigned)e.address,
                     (unsigned)u->params.partition);
                return true;
            }
            commit_slot *s = open_slot(u, tm_entry_cid(msg, k));
            if (!s) return true;
            if (!commit_log_append(msg->op == SIMTX_OP_TM_READ_LOG ? &s->reads : &s->writes, e)) {
                fail(u, "out of memory for the log of commit ID %u", (unsigned)s->cid);
                return true;
            }
            if (commit_ring_slot_complete(s)) s->done_cycle = now;
        }
        if (msg->op == SIMTX_OP_TM_READ_LOG) u->stats.read_entries += count;
        else u->stats.write_entries += count;
        u->stats.log_messages++;
        u->stats.log_traffic_bytes += TM_LOG_HEADER_BYTES + (uint64_t)count * TM_ENTRY_BYTES;
        respond(u, msg, 0, 0, now);
        return true;
    }
    case SIMTX_OP_TM_LOG_DONE: {
        uint32_t first = msg->transaction_id, count;
        if (!group_range(u, msg, &count)) return true;
        if (!commit_ring_in_window(&u->ring, first + count - 1) || !u->ring.free_group_count || !output_room(u, COMMIT_UNIT_UPSTREAM, 1))
            return false;
        int32_t g = commit_ring_group_open(&u->ring, msg);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t cid = first + i, reads, writes;
            if (msg->size) {
                memcpy(&reads, msg->data + 8 * i, 4);
                memcpy(&writes, msg->data + 8 * i + 4, 4);
                if (!reads && !writes) { /* a coalesced skip */
                    commit_slot *s = commit_ring_slot(&u->ring, cid);
                    if (s->state != COMMIT_SLOT_FREE) {
                        fail(u, "TM_LOG_DONE record without entries for commit ID %u, which has entries (state %u)",
                             (unsigned)cid, (unsigned)s->state);
                        return true;
                    }
                    s->cid = cid;
                    s->state = COMMIT_SLOT_SKIP;
                    u->stats.n_skips++;
                    u->ring.groups[g].mask |= UINT64_C(1) << i;
                    continue;
                }
            } else {
                reads = (uint32_t)msg->aux;
                writes = (uint32_t)(msg->aux >> 32);
            }
            commit_slot *s = open_slot(u, cid);
            if (!s) return true;
            if (s->done_received) {
                fail(u, "two TM_LOG_DONE for commit ID %u", (unsigned)cid);
                return true;
            }
            s->done_received = true;
            s->expected_reads = reads;
            s->expected_writes = writes;
            s->done_group = g;
            s->done_bit = (uint8_t)i;
            s->core = msg->core;
            s->warp = msg->warp;
            u->ring.groups[g].pending++;
            if (commit_ring_slot_complete(s)) s->done_cycle = now;
        }
        if (!u->ring.groups[g].pending) group_close(u, g, now);
        return true;
    }
    case SIMTX_OP_TM_SKIP: {
        uint32_t first = msg->transaction_id, count = (uint32_t)msg->aux;
        if (count == 0 || count > u->ring.window) {
            fail(u, "TM_SKIP of %u IDs: must be 1 to window (%u)", (unsigned)count, (unsigned)u->ring.window);
            return true;
        }
        if (first < u->ring.retire_cid) {
            fail(u, "TM_SKIP for commit ID %u, already retired (oldest live %u)", (unsigned)first, (unsigned)u->ring.retire_cid);
            return true;
        }
        if (!commit_ring_in_window(&u->ring, first + count - 1) || !output_room(u, COMMIT_UNIT_UPSTREAM, 1)) return false;
        for (uint32_t c = first; c < first + count; c++) {
            commit_slot *s = commit_ring_slot(&u->ring, c);
            if (s->state != COMMIT_SLOT_FREE) {
                fail(u, "TM_SKIP for commit ID %u, which has entries or was skipped (state %u)", (unsigned)c, (unsigned)s->state);
                return true;
            }
            s->cid = c;
            s->state = COMMIT_SLOT_SKIP;
        }
        u->stats.n_skips += count;
        respond(u, msg, 0, 0, now);
        return true;
    }
    case SIMTX_OP_TM_DECISION: {
        uint32_t first = msg->transaction_id, count;
        if (!group_range(u, msg, &count)) return true;
        if (!u->ring.free_group_count || !output_room(u, COMMIT_UNIT_UPSTREAM, 1)) return false;
        /* Check the whole range first, so that an error changes nothing. */
        for (uint32_t i = 0; i < count; i++) {
            uint32_t cid = first + i;
            commit_slot *s = commit_ring_slot(&u->ring, cid);
            bool commit = msg->size ? (msg->aux >> i) & 1 : msg->aux == TM_DECISION_COMMIT;
            if (msg->size && (cid < u->ring.retire_cid || (commit_ring_in_window(&u->ring, cid) && s->cid == cid && s->state == COMMIT_SLOT_SKIP)))
                continue; /* an ID without entries here needs no decision */
            if (!commit_ring_in_window(&u->ring, cid) || s->cid != cid || s->state != COMMIT_SLOT_VALIDATED || s->has_decision) {
                fail(u, "TM_DECISION for commit ID %u before its outcome was sent, or twice (state %u)", (unsigned)cid,
                     commit_ring_in_window(&u->ring, cid) && s->cid == cid ? (unsigned)s->state : 0u);
                return true;
            }
            if (commit && s->validation_failed) {
                fail(u, "TM_DECISION commit for commit ID %u, which failed validation here", (unsigned)cid);
                return true;
            }
        }
        int32_t g = commit_ring_group_open(&u->ring, msg);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t cid = first + i;
            commit_slot *s = commit_ring_slot(&u->ring, cid);
            if (!commit_ring_in_window(&u->ring, cid) || s->cid != cid || s->state != COMMIT_SLOT_VALIDATED) continue;
            bool commit = msg->size ? (msg->aux >> i) & 1 : msg->aux == TM_DECISION_COMMIT;
            s->has_decision = true;
            s->commit = commit;
            s->decision_cycle = now;
            if (commit) {
                s->decision_group = g;
                u->ring.groups[g].pending++;
            } else {
                slot_done(u, s);
                u->stats.n_aborts++;
                simtx_histogram_add(&u->stats.commit_latency, 0);
            }
        }
        if (!u->ring.groups[g].pending) group_close(u, g, now);
        return true;
    }
    case SIMTX_OP_TM_LWT_QUERY: {
        if (u->ring.retire_cid >= msg->aux) {
            if (!output_room(u, COMMIT_UNIT_UPSTREAM, 1)) return false;
            uint64_t block = msg->address / TM_LWT_BLOCK_BYTES;
            uint32_t time = assoc_table_find(&u->lwt, block, 0);
            if (!time) {
                time = u->lwt.floor;
                u->stats.lwt_misses++;
            }
            respond(u, msg, time, 0, now);
            u->stats.lwt_queries++;
            return true;
        }
        if (!commit_ring_hold(&u->ring.queries, msg)) {
            fail(u, "out of memory holding %zu temporal-conflict-detection queries", u->ring.queries.length);
            return true;
        }
        if (u->ring.queries.length > u->stats.held_queries_max) u->stats.held_queries_max = u->ring.queries.length;
        return true;
    }
    default:
        fail(u, "unexpected op %u in the TM input queue", (unsigned)msg->op);
        return true;
    }
}

/* The commit unit serves the lazy-TM protocol and passes every other op on
 * to the L2 unchanged. */
static bool is_tm_op(uint8_t op) { return simtx_op_info_of(op)->family == SIMTX_FAMILY_TM_LAZY; }

/* Own responses from the L2: validation reads and write-back acknowledgements. */
static void own_response(commit_unit *u, const simtx_msg *msg)
{
    unsigned kind = (unsigned)((msg->id >> 52) & 15);
    uint32_t cid = (uint32_t)(msg->id >> 16);
    uint32_t index = (uint32_t)(msg->id & 0xFFFF);
    commit_slot *s = commit_ring_slot(&u->ring, cid);
    if (msg->status != SIMTX_STATUS_OK) {
        fail(u, "the L2 refused a commit-unit access at 0x%" PRIx64 " (status %u)", msg->address, (unsigned)msg->status);
        return;
    }
    if (kind == OWN_CLOSE) return; /* the slice's acknowledgement */
    if (s->cid != cid) {
        fail(u, "a response for commit ID %u, which is not live", (unsigned)cid);
        return;
    }
    if (kind == OWN_VALIDATION) {
        uint32_t seen;
        memcpy(&seen, msg->data, 4);
        u->validation->read_returned(u->validation_state, s, index, seen);
        if (++s->validation_returned == s->reads.count) commit_ring_queue_completion(&u->ring, cid);
    } else {
        u->writebacks_in_flight--;
        u->activity++; /* a write-back held by writeback_window may go */
        if (++s->writeback_acked == s->writes.count && s->writeback_issued == s->writes.count) commit_ring_queue_completion(&u->ring, cid);
    }
}

static simtx_accept_result commit_unit_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    commit_unit *u = core;
    if (port == COMMIT_UNIT_DOWNSTREAM) {
        if (msg->is_response && IS_OWN_ID(msg->id)) {
            own_response(u, msg);
            return SIMTX_ACCEPTED;
        }
        /* A pass-through response goes back unchanged. */
        if (!msg_queue_push(&u->out[COMMIT_UNIT_UPSTREAM], msg, now)) return SIMTX_BUSY;
        return SIMTX_ACCEPTED;
    }
    if (!is_tm_op(msg->op)) {
        if (u->versions->hold(u->versions_state, msg)) return SIMTX_ACCEPTED;
        simtx_msg *passed = msg_queue_push_slot(&u->out[COMMIT_UNIT_DOWNSTREAM], now);
        if (!passed) return SIMTX_BUSY;
        *passed = *msg;
        /* The read stamp (tm_lazy.h 5): every ID below it retired here, so
         * the L2 answers this read with their writes. A snapshot read keeps
         * its aux: the VIT slice reads its handle's epoch there (version.h). */
        if (msg->op == SIMTX_OP_READ && (msg->flags & SIMTX_FLAG_TRANSACTIONAL) && !(msg->flags & SIMTX_FLAG_SNAPSHOT))
            passed->aux = u->ring.retire_cid;
        u->stats.passthrough++;
        return SIMTX_ACCEPTED;
    }
    if (u->input_length == (size_t)u->params.input_queue_depth) return SIMTX_BUSY;
    simtx_average_add(&u->stats.queue_depth, (double)u->input_length);
    u->input[u->input_length++] = *msg;
    u->probes.queue_depth = u->input_length;
    return SIMTX_ACCEPTED;
}

/* Takes in the messages put aside that the window has reached, each after
 * the earlier ones of its IDs. */
static void take_aside(commit_unit *u, uint64_t now)
{
    commit_held *aside = &u->ring.beyond;
    for (size_t i = 0; i < aside->length;) {
        uint32_t lowest = 0, highest = 0; /* every message put aside names IDs */
        commit_hold_message_ids(&u->ring, &aside->messages[i], &lowest, &highest);
        if (highest < u->ring.retire_cid + u->ring.window && !commit_hold_overlaps(&u->ring, i, lowest, highest) &&
            take_in(u, &aside->messages[i], now)) {
            commit_ring_unhold(aside, i);
            u->activity++;
        } else {
            i++;
        }
    }
}

/* ---- the pipeline ---- */

/* Input stage: the oldest TM message that can be taken in (messages of
 * different IDs may pass one another); messages that wait for the window
 * move aside on the way, without using the stage's budget, as they were
 * passed over before they moved. */
static void input_stage(commit_unit *u, uint64_t now)
{
    uint64_t budget = u->input_budget;
    size_t i = 0;
    while (budget && i < u->input_length) {
        bool aside = commit_hold_waits(&u->ring, &u->input[i]);
        if (aside && !commit_ring_hold(&u->ring.beyond, &u->input[i])) {
            fail(u, "out of memory holding %zu messages beyond the commit-ID window", u->ring.beyond.length);
            return;
        }
        if (u->ring.beyond.length > u->stats.held_beyond_max) u->stats.held_beyond_max = u->ring.beyond.length;
        if (aside || take_in(u, &u->input[i], now)) {
            memmove(&u->input[i], &u->input[i + 1], (u->input_length - i - 1) * sizeof *u->input);
            u->input_length--;
            budget -= !aside;
            u->activity++;
        } else {
            i++;
        }
    }
    if (budget && u->input_length && u->input_budget != UINT64_MAX) u->stats.window_stalls++;
}

/* Hazard detection, in ID order: each read looks up the last writer of its
 * word among older live IDs (validation then waits for it to retire); then
 * the ID's writes become the last writers of their words. */
static void hazard_stage(commit_unit *u, uint64_t now)
{
    uint64_t budget = u->hazard_budget;
    while (budget && commit_ring_in_window(&u->ring, u->ring.hazard_cid)) {
        commit_slot *s = commit_ring_slot(&u->ring, u->ring.hazard_cid);
        if (s->cid != u->ring.hazard_cid) break;
        if (s->state == COMMIT_SLOT_SKIP) {
            u->ring.hazard_cid++;
            budget--;
            u->activity++;
            continue;
        }
        if (!commit_ring_slot_complete(s)) break;
        while (budget && s->hazard_progress < s->reads.count + s->writes.count) {
            if (s->hazard_progress < s->reads.count) {
                u->notify->entered(u->notify_state, s->reads.entries[s->hazard_progress].address, false);
                uint64_t word = s->reads.entries[s->hazard_progress].address / 4;
                uint32_t writer = assoc_table_find(&u->lwh, word, u->ring.retire_cid);
                if (!writer && u->lwh.floor >= u->ring.retire_cid) writer = u->lwh.floor; /* evicted: maybe */
                const commit_slot *w = writer ? commit_ring_slot(&u->ring, writer) : NULL;
                bool same_warp = w && w->cid == writer && s->core >= 0 && s->warp >= 0 && w->core == s->core &&
                                 w->warp == s->warp && !w->has_decision;
                if (writer && writer < s->cid &&
                    (same_warp || writer >= u->ring.groups[s->done_group].request.transaction_id)) {
                    /* An older, undecided ID of the same warp (or of the same
                     * coalesced TM_LOG_DONE): its decision may wait for our
                     * own outcome, so waiting for it to retire could deadlock;
                     * the younger ID fails (Warp TM resolves intra-warp
                     * conflicts the same way). */
                    if (!s->validation_failed) u->stats.intra_warp_hazards++;
                    s->validation_failed = true;
                } else if (writer && writer < s->cid && writer > s->wait_for_cid) {
                    s->wait_for_cid = writer;
                }
            } else {
                uint32_t address = s->writes.entries[s->hazard_progress - s->reads.count].address;
                uint64_t word = address / 4;
                u->notify->entered(u->notify_state, address, true);
                bool evicted = false;
                if (!assoc_table_store(&u->lwh, word, s->cid, u->ring.retire_cid, &evicted)) {
                    fail(u, "out of memory growing the last-writer history (%" PRIu64 " sets)", u->lwh.sets);
                    return;
                }
                if (evicted) u->stats.lwh_overflows++;
            }
            s->hazard_progress++;
            budget--;
            u->activity++;
        }
        if (s->hazard_progress < s->reads.count + s->writes.count) break;
        s->state = COMMIT_SLOT_CHECKED;
        s->checked_cycle = now;
        if (s->wait_for_cid >= u->ring.retire_cid) { /* wait for that ID to retire */
            commit_slot *writer = commit_ring_slot(&u->ring, s->wait_for_cid);
            s->next_waiter = writer->first_waiter;
            writer->first_waiter = s->cid;
        } else {
            commit_ring_queue_validation(&u->ring, s->cid);
        }
        u->activity++;
        s->hazard = s->wait_for_cid != 0;
        if (s->hazard) u->stats.hazards++;
        simtx_histogram_add(&u->stats.hazard_latency, now - s->done_cycle);
        u->ring.hazard_cid++;
        if (budget) budget--;
    }
}

static bool issue_downstream(commit_unit *u, simtx_op op, uint64_t id, const tm_entry *e, uint64_t now)
{
    if (!output_room(u, COMMIT_UNIT_DOWNSTREAM, 1)) {
        u->stats.output_stalls++;
        return false;
    }
    simtx_msg msg;
    simtx_msg_init(&msg, op, e->address, 4);
    msg.id = id;
    if (op == SIMTX_OP_WRITE) memcpy(msg.data, &e->value, 4);
    msg_queue_push(&u->out[COMMIT_UNIT_DOWNSTREAM], &msg, now);
    u->activity++;
    return true;
}

static bool issue_validation_read(void *unit, uint32_t cid, uint32_t index, const tm_entry *entry, uint64_t now)
{
    return issue_downstream(unit, SIMTX_OP_READ, OWN_ID(OWN_VALIDATION, cid, index), entry, now);
}

/* Write-back in ID order, then validation (the policy's): together
 * `words_per_cycle` of L2 bandwidth. */
static void issue_stage(commit_unit *u, uint64_t now)
{
    uint64_t budget = u->issue_budget;

    while (budget && u->ring.writeback_cid < u->ring.hazard_cid) {
        commit_slot *s = commit_ring_slot(&u->ring, u->ring.writeback_cid);
        if (s->state == COMMIT_SLOT_SKIP || (s->state == COMMIT_SLOT_DONE && !s->commit)) {
            u->ring.writeback_cid++;
            u->activity++;
            continue;
        }
        if (s->state == COMMIT_SLOT_VALIDATED && s->has_decision && s->commit) {
            s->state = COMMIT_SLOT_COMMITTING;
            if (!s->writes.count) commit_ring_queue_completion(&u->ring, s->cid); /* no writes here: acknowledged at once */
            u->activity++;
        }
        if (s->state != COMMIT_SLOT_COMMITTING) break;
        /* The versions slot may hold it at a version boundary; validation goes on. */
        if (!s->writeback_issued && s->writes.count && !u->versions->may_write_back(u->versions_state, s->cid)) break;
        while (budget && s->writeback_issued < s->writes.count) {
            if (u->params.writeback_window && u->writebacks_in_flight >= (uint64_t)u->params.writeback_window) break;
            const tm_entry *e = &s->writes.entries[s->writeback_issued];
            if (!issue_downstream(u, SIMTX_OP_WRITE, OWN_ID(OWN_WRITEBACK, s->cid, s->writeback_issued), e, now))
                return;
            /* The block's last-written time rises before the write is
             * visible: conservative for temporal conflict detection. */
            bool evicted = false;
            if (!assoc_table_store(&u->lwt, e->address / TM_LWT_BLOCK_BYTES, s->cid, 0, &evicted)) {
                fail(u, "out of memory growing the last-written-time table");
                return;
            }
            if (evicted) u->stats.lwt_evictions++;
            if (!u->validation->written_back(u->validation_state, s->cid, e)) {
                fail(u, "out of memory for the committed values of %s validation", u->validation->name);
                return;
            }
            s->writeback_issued++;
            u->writebacks_in_flight++;
            u->stats.commit_writes++;
            budget--;
        }
        if (s->writeback_issued < s->writes.count) break; /* the budget or the window is used up; validation goes on */
        u->ring.writeback_cid++;
        u->activity++;
    }

    while (budget && u->ring.validate_length) {
        uint32_t cid = commit_ring_next_validation(&u->ring);
        commit_slot *s = commit_ring_slot(&u->ring, cid);
        if (s->state == COMMIT_SLOT_CHECKED) {
            if (s->hazard) u->stats.hazard_stall_cycles += now - s->checked_cycle;
            s->state = COMMIT_SLOT_VALIDATING;
            if (s->validation_failed) s->validation_issued = s->validation_returned = s->reads.count; /* decided */
            u->activity++;
        }
        if (!u->validation->validate(u->validation_state, s, &budget, now)) return; /* continues next cycle */
        if (s->validation_returned == s->reads.count) commit_ring_queue_completion(&u->ring, cid); /* nothing to wait for */
        commit_ring_pop_validation(&u->ring);
    }
}

/* Outcomes of finished validations, write-back acknowledgements, retirement
 * in ID order, and held TCD queries whose IDs have all retired. */
/* SI-TM's version boundaries (version.h): a CLOSE at the newest retired ID
 * (every ID up to it is written back here), then the ACQUIREs it covers. */
static void complete_stage(commit_unit *u, uint64_t now)
{
    while (u->ring.complete_length) {
        uint32_t cid = commit_ring_next_completion(&u->ring);
        commit_slot *s = commit_ring_slot(&u->ring, cid);
        if (s->cid == cid && s->state == COMMIT_SLOT_VALIDATING && s->validation_returned == s->reads.count) {
            commit_group *g = &u->ring.groups[s->done_group];
            if (g->pending == 1 && !output_room(u, COMMIT_UNIT_UPSTREAM, 1)) break;
            bool pass = !s->validation_failed;
            if (pass) g->mask |= UINT64_C(1) << s->done_bit;
            if (--g->pending == 0) group_close(u, s->done_group, now);
            if (pass) u->stats.n_pass++;
            else u->stats.n_fail++;
            simtx_histogram_add(&u->stats.validation_latency, now - s->done_cycle);
            s->state = COMMIT_SLOT_VALIDATED;
        } else if (s->cid == cid && s->state == COMMIT_SLOT_COMMITTING && s->writeback_issued == s->writes.count &&
                   s->writeback_acked == s->writes.count) {
            commit_group *g = &u->ring.groups[s->decision_group];
            if (g->pending == 1 && !output_room(u, COMMIT_UNIT_UPSTREAM, 1)) break;
            if (--g->pending == 0) group_close(u, s->decision_group, now);
            simtx_histogram_add(&u->stats.commit_latency, now - s->decision_cycle);
            u->stats.n_commits++;
            slot_done(u, s);
        }
        u->activity++;
        commit_ring_pop_completion(&u->ring);
    }
    u->activity += commit_ring_retire(&u->ring);
    if (u->versions->retired(u->versions_state, u->ring.retire_cid - 1, now)) u->activity++;
    if (u->ring.beyond.length) take_aside(u, now);
    for (size_t i = 0; i < u->ring.queries.length;) {
        if (u->ring.queries.messages[i].aux <= u->ring.retire_cid && take_in(u, &u->ring.queries.messages[i], now)) {
            commit_ring_unhold(&u->ring.queries, i);
            u->activity++;
        } else {
            i++;
        }
    }
}

static void drain_outputs(commit_unit *u, uint64_t now)
{
    for (unsigned port = 0; port < COMMIT_UNIT_PORTS; port++) {
        while (!u->port_blocked[port] && !msg_queue_empty(&u->out[port]) && msg_queue_front_ready(&u->out[port]) <= now) {
            if (!u->env.send(u->env.context, port, msg_queue_front(&u->out[port]))) {
                u->port_blocked[port] = true;
                break;
            }
            msg_queue_pop(&u->out[port]);
            u->activity++;
        }
    }
}

/* A cycle that changed nothing is followed by identical ones until a
 * message arrives or a port frees (both wake the unit), so the unit sleeps. */
static bool has_work(const commit_unit *u, uint64_t activity_before)
{
    if (u->activity != activity_before) return true;
    for (unsigned port = 0; port < COMMIT_UNIT_PORTS; port++)
        if (!u->port_blocked[port] && !msg_queue_empty(&u->out[port])) return true;
    if (u->notify_pending) return true;
    return false;
}

static uint64_t commit_unit_cycle(void *core, uint64_t now)
{
    commit_unit *u = core;
    uint64_t activity_before = u->activity;
    input_stage(u, now);
    hazard_stage(u, now);
    issue_stage(u, now);
    complete_stage(u, now);
    u->notify_pending = u->notify->flush(u->notify_state, now);
    drain_outputs(u, now);
    if (u->ring.hazard_cid > u->ring.retire_cid) simtx_average_add(&u->stats.active_cids, (double)(u->ring.hazard_cid - u->ring.retire_cid));
    u->probes.queue_depth = u->input_length;
    u->probes.retire_cid = u->ring.retire_cid;
    u->probes.hazard_cid = u->ring.hazard_cid;
    u->probes.writeback_cid = u->ring.writeback_cid;
    u->probes.head_state = commit_ring_slot(&u->ring, u->ring.retire_cid)->cid == u->ring.retire_cid ? commit_ring_slot(&u->ring, u->ring.retire_cid)->state : COMMIT_SLOT_FREE;
    u->probes.active_cids = u->ring.hazard_cid - u->ring.retire_cid;
    u->probes.held_queries = u->ring.queries.length;
    return has_work(u, activity_before) ? now + 1 : SIMTX_NEVER;
}

static void commit_unit_port_free(void *core, unsigned port)
{
    ((commit_unit *)core)->port_blocked[port] = false;
}

static size_t commit_unit_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                       int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = COMMIT_UNIT_DOWNSTREAM;
    return 0;
}

/* For the deadlock report: the ring's pointers, the oldest ID's state and the queues. */
static void commit_unit_describe_pending(void *core, char *text, size_t size)
{
    commit_unit *u = core;
    static const char *const states[] = {"free", "filling", "skipped", "checked", "validating", "validated", "committing", "done"};
    const commit_slot *head = commit_ring_slot(&u->ring, u->ring.retire_cid);
    bool live = head->cid == u->ring.retire_cid;
    if (!live && !u->input_length && !u->ring.queries.length && !u->ring.beyond.length) return;
    snprintf(text, size, "oldest ID %u %s, hazard at %u, write-back at %u; %zu TM messages waiting, %zu held queries, %zu held past the window; "
             "outputs %zu up%s, %zu down%s",
             (unsigned)u->ring.retire_cid, live && head->state < sizeof states / sizeof states[0] ? states[head->state] : "not yet heard of",
             (unsigned)u->ring.hazard_cid, (unsigned)u->ring.writeback_cid, u->input_length, u->ring.queries.length, u->ring.beyond.length,
             u->out[COMMIT_UNIT_UPSTREAM].length, u->port_blocked[COMMIT_UNIT_UPSTREAM] ? " (refused)" : "",
             u->out[COMMIT_UNIT_DOWNSTREAM].length, u->port_blocked[COMMIT_UNIT_DOWNSTREAM] ? " (refused)" : "");
}

/* A notify policy other than none sends through the notify socket. */
static const char *commit_unit_socket_needed(const void *params, size_t socket)
{
    const commit_unit_params *p = params;
    return socket == COMMIT_UNIT_NOTIFY && strcmp(p->notify, commit_notify_none.name) ? "its parameter notify, not none," : NULL;
}

const simtx_block_info commit_unit_block_info = {
    .name = "commit_unit",
    .summary = "KILO TM / Warp TM commit unit of a memory partition: ordered commit IDs, hazard detection, value-based validation and write-back through the L2",
    .params = &commit_unit_param_table,
    .sockets = commit_unit_sockets,
    .socket_count = sizeof commit_unit_sockets / sizeof commit_unit_sockets[0],
    .create = commit_unit_create,
    .destroy = commit_unit_destroy,
    .accept = commit_unit_accept,
    .cycle = commit_unit_cycle,
    .port_free = commit_unit_port_free,
    .describe_pending = commit_unit_describe_pending,
    .socket_needed = commit_unit_socket_needed,
    .debug_access = commit_unit_debug_access,
};
