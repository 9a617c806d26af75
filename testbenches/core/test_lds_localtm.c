/* Unit tests of the lds block's localtm policy (GPU-LocalTM, shared/papers/
 * gpu-localtm.txt) without SystemC, driving tx.h events and transactional
 * ldst.h requests (with their VERDICT beats) as the core sends them:
 * Table 1 attempt by attempt (mode, TCM, TCM OLD, committed, retry), the
 * hash example of section 3.3, the shadow-memory layout with its restore on
 * a conflict and its release at commit, the timing example of section 4.2,
 * the capacity of section 4.3, a forced work-group serialisation that
 * completes with the other wavefront held (conflict_resolution =
 * requester_loses), a wavefront-serial work-item that wins against a
 * TX-mode holder of another wavefront (serial_wins), and the deliberately
 * broken filters. */
#include <stdio.h>
#include <string.h>

#include "fake_env.h"
#include "gpu_localtm.h"
#include "lds.h"
#include "ldst.h"
#include "test_support.h"
#include "tx.h"

#define LATENCY 2

typedef struct bench {
    fake_env fake;
    lds_params params;
    simtx_observer *observer;
    void *lds;
    uint64_t now;
    size_t seen;
} bench;

static void bench_open(bench *b, const char *const *extra)
{
    const char *settings[16] = {"policy=localtm", "size=64KiB", "latency=2", "max_wavefronts=8"};
    unsigned n = 4;
    for (unsigned i = 0; extra && extra[i]; i++) settings[n++] = extra[i];
    settings[n] = NULL;
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    fake_params(&lds_block_info, &b->params, settings);
    char error[256] = "";
    b->lds = lds_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    if (!b->lds) fprintf(stderr, "create: %s\n", error);
    CHECK(b->lds != NULL);
    b->now = 10;
    b->seen = 0;
}

static void bench_close(bench *b)
{
    lds_block_info.destroy(b->lds);
    simtx_params_release(lds_block_info.params, &b->params);
    simtx_observer_destroy(b->observer);
}

static uint64_t stat(bench *b, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, name);
    CHECK(e != NULL);
    return e ? *(const uint64_t *)e->value : 0;
}

static uint64_t probe(bench *b, const char *name)
{
    for (size_t i = 0; i < simtx_observer_probe_count(b->observer); i++) {
        const simtx_probe_entry *p = simtx_observer_probe(b->observer, i);
        if (strcmp(p->name, name) == 0) return *p->value;
    }
    CHECK(!"probe not found");
    return 0;
}

enum { NORMAL, TX, WF_SERIAL, WG_SERIAL };

static void check_wave(bench *b, unsigned warp, uint64_t mode, uint64_t tcm, uint64_t tcm_old, int line)
{
    char name[32];
    snprintf(name, sizeof name, "w%u_mode", warp);
    uint64_t m = probe(b, name);
    snprintf(name, sizeof name, "w%u_tcm", warp);
    uint64_t t = probe(b, name);
    snprintf(name, sizeof name, "w%u_tcm_old", warp);
    uint64_t o = probe(b, name);
    if (m != mode || t != tcm || o != tcm_old)
        fprintf(stderr, "line %d: warp %u mode %llu tcm 0x%llx old 0x%llx, expected %llu 0x%llx 0x%llx\n", line, warp,
                (unsigned long long)m, (unsigned long long)t, (unsigned long long)o, (unsigned long long)mode,
                (unsigned long long)tcm, (unsigned long long)tcm_old);
    CHECK(m == mode && t == tcm && o == tcm_old);
}
#define CHECK_WAVE(b, warp, mode, tcm, old) check_wave(b, warp, mode, tcm, old, __LINE__)

/* Ticks until `count` new messages left (or 200 cycles); returns the cycle the last left. */
static uint64_t run_until(bench *b, size_t count)
{
    uint64_t last = 0;
    size_t answers = 0;
    for (size_t k = b->seen; k < b->fake.sent_count; k++) answers += b->fake.sent_port[k] == 0;
    for (unsigned i = 0; i < 200 && answers < count; i++, b->now++) {
        size_t before = b->fake.sent_count;
        lds_block_info.cycle(b->lds, b->now);
        for (size_t k = before; k < b->fake.sent_count; k++) answers += b->fake.sent_port[k] == 0;
        if (b->fake.sent_count > before) last = b->now;
    }
    return last;
}

