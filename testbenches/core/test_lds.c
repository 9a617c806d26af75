/* Unit tests of the lds block without SystemC: bank-conflict timing, loads
 * and stores of every size, every atomic, lr/sc, CTA clears, faults naming
 * their lane, 64-lane requests in two beats, backpressure and debug access. */
#include <stdio.h>
#include <string.h>

#include "fake_env.h"
#include "lds.h"
#include "lds_banks.h"
#include "ldst.h"
#include "test_support.h"

#define ALL32 UINT64_C(0xffffffff)

typedef struct bench {
    fake_env fake;
    lds_params params; /* owns its strings until bench_close */
    void *lds;
    size_t seen; /* responses already returned by collect() */
} bench;

/* observer may be NULL. */
static void bench_open(bench *b, simtx_observer *observer, const char *const *settings)
{
    char error[256] = "";
    fake_env_init(&b->fake, observer);
    fake_params(&lds_block_info, &b->params, settings);
    b->lds = lds_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    b->seen = 0;
    if (!b->lds) fprintf(stderr, "create: %s\n", error);
    CHECK(b->lds != NULL);
}

static void bench_close(bench *b)
{
    lds_block_info.destroy(b->lds);
    simtx_params_release(lds_block_info.params, &b->params);
}

/* One request's fields; the lanes' slots are given apart. */
typedef struct request {
    simtx_op op;
    simtx_atomic_op atomic_op;
    ldst_kind kind;
    unsigned size, rd;
    uint32_t base, window;
    uint64_t lanes, id;
} request;

/* Offers every beat of a request at cycle now; returns the first beat's
 * answer (later beats must be taken). */
static simtx_accept_result send(bench *b, const request *r, const uint32_t *addresses, const uint32_t *data,
                                const uint32_t *expected, uint64_t now)
{
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, r->op, r->base, 0);
    header.atomic_op = (uint8_t)r->atomic_op;
    header.aux = ldst_aux(r->rd, r->size, LDST_BEAT_ADDRESSES, 0, false, r->kind, r->window);
    header.lane_mask = r->lanes;
    header.id = r->id;
    header.warp = 3;
    header.cta = 1;
    unsigned count = ldst_make_beats(beats, &header, addresses, data, expected);
    simtx_accept_result first = lds_block_info.accept(b->lds, 0, &beats[0], now);
    if (first == SIMTX_BUSY) return first;
    for (unsigned i = 1; i < count; i++) CHECK(lds_block_info.accept(b->lds, 0, &beats[i], now) != SIMTX_BUSY);
    return first;
}

/* Ticks the block every cycle from `from` to `to` and returns the cycle
 * the first new response left (UINT64_MAX: none). */
static uint64_t run(bench *b, uint64_t from, uint64_t to)
{
    uint64_t first = UINT64_MAX;
    for (uint64_t now = from; now <= to; now++) {
        size_t before = b->fake.sent_count;
        lds_block_info.cycle(b->lds, now);
        if (b->fake.sent_count > before && first == UINT64_MAX) first = now;
    }
    return first;
}

/* The next response not yet looked at. */
static const simtx_msg *next_response(bench *b)
{
    if (b->seen >= b->fake.sent_count) return NULL;
    return &b->fake.sent[b->seen++];
}

static uint32_t lane_value(const simtx_msg *response, unsigned lane) { return ldst_slot(response, lane % 32); }

static const simtx_stat_entry *stat(simtx_observer *o, const char *name) { return simtx_observer_find_stat(o, name); }

static uint64_t counter(simtx_observer *o, const char *name)
{
    const simtx_stat_entry *e = stat(o, name);
    return e ? *(const uint64_t *)e->value : UINT64_MAX;
}

