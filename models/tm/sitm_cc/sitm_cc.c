/* sitm_cc.c: SI-TM's concurrency control as a block (protocols/sitm.h): the
 * order in which SI_BEGIN, SI_ACCESS and SI_END are served, their costs,
 * the held SI_BEGINs, the doomed transactions of a timestamp overflow, the
 * words each ID entered (dropped at SI_END), pass-through of every other
 * message, statistics and probes. The tables' rules are wt_table.c's,
 * srl_table.c's and lts_postdate.c's. */
#include "sitm_cc.h"

#include "assoc_table.h"
#include "lts_postdate.h"
#include "msg_queue.h"
#include "sitm.h"
#include "sitm_ddg.h"
#include "srl_table.h"
#include "wt_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(sitm_cc_params, field)

static const simtx_param_spec sitm_cc_param_specs[] = {
    {"wt_entries", SIMTX_PARAM_INT, "3000", "entries", 1, 1 << 24, NULL, "Writer Table entries (Table 1: 3000 of 40 bits, 15 KB)", PARAM(wt_entries)},
    {"wt_ways", SIMTX_PARAM_INT, "8", "ways", 1, 1 << 24, NULL, "its associativity (must divide wt_entries; the paper gives none); a word whose set is full is refused: overflow", PARAM(wt_ways)},
    {"srl_bytes", SIMTX_PARAM_INT, "740KiB", "bytes", 9, 1LL << 32, NULL, "Scalable Reader List storage (Table 1: 740 KB of 69-bit entries = 87,856)", PARAM(srl_bytes)},
    {"srl_ways", SIMTX_PARAM_INT, "16", "ways", 1, 1 << 24, NULL, "its associativity (must divide its entries; the paper's SCD/ZCache array is highly associative)", PARAM(srl_ways)},
    {"ids", SIMTX_PARAM_INT, "1024", "transactions", 1, SITM_MAX_IDS, NULL, "transaction IDs and timestamp table entries (1024; the Reader List's limit)", PARAM(ids)},
    {"timestamp_bits", SIMTX_PARAM_INT, "24", "bits", 4, 31, NULL, "width of CTS, PDTS and PrevTS (section 4.3: 24); past it every running transaction aborts and the table restarts", PARAM(timestamp_bits)},
    {"delta", SIMTX_PARAM_INT, "10", "", 1, 1 << 20, NULL, "post-dating increment (Figure 7: 10)", PARAM(delta)},
    {"latency", SIMTX_PARAM_INT, "2", "cycles", 0, 1e6, NULL, "cycles from a message's service to its response", PARAM(latency)},
    {"entries_per_cycle", SIMTX_PARAM_INT, "1", "entries", 1, 1024, NULL, "table accesses per cycle (one entry of SI_ACCESS or SI_END each)", PARAM(entries_per_cycle)},
    {"edges_per_cycle", SIMTX_PARAM_INT, "1", "edges", 1, 1024, NULL, "post-datings per cycle (each reads and writes two timestamp entries)", PARAM(edges_per_cycle)},
    {"queue_depth", SIMTX_PARAM_INT, "16", "messages", 1, 4096, NULL, "input, pass-through and answer queues", PARAM(queue_depth)},
    {"loops", SIMTX_PARAM_ENUM, "postdate", "", 0, 0, "postdate|exact",
     "loop detection, chosen once: postdate (SITM_TS: the tables, post-dating, single writer) or exact (SITM_Oracle, section 6: "
     "sitm_ddg's exact dependency graph, no single-writer rule, unbounded, served at no cost: set latency 0)", PARAM(loops)},
};

static const simtx_param_table sitm_cc_param_table = {
    sitm_cc_param_specs, sizeof sitm_cc_param_specs / sizeof sitm_cc_param_specs[0], sizeof(sitm_cc_params)};

enum { PORT_UPSTREAM, PORT_DOWNSTREAM };

static const simtx_socket_spec sitm_cc_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "sitm.h requests and everything else in, responses out (from the crossbar or a commit unit)", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "everything but sitm.h on towards the L2 (a VIT slice, the L2)", false},
};

/* A word an ID entered: its Writer Table entry or its Reader List bit. */
typedef struct sitm_word {
    uint32_t word;
    uint8_t kind;
} sitm_word;

typedef struct sitm_id {
    sitm_word *words;
    uint32_t count, capacity;
    uint32_t snapshot;   /* its snapshot's point: it sees exactly the commit IDs up to it */
    uint32_t snapshot_c; /* its snapshot C as SI_ACCESS carries it (point + 1), 0 until the first access: readers per snapshot */
    bool running, doomed;
    bool admitted; /* an ADMIT form let it in: its ADMITTED form starts it (sitm.h 1) */
    uint8_t verdict; /* the first verdict other than SITM_OK of its attempt: later entries get it at once */
} sitm_id;

/* The last commits of a word's writers: commit IDs and final timestamps
 * (points), lowest ID first (a word's committed writers' points rise with
 * their IDs: first committer wins). */
#define HISTORY 4
typedef struct sitm_history {
    uint64_t word;
    uint32_t cid[HISTORY];
    uint32_t point[HISTORY];
    uint32_t count;
} sitm_history;

typedef struct sitm_cc sitm_cc;

/* The loop-detection slot, chosen once at creation (parameter `loops`):
 * post-dating with the tables (SITM_TS) or the exact graph (SITM_Oracle). */
typedef struct sitm_cc_policy {
    void (*begin)(sitm_cc *c, unsigned id);
    uint8_t (*access)(sitm_cc *c, sitm_id *t, unsigned id, const sitm_entry *e, uint64_t *edges);
    void (*end)(sitm_cc *c, unsigned id, bool committed, uint32_t cid); /* after the tables dropped its entries */
    bool free; /* served in no time (SITM_Oracle: "no cost") */
} sitm_cc_policy;