/* The next answer on the core's socket (TX_ABORTs on tx_events, port 1, are skipped). */
static const simtx_msg *take(bench *b)
{
    while (b->seen < b->fake.sent_count && b->fake.sent_port[b->seen] != 0) b->seen++;
    CHECK(b->seen < b->fake.sent_count);
    return &b->fake.sent[b->seen++];
}

static void clear(bench *b, int32_t cta, uint32_t base, uint32_t window)
{
    simtx_msg msg;
    simtx_msg_init(&msg, SIMTX_OP_WRITE, base, 0);
    msg.aux = ldst_aux(0, 0, LDST_BEAT_ADDRESSES, 0, true, LDST_KIND_CLEAR, window);
    msg.cta = cta;
    CHECK(lds_block_info.accept(b->lds, 0, &msg, b->now) != SIMTX_BUSY);
    run_until(b, 1);
    CHECK_EQUAL(take(b)->status, SIMTX_STATUS_OK);
}

typedef struct answer {
    simtx_msg msg;
    uint64_t cycle;
} answer;

/* A tx.h event; waits for its answer unless held (then answer.cycle = 0). */
static answer tx(bench *b, simtx_op op, int32_t warp, uint64_t lanes, uint64_t aux, uint32_t first)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, 0, 0);
    msg.lane_mask = lanes;
    msg.aux = aux;
    msg.warp = warp;
    msg.cta = 0;
    msg.id = op;
    msg.transaction_id = op == SIMTX_OP_TX_BEGIN ? first : 0;
    uint64_t sent = b->now;
    CHECK(lds_block_info.accept(b->lds, 0, &msg, b->now) != SIMTX_BUSY);
    answer a = {0};
    for (unsigned i = 0; i < 40; i++, b->now++) {
        lds_block_info.cycle(b->lds, b->now);
        for (size_t k = b->seen; k < b->fake.sent_count; k++)
            if (b->fake.sent_port[k] == 0 && b->fake.sent[k].op == op && b->fake.sent[k].warp == warp && !a.cycle) {
                a.msg = b->fake.sent[k];
                a.cycle = b->now - sent;
            }
        if (a.cycle) break;
    }
    b->seen = b->fake.sent_count;
    b->now++;
    return a;
}

static tx_outcome outcome_of(const answer *a)
{
    tx_outcome o;
    memset(&o, 0, sizeof o);
    CHECK(a->msg.size >= sizeof o);
    memcpy(&o, a->msg.data, sizeof o);
    return o;
}

typedef struct access_result {
    uint64_t aborted;   /* the verdict's */
    uint64_t cycles;    /* request to last response */
    simtx_status status;
    unsigned fault_lane;
    uint32_t values[LDST_MAX_LANES];
} access_result;