static void test_conflict_degree(void)
{
    uint32_t offsets[64];
    for (unsigned i = 0; i < 64; i++) offsets[i] = 4 * i;
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, ALL32, 32, 4), 1);      /* a word per bank */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, UINT64_MAX, 32, 4), 2); /* 64 lanes: two words per bank */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, UINT64_MAX, 64, 4), 1);
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, ALL32, 32, 8), 1);      /* two lanes per 8-byte word */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, 0, 32, 4), 0);
    for (unsigned i = 0; i < 32; i++) offsets[i] = 128 * i; /* one bank, distinct words */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, ALL32, 32, 4), 32);
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, 0xf, 32, 4), 4);
    for (unsigned i = 0; i < 32; i++) offsets[i] = 40 + (i & 3); /* one word, byte lanes: a broadcast */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, ALL32, 32, 4), 1);
    for (unsigned i = 0; i < 32; i++) offsets[i] = 8 * i; /* stride 2: a 2-way conflict */
    CHECK_EQUAL(lds_banks_conflict_degree(offsets, ALL32, 32, 4), 2);
}

/* The degree against a plain count over a per-bank table of distinct
 * words, for random offsets, lane masks, bank counts and widths. */
static void test_conflict_degree_random(void)
{
    uint64_t state = 0x9e3779b97f4a7c15u;
#define NEXT() (state ^= state << 13, state ^= state >> 7, state ^= state << 17, state)
    for (unsigned trial = 0; trial < 2000; trial++) {
        unsigned banks = 1 + (unsigned)(NEXT() % 40), width = 1u << (NEXT() % 4);
        uint32_t span = 4 + (uint32_t)(NEXT() % 2048), offsets[64];
        uint64_t lanes = NEXT() & NEXT(); /* about a quarter of the lanes */
        for (unsigned i = 0; i < 64; i++) offsets[i] = (uint32_t)(NEXT() % span);
        unsigned per_bank[40] = {0}, worst = 0;
        uint32_t seen[64];
        unsigned distinct = 0;
        for (unsigned i = 0; i < 64; i++) {
            if (!(lanes >> i & 1)) continue;
            uint32_t word = offsets[i] / width;
            unsigned k = 0;
            while (k < distinct && seen[k] != word) k++;
            if (k < distinct) continue;
            seen[distinct++] = word;
            if (++per_bank[word % banks] > worst) worst = per_bank[word % banks];
        }
        if (!CHECK_EQUAL(lds_banks_conflict_degree(offsets, lanes, banks, width), worst)) break;
    }
#undef NEXT
}

/* A 32-lane load's response time for three patterns, through the block. */
static void test_conflict_timing(void)
{
    simtx_observer *o = simtx_observer_create();
    bench b;
    bench_open(&b, o, (const char *const[]){"latency=24", NULL});
    uint32_t addresses[64];
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 5, 0, 4096, ALL32, 1};

    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i; /* 32 lanes on 32 banks */
    CHECK_EQUAL(send(&b, &load, addresses, NULL, NULL, 100), SIMTX_ACCEPTED);
    CHECK_EQUAL(run(&b, 101, 200), 124); /* latency + 1 - 1 after the arrival */
    CHECK_EQUAL(counter(o, "bank_conflict_cycles"), 0);

    for (unsigned i = 0; i < 32; i++) addresses[i] = 128 * i; /* all lanes on bank 0, distinct words */
    load.id = 2;
    send(&b, &load, addresses, NULL, NULL, 300);
    CHECK_EQUAL(run(&b, 301, 400), 300 + 24 + 31);
    CHECK_EQUAL(counter(o, "bank_conflict_cycles"), 31);

    for (unsigned i = 0; i < 32; i++) addresses[i] = 64; /* broadcast of one word */
    load.id = 3;
    send(&b, &load, addresses, NULL, NULL, 500);
    CHECK_EQUAL(run(&b, 501, 600), 524);
    CHECK_EQUAL(counter(o, "bank_conflict_cycles"), 31);

    /* A conflict-free load behind a 32-way one waits for the banks. */
    for (unsigned i = 0; i < 32; i++) addresses[i] = 128 * i;
    load.id = 4;
    send(&b, &load, addresses, NULL, NULL, 700);
    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i;
    load.id = 5;
    CHECK_EQUAL(send(&b, &load, addresses, NULL, NULL, 700), SIMTX_ACCEPTED_NO_TICK);
    run(&b, 701, 900);
    CHECK_EQUAL(b.fake.sent_count, 5);
    CHECK_EQUAL(b.fake.sent[3].id, 4);
    CHECK_EQUAL(b.fake.sent[4].id, 5);
    const simtx_stat_entry *degree = stat(o, "conflict_degree");
    CHECK(degree != NULL);
    if (degree) {
        const simtx_histogram *h = degree->value;
        CHECK_EQUAL(h->count, 5);
        CHECK_EQUAL(h->maximum, 32);
        CHECK_EQUAL(h->minimum, 1);
        CHECK_EQUAL(h->sum, 1 + 32 + 1 + 32 + 1);
    }
    CHECK_EQUAL(counter(o, "requests"), 5);
    CHECK_EQUAL(counter(o, "lane_accesses"), 5 * 32);
    bench_close(&b);
    simtx_observer_destroy(o);
}

