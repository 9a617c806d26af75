/* The SIMT core under an unsolicited TX_ABORT (tx.h 6), driven without
 * SystemC: the test plays the tm_unit and the memory side on the core's
 * ldst socket and sends TX_ABORT on its tx_events socket the cycle after
 * the attempt's first transactional load. The kernel
 * (kernels/tx_verdict.c) loads a[t] and stores b[t] inside a transaction
 * and stores the loaded value to c[t] after the commit. Checked: the
 * aborted lanes leave the attempt once the load is answered (the store and
 * TX_COMMIT go without them), no TX_ROLLBACK is sent for them (the unit
 * dropped their logs), they re-run (TX_BEGIN, attempt 1) with their
 * registers rolled back and read the value a[t] holds then; an abort of
 * every lane settles the attempt at once; a stale TX_ABORT (another
 * attempt, or lanes not running) changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "fake_env.h"
#include "ldst.h"
#include "test_support.h"
#include "tx.h"

#define DATA_LATENCY 300 /* request to data of a transactional load */
#define ARGS_ADDRESS 0x100f0000u
#define A_BASE (RV_GLOBAL_BASE + 0x1000u)
#define B_BASE (RV_GLOBAL_BASE + 0x2000u)
#define C_BASE (RV_GLOBAL_BASE + 0x3000u)
#define LANES 32
#define ALL UINT64_C(0xffffffff)

typedef struct scheduled {
    uint64_t cycle;
    unsigned port;
    simtx_msg msg;
} scheduled;

typedef struct bench {
    fake_env fake;
    simt_core_params params;
    simtx_observer *observer;
    simt_core *core;
    kernel_image *image;
    simt_launch launch;
    uint8_t args[12];
    uint64_t now;
    scheduled pending[256];
    unsigned pending_count;
    simtx_msg staged[LDST_MAX_BEATS];
    unsigned staged_count;
    uint32_t a[LANES], b[LANES], c[LANES];
    simtx_msg abort; /* sent after the first transactional load */
    bool aborted;
    /* What the core did, in order. */
    unsigned loads, stores, commits, begins, rollbacks;
    uint64_t load_lanes[4], store_lanes[4], commit_lanes[4], begin_lanes[4], begin_attempt[4];
} bench;

static bench b_storage;

static void schedule(bench *b, uint64_t cycle, unsigned port, const simtx_msg *msg)
{
    CHECK(b->pending_count < 256);
    if (b->pending_count < 256) b->pending[b->pending_count++] = (scheduled){cycle, port, *msg};
}

static simtx_msg response_of(const simtx_msg *request)
{
    simtx_msg response = *request;
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    return response;
}

/* The tm_unit's answers to a tx.h event: every committing lane commits. */
static void tx_event(bench *b, const simtx_msg *msg)
{
    simtx_msg response = response_of(msg);
    response.size = 0;
    if (msg->op == SIMTX_OP_TX_BEGIN && b->begins < 4) {
        b->begin_lanes[b->begins] = msg->lane_mask;
        b->begin_attempt[b->begins++] = msg->aux;
    } else if (msg->op == SIMTX_OP_TX_ROLLBACK) {
        b->rollbacks++;
    } else if (msg->op == SIMTX_OP_TX_COMMIT) {
        tx_outcome outcome = {msg->lane_mask, 0, TX_SERIALIZE_NONE};
        response.size = sizeof outcome;
        memcpy(response.data, &outcome, sizeof outcome);
        if (b->commits < 4) b->commit_lanes[b->commits++] = msg->lane_mask;
    }
    schedule(b, b->now + 1, LDST_PORT, &response);
}