/* A transactional (or plain) access of warp's lanes to words[lane]. */
static access_result access_words(bench *b, simtx_op op, int32_t warp, uint32_t base, uint32_t window, uint64_t lanes,
                                  const uint32_t *words, const uint32_t *data, bool transactional)
{
    uint32_t offsets[LDST_MAX_LANES] = {0};
    for (unsigned l = 0; l < LDST_MAX_LANES; l++) offsets[l] = (lanes >> l & 1) ? 4 * words[l] : 0;
    simtx_msg header, beats[LDST_MAX_BEATS + 1];
    simtx_msg_init(&header, op, base, 0);
    header.aux = ldst_aux(op == SIMTX_OP_READ ? 5 : 0, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, window);
    header.lane_mask = lanes;
    header.id = 7;
    header.warp = warp;
    header.cta = 0;
    header.flags = transactional ? SIMTX_FLAG_TRANSACTIONAL : 0;
    unsigned count = ldst_make_beats(&beats[1], &header, offsets, data, NULL), first = 1;
    if (transactional) {
        tx_verdict_beat(&beats[0], &beats[1]);
        first = 0;
    }
    uint64_t sent = b->now;
    for (unsigned i = first; i <= count; i++) CHECK(lds_block_info.accept(b->lds, 0, &beats[i], b->now) != SIMTX_BUSY);
    size_t expected = count + 1 - first;
    run_until(b, expected);
    access_result r;
    memset(&r, 0, sizeof r);
    r.cycles = b->now - 1 - sent;
    for (size_t i = 0; i < expected; i++) {
        const simtx_msg *m = take(b);
        r.status = (simtx_status)m->status;
        if (m->status != SIMTX_STATUS_OK) r.fault_lane = ldst_fault_lane(m);
        if (ldst_beat_of(m) == LDST_BEAT_VERDICT) {
            CHECK(m->flags & SIMTX_FLAG_TX_PAUSE);
            CHECK_EQUAL(tx_verdict_lanes(m), 0);
            r.aborted = tx_verdict_aborted(m);
            CHECK(i == 0);
        } else if (ldst_beat_of(m) == LDST_BEAT_ADDRESSES && m->size) {
            unsigned g = ldst_group(m);
            for (uint32_t k = ldst_group_lanes(m->lane_mask, g); k; k &= k - 1)
                r.values[32 * g + (unsigned)__builtin_ctz(k)] = ldst_slot(m, (unsigned)__builtin_ctz(k));
        }
    }
    b->now += 30; /* the banks are free again */
    return r;
}

static uint32_t word_at(bench *b, uint32_t address)
{
    uint32_t value = 0;
    int forward;
    CHECK_EQUAL(lds_block_info.debug_access(b->lds, false, address, (uint8_t *)&value, 4, &forward), 4);
    return value;
}

/* Whether the last message the lds sent on its tx_events port (1) since
 * `before` is a TX_ABORT of attempt 0's `lanes` of `warp` for a local
 * conflict (tx.h 6). */
static bool last_told_local_abort(const bench *b, size_t before, int32_t warp, uint64_t lanes)
{
    bool told = false;
    for (size_t k = before; k < b->fake.sent_count; k++)
        if (b->fake.sent_port[k] == 1) {
            const simtx_msg *m = &b->fake.sent[k];
            told = m->op == SIMTX_OP_TX_ABORT && m->warp == warp && m->lane_mask == lanes && m->transaction_id == 0 &&
                   m->aux == TX_ABORT_LOCAL_CONFLICT;
        }
    return told;
}

static uint8_t byte_at(bench *b, uint32_t address)
{
    uint8_t value = 0;
    int forward;
    CHECK_EQUAL(lds_block_info.debug_access(b->lds, false, address, &value, 1, &forward), 1);
    return value;
}

#define N64 64u
#define W64 GPU_LOCALTM_REGION_BYTES(N64)

/* Table 1: four work-items (warp 0, lanes 0-3 = WI0-3) run Figure 2's
 * if/else; the "else" leg's accesses to words 2 and 3 conflict with WI4
 * (warp 1, lane 0), which read them in an open transaction and commits
 * between attempts 2 and 3. */
