/* agpm_tracker: see agpm_tracker.h and README.md. */
#include "agpm_tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agpm.h"
#include "agpm_buffer.h"
#include "agpm_period.h"
#include "agpm_reason.h"
#include "agpm_reservation.h"
#include "monitor.h"

#define PARAM(field) offsetof(agpm_tracker_params, field)

static const simtx_param_spec tracker_param_specs[] = {
    {"cores", SIMTX_PARAM_INT, "1", "sockets", 1, 1024, NULL, "path selectors (one per SM): `reports` and `decisions` sockets", PARAM(cores)},
    {"partitions", SIMTX_PARAM_INT, "1", "sockets", 1, 1024, NULL, "L2 slices whose monitor events reach `l2`", PARAM(partitions)},
    {"sampled_core", SIMTX_PARAM_INT, "0", "", 0, 1023, NULL,
     "the SM whose L1 feeds the L1-level buffer (the paper samples one: 'patterns nearly the same among SMs')", PARAM(sampled_core)},
    {"entries", SIMTX_PARAM_INT, "1024", "entries", 2, 1 << 20, NULL,
     "entries per AGPM buffer, log way and all way together (section IV-C: 1024, about 89 KB at 707 bits)", PARAM(entries)},
    {"counter_bits", SIMTX_PARAM_INT, "5", "bits", 1, 8, NULL, "width of the byte and block counters (section IV-C: 5), saturating", PARAM(counter_bits)},
    {"reservation_entries", SIMTX_PARAM_INT, "4096", "entries", 1, 1 << 22, NULL,
     "reservation buffer slots, direct mapped (not in the paper)", PARAM(reservation_entries)},
    {"initial_threshold", SIMTX_PARAM_INT, "10000", "log updates", 1, 1e12, NULL, "log updates per period to start with (section IV-A: 10000)",
     PARAM(initial_threshold)},
    {"first_period", SIMTX_PARAM_INT, "0", "log updates", 0, 1e12, NULL,
     "log updates in each launch's first period; 0: the current threshold, so a launch with fewer log updates is one period "
     "ending with it (the paper's 'smaller value' for short kernels) and decides for the next launch",
     PARAM(first_period)},
    {"step_percent", SIMTX_PARAM_INT, "10", "%", 0, 100, NULL, "threshold change per period, up when CWPPR rose (section IV-A: 10%)", PARAM(step_percent)},
    {"minimum_threshold", SIMTX_PARAM_INT, "500", "log updates", 1, 1e12, NULL, "the threshold never falls below (not in the paper)", PARAM(minimum_threshold)},
    {"maximum_threshold", SIMTX_PARAM_INT, "1000000", "log updates", 1, 1e12, NULL, "nor rises above (not in the paper)", PARAM(maximum_threshold)},
    {"ratio", SIMTX_PARAM_DOUBLE, "0.25", "", 0, 1, NULL, "Table III: l1d_t(s)_log / l1d_t(s)_all above it is reason b, else d", PARAM(ratio)},
    {"few_logs", SIMTX_PARAM_INT, "100", "log updates", 0, 1e12, NULL, "Table III: a period of at most this many log updates is reason e", PARAM(few_logs)},
    {"shared_memory", SIMTX_PARAM_ENUM, "launch", "", 0, 0, "launch|yes|no",
     "Table III reason h, the kernel uses shared memory: launch (its launch declares shared memory per CTA), or forced yes or no",
     PARAM(shared_memory)},
};

static const simtx_param_table tracker_param_table = {
    tracker_param_specs, sizeof tracker_param_specs / sizeof tracker_param_specs[0], sizeof(agpm_tracker_params)};

enum { PORT_L1 };
static const simtx_socket_spec tracker_sockets[] = {
    {"l1", SIMTX_SOCKET_TARGET, NULL, "monitor events (monitor.h) of the sampled core's L1", false},
    {"l2", SIMTX_SOCKET_TARGET, "partitions", "monitor events of each L2 slice", false},
    {"reports", SIMTX_SOCKET_TARGET, "cores", "AGPM_LOG, AGPM_DONE, AGPM_KERNEL from each selector (agpm.h)", false},
    {"decisions", SIMTX_SOCKET_INITIATOR, "cores", "AGPM_DECISION to each selector at each period end", false},
};

