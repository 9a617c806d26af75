/* Unit tests of the lazy TM log walker (models/protocols/tm_lazy_walker.h)
 * on its own: the exact message sequence for logs spread over several
 * partitions, per transaction (KILO TM: chunks of 16 entries, runs of
 * consecutive IDs coalesced into one TM_SKIP, the skip of a broken run
 * after the transaction that broke it) and coalesced (Warp TM: windows of
 * 16 IDs, entries of several IDs per message with their offsets, one
 * coalesced TM_LOG_DONE per window or a TM_SKIP for an empty one), and the
 * decision messages. */
#include <string.h>

#include "test_support.h"
#include "tm_lazy_walker.h"

#define PARTITIONS 3
#define INTERLEAVE 256

typedef struct recorded {
    simtx_msg msg;
    tm_walk_event event;
} recorded;

static recorded seen[256];
static unsigned seen_count;

static void record(void *context, simtx_msg *msg, const tm_walk_event *event)
{
    (void)context;
    if (seen_count < sizeof seen / sizeof seen[0]) seen[seen_count++] = (recorded){*msg, *event};
}

static tm_walker walker(void)
{
    seen_count = 0;
    return (tm_walker){PARTITIONS, INTERLEAVE, record, NULL};
}

/* Word k of partition p under the interleaved mapping. */
static uint32_t word(unsigned p, unsigned k)
{
    return (uint32_t)(p * INTERLEAVE + (k / (INTERLEAVE / 4)) * PARTITIONS * INTERLEAVE + (k % (INTERLEAVE / 4)) * 4);
}

static unsigned next;

/* The next recorded message is op for ID cid at partition p with n entries (logs) or size bytes. */
static const simtx_msg *expect(simtx_op op, tm_walk_kind kind, unsigned p, uint32_t cid, unsigned entries)
{
    if (!CHECK(next < seen_count)) return NULL;
    const recorded *r = &seen[next++];
    CHECK_EQUAL(r->msg.op, op);
    CHECK_EQUAL(r->event.kind, kind);
    CHECK_EQUAL(r->event.partition, p);
    CHECK_EQUAL(r->msg.transaction_id, cid);
    CHECK_EQUAL(tm_partition_of(r->msg.address, INTERLEAVE, PARTITIONS), p);
    if (kind == TM_WALK_LOG) CHECK_EQUAL(tm_entry_count(&r->msg), entries);
    CHECK_EQUAL(r->msg.core, -1);
    CHECK_EQUAL(r->msg.warp, -1);
    CHECK_EQUAL(r->msg.lane_mask, 0);
    return &r->msg;
}

