/* Unit tests of the tm_unit block without SystemC. A pretend core sends
 * tx.h events and ldst.h beats; a fake memory side holds words, answers
 * forwarded loads and the lazy TM protocol (commit IDs, value-based
 * validation, write-back at the decision, last-written times). Covered:
 * pass-through untouched and its back-pressure, loads answered from the
 * logs, per-transaction and coalesced commits, a validation failure and its
 * retry, Warp TM's intra-warp conflict, TCD's read-only commit, EA/PG's
 * conflict address table and its update latency, Early-Abort and
 * Pause-and-Go (HPCA'16 Figures 6 and 7 on the unit's side), rollback,
 * faults, the commit records and bad parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env.h"
#include "ldst.h"
#include "notify.h"
#include "test_support.h"
#include "tm_lazy.h"
#include "tm_unit.h"
#include "test_abort_filter.h"
#include "tx.h"
#include "version.h"

enum { CORE = 0, LDST = 1, NOTIFY = 2, EVENTS = 3 };
#define WORDS 4096
#define BASE 0x10000u /* the fake memory's words: BASE + 4 i */
#define TRIGGER TEST_ABORT_TRIGGER /* BASE + 0x100: a load of it aborts the lane, once per lane */
#define WARP 5

/* ---- The fake memory side ---- */

typedef struct fake_tx {
    uint32_t cid;
    unsigned reads, writes;
    tm_entry read[64], write[64];
} fake_tx;

typedef struct fake_memory {
    uint32_t words[WORDS];
    uint32_t last_written[WORDS / 32]; /* per 128-byte block: the last committed ID */
    uint32_t next_cid;
    uint32_t read_stamp; /* the stamp of forwarded loads (0: next_cid, every ID below it being written back) */
    fake_tx txs[256]; /* by commit ID */
    unsigned loads, cid_requests, clock_reads, log_messages, dones, coalesced_dones, decisions, lwt_queries;
    uint8_t load_flags; /* the last forwarded load's flags and transaction_id (a filter's forward hook tags them) */
    uint32_t load_transaction_id, load_tag;
    uint32_t epoch; /* the VIT slices' overflow epoch (version.h) */
    bool epoch_over; /* loads are stamped 0: a slice read the newest version, the snapshot's epoch being over */
    unsigned acquires, releases;
    uint64_t acquire_address[8], acquire_aux, release_aux;
    unsigned releases_at_cid_request; /* RELEASEs sent before the last commit-ID request */
    bool lower_boundary; /* the slice of boundary_partition closed the IDs above `boundary` together with later ones */
    unsigned boundary_partition;
    uint32_t boundary;
} fake_memory;

static uint32_t *word_at(fake_memory *m, uint32_t address)
{
    CHECK(address >= BASE && address < BASE + 4 * WORDS);
    return &m->words[(address - BASE) / 4 % WORDS];
}

static bool validate(fake_memory *m, uint32_t cid)
{
    fake_tx *t = &m->txs[cid % 256];
    for (unsigned i = 0; i < t->reads; i++)
        if (*word_at(m, t->read[i].address) != t->read[i].value) return false;
    return true;
}

static void write_back(fake_memory *m, uint32_t cid)
{
    fake_tx *t = &m->txs[cid % 256];
    for (unsigned i = 0; i < t->writes; i++) {
        *word_at(m, t->write[i].address) = t->write[i].value;
        m->last_written[(t->write[i].address - BASE) / 128 % (WORDS / 32)] = cid;
    }
}

/* The response to one request of the tm_unit's ldst socket. */
static void fake_answer(fake_memory *m, const simtx_msg *request, simtx_msg *response)
{
    *response = *request;
    simtx_msg_make_response(response, SIMTX_STATUS_OK);
    switch (request->op) {
    case SIMTX_OP_READ: /* a forwarded ldst.h load: word addresses in the slots */
        CHECK(request->flags & SIMTX_FLAG_TRANSACTIONAL);
        CHECK_EQUAL(ldst_access_size(request), 4);
        for (uint32_t g = ldst_group_lanes(request->lane_mask, ldst_group(request)); g; g &= g - 1) {
            unsigned i = (unsigned)__builtin_ctz(g);
            ldst_set_slot(response, i, *word_at(m, ldst_slot(request, i)));
        }
        ldst_set_stamp(response, m->epoch_over ? 0 : m->read_stamp ? m->read_stamp : m->next_cid ? m->next_cid : 1);
        m->loads += ldst_is_last(request);
        m->load_flags = request->flags;
        m->load_transaction_id = request->transaction_id;
        m->load_tag = ldst_tag(request);
        break;
    case SIMTX_OP_VERSION_ACQUIRE: /* every slice answers the same handle */
        if (m->acquires < 8) m->acquire_address[m->acquires] = request->address;
        m->acquires++;
        m->acquire_aux = request->aux;
        response->aux = version_handle(m->epoch, request->aux);
        response->transaction_id = (uint32_t)request->aux; /* its boundary: the slice closed at the point */
        if (m->lower_boundary && request->aux > m->boundary && tm_partition_of(request->address, 256, 2) == m->boundary_partition)
            response->transaction_id = m->boundary; /* it closed the IDs up to the point together with later ones */
        response->size = 0;
        break;
    case SIMTX_OP_VERSION_RELEASE:
        m->releases++;
        m->release_aux = request->aux;
        response->size = 0;
        break;
    case SIMTX_OP_TM_CID_REQUEST:
        if (!m->next_cid) m->next_cid = 1;
        response->aux = m->next_cid;
        if (request->aux) m->cid_requests++, m->releases_at_cid_request = m->releases;
        else m->clock_reads++;
        m->next_cid += (uint32_t)request->aux;
        response->size = 0;
        break;
    case SIMTX_OP_TM_READ_LOG:
    case SIMTX_OP_TM_WRITE_LOG:
        m->log_messages++;
        for (unsigned k = 0; k < tm_entry_count(request); k++) {
            fake_tx *t = &m->txs[tm_entry_cid(request, k) % 256];
            tm_entry e = tm_get_entry(request, k);
            if (request->op == SIMTX_OP_TM_READ_LOG) t->read[t->reads++] = e;
            else t->write[t->writes++] = e;
        }
        response->size = 0;
        break;
    case SIMTX_OP_TM_SKIP: response->size = 0; break;
    case SIMTX_OP_TM_LOG_DONE:
        m->dones++;
        if (request->size) { /* coalesced: one record per ID */
            m->coalesced_dones++;
            response->aux = 0;
            for (unsigned i = 0; i < request->size / 8; i++)
                if (validate(m, request->transaction_id + i)) response->aux |= 1ull << i;
        } else {
            response->aux = validate(m, request->transaction_id) ? TM_OUTCOME_PASS : TM_OUTCOME_FAIL;
        }
        response->size = 0;
        break;
    case SIMTX_OP_TM_DECISION:
        m->decisions++;
        if (request->size) {
            uint32_t count;
            memcpy(&count, request->data, 4);
            for (uint32_t i = 0; i < count; i++)
                if ((request->aux >> i) & 1) write_back(m, request->transaction_id + i);
        } else if (request->aux == TM_DECISION_COMMIT) {
            write_back(m, request->transaction_id);
        }
        response->size = 0;
        break;
    case SIMTX_OP_TM_LWT_QUERY:
        m->lwt_queries++;
        response->aux = m->last_written[(request->address - BASE) / 128 % (WORDS / 32)];
        break;
    default: CHECK(!"an op the fake memory side does not serve"); break;
    }
}

/* Every commit ID is validated against the words when its TM_LOG_DONE
 * arrives, and written back at its decision; the partitions are one. Log
 * entries of an ID arrive before its TM_LOG_DONE (the tm_unit sends them in
 * order and the fake answers in order). */

/* ---- The bench ---- */

typedef struct bench {
    fake_env fake;
    tm_unit_params params;
    simtx_observer *observer;
    void *unit;
    fake_memory memory;
    uint64_t now;
    simtx_msg to_core[1024]; /* responses the core received, in order */
    unsigned to_core_count;
    uint64_t to_core_cycle[1024];
    simtx_msg passed[64]; /* requests that went to the ldst socket unanswered by the fake (pass-through) */
    unsigned passed_count;
    uint64_t last_cid_request; /* the cycle the unit last asked for commit IDs */
    bool verdicts;             /* transactional requests start with a VERDICT beat (tx.h 2), as under Pause-and-Go */
    int verdict;               /* the last request's verdict response (-1: none) */
    uint64_t request_cycle;    /* the cycle the last request's beats arrived */
    bool hold_loads;           /* the fake memory keeps forwarded loads until release_loads */
    simtx_msg held[16];
    unsigned held_count;
    simtx_msg events[16];      /* what the unit sent on tx_events (TX_ABORT) */
    uint64_t event_cycle[16];
    unsigned event_count;
} bench;

static bench b_storage;

static bench *bench_open(const char *const *settings)
{
    bench *b = &b_storage;
    memset(b, 0, sizeof *b);
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    fake_params(&tm_unit_block_info, &b->params, settings);
    char error[256] = "";
    b->unit = tm_unit_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    if (!b->unit) fprintf(stderr, "create: %s\n", error);
    CHECK(b->unit != NULL);
    return b;
}

static void bench_close(bench *b)
{
    CHECK_STRING(b->fake.failure, "");
    tm_unit_block_info.destroy(b->unit);
    simtx_params_release(tm_unit_block_info.params, &b->params);
    simtx_observer_destroy(b->observer);
}

static uint64_t counter(bench *b, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, name);
    return e ? *(const uint64_t *)e->value : UINT64_MAX;
}