static const char *const reason_names[] = {"none", "a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const path_names[] = {"nt", "temporal"};

typedef struct agpm_tracker {
    agpm_tracker_params params;
    simtx_env env;
    agpm_buffer l1, l2;
    agpm_reservation reservation;
    agpm_period period;
    agpm_rules rules;
    uint64_t target;           /* log updates that end the current period */
    uint64_t period_logs, period_all;
    double wait_sum;
    uint64_t wait_count;
    agpm_vars run;             /* every period's variables, summed */
    bool run_shared;           /* some period's kernel used shared memory */
    bool decision_pending;
    uint64_t write_hit_line;   /* the L1 line the last monitor event hit by a write (UINT64_MAX: none) */
    bool kernel_shared;        /* the current launch declared shared memory */
    simtx_msg decision;
    unsigned first_report_port, first_decision_port;
    struct {
        uint64_t launches, launches_shared, periods, kernel_periods, logs, accesses, reasons[AGPM_REASON_COUNT], decisions_temporal, decisions_non_temporal;
        uint64_t l1d_t_all, l1d_s_all, l1d_t_log, l1d_s_log, l2_t_all, l2_s_all, l2_t_log, l2_s_log;
        uint64_t l1_fills, l1_hits, l1_moves_out, l1_write_evicts_kept, l2_fills, l2_hits, l2_moves_in, l2_moves_out, conflicts, saturations;
        uint64_t reservation_puts, reservation_refills, reservation_replaced, reservation_peak;
        simtx_histogram period_length, cwppr;
        double run_reason;
        simtx_time_average reservation_occupancy;
    } stats;
    struct {
        uint64_t reason, path, cwppr, threshold, period, reservation, l1d_t_all, l1d_t_log, l2_t_all, l2_t_log;
    } probes;
} agpm_tracker;

static void tracker_destroy(void *core)
{
    agpm_tracker *t = core;
    if (!t) return;
    agpm_buffer_release(&t->l1);
    agpm_buffer_release(&t->l2);
    agpm_reservation_release(&t->reservation);
    free(t);
}

static void observe(agpm_tracker *t, simtx_observer *o)
{
    simtx_observe_counter(o, "launches", &t->stats.launches, "launches", "launch boundaries the sampled core's selector reported");
    simtx_observe_counter(o, "launches_shared", &t->stats.launches_shared, "launches",
                          "of them, launches declaring shared memory per CTA (reason h under shared_memory = launch)");
    simtx_observe_counter(o, "periods", &t->stats.periods, "periods", "periods ended (each sends a decision)");
    simtx_observe_counter(o, "kernel_periods", &t->stats.kernel_periods, "periods", "of them, ended early by a launch boundary or the end of the run");
    simtx_observe_counter(o, "logs", &t->stats.logs, "log updates", "log updates reported (Table II's log)");
    simtx_observe_counter(o, "accesses", &t->stats.accesses, "requests", "log updates and the sampled L1's hits and misses (Table II's all, sampled)");
    for (unsigned r = 0; r < AGPM_REASON_COUNT; r++) {
        char name[32];
        snprintf(name, sizeof name, "periods_reason_%s", reason_names[r]);
        simtx_observe_counter(o, name, &t->stats.reasons[r], "periods", "periods the classifier gave this reason (Table III)");
    }
    simtx_observe_counter(o, "decisions_temporal", &t->stats.decisions_temporal, "periods", "decisions for the temporal path");
    simtx_observe_counter(o, "decisions_non_temporal", &t->stats.decisions_non_temporal, "periods", "decisions for the non-temporal path");
    static const char *const var_docs[8] = {
        "Table II l1d_t_all: all-way byte counters above 1, L1 level, summed over periods",
        "Table II l1d_s_all: that plus the block counters", "Table II l1d_t_log: the log way's", "Table II l1d_s_log: the log way's",
        "Table II l2_t_all: L2 level and reservation buffer", "Table II l2_s_all", "Table II l2_t_log", "Table II l2_s_log"};
    static const char *const var_names[8] = {"l1d_t_all", "l1d_s_all", "l1d_t_log", "l1d_s_log", "l2_t_all", "l2_s_all", "l2_t_log", "l2_s_log"};
    const uint64_t *vars[8] = {&t->stats.l1d_t_all, &t->stats.l1d_s_all, &t->stats.l1d_t_log, &t->stats.l1d_s_log,
                               &t->stats.l2_t_all, &t->stats.l2_s_all, &t->stats.l2_t_log, &t->stats.l2_s_log};
    for (unsigned i = 0; i < 8; i++) simtx_observe_counter(o, var_names[i], vars[i], "references", var_docs[i]);
    simtx_observe_real(o, "run_reason", &t->stats.run_reason, "reason",
                       "Table III on the run's summed variables: 0 none, 1 a ... 8 h (the workload's reason)");
    simtx_observe_counter(o, "l1_fills", &t->stats.l1_fills, "entries", "L1-level entries created by a log update");
    simtx_observe_counter(o, "l1_hits", &t->stats.l1_hits, "requests", "L1-level entries found (a hit event or a log update)");
    simtx_observe_counter(o, "l1_moves", &t->stats.l1_moves_out, "entries", "L1-level entries moved to the L2 level on an L1 eviction");
    simtx_observe_counter(o, "l1_write_evicts_kept", &t->stats.l1_write_evicts_kept, "events",
                          "L1 write-evicts (the EVICT right after a write HIT of the line): an entry of the line stays at the L1 level");
    simtx_observe_counter(o, "l2_fills", &t->stats.l2_fills, "entries", "L2-level entries created by a log update");
    simtx_observe_counter(o, "l2_hits", &t->stats.l2_hits, "requests", "L2-level entries found");
    simtx_observe_counter(o, "l2_moves_in", &t->stats.l2_moves_in, "entries", "entries put in the L2 level (L1 evictions, reservation refills)");
    simtx_observe_counter(o, "l2_moves_out", &t->stats.l2_moves_out, "entries", "L2-level entries moved to the reservation buffer on a write-back");
    simtx_observe_counter(o, "conflicts", &t->stats.conflicts, "entries", "entries lost to another block of their set, both levels");
    simtx_observe_counter(o, "saturations", &t->stats.saturations, "increments", "increments a saturated counter swallowed, both levels");
    simtx_observe_counter(o, "reservation_puts", &t->stats.reservation_puts, "entries", "entries into the reservation buffer");
    simtx_observe_counter(o, "reservation_refills", &t->stats.reservation_refills, "entries", "entries back to the L2 level on a re-fetch");
    simtx_observe_counter(o, "reservation_replaced", &t->stats.reservation_replaced, "entries", "entries lost to another block's slot");
    simtx_observe_counter(o, "reservation_peak", &t->stats.reservation_peak, "entries", "most entries held at once");
    simtx_observe_average(o, "reservation_occupancy", &t->stats.reservation_occupancy.average, "entries", "entries held, averaged over time");
    simtx_observe_histogram(o, "period_length", &t->stats.period_length, "log updates", "log updates per period");
    simtx_observe_histogram(o, "cwppr", &t->stats.cwppr, "cycles", "CWPPR per period: mean core cycles a log update waited to be durable");
    simtx_observe_enum_probe(o, "reason", &t->probes.reason, 4, reason_names, AGPM_REASON_COUNT, "the last period's reason (Table III)");
    simtx_observe_enum_probe(o, "path", &t->probes.path, 1, path_names, 2, "the last decision");
    simtx_observe_probe(o, "cwppr", &t->probes.cwppr, 16, "the last period's CWPPR (core cycles)");
    simtx_observe_probe(o, "threshold", &t->probes.threshold, 24, "log updates that end the current period");
    simtx_observe_probe(o, "period", &t->probes.period, 16, "periods ended");
    simtx_observe_level_probe(o, "reservation", &t->probes.reservation, 16, (uint64_t)t->params.reservation_entries, "reservation buffer entries held");
    simtx_observe_probe(o, "l1d_t_all", &t->probes.l1d_t_all, 24, "the last period's l1d_t_all");
    simtx_observe_probe(o, "l1d_t_log", &t->probes.l1d_t_log, 24, "the last period's l1d_t_log");
    simtx_observe_probe(o, "l2_t_all", &t->probes.l2_t_all, 24, "the last period's l2_t_all");
    simtx_observe_probe(o, "l2_t_log", &t->probes.l2_t_log, 24, "the last period's l2_t_log");
}

/* Log updates that end a launch's first period. The threshold is not
 * reset by a launch: it is "stored and used in the next sampling period"
 * (section IV-A), and a short kernel's launch ending first ends the period
 * (its length is the paper's "smaller value"). */
static uint64_t launch_target(const agpm_tracker *t)
{
    return t->params.first_period ? (uint64_t)t->params.first_period : t->period.threshold;
}

static void *tracker_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const agpm_tracker_params *p = params;
    if (p->sampled_core >= p->cores) {
        snprintf(error, error_size, "'sampled_core' (%lld) must be below 'cores' (%lld)", (long long)p->sampled_core, (long long)p->cores);
        return NULL;
    }
    if (p->minimum_threshold > p->maximum_threshold) {
        snprintf(error, error_size, "'minimum_threshold' (%lld) exceeds 'maximum_threshold' (%lld)", (long long)p->minimum_threshold,
                 (long long)p->maximum_threshold);
        return NULL;
    }
    agpm_tracker *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->params = *p;
    t->env = *env;
    if (!agpm_buffer_init(&t->l1, (unsigned)p->entries, (unsigned)p->counter_bits) ||
        !agpm_buffer_init(&t->l2, (unsigned)p->entries, (unsigned)p->counter_bits) ||
        !agpm_reservation_init(&t->reservation, (unsigned)p->reservation_entries)) {
        snprintf(error, error_size, "out of memory for entries %lld", (long long)p->entries);
        tracker_destroy(t);
        return NULL;
    }
    agpm_period_init(&t->period, (uint64_t)p->initial_threshold, (unsigned)p->step_percent, (uint64_t)p->minimum_threshold,
                     (uint64_t)p->maximum_threshold);
    t->rules = (agpm_rules){p->ratio, (uint64_t)p->few_logs};
    t->target = launch_target(t);
    t->first_report_port = 1u + (unsigned)p->partitions;
    t->first_decision_port = t->first_report_port + (unsigned)p->cores;
    t->probes.threshold = t->target;
    t->write_hit_line = UINT64_MAX;
    observe(t, env->observer);
    return t;
}