/* A conflict-free request behind a 32-way one starts when the banks free. */
static void test_waits_for_banks(void)
{
    bench b;
    bench_open(&b, NULL, (const char *const[]){"latency=10", NULL});
    uint32_t conflicted[32], free_lanes[32];
    for (unsigned i = 0; i < 32; i++) conflicted[i] = 128 * i, free_lanes[i] = 4 * i;
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 5, 0, 4096, ALL32, 1};
    send(&b, &load, conflicted, NULL, NULL, 10);
    load.id = 2;
    send(&b, &load, free_lanes, NULL, NULL, 10);
    CHECK_EQUAL(run(&b, 11, 51), 10 + 10 + 31);
    CHECK_EQUAL(b.fake.sent_count, 1);
    CHECK_EQUAL(run(&b, 52, 100), 10 + 32 + 10); /* banks free at 42, then the latency */
    CHECK_EQUAL(b.fake.sent_count, 2);
    bench_close(&b);
}

static void test_stores_then_loads(void)
{
    bench b;
    bench_open(&b, NULL, NULL);
    uint32_t addresses[32], data[32];
    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i, data[i] = 0xa0000000u + i;
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 256, 1024, ALL32, 1};
    send(&b, &store, addresses, data, NULL, 1);
    /* Bytes and halfwords over words 0 and 1 (lanes 0-3: bytes of word 0;
     * lanes 4-5: halfwords of word 1). */
    for (unsigned i = 0; i < 4; i++) addresses[i] = i, data[i] = 0x11u * (i + 1) | 0xff00u;
    store = (request){SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 1, 0, 256, 1024, 0xf, 2};
    send(&b, &store, addresses, data, NULL, 2);
    addresses[4] = 4, addresses[5] = 6, data[4] = 0xbeef, data[5] = 0x8001;
    store = (request){SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 2, 0, 256, 1024, 0x30, 3};
    send(&b, &store, addresses, data, NULL, 3);
    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i;
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 7, 256, 1024, ALL32, 4};
    send(&b, &load, addresses, NULL, NULL, 4);
    addresses[0] = 6; /* a halfword with its top bit set: zero-extended */
    load = (request){SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 2, 7, 256, 1024, 1, 5};
    send(&b, &load, addresses, NULL, NULL, 5);
    run(&b, 2, 100);
    /* Store responses: address beat then data beat, empty, the last marked. */
    const simtx_msg *r = next_response(&b);
    CHECK(r && r->is_response && r->id == 1 && r->size == 0 && !ldst_is_last(r));
    r = next_response(&b);
    CHECK(r && r->id == 1 && r->size == 0 && ldst_is_last(r) && r->status == SIMTX_STATUS_OK);
    next_response(&b), next_response(&b), next_response(&b), next_response(&b);
    r = next_response(&b);
    CHECK(r && r->id == 4 && ldst_is_last(r) && r->size == LDST_BEAT_BYTES && ldst_rd(r) == 7);
    if (r) {
        CHECK_EQUAL(lane_value(r, 0), 0x44332211u);
        CHECK_EQUAL(lane_value(r, 1), 0x8001beefu);
        for (unsigned i = 2; i < 32; i++) CHECK_EQUAL(lane_value(r, i), 0xa0000000u + i);
    }
    r = next_response(&b);
    CHECK(r && r->id == 5 && r->size == 4);
    if (r) CHECK_EQUAL(lane_value(r, 0), 0x8001);
    /* The region base applies: offset 0 of region 256 is byte 256. */
    uint8_t bytes[4];
    int forward = 0;
    CHECK_EQUAL(lds_block_info.debug_access(b.lds, false, 256, bytes, 4, &forward), 4);
    CHECK_EQUAL(bytes[0], 0x11);
    CHECK_EQUAL(bytes[3], 0x44);
    CHECK_EQUAL(forward, -1);
    bench_close(&b);
}

