/* The ldst_unit block without SystemC, driven with ldst.h beats on its core
 * socket against a fake memory on its memory socket: coalescing (one
 * segment, scattered lanes, 64 lanes in two groups), byte masks of sub-word
 * stores, atomics in ascending lane order, CAS and sc, faults that leave
 * memory untouched, fence ordering, clwb, the TM protocol passed through
 * both ways, flags carried, and backpressure on either socket with no beat
 * lost or answered twice. */
#include <stdio.h>
#include <string.h>

#include "fake_env.h"
#include "ldst.h"
#include "ldst_unit.h"
#include "sparse_memory.h"
#include "test_support.h"

enum { CORE = 0, MEMORY = 1 };
#define ALL32 UINT64_C(0xffffffff)
#define GLOBAL 0x10000000u

typedef struct bench {
    fake_env fake;
    simtx_observer *observer;
    ldst_unit_params params;
    void *unit;
    sparse_memory *memory;
    size_t seen_memory; /* memory-socket messages already served */
    size_t seen_core;   /* core-socket responses already looked at */
    uint32_t tag, transaction_id; /* what a unit in between (a tm_unit filter) sets on the requests sent */
} bench;

static void bench_open(bench *b, const char *const *settings)
{
    char error[256] = "";
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    fake_params(&ldst_unit_block_info, &b->params, settings);
    b->unit = ldst_unit_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    if (!b->unit) fprintf(stderr, "create: %s\n", error);
    CHECK(b->unit != NULL);
    b->memory = sparse_memory_create();
    b->seen_memory = b->seen_core = 0;
    b->tag = b->transaction_id = 0;
}

static void bench_close(bench *b)
{
    ldst_unit_block_info.destroy(b->unit);
    simtx_params_release(ldst_unit_block_info.params, &b->params);
    sparse_memory_destroy(b->memory);
    simtx_observer_destroy(b->observer);
}

static uint64_t counter(bench *b, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, name);
    return e ? *(const uint64_t *)e->value : UINT64_MAX;
}

typedef struct request {
    simtx_op op;
    simtx_atomic_op atomic_op;
    ldst_kind kind;
    unsigned size, rd;
    uint64_t lanes, id;
    uint8_t flags;
} request;

/* Offers every beat of a request at cycle now; returns the first beat's
 * answer (the others must be taken). run: not 0, the request is a run with
 * lane 0's address there (ldst.h), and addresses are not sent. */
static simtx_accept_result send_run(bench *b, const request *r, uint32_t run, const uint32_t *addresses, const uint32_t *data,
                                    const uint32_t *expected, uint64_t now)
{
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, r->op, 0, 0);
    header.atomic_op = (uint8_t)r->atomic_op;
    header.aux = ldst_aux(r->rd, r->size, LDST_BEAT_ADDRESSES, 0, false, r->kind, 0);
    header.lane_mask = r->lanes;
    header.id = r->id;
    header.core = 2;
    header.warp = 3;
    header.cta = 1;
    header.flags = r->flags;
    header.aux |= (uint64_t)b->tag << 32;
    header.transaction_id = b->transaction_id;
    if (run) {
        header.address = run;
        header.aux |= LDST_RUN;
    }
    unsigned count = ldst_make_beats(beats, &header, addresses, data, expected);
    for (unsigned i = 0; i < count; i++) beats[i].handle = (void *)(uintptr_t)(0x1000 * (r->id + 1) + i); /* each beat's own */
    simtx_accept_result first = ldst_unit_block_info.accept(b->unit, CORE, &beats[0], now);
    if (first == SIMTX_BUSY) return first;
    for (unsigned i = 1; i < count; i++) CHECK(ldst_unit_block_info.accept(b->unit, CORE, &beats[i], now) != SIMTX_BUSY);
    return first;
}

static simtx_accept_result send(bench *b, const request *r, const uint32_t *addresses, const uint32_t *data, const uint32_t *expected,
                                uint64_t now)
{
    return send_run(b, r, 0, addresses, data, expected, now);
}

/* The memory-socket messages sent since the last call, into out[]; returns how many. */
static size_t new_requests(bench *b, const simtx_msg **out, size_t max)
{
    size_t n = 0;
    for (; b->seen_memory < b->fake.sent_count; b->seen_memory++)
        if (b->fake.sent_port[b->seen_memory] == MEMORY && n < max) out[n++] = &b->fake.sent[b->seen_memory];
    return n;
}

/* The memory's answer to a request (applied to the fake memory now). */
static simtx_msg answer(bench *b, const simtx_msg *request)
{
    simtx_msg response = *request;
    if (request->op == SIMTX_OP_READ) {
        sparse_memory_read(b->memory, request->address, response.data, request->size);
    } else if (request->op == SIMTX_OP_WRITE) {
        sparse_memory_write_masked(b->memory, request->address, request->data, request->size, request->byte_enable);
    } else if (request->op == SIMTX_OP_ATOMIC) {
        uint32_t old, operand, updated;
        sparse_memory_read(b->memory, request->address, &old, 4);
        memcpy(&operand, request->data, 4);
        updated = simtx_atomic_apply((simtx_atomic_op)request->atomic_op, old, operand, (uint32_t)request->aux);
        sparse_memory_write(b->memory, request->address, &updated, 4);
        memcpy(response.data, &old, 4);
    }
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    return response;
}

