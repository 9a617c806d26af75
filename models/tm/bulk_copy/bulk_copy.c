/* bulk_copy.c: the bulk copy unit (see bulk_copy.h). */
#include "bulk_copy.h"

#include "msg_queue.h"
#include "partition_interleave.h"
#include "version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(bulk_copy_params, field)

static const simtx_param_spec bulk_copy_param_specs[] = {
    {"partition", SIMTX_PARAM_INT, "0", "", 0, 1023, NULL, "this partition's index (its rows are the version's chunks it owns)", PARAM(partition)},
    {"partition_count", SIMTX_PARAM_INT, "1", "partitions", 1, 1024, NULL, "memory partitions addresses are interleaved over", PARAM(partition_count)},
    {"partition_interleave", SIMTX_PARAM_INT, "256", "bytes", 1, 1LL << 40, NULL, "bytes per partition chunk, as in the crossbar's mapping", PARAM(partition_interleave)},
    {"row_column_bits", SIMTX_PARAM_INT, "0x1E7F", "", 1, 9.2e18, NULL, "partition-local address bits that vary within a DRAM row (the DRAM map's C and S bits)", PARAM(row_column_bits)},
    {"row_bytes", SIMTX_PARAM_INT, "2048", "bytes", 0, 1 << 20, NULL, "size field of each ROW_COPY: the DRAM's row (0: the controller's)", PARAM(row_bytes)},
    {"copy_queue_depth", SIMTX_PARAM_INT, "4", "copies", 1, 256, NULL, "ROW_COPY operations in flight (back-pressure: the DRAM controller holds 4)", PARAM(copy_queue_depth)},
    {"queue_depth", SIMTX_PARAM_INT, "16", "messages", 1, 4096, NULL, "requests and responses waiting in each direction, and VERSION_COPYs waiting", PARAM(queue_depth)},
    {"max_rows", SIMTX_PARAM_INT, "256", "rows", 1, 65536, NULL, "DRAM rows of one version in this partition", PARAM(max_rows)},
};

static const simtx_param_table bulk_copy_param_table = {
    bulk_copy_param_specs, sizeof bulk_copy_param_specs / sizeof bulk_copy_param_specs[0], sizeof(bulk_copy_params)};

enum { PORT_UPSTREAM, PORT_DOWNSTREAM };

static const simtx_socket_spec bulk_copy_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "VERSION_COPY and passing requests in (from the VIT slice), responses out", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "ROW_COPY and passing requests out (to the L2), responses in", false},
};

/* The top byte of the ids of this unit's own ROW_COPYs. */
#define BULK_ID_TAG (UINT64_C(0x42) << 56)
#define BULK_ID_INDEX_MASK ((UINT64_C(1) << 56) - 1)

typedef struct copy_job {
    simtx_msg request;  /* the VERSION_COPY, answered when done */
    uint64_t arrival;
    uint64_t after;     /* passing requests that arrived before it: sent first */
} copy_job;

typedef struct bulk_copy {
    bulk_copy_params params;
    simtx_env env;
    msg_queue input, up;
    copy_job *jobs;
    unsigned job_head, job_count;
    bool up_blocked, down_blocked, refused;
    uint64_t passes_accepted, passes_sent;
    /* The job under way: its rows (source and destination full addresses). */
    bool active;
    uint64_t *source_rows, *target_rows;
    unsigned rows, next_row, rows_done, in_flight;
    uint8_t worst_status;
    uint64_t *issue_cycle; /* per row */
    struct {
        uint64_t version_copies, row_copies, bytes, passed, stalls_depth;
        simtx_histogram copy_cycles, row_copy_latency;
    } stats;
    struct {
        uint64_t in_flight, copying;
    } probes;
} bulk_copy;

static void bulk_copy_destroy(void *core)
{
    bulk_copy *b = core;
    if (!b) return;
    msg_queue_release(&b->input);
    msg_queue_release(&b->up);
    free(b->jobs);
    free(b->source_rows);
    free(b->target_rows);
    free(b->issue_cycle);
    free(b);
}

