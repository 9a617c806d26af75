/* tm_unit: the block. Parameters and policy slots, the sockets (the core's
 * requests and tx.h events in, the memory side's responses back, the
 * commit units' notifications in),
 * pass-through of non-transactional traffic, the send queues and the
 * statistics. */
#include "tm_unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify.h"
#include "tmu_internal.h"

#define PARAM(field) offsetof(tm_unit_params, field)

static const simtx_param_spec tm_unit_param_specs[] = {
    {"commit", SIMTX_PARAM_ENUM, "per_tx", "", 0, 0, "per_tx|coalesced|write_set",
     "how logs and decisions travel: per transaction (KILO TM), warp-coalesced (Warp TM), or per transaction without the read log (SI-TM: the written words with the snapshot point instead, for the commit units' write_write validation; needs the snapshot filter)", PARAM(commit)},
    {"precommit", SIMTX_PARAM_STRING, "none", "", 0, 0, NULL,
     "checks before commit IDs, run in the order given: none, or a comma-separated list of tcd (KILO TM's temporal conflict detection: read-only transactions commit here when no block they read was written from their read stamp on), intra_warp (Warp TM's intra-warp conflict check), early_abort (EA/PG's Early-Abort: lanes whose logs hit the conflict address table abort before sending them) and snapshot_ro (SI-TM: read-only transactions commit here on their snapshot, without validation; needs the snapshot filter) and sitm_wait (SI-TM: TX_COMMIT waits for every SI_ACCESS answer, lanes a verdict named fail; needs the sitm filter)",
     PARAM(precommit)},
    {"filters", SIMTX_PARAM_STRING, "", "", 0, 0, NULL,
     "access filters run on every transactional access, comma-separated: none, or pause_and_go (EA/PG's Pause-and-Go: lanes whose word hits the conflict address table pause until the warp's running attempt ends), snapshot (SI-TM: every transactional load reads the snapshot acquired at TX_BEGIN from the VIT slices), sitm (SI-TM: every word read or written is reported to the Writer Table, Reader List and timestamp table, protocols/sitm.h; lanes a verdict names abort)",
     PARAM(filters)},
    {"partitions", SIMTX_PARAM_INT, "6", "", 1, 64, NULL, "memory partitions, each with a commit unit (the crossbar's)", PARAM(partitions)},
    {"interleave", SIMTX_PARAM_INT, "256", "bytes", 4, 1 << 30, NULL, "bytes per partition chunk (the crossbar's interleave)", PARAM(interleave)},
    {"conflict_table", SIMTX_PARAM_INT, "4KiB", "bytes", 4, 1 << 20, NULL,
     "intra_warp: the ownership table per warp in shared memory (4-byte entries; words hash into it, so collisions are false conflicts)",
     PARAM(conflict_table)},
    {"conflict_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL,
     "intra_warp: cycles of one pass over the ownership table in shared memory (the check makes two)", PARAM(conflict_latency)},
    {"log_latency", SIMTX_PARAM_INT, "24", "cycles", 1, 10000, NULL,
     "a transactional load answered from the logs, which live in local memory (the core's local_latency)", PARAM(log_latency)},
    {"cat_entries", SIMTX_PARAM_INT, "3072", "entries", 1, 1 << 24, NULL,
     "EA/PG: conflict address table entries, words (3072, 12 KB in the paper), kept from the commit units' notifications", PARAM(cat_entries)},
    {"cat_ways", SIMTX_PARAM_INT, "8", "ways", 1, 64, NULL, "EA/PG: its associativity; a word whose set is full is not taken", PARAM(cat_ways)},
    {"cat_ports", SIMTX_PARAM_INT, "4", "lookups", 1, 64, NULL,
     "EA/PG: conflict address table lookups per cycle (the L1's 4 ports: 8 cycles per log position of 32 lanes)", PARAM(cat_ports)},
    {"pauses_per_lane", SIMTX_PARAM_INT, "1", "pauses", 0, 1 << 20, NULL,
     "Pause-and-Go: the most times a lane pauses in one attempt (0: no limit); each pause costs the lane a whole commit round of its warp, so repeated pauses lengthen long transactions more than the aborts they avoid", PARAM(pauses_per_lane)},
    {"notify_clock_ratio", SIMTX_PARAM_DOUBLE, "1", "", 0.001, 1000, NULL,
     "EA/PG: this block's cycles per cycle of the commit units' clock, whose cycle numbers the notifications carry (cat_update_latency)",
     PARAM(notify_clock_ratio)},
    {"sitm_warps", SIMTX_PARAM_INT, "2", "warps", 1, 64, NULL,
     "sitm: transactional warps of the core that hold SI-TM transaction IDs at once (ID = (core x sitm_warps + slot) x 32 + lane; Table 2: 2 per core, 960 IDs)",
     PARAM(sitm_warps)},
    {"record", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL,
     "record every committed transaction's reads and writes for the serializability oracle", PARAM(record)},
};

