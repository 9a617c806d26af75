/* vit.c: the Version Index Table slice as a block: queues, the accesses
 * waiting for an S2 version, forwarding under its own identity (so that the
 * response carries the address its requester used), copy requests to the
 * bulk copy unit, statistics and probes. The table's rules are vit_table.c's. */
#include "vit.h"

#include "msg_queue.h"
#include "version.h"
#include "vit_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(vit_params, field)

static const simtx_param_spec vit_param_specs[] = {
    {"versions", SIMTX_PARAM_INT, "8", "versions", 2, VIT_MAX_VERSIONS, NULL, "version slots per region (SI-TM Table 2: 8 concurrently active versions)", PARAM(versions)},
    {"regions", SIMTX_PARAM_INT, "42", "regions", 1, 4096, NULL, "regions the table holds (Table 1: 1 KB of 193-bit entries = 42)", PARAM(regions)},
    {"timestamp_bits", SIMTX_PARAM_INT, "32", "bits", 2, VERSION_TIMESTAMP_BITS_MAX, NULL, "width of a creation time: commit point P is time P mod 2^bits of epoch P >> bits; a slice's first CLOSE in a later epoch overflows (invalidate, restart from the epoch's base)", PARAM(timestamp_bits)},
    {"version_stride", SIMTX_PARAM_INT, "0x10000", "bytes", 1, 9.2e18, NULL, "from one version of a region to the next: one row on in the same DRAM subarray (global addresses)", PARAM(version_stride)},
    {"align", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "region base, size and relocated area are multiples of it (whole DRAM rows in every partition); 0: no check", PARAM(align)},
    {"latency", SIMTX_PARAM_INT, "1", "cycles", 1, 1e6, NULL, "cycles from arrival to forwarding or answer", PARAM(latency)},
    {"queue_depth", SIMTX_PARAM_INT, "16", "messages", 1, 4096, NULL, "input, output and response queues", PARAM(queue_depth)},
    {"hold_depth", SIMTX_PARAM_INT, "16", "messages", 1, 4096, NULL, "accesses waiting for their region's S2 version (its copy, or a free slot)", PARAM(hold_depth)},
    {"pending_entries", SIMTX_PARAM_INT, "64", "requests", 1, 65536, NULL, "accesses forwarded and not yet answered", PARAM(pending_entries)},
    {"probe_regions", SIMTX_PARAM_INT, "2", "regions", 0, 42, NULL, "regions whose versions get version_state and refs probes", PARAM(probe_regions)},
    {"region_list", SIMTX_PARAM_STRING, "", "", 0, 0, NULL, "regions registered before the run, \"base:size:relocated,...\" (the host's versioned allocations)", PARAM(region_list)},
};

static const simtx_param_table vit_param_table = {vit_param_specs, sizeof vit_param_specs / sizeof vit_param_specs[0], sizeof(vit_params)};

enum { PORT_UPSTREAM, PORT_DOWNSTREAM };

static const simtx_socket_spec vit_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "accesses and version.h ops in, responses out (from the crossbar or a commit unit)", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "translated accesses and VERSION_COPY out (to the bulk copy unit, then the L2)", false},
};

/* The top byte of the ids of this slice's own requests. */
#define VIT_ID_TAG (UINT64_C(0x56) << 56)
#define VIT_ID_COPY (UINT64_C(1) << 48)
#define VIT_ID_INDEX_MASK ((UINT64_C(1) << 48) - 1)

/* What a message must wait behind: nothing, one region, or every region. */
#define SCOPE_NONE (-1)
#define SCOPE_ALL (-2)

#define MAX_PROBED_REGIONS 42

static const char *const state_names[VIT_STATE_COUNT] = {"none", "S1", "S2", "S3", "S4"};

typedef struct vit {
    vit_params params;
    simtx_env env;
    vit_table table;
    msg_queue input, up, down;
    bool up_blocked, down_blocked, refused;
    simtx_msg *held;
    unsigned held_count;
    simtx_msg *pending; /* headers of forwarded requests, by index */
    unsigned *free_pending, free_pending_count;
    uint64_t now;
    struct {
        uint64_t accesses, held_accesses, hold_cycles, overflows_seen, registered, refused_regions, max_refs;
        simtx_time_average versions_in[VIT_STATE_COUNT];
    } stats;
    unsigned state_count[VIT_STATE_COUNT];
    struct {
        uint64_t held, copying;
        uint64_t state[MAX_PROBED_REGIONS][VIT_MAX_VERSIONS];
        uint64_t refs[MAX_PROBED_REGIONS][VIT_MAX_VERSIONS];
    } probes;
    char probe_names[2][MAX_PROBED_REGIONS][VIT_MAX_VERSIONS][24];
} vit;