/* Takes what the unit sent: the core's responses are kept, the ldst
 * socket's TM and forwarded requests answered by the fake memory side
 * (responses offered at once), anything with a core id kept as passed. */
static void drain(bench *b)
{
    while (b->fake.sent_count) {
        simtx_msg sent[64];
        unsigned ports[64], count = 0;
        for (size_t i = 0; i < b->fake.sent_count && count < 64; i++, count++) {
            sent[count] = b->fake.sent[i];
            ports[count] = b->fake.sent_port[i];
        }
        memmove(b->fake.sent, b->fake.sent + count, (b->fake.sent_count - count) * sizeof b->fake.sent[0]);
        memmove(b->fake.sent_port, b->fake.sent_port + count, (b->fake.sent_count - count) * sizeof b->fake.sent_port[0]);
        b->fake.sent_count -= count;
        for (unsigned i = 0; i < count; i++) {
            if (ports[i] == CORE) {
                CHECK(sent[i].is_response);
                b->to_core_cycle[b->to_core_count] = b->now;
                b->to_core[b->to_core_count++] = sent[i];
            } else if (ports[i] == EVENTS) {
                CHECK(b->event_count < 16);
                if (b->event_count < 16) b->event_cycle[b->event_count] = b->now, b->events[b->event_count++] = sent[i];
            } else if (sent[i].id < 1000) { /* the core's own request, passed through */
                b->passed[b->passed_count++] = sent[i];
            } else if (b->hold_loads && sent[i].op == SIMTX_OP_READ && b->held_count < 16) {
                b->held[b->held_count++] = sent[i];
            } else {
                if (sent[i].op == SIMTX_OP_TM_CID_REQUEST) b->last_cid_request = b->now;
                simtx_msg response;
                fake_answer(&b->memory, &sent[i], &response);
                CHECK(tm_unit_block_info.accept(b->unit, LDST, &response, b->now) != SIMTX_BUSY);
            }
        }
    }
}

/* Ticks the unit every cycle for `cycles`. */
static void run(bench *b, uint64_t cycles)
{
    for (uint64_t end = b->now + cycles; b->now < end; b->now++) {
        drain(b);
        tm_unit_block_info.cycle(b->unit, b->now);
        drain(b);
    }
}

/* The index of the first core response of op (from `from` on), or -1. */
static int find_response(const bench *b, simtx_op op, unsigned from)
{
    for (unsigned i = from; i < b->to_core_count; i++)
        if (b->to_core[i].op == op) return (int)i;
    return -1;
}

static simtx_msg tx_event(simtx_op op, uint64_t lanes, uint64_t aux, uint64_t id)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, 0, 0);
    msg.lane_mask = lanes;
    msg.aux = aux;
    msg.id = id;
    msg.core = 2;
    msg.warp = WARP;
    msg.cta = 1;
    return msg;
}

/* Sends a tx.h event and runs until its response; returns the response's index. */
static int event(bench *b, simtx_op op, uint64_t lanes, uint64_t aux, uint64_t max_cycles)
{
    simtx_msg msg = tx_event(op, lanes, aux, 900 + op);
    unsigned before = b->to_core_count;
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &msg, b->now) != SIMTX_BUSY);
    for (uint64_t c = 0; c < max_cycles && find_response(b, op, before) < 0; c++) run(b, 1);
    int index = find_response(b, op, before);
    CHECK(index >= 0);
    return index;
}

static tx_outcome commit(bench *b, uint64_t lanes)
{
    tx_outcome outcome = {0, 0, 0};
    int index = event(b, SIMTX_OP_TX_COMMIT, lanes, 0, 2000);
    if (index < 0) return outcome;
    CHECK_EQUAL(b->to_core[index].size, sizeof outcome);
    memcpy(&outcome, b->to_core[index].data, sizeof outcome);
    return outcome;
}

/* Sends the beats of an ldst.h request (id, lanes, one address and value
 * per lane), a VERDICT beat first when b->verdicts asks for it. */
static void send_request(bench *b, simtx_op op, unsigned size, uint64_t lanes, const uint32_t *addresses, const uint32_t *data,
                         bool transactional, uint64_t id)
{
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, op, 0, 0);
    header.aux = ldst_aux(7, size, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0);
    if (op == SIMTX_OP_ATOMIC) header.atomic_op = SIMTX_ATOMIC_ADD;
    header.lane_mask = lanes;
    header.id = id;
    header.core = 2;
    header.warp = WARP;
    header.cta = 1;
    header.flags = transactional ? SIMTX_FLAG_TRANSACTIONAL : 0;
    unsigned count = ldst_make_beats(beats, &header, addresses, data, NULL);
    if (b->verdicts && transactional) {
        simtx_msg verdict;
        tx_verdict_beat(&verdict, &beats[0]);
        CHECK(tm_unit_block_info.accept(b->unit, CORE, &verdict, b->now) != SIMTX_BUSY);
    }
    for (unsigned i = 0; i < count; i++) CHECK(tm_unit_block_info.accept(b->unit, CORE, &beats[i], b->now) != SIMTX_BUSY);
    b->request_cycle = b->now;
}

/* send_request, then runs until the request's completion; returns the
 * index of its first response (its verdict's, if any, in b->verdict). */
static int access(bench *b, simtx_op op, unsigned size, uint64_t lanes, const uint32_t *addresses, const uint32_t *data,
                  bool transactional, uint64_t id)
{
    unsigned before = b->to_core_count;
    send_request(b, op, size, lanes, addresses, data, transactional, id);
    b->verdict = -1;
    for (unsigned c = 0; c < 500; c++) {
        for (unsigned i = before; i < b->to_core_count; i++)
            if (b->to_core[i].id == id && ldst_is_last(&b->to_core[i])) {
                int first = -1;
                for (unsigned j = before; j <= i; j++) {
                    if (b->to_core[j].id != id) continue;
                    if (ldst_beat_of(&b->to_core[j]) == LDST_BEAT_VERDICT) {
                        CHECK(first < 0); /* the verdict comes first */
                        b->verdict = (int)j;
                    } else if (first < 0) {
                        first = (int)j;
                    }
                }
                CHECK_EQUAL(b->verdict >= 0, b->verdicts && transactional);
                return first;
            }
        run(b, 1);
    }
    CHECK(!"no completion");
    return -1;
}

/* Answers the forwarded loads the fake memory held (b->hold_loads). */
static void release_loads(bench *b)
{
    for (unsigned i = 0; i < b->held_count; i++) {
        simtx_msg response;
        fake_answer(&b->memory, &b->held[i], &response);
        CHECK(tm_unit_block_info.accept(b->unit, LDST, &response, b->now) != SIMTX_BUSY);
    }
    b->held_count = 0;
    run(b, 1);
}

static uint32_t load1(bench *b, uint32_t address, uint64_t id)
{
    int first = access(b, SIMTX_OP_READ, 4, 1, &address, NULL, true, id);
    return first >= 0 ? ldst_slot(&b->to_core[first], 0) : 0;
}

static void store1(bench *b, unsigned lane, uint32_t address, uint32_t value, uint64_t id)
{
    uint32_t addresses[64] = {0}, data[64] = {0};
    addresses[lane] = address;
    data[lane] = value;
    access(b, SIMTX_OP_WRITE, 4, 1ull << lane, addresses, data, true, id);
}

/* ---- Tests ---- */

/* Non-transactional requests and their responses pass unchanged, inside
 * accept; only a first beat is refused, later ones wait in order. */
static void test_pass_through(void)
{
    bench *b = bench_open(NULL);
    uint32_t addresses[64], data[64];
    for (unsigned i = 0; i < 64; i++) addresses[i] = BASE + 4 * i, data[i] = i;
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, SIMTX_OP_WRITE, 0, 0);
    header.aux = ldst_aux(0, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0);
    header.lane_mask = UINT64_MAX;
    header.id = 7;
    header.warp = 1;
    unsigned count = ldst_make_beats(beats, &header, addresses, data, NULL);
    CHECK_EQUAL(count, 4);
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &beats[0], 0) != SIMTX_BUSY);
    CHECK_EQUAL(b->fake.sent_count, 1); /* forwarded inside accept, no cycle */
    CHECK(memcmp(&b->fake.sent[0], &beats[0], sizeof beats[0]) == 0);
    b->fake.refuse_ports = 1u << LDST; /* the ldst_unit is busy from the second beat on */
    for (unsigned i = 1; i < count; i++) CHECK(tm_unit_block_info.accept(b->unit, CORE, &beats[i], 0) != SIMTX_BUSY);
    CHECK_EQUAL(b->fake.sent_count, 1);
    simtx_msg other = beats[0];
    other.id = 8;
    CHECK_EQUAL(tm_unit_block_info.accept(b->unit, CORE, &other, 1), SIMTX_BUSY); /* a new request's first beat */
    b->fake.refuse_ports = 0;
    tm_unit_block_info.port_free(b->unit, LDST);
    tm_unit_block_info.cycle(b->unit, 1);
    CHECK_EQUAL(b->fake.sent_count, 4);
    for (unsigned i = 0; i < 4; i++) CHECK(memcmp(&b->fake.sent[i], &beats[i], sizeof beats[i]) == 0);
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &other, 2) != SIMTX_BUSY);
    CHECK_EQUAL(b->fake.sent_count, 5);
    /* A response of the core's own request comes back unchanged at once. */
    simtx_msg response = beats[3];
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    response.size = 0;
    CHECK_EQUAL(tm_unit_block_info.accept(b->unit, LDST, &response, 3), SIMTX_ACCEPTED_NO_TICK);
    CHECK_EQUAL(b->fake.sent_count, 6);
    CHECK_EQUAL(b->fake.sent_port[5], CORE);
    CHECK(memcmp(&b->fake.sent[5], &response, sizeof response) == 0);
    CHECK_EQUAL(counter(b, "passed_through"), 5);
    CHECK_EQUAL(counter(b, "tx_loads"), 0);
    b->fake.sent_count = 0;
    bench_close(b);
}