/* Every atomic on lane-private words, with its old value back; then 32
 * lanes adding to one word in lane order. */
static void test_atomics(void)
{
    static const struct {
        simtx_atomic_op op;
        uint32_t old, operand, expected_new;
    } cases[] = {
        {SIMTX_ATOMIC_SWAP, 5, 9, 9},
        {SIMTX_ATOMIC_ADD, 5, 9, 14},
        {SIMTX_ATOMIC_XOR, 0xf0, 0xff, 0x0f},
        {SIMTX_ATOMIC_AND, 0xf0, 0x3c, 0x30},
        {SIMTX_ATOMIC_OR, 0xf0, 0x0f, 0xff},
        {SIMTX_ATOMIC_MIN, 0xfffffffeu, 3, 0xfffffffeu}, /* -2 < 3 */
        {SIMTX_ATOMIC_MAX, 0xfffffffeu, 3, 3},
        {SIMTX_ATOMIC_MINU, 0xfffffffeu, 3, 3},
        {SIMTX_ATOMIC_MAXU, 0xfffffffeu, 3, 0xfffffffeu},
    };
    bench b;
    bench_open(&b, NULL, NULL);
    uint64_t now = 1;
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t addresses[32] = {8}, data[32] = {cases[c].old};
        request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 64, 1, 10 * c};
        send(&b, &store, addresses, data, NULL, now++);
        data[0] = cases[c].operand;
        request atomic = {SIMTX_OP_ATOMIC, cases[c].op, LDST_KIND_PLAIN, 4, 6, 0, 64, 1, 10 * c + 1};
        send(&b, &atomic, addresses, data, NULL, now++);
        request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 6, 0, 64, 1, 10 * c + 2};
        send(&b, &load, addresses, NULL, NULL, now++);
        run(&b, now, now + 40);
        now += 41;
        next_response(&b), next_response(&b); /* the store's */
        const simtx_msg *old = next_response(&b);
        CHECK(old && old->id == 10 * c + 1 && !ldst_is_last(old) && old->size == 4);
        if (old && lane_value(old, 0) != cases[c].old) fprintf(stderr, "atomic %u: old value\n", c);
        if (old) CHECK_EQUAL(lane_value(old, 0), cases[c].old);
        const simtx_msg *done = next_response(&b);
        CHECK(done && done->id == 10 * c + 1 && ldst_is_last(done) && done->size == 0);
        const simtx_msg *loaded = next_response(&b);
        CHECK(loaded && loaded->id == 10 * c + 2);
        if (loaded && lane_value(loaded, 0) != cases[c].expected_new) fprintf(stderr, "atomic %u: new value\n", c);
        if (loaded) CHECK_EQUAL(lane_value(loaded, 0), cases[c].expected_new);
    }
    /* CAS: lane 0 expects the value, lane 1 (another word) does not. */
    uint32_t addresses[32] = {16, 20}, data[32] = {7, 7}, expected[32] = {0, 1};
    request cas = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_PLAIN, 4, 6, 0, 64, 3, 500};
    send(&b, &cas, addresses, data, expected, now);
    run(&b, now + 1, now + 40);
    now += 41;
    const simtx_msg *old = next_response(&b);
    CHECK(old && old->id == 500);
    if (old) CHECK_EQUAL(lane_value(old, 0), 0), CHECK_EQUAL(lane_value(old, 1), 0);
    next_response(&b), next_response(&b);
    uint32_t word = 0;
    int forward;
    lds_block_info.debug_access(b.lds, false, 16, (uint8_t *)&word, 4, &forward);
    CHECK_EQUAL(word, 7);
    lds_block_info.debug_access(b.lds, false, 20, (uint8_t *)&word, 4, &forward);
    CHECK_EQUAL(word, 0);
    /* 32 lanes add 1 to one word: applied in lane order. */
    uint32_t same[32], ones[32];
    for (unsigned i = 0; i < 32; i++) same[i] = 24, ones[i] = 1;
    request add = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_ADD, LDST_KIND_PLAIN, 4, 6, 0, 64, ALL32, 600};
    send(&b, &add, same, ones, NULL, now);
    run(&b, now + 1, now + 40);
    old = next_response(&b);
    CHECK(old && old->id == 600);
    if (old)
        for (unsigned i = 0; i < 32; i++) CHECK_EQUAL(lane_value(old, i), i);
    lds_block_info.debug_access(b.lds, false, 24, (uint8_t *)&word, 4, &forward);
    CHECK_EQUAL(word, 32);
    bench_close(&b);
}