static bool uses_shared(const agpm_tracker *t)
{
    if (!strcmp(t->params.shared_memory, "launch")) return t->kernel_shared;
    return !strcmp(t->params.shared_memory, "yes");
}

static void flush(agpm_tracker *t)
{
    agpm_buffer_flush(&t->l1);
    agpm_buffer_flush(&t->l2);
    agpm_reservation_flush(&t->reservation);
}

static void add_vars(agpm_vars *into, const agpm_vars *v)
{
    into->l1d_t_all += v->l1d_t_all, into->l1d_s_all += v->l1d_s_all, into->l1d_t_log += v->l1d_t_log, into->l1d_s_log += v->l1d_s_log;
    into->l2_t_all += v->l2_t_all, into->l2_s_all += v->l2_s_all, into->l2_t_log += v->l2_t_log, into->l2_s_log += v->l2_s_log;
    into->all += v->all, into->log += v->log;
}

/* The period ends: Table II's variables from the buffers, Table III's
 * reason, the decision to every selector (sent by the next cycle), the
 * threshold rule, the buffers flushed. */
static void end_period(agpm_tracker *t, bool at_kernel_end)
{
    agpm_sums l1 = {0}, l2 = {0};
    agpm_buffer_add_sums(&t->l1, &l1);
    agpm_buffer_add_sums(&t->l2, &l2);
    agpm_reservation_add_sums(&t->reservation, &l2);
    agpm_vars v = {l1.t_all, l1.s_all, l1.t_log, l1.s_log, l2.t_all, l2.s_all, l2.t_log, l2.s_log, t->period_all, t->period_logs};
    agpm_reason reason = agpm_classify(&v, uses_shared(t), &t->rules);
    agpm_path path = agpm_reason_path(reason);
    double cwppr = t->wait_count ? t->wait_sum / (double)t->wait_count : 0.0;
    uint64_t threshold = agpm_period_end(&t->period, cwppr);
    t->target = at_kernel_end ? launch_target(t) : threshold;
    add_vars(&t->run, &v);
    t->run_shared |= uses_shared(t);
    t->stats.l1d_t_all += v.l1d_t_all, t->stats.l1d_s_all += v.l1d_s_all, t->stats.l1d_t_log += v.l1d_t_log, t->stats.l1d_s_log += v.l1d_s_log;
    t->stats.l2_t_all += v.l2_t_all, t->stats.l2_s_all += v.l2_s_all, t->stats.l2_t_log += v.l2_t_log, t->stats.l2_s_log += v.l2_s_log;
    t->stats.periods++;
    t->stats.kernel_periods += at_kernel_end;
    t->stats.reasons[reason]++;
    if (path == AGPM_PATH_TEMPORAL) t->stats.decisions_temporal++;
    else t->stats.decisions_non_temporal++;
    simtx_histogram_add(&t->stats.period_length, t->period_logs);
    simtx_histogram_add(&t->stats.cwppr, (uint64_t)(cwppr + 0.5));
    t->probes.reason = reason;
    t->probes.path = path;
    t->probes.cwppr = (uint64_t)(cwppr + 0.5);
    t->probes.threshold = t->target;
    t->probes.period = t->stats.periods;
    t->probes.l1d_t_all = v.l1d_t_all, t->probes.l1d_t_log = v.l1d_t_log, t->probes.l2_t_all = v.l2_t_all, t->probes.l2_t_log = v.l2_t_log;
    simtx_msg_init(&t->decision, SIMTX_OP_AGPM_DECISION, 0, 0);
    t->decision.aux = agpm_decision_pack(path, reason, agpm_vars_temporal(&v));
    t->decision.transaction_id = (uint32_t)t->stats.periods;
    t->decision_pending = true;
    t->period_logs = t->period_all = 0;
    t->wait_sum = 0;
    t->wait_count = 0;
    flush(t);
}

