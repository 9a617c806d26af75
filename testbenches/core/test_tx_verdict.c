/* The SIMT core under Pause-and-Go (tx.h 2, THE VERDICT), driven without
 * SystemC: the test plays the tm_unit and the memory side on the core's
 * ldst socket. Its answers follow a pausing tm_unit's rules: TX_BEGIN's
 * answer carries SIMTX_FLAG_TX_PAUSE; a transactional request's verdict
 * comes LOOKUP cycles after its last beat (ceil(32 lanes / 4 cat_ports),
 * the tm_unit's timing), a store's responses the cycle after, a load's
 * data DATA_LATENCY cycles after the request (a memory round trip). The
 * kernel (kernels/tx_verdict.c) loads a[t], then stores b[t] (independent
 * of the load) inside a transaction, and stores the loaded value to c[t]
 * after the commit. Checked: the store leaves right after the load's
 * verdict, long before its data; a lane paused at the load (its data
 * arriving after the warp went on) keeps its register unwritten, re-runs
 * the load after TX_RESUME and gets the value then. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"
#include "fake_env.h"
#include "ldst.h"
#include "test_support.h"
#include "tx.h"

#define LOOKUP 8         /* ceil(32 lanes / 4 ports): the tm_unit's conflict address table lookup */
#define DATA_LATENCY 300 /* request to data of a transactional load */
#define ARGS_ADDRESS 0x100f0000u
#define A_BASE (RV_GLOBAL_BASE + 0x1000u)
#define B_BASE (RV_GLOBAL_BASE + 0x2000u)
#define C_BASE (RV_GLOBAL_BASE + 0x3000u)
#define LANES 32
#define GARBAGE 0xdeadbeefu /* the slot of a paused lane in a load's data: never written */

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
    simtx_msg staged[LDST_MAX_BEATS + 1]; /* the request whose beats are arriving */
    unsigned staged_count;
    uint32_t a[LANES], b[LANES], c[LANES];
    uint64_t pause_at_first_load; /* lanes the first load's verdict pauses */
    /* What the core did, in order. */
    unsigned loads, stores, commits, resumes;
    uint64_t load_cycle[4], load_verdict_cycle[4], load_data_cycle[4];
    uint64_t store_cycle[4], store_lanes[4], load_lanes[4];
    uint64_t commit_lanes[4], resume_lanes[4];
    uint32_t resume_index[4];
    unsigned load_rd, load_warp;
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