static void per_transaction(void)
{
    /* tx0 (ID 10): 2 reads + 1 write at p0, 1 read at p1.
     * tx1 (ID 11): 1 read at p1.
     * tx2 (ID 12): 18 reads at p1 (two messages), 1 write at p0.
     * tx3 (ID 13): 1 read at p1.  No entries at p2. */
    tm_entry r0[3] = {{word(0, 0), 1}, {word(1, 0), 2}, {word(0, 1), 3}}, w0[1] = {{word(0, 2), 4}};
    tm_entry r1[1] = {{word(1, 1), 5}};
    tm_entry r2[18], w2[1] = {{word(0, 3), 6}};
    for (unsigned k = 0; k < 18; k++) r2[k] = (tm_entry){word(1, 10 + k), 100 + k};
    tm_entry r3[1] = {{word(1, 40), 7}};
    tm_walk_tx txs[4] = {{r0, w0, 3, 1, 10}, {r1, NULL, 1, 0, 11}, {r2, w2, 18, 1, 12}, {r3, NULL, 1, 0, 13}};
    uint64_t involved[4];
    tm_walker w = walker();
    tm_walk_logs_per_tx(&w, txs, 4, involved);

    next = 0;
    const simtx_msg *m;
    /* Partition 0: tx0's logs and done, tx2's, then the skips of 11 and 13
     * (the run 11 ends at 13, which is not consecutive to it). */
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 0, 10, 2);
    if (m) {
        CHECK_EQUAL(tm_get_entry(m, 0).address, word(0, 0));
        CHECK_EQUAL(tm_get_entry(m, 1).address, word(0, 1));
        CHECK_EQUAL(tm_get_entry(m, 1).value, 3);
        CHECK_EQUAL(m->aux, 0);
        CHECK_EQUAL(m->address, word(0, 0));
        CHECK_EQUAL(seen[next - 1].event.tx, 0);
        CHECK_EQUAL(seen[next - 1].event.carried, 1);
    }
    m = expect(SIMTX_OP_TM_WRITE_LOG, TM_WALK_LOG, 0, 10, 1);
    if (m) CHECK_EQUAL(tm_get_entry(m, 0).value, 4);
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 0, 10, 0);
    if (m) {
        CHECK_EQUAL(m->aux, 2 | UINT64_C(1) << 32);
        CHECK_EQUAL(m->size, 0);
        CHECK_EQUAL(m->address, tm_partition_address(0, INTERLEAVE));
    }
    m = expect(SIMTX_OP_TM_WRITE_LOG, TM_WALK_LOG, 0, 12, 1);
    if (m) CHECK_EQUAL(seen[next - 1].event.tx, 2);
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 0, 12, 0);
    if (m) CHECK_EQUAL(m->aux, UINT64_C(1) << 32);
    m = expect(SIMTX_OP_TM_SKIP, TM_WALK_SKIP, 0, 11, 0);
    if (m) {
        CHECK_EQUAL(m->aux, 1);
        CHECK_EQUAL(seen[next - 1].event.tx, 1);
    }
    m = expect(SIMTX_OP_TM_SKIP, TM_WALK_SKIP, 0, 13, 0);
    if (m) CHECK_EQUAL(m->aux, 1);
    /* Partition 1: every transaction has reads there; tx2's 18 in 16 + 2. */
    expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 10, 1);
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 10, 0);
    if (m) CHECK_EQUAL(m->aux, 1);
    expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 11, 1);
    expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 11, 0);
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 12, 16);
    if (m) CHECK_EQUAL(tm_get_entry(m, 15).value, 115);
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 12, 2);
    if (m) {
        CHECK_EQUAL(tm_get_entry(m, 0).value, 116);
        CHECK_EQUAL(m->address, word(1, 26));
    }
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 12, 0);
    if (m) CHECK_EQUAL(m->aux, 18);
    expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 13, 1);
    expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 13, 0);
    /* Partition 2: one skip for the four consecutive IDs. */
    m = expect(SIMTX_OP_TM_SKIP, TM_WALK_SKIP, 2, 10, 0);
    if (m) CHECK_EQUAL(m->aux, 4);
    CHECK_EQUAL(next, seen_count);

    CHECK_EQUAL(involved[0], 3);
    CHECK_EQUAL(involved[1], 2);
    CHECK_EQUAL(involved[2], 3);
    CHECK_EQUAL(involved[3], 2);
}