struct sitm_cc {
    sitm_cc_params params;
    const sitm_cc_policy *policy;
    sitm_ddg ddg;             /* exact: the dependency graph; postdate: the same graph as a monitor (statistics only) */
    assoc_table snapshots;    /* snapshots read so far (readers per snapshot) */
    simtx_env env;
    wt_table wt;
    srl_table srl;
    lts_postdate lts;
    sitm_id *ids;
    uint16_t readers[SRL_MAX_READERS];
    msg_queue input, down, up, answers;
    bool down_blocked, up_blocked;
    simtx_msg *held; /* SI_BEGINs waiting for room (or a reset) */
    size_t held_count, held_capacity;
    uint32_t doomed;    /* running transactions a timestamp overflow doomed */
    uint32_t ended_upto; /* every commit ID up to it has ended (SI_END) */
    uint8_t *ended;      /* commit IDs above it that ended: a ring, ended[cid & (ended_capacity - 1)] */
    uint32_t ended_capacity;
    sitm_history *history; /* committed writers per word (open addressing on word + 1; 0 empty) */
    size_t history_capacity, history_count;
    assoc_table reader_points; /* word -> the largest final timestamp of its committed readers */
    bool serial;        /* after a table overflow: drain, then one transaction at a time */
    int32_t serial_id;  /* the one admitted (-1: none yet) */
    bool reset_pending; /* the timestamp table restarts once they all ended */
    uint32_t reserved;  /* IDs admitted and not yet started (sitm.h 1) */
    uint64_t busy_until;
    struct {
        uint64_t admitted, begin_waits, alone_requests, committed_edges, history_misses, serial_rounds, begins, held_begins, ends, commits, accesses, reads, writes, edges, loops, single_writer;
        uint64_t wt_overflows, srl_overflows, lts_overflows, resets, doomed_entries, stale_entries, requests_passed, responses_passed;
        uint64_t wt_peak, srl_peak;
        uint64_t snapshot_readers, snapshots_read, true_loops, false_alarms, missed_loops;
        simtx_histogram readers_per_write;
    } stats;
    struct {
        uint64_t wt_occupancy, srl_occupancy, running, overflowed;
    } probes;
};

static void sitm_cc_destroy(void *core);
extern const sitm_cc_policy sitm_cc_postdate, sitm_cc_exact;
static void note_snapshot(sitm_cc *c, sitm_id *t, unsigned id, uint32_t snapshot);