static void test_lr_sc(void)
{
    simtx_observer *o = simtx_observer_create();
    bench b;
    bench_open(&b, o, NULL);
    uint32_t addresses[32] = {0, 4}, data[32] = {41, 42};
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 64, 3, 1};
    send(&b, &store, addresses, data, NULL, 1);
    request lr = {SIMTX_OP_READ, 0, LDST_KIND_LR, 4, 9, 0, 64, 3, 2};
    send(&b, &lr, addresses, NULL, NULL, 2);
    /* Another warp changes word 1 between lr and sc. */
    uint32_t other[32] = {4}, other_data[32] = {99};
    store = (request){SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 64, 1, 3};
    send(&b, &store, other, other_data, NULL, 3);
    uint32_t values[32] = {1000, 2000}, expected[32] = {41, 42}; /* what the lr read */
    request sc = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_SC, 4, 9, 0, 64, 3, 4};
    send(&b, &sc, addresses, values, expected, 4);
    run(&b, 2, 100);
    next_response(&b), next_response(&b);
    const simtx_msg *r = next_response(&b);
    CHECK(r && r->id == 2 && ldst_is_last(r));
    if (r) CHECK_EQUAL(lane_value(r, 0), 41), CHECK_EQUAL(lane_value(r, 1), 42);
    next_response(&b), next_response(&b);
    r = next_response(&b);
    CHECK(r && r->id == 4 && ldst_beat_of(r) == LDST_BEAT_ADDRESSES);
    if (r) CHECK_EQUAL(lane_value(r, 0), 0), CHECK_EQUAL(lane_value(r, 1), 1); /* stored; failed */
    uint32_t words[2];
    int forward;
    lds_block_info.debug_access(b.lds, false, 0, (uint8_t *)words, 8, &forward);
    CHECK_EQUAL(words[0], 1000);
    CHECK_EQUAL(words[1], 99);
    CHECK_EQUAL(counter(o, "lr"), 1);
    CHECK_EQUAL(counter(o, "sc"), 1);
    CHECK_EQUAL(counter(o, "sc_failures"), 1);
    CHECK_EQUAL(counter(o, "stores"), 2);
    bench_close(&b);
    simtx_observer_destroy(o);
}