/* KILO TM: stores go to the write log, loads of logged words are answered
 * from it after log_latency, other loads go on and are logged; the commit
 * writes the logs back; the record holds the reads and writes. */
static void test_per_tx_commit(void)
{
    const char *settings[] = {"partitions=2", "log_latency=10", "record=true", NULL};
    bench *b = bench_open(settings);
    b->memory.words[2] = 40; /* BASE + 8 */
    int begin = event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 10);
    CHECK_EQUAL(b->to_core[begin].status, SIMTX_STATUS_OK);
    store1(b, 0, BASE + 0, 0x605, 1000);
    store1(b, 1, BASE + 4, 6, 1001);
    CHECK_EQUAL(b->memory.words[0], 0); /* lazy: nothing written yet */
    uint64_t sent_at = b->now;
    CHECK_EQUAL(load1(b, BASE + 0, 1002), 0x605);
    CHECK(b->now - sent_at >= 10);                   /* from the log, in local memory */
    CHECK_EQUAL(b->memory.loads, 0);
    CHECK_EQUAL(load1(b, BASE + 8, 1003), 40);       /* lane 0 reads memory */
    CHECK_EQUAL(b->memory.loads, 1);
    CHECK_EQUAL(load1(b, BASE + 8, 1004), 40);       /* now logged */
    CHECK_EQUAL(b->memory.loads, 1);
    /* A sub-word load of a logged word: its byte, zero-extended. */
    uint32_t byte_address = BASE + 1;
    int first = access(b, SIMTX_OP_READ, 1, 1, &byte_address, NULL, true, 1005);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 0), 6);
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x3);
    CHECK_EQUAL(outcome.retry, 0);
    CHECK_EQUAL(b->memory.words[0], 0x605);
    CHECK_EQUAL(b->memory.words[1], 6);
    CHECK_EQUAL(b->memory.cid_requests, 1);
    CHECK_EQUAL(b->memory.coalesced_dones, 0);
    CHECK_EQUAL(counter(b, "commits"), 2);
    CHECK_EQUAL(counter(b, "aborts"), 0);
    CHECK_EQUAL(counter(b, "log_answered_lanes"), 3);
    CHECK_EQUAL(counter(b, "forwarded_loads"), 1);
    CHECK(counter(b, "log_bytes") >= 2 * (TM_LOG_HEADER_BYTES + 8));
    const tm_unit_record *records;
    const uint32_t *words;
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 2);
    CHECK_EQUAL(records[0].cid, 1);
    CHECK_EQUAL(records[0].read_count, 1); /* lane 0 read BASE + 8 from memory */
    CHECK_EQUAL(records[0].write_count, 1);
    CHECK_EQUAL(words[records[0].first_word + 0], BASE + 8);
    CHECK_EQUAL(words[records[0].first_word + 1], 40);
    CHECK_EQUAL(words[records[0].first_word + 2], BASE);
    CHECK_EQUAL(words[records[0].first_word + 3], 0x605);
    CHECK_EQUAL(records[1].cid, 2);
    tm_unit_clear_history(b->unit);
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 0);
    bench_close(b);
}

/* A word read changes before the commit: validation fails, the lane is to
 * retry; the re-run (TX_BEGIN attempt 1) reads the new value and commits. */
static void test_validation_retry(void)
{
    bench *b = bench_open(NULL);
    b->memory.words[10] = 1;
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 10);
    uint32_t seen = load1(b, BASE + 40, 1000);
    CHECK_EQUAL(seen, 1);
    store1(b, 0, BASE + 40, seen + 1, 1001);
    b->memory.words[10] = 100; /* another core's commit */
    tx_outcome outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0);
    CHECK_EQUAL(outcome.retry, 0x1);
    CHECK_EQUAL(b->memory.words[10], 100); /* aborted: not written back */
    CHECK_EQUAL(counter(b, "aborts_validation"), 1);
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 1, 10);
    seen = load1(b, BASE + 40, 1002); /* the logs were dropped: from memory again */
    CHECK_EQUAL(seen, 100);
    store1(b, 0, BASE + 40, seen + 1, 1003);
    outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.words[10], 101);
    CHECK_EQUAL(counter(b, "commits"), 1);
    CHECK_EQUAL(counter(b, "aborts"), 1);
    const simtx_stat_entry *per_tx = simtx_observer_find_stat(b->observer, "aborts_per_tx");
    CHECK(per_tx != NULL);
    if (per_tx) CHECK_EQUAL(((const simtx_histogram *)per_tx->value)->sum, 1);
    bench_close(b);
}

/* Warp TM: consecutive IDs share coalesced TM_LOG_DONEs and decisions;
 * two lanes writing one word: the intra-warp check fails the higher lane
 * before commit IDs, after its two passes over the table. */
static void test_coalesced_intra_warp(void)
{
    const char *settings[] = {"commit=coalesced", "precommit=intra_warp", "partitions=1", "conflict_latency=30", NULL};
    bench *b = bench_open(settings);
    event(b, SIMTX_OP_TX_BEGIN, 0xf, 0, 10);
    uint32_t addresses[64] = {0}, data[64] = {0};
    for (unsigned l = 0; l < 4; l++) addresses[l] = BASE + 4 * l, data[l] = 10 + l;
    addresses[3] = BASE + 8; /* lanes 2 and 3 write one word */
    access(b, SIMTX_OP_WRITE, 4, 0xf, addresses, data, true, 1000);
    uint64_t start = b->now;
    tx_outcome outcome = commit(b, 0xf);
    CHECK(b->now - start >= 60);
    CHECK_EQUAL(outcome.committed, 0x7);
    CHECK_EQUAL(outcome.retry, 0x8);
    CHECK_EQUAL(b->memory.words[2], 12);
    CHECK_EQUAL(b->memory.cid_requests, 1);
    CHECK_EQUAL(b->memory.coalesced_dones, 1);
    CHECK_EQUAL(b->memory.decisions, 1);
    CHECK_EQUAL(b->memory.log_messages, 1); /* three write entries in one message */
    CHECK_EQUAL(counter(b, "aborts_intra_warp"), 1);
    CHECK_EQUAL(counter(b, "aborts_validation"), 0);
    CHECK_EQUAL(counter(b, "commits"), 3);
    /* The retry of lane 3 alone now commits. */
    event(b, SIMTX_OP_TX_BEGIN, 0x8, 1, 10);
    store1(b, 3, BASE + 8, 13, 1001);
    outcome = commit(b, 0x8);
    CHECK_EQUAL(outcome.committed, 0x8);
    CHECK_EQUAL(b->memory.words[2], 13);
    bench_close(b);
}

/* TCD: nothing waits before the commit (TX_BEGIN and the loads ask the
 * memory side nothing); at the commit a read-only attempt asks for the
 * last-written time of each block it read and commits with no commit ID
 * when all are below its read stamp (the lowest of its loads'), serialized
 * just before the stamp; one whose block was written from the stamp on
 * takes the normal path; a writer never asks. */
static void test_tcd(void)
{
    const char *settings[] = {"precommit=tcd", "record=true", NULL};
    bench *b = bench_open(settings);
    b->memory.next_cid = 5;
    b->memory.words[64] = 9; /* BASE + 256: block 2 */
    b->memory.last_written[2] = 3;
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 10);
    CHECK_EQUAL(b->memory.clock_reads, 0);
    CHECK_EQUAL(load1(b, BASE + 256, 1000), 9);
    b->memory.read_stamp = 4;
    CHECK_EQUAL(load1(b, BASE + 260, 1001), 0);
    CHECK_EQUAL(b->memory.lwt_queries, 0);
    tx_outcome outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.cid_requests, 0);
    CHECK_EQUAL(b->memory.lwt_queries, 1); /* one block, asked at the commit */
    CHECK_EQUAL(counter(b, "tcd_commits"), 1);
    const tm_unit_record *records;
    const uint32_t *words;
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 1);
    CHECK_EQUAL(records[0].cid, 3); /* serialized right after ID stamp - 1 */
    CHECK_EQUAL(records[0].after, 1);
    /* Written from the stamp on: the commit units validate it instead. */
    b->memory.read_stamp = 0;
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 10);
    CHECK_EQUAL(load1(b, BASE + 256, 1002), 9);
    b->memory.last_written[2] = b->memory.next_cid;
    outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.lwt_queries, 2);
    CHECK_EQUAL(b->memory.cid_requests, 1);
    CHECK_EQUAL(counter(b, "tcd_commits"), 1);
    /* A writer goes to the commit units without a query. */
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 10);
    CHECK_EQUAL(load1(b, BASE + 256, 1003), 9);
    store1(b, 0, BASE + 256, 10, 1004);
    outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.lwt_queries, 2);
    CHECK_EQUAL(b->memory.cid_requests, 2);
    CHECK_EQUAL(b->memory.words[64], 10);
    CHECK_EQUAL(b->memory.clock_reads, 0);
    bench_close(b);
}

/* A commit unit's conflict-address update: 4-byte entries. */
static void notify_cat(bench *b, const uint32_t *entries, unsigned count)
{
    simtx_msg msg;
    notify_init(&msg, NOTIFY_KIND_CONFLICT_ADDRESSES, -1, true);
    msg.size = 4 * count;
    memcpy(msg.data, entries, msg.size);
    CHECK(tm_unit_block_info.accept(b->unit, NOTIFY, &msg, b->now) != SIMTX_BUSY);
}