/* The tm_unit's answers to a tx.h event. */
static void tx_event(bench *b, const simtx_msg *msg)
{
    simtx_msg response = response_of(msg);
    response.size = 0;
    if (msg->op == SIMTX_OP_TX_BEGIN || msg->op == SIMTX_OP_TX_RESUME) {
        response.flags |= SIMTX_FLAG_TX_PAUSE; /* a pausing filter */
        if (msg->op == SIMTX_OP_TX_RESUME && b->resumes < 4) {
            b->resume_lanes[b->resumes] = msg->lane_mask;
            b->resume_index[b->resumes++] = msg->transaction_id;
        }
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
    const simtx_msg *verdict = ldst_beat_of(&b->staged[0]) == LDST_BEAT_VERDICT ? &b->staged[0] : NULL;
    const simtx_msg *head = &b->staged[verdict ? 1 : 0];
    bool transactional = (head->flags & SIMTX_FLAG_TRANSACTIONAL) != 0;
    CHECK_EQUAL(verdict != NULL, transactional); /* every transactional request asks for its verdict */
    uint64_t paused = 0;
    if (head->op == SIMTX_OP_READ && transactional && b->loads < 4) {
        unsigned n = b->loads++;
        if (n == 0) paused = b->pause_at_first_load;
        b->load_cycle[n] = b->now;
        b->load_verdict_cycle[n] = b->now + LOOKUP;
        b->load_data_cycle[n] = b->now + DATA_LATENCY;
        b->load_lanes[n] = head->lane_mask;
        b->load_rd = ldst_rd(head);
        b->load_warp = (unsigned)head->warp;
    } else if (head->op == SIMTX_OP_WRITE && transactional && b->stores < 4) {
        b->store_cycle[b->stores] = b->now;
        b->store_lanes[b->stores++] = head->lane_mask;
    }
    if (verdict) {
        simtx_msg response = response_of(verdict);
        response.transaction_id = 0; /* the first access of the attempt: log index 0 */
        tx_set_verdict_lanes(&response, paused);
        schedule(b, b->now + LOOKUP, LDST_PORT, &response);
    }
    uint64_t ready = head->op == SIMTX_OP_READ && transactional ? b->now + DATA_LATENCY : b->now + LOOKUP + 1;
    for (unsigned i = verdict ? 1 : 0; i < b->staged_count; i++) {
        const simtx_msg *beat = &b->staged[i];
        simtx_msg response = response_of(beat);
        unsigned group = ldst_group(beat);
        uint32_t lanes = ldst_group_lanes(beat->lane_mask, group);
        if (head->op == SIMTX_OP_READ) {
            CHECK_EQUAL(group, 0);
            for (uint32_t m = lanes; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                uint32_t address = ldst_slot(beat, l);
                CHECK(address == A_BASE + 4 * l);
                ldst_set_slot(&response, l, (paused >> l) & 1 ? GARBAGE : b->a[l]);
            }
            if (paused) { /* the data beats still mark the paused lanes (tx.h 2) */
                response.flags |= SIMTX_FLAG_TX_PAUSE;
                response.aux = (response.aux & UINT64_C(0xffffffff)) | (uint64_t)(uint32_t)paused << 32;
            }
        } else {
            if (ldst_beat_of(beat) == LDST_BEAT_DATA)
                for (uint32_t m = lanes; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    uint32_t value = ldst_slot(beat, l);
                    if (transactional) b->b[l] = value;
                    else b->c[l] = value; /* after the commit: the loaded values */
                }
            response.size = 0;
        }
        schedule(b, ready, LDST_PORT, &response);
    }
    b->staged_count = 0;
}

/* Takes what the core sent this cycle. */
static void take_sent(bench *b)
{
    for (size_t i = 0; i < b->fake.sent_count; i++) {
        const simtx_msg *msg = &b->fake.sent[i];
        if (b->fake.sent_port[i] == LDS_PORT) { /* a CTA's clear and the size check: done */
            simtx_msg response = response_of(msg);
            schedule(b, b->now + 1, LDS_PORT, &response);
            continue;
        }
        if (simtx_op_info_of(msg->op)->family == SIMTX_FAMILY_TX) {
            tx_event(b, msg);
            continue;
        }
        CHECK(b->staged_count <= LDST_MAX_BEATS);
        if (b->staged_count <= LDST_MAX_BEATS) b->staged[b->staged_count++] = *msg;
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
            simt_core_block_info.accept(b->core, due.port, &due.msg, b->now);
        }
        simt_core_block_info.cycle(b->core, b->now);
        take_sent(b);
    }
}

static const uint32_t *register_lanes(bench *b, unsigned r)
{
    return &b->core->warps[b->load_warp].registers[r * b->core->lanes];
}

static bench *bench_open(uint64_t pause_at_first_load)
{
    bench *b = &b_storage;
    memset(b, 0, sizeof *b);
    b->pause_at_first_load = pause_at_first_load;
    for (unsigned l = 0; l < LANES; l++) b->a[l] = 1000 + l;
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    const char *settings[] = {"lanes=32", "warps=4", NULL};
    fake_params(&simt_core_block_info, &b->params, settings);
    char error[512] = "", path[512];
    b->core = simt_core_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    CHECK(b->core != NULL);
    snprintf(path, sizeof path, "%s/tx_verdict_O2.elf", SIMTX_KERNEL_DIR);
    b->image = kernel_image_load_file(path, error, sizeof error);
    if (!b->image) fprintf(stderr, "%s: %s\n", path, error);
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
    simt_core_block_info.destroy(b->core);
    simtx_params_release(simt_core_block_info.params, &b->params);
    kernel_image_destroy(b->image);
    simtx_observer_destroy(b->observer);
}