static void test_clear(void)
{
    bench b;
    bench_open(&b, NULL, (const char *const[]){"size=1KiB", NULL});
    uint8_t ones[1024];
    memset(ones, 0xff, sizeof ones);
    int forward;
    lds_block_info.debug_access(b.lds, true, 0, ones, sizeof ones, &forward);
    request clear = {SIMTX_OP_WRITE, 0, LDST_KIND_CLEAR, 0, 0, 256, 512, 0, 1};
    CHECK_EQUAL(send(&b, &clear, NULL, NULL, NULL, 1), SIMTX_ACCEPTED);
    uint32_t addresses[32] = {0, 508};
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 1, 256, 512, 3, 2};
    send(&b, &load, addresses, NULL, NULL, 1);
    clear = (request){SIMTX_OP_WRITE, 0, LDST_KIND_CLEAR, 0, 0, 768, 512, 0, 3}; /* past the end */
    send(&b, &clear, NULL, NULL, NULL, 2);
    run(&b, 2, 100);
    const simtx_msg *r = next_response(&b);
    CHECK(r && r->id == 1 && ldst_is_last(r) && r->status == SIMTX_STATUS_OK && r->size == 0);
    r = next_response(&b);
    CHECK(r && r->id == 2);
    if (r) CHECK_EQUAL(lane_value(r, 0), 0), CHECK_EQUAL(lane_value(r, 1), 0);
    r = next_response(&b);
    CHECK(r && r->id == 3 && r->status == SIMTX_STATUS_ADDRESS_ERROR && ldst_fault_of(r) == LDST_FAULT_RANGE);
    uint8_t around[2];
    lds_block_info.debug_access(b.lds, false, 255, around, 1, &forward);
    lds_block_info.debug_access(b.lds, false, 768, around + 1, 1, &forward);
    CHECK_EQUAL(around[0], 0xff); /* the neighbours keep their bytes */
    CHECK_EQUAL(around[1], 0xff);
    CHECK_EQUAL(lds_block_info.debug_access(b.lds, false, 1020, around, 8, &forward), 0); /* not mine */
    bench_close(&b);
}

static void test_errors(void)
{
    simtx_observer *o = simtx_observer_create();
    bench b;
    bench_open(&b, o, (const char *const[]){"size=4KiB", NULL});
    uint32_t addresses[32], data[32];
    for (unsigned i = 0; i < 32; i++) addresses[i] = 4 * i, data[i] = 0x5a5a5a5a;
    addresses[5] = 128; /* the window is 128 bytes: lane 5's word is past it */
    addresses[9] = 200;
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 128, ALL32, 1};
    send(&b, &store, addresses, data, NULL, 1);
    addresses[5] = 20, addresses[9] = 36;
    addresses[3] = 13; /* misaligned */
    store.id = 2;
    send(&b, &store, addresses, data, NULL, 2);
    request clean = {SIMTX_OP_CLEAN_LINE, 0, LDST_KIND_PLAIN, 4, 0, 0, 128, ALL32, 3};
    send(&b, &clean, addresses, NULL, NULL, 3);
    addresses[3] = 12;
    request narrow_atomic = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_ADD, LDST_KIND_PLAIN, 2, 1, 0, 128, 1, 4};
    send(&b, &narrow_atomic, addresses, data, NULL, 4);
    request beyond = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 1, 4000, 128, 0x6, 5}; /* region past the LDS */
    send(&b, &beyond, addresses, NULL, NULL, 5);
    run(&b, 2, 100);
    const simtx_msg *r = next_response(&b);
    CHECK(r && r->id == 1 && r->status == SIMTX_STATUS_ADDRESS_ERROR);
    if (r) CHECK_EQUAL(ldst_fault_of(r), LDST_FAULT_RANGE), CHECK_EQUAL(ldst_fault_lane(r), 5);
    r = next_response(&b);
    CHECK(r && r->id == 1 && ldst_is_last(r) && r->status == SIMTX_STATUS_ADDRESS_ERROR);
    r = next_response(&b);
    CHECK(r && r->id == 2);
    if (r) CHECK_EQUAL(ldst_fault_of(r), LDST_FAULT_MISALIGNED), CHECK_EQUAL(ldst_fault_lane(r), 3);
    next_response(&b);
    r = next_response(&b);
    CHECK(r && r->id == 3 && r->status == SIMTX_STATUS_COMMAND_ERROR && ldst_fault_of(r) == LDST_FAULT_UNSUPPORTED);
    r = next_response(&b);
    CHECK(r && r->id == 4 && r->status == SIMTX_STATUS_COMMAND_ERROR);
    next_response(&b);
    r = next_response(&b);
    CHECK(r && r->id == 5 && ldst_fault_of(r) == LDST_FAULT_RANGE);
    if (r) CHECK_EQUAL(ldst_fault_lane(r), 1); /* the lowest active lane */
    /* No lane of a faulting request took effect. */
    uint32_t word = 0;
    int forward;
    lds_block_info.debug_access(b.lds, false, 0, (uint8_t *)&word, 4, &forward);
    CHECK_EQUAL(word, 0);
    CHECK_EQUAL(counter(o, "address_errors"), 3);
    CHECK_EQUAL(counter(o, "command_errors"), 2);
    CHECK_EQUAL(counter(o, "stores"), 0);
    /* A request whose beats do not match its op (a store without data). */
    simtx_msg beat;
    simtx_msg_init(&beat, SIMTX_OP_WRITE, 0, LDST_BEAT_BYTES);
    beat.aux = ldst_aux(0, 4, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_PLAIN, 128);
    beat.lane_mask = ALL32;
    beat.id = 6;
    lds_block_info.accept(b.lds, 0, &beat, 200);
    run(&b, 201, 210);
    r = next_response(&b);
    CHECK(r && r->id == 6 && r->status == SIMTX_STATUS_COMMAND_ERROR);
    /* A run (ldst.h) is the ldst_unit's: a load sent as one is refused. */
    beat.op = SIMTX_OP_READ;
    beat.aux = ldst_aux(1, 4, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_PLAIN, 128) | LDST_RUN;
    beat.id = 7;
    lds_block_info.accept(b.lds, 0, &beat, 220);
    run(&b, 221, 230);
    r = next_response(&b);
    CHECK(r && r->id == 7 && r->status == SIMTX_STATUS_COMMAND_ERROR && ldst_fault_of(r) == LDST_FAULT_UNSUPPORTED);
    CHECK_EQUAL(counter(o, "loads"), 0);
    bench_close(&b);
    simtx_observer_destroy(o);
}