/* Serves every memory request sent so far, in order, answering at now. */
static size_t serve_all(bench *b, uint64_t now)
{
    const simtx_msg *requests[256] = {0};
    size_t n = new_requests(b, requests, 256);
    simtx_msg responses[256];
    for (size_t i = 0; i < n; i++) responses[i] = answer(b, requests[i]);
    for (size_t i = 0; i < n; i++) CHECK(ldst_unit_block_info.accept(b->unit, MEMORY, &responses[i], now) != SIMTX_BUSY);
    return n;
}

/* Ticks the unit from `from` to `to`, serving memory requests as they leave. */
static void run(bench *b, uint64_t from, uint64_t to)
{
    for (uint64_t now = from; now <= to; now++) {
        ldst_unit_block_info.cycle(b->unit, now);
        serve_all(b, now);
    }
}

/* The core-socket responses sent since the last call. */
static size_t core_responses(bench *b, const simtx_msg **out, size_t max)
{
    size_t n = 0;
    for (; b->seen_core < b->fake.sent_count; b->seen_core++)
        if (b->fake.sent_port[b->seen_core] == CORE && n < max) out[n++] = &b->fake.sent[b->seen_core];
    return n;
}

static void fill_words(bench *b, uint32_t address, unsigned count, uint32_t first)
{
    for (unsigned i = 0; i < count; i++) {
        uint32_t value = first + i;
        sparse_memory_write(b->memory, address + 4 * i, &value, 4);
    }
}

static uint32_t word_at(bench *b, uint32_t address)
{
    uint32_t value = 0;
    sparse_memory_read(b->memory, address, &value, 4);
    return value;
}

/* A whole coalesced warp: one memory request of the segment, sent inside
 * accept; one response beat with every lane's word, LDST_LAST set. */
static void test_one_segment(void)
{
    bench b;
    bench_open(&b, NULL);
    fill_words(&b, GLOBAL + 0x100, 32, 500);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x100 + 4 * l;
    request r = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 5, ALL32, 7, 0};
    CHECK(send(&b, &r, addresses, NULL, NULL, 10) != SIMTX_BUSY);
    const simtx_msg *requests[64] = {0};
    size_t n = new_requests(&b, requests, 64);
    b.seen_memory = 0; /* served below */
    CHECK_EQUAL(n, 1);
    if (n == 1) {
        CHECK_EQUAL(requests[0]->op, SIMTX_OP_READ);
        CHECK_EQUAL(requests[0]->address, GLOBAL + 0x100);
        CHECK_EQUAL(requests[0]->size, 128);
        CHECK_EQUAL(requests[0]->lane_mask, ALL32);
        CHECK_EQUAL(requests[0]->warp, 3);
    }
    serve_all(&b, 30);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 1); /* answered at the memory's response, without a cycle */
    CHECK(ldst_is_last(responses[0]));
    CHECK_EQUAL(responses[0]->id, 7);
    CHECK_EQUAL(ldst_rd(responses[0]), 5);
    CHECK_EQUAL((uintptr_t)responses[0]->handle, 0x1000 * 8);
    CHECK(responses[0]->is_response);
    unsigned wrong = 0;
    for (unsigned l = 0; l < 32; l++) wrong += ldst_slot(responses[0], l) != 500 + l;
    CHECK_EQUAL(wrong, 0);
    CHECK_EQUAL(counter(&b, "loads"), 1);
    CHECK_EQUAL(counter(&b, "memory_requests"), 1);
    bench_close(&b);
}

/* Scattered lanes: a segment each, one memory request per cycle; a partial
 * mask answers only its lanes; 1- and 2-byte loads come back zero-extended. */
static void test_scattered(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) {
        addresses[l] = GLOBAL + 0x1000 + 256 * l + 2;
        uint32_t value = 0xf000u + l;
        sparse_memory_write(b.memory, addresses[l], &value, 2);
    }
    request r = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 2, 1, UINT64_C(0xaaaaaaaa), 1, 0};
    CHECK(send(&b, &r, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    const simtx_msg *requests[64] = {0};
    CHECK_EQUAL(new_requests(&b, requests, 64), 1); /* the first at once, the rest one per cycle */
    b.seen_memory = 0;
    for (uint64_t now = 1; now < 16; now++) ldst_unit_block_info.cycle(b.unit, now);
    CHECK_EQUAL(new_requests(&b, requests, 64), 16);
    CHECK_EQUAL(requests[15]->size, 32); /* one sector */
    b.seen_memory = 0;
    serve_all(&b, 20);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 1);
    unsigned wrong = 0;
    for (unsigned l = 1; l < 32; l += 2) wrong += ldst_slot(responses[0], l) != 0xf000u + l;
    CHECK_EQUAL(wrong, 0);
    CHECK_EQUAL(responses[0]->size, 4 * 32);
    CHECK_EQUAL(counter(&b, "memory_requests"), 16);
    bench_close(&b);
}