/* ---- statistics and probes ---- */

static void note_states(vit *v, uint64_t now)
{
    unsigned count[VIT_STATE_COUNT] = {0};
    uint64_t copying = 0;
    for (unsigned i = 0; i < v->table.count; i++) {
        const vit_region *r = &v->table.regions[i];
        copying += r->copy == VIT_COPY_IN_FLIGHT;
        for (unsigned k = 0; k < v->table.versions; k++) {
            count[r->v[k].state]++;
            if (r->v[k].refs > v->stats.max_refs) v->stats.max_refs = r->v[k].refs;
            if (i < (unsigned)v->params.probe_regions) {
                v->probes.state[i][k] = r->v[k].state;
                v->probes.refs[i][k] = r->v[k].refs;
            }
        }
    }
    for (unsigned s = VIT_S1; s < VIT_STATE_COUNT; s++)
        if (count[s] != v->state_count[s]) {
            simtx_time_average_set(&v->stats.versions_in[s], count[s], now);
            v->state_count[s] = count[s];
        }
    v->probes.copying = copying;
    v->probes.held = v->held_count;
}

/* ---- creation ---- */

static bool register_list(vit *v, const char *list, char *error, size_t error_size)
{
    const char *p = list;
    while (*p) {
        char *end;
        uint64_t base = strtoull(p, &end, 0), size = 0, relocated = 0;
        if (*end == ':') size = strtoull(end + 1, &end, 0);
        if (*end == ':') relocated = strtoull(end + 1, &end, 0);
        if (end == p || (*end && *end != ',')) {
            snprintf(error, error_size, "parameter 'region_list': \"%s\" is not base:size:relocated,...", p);
            return false;
        }
        char why[240];
        if (vit_table_register(&v->table, base, size, relocated, why, sizeof why) < 0) {
            snprintf(error, error_size, "parameter 'region_list': %s", why);
            return false;
        }
        v->stats.registered++;
        p = *end ? end + 1 : end;
    }
    return true;
}

static void vit_destroy(void *core);