static const simtx_param_table tm_unit_param_table = {
    tm_unit_param_specs, sizeof tm_unit_param_specs / sizeof tm_unit_param_specs[0], sizeof(tm_unit_params)};

enum { CORE_PORT = 0, LDST_PORT = 1, NOTIFY_PORT = 2, EVENTS_PORT = 3 };

static const simtx_socket_spec tm_unit_sockets[] = {
    {"core", SIMTX_SOCKET_TARGET, NULL, "ldst.h requests and tx.h events from the SIMT core, responses back", false},
    {"ldst", SIMTX_SOCKET_INITIATOR, NULL, "ldst.h requests (passed through and forwarded loads) and the lazy TM protocol; to the ldst_unit", false},
    {"notify", SIMTX_SOCKET_TARGET, NULL, "notifications from the commit units (protocols/notify.h): EA/PG's conflict-address updates; may stay unbound", true},
    {"tx_events", SIMTX_SOCKET_INITIATOR, NULL, "unsolicited tx.h events to the core (TX_ABORT, tx.h 6); needed when a filter may abort lanes", true},
};

static const tmu_commit_policy *const commit_policies[] = {&tmu_commit_per_tx, &tmu_commit_coalesced, &tmu_commit_write_set};
static const tmu_precommit *const precommit_checks[] = {&tmu_precommit_tcd, &tmu_precommit_intra_warp, &tmu_precommit_early_abort,
                                                        &tmu_precommit_snapshot_ro, &tmu_precommit_sitm_wait};
_Static_assert(sizeof precommit_checks / sizeof precommit_checks[0] <= TMU_MAX_PRECOMMIT,
               "u->precommit holds each check once: TMU_MAX_PRECOMMIT must cover them all");
static const tmu_filter *const access_filters[] = {&tmu_filter_pause_and_go, &tmu_filter_snapshot, &tmu_filter_sitm};
#define MAX_EXTRA_FILTERS 4
static const tmu_filter *extra_filters[MAX_EXTRA_FILTERS];

bool tmu_register_filter(const tmu_filter *filter)
{
    for (size_t i = 0; i < MAX_EXTRA_FILTERS; i++) {
        if (extra_filters[i] == filter) return true;
        if (!extra_filters[i]) {
            extra_filters[i] = filter;
            return true;
        }
    }
    return false;
}

/* The filters a unit may name: its own list, then the registered ones; returns how many. */
static size_t known_filters(const tmu_filter **filters)
{
    size_t count = 0;
    for (size_t i = 0; i < sizeof access_filters / sizeof access_filters[0]; i++) filters[count++] = access_filters[i];
    for (size_t i = 0; i < MAX_EXTRA_FILTERS && extra_filters[i]; i++) filters[count++] = extra_filters[i];
    return count;
}

/* The names a slot list offers, for an error message: "none, a, b". */
static void list_names(char *text, size_t size, const char *const *names, size_t count)
{
    size_t used = (size_t)snprintf(text, size, "none");
    for (size_t i = 0; i < count && used < size; i++) used += (size_t)snprintf(text + used, size - used, ", %s", names[i]);
}