/* 64 lanes: two groups, two segments, a response beat per group (the
 * second carries LDST_LAST); a store's data beats are answered empty. */
static void test_two_groups(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64], data[64];
    for (unsigned l = 0; l < 64; l++) addresses[l] = GLOBAL + 0x2000 + 4 * l, data[l] = 0x100u * l + 9;
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, UINT64_MAX, 2, 0};
    CHECK(send(&b, &store, addresses, data, NULL, 0) != SIMTX_BUSY);
    run(&b, 1, 5);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 4); /* addresses + data per group */
    CHECK(!ldst_is_last(responses[0]) && ldst_is_last(responses[3]));
    CHECK_EQUAL(responses[1]->size, 0);
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x2000 + 4 * 63), 0x100u * 63 + 9);
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 3, UINT64_MAX, 3, 0};
    CHECK(send(&b, &load, addresses, NULL, NULL, 6) != SIMTX_BUSY);
    run(&b, 6, 10);
    CHECK_EQUAL(core_responses(&b, responses, 8), 2);
    CHECK_EQUAL(ldst_group(responses[1]), 1);
    CHECK(ldst_is_last(responses[1]));
    CHECK_EQUAL(ldst_slot(responses[1], 31), 0x100u * 63 + 9);
    CHECK_EQUAL(ldst_slot(responses[0], 0), 9);
    CHECK_EQUAL(counter(&b, "memory_requests"), 4);
    bench_close(&b);
}

/* Runs (addresses in the header, lane l at base + 4 l): a 64-lane store is
 * one data beat per group and one response each; a load with holes in its
 * mask, and of half words, reads each lane's own address; a run leaving
 * the window faults at its lowest bad lane; an atomic run is a command
 * error. Statistics as for the same requests with their addresses sent. */
static void test_runs(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t data[64], unused[64] = {0};
    for (unsigned l = 0; l < 64; l++) data[l] = 0x300u + l;
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, SIMTX_OP_WRITE, GLOBAL + 0x8000, 0);
    header.aux = ldst_aux(0, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0) | LDST_RUN;
    header.lane_mask = UINT64_MAX;
    CHECK_EQUAL(ldst_make_beats(beats, &header, unused, data, NULL), 2); /* data beats only */
    CHECK(ldst_beat_of(&beats[0]) == LDST_BEAT_DATA && ldst_group(&beats[1]) == 1 && ldst_is_last(&beats[1]));
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, UINT64_MAX, 1, 0};
    CHECK(send_run(&b, &store, GLOBAL + 0x8000, unused, data, NULL, 0) != SIMTX_BUSY);
    run(&b, 1, 4);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 2);
    CHECK(!ldst_is_last(responses[0]) && ldst_is_last(responses[1]) && responses[1]->status == SIMTX_STATUS_OK);
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x8000), 0x300);
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x8000 + 4 * 63), 0x300 + 63);
    CHECK_EQUAL(counter(&b, "memory_requests"), 2);
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 6, UINT64_C(0x0f0f00f0), 2, 0};
    CHECK(send_run(&b, &load, GLOBAL + 0x8000 - 8, unused, NULL, NULL, 5) != SIMTX_BUSY);
    run(&b, 5, 8);
    CHECK_EQUAL(core_responses(&b, responses, 8), 1);
    unsigned wrong = 0;
    for (unsigned l = 4; l < 28; l++) wrong += ((load.lanes >> l) & 1) && ldst_slot(responses[0], l) != 0x300u + l - 2;
    CHECK_EQUAL(wrong, 0);
    request halves = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 2, 6, ALL32, 3, 0};
    CHECK(send_run(&b, &halves, GLOBAL + 0x8000, unused, NULL, NULL, 9) != SIMTX_BUSY);
    run(&b, 9, 12);
    CHECK_EQUAL(core_responses(&b, responses, 8), 1);
    CHECK(ldst_slot(responses[0], 5) == 0x305 && ldst_slot(responses[0], 31) == 0x31f); /* each word's lower half */
    CHECK_EQUAL(counter(&b, "memory_requests"), 4);
    request outside = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 6, UINT64_C(0xfff0), 4, 0};
    CHECK(send_run(&b, &outside, GLOBAL - 40, unused, NULL, NULL, 13) != SIMTX_BUSY);
    request atomic = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_ADD, LDST_KIND_PLAIN, 4, 6, 0x3, 5, 0};
    CHECK(send_run(&b, &atomic, GLOBAL + 0x8000, unused, data, NULL, 13) != SIMTX_BUSY);
    run(&b, 14, 15);
    CHECK_EQUAL(core_responses(&b, responses, 8), 3);
    CHECK_EQUAL(ldst_fault_of(responses[0]), LDST_FAULT_RANGE);
    CHECK_EQUAL(ldst_fault_lane(responses[0]), 4);
    CHECK_EQUAL(ldst_fault_of(responses[2]), LDST_FAULT_UNSUPPORTED);
    CHECK_EQUAL(counter(&b, "memory_requests"), 4);
    CHECK_EQUAL(counter(&b, "loads"), 2);
    CHECK_EQUAL(counter(&b, "stores"), 1);
    CHECK_STRING(b.fake.failure, "");
    bench_close(&b);
}