/* No lane pauses: the warp issues the store the cycles after the load's
 * verdict, DATA_LATENCY - LOOKUP cycles before the load's data. */
static void test_issue_after_verdict(void)
{
    bench *b = bench_open(0);
    run(b, 2000);
    CHECK_EQUAL(b->loads, 1);
    CHECK_EQUAL(b->stores, 1);
    CHECK_EQUAL(b->load_lanes[0], UINT32_MAX);
    /* The verdict reaches the core at load + LOOKUP; the warp issues the
     * next cycle, and the store follows within the ALU latency (the
     * compiler may put an address computation between them). */
    uint64_t verdict = b->load_verdict_cycle[0];
    CHECK_EQUAL(verdict - b->load_cycle[0], LOOKUP);
    CHECK(b->store_cycle[0] > verdict);
    CHECK(b->store_cycle[0] <= verdict + 1 + (uint64_t)b->params.alu_latency);
    CHECK(b->store_cycle[0] < b->load_data_cycle[0]);
    CHECK_EQUAL(b->commits, 1);
    CHECK_EQUAL(b->commit_lanes[0], UINT32_MAX);
    for (unsigned l = 0; l < LANES; l++) {
        CHECK_EQUAL(b->b[l], l + 1);
        CHECK_EQUAL(b->c[l], 1000 + l);
    }
    bench_close(b);
}

/* Lane 1 pauses at the load: the warp goes on at the verdict without it
 * (the store leaves without lane 1), the load's data, arriving after,
 * leave lane 1's register alone; the others commit, lane 1 resumes at
 * log index 0, re-runs the load and gets the value the word holds then. */
static void test_pause_before_data(void)
{
    bench *b = bench_open(0x2);
    run(b, 1);
    while (b->loads < 1 && b->now < 500) run(b, 1);
    uint64_t data = b->load_data_cycle[0];
    run(b, data - b->now); /* up to the data's cycle: the store went out without lane 1 */
    CHECK_EQUAL(b->stores, 1);
    CHECK_EQUAL(b->store_lanes[0], UINT32_MAX & ~UINT64_C(0x2));
    CHECK(b->store_cycle[0] < data);
    uint32_t before = register_lanes(b, b->load_rd)[1];
    run(b, 1); /* the data arrive */
    const uint32_t *rd = register_lanes(b, b->load_rd);
    CHECK(b->load_rd != 0);
    CHECK_EQUAL(rd[0], 1000);
    CHECK_EQUAL(rd[1], before); /* paused: not written */
    CHECK(rd[1] != GARBAGE);
    b->a[1] = 4242; /* a committing transaction wrote it meanwhile */
    run(b, 3000);
    CHECK_EQUAL(b->commits, 2);
    CHECK_EQUAL(b->commit_lanes[0], UINT32_MAX & ~UINT64_C(0x2));
    CHECK_EQUAL(b->resumes, 1);
    CHECK_EQUAL(b->resume_lanes[0], 0x2);
    CHECK_EQUAL(b->resume_index[0], 0);
    CHECK_EQUAL(b->loads, 2);
    CHECK_EQUAL(b->load_lanes[1], 0x2); /* the paused load, re-run */
    CHECK_EQUAL(b->commit_lanes[1], 0x2);
    CHECK_EQUAL(b->c[0], 1000);
    CHECK_EQUAL(b->c[1], 4242);
    CHECK_EQUAL(b->b[1], 2);
    bench_close(b);
}

int main(void)
{
    test_issue_after_verdict();
    test_pause_before_data();
    return simtx_test_summary();
}