static void coalesced(void)
{
    /* 18 transactions, IDs 100..117 (windows 100..115 and 116..117): tx i
     * reads one word of partition i mod 2; tx0 also writes 17 words at p0;
     * tx1 and tx3 read 9 more words at p1 each. Nothing at p2. */
    enum { N = 18 };
    tm_entry reads[N][10], w0[17];
    tm_walk_tx txs[N];
    for (unsigned i = 0; i < N; i++) {
        reads[i][0] = (tm_entry){word(i % 2, i), i};
        unsigned n = 1;
        if (i == 1 || i == 3)
            for (; n < 10; n++) reads[i][n] = (tm_entry){word(1, 100 + 10 * i + n), 1000 * i + n};
        txs[i] = (tm_walk_tx){reads[i], NULL, n, 0, 100 + i};
    }
    for (unsigned k = 0; k < 17; k++) w0[k] = (tm_entry){word(0, 200 + k), 500 + k};
    txs[0].writes = w0;
    txs[0].write_count = 17;
    uint64_t involved[N];
    tm_walker w = walker();
    uint64_t done_partitions = tm_walk_logs_coalesced(&w, txs, N, involved);
    CHECK_EQUAL(done_partitions, 3);
    CHECK_EQUAL(involved[0], 1);
    CHECK_EQUAL(involved[1], 2);
    CHECK_EQUAL(involved[16], 1);
    CHECK_EQUAL(involved[17], 2);

    next = 0;
    const simtx_msg *m;
    /* p0, window 100: the even transactions' reads, tx0's writes (16 + 1), the done. */
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 0, 100, 8);
    if (m) {
        CHECK_EQUAL(tm_entry_cid(m, 0), 100);
        CHECK_EQUAL(tm_entry_cid(m, 7), 114);
        CHECK_EQUAL(tm_get_entry(m, 7).value, 14);
        CHECK_EQUAL(seen[next - 1].event.carried, 0x5555);
        CHECK_EQUAL(seen[next - 1].event.tx, 0);
    }
    m = expect(SIMTX_OP_TM_WRITE_LOG, TM_WALK_LOG, 0, 100, 16);
    if (m) CHECK_EQUAL(m->aux, 0);
    m = expect(SIMTX_OP_TM_WRITE_LOG, TM_WALK_LOG, 0, 100, 1);
    if (m) CHECK_EQUAL(tm_get_entry(m, 0).value, 516);
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 0, 100, 0);
    if (m) {
        CHECK_EQUAL(m->size, 16 * 8);
        uint32_t record[4];
        memcpy(record, m->data, sizeof record); /* tx0 {1, 17}, tx1 {0, 0} */
        CHECK_EQUAL(record[0], 1);
        CHECK_EQUAL(record[1], 17);
        CHECK_EQUAL(record[2], 0);
        CHECK_EQUAL(record[3], 0);
        CHECK_EQUAL(seen[next - 1].event.tx, 0);
    }
    /* p0, window 116: tx16's read and the two records. */
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 0, 116, 1);
    if (m) CHECK_EQUAL(seen[next - 1].event.tx, 16);
    m = expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 0, 116, 0);
    if (m) {
        CHECK_EQUAL(m->size, 2 * 8);
        CHECK_EQUAL(seen[next - 1].event.tx, 16);
    }
    /* p1, window 100: tx1's 10 reads and 6 of tx3's, then tx3's last 4 and
     * the other odd transactions' 6 (offsets in aux). */
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 100, 16);
    if (m) {
        CHECK_EQUAL(tm_entry_cid(m, 9), 101);
        CHECK_EQUAL(tm_entry_cid(m, 10), 103);
        CHECK_EQUAL(seen[next - 1].event.carried, 0xA);
    }
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 100, 10);
    if (m) {
        CHECK_EQUAL(tm_entry_cid(m, 0), 103);
        CHECK_EQUAL(tm_get_entry(m, 0).value, 3006);
        CHECK_EQUAL(tm_entry_cid(m, 9), 115);
        CHECK_EQUAL(seen[next - 1].event.carried, 0xAAA8);
        CHECK_EQUAL(m->address, word(1, 136));
    }
    expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 100, 0);
    m = expect(SIMTX_OP_TM_READ_LOG, TM_WALK_LOG, 1, 116, 1);
    if (m) CHECK_EQUAL(tm_entry_cid(m, 0), 117);
    expect(SIMTX_OP_TM_LOG_DONE, TM_WALK_DONE, 1, 116, 0);
    /* p2: no entries, one skip per window. */
    m = expect(SIMTX_OP_TM_SKIP, TM_WALK_SKIP, 2, 100, 0);
    if (m) CHECK_EQUAL(m->aux, 16);
    m = expect(SIMTX_OP_TM_SKIP, TM_WALK_SKIP, 2, 116, 0);
    if (m) CHECK_EQUAL(m->aux, 2);
    CHECK_EQUAL(next, seen_count);
}

static void decisions(void)
{
    tm_walker w = walker();
    tm_walk_decision(&w, 5, 42, true, 5);
    tm_walk_decision(&w, 6, 43, false, 2);
    tm_walk_decisions_coalesced(&w, 100, 18, 0x2FFFF, 3);
    next = 0;
    const simtx_msg *m = expect(SIMTX_OP_TM_DECISION, TM_WALK_DECISION, 0, 42, 0);
    if (m) {
        CHECK_EQUAL(m->aux, TM_DECISION_COMMIT);
        CHECK_EQUAL(m->size, 0);
        CHECK_EQUAL(seen[next - 1].event.tx, 5);
    }
    expect(SIMTX_OP_TM_DECISION, TM_WALK_DECISION, 2, 42, 0);
    m = expect(SIMTX_OP_TM_DECISION, TM_WALK_DECISION, 1, 43, 0);
    if (m) CHECK_EQUAL(m->aux, TM_DECISION_ABORT);
    for (unsigned p = 0; p < 2; p++) {
        m = expect(SIMTX_OP_TM_DECISION, TM_WALK_DECISION, p, 100, 0);
        if (m) {
            uint32_t count;
            memcpy(&count, m->data, 4);
            CHECK_EQUAL(count, 18);
            CHECK_EQUAL(m->size, 8);
            CHECK_EQUAL(m->aux, 0x2FFFF);
        }
    }
    CHECK_EQUAL(next, seen_count);
}

/* No transactions: no messages (the caller asks for no commit IDs then). */
static void nothing(void)
{
    tm_walker w = walker();
    CHECK_EQUAL(tm_walk_logs_coalesced(&w, NULL, 0, NULL), 0);
    tm_walk_logs_per_tx(&w, NULL, 0, NULL);
    CHECK_EQUAL(seen_count, 0);
}

int main(void)
{
    per_transaction();
    coalesced();
    decisions();
    nothing();
    return simtx_test_summary();
}