/* Byte and half-word stores enable exactly their bytes: the bytes around
 * them keep their values. */
static void test_byte_masks(void)
{
    bench b;
    bench_open(&b, NULL);
    uint8_t pattern[128];
    memset(pattern, 0xaa, sizeof pattern);
    sparse_memory_write(b.memory, GLOBAL + 0x3000, pattern, sizeof pattern);
    uint32_t addresses[64], data[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x3000 + 2 * l, data[l] = 0x5500u + l;
    request bytes = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 1, 0, UINT64_C(0x0000ffff), 4, 0};
    CHECK(send(&b, &bytes, addresses, data, NULL, 0) != SIMTX_BUSY);
    const simtx_msg *requests[4] = {0};
    CHECK_EQUAL(new_requests(&b, requests, 4), 1);
    unsigned enabled = 0;
    for (unsigned i = 0; i < 128; i++) enabled += simtx_msg_byte_enabled(requests[0], i);
    CHECK_EQUAL(enabled, 16);
    b.seen_memory = 0;
    serve_all(&b, 5);
    uint8_t got[128];
    sparse_memory_read(b.memory, GLOBAL + 0x3000, got, sizeof got);
    unsigned wrong = 0;
    for (unsigned i = 0; i < 64; i++) wrong += got[i] != (i % 2 == 0 && i < 32 ? (uint8_t)(i / 2) : 0xaa);
    CHECK_EQUAL(wrong, 0);
    /* Half words on every fourth byte pair of the next segment. */
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x3040 + 4 * l;
    request halves = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 2, 0, UINT64_C(0x5), 5, 0};
    CHECK(send(&b, &halves, addresses, data, NULL, 6) != SIMTX_BUSY);
    serve_all(&b, 7);
    sparse_memory_read(b.memory, GLOBAL + 0x3000, got, sizeof got);
    CHECK(got[0x40] == 0x00 && got[0x41] == 0x55 && got[0x42] == 0xaa && got[0x44] == 0xaa && got[0x48] == 0x02 && got[0x49] == 0x55 &&
          got[0x4a] == 0xaa);
    bench_close(&b);
}

/* Atomics: one memory request per lane in ascending lane order, each lane
 * seeing the previous lane's result on a shared word. */
static void test_atomic_order(void)
{
    bench b;
    bench_open(&b, NULL);
    fill_words(&b, GLOBAL + 0x4000, 1, 100);
    uint32_t addresses[64], data[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x4000, data[l] = l + 1;
    request add = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_ADD, LDST_KIND_PLAIN, 4, 6, UINT64_C(0x10000101), 5, 0};
    CHECK(send(&b, &add, addresses, data, NULL, 0) != SIMTX_BUSY);
    run(&b, 1, 6);
    const simtx_msg *responses[4] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 4), 2);
    /* Lanes 0, 8, 28 add 1, 9, 29 in that order. */
    CHECK_EQUAL(ldst_slot(responses[0], 0), 100);
    CHECK_EQUAL(ldst_slot(responses[0], 8), 101);
    CHECK_EQUAL(ldst_slot(responses[0], 28), 110);
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x4000), 139);
    CHECK_EQUAL(counter(&b, "memory_requests"), 3);
    CHECK_EQUAL(counter(&b, "atomics"), 1);
    bench_close(&b);
}

/* CAS and sc against the EXPECTED beat: a matching lane stores (sc: 0), a
 * stale one does not (sc: 1); lr reads the word. */