static void test_table1(void)
{
    bench b;
    bench_open(&b, NULL);
    clear(&b, 0, 0, W64);
    uint32_t words[4] = {0, 1, 2, 3}, w2[1] = {2}, w3[1] = {3}, data[4] = {10, 11, 12, 13};
    answer a = tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4); /* WI4 */
    CHECK(a.cycle != 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 1, 0, W64, 0x1, w2, NULL, true).aborted, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 1, 0, W64, 0x1, w3, NULL, true).aborted, 0);

    /* Attempt 1: mode TX, TCM 0000, all four run; WI2 and WI3 conflict. */
    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0xF, 0, 0);
    CHECK_EQUAL(tx_begin_held(&a.msg), 0);
    CHECK(a.msg.flags & SIMTX_FLAG_TX_PAUSE);
    CHECK_WAVE(&b, 0, TX, 0x0, 0x0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x3, words, data, true).aborted, 0); /* "if" leg */
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0xC, words, data, true).aborted, 0xC); /* "else" leg */
    CHECK_WAVE(&b, 0, TX, 0xC, 0x0);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0xF, 0, 0);
    tx_outcome o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0x3);
    CHECK_EQUAL(o.retry, 0xC);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_NONE);
    CHECK_WAVE(&b, 0, TX, 0xC, 0xC); /* next mode TX, TCM OLD := 0011 */
    CHECK_EQUAL(word_at(&b, 0), 10);
    CHECK_EQUAL(word_at(&b, 4), 11);
    CHECK_EQUAL(word_at(&b, 8), 0); /* WI2's and WI3's stores never happened */

    /* Attempt 2: TX, TCM 0000, WI2 and WI3 run and conflict again. */
    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0xC, 1, 0);
    CHECK_EQUAL(tx_begin_held(&a.msg), 0);
    CHECK_WAVE(&b, 0, TX, 0x0, 0xC);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0xC, words, data, true).aborted, 0xC);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0xC, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0);
    CHECK_EQUAL(o.retry, 0xC);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_WAVEFRONT);
    CHECK_WAVE(&b, 0, WF_SERIAL, 0xC, 0xC);

    a = tx(&b, SIMTX_OP_TX_COMMIT, 1, 0x1, 0, 0); /* WI4 commits */
    CHECK_EQUAL(outcome_of(&a).committed, 0x1);

    /* Attempt 3: WF serial, TCM 0001 (WI3 held), WI2 runs alone and commits. */
    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0xC, 2, 0);
    CHECK_EQUAL(tx_begin_held(&a.msg), 0x8);
    CHECK_WAVE(&b, 0, WF_SERIAL, 0x8, 0xC);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x4, words, data, true).aborted, 0);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0xC, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0x4);
    CHECK_EQUAL(o.retry, 0x8);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_NONE);
    CHECK_WAVE(&b, 0, TX, 0x8, 0x8);

    /* Attempt 4: TX, TCM 0000, WI3 runs and commits: NORMAL. */
    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x8, 3, 0);
    CHECK_EQUAL(tx_begin_held(&a.msg), 0);
    CHECK_WAVE(&b, 0, TX, 0x0, 0x8);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x8, words, data, true).aborted, 0);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x8, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0x8);
    CHECK_EQUAL(o.retry, 0);
    CHECK_WAVE(&b, 0, NORMAL, 0x0, 0x0);
    CHECK_EQUAL(word_at(&b, 8), 12);
    CHECK_EQUAL(word_at(&b, 12), 13);

    /* Totals (WI4's one attempt and commit apart). */
    CHECK_EQUAL(stat(&b, "wf_attempts"), 4 + 1);
    CHECK_EQUAL(stat(&b, "wf_serializations"), 1);
    CHECK_EQUAL(stat(&b, "wg_serializations"), 0);
    CHECK_EQUAL(stat(&b, "lane_aborts"), 4);
    CHECK_EQUAL(stat(&b, "lane_commits"), 4 + 1);
    CHECK_EQUAL(stat(&b, "ltm_conflicts"), 4);
    CHECK_EQUAL(stat(&b, "ltm_false_conflicts"), 0);
    (void)w3;
    bench_close(&b);
}

/* Section 3.3: WI3 accesses word 35 (bank 3, row 1, filter bit 1). Word 291
 * (bank 3, row 9) aliases it in the filter; word 67 (row 2) does not. */
static void test_hash(void)
{
    bench b;
    bench_open(&b, NULL);
    uint32_t window = GPU_LOCALTM_REGION_BYTES(320);
    clear(&b, 0, 0, window);
    uint32_t words[4] = {0, 0, 0, 35};
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x8, 0, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x8, words, NULL, true).aborted, 0);
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x3, 0, 4); /* WI4 and WI5 */
    uint32_t other[2] = {67, 291};
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 1, 0, window, 0x3, other, NULL, true).aborted, 0x2);
    CHECK_EQUAL(stat(&b, "ltm_conflicts"), 1);
    CHECK_EQUAL(stat(&b, "ltm_false_conflicts"), 1); /* WI3 never touched word 291 */
    CHECK_EQUAL(stat(&b, "ltm_new"), 2);             /* words 35 and 67 */
    bench_close(&b);
}