void tmu_fail(tmu *u, const char *format, ...)
{
    char text[512];
    int prefix = snprintf(text, sizeof text, "%s: ", u->env.instance_name ? u->env.instance_name : "tm_unit");
    va_list args;
    va_start(args, format);
    vsnprintf(text + prefix, sizeof text - (size_t)prefix, format, args);
    va_end(args);
    u->env.fail(u->env.context, text);
}

bool tmu_queue_push(tmu *u, tmu_queue *q, const simtx_msg *msg, uint64_t ready)
{
    if (q->length == q->capacity) {
        size_t capacity = q->capacity ? q->capacity * 2 : 64;
        simtx_msg *messages = malloc(capacity * sizeof *messages);
        uint64_t *readies = malloc(capacity * sizeof *readies);
        if (!messages || !readies) {
            free(messages), free(readies);
            tmu_fail(u, "out of memory for queued messages");
            return false;
        }
        for (size_t i = 0; i < q->length; i++) {
            size_t from = (q->head + i) % q->capacity;
            messages[i] = q->messages[from];
            readies[i] = q->ready[from];
        }
        free(q->messages), free(q->ready);
        q->messages = messages;
        q->ready = readies;
        q->head = 0;
        q->capacity = capacity;
    }
    if (q->length) { /* one FIFO: never ready before the message ahead */
        uint64_t back = q->ready[(q->head + q->length - 1) % q->capacity];
        if (ready < back) ready = back;
    }
    size_t tail = (q->head + q->length++) % q->capacity;
    q->messages[tail] = *msg;
    q->ready[tail] = ready;
    return true;
}

static void queue_pop(tmu_queue *q)
{
    q->head = (q->head + 1) % q->capacity;
    q->length--;
}

bool tmu_push(tmu *u, const simtx_msg *msg)
{
    if (!tmu_queue_push(u, &u->to_memory, msg, 0)) return false;
    u->stats.messages++;
    return true;
}

/* The next comma-separated name of a list into name[size]; NULL at the end. */
static const char *next_name(const char *list, char *name, size_t size)
{
    while (*list == ',' || *list == ' ') list++;
    if (!*list) return NULL;
    size_t n = strcspn(list, ", ");
    snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), list);
    return list + n;
}

uint64_t *tmu_abort_cause(tmu *u, const char *cause)
{
    for (uint32_t i = 0; cause && i < u->cause_count; i++)
        if (strcmp(u->cause_names[i], cause) == 0) return &u->stats.aborts_by_cause[i];
    return NULL;
}

/* A slot's abort cause and its counter, once per name. */
static void add_cause(tmu *u, const char *cause, const char *description)
{
    if (!cause || tmu_abort_cause(u, cause) || u->cause_count == TMU_MAX_CAUSES) return;
    u->cause_descriptions[u->cause_count] = description;
    u->cause_names[u->cause_count++] = cause;
}

/* The abort causes the slots of the unit's lists name, configured or not,
 * so that every tm_unit reports the same statistics. */
static void register_causes(tmu *u)
{
    for (size_t i = 0; i < sizeof precommit_checks / sizeof precommit_checks[0]; i++)
        add_cause(u, precommit_checks[i]->abort_cause, precommit_checks[i]->abort_description);
    const tmu_filter *filters[sizeof access_filters / sizeof access_filters[0] + MAX_EXTRA_FILTERS];
    for (size_t i = 0, count = known_filters(filters); i < count; i++) add_cause(u, filters[i]->abort_cause, filters[i]->abort_description);
}