static void test_cas_and_sc(void)
{
    bench b;
    bench_open(&b, NULL);
    fill_words(&b, GLOBAL + 0x5000, 2, 40); /* 40, 41 */
    uint32_t addresses[64] = {GLOBAL + 0x5000, GLOBAL + 0x5004}, data[64] = {77, 88}, expected[64] = {40, 99};
    request lr = {SIMTX_OP_READ, 0, LDST_KIND_LR, 4, 1, 0x3, 1, 0};
    CHECK(send(&b, &lr, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    run(&b, 1, 3);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 1);
    CHECK(ldst_slot(responses[0], 0) == 40 && ldst_slot(responses[0], 1) == 41);
    request sc = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_SC, 4, 1, 0x3, 2, 0};
    CHECK(send(&b, &sc, addresses, data, expected, 4) != SIMTX_BUSY);
    run(&b, 5, 8);
    CHECK_EQUAL(core_responses(&b, responses, 8), 3); /* addresses, data, expected */
    CHECK_EQUAL(ldst_slot(responses[0], 0), 0);
    CHECK_EQUAL(ldst_slot(responses[0], 1), 1);
    CHECK(word_at(&b, GLOBAL + 0x5000) == 77 && word_at(&b, GLOBAL + 0x5004) == 41);
    CHECK_EQUAL(counter(&b, "sc"), 1);
    CHECK_EQUAL(counter(&b, "sc_failures"), 1);
    request cas = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_PLAIN, 4, 1, 0x2, 3, 0};
    expected[1] = 41;
    CHECK(send(&b, &cas, addresses, data, expected, 9) != SIMTX_BUSY);
    run(&b, 10, 12);
    CHECK_EQUAL(core_responses(&b, responses, 8), 3);
    CHECK_EQUAL(ldst_slot(responses[0], 1), 41); /* the old value */
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x5004), 88);
    bench_close(&b);
}

/* A bad lane (outside the windows, misaligned) or op fails the request in
 * every response, naming the lowest bad lane, with no memory request: the
 * cycle after the last beat, never inside the sender's call. */
static void test_faults(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64], data[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x6000 + 4 * l, data[l] = 1;
    addresses[9] = 0x90000000u; /* between the shared and persistent windows */
    addresses[12] = 0x7ffffffeu; /* its last bytes past the global window */
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, ALL32, 1, 0};
    CHECK(send(&b, &store, addresses, data, NULL, 0) != SIMTX_BUSY);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 0);
    run(&b, 1, 3);
    CHECK_EQUAL(core_responses(&b, responses, 8), 2);
    CHECK_EQUAL(responses[1]->status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(ldst_fault_of(responses[0]), LDST_FAULT_RANGE);
    CHECK_EQUAL(ldst_fault_lane(responses[1]), 9);
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x6000), 0); /* no lane took effect */
    addresses[9] = GLOBAL + 0x6024;
    addresses[12] = GLOBAL + 0x6031; /* misaligned */
    addresses[20] = 0xa0000000u;     /* persistent: fine */
    CHECK(send(&b, &store, addresses, data, NULL, 4) != SIMTX_BUSY);
    run(&b, 5, 6);
    CHECK_EQUAL(core_responses(&b, responses, 8), 2);
    CHECK_EQUAL(ldst_fault_of(responses[1]), LDST_FAULT_MISALIGNED);
    CHECK_EQUAL(ldst_fault_lane(responses[1]), 12);
    addresses[12] = GLOBAL + 0x6030;
    request bad_atomic = {SIMTX_OP_ATOMIC, (simtx_atomic_op)SIMTX_ATOMIC_COUNT, LDST_KIND_PLAIN, 4, 1, 0x1, 3, 0};
    CHECK(send(&b, &bad_atomic, addresses, data, NULL, 7) != SIMTX_BUSY);
    request row_copy = {SIMTX_OP_ROW_COPY, 0, LDST_KIND_PLAIN, 4, 0, 0x1, 4, 0};
    CHECK(send(&b, &row_copy, addresses, NULL, NULL, 7) != SIMTX_BUSY);
    request clear = {SIMTX_OP_WRITE, 0, LDST_KIND_CLEAR, 0, 0, 0, 5, 0}; /* the lds's clear: not the unit's */
    CHECK(send(&b, &clear, addresses, NULL, NULL, 7) != SIMTX_BUSY);
    run(&b, 8, 9);
    CHECK_EQUAL(core_responses(&b, responses, 8), 4);
    CHECK_EQUAL(responses[1]->status, SIMTX_STATUS_COMMAND_ERROR);
    CHECK(ldst_fault_of(responses[2]) == LDST_FAULT_UNSUPPORTED && ldst_fault_of(responses[3]) == LDST_FAULT_UNSUPPORTED);
    unsigned to_memory = 0;
    for (size_t i = 0; i < b.fake.sent_count; i++) to_memory += b.fake.sent_port[i] == MEMORY;
    CHECK_EQUAL(to_memory, 0); /* nothing ever went to memory */
    CHECK_EQUAL(word_at(&b, GLOBAL + 0x6000), 0);
    CHECK_EQUAL(counter(&b, "address_errors"), 2);
    CHECK_EQUAL(counter(&b, "command_errors"), 3);
    CHECK_STRING(b.fake.failure, "");
    bench_close(&b);
}

/* A fence's memory FENCE leaves after the earlier requests' and it is
 * answered only once every earlier request has completed, even when its
 * acknowledgement comes first. */