/* Early-Abort: a lane that writes a word committing transactions read, or
 * reads a word they write, aborts before commit IDs; a lane that only reads
 * a word they read (read-read) goes on; removed words no longer abort; the
 * lookups take cat_ports words per cycle for each log position of every
 * lane; a full set drops the word. */
static void test_early_abort(void)
{
    const char *settings[] = {"precommit=early_abort", "cat_entries=4", "cat_ways=1", "cat_ports=1", NULL};
    bench *b = bench_open(settings);
    uint32_t add[] = {BASE | NOTIFY_CAT_ADD,                     /* BASE read by committing transactions */
                      (BASE + 8) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE, /* BASE + 8 written */
                      (BASE + 16) | NOTIFY_CAT_ADD};              /* its set (word mod 4 sets) holds BASE: full */
    notify_cat(b, add, 3);
    CHECK_EQUAL(counter(b, "cat_updates"), 3);
    CHECK_EQUAL(counter(b, "cat_overflows"), 1);
    event(b, SIMTX_OP_TX_BEGIN, 0x7, 0, 10);
    uint32_t addresses[64] = {0}, data[64] = {0};
    addresses[0] = BASE; /* lane 0 reads BASE: read-read */
    addresses[1] = BASE + 8; /* lane 1 reads a written word */
    addresses[2] = BASE + 16; /* lane 2 reads the word the table dropped */
    access(b, SIMTX_OP_READ, 4, 0x7, addresses, NULL, true, 1000);
    addresses[0] = BASE + 32, addresses[1] = BASE + 36, addresses[2] = BASE + 4; /* lane 2 writes a word read */
    notify_cat(b, (uint32_t[]){(BASE + 4) | NOTIFY_CAT_ADD}, 1);
    access(b, SIMTX_OP_WRITE, 4, 0x4, addresses, data, true, 1001);
    uint64_t start = b->now;
    tx_outcome outcome = commit(b, 0x7);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(outcome.retry, 0x6);
    CHECK_EQUAL(counter(b, "aborts_early"), 2);
    CHECK_EQUAL(counter(b, "aborts_validation"), 0);
    CHECK_EQUAL(b->memory.cid_requests, 1); /* for lane 0 alone */
    CHECK_EQUAL(b->last_cid_request - start, 3 * 2); /* 3 lanes, 1 port, 2 log positions */
    /* The words leave: the retry commits. */
    uint32_t removed[] = {(BASE + 8) | NOTIFY_CAT_WRITE, BASE + 4};
    notify_cat(b, removed, 2);
    event(b, SIMTX_OP_TX_BEGIN, 0x6, 1, 10);
    addresses[1] = BASE + 8, addresses[2] = BASE + 4;
    access(b, SIMTX_OP_READ, 4, 0x6, addresses, NULL, true, 1002);
    outcome = commit(b, 0x6);
    CHECK_EQUAL(outcome.committed, 0x6);
    CHECK_EQUAL(counter(b, "aborts_early"), 2);
    bench_close(b);
}

/* The update latency: a notification sent at commit-clock cycle 10 reaches
 * a unit whose clock runs twice as fast at its cycle 50: 30 cycles. */
static void test_update_latency(void)
{
    const char *settings[] = {"notify_clock_ratio=2", NULL};
    bench *b = bench_open(settings);
    b->now = 50;
    simtx_msg msg;
    notify_init(&msg, NOTIFY_KIND_CONFLICT_ADDRESSES, -1, true);
    uint32_t entry = BASE | NOTIFY_CAT_ADD;
    msg.size = 4;
    memcpy(msg.data, &entry, 4);
    msg.aux = 10;
    CHECK(tm_unit_block_info.accept(b->unit, NOTIFY, &msg, b->now) != SIMTX_BUSY);
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, "cat_update_latency");
    CHECK(e != NULL);
    if (e) {
        const simtx_histogram *h = e->value;
        CHECK_EQUAL(h->count, 1);
        CHECK_EQUAL(h->maximum, 30);
    }
    bench_close(b);
}

/* TX_RESUME of `lanes` from log index `log_index`; returns its response's index. */
static int resume(bench *b, uint64_t lanes, uint32_t log_index)
{
    simtx_msg msg = tx_event(SIMTX_OP_TX_RESUME, lanes, 0, 900 + SIMTX_OP_TX_RESUME);
    msg.transaction_id = log_index;
    unsigned before = b->to_core_count;
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &msg, b->now) != SIMTX_BUSY);
    for (unsigned c = 0; c < 10 && find_response(b, SIMTX_OP_TX_RESUME, before) < 0; c++) run(b, 1);
    int index = find_response(b, SIMTX_OP_TX_RESUME, before);
    CHECK(index >= 0);
    return index;
}

/* A tx.h event the unit must refuse: it fails the run naming `text`. */
static void refused(bench *b, simtx_op op, uint64_t lanes, uint32_t log_index, const char *text)
{
    simtx_msg msg = tx_event(op, lanes, 1, 900 + op);
    msg.transaction_id = log_index;
    tm_unit_block_info.accept(b->unit, CORE, &msg, b->now);
    run(b, 3);
    CHECK_CONTAINS(b->fake.failure, text);
    b->fake.failure[0] = '\0';
}

/* The lanes a request's responses paused (every beat says its group's), or
 * 0; its verdict (tx.h 2), when it asked for one, says the same. */
static uint64_t paused_by(const bench *b, int first, uint64_t id, uint32_t *log_index)
{
    uint64_t lanes = 0;
    for (unsigned i = (unsigned)first; first >= 0 && i < b->to_core_count; i++) {
        const simtx_msg *r = &b->to_core[i];
        if (r->id != id) continue;
        if (r->flags & SIMTX_FLAG_TX_PAUSE) {
            lanes |= (r->aux >> 32) << (LDST_LANES_PER_BEAT * ldst_group(r));
            *log_index = r->transaction_id;
        }
        if (ldst_is_last(r)) break;
    }
    if (b->verdict >= 0 && b->to_core[b->verdict].id == id) {
        const simtx_msg *verdict = &b->to_core[b->verdict];
        CHECK(verdict->flags & SIMTX_FLAG_TX_PAUSE);
        CHECK(!ldst_is_last(verdict));
        CHECK_EQUAL(tx_verdict_lanes(verdict), lanes);
        if (lanes) CHECK_EQUAL(verdict->transaction_id, *log_index);
    }
    return lanes;
}

/* A load of lanes 0-7 at BASE + offset + 4 l (the paper's a[i+1], a[i-1]
 * with i the lane); returns the first response's index. */
static int load8(bench *b, uint64_t lanes, uint32_t offset, uint64_t id)
{
    uint32_t addresses[64] = {0};
    for (unsigned l = 0; l < 8; l++) addresses[l] = BASE + offset + 4 * l;
    return access(b, SIMTX_OP_READ, 4, lanes, addresses, NULL, true, id);
}

/* Figure 6 on the unit's side: threads 0-7 load a[i+1] at 0x108; at the
 * load of a[i-1] (0x110) the words of threads 0-3 are being written by
 * committing transactions, so 0-3 pause there (log index 1: one access
 * before); 4-7 get their values, store a[i] (0x120) and commit; 0-3 resume
 * at the log index once the words left the table, with their first load
 * still in their logs: 0-2 commit, 3 read a[4] before 4 wrote it and fails
 * validation; its retry begins once no lane is paused. The lookups take ceil(8 lanes / 4
 * ports) = 2 cycles before the access. */