static void *vit_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    vit *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->params = *(const vit_params *)params;
    v->params.region_list = strdup(v->params.region_list ? v->params.region_list : "");
    v->env = *env;
    const vit_params *p = &v->params;
    unsigned queue = (unsigned)p->queue_depth;
    v->held = calloc((size_t)p->hold_depth, sizeof *v->held);
    v->pending = calloc((size_t)p->pending_entries, sizeof *v->pending);
    v->free_pending = calloc((size_t)p->pending_entries, sizeof *v->free_pending);
    if (!v->params.region_list || !v->held || !v->pending || !v->free_pending || !msg_queue_init(&v->input, queue) ||
        !msg_queue_init(&v->up, queue) || !msg_queue_init(&v->down, queue)) {
        snprintf(error, error_size, "out of memory");
        vit_destroy(v);
        return NULL;
    }
    for (unsigned i = 0; i < (unsigned)p->pending_entries; i++) v->free_pending[i] = (unsigned)p->pending_entries - 1 - i;
    v->free_pending_count = (unsigned)p->pending_entries;
    if (!vit_table_init(&v->table, (unsigned)p->versions, (unsigned)p->regions, (uint64_t)p->version_stride, (uint64_t)p->align,
                        (unsigned)p->timestamp_bits, error, error_size) ||
        !register_list(v, v->params.region_list, error, error_size)) {
        vit_destroy(v);
        return NULL;
    }
    simtx_observer *o = env->observer;
    vit_table_stats *s = &v->table.stats;
    simtx_observe_counter(o, "accesses", &v->stats.accesses, "requests", "accesses passed on to the L2");
    simtx_observe_counter(o, "translations", &s->translations, "requests", "accesses to a region sent to one of its versions");
    simtx_observe_counter(o, "relocations", &s->relocations, "requests", "accesses to a versions' footprint sent to the relocated area");
    simtx_observe_counter(o, "regions_registered", &v->stats.registered, "regions", "versioned regions registered");
    simtx_observe_counter(o, "regions_refused", &v->stats.refused_regions, "regions", "registrations refused (table full or layout)");
    simtx_observe_counter(o, "versions_created", &s->versions_created, "versions", "versions made readable (S3): registrations and CLOSEs");
    simtx_observe_counter(o, "versions_recycled", &s->versions_recycled, "versions", "versions recycled (S3 -> S4, or invalidated by an overflow)");
    simtx_observe_counter(o, "copies_started", &s->copies_started, "copies", "VERSION_COPY sent to the bulk copy unit (S1)");
    simtx_observe_counter(o, "copies_done", &s->copies_done, "copies", "copies finished (S1 -> S2)");
    simtx_observe_counter(o, "acquires", &s->acquires, "snapshots", "VERSION_ACQUIRE served (reference counts up)");
    simtx_observe_counter(o, "releases", &s->releases, "snapshots", "VERSION_RELEASE served (reference counts down)");
    simtx_observe_counter(o, "stale_releases", &s->stale_releases, "snapshots", "releases of an earlier epoch or of no pinned version (ignored)");
    simtx_observe_counter(o, "stale_acquires", &s->stale_acquires, "snapshots",
                          "ACQUIREs answered VERSION_TOO_OLD: the version their timestamp read was recycled on the way");
    simtx_observe_counter(o, "max_refs", &v->stats.max_refs, "transactions", "the largest reference count of a version");
    simtx_observe_counter(o, "waits_for_slot", &s->wait_slot, "events", "a region found no free slot for its next version (out of versions)");
    simtx_observe_counter(o, "held_accesses", &v->stats.held_accesses, "requests", "accesses (and CLOSEs behind them) that waited for their region's S2 version (copy or free slot)");
    simtx_observe_counter(o, "hold_cycles", &v->stats.hold_cycles, "cycles", "cycles with at least one access waiting for an S2 version");
    simtx_observe_counter(o, "overflows", &s->overflows, "events", "creation-time overflows (every version but the newest invalidated)");
    simtx_observe_energy(o, "access", &v->stats.accesses, "an access's lookup in the version index table");
    simtx_observe_energy(o, "acquire", &s->acquires, "a snapshot acquired (reference count up)");
    simtx_observe_energy(o, "release", &s->releases, "a snapshot released (reference count down)");
    static const char *const average_names[VIT_STATE_COUNT] = {"", "versions_s1", "versions_s2", "versions_s3", "versions_s4"};
    static const char *const average_docs[VIT_STATE_COUNT] = {"", "versions in S1 (copying), mean over time", "versions in S2 (writable), mean over time",
                                                              "versions in S3 (readable), mean over time", "versions in S4 (recycled), mean over time"};
    for (unsigned st = VIT_S1; st < VIT_STATE_COUNT; st++)
        simtx_observe_average(o, average_names[st], &v->stats.versions_in[st].average, "versions", average_docs[st]);
    simtx_observe_level_probe(o, "held", &v->probes.held, 13, (uint64_t)p->hold_depth, "accesses waiting for an S2 version");
    simtx_observe_probe(o, "copying", &v->probes.copying, 7, "regions whose copy is under way");
    unsigned probed = (unsigned)p->probe_regions < MAX_PROBED_REGIONS ? (unsigned)p->probe_regions : MAX_PROBED_REGIONS;
    for (unsigned r = 0; r < probed; r++)
        for (unsigned k = 0; k < (unsigned)p->versions; k++) {
            snprintf(v->probe_names[0][r][k], sizeof v->probe_names[0][r][k], "r%u_v%u_state", r, k);
            snprintf(v->probe_names[1][r][k], sizeof v->probe_names[1][r][k], "r%u_v%u_refs", r, k);
            simtx_observe_enum_probe(o, v->probe_names[0][r][k], &v->probes.state[r][k], 3, state_names, VIT_STATE_COUNT,
                                     "version_state of region r's slot v (Figure 4: S1 copying, S2 writable, S3 readable, S4 recycled)");
            simtx_observe_probe(o, v->probe_names[1][r][k], &v->probes.refs[r][k], 16, "reference count of region r's slot v");
        }
    note_states(v, 0);
    return v;
}

static void vit_destroy(void *core)
{
    vit *v = core;
    if (!v) return;
    vit_table_release(&v->table);
    msg_queue_release(&v->input);
    msg_queue_release(&v->up);
    msg_queue_release(&v->down);
    free(v->held);
    free(v->pending);
    free(v->free_pending);
    free(v->params.region_list);
    free(v);
}