/* Chooses the policy slots and creates their state; false with a message naming the parameter. */
static bool choose_policies(tmu *u, const tm_unit_params *p, char *error, size_t error_size)
{
    /* A slot joins the unit once its state exists: destroy frees only those. */
    const tmu_commit_policy *commit = commit_policies[0];
    for (size_t i = 0; i < sizeof commit_policies / sizeof commit_policies[0]; i++)
        if (strcmp(p->commit, commit_policies[i]->name) == 0) commit = commit_policies[i];
    if (commit->create && !commit->create(&u->commit_state, u, 0, error, error_size)) return false;
    u->commit = commit;
    char name[64];
    const char *rest = p->precommit;
    bool none = false;
    while ((rest = next_name(rest, name, sizeof name))) {
        if (strcmp(name, "none") == 0) {
            none = true;
            continue;
        }
        const tmu_precommit *check = NULL;
        for (size_t i = 0; i < sizeof precommit_checks / sizeof precommit_checks[0]; i++)
            if (strcmp(precommit_checks[i]->name, name) == 0) check = precommit_checks[i];
        if (!check) {
            const char *names[sizeof precommit_checks / sizeof precommit_checks[0]];
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) names[i] = precommit_checks[i]->name;
            char offered[256];
            list_names(offered, sizeof offered, names, sizeof names / sizeof names[0]);
            snprintf(error, error_size, "precommit: '%s' is not a check (%s)", name, offered);
            return false;
        }
        for (uint32_t i = 0; i < u->precommit_count; i++)
            if (u->precommit[i] == check) {
                snprintf(error, error_size, "precommit: '%s' is named twice", name);
                return false;
            }
        uint32_t index = u->precommit_count;
        if (check->create && !check->create(&u->precommit_state[index], u, index, error, error_size)) return false;
        u->precommit[u->precommit_count++] = check;
    }
    if (none && u->precommit_count) {
        snprintf(error, error_size, "precommit: 'none' cannot be combined with checks (\"%s\")", p->precommit);
        return false;
    }
    rest = p->filters;
    while ((rest = next_name(rest, name, sizeof name))) {
        if (strcmp(name, "none") == 0) continue;
        const tmu_filter *filters[sizeof access_filters / sizeof access_filters[0] + MAX_EXTRA_FILTERS], *filter = NULL;
        size_t known = known_filters(filters);
        for (size_t i = 0; i < known; i++)
            if (strcmp(filters[i]->name, name) == 0) filter = filters[i];
        if (!filter) {
            const char *names[sizeof filters / sizeof filters[0]];
            for (size_t i = 0; i < known; i++) names[i] = filters[i]->name;
            char offered[256];
            list_names(offered, sizeof offered, names, known);
            snprintf(error, error_size, "filters: '%s' is not a filter (%s)", name, offered);
            return false;
        }
        if (u->filter_count == TMU_MAX_FILTERS) {
            snprintf(error, error_size, "filters: '%s' is one too many (at most %d)", name, TMU_MAX_FILTERS);
            return false;
        }
        for (uint32_t i = 0; i < u->filter_count; i++)
            if (u->filter[i] == filter) {
                snprintf(error, error_size, "filters: '%s' is named twice", name);
                return false;
            }
        uint32_t index = u->filter_count;
        if (filter->create && !filter->create(&u->filter_state[index], u, index, error, error_size)) return false;
        u->may_pause |= filter->pauses;
        u->filter_aborts[index] = tmu_abort_cause(u, filter->abort_cause);
        u->filter[u->filter_count++] = filter;
    }
    return true;
}

static void tm_unit_destroy(void *core);