/* A request's beats are all in b->staged: its responses. */
static void serve(bench *b)
{
    const simtx_msg *head = &b->staged[0];
    bool transactional = (head->flags & SIMTX_FLAG_TRANSACTIONAL) != 0;
    if (head->op == SIMTX_OP_READ && transactional && b->loads < 4) {
        b->load_lanes[b->loads++] = head->lane_mask;
        if (!b->aborted) { /* the unit's filter aborts lanes at this access: TX_ABORT first */
            b->aborted = true;
            b->abort.warp = head->warp;
            schedule(b, b->now + 1, TX_EVENTS_PORT, &b->abort);
        }
    } else if (head->op == SIMTX_OP_WRITE && transactional && b->stores < 4) {
        b->store_lanes[b->stores++] = head->lane_mask;
    }
    uint64_t ready = head->op == SIMTX_OP_READ && transactional ? b->now + DATA_LATENCY : b->now + 1;
    for (unsigned i = 0; i < b->staged_count; i++) {
        const simtx_msg *beat = &b->staged[i];
        simtx_msg response = response_of(beat);
        uint32_t lanes = ldst_group_lanes(beat->lane_mask, ldst_group(beat));
        if (head->op == SIMTX_OP_READ) {
            for (uint32_t m = lanes; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                ldst_set_slot(&response, l, b->a[l]);
            }
        } else {
            if (ldst_beat_of(beat) == LDST_BEAT_DATA)
                for (uint32_t m = lanes; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    if (transactional) b->b[l] = ldst_slot(beat, l);
                    else b->c[l] = ldst_slot(beat, l);
                }
            response.size = 0;
        }
        schedule(b, ready, LDST_PORT, &response);
    }
    b->staged_count = 0;
}

static void take_sent(bench *b)
{
    for (size_t i = 0; i < b->fake.sent_count; i++) {
        const simtx_msg *msg = &b->fake.sent[i];
        if (b->fake.sent_port[i] == LDS_PORT) {
            simtx_msg response = response_of(msg);
            schedule(b, b->now + 1, LDS_PORT, &response);
            continue;
        }
        if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) {
            tx_event(b, msg);
            continue;
        }
        CHECK(b->staged_count < LDST_MAX_BEATS);
        if (b->staged_count < LDST_MAX_BEATS) b->staged[b->staged_count++] = *msg;
        if (ldst_is_last(msg)) serve(b);
    }
    b->fake.sent_count = 0;
}

static void run(bench *b, uint64_t cycles)
{
    for (uint64_t end = b->now + cycles; b->now < end && !b->fake.failure[0]; b->now++) {
        for (unsigned i = 0; i < b->pending_count;) {
            if (b->pending[i].cycle != b->now) {
                i++;
                continue;
            }
            scheduled due = b->pending[i];
            memmove(&b->pending[i], &b->pending[i + 1], (b->pending_count - i - 1) * sizeof due);
            b->pending_count--;
            CHECK_EQUAL(simt_core_block_info.accept(b->core, due.port, &due.msg, b->now), SIMTX_ACCEPTED);
        }
        simt_core_block_info.cycle(b->core, b->now);
        take_sent(b);
        if (b->loads == 1 && b->aborted && b->a[1] == 1001) b->a[1] = b->a[2] = 4242; /* written before the re-run */
    }
}

/* A TX_ABORT of `lanes` for attempt `attempt`, sent after the first load. */
static bench *bench_open(uint64_t lanes, uint32_t attempt)
{
    bench *b = &b_storage;
    memset(b, 0, sizeof *b);
    for (unsigned l = 0; l < LANES; l++) b->a[l] = 1000 + l;
    simtx_msg_init(&b->abort, SIMTX_OP_TX_ABORT, 0, 0);
    b->abort.lane_mask = lanes;
    b->abort.transaction_id = attempt;
    b->abort.aux = TX_ABORT_EARLY;
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    const char *settings[] = {"lanes=32", "warps=4", NULL};
    fake_params(&simt_core_block_info, &b->params, settings);
    char error[512] = "", path[512];
    b->core = simt_core_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    CHECK(b->core != NULL);
    snprintf(path, sizeof path, "%s/tx_verdict_O2.elf", SIMTX_KERNEL_DIR);
    b->image = kernel_image_load_file(path, error, sizeof error);
    CHECK(b->image != NULL);
    if (!b->core || !b->image) exit(1);
    uint32_t args[3] = {A_BASE, B_BASE, C_BASE};
    memcpy(b->args, args, sizeof args);
    simt_launch *l = &b->launch;
    l->image = b->image;
    l->entry_pc = kernel_image_find_function(b->image, "tx_verdict")->start;
    l->grid[0] = l->grid[1] = l->grid[2] = 1;
    l->block[0] = LANES, l->block[1] = l->block[2] = 1;
    l->args_address = ARGS_ADDRESS;
    l->args = b->args;
    l->args_size = sizeof b->args;
    l->registers_per_thread = simt_kernel_registers(b->image);
    l->total_ctas = 1;
    CHECK(simt_core_start_launch(b->core, l, error, sizeof error));
    return b;
}