static void *bulk_copy_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    bulk_copy *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->params = *(const bulk_copy_params *)params;
    b->env = *env;
    const bulk_copy_params *p = &b->params;
    if (p->partition >= p->partition_count) {
        snprintf(error, error_size, "parameter 'partition' (%" PRId64 ") must be below 'partition_count' (%" PRId64 ")", p->partition,
                 p->partition_count);
        free(b);
        return NULL;
    }
    size_t rows = (size_t)p->max_rows;
    b->jobs = calloc((size_t)p->queue_depth, sizeof *b->jobs);
    b->source_rows = calloc(rows, sizeof *b->source_rows);
    b->target_rows = calloc(rows, sizeof *b->target_rows);
    b->issue_cycle = calloc(rows, sizeof *b->issue_cycle);
    if (!b->jobs || !b->source_rows || !b->target_rows || !b->issue_cycle || !msg_queue_init(&b->input, (size_t)p->queue_depth) ||
        !msg_queue_init(&b->up, (size_t)p->queue_depth)) {
        snprintf(error, error_size, "out of memory");
        bulk_copy_destroy(b);
        return NULL;
    }
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "version_copies", &b->stats.version_copies, "copies", "VERSION_COPY done (a version made, S1 -> S2)");
    simtx_observe_counter(o, "row_copies", &b->stats.row_copies, "copies", "ROW_COPY done (the DRAM controller's row_copies_fpm/psm say how)");
    simtx_observe_counter(o, "bytes_copied", &b->stats.bytes, "bytes", "bytes copied in DRAM (row_bytes per ROW_COPY)");
    simtx_observe_counter(o, "passed", &b->stats.passed, "requests", "requests passed through to the L2");
    simtx_observe_energy(o, "row_copy", &b->stats.row_copies, "a ROW_COPY issued (the DRAM energy of the copy is the controller's)");
    simtx_observe_energy(o, "pass", &b->stats.passed, "a request passed through to the L2");
    simtx_observe_counter(o, "stalls_copy_depth", &b->stats.stalls_depth, "cycles", "cycles a row waited because copy_queue_depth ROW_COPYs were in flight");
    simtx_observe_histogram(o, "copy_cycles", &b->stats.copy_cycles, "cycles", "VERSION_COPY arrival to its answer");
    simtx_observe_histogram(o, "row_copy_latency", &b->stats.row_copy_latency, "cycles", "ROW_COPY issue to its answer (L2 write-backs, then the DRAM copy)");
    simtx_observe_level_probe(o, "rows_in_flight", &b->probes.in_flight, 9, (uint64_t)p->copy_queue_depth, "ROW_COPY operations in flight");
    simtx_observe_probe(o, "copying", &b->probes.copying, 1, "a version copy is under way");
    return b;
}

static simtx_accept_result bulk_copy_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    bulk_copy *b = core;
    if (port == PORT_UPSTREAM) {
        if (msg->op == SIMTX_OP_VERSION_COPY) {
            if (b->job_count == (unsigned)b->params.queue_depth) {
                b->refused = true;
                return SIMTX_BUSY;
            }
            copy_job *job = &b->jobs[(b->job_head + b->job_count++) % (unsigned)b->params.queue_depth];
            job->request = *msg;
            job->arrival = now;
            job->after = b->passes_accepted;
            return SIMTX_ACCEPTED;
        }
        if (msg_queue_full(&b->input)) {
            b->refused = true;
            return SIMTX_BUSY;
        }
        msg_queue_push(&b->input, msg, now);
        b->passes_accepted++;
        return SIMTX_ACCEPTED;
    }
    if (msg_queue_full(&b->up)) return SIMTX_BUSY;
    if ((msg->id & ~BULK_ID_INDEX_MASK) != BULK_ID_TAG) {
        msg_queue_push(&b->up, msg, now); /* a passing request's answer */
        return SIMTX_ACCEPTED;
    }
    unsigned row = (unsigned)(msg->id & BULK_ID_INDEX_MASK);
    if (!b->active || row >= b->rows) {
        b->env.fail(b->env.context, "bulk_copy: a ROW_COPY response for no row in flight");
        return SIMTX_ACCEPTED;
    }
    if (msg->status > b->worst_status) b->worst_status = msg->status;
    b->in_flight--;
    b->rows_done++;
    b->stats.row_copies++;
    b->stats.bytes += (uint64_t)b->params.row_bytes;
    simtx_histogram_add(&b->stats.row_copy_latency, now - b->issue_cycle[row]);
    return SIMTX_ACCEPTED;
}