static void *sitm_cc_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const sitm_cc_params *p = params;
    sitm_cc *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->params = *p;
    c->env = *env;
    c->serial_id = -1;
    char why[160] = "";
    if (!wt_table_init(&c->wt, (uint32_t)p->wt_entries, (uint32_t)p->wt_ways, why, sizeof why)) {
        snprintf(error, error_size, "wt_entries/wt_ways: %s", why);
        sitm_cc_destroy(c);
        return NULL;
    }
    if (!srl_table_init(&c->srl, srl_entries_in_bytes((uint64_t)p->srl_bytes), (uint32_t)p->srl_ways, why, sizeof why)) {
        snprintf(error, error_size, "srl_bytes/srl_ways (%u entries): %s", srl_entries_in_bytes((uint64_t)p->srl_bytes), why);
        sitm_cc_destroy(c);
        return NULL;
    }
    if (!lts_postdate_init(&c->lts, (unsigned)p->ids, (unsigned)p->timestamp_bits, (uint32_t)p->delta, why, sizeof why)) {
        snprintf(error, error_size, "timestamp table: %s", why);
        sitm_cc_destroy(c);
        return NULL;
    }
    c->policy = strcmp(p->loops ? p->loops : "postdate", "exact") ? &sitm_cc_postdate : &sitm_cc_exact;
    if (!sitm_ddg_init(&c->ddg, (unsigned)p->ids, why, sizeof why)) {
        snprintf(error, error_size, "dependency graph: %s", why);
        sitm_cc_destroy(c);
        return NULL;
    }
    if (!assoc_table_init(&c->reader_points, 4096, 4, true) || !assoc_table_init(&c->snapshots, 1024, 4, true)) {
        snprintf(error, error_size, "out of memory");
        sitm_cc_destroy(c);
        return NULL;
    }
    c->ids = calloc((size_t)p->ids, sizeof *c->ids);
    size_t depth = (size_t)p->queue_depth;
    if (!c->ids || !msg_queue_init(&c->input, depth) || !msg_queue_init(&c->down, depth) || !msg_queue_init(&c->up, depth) ||
        !msg_queue_init(&c->answers, depth)) {
        snprintf(error, error_size, "out of memory");
        sitm_cc_destroy(c);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "begins", &c->stats.begins, "transactions", "transactions started (SI_BEGIN lanes)");
    simtx_observe_counter(o, "begin_waits", &c->stats.begin_waits, "messages", "SI_BEGINs with a pinned snapshot answered WAIT while new transactions were kept out (sitm.h 1: a held begin pins no version)");
    simtx_observe_counter(o, "admitted", &c->stats.admitted, "messages", "ADMIT forms let in (the transactions answered WAIT, admitted before they acquire their snapshot again)");
    simtx_observe_counter(o, "held_begins", &c->stats.held_begins, "messages", "SI_BEGINs held: ADMIT forms while a table was overflowed or a timestamp reset was pending (new transactions wait), and begins waiting for their snapshot's commit IDs to end");
    simtx_observe_counter(o, "committed_edges", &c->stats.committed_edges, "edges", "edges to committed transactions (a stale read of a word they overwrote, a write of a word they read), post-dated against their final timestamps");
    simtx_observe_counter(o, "history_misses", &c->stats.history_misses, "reads", "stale reads whose first overwriting commit left the per-word history: a loop, conservatively");
    simtx_observe_counter(o, "alone_requests", &c->stats.alone_requests, "messages", "SI_BEGINs of warps whose attempts committed no lane 8 times in a row, asking to run alone (progress: one transaction at a time until one ended alone)");
    simtx_observe_counter(o, "serial_rounds", &c->stats.serial_rounds, "transactions", "transactions admitted alone after a table overflow (the progress guarantee)");
    simtx_observe_counter(o, "ends", &c->stats.ends, "transactions", "transactions ended (SI_END lanes)");
    simtx_observe_counter(o, "commits", &c->stats.commits, "transactions", "of them committed");
    simtx_observe_counter(o, "accesses", &c->stats.accesses, "entries", "SI_ACCESS entries served");
    simtx_observe_counter(o, "reads", &c->stats.reads, "entries", "of them reads (Reader List adds)");
    simtx_observe_counter(o, "writes", &c->stats.writes, "entries", "of them writes (Writer Table claims)");
    simtx_observe_counter(o, "edges", &c->stats.edges, "edges", "dependency edges post-dated (reader -> writer)");
    simtx_observe_counter(o, "loops", &c->stats.loops, "edges", "edges that closed a dependency loop (or ran out of timestamp precision): the accessing transaction aborts");
    simtx_observe_counter(o, "single_writer_aborts", &c->stats.single_writer, "entries", "writes refused because another running transaction writes the word (the new writer aborts)");
    simtx_observe_counter(o, "wt_overflows", &c->stats.wt_overflows, "entries", "writes refused because the word's Writer Table set was full (abort and wait)");
    simtx_observe_counter(o, "srl_overflows", &c->stats.srl_overflows, "entries", "reads refused because the Reader List had no entry (abort and wait)");
    simtx_observe_counter(o, "lts_overflows", &c->stats.lts_overflows, "edges", "post-datings past timestamp_bits: every running transaction doomed");
    simtx_observe_counter(o, "lts_resets", &c->stats.resets, "resets", "timestamp table restarts after an overflow");
    simtx_observe_counter(o, "doomed_entries", &c->stats.doomed_entries, "entries", "entries of an aborted or doomed attempt answered at once");
    simtx_observe_counter(o, "stale_entries", &c->stats.stale_entries, "entries", "entries of IDs no longer running (their SI_END overtook them), answered overflow");
    simtx_observe_counter(o, "wt_peak", &c->stats.wt_peak, "entries", "most Writer Table entries in use");
    simtx_observe_counter(o, "srl_peak", &c->stats.srl_peak, "entries", "most Reader List entries in use");
    simtx_observe_counter(o, "requests_passed", &c->stats.requests_passed, "messages", "other requests passed on towards the L2");
    simtx_observe_counter(o, "responses_passed", &c->stats.responses_passed, "messages", "their responses passed back");
    simtx_observe_counter(o, "snapshot_readers", &c->stats.snapshot_readers, "transactions", "attempts that read a snapshot (their SI_ACCESS named one): readers per snapshot = this / snapshots_read (Figure 21)");
    simtx_observe_counter(o, "snapshots_read", &c->stats.snapshots_read, "snapshots", "distinct snapshots the attempts read");
    if (c->policy == &sitm_cc_postdate) {
        simtx_observe_counter(o, "true_loops", &c->stats.true_loops, "edges", "loop verdicts whose access closes a cycle in the exact dependency graph (sitm_ddg as a monitor, no cost): the dependency loops post-dating broke (Figure 19)");
        simtx_observe_counter(o, "false_alarms", &c->stats.false_alarms, "edges", "loop verdicts whose access closes no cycle yet (early alarms, lost precision); loop aborts per loop formed = the tm_units' aborts_loop / (true_loops + unflagged_loops) (Figure 18)");
        simtx_observe_counter(o, "unflagged_loops", &c->stats.missed_loops, "edges", "accesses post-dating accepted that close a cycle in the exact graph (the loop is broken by a later abort of a member: single writer, a loop verdict, the commit units; the SI checker checks the result): loops formed = true_loops + this");
    } else {
        simtx_observe_counter(o, "ddg_edges", &c->ddg.stats.edges, "edges", "exact: dependency edges in the graph (distinct pairs)");
        simtx_observe_counter(o, "ddg_loops", &c->ddg.stats.loops, "edges", "exact: edges that would have closed a cycle (the accessor aborts)");
        simtx_observe_counter(o, "ddg_flips", &c->ddg.stats.flips, "edges", "exact: reader -> writer edges turned round when the writer's commit (below the reader's snapshot) reached the block after the read");
        simtx_observe_counter(o, "ddg_late_loops", &c->ddg.stats.late_loops, "edges", "exact: of them, ones that closed a cycle (the reader doomed, possibly too late)");
        simtx_observe_counter(o, "ddg_ww_doomed", &c->ddg.stats.doomed, "transactions", "exact: writers left out of the graph as losers of a write-write race (the commit units abort them)");
        simtx_observe_counter(o, "ddg_doom_misses", &c->ddg.stats.doom_misses, "transactions", "exact: of them, ones that committed after all (0 when the rule holds)");
        simtx_observe_counter(o, "ddg_pruned", &c->ddg.stats.pruned, "transactions", "exact: committed nodes dropped (closed, no live predecessor)");
        simtx_observe_counter(o, "ddg_stale_snapshots", &c->ddg.stats.stale_snapshots, "transactions", "exact: attempts whose snapshot is at or below a pruned node's commit position (its edges to it unknown; 0: every verdict exact)");
        simtx_observe_counter(o, "ddg_nodes_peak", &c->ddg.stats.nodes_peak, "transactions", "exact: most nodes in the graph");
        simtx_observe_counter(o, "ddg_visited", &c->ddg.stats.visited, "nodes", "exact: nodes visited by cycle searches (the model's work, no simulated cost)");
    }
    simtx_observe_histogram(o, "readers_per_write", &c->stats.readers_per_write, "readers", "running readers of a word at a write (each post-dated)");
    simtx_observe_level_probe(o, "wt_occupancy", &c->probes.wt_occupancy, 16, (uint64_t)p->wt_entries, "Writer Table entries in use");
    simtx_observe_level_probe(o, "srl_occupancy", &c->probes.srl_occupancy, 20, srl_entries_in_bytes((uint64_t)p->srl_bytes), "Reader List entries in use");
    simtx_observe_level_probe(o, "running", &c->probes.running, 11, (uint64_t)p->ids, "running transactions (begun, not ended)");
    simtx_observe_probe(o, "overflowed", &c->probes.overflowed, 1, "a table is overflowed or a timestamp reset is pending: new transactions wait");
    return c;
}

static void sitm_cc_destroy(void *core)
{
    sitm_cc *c = core;
    if (!c) return;
    wt_table_release(&c->wt);
    srl_table_release(&c->srl);
    lts_postdate_release(&c->lts);
    assoc_table_release(&c->reader_points);
    assoc_table_release(&c->snapshots);
    sitm_ddg_release(&c->ddg);
    free(c->history);
    free(c->ended);
    if (c->ids)
        for (int64_t i = 0; i < c->params.ids; i++) free(c->ids[i].words);
    free(c->ids);
    msg_queue_release(&c->input);
    msg_queue_release(&c->down);
    msg_queue_release(&c->up);
    msg_queue_release(&c->answers);
    free(c->held);
    free(c);
}