static void bench_close(bench *b)
{
    CHECK_STRING(b->fake.failure, "");
    CHECK_EQUAL(b->launch.finished_ctas, 1);
    for (unsigned l = 0; l < LANES; l++) CHECK_EQUAL(b->b[l], l + 1);
    simt_core_block_info.destroy(b->core);
    simtx_params_release(simt_core_block_info.params, &b->params);
    kernel_image_destroy(b->image);
    simtx_observer_destroy(b->observer);
}

/* Lanes 1 and 2 abort: the others store and commit without them; they
 * re-run alone (attempt 1) and load the word's new value. */
static void test_abort_some_lanes(void)
{
    bench *b = bench_open(0x6, 0);
    run(b, 5000);
    CHECK_EQUAL(b->begins, 2);
    CHECK_EQUAL(b->begin_lanes[0], ALL);
    CHECK_EQUAL(b->begin_attempt[0], 0);
    CHECK_EQUAL(b->store_lanes[0], ALL & ~UINT64_C(0x6)); /* issued after the abort reached the core */
    CHECK_EQUAL(b->commit_lanes[0], ALL & ~UINT64_C(0x6));
    CHECK_EQUAL(b->rollbacks, 0);
    CHECK_EQUAL(b->begin_lanes[1], 0x6);
    CHECK_EQUAL(b->begin_attempt[1], 1);
    CHECK_EQUAL(b->loads, 2);
    CHECK_EQUAL(b->load_lanes[1], 0x6);
    CHECK_EQUAL(b->commits, 2);
    CHECK_EQUAL(b->commit_lanes[1], 0x6);
    CHECK_EQUAL(b->c[0], 1000);
    CHECK_EQUAL(b->c[1], 4242);
    CHECK_EQUAL(b->c[2], 4242);
    CHECK_EQUAL(b->c[3], 1003);
    bench_close(b);
}

/* Every lane aborts: the attempt is over without a TX_ROLLBACK or a
 * TX_COMMIT; the whole warp re-runs. */
static void test_abort_every_lane(void)
{
    bench *b = bench_open(ALL, 0);
    run(b, 5000);
    CHECK_EQUAL(b->rollbacks, 0);
    CHECK_EQUAL(b->begins, 2);
    CHECK_EQUAL(b->begin_lanes[1], ALL);
    CHECK_EQUAL(b->begin_attempt[1], 1);
    CHECK_EQUAL(b->stores, 1); /* only the re-run's */
    CHECK_EQUAL(b->commits, 1);
    CHECK_EQUAL(b->commit_lanes[0], ALL);
    CHECK_EQUAL(b->c[1], 4242);
    bench_close(b);
}

/* A TX_ABORT of another attempt is stale: nothing changes. */
static void test_stale_abort(void)
{
    bench *b = bench_open(0x6, 7);
    run(b, 5000);
    CHECK_EQUAL(b->begins, 1);
    CHECK_EQUAL(b->commits, 1);
    CHECK_EQUAL(b->commit_lanes[0], ALL);
    CHECK_EQUAL(b->c[1], 1001);
    bench_close(b);
}

/* The core offers the tx_events target socket to a netlist (optional). */
static void test_socket_declared(void)
{
    CHECK_EQUAL(simt_core_block_info.socket_count, TX_EVENTS_PORT + 1);
    if (simt_core_block_info.socket_count <= TX_EVENTS_PORT) return;
    const simtx_socket_spec *socket = &simt_core_block_info.sockets[TX_EVENTS_PORT];
    CHECK_STRING(socket->name, "tx_events");
    CHECK_EQUAL(socket->role, SIMTX_SOCKET_TARGET);
    CHECK(socket->optional);
}

int main(void)
{
    test_socket_declared();
    test_abort_some_lanes();
    test_abort_every_lane();
    test_stale_abort();
    return simtx_test_summary();
}