/* ---- arrivals ---- */

static simtx_accept_result vit_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    vit *v = core;
    if (port == PORT_UPSTREAM) {
        if (msg_queue_full(&v->input)) {
            v->refused = true;
            return SIMTX_BUSY;
        }
        msg_queue_push(&v->input, msg, now + (uint64_t)v->params.latency);
        return SIMTX_ACCEPTED;
    }
    if (msg_queue_full(&v->up)) return SIMTX_BUSY;
    if ((msg->id & ~VIT_ID_INDEX_MASK & ~VIT_ID_COPY) != VIT_ID_TAG) {
        v->env.fail(v->env.context, "vit: a response arrived downstream for no request of this slice");
        return SIMTX_ACCEPTED;
    }
    if (msg->id & VIT_ID_COPY) {
        unsigned region = (unsigned)(msg->id & VIT_ID_INDEX_MASK);
        if (msg->status != SIMTX_STATUS_OK) {
            char error[160];
            snprintf(error, sizeof error, "vit: the copy of region 0x%" PRIx64 " failed (status %u)", v->table.regions[region].base, msg->status);
            v->env.fail(v->env.context, error);
        }
        vit_table_copy_done(&v->table, (int)region);
        note_states(v, now);
        return SIMTX_ACCEPTED;
    }
    unsigned index = (unsigned)(msg->id & VIT_ID_INDEX_MASK);
    simtx_msg *response = msg_queue_push_slot(&v->up, now);
    *response = *msg;
    const simtx_msg *request = &v->pending[index];
    response->address = request->address;
    response->id = request->id;
    response->handle = request->handle;
    memcpy(response->route, request->route, sizeof response->route);
    response->route_depth = request->route_depth;
    v->free_pending[v->free_pending_count++] = index;
    return SIMTX_ACCEPTED;
}

/* ---- the cycle ---- */

static simtx_msg *answer(vit *v, const simtx_msg *request, simtx_status status, uint64_t aux, uint64_t now)
{
    simtx_msg *response = msg_queue_push_slot(&v->up, now);
    simtx_msg_copy_header(response, request);
    simtx_msg_make_response(response, status);
    response->aux = aux;
    return response;
}

static int scope_of(const vit *v, const simtx_msg *msg)
{
    if (msg->op == SIMTX_OP_VERSION_CLOSE) {
        int region = vit_table_region_of(&v->table, msg->address);
        return region < 0 ? SCOPE_ALL : region;
    }
    if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_VERSION) return SCOPE_NONE;
    if (msg->op == SIMTX_OP_READ && (msg->flags & SIMTX_FLAG_SNAPSHOT)) return SCOPE_NONE;
    return vit_table_region_of(&v->table, msg->address);
}

static bool scopes_meet(int a, int b) { return a != SCOPE_NONE && b != SCOPE_NONE && (a == b || a == SCOPE_ALL || b == SCOPE_ALL); }

/* Whether `msg` must wait behind the held message `earlier`: accesses of one
 * scope keep their order, and an ACQUIRE never passes a held CLOSE (the
 * commit unit let it go only after that CLOSE, whose timestamp it may exceed). */
static bool must_follow(const vit *v, const simtx_msg *msg, const simtx_msg *earlier)
{
    if (msg->op == SIMTX_OP_VERSION_ACQUIRE && earlier->op == SIMTX_OP_VERSION_CLOSE) return true;
    return scopes_meet(scope_of(v, msg), scope_of(v, earlier));
}

/* A version.h op (but COPY, which only this slice sends). Returns false when
 * it must wait (no room for its answer). */