static simtx_accept_result sitm_cc_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    sitm_cc *c = core;
    msg_queue *q = port == PORT_DOWNSTREAM ? &c->up
                   : simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TM_SI ? &c->input
                                                                             : &c->down;
    if (msg_queue_full(q)) return SIMTX_BUSY;
    msg_queue_push(q, msg, now + (q == &c->input ? 0 : 1));
    return SIMTX_ACCEPTED;
}

static bool table_overflowed(const sitm_cc *c) { return c->serial || c->reset_pending; }

/* A table refused an entry: new transactions wait until every running one
 * ended, then run one at a time until one committed or aborted alone. The
 * paper's rule (new transactions abort and wait until space is freed)
 * livelocks when a warp's lanes overflow the table together and retry
 * together; one transaction alone always fits unless it is too big, which
 * fails the run. */
static void refused(sitm_cc *c, unsigned id, const char *table)
{
    if (c->serial && c->serial_id == (int32_t)id) {
        char text[200];
        snprintf(text, sizeof text, "sitm_cc: transaction %u alone does not fit the %s (wt_entries %lld / wt_ways %lld, srl_bytes %lld / srl_ways %lld)",
                 id, table, (long long)c->params.wt_entries, (long long)c->params.wt_ways, (long long)c->params.srl_bytes,
                 (long long)c->params.srl_ways);
        c->env.fail(c->env.context, text);
    }
    c->serial = true;
}

/* Whether new transactions may come in: no reset is pending, and in
 * serial mode the begin is the one admitted alone, or nothing runs, none
 * was admitted and no earlier ADMIT form waits (`queued`). A begin with a
 * pinned snapshot that may not is answered WAIT, never held: a held one
 * would keep its version from being recycled while the transactions it
 * waits for wait at a VIT slice for a version slot (sitm.h 1). */
static bool admits(const sitm_cc *c, const simtx_msg *begin, bool queued)
{
    if (c->reset_pending) return false;
    int32_t lowest = begin->lane_mask ? (int32_t)(begin->transaction_id + (uint64_t)__builtin_ctzll(begin->lane_mask)) : -1;
    if (sitm_begin_form(begin) == SITM_BEGIN_ADMITTED && lowest >= 0 && lowest < c->params.ids && c->ids[lowest].admitted)
        return true; /* let in before: a serial drain waits for it as for a running one */
    if (!c->serial) return true;
    if (c->serial_id >= 0) return c->serial_id == lowest;
    return c->probes.running == 0 && c->reserved == 0 && !queued;
}

/* The lanes' admissions end (they started, or were answered WAIT). */
static void unreserve(sitm_cc *c, const simtx_msg *begin)
{
    for (uint64_t m = begin->lane_mask; m; m &= m - 1) {
        uint64_t id = begin->transaction_id + (uint64_t)__builtin_ctzll(m);
        if (id < (uint64_t)c->params.ids && c->ids[id].admitted) {
            c->ids[id].admitted = false;
            c->reserved--;
        }
    }
}

/* Whether an admitted SI_BEGIN may start now: every commit ID its snapshot
 * holds has ended here (so no transaction it sees still holds table
 * entries, and the timestamps of all of them are final). */
static bool may_start(const sitm_cc *c, const simtx_msg *begin) { return begin->aux <= c->ended_upto; }

/* ADMIT forms held (waiting to be admitted). */
static bool admit_queued(const sitm_cc *c)
{
    for (size_t i = 0; i < c->held_count; i++)
        if (sitm_begin_form(&c->held[i]) == SITM_BEGIN_ADMIT) return true;
    return false;
}

/* An ADMIT form is let in: the lanes that may start (in serial mode the
 * lowest, reserved as the one to run alone until its SI_END). */
static uint64_t admit(sitm_cc *c, const simtx_msg *msg)
{
    uint64_t lanes = msg->lane_mask;
    if (c->serial && lanes) {
        lanes &= -lanes;
        c->serial_id = (int32_t)(msg->transaction_id + (uint64_t)__builtin_ctzll(lanes));
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint64_t id = msg->transaction_id + (uint64_t)__builtin_ctzll(m);
        if (id < (uint64_t)c->params.ids && !c->ids[id].admitted) {
            c->ids[id].admitted = true;
            c->reserved++;
        }
    }
    c->stats.admitted++;
    return lanes;
}

/* Commit ID `cid` ended (committed, or failed at the commit units). */
static void cid_ended(sitm_cc *c, uint32_t cid)
{
    if (cid <= c->ended_upto) {
        c->env.fail(c->env.context, "sitm_cc: an SI_END names a commit ID that ended already");
        return;
    }
    if (cid - c->ended_upto > c->ended_capacity) { /* grow the ring to reach it */
        uint32_t capacity = c->ended_capacity ? c->ended_capacity : 1024;
        while (cid - c->ended_upto > capacity) capacity *= 2;
        uint8_t *ended = calloc(capacity, 1);
        if (!ended) {
            c->env.fail(c->env.context, "sitm_cc: out of memory");
            return;
        }
        for (uint32_t k = 1; k <= c->ended_capacity; k++) {
            uint32_t id = c->ended_upto + k;
            ended[id & (capacity - 1)] = c->ended[id & (c->ended_capacity - 1)];
        }
        free(c->ended);
        c->ended = ended;
        c->ended_capacity = capacity;
    }
    c->ended[cid & (c->ended_capacity - 1)] = 1;
    while (c->ended_capacity && c->ended[(c->ended_upto + 1) & (c->ended_capacity - 1)]) {
        c->ended[(c->ended_upto + 1) & (c->ended_capacity - 1)] = 0;
        c->ended_upto++;
    }
}

static void note_levels(sitm_cc *c)
{
    c->probes.wt_occupancy = wt_table_used(&c->wt);
    c->probes.srl_occupancy = srl_table_used(&c->srl);
    c->probes.overflowed = table_overflowed(c);
    if (c->probes.wt_occupancy > c->stats.wt_peak) c->stats.wt_peak = c->probes.wt_occupancy;
    if (c->probes.srl_occupancy > c->stats.srl_peak) c->stats.srl_peak = c->probes.srl_occupancy;
}