static void *tm_unit_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const tm_unit_params *p = params;
    tmu *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    u->params = *p;
    u->env = *env;
    u->staging = UINT32_MAX;
    u->recording = p->record;
    if (p->cat_entries < p->cat_ways) { /* as the commit unit's rct_entries: a table holds at least one set */
        snprintf(error, error_size, "cat_entries %lld must be at least cat_ways (%lld)", (long long)p->cat_entries, (long long)p->cat_ways);
        tm_unit_destroy(u);
        return NULL;
    }
    register_causes(u);
    if (!choose_policies(u, p, error, error_size)) {
        tm_unit_destroy(u);
        return NULL;
    }
    /* The strings belong to the caller's params struct. */
    u->params.commit = u->params.precommit = u->params.filters = NULL;
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "commits", &u->stats.commits, "transactions", "transactions committed (lanes)");
    simtx_observe_counter(o, "aborts", &u->stats.aborts, "attempts", "transaction attempts aborted (lanes), every cause");
    simtx_observe_counter(o, "aborts_validation", &u->stats.aborts_validation, "attempts", "aborts: a commit unit's value-based validation failed");
    for (uint32_t i = 0; i < u->cause_count; i++) {
        char name[64];
        snprintf(name, sizeof name, "aborts_%s", u->cause_names[i]);
        simtx_observe_counter(o, name, &u->stats.aborts_by_cause[i], "attempts", u->cause_descriptions[i]);
    }
    simtx_observe_counter(o, "aborts_timeout", &u->stats.aborts_timeout, "attempts", "aborts: the core's attempt timeout (TX_ROLLBACK, doomed and looping)");
    simtx_observe_counter(o, "aborts_fault", &u->stats.aborts_fault, "attempts", "aborts: the attempt faulted (TX_ROLLBACK, doomed: bad address)");
    simtx_observe_counter(o, "tcd_commits", &u->stats.tcd_commits, "transactions", "read-only transactions committed by temporal conflict detection (no commit ID, no logs sent)");
    simtx_observe_counter(o, "commit_cycles", &u->stats.commit_cycles, "cycles", "warp commits' time: TX_COMMIT to its response");
    simtx_observe_counter(o, "log_bytes", &u->stats.log_bytes, "bytes", "read/write-log traffic to the commit units (header + 8 bytes per entry)");
    simtx_observe_counter(o, "messages", &u->stats.messages, "messages", "TM protocol requests sent");
    simtx_observe_counter(o, "tx_loads", &u->stats.tx_loads, "requests", "transactional load requests of the core");
    simtx_observe_counter(o, "tx_stores", &u->stats.tx_stores, "requests", "transactional store requests of the core (into the write logs)");
    simtx_observe_counter(o, "log_answered_lanes", &u->stats.log_answered_lanes, "lanes", "transactional load lanes answered from the logs");
    simtx_observe_counter(o, "forwarded_loads", &u->stats.forwarded_loads, "requests", "transactional loads sent on for the lanes the logs did not hold");
    simtx_observe_counter(o, "passed_through", &u->stats.passed_through, "beats", "non-transactional request beats passed through to the ldst socket");
    simtx_observe_counter(o, "cat_updates", &u->stats.cat_updates, "entries", "conflict-address updates received from the commit units");
    simtx_observe_counter(o, "cat_overflows", &u->stats.cat_overflows, "entries", "updates that found the word's set full (the word stays unknown)");
    simtx_observe_counter(o, "cat_lookups", &u->stats.cat_lookups, "words", "conflict address table lookups");
    simtx_observe_counter(o, "cat_hits", &u->stats.cat_hits, "words", "lookups that found the word");
    simtx_observe_counter(o, "pause_lookups", &u->stats.pause_lookups, "words", "conflict address table lookups of Pause-and-Go (pause_and_go; the rest are Early-Abort's)");
    simtx_observe_counter(o, "pause_hits", &u->stats.pause_hits, "words", "Pause-and-Go lookups that found a conflicting bit (a load of a written word, a store to a read or written one)");
    simtx_observe_counter(o, "pauses", &u->stats.pauses, "accesses", "transactional accesses that paused lanes (each makes one Paused entry on the core)");
    simtx_observe_counter(o, "lanes_paused", &u->stats.paused_lanes, "lanes", "lanes paused, summed over the pauses");
    simtx_observe_counter(o, "resumes", &u->stats.resumes, "events", "TX_RESUME events (paused lanes running again; equals pauses once the warps finish)");
    simtx_observe_histogram(o, "read_set", &u->stats.read_set, "words", "read-log entries per committed transaction");
    simtx_observe_histogram(o, "write_set", &u->stats.write_set, "words", "write-log entries per committed transaction");
    simtx_observe_histogram(o, "aborts_per_tx", &u->stats.aborts_per_tx, "aborts", "aborts before each committed transaction");
    simtx_observe_histogram(o, "commit_duration", &u->stats.commit_duration, "cycles", "per warp commit: TX_COMMIT to its response");
    simtx_observe_histogram(o, "cat_update_latency", &u->stats.cat_update_latency, "cycles", "per conflict-address notification: the commit unit's send to the table's update here (queueing, the notify network)");
    simtx_observe_level_probe(o, "tx_warps", &u->probes.tx_warps, 11, 0, "warps inside a transaction");
    simtx_observe_level_probe(o, "committing", &u->probes.committing, 11, 0, "warps between TX_COMMIT and its response");
    simtx_observe_level_probe(o, "cat_occupancy", &u->probes.cat_occupancy, 16, 0, "conflict address table entries in use");
    simtx_observe_level_probe(o, "paused_lanes", &u->probes.paused_lanes, 11, 0, "lanes paused by Pause-and-Go, waiting to resume");
    simtx_observe_probe(o, "aborted", &u->stats.aborts, 32, "transaction attempts aborted so far (lanes, every cause): its steps show when aborts happen");
    return u;
}