static void test_fence(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x7000 + 4 * l;
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 1, ALL32, 1, 0};
    request fence = {SIMTX_OP_FENCE, 0, LDST_KIND_PLAIN, 0, 0, 0, 2, 0};
    CHECK(send(&b, &load, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    CHECK(send(&b, &fence, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    for (uint64_t now = 1; now < 4; now++) ldst_unit_block_info.cycle(b.unit, now);
    const simtx_msg *requests[4] = {0};
    CHECK_EQUAL(new_requests(&b, requests, 4), 2);
    CHECK(requests[0]->op == SIMTX_OP_READ && requests[1]->op == SIMTX_OP_FENCE);
    simtx_msg load_response = answer(&b, requests[0]), fence_response = answer(&b, requests[1]);
    CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &fence_response, 5) != SIMTX_BUSY);
    const simtx_msg *responses[4] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 4), 0); /* the load is still out */
    CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &load_response, 6) != SIMTX_BUSY);
    CHECK_EQUAL(core_responses(&b, responses, 4), 2);
    CHECK_EQUAL(responses[0]->id, 1);
    CHECK_EQUAL(responses[1]->id, 2);
    CHECK(ldst_is_last(responses[1]) && responses[1]->size == 0);
    CHECK_EQUAL(counter(&b, "fences"), 1);
    bench_close(&b);
}

/* clwb: one CLEAN_LINE per touched segment, answered after their acknowledgements. */
static void test_clean_line(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64] = {GLOBAL + 0x8004, GLOBAL + 0x8010, GLOBAL + 0x8080, 0xa0000100u};
    request clwb = {SIMTX_OP_CLEAN_LINE, 0, LDST_KIND_PLAIN, 4, 0, 0xf, 1, 0};
    CHECK(send(&b, &clwb, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    for (uint64_t now = 1; now < 4; now++) ldst_unit_block_info.cycle(b.unit, now);
    const simtx_msg *requests[8] = {0};
    CHECK_EQUAL(new_requests(&b, requests, 8), 3);
    CHECK(requests[0]->op == SIMTX_OP_CLEAN_LINE && requests[0]->address == GLOBAL + 0x8000 && requests[1]->address == GLOBAL + 0x8080 &&
          requests[2]->address == 0xa0000100u);
    b.seen_memory = 0;
    serve_all(&b, 4);
    const simtx_msg *responses[4] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 4), 1);
    CHECK(ldst_is_last(responses[0]) && responses[0]->status == SIMTX_STATUS_OK && responses[0]->size == 0);
    CHECK_EQUAL(counter(&b, "clean_lines"), 1);
    /* Its wait (CWPPR): from its beat at cycle 0 to its answers at cycle 4. */
    const simtx_stat_entry *waits = simtx_observer_find_stat(b.observer, "persist_request_cycles");
    const simtx_histogram *wait = waits ? (const simtx_histogram *)waits->value : NULL;
    CHECK(wait && wait->count == 1 && wait->sum == 4);
    bench_close(&b);
}

/* Flags: a non-temporal store's and a transactional load's memory
 * requests carry them. */
static void test_flags(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64], data[64] = {0};
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0x9000 + 4 * l;
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, ALL32, 1, SIMTX_FLAG_NON_TEMPORAL};
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 2, ALL32, 2, SIMTX_FLAG_TRANSACTIONAL};
    CHECK(send(&b, &store, addresses, data, NULL, 0) != SIMTX_BUSY);
    CHECK(send(&b, &load, addresses, NULL, NULL, 1) != SIMTX_BUSY);
    run(&b, 1, 3);
    CHECK_EQUAL(b.fake.sent[0].flags, SIMTX_FLAG_NON_TEMPORAL);
    unsigned transactional = 0;
    for (size_t i = 0; i < b.fake.sent_count; i++)
        transactional += b.fake.sent_port[i] == MEMORY && b.fake.sent[i].op == SIMTX_OP_READ && b.fake.sent[i].flags == SIMTX_FLAG_TRANSACTIONAL;
    CHECK_EQUAL(transactional, 1);
    CHECK_EQUAL(counter(&b, "non_temporal_stores"), 1);
    CHECK_EQUAL(counter(&b, "stores"), 1);
    bench_close(&b);
}

/* A request's transaction_id and tag (ldst.h) reach every memory request
 * made for it: the tag in aux bits 32-63, a CAS's expected value below. */
static void test_tags(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64], expected[64] = {0}, data[64] = {0};
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0xb000 + 256 * (l & 1) + 4 * l; /* two segments */
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 2, ALL32, 1, SIMTX_FLAG_TRANSACTIONAL | SIMTX_FLAG_SNAPSHOT};
    b.tag = 0x1234, b.transaction_id = 77;
    CHECK(send(&b, &load, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    expected[0] = 5;
    request cas = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_PLAIN, 4, 3, 1, 2, 0};
    b.tag = 9, b.transaction_id = 78;
    CHECK(send(&b, &cas, addresses, data, expected, 1) != SIMTX_BUSY);
    for (uint64_t now = 1; now <= 4; now++) ldst_unit_block_info.cycle(b.unit, now); /* issued, not answered */
    const simtx_msg *requests[8];
    size_t n = new_requests(&b, requests, 8);
    CHECK_EQUAL(n, 3);
    for (size_t i = 0; i < n && i < 2; i++) {
        CHECK_EQUAL(requests[i]->op, SIMTX_OP_READ);
        CHECK_EQUAL(requests[i]->transaction_id, 77);
        CHECK_EQUAL(requests[i]->aux, UINT64_C(0x1234) << 32);
        CHECK_EQUAL(requests[i]->flags, SIMTX_FLAG_TRANSACTIONAL | SIMTX_FLAG_SNAPSHOT);
    }
    if (n == 3) {
        CHECK_EQUAL(requests[2]->op, SIMTX_OP_ATOMIC);
        CHECK_EQUAL(requests[2]->transaction_id, 78);
        CHECK_EQUAL(requests[2]->aux, 5); /* the CAS's expected value: the op's own aux */
    }
    run(&b, 5, 8); /* answered */
    bench_close(&b);
}