/* The IDs of a BEGIN's or END's lanes; false (run failed) when one is out of range. */
static bool id_of(sitm_cc *c, const simtx_msg *msg, unsigned lane, unsigned *id)
{
    uint64_t v = (uint64_t)msg->transaction_id + lane;
    if (v >= (uint64_t)c->params.ids) {
        char text[160];
        snprintf(text, sizeof text, "sitm_cc: transaction ID %llu of core %d warp %d is past ids (%lld)", (unsigned long long)v,
                 msg->core, msg->warp, (long long)c->params.ids);
        c->env.fail(c->env.context, text);
        return false;
    }
    *id = (unsigned)v;
    return true;
}

/* Starts the lanes of an SI_BEGIN (in serial mode only its lowest); returns
 * the lanes started (its response's aux). */
static uint64_t start(sitm_cc *c, const simtx_msg *msg)
{
    uint64_t lanes = msg->lane_mask, admitted = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint64_t id = msg->transaction_id + (uint64_t)__builtin_ctzll(m);
        if (id < (uint64_t)c->params.ids && c->ids[id].admitted) admitted |= m & -m;
    }
    unreserve(c, msg);
    if (admitted) lanes = admitted; /* the lanes its ADMIT form let in (in serial mode the one reserved) */
    else if (c->serial && lanes) lanes &= -lanes;
    for (uint64_t m = lanes; m; m &= m - 1) {
        unsigned id;
        if (!id_of(c, msg, (unsigned)__builtin_ctzll(m), &id)) return 0;
        sitm_id *t = &c->ids[id];
        if (t->running) {
            c->env.fail(c->env.context, "sitm_cc: SI_BEGIN of a transaction ID that is still running (no SI_END)");
            return 0;
        }
        t->running = true;
        t->doomed = false;
        t->verdict = SITM_OK;
        t->count = 0;
        t->snapshot = (uint32_t)msg->aux;
        t->snapshot_c = 0;
        c->policy->begin(c, id);
        c->stats.begins++;
        c->probes.running++;
        if (c->serial && (!admitted || c->serial_id == (int32_t)id)) {
            c->serial_id = (int32_t)id;
            c->stats.serial_rounds++;
        }
    }
    return lanes;
}

static bool remember(sitm_cc *c, sitm_id *t, uint32_t word, uint8_t kind)
{
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? 2 * t->capacity : 16;
        sitm_word *words = realloc(t->words, capacity * sizeof *words);
        if (!words) {
            c->env.fail(c->env.context, "sitm_cc: out of memory");
            return false;
        }
        t->words = words;
        t->capacity = capacity;
    }
    t->words[t->count++] = (sitm_word){word, kind};
    return true;
}

/* A timestamp past its width: every running transaction is doomed. */
static void doom_all(sitm_cc *c)
{
    c->stats.lts_overflows++;
    if (c->reset_pending) return;
    c->reset_pending = true;
    for (int64_t i = 0; i < c->params.ids; i++) {
        if (!c->ids[i].running) continue;
        c->ids[i].doomed = true;
        if (c->ids[i].verdict == SITM_OK) c->ids[i].verdict = SITM_OVERFLOW;
        c->doomed++;
    }
}

/* Post-dates pred -> succ; the verdict for the accessing transaction. */
static uint8_t postdate(sitm_cc *c, unsigned pred, unsigned succ, uint64_t *edges)
{
    (*edges)++;
    c->stats.edges++;
    switch (lts_postdate_edge(&c->lts, pred, succ)) {
    case LTS_LOOP: c->stats.loops++; return SITM_LOOP;
    case LTS_OVERFLOW: doom_all(c); return SITM_OVERFLOW;
    default: return SITM_OK;
    }
}