static uint64_t block_of(uint64_t address) { return address / AGPM_BLOCK_BYTES; }

static void l1_event(agpm_tracker *t, const simtx_msg *msg)
{
    switch (msg->op) {
    case SIMTX_OP_MONITOR_HIT:
        t->period_all++;
        t->stats.accesses++;
        /* A log update counted when its selector reported it. */
        if (!(msg->flags & SIMTX_FLAG_PM_LOG)) agpm_buffer_hit(&t->l1, block_of(msg->address), msg->byte_enable, false);
        /* monitor.h: a write-evict write's EVICT follows its HIT at once. */
        t->write_hit_line = msg->aux & MONITOR_WRITE ? msg->address : UINT64_MAX;
        break;
    case SIMTX_OP_MONITOR_MISS:
        t->period_all++;
        t->stats.accesses++;
        t->write_hit_line = UINT64_MAX;
        break;
    case SIMTX_OP_MONITOR_EVICT: {
        /* A block the L1 replaces or flushes moves to the L2 level. The
         * write-evict of a write hit does not: the L1 flushes no block
         * there (it holds nothing dirty; the write itself goes down), and
         * the entry keeps counting the block's later L1 hits and log
         * updates, as Table II's l1d_t_log = l1d_t_all of ATAX1, MVT1 and
         * GESUMMV (log re-hits between data writes) needs. */
        bool write_evict = msg->address == t->write_hit_line;
        t->write_hit_line = UINT64_MAX;
        agpm_entry e;
        if (!write_evict && agpm_buffer_move_out(&t->l1, block_of(msg->address), &e)) agpm_buffer_put(&t->l2, &e);
        if (write_evict) t->stats.l1_write_evicts_kept++;
        break;
    }
    default: break;
    }
}