static bool serve_version_op(vit *v, const simtx_msg *msg, uint64_t now)
{
    if (msg_queue_full(&v->up)) return false;
    char error[320];
    uint64_t aux = 0, boundary = 0;
    switch (msg->op) {
    case SIMTX_OP_VERSION_REGISTER:
        if (!vit_register(v, msg->address, msg->size, msg->aux, error, sizeof error)) {
            v->env.fail(v->env.context, error);
            answer(v, msg, SIMTX_STATUS_COMMAND_ERROR, 0, now);
            return true;
        }
        break;
    /* An address outside every region names them all (version.h). */
    case SIMTX_OP_VERSION_ACQUIRE:
        if (msg->aux == VERSION_NEWEST) {
            vit_table_boundary(&v->table, VERSION_NEWEST, &boundary);
        } else if (!vit_table_boundary(&v->table, msg->aux, &boundary)) { /* older than the CLOSEs kept: acquire again */
            v->table.stats.stale_acquires++;
            aux = VERSION_TOO_OLD;
            break;
        }
        switch (vit_table_acquire(&v->table, vit_table_region_of(&v->table, msg->address), msg->aux, &aux, error, sizeof error)) {
        case VIT_PINNED: break;
        case VIT_TOO_OLD: /* the version ts read is recycled, or its epoch is over: acquire again (version.h) */
            v->table.stats.stale_acquires++;
            aux = VERSION_TOO_OLD;
            break;
        case VIT_AHEAD: v->env.fail(v->env.context, error); break;
        }
        break;
    case SIMTX_OP_VERSION_RELEASE: vit_table_release_snapshot(&v->table, vit_table_region_of(&v->table, msg->address), msg->aux); break;
    case SIMTX_OP_VERSION_CLOSE: {
        bool overflow;
        if (!vit_table_close(&v->table, vit_table_region_of(&v->table, msg->address), msg->aux, &overflow, &aux, error, sizeof error))
            v->env.fail(v->env.context, error);
        break;
    }
    default: {
        simtx_op_unserved(error, sizeof error, v->env.instance_name ? v->env.instance_name : "vit", msg->op);
        v->env.fail(v->env.context, error);
        answer(v, msg, SIMTX_STATUS_COMMAND_ERROR, 0, now);
        return true;
    }
    }
    simtx_msg *response = answer(v, msg, SIMTX_STATUS_OK, aux, now);
    if (msg->op == SIMTX_OP_VERSION_ACQUIRE) response->transaction_id = (uint32_t)boundary; /* its snapshot boundary (version.h) */
    return true;
}

/* A snapshot read's answer aux (version.h): the slice's epoch above the
 * read stamp, the handle's timestamp + 1 (ldst.h: the lowest stamp of a
 * load's reads reaches the TM side), or 0 when the handle's epoch is over
 * (the newest readable version was read instead). */
static uint64_t snapshot_answer(const vit *v, const simtx_msg *msg)
{
    uint64_t stamp = version_handle_epoch(msg->aux) != v->table.epoch ? 0 : msg->transaction_id + UINT64_C(1);
    return version_handle(v->table.epoch, stamp < UINT32_MAX ? stamp : UINT32_MAX);
}

/* Forwards an access (translated) under this slice's identity. Returns
 * false when it must wait: for room, or (held = true) for an S2 version. */
static bool forward_access(vit *v, const simtx_msg *msg, bool *wait_version, uint64_t now)
{
    *wait_version = false;
    const simtx_op_info *op = simtx_op_info_of(msg->op);
    bool answered = op->answered;
    if (msg_queue_full(&v->down) || (answered && !v->free_pending_count)) return false;
    bool snapshot = msg->op == SIMTX_OP_READ && (msg->flags & SIMTX_FLAG_SNAPSHOT);
    bool writes = msg->op != SIMTX_OP_READ;
    /* a snapshot read's handle: its epoch in aux bits 32-63, its timestamp in transaction_id (version.h) */
    uint64_t address, handle = snapshot ? version_handle(version_handle_epoch(msg->aux), msg->transaction_id) : msg->aux;
    vit_route route = vit_table_route(&v->table, msg->address, snapshot, &handle, writes, &address);
    if (route == VIT_WAIT) {
        *wait_version = true;
        return false;
    }
    if (route == VIT_GONE) {
        char error[200];
        snprintf(error, sizeof error, "vit: snapshot read at 0x%" PRIx64 " with handle 0x%" PRIx64 ": no version of the region serves it (not acquired?)",
                 msg->address, msg->aux);
        v->env.fail(v->env.context, error);
    }
    simtx_msg *out = msg_queue_push_slot(&v->down, now);
    *out = *msg;
    out->address = address;
    if (snapshot) out->aux = snapshot_answer(v, msg); /* the L2 answers it: the snapshot read */
    out->handle = NULL;
    if (answered) {
        unsigned index = v->free_pending[--v->free_pending_count];
        simtx_msg_copy_header(&v->pending[index], msg);
        out->id = VIT_ID_TAG | index;
        out->route_depth = 0;
    }
    v->stats.accesses++;
    return true;
}