static size_t history_home(uint64_t word, size_t capacity)
{
    return (size_t)((word * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (capacity - 1);
}

static sitm_history *history_find(const sitm_cc *c, uint64_t word)
{
    if (!c->history_capacity) return NULL;
    for (size_t i = history_home(word, c->history_capacity);; i = (i + 1) & (c->history_capacity - 1)) {
        if (!c->history[i].word) return NULL;
        if (c->history[i].word == word + 1) return &c->history[i];
    }
}

static sitm_history *history_take(sitm_cc *c, uint64_t word)
{
    sitm_history *h = history_find(c, word);
    if (h) return h;
    if (2 * (c->history_count + 1) > c->history_capacity) {
        size_t capacity = c->history_capacity ? 2 * c->history_capacity : 1024;
        sitm_history *old = c->history, *bigger = calloc(capacity, sizeof *bigger);
        if (!bigger) {
            c->env.fail(c->env.context, "sitm_cc: out of memory");
            return NULL;
        }
        size_t old_capacity = c->history_capacity;
        c->history = bigger;
        c->history_capacity = capacity;
        for (size_t i = 0; i < old_capacity; i++) {
            if (!old[i].word) continue;
            size_t j = history_home(old[i].word - 1, capacity);
            while (bigger[j].word) j = (j + 1) & (capacity - 1);
            bigger[j] = old[i];
        }
        free(old);
    }
    size_t i = history_home(word, c->history_capacity);
    while (c->history[i].word) i = (i + 1) & (c->history_capacity - 1);
    c->history[i] = (sitm_history){.word = word + 1};
    c->history_count++;
    return &c->history[i];
}

static void history_add(sitm_cc *c, uint64_t word, uint32_t cid, uint32_t point)
{
    sitm_history *h = history_take(c, word);
    if (!h) return;
    uint32_t at = h->count; /* in commit-ID order (SI_ENDs may come out of it) */
    while (at && h->cid[at - 1] > cid) at--;
    if (h->count == HISTORY) { /* the lowest ID leaves */
        if (at == 0) return;
        memmove(h->cid, h->cid + 1, (HISTORY - 1) * sizeof *h->cid);
        memmove(h->point, h->point + 1, (HISTORY - 1) * sizeof *h->point);
        h->count--;
        at--;
    }
    memmove(h->cid + at + 1, h->cid + at, (h->count - at) * sizeof *h->cid);
    memmove(h->point + at + 1, h->point + at, (h->count - at) * sizeof *h->point);
    h->cid[at] = cid;
    h->point[at] = point;
    h->count++;
}

/* The committed transactions' part of the tables: after a timestamp reset
 * their points mean nothing (and no running transaction saw them run). */
static void forget_committed(sitm_cc *c)
{
    free(c->history);
    c->history = NULL;
    c->history_capacity = c->history_count = 0;
    assoc_table_release(&c->reader_points);
    if (!assoc_table_init(&c->reader_points, 4096, 4, true)) c->env.fail(c->env.context, "sitm_cc: out of memory");
}

static uint8_t verdict_of(sitm_cc *c, lts_verdict v)
{
    switch (v) {
    case LTS_LOOP: c->stats.loops++; return SITM_LOOP;
    case LTS_OVERFLOW: doom_all(c); return SITM_OVERFLOW;
    default: return SITM_OK;
    }
}

/* A transaction answered a verdict that aborts it (not the doom of a
 * timestamp overflow, which it may survive): it will never commit, so an
 * edge with it orders nothing. Post-dating it anyway leaves phantom
 * constraints on the others: in a lockstep warp the lane the Writer Table
 * let through then closed a "loop" with lanes already aborting, every
 * round (GraphCut made 4 commits in 49,066 attempts). */
static bool aborting(const sitm_cc *c, unsigned id)
{
    const sitm_id *t = &c->ids[id];
    return t->verdict != SITM_OK && !t->doomed;
}

static uint8_t serve_read(sitm_cc *c, sitm_id *t, unsigned id, uint32_t word, uint64_t *edges)
{
    c->stats.reads++;
    if (srl_table_add(&c->srl, word, id) != SRL_OK) {
        c->stats.srl_overflows++;
        refused(c, id, "Reader List");
        return SITM_OVERFLOW;
    }
    if (!remember(c, t, word, SITM_READ)) return SITM_OVERFLOW;
    int writer = wt_table_writer(&c->wt, word);
    if (writer >= 0 && (unsigned)writer != id && !aborting(c, (unsigned)writer)) {
        uint8_t v = postdate(c, id, (unsigned)writer, edges); /* the reader read the version the writer replaces */
        if (v != SITM_OK) return v;
    }
    /* A writer that committed after the reader's snapshot point replaced
     * the version it reads: the reader precedes the first such commit. */
    const sitm_history *h = history_find(c, word);
    if (!h || !h->count || h->cid[h->count - 1] <= t->snapshot) return SITM_OK;
    unsigned first = 0;
    while (first < h->count && h->cid[first] <= t->snapshot) first++;
    (*edges)++;
    c->stats.committed_edges++;
    if (first == 0 && h->count == HISTORY) { /* older commits left the history: which came first is unknown */
        c->stats.history_misses++;
        c->stats.loops++;
        return SITM_LOOP;
    }
    return verdict_of(c, lts_postdate_before_point(&c->lts, id, h->point[first]));
}

static uint8_t serve_write(sitm_cc *c, sitm_id *t, unsigned id, uint32_t word, uint64_t *edges)
{
    c->stats.writes++;
    unsigned owner = 0;
    switch (wt_table_claim(&c->wt, word, id, &owner)) {
    case WT_CONFLICT:
        c->stats.single_writer++;
        return SITM_SINGLE_WRITER;
    case WT_FULL:
        c->stats.wt_overflows++;
        refused(c, id, "Writer Table");
        return SITM_OVERFLOW;
    case WT_TOO_BIG: {
        char text[200];
        snprintf(text, sizeof text, "sitm_cc: transaction %u holds every way of the Writer Table set of word 0x%x (wt_ways %lld): it can never run",
                 id, word, (long long)c->params.wt_ways);
        c->env.fail(c->env.context, text);
        return SITM_OVERFLOW;
    }
    default: break;
    }
    if (!remember(c, t, word, SITM_WRITE)) return SITM_OVERFLOW;
    unsigned n = srl_table_readers(&c->srl, word, c->readers);
    simtx_histogram_add(&c->stats.readers_per_write, n);
    for (unsigned i = 0; i < n; i++) {
        if (c->readers[i] == id || aborting(c, c->readers[i])) continue;
        uint8_t v = postdate(c, c->readers[i], id, edges);
        if (v != SITM_OK) return v;
    }
    /* Committed readers of the word precede the writer (those that committed
     * before it began already do: its start clock is above them). */
    uint32_t point = assoc_table_find(&c->reader_points, word, 0);
    if (!point) return SITM_OK;
    (*edges)++;
    c->stats.committed_edges++;
    return verdict_of(c, lts_postdate_after_point(&c->lts, id, point));
}

/* Serves one SI_ACCESS into its response; returns its entry count. */
static uint64_t serve_access(sitm_cc *c, simtx_msg *msg, uint64_t *edges)
{
    unsigned n = sitm_entry_count(msg);
    for (unsigned k = 0; k < n; k++) {
        sitm_entry e = sitm_get_entry(msg, k);
        uint8_t verdict;
        c->stats.accesses++;
        if (e.id >= c->params.ids || !c->ids[e.id].running) {
            c->stats.stale_entries++; /* its SI_END overtook it */
            verdict = SITM_OVERFLOW;
        } else if (c->ids[e.id].verdict != SITM_OK) {
            c->stats.doomed_entries++;
            verdict = c->ids[e.id].verdict;
        } else {
            sitm_id *t = &c->ids[e.id];
            if (!t->snapshot_c && msg->aux) note_snapshot(c, t, e.id, (uint32_t)msg->aux);
            verdict = c->policy->access(c, t, e.id, &e, edges);
            if (verdict != SITM_OK) t->verdict = verdict;
        }
        sitm_set_verdict(msg, k, verdict);
    }
    simtx_msg_make_response(msg, SIMTX_STATUS_OK);
    note_levels(c);
    return n;
}

static uint64_t serve_end(sitm_cc *c, const simtx_msg *msg)
{
    uint64_t entries = 0;
    for (uint64_t m = msg->lane_mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m), id;
        if (!id_of(c, msg, lane, &id)) return entries;
        sitm_id *t = &c->ids[id];
        uint32_t cid = sitm_end_cid(msg, lane);
        if (cid) cid_ended(c, cid); /* whatever became of the lane: its ID is no longer awaited */
        if (!t->running) continue;
        if (msg->aux >> lane & 1) { /* its words stay known by its final timestamp */
            uint32_t point = c->lts.entries[id].cts;
            for (uint32_t i = 0; i < t->count; i++) {
                bool evicted = false;
                if (t->words[i].kind == SITM_WRITE && cid) history_add(c, t->words[i].word, cid, point);
                else if (!assoc_table_store(&c->reader_points, t->words[i].word, point, 0, &evicted))
                    c->env.fail(c->env.context, "sitm_cc: out of memory");
            }
        }
        for (uint32_t i = 0; i < t->count; i++) {
            if (t->words[i].kind == SITM_WRITE) wt_table_drop(&c->wt, t->words[i].word, id);
            else srl_table_remove(&c->srl, t->words[i].word, id);
        }
        entries += t->count;
        t->count = 0;
        t->running = false;
        c->probes.running--;
        c->stats.ends++;
        if (msg->aux >> lane & 1) {
            c->stats.commits++;
            lts_postdate_commit(&c->lts, id);
            lts_postdate_retire(&c->lts, id); /* its table entries are gone: no edge can reach it again */
        } else {
            lts_postdate_abort(&c->lts, id);
        }
        if (c->policy->end) c->policy->end(c, id, msg->aux >> lane & 1, cid); /* the lane's own commit ID (sitm.h 4) */
        if (t->doomed) {
            t->doomed = false;
            c->doomed--;
        }
        if (c->serial && c->serial_id == (int32_t)id) { /* it ran alone: back to normal */
            c->serial = false;
            c->serial_id = -1;
        }
    }
    if (c->reset_pending && !c->doomed) {
        lts_postdate_reset(&c->lts);
        forget_committed(c);
        c->reset_pending = false;
        c->stats.resets++;
    }
    note_levels(c);
    return entries;
}

static bool answer(sitm_cc *c, simtx_msg *response, uint64_t ready)
{
    return msg_queue_push(&c->answers, response, ready);
}

/* Held SI_BEGINs, in arrival order: ADMIT forms are admitted as admits
 * allows; the others (held for their snapshot's commit IDs) start, or are
 * answered WAIT when new transactions are kept out meanwhile. */
static void release_held(sitm_cc *c, uint64_t now)
{
    size_t kept = 0;
    bool queued = false;
    for (size_t i = 0; i < c->held_count; i++) {
        simtx_msg *m = &c->held[i];
        bool admission = sitm_begin_form(m) == SITM_BEGIN_ADMIT;
        uint64_t aux;
        if (msg_queue_full(&c->answers)) {
            c->held[kept++] = *m;
            continue;
        }
        if (admission) {
            if (!admits(c, m, queued)) {
                queued = true;
                c->held[kept++] = *m;
                continue;
            }
            aux = admit(c, m);
        } else if (!admits(c, m, false)) {
            c->stats.begin_waits++;
            unreserve(c, m);
            aux = SITM_BEGIN_WAIT;
        } else if (may_start(c, m)) {
            aux = start(c, m);
        } else {
            c->held[kept++] = *m;
            continue;
        }
        simtx_msg_make_response(m, SIMTX_STATUS_OK);
        m->aux = aux;
        answer(c, m, now + (uint64_t)c->params.latency);
    }
    c->held_count = kept;
}

static bool hold(sitm_cc *c, const simtx_msg *msg)
{
    if (c->held_count == c->held_capacity) {
        size_t capacity = c->held_capacity ? 2 * c->held_capacity : 16;
        simtx_msg *held = realloc(c->held, capacity * sizeof *held);
        if (!held) {
            c->env.fail(c->env.context, "sitm_cc: out of memory");
            return false;
        }
        c->held = held;
        c->held_capacity = capacity;
    }
    c->held[c->held_count++] = *msg;
    c->stats.held_begins++;
    return true;
}

/* Serves the input's head; false when it must wait (answers full). */
static bool serve(sitm_cc *c, uint64_t now)
{
    if (msg_queue_full(&c->answers)) return false;
    simtx_msg msg = *msg_queue_front(&c->input);
    msg_queue_pop(&c->input);
    uint64_t entries = 0, edges = 0;
    switch (msg.op) {
    case SIMTX_OP_SI_BEGIN: {
        if (msg.size >= 1 && msg.data[0] && !c->serial) { /* a starving transaction: drain, then one at a time */
            c->serial = true;
            c->stats.alone_requests++;
        }
        uint64_t aux;
        if (sitm_begin_form(&msg) == SITM_BEGIN_ADMIT) { /* no snapshot pinned: it may wait here */
            if (!admits(c, &msg, admit_queued(c))) {
                hold(c, &msg);
                c->busy_until = now + 1;
                return true;
            }
            aux = admit(c, &msg);
        } else if (!admits(c, &msg, admit_queued(c))) { /* pinned: never held for admission */
            c->stats.begin_waits++;
            unreserve(c, &msg);
            aux = SITM_BEGIN_WAIT;
        } else if (!may_start(c, &msg)) {
            hold(c, &msg);
            c->busy_until = now + 1;
            return true;
        } else {
            aux = start(c, &msg);
        }
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        msg.aux = aux;
        break;
    }
    case SIMTX_OP_SI_ACCESS: entries = serve_access(c, &msg, &edges); break;
    case SIMTX_OP_SI_END:
        entries = serve_end(c, &msg);
        simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
        break;
    default: simtx_msg_make_response(&msg, SIMTX_STATUS_COMMAND_ERROR); break;
    }
    uint64_t per_entry = (uint64_t)c->params.entries_per_cycle, per_edge = (uint64_t)c->params.edges_per_cycle;
    uint64_t cost = (entries + per_entry - 1) / per_entry + (edges + per_edge - 1) / per_edge;
    if (!cost) cost = 1;
    if (c->policy->free) cost = 0;
    c->busy_until = now + cost;
    answer(c, &msg, now + cost + (uint64_t)c->params.latency);
    if (msg.op == SIMTX_OP_SI_END) release_held(c, now + cost);
    return true;
}

static void send_from(sitm_cc *c, msg_queue *q, unsigned port, bool *blocked, uint64_t now, uint64_t *counter)
{
    while (!*blocked && !msg_queue_empty(q) && msg_queue_front_ready(q) <= now) {
        if (!c->env.send(c->env.context, port, msg_queue_front(q))) {
            *blocked = true;
            return;
        }
        if (counter) (*counter)++;
        msg_queue_pop(q);
    }
}

static uint64_t sitm_cc_cycle(void *core, uint64_t now)
{
    sitm_cc *c = core;
    while (!msg_queue_empty(&c->input) && msg_queue_front_ready(&c->input) <= now && c->busy_until <= now)
        if (!serve(c, now)) break;
    send_from(c, &c->down, PORT_DOWNSTREAM, &c->down_blocked, now, &c->stats.requests_passed);
    /* Responses share the upstream port: passed ones first, then answers. */
    send_from(c, &c->up, PORT_UPSTREAM, &c->up_blocked, now, &c->stats.responses_passed);
    send_from(c, &c->answers, PORT_UPSTREAM, &c->up_blocked, now, NULL);
    uint64_t next = SIMTX_NEVER;
    if (!msg_queue_empty(&c->input)) {
        uint64_t when = msg_queue_front_ready(&c->input);
        if (when < c->busy_until) when = c->busy_until;
        if (when < next) next = when;
    }
    if (!c->down_blocked && !msg_queue_empty(&c->down) && msg_queue_front_ready(&c->down) < next) next = msg_queue_front_ready(&c->down);
    if (!c->up_blocked) {
        if (!msg_queue_empty(&c->up) && msg_queue_front_ready(&c->up) < next) next = msg_queue_front_ready(&c->up);
        if (!msg_queue_empty(&c->answers) && msg_queue_front_ready(&c->answers) < next) next = msg_queue_front_ready(&c->answers);
    }
    return next <= now ? now + 1 : next;
}

static void sitm_cc_port_free(void *core, unsigned port)
{
    sitm_cc *c = core;
    if (port == PORT_DOWNSTREAM) c->down_blocked = false;
    else c->up_blocked = false;
}

static size_t sitm_cc_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = PORT_DOWNSTREAM;
    return 0;
}