/* A transactional load's responses carry its read stamp, the lowest aux
 * of its memory responses (ldst.h); a plain load's carry none. */
static void test_read_stamp(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0xa000 + 256 * (l & 1) + 4 * l; /* two segments */
    for (unsigned transactional = 0; transactional < 2; transactional++) {
        request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 2, ALL32, 5 + transactional,
                        transactional ? SIMTX_FLAG_TRANSACTIONAL : 0};
        CHECK(send(&b, &load, addresses, NULL, NULL, 10 * transactional) != SIMTX_BUSY);
        ldst_unit_block_info.cycle(b.unit, 10 * transactional + 1);
        const simtx_msg *requests[8];
        size_t n = new_requests(&b, requests, 8);
        CHECK_EQUAL(n, 2);
        simtx_msg responses[2];
        for (size_t i = 0; i < n && i < 2; i++) {
            responses[i] = answer(&b, requests[i]);
            responses[i].aux = i ? 7 : 9;
        }
        for (size_t i = 0; i < n && i < 2; i++)
            CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &responses[i], 10 * transactional + 2) != SIMTX_BUSY);
        run(&b, 10 * transactional + 2, 10 * transactional + 5);
        const simtx_msg *back[4];
        CHECK_EQUAL(core_responses(&b, back, 4), 1);
        CHECK_EQUAL(back[0]->status, SIMTX_STATUS_OK);
        CHECK_EQUAL(ldst_stamp(back[0]), transactional ? 7u : 0u);
    }
    bench_close(&b);
}

/* TM protocol messages pass through unchanged both ways, inside accept
 * when the memory socket takes them, else in order after its port_free;
 * they may come between a request's beats. */
static void test_tm_pass_through(void)
{
    bench b;
    bench_open(&b, NULL);
    simtx_msg log;
    simtx_msg_init(&log, SIMTX_OP_TM_READ_LOG, 0x10002000, 16);
    log.id = UINT64_C(0x8000000000000005);
    log.transaction_id = 42;
    log.handle = (void *)(uintptr_t)0xbeef;
    for (unsigned i = 0; i < 16; i++) log.data[i] = (uint8_t)(i * 3);
    CHECK(ldst_unit_block_info.accept(b.unit, CORE, &log, 0) != SIMTX_BUSY);
    CHECK_EQUAL(b.fake.sent_count, 1);
    CHECK_EQUAL(b.fake.sent_port[0], MEMORY);
    CHECK(memcmp(&b.fake.sent[0], &log, sizeof log) == 0);
    simtx_msg back = log;
    simtx_msg_make_response(&back, SIMTX_STATUS_OK);
    back.aux = 1;
    CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &back, 3) != SIMTX_BUSY);
    CHECK_EQUAL(b.fake.sent_count, 2);
    CHECK_EQUAL(b.fake.sent_port[1], CORE);
    CHECK(memcmp(&b.fake.sent[1], &back, sizeof back) == 0);
    /* Between the beats of a 64-lane load, with the memory socket refusing. */
    b.fake.refuse_ports = 1u << MEMORY;
    uint32_t addresses[64];
    for (unsigned l = 0; l < 64; l++) addresses[l] = GLOBAL + 0xa000 + 4 * l;
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, SIMTX_OP_READ, 0, 0);
    header.aux = ldst_aux(1, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0);
    header.lane_mask = UINT64_MAX;
    header.id = 9;
    CHECK_EQUAL(ldst_make_beats(beats, &header, addresses, NULL, NULL), 2);
    CHECK(ldst_unit_block_info.accept(b.unit, CORE, &beats[0], 4) != SIMTX_BUSY);
    log.id++;
    CHECK(ldst_unit_block_info.accept(b.unit, CORE, &log, 4) != SIMTX_BUSY);
    CHECK(ldst_unit_block_info.accept(b.unit, CORE, &beats[1], 4) != SIMTX_BUSY);
    log.id++;
    CHECK(ldst_unit_block_info.accept(b.unit, CORE, &log, 4) != SIMTX_BUSY);
    CHECK_EQUAL(b.fake.sent_count, 2); /* all refused */
    b.fake.refuse_ports = 0;
    ldst_unit_block_info.port_free(b.unit, MEMORY);
    for (uint64_t now = 5; now < 8; now++) ldst_unit_block_info.cycle(b.unit, now);
    CHECK_EQUAL(b.fake.sent_count, 6); /* the two TM messages in order, then the load's two segments */
    CHECK(b.fake.sent[2].id == UINT64_C(0x8000000000000006) && b.fake.sent[3].id == UINT64_C(0x8000000000000007));
    CHECK(b.fake.sent[4].op == SIMTX_OP_READ && b.fake.sent[5].op == SIMTX_OP_READ && b.fake.sent[5].address == GLOBAL + 0xa080);
    CHECK_EQUAL(counter(&b, "tm_messages"), 3);
    bench_close(&b);
}