/* The rows of the version copy `job` in this partition. Returns false (and
 * fails the run) when they exceed max_rows. */
static bool plan_rows(bulk_copy *b, const copy_job *job)
{
    const bulk_copy_params *p = &b->params;
    uint64_t count = (uint64_t)p->partition_count, interleave = (uint64_t)p->partition_interleave;
    uint64_t mask = (uint64_t)p->row_column_bits;
    /* A step that stays within one row and one chunk. */
    uint64_t step = interleave;
    while (step > 1 && ((step - 1) & ~mask)) step >>= 1;
    uint64_t source = job->request.address, target = job->request.aux, size = job->request.size;
    b->rows = 0;
    for (uint64_t a = source / step * step; a < source + size; a += step) {
        if (count > 1 && partition_of_address(a, interleave, count) != (uint64_t)p->partition) continue;
        uint64_t local = count > 1 ? partition_local_address(a, interleave, count) : a;
        uint64_t row = local & ~mask;
        bool seen = false;
        for (unsigned i = b->rows; i-- > 0 && !seen;) seen = b->source_rows[i] == row;
        if (seen) continue;
        if (b->rows == (unsigned)p->max_rows) {
            char error[200];
            snprintf(error, sizeof error, "bulk_copy: the version at 0x%" PRIx64 " (%" PRIu64 " bytes) spans more than max_rows (%" PRId64 ") rows here",
                     source, size, p->max_rows);
            b->env.fail(b->env.context, error);
            return false;
        }
        uint64_t target_local = count > 1 ? partition_local_address(a + (target - source), interleave, count) : a + (target - source);
        b->source_rows[b->rows] = row;
        b->target_rows[b->rows] = target_local & ~mask;
        b->rows++;
    }
    for (unsigned i = 0; i < b->rows && count > 1; i++) {
        b->source_rows[i] = partition_full_address(b->source_rows[i], (uint64_t)p->partition, interleave, count);
        b->target_rows[i] = partition_full_address(b->target_rows[i], (uint64_t)p->partition, interleave, count);
    }
    return true;
}

static void start_job(bulk_copy *b)
{
    if (b->active || !b->job_count || b->passes_sent < b->jobs[b->job_head].after) return;
    b->active = true;
    b->next_row = b->rows_done = b->in_flight = 0;
    b->worst_status = SIMTX_STATUS_OK;
    if (!plan_rows(b, &b->jobs[b->job_head])) b->rows = 0;
}

/* Answers the job under way once all its rows are copied. */
static void finish_job(bulk_copy *b, uint64_t now)
{
    if (!b->active || b->rows_done < b->rows || msg_queue_full(&b->up)) return;
    copy_job *job = &b->jobs[b->job_head];
    simtx_msg *response = msg_queue_push_slot(&b->up, now);
    simtx_msg_copy_header(response, &job->request);
    simtx_msg_make_response(response, (simtx_status)b->worst_status);
    simtx_histogram_add(&b->stats.copy_cycles, now - job->arrival);
    b->stats.version_copies++;
    b->active = false;
    b->job_head = (b->job_head + 1) % (unsigned)b->params.queue_depth;
    b->job_count--;
    if (b->refused && b->env.room) {
        b->refused = false;
        b->env.room(b->env.context, PORT_UPSTREAM);
    }
}