static void tm_unit_destroy(void *core)
{
    tmu *u = core;
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->destroy) u->filter[i]->destroy(u->filter_state[i]);
    for (uint32_t i = 0; i < u->precommit_count; i++)
        if (u->precommit[i]->destroy) u->precommit[i]->destroy(u->precommit_state[i]);
    if (u->commit && u->commit->destroy) u->commit->destroy(u->commit_state);
    tmu_tx_release(u);
    tmu_access_release(u);
    tmu_history_release(u);
    tmu_cat_release(u);
    tmu_queue *queues[] = {&u->verdicts, &u->to_core, &u->pass, &u->to_memory, &u->events};
    for (size_t i = 0; i < sizeof queues / sizeof queues[0]; i++) free(queues[i]->messages), free(queues[i]->ready);
    free(u);
}

/* A non-transactional beat of the core goes on at once. Only a request's
 * first beat is refused (ldst.h); later beats the socket refuses wait in
 * `pass`, ahead of everything else. */
static simtx_accept_result pass_request(tmu *u, const simtx_msg *msg)
{
    bool last = ldst_is_last(msg);
    if (!u->pass_open) {
        if (u->memory_blocked || u->pass.length || u->to_memory.length) return SIMTX_BUSY;
        if (!u->env.send(u->env.context, LDST_PORT, msg)) {
            u->memory_blocked = true;
            return SIMTX_BUSY;
        }
        u->stats.passed_through++;
        u->pass_open = !last;
        return SIMTX_ACCEPTED_NO_TICK;
    }
    u->stats.passed_through++;
    u->pass_open = !last;
    if (!u->memory_blocked && !u->pass.length) {
        if (u->env.send(u->env.context, LDST_PORT, msg))
            return last && u->to_memory.length ? SIMTX_ACCEPTED : SIMTX_ACCEPTED_NO_TICK; /* own requests waited */
        u->memory_blocked = true;
    }
    tmu_queue_push(u, &u->pass, msg, 0);
    return SIMTX_ACCEPTED;
}

/* The unit's own handlers of notification kinds (notify.h); a kind none
 * handles is still offered to every filter's notify hook. */
static void (*const notify_handlers[NOTIFY_KIND_COUNT])(tmu *u, const simtx_msg *msg, uint64_t now) = {
    [NOTIFY_KIND_CONFLICT_ADDRESSES] = tmu_cat_notify,
};

static void notify(tmu *u, const simtx_msg *msg, uint64_t now)
{
    if (msg->id < NOTIFY_KIND_COUNT && notify_handlers[msg->id]) notify_handlers[msg->id](u, msg, now);
    for (uint32_t i = 0; i < u->filter_count; i++)
        if (u->filter[i]->notify) u->filter[i]->notify(u->filter_state[i], u, msg, now);
}