static void l2_event(agpm_tracker *t, const simtx_msg *msg)
{
    agpm_entry e;
    switch (msg->op) {
    case SIMTX_OP_MONITOR_HIT: /* a written-back entry returns on the block's next use: a cleaned line stays cached */
        agpm_reservation_recall(&t->reservation, &t->l2, block_of(msg->address));
        if (!(msg->flags & SIMTX_FLAG_PM_LOG)) agpm_buffer_hit(&t->l2, block_of(msg->address), msg->byte_enable, false);
        break;
    case SIMTX_OP_MONITOR_MISS: /* a re-fetch brings a written-back entry back */
        agpm_reservation_recall(&t->reservation, &t->l2, block_of(msg->address));
        break;
    case SIMTX_OP_MONITOR_WRITEBACK:
        if (agpm_buffer_take(&t->l2, block_of(msg->address), &e)) agpm_reservation_put(&t->reservation, &e);
        break;
    default: break;
    }
}

static void report(agpm_tracker *t, unsigned core, const simtx_msg *msg)
{
    switch (msg->op) {
    case SIMTX_OP_AGPM_LOG:
        if (msg->aux & AGPM_LOG_TRACKED) {
            agpm_buffer *level = core == (unsigned)t->params.sampled_core ? &t->l1 : &t->l2;
            agpm_path path = (agpm_path)(msg->aux & 0xFFu);
            /* A word logged again after its line's clwb meets its entry (l2_t_log). */
            if (level == &t->l2) agpm_reservation_recall(&t->reservation, &t->l2, block_of(msg->address));
            if (msg->aux & AGPM_LOG_SAME_ACCESS) agpm_buffer_extend(level, block_of(msg->address), msg->byte_enable, path);
            else agpm_buffer_log(level, block_of(msg->address), msg->byte_enable, path);
        }
        if (msg->aux & AGPM_LOG_COUNTED) {
            t->period_logs++;
            t->period_all++;
            t->stats.logs++;
            t->stats.accesses++;
            if (t->period_logs >= t->target) end_period(t, false);
        }
        break;
    case SIMTX_OP_AGPM_DONE:
        t->wait_sum += (double)msg->aux;
        t->wait_count++;
        break;
    case SIMTX_OP_AGPM_KERNEL: /* every core reports the launch: the sampled one's ends the period */
        if (core != (unsigned)t->params.sampled_core) break;
        if (t->period_logs) end_period(t, true);
        else flush(t);
        t->target = launch_target(t);
        t->kernel_shared = msg->aux != 0;
        t->stats.launches++;
        t->stats.launches_shared += t->kernel_shared;
        break;
    default: break;
    }
}