/* One message downstream a cycle: the next row of the copy (its in-flight
 * limit allowing), else a passing request. */
static void send_down(bulk_copy *b, uint64_t now)
{
    if (b->down_blocked) return;
    if (b->active && b->next_row < b->rows) {
        if (b->in_flight < (unsigned)b->params.copy_queue_depth) {
            simtx_msg copy;
            unsigned row = b->next_row;
            simtx_msg_init(&copy, SIMTX_OP_ROW_COPY, b->source_rows[row], (uint32_t)b->params.row_bytes);
            copy.aux = b->target_rows[row];
            copy.id = BULK_ID_TAG | row;
            if (!b->env.send(b->env.context, PORT_DOWNSTREAM, &copy)) {
                b->down_blocked = true;
                return;
            }
            b->issue_cycle[row] = now;
            b->next_row++;
            b->in_flight++;
            return;
        }
        b->stats.stalls_depth++;
    }
    if (msg_queue_empty(&b->input)) return;
    if (!b->env.send(b->env.context, PORT_DOWNSTREAM, msg_queue_front(&b->input))) {
        b->down_blocked = true;
        return;
    }
    msg_queue_pop(&b->input);
    b->passes_sent++;
    b->stats.passed++;
    if (b->refused && b->env.room) {
        b->refused = false;
        b->env.room(b->env.context, PORT_UPSTREAM);
    }
}

static uint64_t bulk_copy_cycle(void *core, uint64_t now)
{
    bulk_copy *b = core;
    if (!b->up_blocked && !msg_queue_empty(&b->up)) {
        if (b->env.send(b->env.context, PORT_UPSTREAM, msg_queue_front(&b->up))) msg_queue_pop(&b->up);
        else b->up_blocked = true;
    }
    finish_job(b, now);
    start_job(b);
    send_down(b, now);
    start_job(b); /* a pass that was the last before a job lets it start */
    b->probes.in_flight = b->in_flight;
    b->probes.copying = b->active;

    bool work_down = !b->down_blocked && (!msg_queue_empty(&b->input) || (b->active && b->next_row < b->rows &&
                                                                        b->in_flight < (unsigned)b->params.copy_queue_depth));
    bool work_up = !b->up_blocked && !msg_queue_empty(&b->up);
    bool finishing = b->active && b->rows_done == b->rows;
    return work_down || work_up || finishing ? now + 1 : SIMTX_NEVER;
}

static void bulk_copy_port_free(void *core, unsigned port)
{
    bulk_copy *b = core;
    if (port == PORT_UPSTREAM) b->up_blocked = false;
    else b->down_blocked = false;
}

/* Host accesses pass on to the L2. */
static size_t bulk_copy_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    (void)core, (void)is_write, (void)address, (void)data, (void)size;
    *forward_port = PORT_DOWNSTREAM;
    return 0;
}

static void bulk_copy_describe_pending(void *core, char *text, size_t size)
{
    const bulk_copy *b = core;
    snprintf(text, size, "version copies waiting %u, rows %u/%u done, %u in flight, passing %zu, responses %zu", b->job_count,
             b->rows_done, b->rows, b->in_flight, b->input.length, b->up.length);
}

const simtx_block_info bulk_copy_block_info = {
    .name = "bulk_copy",
    .summary = "SI-TM bulk in-memory copy unit: a version copy as RowClone ROW_COPYs through the L2, copy_queue_depth in flight",
    .params = &bulk_copy_param_table,
    .sockets = bulk_copy_sockets,
    .socket_count = 2,
    .create = bulk_copy_create,
    .destroy = bulk_copy_destroy,
    .accept = bulk_copy_accept,
    .cycle = bulk_copy_cycle,
    .port_free = bulk_copy_port_free,
    .describe_pending = bulk_copy_describe_pending,
    .debug_access = bulk_copy_debug_access,
};