static void sitm_cc_describe_pending(void *core, char *text, size_t size)
{
    const sitm_cc *c = core;
    snprintf(text, size, "%zu sitm.h requests queued, %zu SI_BEGINs held (serial %d, reset pending %d, %u doomed), %zu answers, %zu requests and %zu responses passing",
             c->input.length, c->held_count, c->serial, c->reset_pending, c->doomed, c->answers.length,
             c->down.length, c->up.length);
}

/* ---- the loop-detection policies ---- */

/* Readers per snapshot (Figure 21): an attempt's first snapshot. */
static void note_snapshot(sitm_cc *c, sitm_id *t, unsigned id, uint32_t snapshot)
{
    t->snapshot_c = snapshot;
    c->stats.snapshot_readers++;
    bool evicted = false;
    if (!assoc_table_find(&c->snapshots, snapshot, 0)) {
        c->stats.snapshots_read++;
        if (!assoc_table_store(&c->snapshots, snapshot, 1, 0, &evicted)) c->env.fail(c->env.context, "sitm_cc: out of memory");
    }
    sitm_ddg_snapshot(&c->ddg, id, snapshot);
}

static void postdate_begin(sitm_cc *c, unsigned id)
{
    lts_postdate_begin(&c->lts, id);
    sitm_ddg_begin(&c->ddg, id);
}