static void test_pause_figure6(void)
{
    const char *settings[] = {"filters=pause_and_go", "cat_ports=4", NULL};
    bench *b = bench_open(settings);
    b->verdicts = true;
    for (unsigned w = 0; w < 12; w++) b->memory.words[w] = 100 + w;
    int begun = event(b, SIMTX_OP_TX_BEGIN, 0xff, 0, 10);
    CHECK(b->to_core[begun].flags & SIMTX_FLAG_TX_PAUSE); /* the accesses may pause: the core holds the warp after each */
    uint32_t log_index = 99;
    int first = load8(b, 0xff, 8, 1000); /* x = a[i+1]: words 2..9 */
    CHECK_EQUAL(paused_by(b, first, 1000, &log_index), 0);
    uint32_t written[4];
    for (unsigned l = 0; l < 4; l++) written[l] = (BASE + 4 * l) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE; /* a[i-1] of 0-3 */
    notify_cat(b, written, 4);
    first = load8(b, 0xff, 0, 1001); /* y = a[i-1]: words 0..7 */
    CHECK_EQUAL(paused_by(b, first, 1001, &log_index), 0x0f);
    CHECK_EQUAL(log_index, 1);
    /* The verdict when the lookups are done (ceil(8 lanes / 4 ports) = 2
     * cycles after the request), the values after it. */
    CHECK_EQUAL(b->to_core_cycle[b->verdict] - b->request_cycle, 2);
    CHECK(b->to_core_cycle[first] > b->to_core_cycle[b->verdict]);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 5), 105); /* 4-7 have their values */
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 1), 0);   /* 0-3 none */
    CHECK_EQUAL(counter(b, "pauses"), 1);
    CHECK_EQUAL(counter(b, "lanes_paused"), 4);
    CHECK_EQUAL(counter(b, "pause_lookups"), 16);
    CHECK_EQUAL(counter(b, "pause_hits"), 4);
    const simtx_probe_entry *probe = NULL;
    for (size_t i = 0; i < simtx_observer_probe_count(b->observer); i++)
        if (strcmp(simtx_observer_probe(b->observer, i)->name, "paused_lanes") == 0) probe = simtx_observer_probe(b->observer, i);
    CHECK(probe && *probe->value == 4);
    /* a[i] = z by 4-7: 2 cycles of lookups, then answered the cycle after. */
    uint32_t addresses[64] = {0}, data[64] = {0};
    for (unsigned l = 4; l < 8; l++) addresses[l] = BASE + 4 + 4 * l, data[l] = 200 + l;
    uint64_t start = b->now;
    first = access(b, SIMTX_OP_WRITE, 4, 0xf0, addresses, data, true, 1002);
    CHECK_EQUAL(b->to_core_cycle[first] - start, 1 + 1); /* 4 lanes, 4 ports: 1 cycle */
    /* Threads 4-7 commit (the paper aborts 5 and 6 at validation; the
     * unit's side is the same for both); 0-3 are not part of the commit. */
    tx_outcome outcome = commit(b, 0xf0);
    CHECK_EQUAL(outcome.committed, 0xf0);
    CHECK_EQUAL(b->memory.words[5 + 1], 205);
    /* A retry cannot begin while lanes are paused: 0-3 resume first. */
    uint32_t removed[4];
    for (unsigned l = 0; l < 4; l++) removed[l] = (BASE + 4 * l) | NOTIFY_CAT_WRITE;
    notify_cat(b, removed, 4);
    int resumed = resume(b, 0x0f, 1);
    CHECK_EQUAL(b->to_core[resumed].status, SIMTX_STATUS_OK);
    CHECK(b->to_core[resumed].flags & SIMTX_FLAG_TX_PAUSE);
    CHECK_EQUAL(counter(b, "resumes"), 1);
    CHECK(*probe->value == 0);
    uint64_t answered = counter(b, "log_answered_lanes");
    first = load8(b, 0x0f, 8, 1003); /* their a[i+1] again: still in their read logs */
    CHECK_EQUAL(counter(b, "log_answered_lanes") - answered, 4);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 3), 105);
    first = load8(b, 0x0f, 0, 1004); /* the paused access, re-executed */
    CHECK_EQUAL(paused_by(b, first, 1004, &log_index), 0);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 2), 102);
    outcome = commit(b, 0x0f);
    CHECK_EQUAL(outcome.committed, 0x07);
    CHECK_EQUAL(outcome.retry, 0x08);
    CHECK_EQUAL(counter(b, "commits"), 7);
    CHECK_EQUAL(counter(b, "aborts_validation"), 1);
    event(b, SIMTX_OP_TX_BEGIN, 0x08, 1, 10);
    first = load8(b, 0x08, 8, 1005);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 3), 204);
    CHECK_EQUAL(commit(b, 0x08).committed, 0x08);
    CHECK_EQUAL(counter(b, "pauses"), 1);
    CHECK_EQUAL(counter(b, "resumes"), 1);
    bench_close(b);
}

/* Figure 7 on the unit's side: the warp's log pointer counts its
 * transactional accesses; lanes 1, 2, 5, 6 pause after three (log index
 * 3), lanes 0 and 3 after six (6), and 4 and 7 run to nine. The newest
 * pause resumes first from its index and the pointer continues from it. */
static void test_pause_figure7(void)
{
    const char *settings[] = {"filters=pause_and_go", "pauses_per_lane=0", NULL}; /* lane 0 pauses twice */
    bench *b = bench_open(settings);
    b->verdicts = true;
    event(b, SIMTX_OP_TX_BEGIN, 0xff, 0, 10);
    uint32_t log_index = 99, offset = 0x400;
    uint64_t id = 1000;
    for (unsigned i = 0; i < 3; i++, offset += 0x40) load8(b, 0xff, offset, id++);
    uint32_t hit[8];
    const unsigned first_paused[] = {1, 2, 5, 6}, second_paused[] = {0, 3};
    for (unsigned i = 0; i < 4; i++) hit[i] = (BASE + offset + 4 * first_paused[i]) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
    notify_cat(b, hit, 4);
    CHECK_EQUAL(paused_by(b, load8(b, 0xff, offset, id), id, &log_index), 0x66);
    CHECK_EQUAL(log_index, 3);
    id++, offset += 0x40;
    for (unsigned i = 0; i < 2; i++, offset += 0x40) load8(b, 0x99, offset, id++);
    for (unsigned i = 0; i < 2; i++) hit[i] = (BASE + offset + 4 * second_paused[i]) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
    notify_cat(b, hit, 2);
    CHECK_EQUAL(paused_by(b, load8(b, 0x99, offset, id), id, &log_index), 0x09);
    CHECK_EQUAL(log_index, 6);
    id++, offset += 0x40;
    for (unsigned i = 0; i < 2; i++, offset += 0x40) load8(b, 0x90, offset, id++);
    /* 4 and 7 at log position 9: a pause of one of them now would say 9. */
    hit[0] = (BASE + offset + 4 * 7) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
    notify_cat(b, hit, 1);
    CHECK_EQUAL(paused_by(b, load8(b, 0x90, offset, id), id, &log_index), 0x80);
    CHECK_EQUAL(log_index, 9);
    id++;
    CHECK_EQUAL(commit(b, 0x10).committed, 0x10);
    resume(b, 0x80, 9);
    CHECK_EQUAL(commit(b, 0x80).committed, 0x80);
    resume(b, 0x09, 6);
    hit[0] = (BASE + offset + 4 * 0) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
    notify_cat(b, hit, 1);
    CHECK_EQUAL(paused_by(b, load8(b, 0x09, offset, id), id, &log_index), 0x01);
    CHECK_EQUAL(log_index, 6); /* the pointer went back to 6 at the resume */
    id++;
    CHECK_EQUAL(commit(b, 0x08).committed, 0x08);
    resume(b, 0x01, 6);
    CHECK_EQUAL(commit(b, 0x01).committed, 0x01);
    refused(b, SIMTX_OP_TX_RESUME, 0x66, 4, "log index 4, lane 1 paused at 3"); /* a wrong log index */
    resume(b, 0x66, 3);
    CHECK_EQUAL(commit(b, 0x66).committed, 0x66);
    CHECK_EQUAL(counter(b, "pauses"), 4);
    CHECK_EQUAL(counter(b, "resumes"), 4);
    bench_close(b);
}

/* The core goes on at a verdict, not at the data (tx.h 2): a lane may
 * pause at a load while its earlier load is still out. That load's word,
 * logged after the pause, belongs before the log index: it stays in the
 * lane's read log at the resume, so the lane's commit validates it (a
 * write to it in between fails the lane). The verdict of a 32-lane load
 * comes ceil(32 / 4 ports) = 8 cycles after the request, long before the
 * held data. */
static void test_pause_with_load_out(void)
{
    const char *settings[] = {"filters=pause_and_go", "cat_ports=4", NULL};
    bench *b = bench_open(settings);
    b->verdicts = true;
    b->hold_loads = true;
    event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 10);
    uint32_t addresses[64] = {0}, log_index = 99;
    for (unsigned l = 0; l < 2; l++) addresses[l] = BASE + 0x800 + 4 * l; /* A: words 512, 513 */
    unsigned before = b->to_core_count;
    send_request(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1000);
    run(b, 20);
    CHECK_EQUAL(b->held_count, 1);                    /* A's data held by the memory side */
    CHECK_EQUAL(b->to_core_count - before, 1);        /* ... its verdict out: the core may go on */
    CHECK_EQUAL(ldst_beat_of(&b->to_core[before]), LDST_BEAT_VERDICT);
    CHECK_EQUAL(tx_verdict_lanes(&b->to_core[before]), 0);
    CHECK_EQUAL(b->to_core_cycle[before] - b->request_cycle, 1); /* 2 lanes, 4 ports */
    uint32_t hit = (BASE + 0xc04) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE; /* lane 1's word of B */
    notify_cat(b, &hit, 1);
    for (unsigned l = 0; l < 2; l++) addresses[l] = BASE + 0xc00 + 4 * l; /* B */
    before = b->to_core_count;
    send_request(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1001);
    run(b, 20);
    CHECK_EQUAL(b->to_core_count - before, 1);
    CHECK_EQUAL(tx_verdict_lanes(&b->to_core[before]), 0x2); /* lane 1 pauses at B */
    CHECK_EQUAL(b->to_core[before].transaction_id, 1);
    release_loads(b); /* A's words come back, lane 1 paused */
    b->hold_loads = false;
    run(b, 5);
    CHECK(find_response(b, SIMTX_OP_READ, before + 1) >= 0);
    CHECK_EQUAL(commit(b, 0x1).committed, 0x1);
    b->memory.words[513] = 7; /* another transaction writes lane 1's word of A */
    uint32_t removed = (BASE + 0xc04) | NOTIFY_CAT_WRITE;
    notify_cat(b, &removed, 1);
    resume(b, 0x2, 1);
    CHECK_EQUAL(paused_by(b, load8(b, 0x2, 0xc00, 1002), 1002, &log_index), 0);
    tx_outcome outcome = commit(b, 0x2);
    CHECK_EQUAL(outcome.retry, 0x2); /* its read of A, logged after the pause, was validated */
    CHECK_EQUAL(counter(b, "aborts_validation"), 1);
    bench_close(b);
}

/* pauses_per_lane (default 1): a lane that paused in the attempt runs on
 * past a later hit; with 0 (no limit) it pauses again. */