/* filter_hash = word (section 3.3's "address % 8" read literally): word 35
 * takes bit 35 % 8 = 3, and so does word 67, which row % 8 keeps apart. */
static void test_word_hash(void)
{
    bench b;
    const char *extra[] = {"filter_hash=word", NULL};
    bench_open(&b, extra);
    uint32_t window = GPU_LOCALTM_REGION_BYTES(320);
    clear(&b, 0, 0, window);
    uint32_t words[4] = {0, 0, 0, 35}, other[1] = {67};
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x8, 0, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x8, words, NULL, true).aborted, 0);
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 1, 0, window, 0x1, other, NULL, true).aborted, 0x1);
    CHECK_EQUAL(stat(&b, "ltm_false_conflicts"), 1);
    bench_close(&b);
}

/* Section 3.2's layout, N = 64: WI5 stores 0xBBBB to word 10 holding
 * 0xAAAA; the backup is word 74, the owner byte 8N + 10 = 522. A conflict
 * of WI5 restores the word and frees the entry; a commit frees it too. */
static void test_layout(void)
{
    bench b;
    bench_open(&b, NULL);
    clear(&b, 0, 0, W64);
    uint32_t w10[2] = {0, 10}, aaaa[2] = {0, 0xAAAA}, bbbb[2] = {0, 0xBBBB}, w42[1] = {42};
    access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x2, w10, aaaa, false); /* plain, outside a transaction */
    CHECK_EQUAL(word_at(&b, 40), 0xAAAA);
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 0, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 0, 0, W64, 0x1, w42, NULL, true).aborted, 0); /* WI0: bank 10, bit 1 */
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x2, 0, 4);                                                 /* lane 1 = WI5 */
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x2, w10, bbbb, true).aborted, 0);
    CHECK_EQUAL(word_at(&b, 4 * 10), 0xBBBB);
    CHECK_EQUAL(word_at(&b, 4 * (N64 + 10)), 0xAAAA);
    CHECK_EQUAL(GPU_LOCALTM_OWNER_OFFSET(N64, 10), 522);
    CHECK_EQUAL(byte_at(&b, 522), 5);
    uint32_t w42b[2] = {0, 42};
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 1, 0, W64, 0x2, w42b, NULL, true).aborted, 0x2); /* WI5 loses */
    CHECK_EQUAL(word_at(&b, 4 * 10), 0xAAAA);
    CHECK_EQUAL(byte_at(&b, 522), 0);
    CHECK_EQUAL(stat(&b, "ltm_restores"), 1);
    tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0); /* WI0 commits */
    /* WI5's retry stores again and commits: the value stays, the entry is free. */
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x2, 1, 4);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x2, w10, bbbb, true).aborted, 0);
    answer a = tx(&b, SIMTX_OP_TX_COMMIT, 1, 0x2, 0, 4);
    CHECK_EQUAL(outcome_of(&a).committed, 0x2);
    CHECK_EQUAL(word_at(&b, 4 * 10), 0xBBBB);
    uint64_t fresh = stat(&b, "ltm_new");
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 0, 0);
    uint32_t w10a[1] = {10};
    CHECK_EQUAL(access_words(&b, SIMTX_OP_READ, 0, 0, W64, 0x1, w10a, NULL, true).aborted, 0); /* free: WI0 takes it */
    CHECK_EQUAL(stat(&b, "ltm_new"), fresh + 1);
    CHECK_EQUAL(byte_at(&b, 522), 0);
    /* The backups and owners are the hardware's: a transactional access there is an address error. */
    uint32_t w64[1] = {N64};
    access_result r = access_words(&b, SIMTX_OP_READ, 0, 0, W64, 0x1, w64, NULL, true);
    CHECK_EQUAL(r.status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(r.aborted, 0);
    bench_close(&b);
}

/* Section 4.2: four new accesses in one bank take their 4 plain bank cycles,
 * one filter evaluation for the instruction and 2 cycles of backup and owner
 * per access in the bank, 4 + 1 + 4 x 2 = 13 (Perfect: the plain 4); a commit of WI0 (3 entries in bank 0, 1 in bank 5)
 * with WI1 (2 in bank 0) takes 1 + 5 = 6. */