/* The tables' verdict; the exact graph beside them classifies each loop
 * verdict as a closed cycle or an early alarm, and counts the cycles the
 * tables let close (broken later by another abort) -- no cost, no effect.
 * It leaves out each transaction the tables refused or looped, and the
 * accessor of a cycle they let close (that edge is not added), so after
 * such an access it follows the run approximately. */
static uint8_t postdate_access(sitm_cc *c, sitm_id *t, unsigned id, const sitm_entry *e, uint64_t *edges)
{
    uint8_t v = e->kind == SITM_WRITE ? serve_write(c, t, id, e->word, edges) : serve_read(c, t, id, e->word, edges);
    if (v != SITM_OK && v != SITM_LOOP) {
        sitm_ddg_doom(&c->ddg, id); /* refused (single writer, overflow): it aborts */
        return v;
    }
    bool closes = (e->kind == SITM_WRITE ? sitm_ddg_write(&c->ddg, id, e->word) : sitm_ddg_read(&c->ddg, id, e->word)) == SITM_DDG_LOOP;
    if (v == SITM_LOOP) {
        if (closes) c->stats.true_loops++;
        else c->stats.false_alarms++;
        sitm_ddg_doom(&c->ddg, id);
    } else if (closes) {
        c->stats.missed_loops++;
    }
    return v;
}

static void ddg_end(sitm_cc *c, unsigned id, bool committed, uint32_t cid)
{
    if (committed) sitm_ddg_commit(&c->ddg, id, cid);
    else sitm_ddg_abort(&c->ddg, id);
}

/* SITM_TS: the Writer Table, the Reader List and post-dating (the end's
 * table work is serve_end's). */
const sitm_cc_policy sitm_cc_postdate = {.begin = postdate_begin, .access = postdate_access, .end = ddg_end, .free = false};

static void exact_begin(sitm_cc *c, unsigned id)
{
    lts_postdate_begin(&c->lts, id); /* unused, kept consistent */
    sitm_ddg_begin(&c->ddg, id);
}

/* SITM_Oracle: no tables (no single writer, no overflow), the graph only;
 * a loop verdict exactly when the access's edge would close a cycle. */
static uint8_t exact_access(sitm_cc *c, sitm_id *t, unsigned id, const sitm_entry *e, uint64_t *edges)
{
    (void)t, (void)edges;
    if (e->kind == SITM_WRITE) c->stats.writes++;
    else c->stats.reads++;
    sitm_ddg_verdict v = e->kind == SITM_WRITE ? sitm_ddg_write(&c->ddg, id, e->word) : sitm_ddg_read(&c->ddg, id, e->word);
    if (v != SITM_DDG_LOOP) return SITM_OK;
    c->stats.loops++;
    return SITM_LOOP;
}

const sitm_cc_policy sitm_cc_exact = {.begin = exact_begin, .access = exact_access, .end = ddg_end, .free = true};

const simtx_block_info sitm_cc_block_info = {
    .name = "sitm_cc",
    .summary = "SI-TM's concurrency control: Writer Table, Scalable Reader List and logical timestamp table with post-dating (sitm.h)",
    .params = &sitm_cc_param_table,
    .sockets = sitm_cc_sockets,
    .socket_count = sizeof sitm_cc_sockets / sizeof sitm_cc_sockets[0],
    .create = sitm_cc_create,
    .destroy = sitm_cc_destroy,
    .accept = sitm_cc_accept,
    .cycle = sitm_cc_cycle,
    .port_free = sitm_cc_port_free,
    .debug_access = sitm_cc_debug_access,
    .describe_pending = sitm_cc_describe_pending,
};