static void test_pause_limit(void)
{
    for (unsigned limit = 0; limit < 2; limit++) {
        const char *settings[] = {"filters=pause_and_go", limit ? "pauses_per_lane=1" : "pauses_per_lane=0", NULL};
        bench *b = bench_open(settings);
        b->verdicts = limit; /* with and without VERDICT beats: the pause is the same */
        event(b, SIMTX_OP_TX_BEGIN, 0x7, 0, 10);
        uint32_t log_index = 99, hit[2];
        uint64_t id = 2000;
        for (unsigned i = 0; i < 2; i++) hit[i] = (BASE + 0x400 + 4 * (i + 1)) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
        notify_cat(b, hit, 2);
        CHECK_EQUAL(paused_by(b, load8(b, 0x7, 0x400, id), id, &log_index), 0x6);
        id++;
        CHECK_EQUAL(commit(b, 0x1).committed, 0x1);
        resume(b, 0x6, log_index);
        hit[0] = (BASE + 0x440 + 4 * 1) | NOTIFY_CAT_ADD | NOTIFY_CAT_WRITE;
        notify_cat(b, hit, 1);
        CHECK_EQUAL(paused_by(b, load8(b, 0x6, 0x440, id), id, &log_index), limit ? 0 : 0x2);
        CHECK_EQUAL(counter(b, "pauses"), limit ? 1 : 2);
        bench_close(b);
    }
}

/* The attempt's last running lanes never all pause (the lowest runs on),
 * so every pause ends with a commit; a store pauses on a word committing
 * transactions read, a load does not; TX_BEGIN while lanes are paused and
 * TX_RESUME of lanes not paused fail the run. */
static void test_pause_rules(void)
{
    const char *settings[] = {"filters=pause_and_go", NULL};
    bench *b = bench_open(settings);
    b->verdicts = true;
    event(b, SIMTX_OP_TX_BEGIN, 0xf0, 0, 10);
    uint32_t read[8], log_index = 99;
    for (unsigned l = 0; l < 8; l++) read[l] = (BASE + 4 * l) | NOTIFY_CAT_ADD; /* read by committing transactions */
    notify_cat(b, read, 8);
    CHECK_EQUAL(paused_by(b, load8(b, 0xf0, 0, 1000), 1000, &log_index), 0); /* read-read */
    uint32_t addresses[64] = {0}, data[64] = {0};
    for (unsigned l = 4; l < 8; l++) addresses[l] = BASE + 4 * l;
    int first = access(b, SIMTX_OP_WRITE, 4, 0xf0, addresses, data, true, 1001);
    CHECK_EQUAL(paused_by(b, first, 1001, &log_index), 0xe0); /* lane 4 runs on */
    CHECK_EQUAL(log_index, 1);
    CHECK_EQUAL(counter(b, "pause_hits"), 4);
    refused(b, SIMTX_OP_TX_RESUME, 0xe0, 1, "while an attempt runs");
    CHECK_EQUAL(commit(b, 0x10).committed, 0x10);
    refused(b, SIMTX_OP_TX_BEGIN, 0x10, 0, "are paused");
    refused(b, SIMTX_OP_TX_RESUME, 0x01, 1, "not paused lanes");
    resume(b, 0xe0, 1);
    CHECK_EQUAL(commit(b, 0xe0).committed, 0xe0);
    bench_close(b);
}

/* TX_ROLLBACK drops the logs and counts its cause; atomics and misaligned
 * accesses inside a transaction fault without effect; an unknown event is a
 * command error. */
static void test_rollback_and_faults(void)
{
    bench *b = bench_open(NULL);
    event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 10);
    store1(b, 0, BASE, 77, 1000);
    int ack = event(b, SIMTX_OP_TX_ROLLBACK, 0x3, TX_ROLLBACK_TIMEOUT, 10);
    CHECK_EQUAL(b->to_core[ack].status, SIMTX_STATUS_OK);
    CHECK_EQUAL(counter(b, "aborts_timeout"), 2);
    event(b, SIMTX_OP_TX_BEGIN, 0x3, 1, 10);
    CHECK_EQUAL(load1(b, BASE, 1001), 0); /* the store was dropped */
    uint32_t addresses[64] = {BASE, BASE + 4}, data[64] = {1, 1};
    int first = access(b, SIMTX_OP_ATOMIC, 4, 0x2, addresses, data, true, 1002);
    CHECK_EQUAL(b->to_core[first].status, SIMTX_STATUS_COMMAND_ERROR);
    CHECK_EQUAL(ldst_fault_of(&b->to_core[first]), LDST_FAULT_UNSUPPORTED);
    CHECK_EQUAL(ldst_fault_lane(&b->to_core[first]), 1);
    addresses[1] = BASE + 6;
    first = access(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1003);
    CHECK_EQUAL(b->to_core[first].status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(ldst_fault_of(&b->to_core[first]), LDST_FAULT_MISALIGNED);
    CHECK_EQUAL(ldst_fault_lane(&b->to_core[first]), 1);
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x3);
    bench_close(b);
    /* A transactional access outside a transaction fails the run. */
    b = bench_open(NULL);
    uint32_t address = BASE;
    simtx_msg header, beats[LDST_MAX_BEATS];
    simtx_msg_init(&header, SIMTX_OP_READ, 0, 0);
    header.aux = ldst_aux(1, 4, LDST_BEAT_ADDRESSES, 0, false, LDST_KIND_PLAIN, 0);
    header.lane_mask = 1;
    header.warp = 3;
    header.flags = SIMTX_FLAG_TRANSACTIONAL;
    ldst_make_beats(beats, &header, &address, NULL, NULL);
    tm_unit_block_info.accept(b->unit, CORE, &beats[0], 0);
    CHECK_CONTAINS(b->fake.failure, "outside a running transaction");
    b->fake.failure[0] = '\0';
    bench_close(b);
}

static void test_bad_parameters(void)
{
    const char *cases[][2] = {
        {"precommit=tcd,foo", "precommit: 'foo' is not a check"},
        {"precommit=tcd,tcd", "precommit: 'tcd' is named twice"},
        {"precommit=none,intra_warp", "precommit: 'none' cannot be combined"},
        {"filters=early_abort", "filters: 'early_abort' is not a filter"},
        {"filters=pause_and_go,pause_and_go", "filters: 'pause_and_go' is named twice"},
        {"precommit=snapshot_ro", "precommit: snapshot_ro needs the snapshot filter"}, /* nothing else makes a read-only lane safe */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fake_env fake;
        tm_unit_params params;
        const char *settings[] = {cases[i][0], NULL};
        fake_env_init(&fake, NULL);
        fake_params(&tm_unit_block_info, &params, settings);
        char error[256] = "";
        void *unit = tm_unit_block_info.create(&params, &fake.env, error, sizeof error);
        CHECK(unit == NULL);
        CHECK_CONTAINS(error, cases[i][1]);
        simtx_params_release(tm_unit_block_info.params, &params);
    }
}

/* A filter holds TX_BEGIN for a timestamp, tags forwarded loads with it,
 * hears notifications and aborts lane 1 of a running attempt at a load
 * (TX_ABORT on tx_events before the load's answer): the other lanes commit,
 * a later request and the TX_COMMIT still naming lane 1 (sent before the
 * core heard) leave it out without counting it twice, and lane 1's re-run
 * (attempt 1) commits. */
static void test_filter_hooks(void)
{
    CHECK(test_abort_filter_register());
    const char *settings[] = {"filters=test_abort", "record=true", NULL};
    bench *b = bench_open(settings);
    CHECK(tm_unit_block_info.socket_needed(&b->params, EVENTS) != NULL); /* an aborting filter needs tx_events bound */
    CHECK(test_abort_filter_last != NULL);
    if (!test_abort_filter_last) return;
    test_abort_filter_state *s = test_abort_filter_last;
    b->memory.next_cid = 5;
    b->memory.words[0x40] = 77; /* TRIGGER */
    b->fake.refuse_ports = 1u << LDST; /* the filter's request cannot leave yet */
    simtx_msg begin = tx_event(SIMTX_OP_TX_BEGIN, 0x3, 0, 900);
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &begin, b->now) != SIMTX_BUSY);
    run(b, 20);
    CHECK_EQUAL(find_response(b, SIMTX_OP_TX_BEGIN, 0), -1); /* held for the filter's timestamp */
    b->fake.refuse_ports = 0;
    tm_unit_block_info.port_free(b->unit, LDST);
    run(b, 3);
    CHECK(find_response(b, SIMTX_OP_TX_BEGIN, 0) >= 0);
    CHECK_EQUAL(b->memory.clock_reads, 1);
    CHECK_EQUAL(s->timestamp, 1005);
    CHECK_EQUAL(load1(b, BASE + 4, 1000), 0);
    CHECK(b->memory.load_flags & SIMTX_FLAG_SNAPSHOT);
    CHECK_EQUAL(b->memory.load_transaction_id, 1005);
    simtx_msg note;
    notify_init(&note, NOTIFY_KIND_TEST, -1, true);
    CHECK(tm_unit_block_info.accept(b->unit, NOTIFY, &note, b->now) != SIMTX_BUSY);
    CHECK_EQUAL(s->notifications, 1);
    /* Lanes 0 and 1 load TRIGGER + 4 and TRIGGER: lane 1 aborts. */
    uint32_t addresses[64] = {TRIGGER + 4, TRIGGER}, data[64] = {0};
    int first = access(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1001);
    CHECK_EQUAL(b->event_count, 1);
    const simtx_msg *abort = &b->events[0];
    CHECK_EQUAL(abort->op, SIMTX_OP_TX_ABORT);
    CHECK(!abort->is_response);
    CHECK_EQUAL(abort->lane_mask, 0x2);
    CHECK_EQUAL(abort->warp, WARP);
    CHECK_EQUAL(abort->core, 2);
    CHECK_EQUAL(abort->transaction_id, 0); /* the attempt */
    CHECK_EQUAL(abort->aux, TX_ABORT_WRITER_CONFLICT);
    CHECK(b->event_cycle[0] <= b->to_core_cycle[first]); /* before the access's answer */
    CHECK_EQUAL(counter(b, "aborts"), 1);
    CHECK_EQUAL(counter(b, "aborts_test_abort"), 1);
    CHECK_EQUAL(s->ended, 1);
    /* The core had not heard yet: a store of both lanes is served for lane 0 only. */
    data[0] = 5, data[1] = 6;
    addresses[0] = BASE + 12, addresses[1] = BASE + 16;
    access(b, SIMTX_OP_WRITE, 4, 0x3, addresses, data, true, 1002);
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(outcome.retry, 0x2);
    CHECK_EQUAL(b->memory.words[3], 5);
    CHECK_EQUAL(b->memory.words[4], 0); /* lane 1's store was not logged */
    CHECK_EQUAL(counter(b, "aborts"), 1); /* not counted again */
    CHECK_EQUAL(s->ended, 2); /* lane 1 left at its abort, lane 0 at the commit: each once */
    CHECK_EQUAL(counter(b, "aborts_validation"), 0);
    /* The re-run: lane 1 reads TRIGGER (aborted once only) and commits. */
    event(b, SIMTX_OP_TX_BEGIN, 0x2, 1, 50);
    CHECK_EQUAL(s->begins, 2);
    addresses[1] = TRIGGER;
    first = access(b, SIMTX_OP_READ, 4, 0x2, addresses, NULL, true, 1003);
    CHECK_EQUAL(ldst_slot(&b->to_core[first], 1), 77);
    CHECK_EQUAL(b->event_count, 1);
    outcome = commit(b, 0x2);
    CHECK_EQUAL(outcome.committed, 0x2);
    CHECK_EQUAL(counter(b, "commits"), 2);
    CHECK_EQUAL(counter(b, "aborts"), 1);
    bench_close(b);
}