static simtx_accept_result tm_unit_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    tmu *u = core;
    if (port == NOTIFY_PORT) {
        notify(u, msg, now);
        return SIMTX_ACCEPTED_NO_TICK;
    }
    if (port == CORE_PORT) {
        if (msg->is_response) {
            tmu_fail(u, "a response arrived on the core socket");
            return SIMTX_ACCEPTED;
        }
        if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) {
            tmu_tx_event(u, msg, now);
            return SIMTX_ACCEPTED;
        }
        if (!(msg->flags & SIMTX_FLAG_TRANSACTIONAL)) return pass_request(u, msg);
        tmu_access_beat(u, msg, now);
        return SIMTX_ACCEPTED;
    }
    if (msg->id & TMU_TM_TAG) {
        tmu_tx_response(u, msg, now);
        return SIMTX_ACCEPTED;
    }
    if (msg->id & TMU_LOAD_TAG) {
        tmu_access_response(u, msg, now);
        return SIMTX_ACCEPTED;
    }
    /* The core's own request answered: back unchanged. */
    if (!u->core_blocked && !u->to_core.length) {
        if (u->env.send(u->env.context, CORE_PORT, msg)) return SIMTX_ACCEPTED_NO_TICK;
        u->core_blocked = true;
    }
    tmu_queue_push(u, &u->to_core, msg, now);
    return SIMTX_ACCEPTED;
}

/* Sends a queue's due messages on the ldst socket until it refuses (port_free follows). */
static void send_all(tmu *u, tmu_queue *q, uint64_t now)
{
    while (!u->memory_blocked && q->length && q->ready[q->head] <= now) {
        if (!u->env.send(u->env.context, LDST_PORT, &q->messages[q->head])) {
            u->memory_blocked = true;
            return;
        }
        queue_pop(q);
    }
}

static uint64_t tm_unit_cycle(void *core, uint64_t now)
{
    tmu *u = core;
    uint64_t next = SIMTX_NEVER;
    if (u->timed_checks) next = tmu_timed_checks_cycle(u, now);
    /* TX_ABORTs (tx.h 6) before the responses, so that the core hears of an
     * abort before the answer of the access that caused it. */
    tmu_queue *events = &u->events;
    while (!u->events_blocked && events->length && events->ready[events->head] <= now) {
        if (!u->env.send(u->env.context, EVENTS_PORT, &events->messages[events->head])) {
            u->events_blocked = true;
            break;
        }
        queue_pop(events);
    }
    if (!u->events_blocked && events->length && events->ready[events->head] < next)
        next = events->ready[events->head] > now ? events->ready[events->head] : now + 1;
    /* Verdicts first (tx.h 2): a request's own responses are due only after its verdict. */
    tmu_queue *to_core[2] = {&u->verdicts, &u->to_core};
    for (unsigned i = 0; i < 2; i++) {
        tmu_queue *q = to_core[i];
        while (!u->core_blocked && q->length && q->ready[q->head] <= now) {
            if (!u->env.send(u->env.context, CORE_PORT, &q->messages[q->head])) {
                u->core_blocked = true;
                break;
            }
            queue_pop(q);
        }
        if (!u->core_blocked && q->length && q->ready[q->head] < next) next = q->ready[q->head] > now ? q->ready[q->head] : now + 1;
    }
    /* The tail of a pass-through request first (its beats stay together),
     * then the unit's own requests between the core's requests. */
    send_all(u, &u->pass, now);
    if (!u->pass_open) send_all(u, &u->to_memory, now);
    const tmu_queue *q = &u->to_memory;
    if (!u->memory_blocked && q->length && q->ready[q->head] > now && q->ready[q->head] < next) next = q->ready[q->head]; /* a filter's delay */
    return next;
}