static void timing(bool perfect)
{
    bench b;
    const char *extra[] = {perfect ? "perfect=true" : "perfect=false", NULL};
    bench_open(&b, extra);
    clear(&b, 0, 0, GPU_LOCALTM_REGION_BYTES(256));
    uint32_t window = GPU_LOCALTM_REGION_BYTES(256);
    answer a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0xF, 0, 0);
    CHECK_EQUAL(a.cycle, perfect ? 1 : 2);
    uint32_t bank0[4] = {0, 32, 64, 96};
    access_result r = access_words(&b, SIMTX_OP_READ, 0, 0, window, 0xF, bank0, NULL, true);
    CHECK_EQUAL(r.cycles, LATENCY + (perfect ? 4 : 13) - 1);
    CHECK_EQUAL(stat(&b, "ltm_extra_cycles_access"), perfect ? 0 : 9);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0xF, 0, 0);
    CHECK_EQUAL(outcome_of(&a).committed, 0xF);

    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x3, 0, 0);
    uint32_t r1[2] = {0, 96}, r2[2] = {32, 128}, r3[1] = {64}, r4[1] = {5};
    access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x3, r1, NULL, true);
    access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x3, r2, NULL, true);
    access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x1, r3, NULL, true);
    access_words(&b, SIMTX_OP_READ, 0, 0, window, 0x1, r4, NULL, true);
    uint64_t before = stat(&b, "ltm_extra_cycles_commit");
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x3, 0, 0);
    CHECK_EQUAL(outcome_of(&a).committed, 0x3);
    CHECK_EQUAL(stat(&b, "ltm_extra_cycles_commit") - before, perfect ? 0 : 6);
    CHECK_EQUAL(a.cycle, perfect ? 1 : 7);
    bench_close(&b);
}

static void test_timing(void)
{
    timing(false);
    timing(true);
}

/* Section 4.3: a 64 KiB region holds floor(65536 / 9) = 7281 data words
 * (29,124 bytes; the paper's 29,127 uses fractional words). */
static void test_capacity(void)
{
    CHECK_EQUAL(GPU_LOCALTM_WORDS(65536), 7281);
    CHECK_EQUAL(4 * GPU_LOCALTM_WORDS(65536), 29124);
    CHECK_EQUAL(GPU_LOCALTM_REGION_BYTES(7281), 65529);
    bench b;
    bench_open(&b, NULL);
    clear(&b, 0, 0, 65536);
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x3, 0, 0);
    uint32_t words[2] = {7280, 7281};
    access_result r = access_words(&b, SIMTX_OP_WRITE, 0, 0, 65536, 0x1, words, words, true);
    CHECK_EQUAL(r.status, SIMTX_STATUS_OK);
    r = access_words(&b, SIMTX_OP_WRITE, 0, 0, 65536, 0x3, words, words, true);
    CHECK_EQUAL(r.status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(r.fault_lane, 1);
    CHECK_EQUAL(word_at(&b, 4 * 7280), 7280);
    CHECK_EQUAL(word_at(&b, 4 * (7281 + 7280)), 0); /* its backup */
    bench_close(&b);
}

/* Two lanes of warp 0 keep conflicting with WI4 (warp 1): TX, then
 * wavefront serialisation, then work-group serialisation, which aborts
 * warp 1's attempt (TX_ABORT on tx_events), holds its next TX_BEGIN until
 * warp 0's serialised attempt commits (warp 1 re-runs the cancelled
 * attempt in its mode), and lets every lane finish. The wavefront-serial
 * lane loses to WI4 only under conflict_resolution = requester_loses. */