/* Handles one message; false: it must wait (for room, or as `*wait`). */
static bool handle(vit *v, const simtx_msg *msg, bool *wait, uint64_t now)
{
    *wait = false;
    if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_VERSION) return serve_version_op(v, msg, now);
    return forward_access(v, msg, wait, now);
}

/* Held messages, in order: each waits while an earlier one of a scope it
 * meets still waits. */
static void drain_held(vit *v, uint64_t now)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < v->held_count; i++) {
        simtx_msg *msg = &v->held[i];
        bool blocked = false;
        for (unsigned j = 0; j < kept && !blocked; j++) blocked = must_follow(v, msg, &v->held[j]);
        bool wait;
        if (!blocked && handle(v, msg, &wait, now)) continue;
        if (kept != i) v->held[kept] = *msg;
        kept++;
    }
    v->held_count = kept;
}

static void issue_copies(vit *v, uint64_t now)
{
    int region;
    uint64_t source, target;
    while (!msg_queue_full(&v->down) && vit_table_next_copy(&v->table, &region, &source, &target)) {
        simtx_msg copy;
        simtx_msg_init(&copy, SIMTX_OP_VERSION_COPY, source, (uint32_t)v->table.regions[region].size);
        copy.aux = target;
        copy.id = VIT_ID_TAG | VIT_ID_COPY | (uint64_t)region;
        msg_queue_push(&v->down, &copy, now);
    }
}

/* Messages that never wait for a slot: a RELEASE, and a snapshot read (it
 * reads an S3 version its snapshot pins). */
static bool never_waits(const simtx_msg *msg)
{
    return msg->op == SIMTX_OP_VERSION_RELEASE || (msg->op == SIMTX_OP_READ && (msg->flags & SIMTX_FLAG_SNAPSHOT));
}

/* The hold buffer is full and the input's head must wait: the first
 * RELEASE or snapshot read behind it goes first. Either may be what frees
 * the slot the held writes wait for: with 2 versions under SITM_Oracle
 * the commit units' write-backs filled the buffer, and the releases that
 * would free the older version queued behind them; and a running
 * transaction's snapshot read queued behind them while that transaction
 * pinned the older version (it releases only at its end). It passes
 * accesses only, never another version op. */
static bool pass_full_hold(vit *v, uint64_t now)
{
    msg_queue *q = &v->input;
    for (size_t p = 1; p < q->length; p++) {
        size_t slot = msg_queue_slot(q, p);
        const simtx_msg *msg = &q->messages[slot];
        if (!never_waits(msg)) {
            if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_VERSION) return false;
            continue;
        }
        bool wait;
        if (q->ready_cycles[slot] > now || !handle(v, msg, &wait, now)) return false;
        for (; p + 1 < q->length; p++) { /* close the gap */
            size_t to = msg_queue_slot(q, p), from = msg_queue_slot(q, p + 1);
            q->messages[to] = q->messages[from];
            q->ready_cycles[to] = q->ready_cycles[from];
        }
        q->length--;
        return true;
    }
    return false;
}