/* Backpressure: a full unit refuses a request's first beat and takes it
 * later; a refusing memory socket or core socket delays messages, each
 * sent exactly once, in order. */
static void test_backpressure(void)
{
    static const char *const settings[] = {"max_in_flight=1", NULL};
    bench b;
    bench_open(&b, settings);
    fill_words(&b, GLOBAL + 0xb000, 64, 1000);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0xb000 + 8 * l; /* two segments */
    request first = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 1, ALL32, 1, 0};
    request second = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 2, ALL32, 2, 0};
    b.fake.refuse_ports = 1u << MEMORY;
    CHECK(send(&b, &first, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    CHECK(send(&b, &second, addresses, NULL, NULL, 0) == SIMTX_BUSY); /* no room: nothing taken */
    CHECK_EQUAL(counter(&b, "refused"), 1);
    CHECK_EQUAL(ldst_unit_block_info.cycle(b.unit, 1), SIMTX_NEVER); /* blocked: waits for port_free */
    b.fake.refuse_ports = 0;
    ldst_unit_block_info.port_free(b.unit, MEMORY);
    b.fake.refuse_ports = 1u << CORE; /* now the core does not take responses */
    run(&b, 2, 4);
    CHECK_EQUAL(counter(&b, "memory_requests"), 2);
    const simtx_msg *responses[8] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 8), 0);
    /* The first's responses wait in the unit's queue: its entry is free. */
    CHECK(send(&b, &second, addresses, NULL, NULL, 5) != SIMTX_BUSY);
    run(&b, 6, 9);
    CHECK_EQUAL(core_responses(&b, responses, 8), 0);
    b.fake.refuse_ports = 0;
    ldst_unit_block_info.port_free(b.unit, CORE);
    run(&b, 10, 12);
    CHECK_EQUAL(core_responses(&b, responses, 8), 2); /* once each, in completion order */
    CHECK(responses[0]->id == 1 && responses[1]->id == 2);
    CHECK_EQUAL(ldst_slot(responses[0], 31), 1000 + 62);
    CHECK_EQUAL(ldst_slot(responses[1], 1), 1000 + 2);
    CHECK_EQUAL(counter(&b, "memory_requests"), 4);
    CHECK_EQUAL(counter(&b, "loads"), 2);
    CHECK_STRING(b.fake.failure, "");
    bench_close(&b);
}

/* A memory-side error fails the request with LDST_FAULT_MEMORY and the
 * memory's status, naming the lowest lane of the failed memory request. */
static void test_memory_error(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t addresses[64];
    for (unsigned l = 0; l < 32; l++) addresses[l] = GLOBAL + 0xc000 + 128 * (l / 16) + 4 * (l % 16);
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 1, ALL32, 1, 0};
    CHECK(send(&b, &load, addresses, NULL, NULL, 0) != SIMTX_BUSY);
    ldst_unit_block_info.cycle(b.unit, 1);
    const simtx_msg *requests[4] = {0};
    CHECK_EQUAL(new_requests(&b, requests, 4), 2);
    simtx_msg ok = answer(&b, requests[0]), bad = *requests[1];
    simtx_msg_make_response(&bad, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &bad, 2) != SIMTX_BUSY);
    CHECK(ldst_unit_block_info.accept(b.unit, MEMORY, &ok, 3) != SIMTX_BUSY);
    const simtx_msg *responses[4] = {0};
    CHECK_EQUAL(core_responses(&b, responses, 4), 1);
    CHECK_EQUAL(ldst_fault_of(responses[0]), LDST_FAULT_MEMORY);
    CHECK_EQUAL(responses[0]->status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(ldst_fault_lane(responses[0]), 16);
    CHECK_EQUAL(counter(&b, "memory_errors"), 1);
    bench_close(&b);
}

int main(void)
{
    test_one_segment();
    test_scattered();
    test_two_groups();
    test_runs();
    test_byte_masks();
    test_atomic_order();
    test_cas_and_sc();
    test_faults();
    test_fence();
    test_clean_line();
    test_flags();
    test_tags();
    test_read_stamp();
    test_tm_pass_through();
    test_backpressure();
    test_memory_error();
    return simtx_test_summary();
}