static void test_work_group_serialization(void)
{
    bench b;
    const char *extra[] = {"conflict_resolution=requester_loses", NULL};
    bench_open(&b, extra);
    clear(&b, 0, 0, W64);
    uint32_t w2[2] = {2, 2}, data[2] = {100, 101};
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4);
    access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x1, w2, data, true); /* WI4 holds word 2 */
    tx_outcome o;
    for (unsigned attempt = 0; attempt < 2; attempt++) {
        tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x3, attempt, 0);
        CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x3, w2, data, true).aborted, 0x3);
        answer a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x3, 0, 0);
        o = outcome_of(&a);
        CHECK_EQUAL(o.retry, 0x3);
    }
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_WAVEFRONT);
    answer a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 2, 0); /* the core runs the lowest lane */
    CHECK_EQUAL(tx_begin_held(&a.msg), 0);
    CHECK_WAVE(&b, 0, WF_SERIAL, 0x2, 0x3);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x1, w2, data, true).aborted, 0x1);
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_WORK_GROUP);
    CHECK_WAVE(&b, 0, WG_SERIAL, 0x3, 0x3);
    CHECK_EQUAL(stat(&b, "wg_serializations"), 1);

    /* Work-group serial: warp 1's attempt aborts (WI4's store undone). */
    size_t before = b.fake.sent_count;
    a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 3, 0);
    CHECK_EQUAL(a.cycle, 1 + 1 + 1); /* 1 + the most occupied bank's entry, then the answer */
    CHECK(last_told_local_abort(&b, before, 1, 0x1));
    CHECK_EQUAL(word_at(&b, 8), 0);
    CHECK_WAVE(&b, 1, TX, 0x1, 0x0);
    answer held = tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 1, 4); /* held at its TX Begin */
    CHECK_EQUAL(held.cycle, 0);
    CHECK_EQUAL(stat(&b, "wg_holds"), 1);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x1, w2, data, true).aborted, 0);
    before = b.fake.sent_count;
    a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0x1);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_NONE);
    bool released = false;
    for (size_t k = before; k < b.fake.sent_count; k++)
        released |= b.fake.sent[k].op == SIMTX_OP_TX_BEGIN && b.fake.sent[k].warp == 1 && b.fake.sent[k].is_response;
    CHECK(released);
    CHECK_WAVE(&b, 0, TX, 0x2, 0x2);
    /* Warp 1's aborted attempt was cancelled, not ended: it re-runs in TX
     * with no TCM OLD of its own (counting it, TCM 0x1, would have made a
     * victim escalate as if it had conflicted). */
    CHECK_WAVE(&b, 1, TX, 0x0, 0x0);
    CHECK_EQUAL(stat(&b, "wf_serializations"), 1);
    /* Lane 1 of warp 0 and WI4 finish. */
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x2, 4, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x2, w2, data, true).aborted, 0);
    CHECK_EQUAL(outcome_of((a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x2, 0, 0), &a)).committed, 0x2);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x1, w2, data, true).aborted, 0);
    CHECK_EQUAL(outcome_of((a = tx(&b, SIMTX_OP_TX_COMMIT, 1, 0x1, 0, 0), &a)).committed, 0x1);
    CHECK_EQUAL(word_at(&b, 8), 100);
    CHECK_EQUAL(stat(&b, "lane_commits"), 3);
    CHECK(b.fake.failure[0] == 0);
    bench_close(&b);
}

/* conflict_resolution = serial_wins (the default): two wavefronts contend
 * for word 2 and the serialised one must win. Warp 0's two lanes lose to
 * WI4 (warp 1, TX) twice, so warp 0 runs WI0 alone (wavefront-serial);
 * WI0's access finds WI4's filter bit and WI4 loses instead: its store is
 * undone, warp 1 is told (TX_ABORT), and WI0 commits without a work-group
 * serialisation. Under requester_loses WI0 lost (aborted 0x1) and warp 0
 * escalated (test_work_group_serialization). */