/* A filter's notify hook aborts lanes of a running attempt (TX_ABORT),
 * never those of an attempt already committing (the commit decides). */
static void test_filter_notify_abort(void)
{
    const char *settings[] = {"filters=test_abort", NULL};
    bench *b = bench_open(settings);
    event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 50);
    store1(b, 0, BASE, 1, 1000);
    store1(b, 1, BASE + 4, 2, 1001);
    simtx_msg note;
    notify_init(&note, NOTIFY_KIND_TEST, 2, false);
    note.warp = WARP;
    note.aux = 0x2;
    CHECK(tm_unit_block_info.accept(b->unit, NOTIFY, &note, b->now) != SIMTX_BUSY);
    run(b, 2);
    CHECK_EQUAL(b->event_count, 1);
    CHECK_EQUAL(b->events[0].lane_mask, 0x2);
    /* Lane 0 commits; a notification naming it once TX_COMMIT arrived aborts nothing. */
    simtx_msg commit_event = tx_event(SIMTX_OP_TX_COMMIT, 0x1, 0, 900 + SIMTX_OP_TX_COMMIT);
    unsigned before = b->to_core_count;
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &commit_event, b->now) != SIMTX_BUSY);
    note.aux = 0x1;
    CHECK(tm_unit_block_info.accept(b->unit, NOTIFY, &note, b->now) != SIMTX_BUSY);
    for (unsigned c = 0; c < 2000 && find_response(b, SIMTX_OP_TX_COMMIT, before) < 0; c++) run(b, 1);
    int index = find_response(b, SIMTX_OP_TX_COMMIT, before);
    CHECK(index >= 0);
    tx_outcome outcome = {0, 0, 0};
    if (index >= 0) memcpy(&outcome, b->to_core[index].data, sizeof outcome);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->event_count, 1);
    CHECK_EQUAL(b->memory.words[0], 1);
    CHECK_EQUAL(b->memory.words[1], 0); /* lane 1's store dropped with its logs */
    CHECK_EQUAL(counter(b, "aborts_test_abort"), 1);
    bench_close(b);
}

/* A filter's abort of lanes whose TX_COMMIT arrived (its hooks and the
 * pre-commit checks run in the running phase: sitm_wait waits there, and
 * the snapshot filter aborts every running attempt of an epoch that is
 * over) is refused: the commit decides (tx.h 6). Before, the unit emptied
 * the committing lanes' logs and sent TX_ABORT while their commit went on
 * (only the sitm filter guarded itself). */
static void test_abort_while_committing(void)
{
    const char *settings[] = {"filters=test_abort", NULL};
    bench *b = bench_open(settings);
    test_abort_filter_state *s = test_abort_filter_last;
    if (!s) return;
    event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 50);
    store1(b, 0, BASE, 1, 1000);
    store1(b, 1, BASE + 4, 2, 1001);
    s->abort_at_commit = 0x2;
    tx_outcome outcome = commit(b, 0x3);
    s->abort_at_commit = 0;
    CHECK_EQUAL(b->event_count, 0);      /* no TX_ABORT for a committing lane */
    CHECK_EQUAL(outcome.committed, 0x3);
    CHECK_EQUAL(outcome.retry, 0);
    CHECK_EQUAL(b->memory.words[0], 1);
    CHECK_EQUAL(b->memory.words[1], 2);  /* lane 1's log was kept */
    CHECK_EQUAL(counter(b, "aborts_test_abort"), 0);
    CHECK_EQUAL(counter(b, "aborts"), 0);
    CHECK_EQUAL(s->ended, 2);            /* each lane ended once, at the commit */
    bench_close(b);
}

/* A filter aborts every running lane: the attempt ends at the unit (the
 * core settles without TX_ROLLBACK) and a request still naming them is
 * answered without serving them. */
static void test_filter_aborts_all(void)
{
    const char *settings[] = {"filters=test_abort", NULL};
    bench *b = bench_open(settings);
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 50);
    uint32_t address = TRIGGER;
    access(b, SIMTX_OP_READ, 4, 0x1, &address, NULL, true, 1000);
    CHECK_EQUAL(b->event_count, 1);
    CHECK_EQUAL(b->events[0].lane_mask, 0x1);
    store1(b, 0, BASE, 9, 1001); /* sent before the core heard */
    unsigned loads = b->memory.loads;
    event(b, SIMTX_OP_TX_BEGIN, 0x1, 1, 50); /* the re-run: the unit's attempt had ended */
    CHECK_EQUAL(load1(b, TRIGGER, 1002), 0); /* aborted once: served now */
    CHECK_EQUAL(b->memory.loads, loads + 1);
    tx_outcome outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.words[0], 0); /* the aborted attempt's store was never logged */
    CHECK_EQUAL(counter(b, "aborts"), 1);
    bench_close(b);
}

/* SI-TM's snapshot filter: TX_BEGIN reads the clock C and acquires the
 * snapshot C - 1 at every partition's slice before the attempt runs; loads
 * carry it; TX_COMMIT, before its commit IDs, or a rollback releases it everywhere. */
static void test_snapshot(void)
{
    const char *settings[] = {"filters=snapshot", "partitions=2", "interleave=256", NULL};
    bench *b = bench_open(settings);
    CHECK(tm_unit_block_info.socket_needed(&b->params, EVENTS) != NULL); /* it aborts at an overflow: tx_events bound */
    b->memory.next_cid = 5;
    b->memory.epoch = 3;
    b->fake.refuse_ports = 1u << LDST; /* the clock read cannot leave yet */
    simtx_msg begin = tx_event(SIMTX_OP_TX_BEGIN, 0x3, 0, 900);
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &begin, b->now) != SIMTX_BUSY);
    run(b, 20);
    CHECK_EQUAL(find_response(b, SIMTX_OP_TX_BEGIN, 0), -1); /* held for the snapshot */
    CHECK_EQUAL(b->memory.acquires, 0);
    b->fake.refuse_ports = 0;
    tm_unit_block_info.port_free(b->unit, LDST);
    run(b, 3);
    CHECK(find_response(b, SIMTX_OP_TX_BEGIN, 0) >= 0);
    CHECK_EQUAL(b->memory.clock_reads, 1);
    CHECK_EQUAL(b->memory.acquires, 2); /* one per partition's slice */
    CHECK_EQUAL(b->memory.acquire_address[0], tm_partition_address(0, 256));
    CHECK_EQUAL(b->memory.acquire_address[1], tm_partition_address(1, 256));
    CHECK_EQUAL(b->memory.acquire_aux, 4); /* every ID below the clock */
    b->memory.words[1] = 41;
    CHECK_EQUAL(load1(b, BASE + 4, 1000), 41);
    CHECK(b->memory.load_flags & SIMTX_FLAG_SNAPSHOT);
    CHECK(b->memory.load_flags & SIMTX_FLAG_TRANSACTIONAL);
    CHECK_EQUAL(b->memory.load_transaction_id, 4); /* the handle's timestamp */
    CHECK_EQUAL(b->memory.load_tag, 3);            /* and its epoch */
    store1(b, 1, BASE + 8, 9, 1001);
    CHECK_EQUAL(b->memory.releases, 0);
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x3);
    CHECK_EQUAL(b->memory.words[2], 9);
    CHECK_EQUAL(b->memory.releases, 2); /* released at every slice once */
    CHECK_EQUAL(b->memory.releases_at_cid_request, 2); /* before the commit (its write-back may wait for a version slot) */
    CHECK_EQUAL(b->memory.release_aux, version_handle(3, 4));
    /* The next attempt reads the clock again (the commit took IDs 5 and 6: clock 7) and is rolled back: released too. */
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 20) >= 0);
    CHECK_EQUAL(b->memory.acquires, 4);
    CHECK_EQUAL(b->memory.acquire_aux, 6);
    CHECK(event(b, SIMTX_OP_TX_ROLLBACK, 0x1, TX_ROLLBACK_TIMEOUT, 20) >= 0);
    CHECK_EQUAL(b->memory.releases, 4);
    CHECK_EQUAL(b->memory.release_aux, version_handle(3, 6));
    run(b, 10);
    CHECK_EQUAL(b->memory.releases, 4); /* nothing more */
    bench_close(b);
}