static uint64_t vit_cycle(void *core, uint64_t now)
{
    vit *v = core;
    if (v->held_count) v->stats.hold_cycles += now - v->now; /* held since the last cycle */
    v->now = now;
    if (!v->up_blocked && !msg_queue_empty(&v->up) && msg_queue_front_ready(&v->up) <= now) {
        if (v->env.send(v->env.context, PORT_UPSTREAM, msg_queue_front(&v->up))) msg_queue_pop(&v->up);
        else v->up_blocked = true;
    }
    drain_held(v, now);
    /* One message a cycle from the input: into the held buffer when an
     * earlier held message of its scope waits, or when it waits itself. */
    if (!msg_queue_empty(&v->input) && msg_queue_front_ready(&v->input) <= now) {
        simtx_msg *msg = msg_queue_front(&v->input);
        bool behind = false;
        for (unsigned j = 0; j < v->held_count && !behind; j++) behind = must_follow(v, msg, &v->held[j]);
        bool wait = false, done = !behind && handle(v, msg, &wait, now);
        if (!done && (behind || wait) && v->held_count < (unsigned)v->params.hold_depth) {
            v->held[v->held_count++] = *msg;
            v->stats.held_accesses++;
            done = true;
        }
        bool passed = !done && v->held_count == (unsigned)v->params.hold_depth && pass_full_hold(v, now);
        if (done) msg_queue_pop(&v->input);
        if (done || passed) {
            if (v->refused && v->env.room) {
                v->refused = false;
                v->env.room(v->env.context, PORT_UPSTREAM);
            }
        }
    }
    issue_copies(v, now);
    if (!v->down_blocked && !msg_queue_empty(&v->down) && msg_queue_front_ready(&v->down) <= now) {
        if (v->env.send(v->env.context, PORT_DOWNSTREAM, msg_queue_front(&v->down))) msg_queue_pop(&v->down);
        else v->down_blocked = true;
    }
    note_states(v, now);

    uint64_t next = SIMTX_NEVER;
    if (!v->up_blocked && !msg_queue_empty(&v->up)) next = now + 1;
    if (!v->down_blocked && !msg_queue_empty(&v->down)) next = now + 1;
    if (!msg_queue_empty(&v->input)) {
        uint64_t ready = msg_queue_front_ready(&v->input);
        ready = ready > now ? ready : now + 1;
        if (ready < next) next = ready;
    }
    /* Held messages wait for a copy's answer, a release (an arrival) or room
     * (a port freeing, a response arriving), each of which wakes this core. */
    return next;
}

static void vit_port_free(void *core, unsigned port)
{
    vit *v = core;
    if (port == PORT_UPSTREAM) v->up_blocked = false;
    else v->down_blocked = false;
}

static void vit_finish(void *core, uint64_t now)
{
    vit *v = core;
    for (unsigned s = VIT_S1; s < VIT_STATE_COUNT; s++) simtx_time_average_close(&v->stats.versions_in[s], now);
}

/* Host accesses pass on to the L2, at the addresses the table gives. */
static size_t vit_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = PORT_DOWNSTREAM;
    return 0;
}

static unsigned vit_debug_translate(void *core, bool is_write, uint64_t address, uint64_t *to, unsigned capacity)
{
    uint64_t found[2];
    unsigned count = vit_table_host_addresses(&((vit *)core)->table, address, is_write, found);
    if (count > capacity) count = capacity;
    memcpy(to, found, count * sizeof *to);
    return count;
}

void vit_layout(const void *core, uint64_t *stride, uint64_t *align, unsigned *versions, uint64_t *free_from)
{
    const vit_table *t = &((const vit *)core)->table;
    *stride = t->stride;
    *align = t->align;
    *versions = t->versions;
    *free_from = 0;
    for (unsigned i = 0; i < t->count; i++) {
        const vit_region *r = &t->regions[i];
        uint64_t versions_end = r->base + (uint64_t)t->versions * t->stride, relocated_end = r->relocated + (t->versions - 1) * r->size;
        if (versions_end > *free_from) *free_from = versions_end;
        if (relocated_end > *free_from) *free_from = relocated_end;
    }
}

bool vit_register(void *core, uint64_t base, uint64_t size, uint64_t relocated, char *error, size_t error_size)
{
    vit *v = core;
    if (vit_table_register(&v->table, base, size, relocated, error, error_size) < 0) {
        v->stats.refused_regions++;
        return false;
    }
    v->stats.registered++;
    return true;
}

static void vit_describe_pending(void *core, char *text, size_t size)
{
    const vit *v = core;
    unsigned waiting = 0;
    for (unsigned i = 0; i < v->table.count; i++) waiting += v->table.regions[i].copy == VIT_COPY_WAIT_SLOT;
    snprintf(text, size, "input %zu, held %u (for an S2 version), regions waiting for a free slot %u, forwarded %u, responses %zu",
             v->input.length, v->held_count, waiting, (unsigned)v->params.pending_entries - v->free_pending_count, v->up.length);
}

const simtx_block_info vit_block_info = {
    .name = "vit",
    .summary = "SI-TM Version Index Table slice: versioned regions, version states S1-S4, translation and relocation",
    .params = &vit_param_table,
    .sockets = vit_sockets,
    .socket_count = 2,
    .create = vit_create,
    .destroy = vit_destroy,
    .accept = vit_accept,
    .cycle = vit_cycle,
    .port_free = vit_port_free,
    .finish = vit_finish,
    .describe_pending = vit_describe_pending,
    .debug_access = vit_debug_access,
    .debug_translate = vit_debug_translate,
};