static simtx_accept_result tracker_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    agpm_tracker *t = core;
    if (msg->is_response || port >= t->first_decision_port) {
        t->env.fail(t->env.context, "a response or a message on a decisions socket: the tracker's ops are posted");
        return SIMTX_ACCEPTED;
    }
    if (port == PORT_L1) l1_event(t, msg);
    else if (port < t->first_report_port) l2_event(t, msg);
    else report(t, port - t->first_report_port, msg);
    if (t->reservation.occupancy != t->probes.reservation) {
        t->probes.reservation = t->reservation.occupancy;
        simtx_time_average_set(&t->stats.reservation_occupancy, (double)t->reservation.occupancy, now);
    }
    return t->decision_pending ? SIMTX_ACCEPTED : SIMTX_ACCEPTED_NO_TICK;
}

static uint64_t tracker_cycle(void *core, uint64_t now)
{
    agpm_tracker *t = core;
    (void)now;
    if (!t->decision_pending) return SIMTX_NEVER;
    t->decision_pending = false;
    for (unsigned c = 0; c < (unsigned)t->params.cores; c++) {
        t->decision.core = (int32_t)c;
        if (!t->env.send(t->env.context, t->first_decision_port + c, &t->decision)) {
            t->env.fail(t->env.context, "a selector refused a decision (agpm.h: decisions must always be taken)");
            break;
        }
    }
    return SIMTX_NEVER;
}

static void tracker_finish(void *core, uint64_t now)
{
    agpm_tracker *t = core;
    /* The run's last period ends with it (no launch follows to end it). */
    if (t->period_logs) end_period(t, true);
    t->decision_pending = false;
    agpm_vars v = t->run;
    t->stats.run_reason = (double)agpm_classify(&v, t->run_shared, &t->rules);
    t->stats.l1_fills = t->l1.stats.fills, t->stats.l1_hits = t->l1.stats.hits, t->stats.l1_moves_out = t->l1.stats.moves_out;
    t->stats.l2_fills = t->l2.stats.fills, t->stats.l2_hits = t->l2.stats.hits, t->stats.l2_moves_in = t->l2.stats.moves_in;
    t->stats.l2_moves_out = t->l2.stats.moves_out;
    t->stats.conflicts = t->l1.stats.conflicts + t->l2.stats.conflicts;
    t->stats.saturations = t->l1.stats.saturations + t->l2.stats.saturations;
    t->stats.reservation_puts = t->reservation.stats.puts, t->stats.reservation_refills = t->reservation.stats.refills;
    t->stats.reservation_replaced = t->reservation.stats.replaced, t->stats.reservation_peak = t->reservation.stats.peak;
    simtx_time_average_close(&t->stats.reservation_occupancy, now);
}

static void tracker_describe_pending(void *core, char *text, size_t size)
{
    agpm_tracker *t = core;
    snprintf(text, size, "period %llu: %llu of %llu log updates%s", (unsigned long long)t->stats.periods + 1,
             (unsigned long long)t->period_logs, (unsigned long long)t->target, t->decision_pending ? ", a decision to send" : "");
}

const simtx_block_info agpm_tracker_block_info = {
    .name = "agpm_tracker",
    .summary = "AGPM's L1/L2 buffers (defaults: 1024 entries of 707 bits, 90496 B = 88.4 KiB per level, 177 KiB both), "
               "reservation buffer, periods (CWPPR threshold) and Table III classifier, deciding the selectors' path",
    .params = &tracker_param_table,
    .sockets = tracker_sockets,
    .socket_count = sizeof tracker_sockets / sizeof tracker_sockets[0],
    .create = tracker_create,
    .destroy = tracker_destroy,
    .accept = tracker_accept,
    .cycle = tracker_cycle,
    .finish = tracker_finish,
    .describe_pending = tracker_describe_pending,
};