static void test_serial_wins(void)
{
    bench b;
    bench_open(&b, NULL);
    clear(&b, 0, 0, W64);
    uint32_t w2[2] = {2, 2}, data[2] = {100, 101}, wi4[1] = {44};
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x1, w2, wi4, true).aborted, 0); /* WI4 holds word 2 */
    CHECK_EQUAL(word_at(&b, 8), 44);
    tx_outcome o;
    for (unsigned attempt = 0; attempt < 2; attempt++) {
        tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x3, attempt, 0);
        CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x3, w2, data, true).aborted, 0x3); /* TX: the requester loses */
        answer a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x3, 0, 0);
        o = outcome_of(&a);
        CHECK_EQUAL(o.retry, 0x3);
    }
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_WAVEFRONT);
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 2, 0);
    CHECK_WAVE(&b, 0, WF_SERIAL, 0x2, 0x3);
    size_t before = b.fake.sent_count;
    access_result r = access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x1, w2, data, true);
    CHECK_EQUAL(r.aborted, 0); /* the serialised work-item wins */
    CHECK(last_told_local_abort(&b, before, 1, 0x1));
    CHECK_WAVE(&b, 1, TX, 0x1, 0x0); /* WI4 in warp 1's TCM */
    CHECK_EQUAL(word_at(&b, 8), 100);      /* WI4's 44 undone, WI0's 100 written */
    CHECK_EQUAL(word_at(&b, 4 * (64 + 2)), 0); /* WI0's backup: the value before WI4 */
    CHECK_EQUAL(stat(&b, "ltm_serial_wins"), 1);
    answer a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x1, 0, 0);
    o = outcome_of(&a);
    CHECK_EQUAL(o.committed, 0x1);
    CHECK_EQUAL(o.serialize, TX_SERIALIZE_NONE);
    CHECK_WAVE(&b, 0, TX, 0x2, 0x2);
    /* Warp 1's attempt ends with WI4 in its TCM (the core re-runs it); WI1 and WI4 finish. */
    a = tx(&b, SIMTX_OP_TX_COMMIT, 1, 0x1, 0, 0);
    CHECK_EQUAL(outcome_of(&a).retry, 0x1);
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x2, 3, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x2, w2, data, true).aborted, 0);
    CHECK_EQUAL(outcome_of((a = tx(&b, SIMTX_OP_TX_COMMIT, 0, 0x2, 0, 0), &a)).committed, 0x2);
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 1, 4);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x1, w2, wi4, true).aborted, 0);
    CHECK_EQUAL(outcome_of((a = tx(&b, SIMTX_OP_TX_COMMIT, 1, 0x1, 0, 0), &a)).committed, 0x1);
    CHECK_EQUAL(word_at(&b, 8), 44);
    CHECK_EQUAL(stat(&b, "wg_serializations"), 0);
    CHECK_EQUAL(stat(&b, "lane_commits"), 3);
    CHECK(b.fake.failure[0] == 0);
    bench_close(&b);
}

/* broken_filters: a conflict between wavefronts goes unseen (the oracles'
 * target); one inside a wavefront is still caught. */
static void test_broken(void)
{
    bench b;
    const char *extra[] = {"broken_filters=true", NULL};
    bench_open(&b, extra);
    clear(&b, 0, 0, W64);
    uint32_t w2[2] = {2, 2}, data[2] = {1, 2};
    tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x3, 0, 0);
    tx(&b, SIMTX_OP_TX_BEGIN, 1, 0x1, 0, 4);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x1, w2, data, true).aborted, 0);
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 1, 0, W64, 0x1, w2, data, true).aborted, 0); /* unseen */
    CHECK_EQUAL(access_words(&b, SIMTX_OP_WRITE, 0, 0, W64, 0x2, w2, data, true).aborted, 0x2); /* seen */
    bench_close(&b);
}

/* The plain policy still answers TX events and verdict beats with a command error. */
static void test_plain_refuses(void)
{
    bench b;
    const char *settings[] = {"policy=plain", NULL};
    b.observer = simtx_observer_create();
    fake_env_init(&b.fake, b.observer);
    fake_params(&lds_block_info, &b.params, settings);
    char error[256];
    b.lds = lds_block_info.create(&b.params, &b.fake.env, error, sizeof error);
    b.now = 1;
    b.seen = 0;
    answer a = tx(&b, SIMTX_OP_TX_BEGIN, 0, 0x1, 0, 0);
    CHECK_EQUAL(a.msg.status, SIMTX_STATUS_COMMAND_ERROR);
    bench_close(&b);
}

int main(void)
{
    test_table1();
    test_hash();
    test_word_hash();
    test_layout();
    test_timing();
    test_capacity();
    test_work_group_serialization();
    test_serial_wins();
    test_broken();
    test_plain_refuses();
    return simtx_test_summary();
}