/* A 64-lane warp: two beats per kind, values back in two responses. */
static void test_wide_warp(void)
{
    bench b;
    bench_open(&b, NULL, NULL);
    uint32_t addresses[64], data[64];
    for (unsigned i = 0; i < 64; i++) addresses[i] = 4 * i, data[i] = 1000 + i;
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 256, UINT64_MAX, 1};
    send(&b, &store, addresses, data, NULL, 1);
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 3, 0, 256, UINT64_C(0x8000000100000000), 2};
    for (unsigned i = 0; i < 64; i++) addresses[i] = 4 * (63 - i);
    send(&b, &load, addresses, NULL, NULL, 2);
    run(&b, 2, 100);
    for (unsigned i = 0; i < 4; i++) {
        const simtx_msg *r = next_response(&b);
        CHECK(r && r->id == 1 && ldst_is_last(r) == (i == 3));
    }
    const simtx_msg *r = next_response(&b); /* only group 1 has lanes: one beat */
    CHECK(r && r->id == 2 && ldst_group(r) == 1 && ldst_is_last(r) && r->size == LDST_BEAT_BYTES);
    if (r) CHECK_EQUAL(lane_value(r, 32), 1000 + 31), CHECK_EQUAL(lane_value(r, 63), 1000 + 0);
    CHECK(next_response(&b) == NULL);
    /* sc over 64 lanes: six beats (addresses, data, expected per group);
     * odd lanes expect a stale value. */
    uint32_t expected[64];
    for (unsigned i = 0; i < 64; i++) addresses[i] = 4 * i, expected[i] = 1000 + i + (i & 1), data[i] = 7 * i;
    request sc = {SIMTX_OP_ATOMIC, SIMTX_ATOMIC_CAS, LDST_KIND_SC, 4, 2, 0, 256, UINT64_MAX, 3};
    send(&b, &sc, addresses, data, expected, 200);
    run(&b, 200, 300);
    for (unsigned beat = 0; beat < 6; beat++) {
        r = next_response(&b);
        CHECK(r && r->id == 3 && ldst_is_last(r) == (beat == 5));
        if (r && ldst_beat_of(r) == LDST_BEAT_ADDRESSES)
            for (unsigned i = 0; i < 32; i++) CHECK_EQUAL(lane_value(r, i), i & 1);
    }
    uint32_t words[64];
    int forward;
    lds_block_info.debug_access(b.lds, false, 0, (uint8_t *)words, sizeof words, &forward);
    for (unsigned i = 0; i < 64; i++) CHECK_EQUAL(words[i], i & 1 ? 1000 + i : 7 * i);
    bench_close(&b);
}