/* SI-TM's read-only commit (snapshot_ro): a lane that only read its
 * snapshot C - 1 commits with no commit ID and no logs, recorded right
 * after ID C - 1; a writer of the same warp takes a commit ID; so does a
 * reader of a snapshot of a later overflow epoch, recorded at the commit
 * point it acquired (without the snapshot filter the check is refused:
 * test_bad_parameters). */
static void test_snapshot_read_only(void)
{
    const char *settings[] = {"filters=snapshot", "precommit=snapshot_ro", "partitions=2", "interleave=256", "record=true", NULL};
    bench *b = bench_open(settings);
    b->memory.next_cid = 5;
    b->memory.words[1] = 41;
    b->memory.words[2] = 7;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 20) >= 0);
    uint32_t addresses[64] = {BASE + 4, BASE + 8};
    access(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1000);
    store1(b, 1, BASE + 12, 9, 1001);
    unsigned logs = b->memory.log_messages;
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x3);
    CHECK_EQUAL(b->memory.cid_requests, 1); /* for lane 1 alone */
    CHECK_EQUAL(b->memory.next_cid, 6);
    CHECK_EQUAL(counter(b, "snapshot_ro_commits"), 1);
    const tm_unit_record *records;
    const uint32_t *words;
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 2);
    CHECK_EQUAL(records[0].cid, 4); /* lane 0: right after its snapshot point C - 1 */
    CHECK_EQUAL(records[0].after, 1);
    CHECK_EQUAL(records[0].read_count, 1);
    CHECK_EQUAL(records[1].cid, 5); /* lane 1: its commit ID */
    CHECK_EQUAL(records[1].after, 0);
    /* A read-only warp sends nothing to the commit units. */
    logs = b->memory.log_messages;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 20) >= 0);
    CHECK_EQUAL(load1(b, BASE + 4, 1002), 41);
    outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.cid_requests, 1);
    CHECK_EQUAL(b->memory.log_messages, logs);
    CHECK_EQUAL(counter(b, "snapshot_ro_commits"), 2);
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 3);
    CHECK_EQUAL(records[2].cid, 5);
    CHECK_EQUAL(records[2].after, 1);
    /* After an overflow (handles of epoch 1) the same, at the commit point. */
    b->memory.epoch = 1;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 20) >= 0);
    CHECK_EQUAL(load1(b, BASE + 4, 1003), 41);
    CHECK_EQUAL(b->memory.load_tag, 1);
    outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    CHECK_EQUAL(b->memory.cid_requests, 1);
    CHECK_EQUAL(counter(b, "snapshot_ro_commits"), 3);
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 4);
    CHECK_EQUAL(records[3].cid, 5);
    CHECK_EQUAL(records[3].after, 1);
    CHECK_EQUAL(counter(b, "aborts_overflow"), 0);
    bench_close(b);
}

/* A snapshot is one prefix at every slice only at a point each closed at
 * (version.h, ACQUIRE): slice 1 closed IDs 7-9 together, so its snapshot at
 * 8 holds IDs up to 6 only. The filter acquires again at 6 everywhere,
 * then releases the first pins; loads read 6 and the record says 6. */
static void test_snapshot_boundary(void)
{
    const char *settings[] = {"filters=snapshot", "precommit=snapshot_ro", "partitions=2", "interleave=256", "record=true", NULL};
    bench *b = bench_open(settings);
    b->memory.next_cid = 9;
    b->memory.lower_boundary = true;
    b->memory.boundary_partition = 1;
    b->memory.boundary = 6;
    b->memory.words[1] = 41;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 20) >= 0);
    CHECK_EQUAL(b->memory.clock_reads, 1);
    CHECK_EQUAL(b->memory.acquires, 4); /* at 8, then at 6, at both slices */
    CHECK_EQUAL(b->memory.acquire_aux, 6);
    CHECK_EQUAL(b->memory.releases, 2); /* the pins at 8 */
    CHECK_EQUAL(b->memory.release_aux, version_handle(0, 8));
    CHECK_EQUAL(load1(b, BASE + 4, 1000), 41);
    CHECK_EQUAL(b->memory.load_transaction_id, 6);
    tx_outcome outcome = commit(b, 0x1);
    CHECK_EQUAL(outcome.committed, 0x1);
    const tm_unit_record *records;
    const uint32_t *words;
    CHECK_EQUAL(tm_unit_history(b->unit, &records, &words), 1);
    CHECK_EQUAL(records[0].cid, 6); /* read-only: right after the common boundary */
    CHECK_EQUAL(records[0].after, 1);
    CHECK_EQUAL(b->memory.releases, 4);
    CHECK_EQUAL(b->memory.release_aux, version_handle(0, 6));
    bench_close(b);
}

/* Begins an attempt of `warp` (not the bench's WARP) and runs until its answer. */
static void begin_warp(bench *b, int32_t warp, uint64_t lanes)
{
    simtx_msg begin = tx_event(SIMTX_OP_TX_BEGIN, lanes, 0, 950);
    begin.warp = warp;
    unsigned before = b->to_core_count;
    CHECK(tm_unit_block_info.accept(b->unit, CORE, &begin, b->now) != SIMTX_BUSY);
    for (unsigned c = 0; c < 50 && find_response(b, SIMTX_OP_TX_BEGIN, before) < 0; c++) run(b, 1);
    CHECK(find_response(b, SIMTX_OP_TX_BEGIN, before) >= 0);
}

/* Timestamp overflow (version.h, OVERFLOW; §4.3: every running
 * transaction aborts): a load stamped 0 (a slice read the newest version,
 * the snapshot's epoch being over) aborts the attempt before the load's
 * answer (TX_ABORT, aborts_overflow) and its snapshot is released; the
 * re-run acquires in the new epoch. An ACQUIRE answered in a later epoch
 * aborts the unit's other attempts running on an earlier one. */
static void test_snapshot_overflow(void)
{
    const char *settings[] = {"filters=snapshot", "precommit=snapshot_ro", "partitions=2", "interleave=256", "record=true", NULL};
    bench *b = bench_open(settings);
    b->memory.next_cid = 5;
    b->memory.words[1] = 41;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x3, 0, 20) >= 0);
    CHECK_EQUAL(b->memory.acquires, 2);
    b->memory.epoch_over = true;
    uint32_t addresses[64] = {BASE + 4, BASE + 4};
    int first = access(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1000);
    CHECK_EQUAL(b->event_count, 1);
    CHECK_EQUAL(b->events[0].op, SIMTX_OP_TX_ABORT);
    CHECK_EQUAL(b->events[0].lane_mask, 0x3);
    CHECK_EQUAL(b->events[0].aux, TX_ABORT_VERSION_OVERFLOW);
    CHECK(b->event_cycle[0] <= b->to_core_cycle[first]); /* before the load's answer */
    CHECK_EQUAL(counter(b, "aborts_overflow"), 2);
    CHECK_EQUAL(counter(b, "aborts"), 2);
    CHECK_EQUAL(b->memory.releases, 2); /* the old snapshot, everywhere (ignored where the epoch is over) */
    CHECK_EQUAL(b->memory.release_aux, version_handle(0, 4));
    /* The re-run acquires anew, in epoch 1, and commits read-only. */
    b->memory.epoch_over = false;
    b->memory.epoch = 1;
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x3, 1, 20) >= 0);
    CHECK_EQUAL(b->memory.acquires, 4);
    CHECK_EQUAL(access(b, SIMTX_OP_READ, 4, 0x3, addresses, NULL, true, 1001) >= 0, true);
    CHECK_EQUAL(b->memory.load_tag, 1);
    tx_outcome outcome = commit(b, 0x3);
    CHECK_EQUAL(outcome.committed, 0x3);
    CHECK_EQUAL(counter(b, "snapshot_ro_commits"), 2);
    /* Warp WARP runs on epoch 1; another warp's ACQUIRE answered in epoch 2 aborts it. */
    CHECK(event(b, SIMTX_OP_TX_BEGIN, 0x1, 0, 20) >= 0);
    b->memory.epoch = 2;
    begin_warp(b, WARP + 1, 0x1);
    CHECK_EQUAL(b->event_count, 2);
    CHECK_EQUAL(b->events[1].warp, WARP);
    CHECK_EQUAL(b->events[1].lane_mask, 0x1);
    CHECK_EQUAL(counter(b, "aborts_overflow"), 3);
    /* The new warp itself runs on (its snapshot is of the new epoch). */
    CHECK_EQUAL(b->event_count, 2);
    bench_close(b);
}

int main(void)
{
    test_pass_through();
    test_per_tx_commit();
    test_validation_retry();
    test_coalesced_intra_warp();
    test_tcd();
    test_early_abort();
    test_update_latency();
    test_pause_figure6();
    test_pause_figure7();
    test_pause_limit();
    test_pause_with_load_out();
    test_pause_rules();
    test_rollback_and_faults();
    test_bad_parameters();
    test_snapshot();
    test_snapshot_read_only();
    test_snapshot_boundary();
    test_snapshot_overflow();
    test_filter_hooks(); /* last: it registers a filter, which adds its abort cause to every unit after */
    test_filter_aborts_all();
    test_filter_notify_abort();
    test_abort_while_committing();
    return simtx_test_summary();
}