static void tm_unit_port_free(void *core, unsigned port)
{
    tmu *u = core;
    if (port == CORE_PORT) u->core_blocked = false;
    else if (port == EVENTS_PORT) u->events_blocked = false;
    else u->memory_blocked = false;
}

/* Host accesses pass through to the memory side (the unit holds no data:
 * its logs are not yet memory). */
static size_t tm_unit_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = LDST_PORT;
    return 0;
}

void tm_unit_set_recording(void *unit, bool on) { ((tmu *)unit)->recording = on; }

size_t tm_unit_history(const void *unit, const tm_unit_record **records, const uint32_t **words)
{
    const tmu *u = unit;
    *records = u->history.records;
    *words = u->history.words;
    return u->history.count;
}

void tm_unit_clear_history(void *unit)
{
    tmu *u = unit;
    u->history.count = 0;
    u->history.word_count = 0;
}

/* For the deadlock report: the warps by phase, paused lanes and the send queues. */
static void tm_unit_describe_pending(void *core, char *text, size_t size)
{
    const tmu *u = core;
    static const char *const phases[] = {"idle", "running", "in a check waiting for memory", "in a timed check",
                                         "waiting for commit IDs", "validating", "starting (a filter holds TX_BEGIN)"};
    unsigned count[sizeof phases / sizeof phases[0]] = {0};
    for (uint32_t i = 0; i < u->warp_count; i++)
        if (u->warps[i] && (size_t)u->warps[i]->phase < sizeof phases / sizeof phases[0]) count[u->warps[i]->phase]++;
    size_t used = 0;
    for (size_t p = TMU_RUNNING; p < sizeof phases / sizeof phases[0] && used < size; p++)
        if (count[p]) used += (size_t)snprintf(text + used, size - used, "%s%u warp%s %s", used ? ", " : "", count[p], count[p] == 1 ? "" : "s", phases[p]);
    if (used < size && u->probes.paused_lanes)
        used += (size_t)snprintf(text + used, size - used, "%s%llu lanes paused", used ? ", " : "", (unsigned long long)u->probes.paused_lanes);
    if (used < size && (u->verdicts.length || u->to_core.length || u->to_memory.length || u->pass.length))
        snprintf(text + used, size - used, "%squeued: %zu to the core%s, %zu to memory%s", used ? "; " : "", u->verdicts.length + u->to_core.length,
                 u->core_blocked ? " (refused)" : "", u->to_memory.length + u->pass.length, u->memory_blocked ? " (refused)" : "");
}

/* tx_events must be bound when a configured filter may abort lanes (TX_ABORT, tx.h 6). */
static const char *tm_unit_socket_needed(const void *params, size_t socket)
{
    const tm_unit_params *p = params;
    if (socket != EVENTS_PORT || !p->filters) return NULL;
    const tmu_filter *filters[sizeof access_filters / sizeof access_filters[0] + MAX_EXTRA_FILTERS];
    size_t known = known_filters(filters);
    char name[64];
    for (const char *rest = p->filters; (rest = next_name(rest, name, sizeof name));)
        for (size_t i = 0; i < known; i++)
            if (strcmp(filters[i]->name, name) == 0 && filters[i]->abort_cause)
                return "filters: a filter that aborts lanes (TX_ABORT) needs tx_events bound to the core's tx_events socket";
    return NULL;
}

const simtx_block_info tm_unit_block_info = {
    .name = "tm_unit",
    .summary = "the core side of lazy TM (KILO TM, Warp TM): logs, pre-commit checks, commit protocol, commit records",
    .params = &tm_unit_param_table,
    .sockets = tm_unit_sockets,
    .socket_count = sizeof tm_unit_sockets / sizeof tm_unit_sockets[0],
    .create = tm_unit_create,
    .destroy = tm_unit_destroy,
    .accept = tm_unit_accept,
    .cycle = tm_unit_cycle,
    .port_free = tm_unit_port_free,
    .debug_access = tm_unit_debug_access,
    .describe_pending = tm_unit_describe_pending,
    .socket_needed = tm_unit_socket_needed,
};