/* A fence completes after the requests before it, a 32-way load included. */
static void test_fence(void)
{
    bench b;
    bench_open(&b, NULL, (const char *const[]){"latency=10", NULL});
    uint32_t one_bank[32];
    for (unsigned i = 0; i < 32; i++) one_bank[i] = 128 * i;
    request load = {SIMTX_OP_READ, 0, LDST_KIND_PLAIN, 4, 5, 0, 4096, ALL32, 1};
    send(&b, &load, one_bank, NULL, NULL, 5);
    request fence = {SIMTX_OP_FENCE, 0, LDST_KIND_PLAIN, 0, 0, 0, 0, 0, 2};
    send(&b, &fence, NULL, NULL, NULL, 6);
    CHECK_EQUAL(run(&b, 6, 100), 5 + 10 + 31);
    CHECK_EQUAL(b.fake.sent_count, 2);
    const simtx_msg *r = next_response(&b);
    CHECK(r && r->id == 1);
    r = next_response(&b);
    CHECK(r && r->id == 2 && ldst_is_last(r) && r->size == 0 && r->status == SIMTX_STATUS_OK);
    bench_close(&b);
}

static void test_backpressure(void)
{
    bench b;
    bench_open(&b, NULL, (const char *const[]){"queue_depth=2", "latency=5", NULL});
    uint32_t addresses[32] = {0}, data[32] = {1};
    request store = {SIMTX_OP_WRITE, 0, LDST_KIND_PLAIN, 4, 0, 0, 64, 1, 1};
    CHECK(send(&b, &store, addresses, data, NULL, 1) != SIMTX_BUSY);
    store.id = 2;
    CHECK(send(&b, &store, addresses, data, NULL, 1) != SIMTX_BUSY);
    store.id = 3;
    CHECK_EQUAL(send(&b, &store, addresses, data, NULL, 1), SIMTX_BUSY);
    /* A refused response port keeps the requests held. */
    b.fake.refuse_ports = 1;
    CHECK_EQUAL(lds_block_info.cycle(b.lds, 10), SIMTX_NEVER);
    CHECK_EQUAL(send(&b, &store, addresses, data, NULL, 10), SIMTX_BUSY);
    b.fake.refuse_ports = 0;
    lds_block_info.port_free(b.lds, 0);
    run(&b, 11, 11);
    CHECK_EQUAL(b.fake.sent_count, 4);
    CHECK(send(&b, &store, addresses, data, NULL, 11) != SIMTX_BUSY);
    bench_close(&b);
}

static void test_bad_parameters(void)
{
    fake_env fake;
    fake_env_init(&fake, NULL);
    lds_params params;
    char error[256] = "";
    fake_params(&lds_block_info, &params, (const char *const[]){"bank_width=6", NULL});
    CHECK(lds_block_info.create(&params, &fake.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "bank_width");
    simtx_params_release(lds_block_info.params, &params);
}

int main(void)
{
    test_conflict_degree();
    test_conflict_degree_random();
    test_conflict_timing();
    test_waits_for_banks();
    test_stores_then_loads();
    test_atomics();
    test_lr_sc();
    test_clear();
    test_errors();
    test_wide_warp();
    test_fence();
    test_backpressure();
    test_bad_parameters();
    return simtx_test_summary();
}
