/* Unit tests of the commit_unit core through the C harness (fake_env, an
 * in-order memory as the L2): commit-ID allocation, commit and abort,
 * ordering across IDs, skip retirement, hazards on older writers, the
 * last-writer history's overflow, write-back order and bandwidth,
 * backpressure, pass-through traffic, temporal conflict detection, Warp TM
 * coalesced messages, SI-TM version boundaries (version_close), protocol
 * errors and the test-only broken validation. */
#include <string.h>

#include "tm_harness.h"
#include "test_support.h"
#include "version.h"

static uint64_t stat_of(const tm_system *sys, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(sys->observer, name);
    if (!e) return UINT64_MAX;
    if (e->kind == SIMTX_STAT_HISTOGRAM) return ((const simtx_histogram *)e->value)->count;
    return *(const uint64_t *)e->value;
}

/* Sends a transaction's logs for one partition and its TM_LOG_DONE (id base + 0..). */
static void send_logs(tm_system *sys, uint32_t cid, const tm_entry *reads, unsigned n_reads, const tm_entry *writes,
                      unsigned n_writes, uint64_t id_base)
{
    uint64_t address = n_reads ? reads[0].address : writes[0].address;
    if (n_reads) {
        simtx_msg m = tm_make_log(SIMTX_OP_TM_READ_LOG, cid, reads, n_reads, id_base + 1);
        tm_system_send(sys, &m);
    }
    if (n_writes) {
        simtx_msg m = tm_make_log(SIMTX_OP_TM_WRITE_LOG, cid, writes, n_writes, id_base + 2);
        tm_system_send(sys, &m);
    }
    simtx_msg done = tm_make(SIMTX_OP_TM_LOG_DONE, address, cid, n_reads | (uint64_t)n_writes << 32, id_base);
    tm_system_send(sys, &done);
}

static void decide(tm_system *sys, uint64_t address, uint32_t cid, bool commit, uint64_t id)
{
    simtx_msg m = tm_make(SIMTX_OP_TM_DECISION, address, cid, commit ? TM_DECISION_COMMIT : TM_DECISION_ABORT, id);
    tm_system_send(sys, &m);
}

static void commit_and_abort(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 10, NULL);
    tm_system_write_word(&sys, 0x100, 7);
    simtx_msg req = tm_make(SIMTX_OP_TM_CID_REQUEST, TM_CID_ALLOCATOR_ADDRESS, 0, 2, 900);
    tm_system_send(&sys, &req);
    tm_system_run(&sys, 100);
    const simtx_msg *grant = tm_system_response(&sys, 900);
    CHECK(grant != NULL);
    if (grant) CHECK_EQUAL(grant->aux, 1); /* IDs 1 and 2 */

    /* ID 1 read 0x100 = 7 (true) and writes 0x104 = 8: passes, commits. */
    tm_entry r1 = {0x100, 7}, w1 = {0x104, 8};
    send_logs(&sys, 1, &r1, 1, &w1, 1, 1000);
    /* ID 2 read 0x100 = 6 (stale): fails. */
    tm_entry r2 = {0x100, 6}, w2 = {0x108, 9};
    send_logs(&sys, 2, &r2, 1, &w2, 1, 2000);
    tm_system_run(&sys, 200);
    const simtx_msg *o1 = tm_system_response(&sys, 1000), *o2 = tm_system_response(&sys, 2000);
    CHECK(o1 && o2);
    if (o1) CHECK_EQUAL(o1->aux, TM_OUTCOME_PASS);
    if (o2) CHECK_EQUAL(o2->aux, TM_OUTCOME_FAIL);
    CHECK(tm_system_response(&sys, 1001) && tm_system_response(&sys, 1002)); /* log acknowledgements */
    CHECK_EQUAL(tm_system_read_word(&sys, 0x104), 0); /* nothing written before the decision */
    decide(&sys, 0x100, 1, true, 1100);
    decide(&sys, 0x100, 2, false, 2100);
    tm_system_run(&sys, 200);
    CHECK(tm_system_response(&sys, 1100) && tm_system_response(&sys, 2100));
    CHECK_EQUAL(tm_system_read_word(&sys, 0x104), 8);
    CHECK_EQUAL(tm_system_read_word(&sys, 0x108), 0);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_commits"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_aborts"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_tx_fail"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_validations"), 2);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_commit_writes"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.log_traffic_bytes"), 4 * (8 + 8));
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 3);
    CHECK(tm_system_failure(&sys) == NULL);
    /* The write-back acknowledgement comes after the L2 acknowledged the write. */
    CHECK(tm_system_response_cycle(&sys, 1100) >= tm_system_response_cycle(&sys, 1000) + 10);
    tm_system_release(&sys);
}

/* ID 2 arrives first: it waits for ID 1 (hazard detection is in order);
 * both write one word: the L2 sees ID 1's write first whatever the
 * decision order. */
static void ordering_across_ids(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    tm_entry w2 = {0x200, 22}, r2 = {0x300, 0};
    send_logs(&sys, 2, &r2, 1, &w2, 1, 2000);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 2000) == NULL);
    tm_entry w1 = {0x200, 11}, r1 = {0x304, 0};
    send_logs(&sys, 1, &r1, 1, &w1, 1, 1000);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1000) && tm_system_response(&sys, 2000));
    decide(&sys, 0x200, 2, true, 2100); /* the later ID decided first */
    tm_system_run(&sys, 50);
    CHECK(tm_system_response(&sys, 2100) == NULL); /* waits for ID 1's write-back */
    CHECK_EQUAL(tm_system_read_word(&sys, 0x200), 0);
    decide(&sys, 0x200, 1, true, 1100);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1100) && tm_system_response(&sys, 2100));
    CHECK_EQUAL(tm_system_read_word(&sys, 0x200), 22);
    unsigned writes = 0;
    uint32_t order[2] = {0, 0};
    for (size_t i = 0; i < sys.l2_log.count; i++)
        if (sys.l2_log.items[i].msg.op == SIMTX_OP_WRITE && writes < 2) memcpy(&order[writes++], sys.l2_log.items[i].msg.data, 4);
    CHECK_EQUAL(writes, 2);
    CHECK_EQUAL(order[0], 11);
    CHECK_EQUAL(order[1], 22);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* Two partitions: ID 1 has entries only at partition 1; partition 0 cannot
 * handle ID 2 until it hears ID 1's skip. */
static void skip_retirement(void)
{
    tm_system sys;
    tm_system_init(&sys, 2, 5, NULL);
    tm_entry r1 = {0x100, 0}; /* partition 1 (0x100 / 256 = 1) */
    send_logs(&sys, 1, &r1, 1, NULL, 0, 1000);
    tm_entry r2 = {0x200, 0}; /* partition 0 */
    send_logs(&sys, 2, &r2, 1, NULL, 0, 2000);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1000) != NULL);
    CHECK(tm_system_response(&sys, 2000) == NULL);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 1);
    simtx_msg skip = tm_make(SIMTX_OP_TM_SKIP, tm_partition_address(0, 256), 1, 1, 1500);
    tm_system_send(&sys, &skip);
    /* and ID 2 skips partition 1 */
    simtx_msg skip2 = tm_make(SIMTX_OP_TM_SKIP, tm_partition_address(1, 256), 2, 1, 2500);
    tm_system_send(&sys, &skip2);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1500) && tm_system_response(&sys, 2500));
    CHECK(tm_system_response(&sys, 2000) != NULL);
    decide(&sys, 0x100, 1, true, 1100);
    decide(&sys, 0x200, 2, true, 2100);
    tm_system_run(&sys, 100);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 3);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[1].unit), 3);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_tx_skip"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu1.tm_n_tx_skip"), 1);
    /* A skip range retires several IDs at once. */
    simtx_msg range = tm_make(SIMTX_OP_TM_SKIP, 0, 3, 5, 3000);
    tm_system_send(&sys, &range);
    tm_system_run(&sys, 50);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 8);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* A later reader of an earlier pending writer validates only after the
 * writer retired, and so sees its write. */
static void hazard_on_older_writer(bool writer_commits)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    tm_entry r1 = {0x10, 0}, w1 = {0x20, 5};
    send_logs(&sys, 1, &r1, 1, &w1, 1, 1000);
    tm_entry r2 = {0x20, 0}, w2 = {0x30, 1}; /* read 0x20 before ID 1 wrote it */
    send_logs(&sys, 2, &r2, 1, &w2, 1, 2000);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1000) != NULL);
    CHECK(tm_system_response(&sys, 2000) == NULL); /* held by the hazard */
    CHECK_EQUAL(stat_of(&sys, "cu0.hazards"), 1);
    decide(&sys, 0x10, 1, writer_commits, 1100);
    tm_system_run(&sys, 100);
    const simtx_msg *o2 = tm_system_response(&sys, 2000);
    CHECK(o2 != NULL);
    if (o2) CHECK_EQUAL(o2->aux, writer_commits ? TM_OUTCOME_FAIL : TM_OUTCOME_PASS);
    CHECK(tm_system_response_cycle(&sys, 2000) > tm_system_response_cycle(&sys, 1100));
    CHECK(stat_of(&sys, "cu0.hazard_stall_cycles") > 0);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* Without a hazard a younger ID validates while an older one waits for its decision. */
static void no_hazard_validates_early(const char *const *settings, bool expect_early)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, settings);
    tm_entry w1[5] = {{0x40, 1}, {0x44, 1}, {0x48, 1}, {0x4c, 1}, {0x50, 1}};
    tm_entry r1 = {0x10, 0};
    send_logs(&sys, 1, &r1, 1, w1, 5, 1000);
    tm_entry r2 = {0x90, 0}; /* a word ID 1 does not write */
    send_logs(&sys, 2, &r2, 1, NULL, 0, 2000);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 1000) != NULL);
    CHECK_EQUAL(tm_system_response(&sys, 2000) != NULL, expect_early);
    decide(&sys, 0x10, 1, true, 1100);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 2000) != NULL);
    if (expect_early) CHECK_EQUAL(stat_of(&sys, "cu0.lwh_overflows"), 0);
    else CHECK(stat_of(&sys, "cu0.lwh_overflows") >= 1);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

static void lwh_overflow(void)
{
    no_hazard_validates_early(NULL, true);
    /* One set of 4 ways: ID 1's fifth write evicts; a miss is then a
     * possible hazard on ID 1 until it retires. */
    const char *const small[] = {"lwh_entries=4", "lwh_ways=4", NULL};
    no_hazard_validates_early(small, false);
    /* Ideal mode grows the history instead. */
    const char *const ideal[] = {"lwh_entries=4", "lwh_ways=4", "validation=ideal", NULL};
    no_hazard_validates_early(ideal, true);
}

/* 8 writes leave one word per cycle; ideal mode issues them all at once. */
static void writeback_bandwidth(bool ideal)
{
    const char *const settings[] = {ideal ? "validation=ideal" : "validation=values", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, settings);
    tm_entry w[8];
    for (unsigned i = 0; i < 8; i++) w[i] = (tm_entry){0x400 + 4 * i, 100 + i};
    tm_entry r = {0x10, 0};
    send_logs(&sys, 1, &r, 1, w, 8, 1000);
    tm_system_run(&sys, 100);
    decide(&sys, 0x10, 1, true, 1100);
    tm_system_run(&sys, 100);
    uint64_t first = UINT64_MAX, last = 0;
    unsigned writes = 0;
    for (size_t i = 0; i < sys.l2_log.count; i++) {
        const tm_timed_msg *t = &sys.l2_log.items[i];
        if (t->msg.op != SIMTX_OP_WRITE) continue;
        uint32_t v;
        memcpy(&v, t->msg.data, 4);
        CHECK_EQUAL(v, 100 + writes);            /* in log order */
        CHECK_EQUAL(t->msg.address, 0x400 + 4 * writes);
        if (t->ready < first) first = t->ready;
        if (t->ready > last) last = t->ready;
        writes++;
    }
    CHECK_EQUAL(writes, 8);
    CHECK_EQUAL(last - first, ideal ? 0 : 7);
    tm_system_release(&sys);
}

/* A small input queue refuses; the L2 port pushing back stalls write-back. */
static void backpressure(void)
{
    const char *const settings[] = {"input_queue_depth=2", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, settings);
    for (uint32_t c = 1; c <= 10; c++) {
        tm_entry w = {0x800 + 4 * c, c};
        send_logs(&sys, c, NULL, 0, &w, 1, c * 1000);
    }
    tm_system_run(&sys, 200);
    CHECK(sys.nodes[0].refusals > 0);
    for (uint32_t c = 1; c <= 10; c++) CHECK(tm_system_response(&sys, c * 1000) != NULL);
    sys.nodes[0].fake.refuse_ports = 1u << COMMIT_UNIT_DOWNSTREAM;
    for (uint32_t c = 1; c <= 10; c++) decide(&sys, 0x800, c, true, c * 1000 + 100);
    tm_system_run(&sys, 100);
    CHECK_EQUAL(tm_system_read_word(&sys, 0x804), 0);
    sys.nodes[0].fake.refuse_ports = 0;
    commit_unit_block_info.port_free(sys.nodes[0].unit, COMMIT_UNIT_DOWNSTREAM);
    tm_system_run(&sys, 200);
    for (uint32_t c = 1; c <= 10; c++) CHECK_EQUAL(tm_system_read_word(&sys, 0x800 + 4 * c), c);
    for (uint32_t c = 1; c <= 10; c++) CHECK(tm_system_response(&sys, c * 1000 + 100) != NULL);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 11);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* Non-TM traffic reaches the L2 unchanged and its response comes back unchanged. */
static void passthrough(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg w;
    simtx_msg_init(&w, SIMTX_OP_WRITE, 0x1000, 8);
    memcpy(w.data, "abcdefgh", 8);
    w.id = 42;
    w.core = 3;
    w.handle = &sys; /* any pointer: it must come back */
    tm_system_send(&sys, &w);
    simtx_msg r;
    simtx_msg_init(&r, SIMTX_OP_READ, 0x1000, 8);
    r.id = 43;
    tm_system_send(&sys, &r);
    tm_system_run(&sys, 100);
    CHECK_EQUAL(sys.l2_log.count, 2);
    if (sys.l2_log.count == 2) {
        CHECK_EQUAL(sys.l2_log.items[0].msg.id, 42);
        CHECK(sys.l2_log.items[0].msg.handle == &sys);
        CHECK_EQUAL(sys.l2_log.items[0].msg.core, 3);
    }
    const simtx_msg *answer = tm_system_response(&sys, 43);
    CHECK(answer && memcmp(answer->data, "abcdefgh", 8) == 0);
    CHECK(tm_system_response(&sys, 42) != NULL);
    CHECK_EQUAL(stat_of(&sys, "cu0.passthrough_requests"), 2);
    tm_system_release(&sys);
}

/* Temporal conflict detection: a query with start time T waits until every
 * ID below T retired, and answers the block's last-written time. */
static void temporal_conflict_detection(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg q0 = tm_make(SIMTX_OP_TM_LWT_QUERY, 0x1000, 0, 1, 500);
    tm_system_send(&sys, &q0);
    tm_system_run(&sys, 20);
    const simtx_msg *a0 = tm_system_response(&sys, 500);
    CHECK(a0 != NULL);
    if (a0) CHECK_EQUAL(a0->aux, 0); /* never written */
    tm_entry w1 = {0x1010, 1};
    send_logs(&sys, 1, NULL, 0, &w1, 1, 1000);
    simtx_msg q1 = tm_make(SIMTX_OP_TM_LWT_QUERY, 0x1040, 0, 2, 600); /* start time 2: waits for ID 1 */
    tm_system_send(&sys, &q1);
    tm_system_run(&sys, 50);
    CHECK(tm_system_response(&sys, 600) == NULL);
    CHECK_EQUAL(stat_of(&sys, "cu0.lwt_queries"), 1);
    decide(&sys, 0x1010, 1, true, 1100);
    tm_system_run(&sys, 50);
    const simtx_msg *a1 = tm_system_response(&sys, 600);
    CHECK(a1 != NULL);
    if (a1) CHECK_EQUAL(a1->aux, 1); /* the same 128-byte block as 0x1010 */
    CHECK(tm_system_response_cycle(&sys, 600) >= tm_system_response_cycle(&sys, 1100));
    /* Many waiting queries never block the decision they wait for. */
    tm_entry w2 = {0x1010, 2};
    send_logs(&sys, 2, NULL, 0, &w2, 1, 2000);
    for (unsigned i = 0; i < 200; i++) {
        simtx_msg q = tm_make(SIMTX_OP_TM_LWT_QUERY, 0x1000, 0, 3, 10000 + i);
        tm_system_send(&sys, &q);
    }
    tm_system_run(&sys, 300);
    CHECK(tm_system_response(&sys, 10000) == NULL);
    CHECK_EQUAL(stat_of(&sys, "cu0.held_queries_max"), 200);
    decide(&sys, 0x1010, 2, true, 2100);
    tm_system_run(&sys, 500);
    unsigned answered = 0;
    for (unsigned i = 0; i < 200; i++) {
        const simtx_msg *a = tm_system_response(&sys, 10000 + i);
        answered += a && a->aux == 2;
    }
    CHECK_EQUAL(answered, 200);
    /* A tiny table evicts: misses answer the floor (conservative). */
    tm_system_release(&sys);
    const char *const tiny[] = {"lwt_entries=1", "lwt_subarrays=1", NULL};
    tm_system_init(&sys, 1, 5, tiny);
    tm_entry w[2] = {{0x2000, 1}, {0x3000, 2}};
    send_logs(&sys, 1, NULL, 0, w, 2, 1000);
    tm_system_run(&sys, 50);
    decide(&sys, 0x2000, 1, true, 1100);
    tm_system_run(&sys, 50);
    simtx_msg q2 = tm_make(SIMTX_OP_TM_LWT_QUERY, 0x2000, 0, 2, 700);
    simtx_msg q3 = tm_make(SIMTX_OP_TM_LWT_QUERY, 0x9000, 0, 2, 701);
    tm_system_send(&sys, &q2);
    tm_system_send(&sys, &q3);
    tm_system_run(&sys, 50);
    const simtx_msg *a2 = tm_system_response(&sys, 700), *a3 = tm_system_response(&sys, 701);
    CHECK(a2 && a3);
    if (a2) CHECK_EQUAL(a2->aux, 1);
    if (a3) CHECK_EQUAL(a3->aux, 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.lwt_evictions"), 1);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* Warp TM: one message carries entries of IDs 1..3 (offsets in aux). */
static void coalesced_messages(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    tm_system_write_word(&sys, 0x10, 5);
    simtx_msg reads;
    tm_log_init(&reads, SIMTX_OP_TM_READ_LOG, 1, 0, 0);
    CHECK(tm_log_append(&reads, 1, 0x10, 5));
    CHECK(tm_log_append(&reads, 2, 0x10, 5));
    CHECK(tm_log_append(&reads, 3, 0x10, 4)); /* stale: ID 3 fails */
    CHECK(!tm_log_append(&reads, 17, 0x10, 4)); /* outside the 16-ID range */
    reads.id = 10;
    tm_system_send(&sys, &reads);
    simtx_msg writes;
    tm_log_init(&writes, SIMTX_OP_TM_WRITE_LOG, 1, 0, 0);
    CHECK(tm_log_append(&writes, 2, 0x20, 2));
    writes.id = 11;
    tm_system_send(&sys, &writes);
    for (uint32_t c = 1; c <= 3; c++) {
        simtx_msg done = tm_make(SIMTX_OP_TM_LOG_DONE, 0, c, 1 | (uint64_t)(c == 2) << 32, c * 1000);
        tm_system_send(&sys, &done);
    }
    tm_system_run(&sys, 100);
    const simtx_msg *o1 = tm_system_response(&sys, 1000), *o2 = tm_system_response(&sys, 2000),
                    *o3 = tm_system_response(&sys, 3000);
    CHECK(o1 && o2 && o3);
    if (o1 && o2 && o3) {
        CHECK_EQUAL(o1->aux, TM_OUTCOME_PASS);
        CHECK_EQUAL(o2->aux, TM_OUTCOME_PASS);
        CHECK_EQUAL(o3->aux, TM_OUTCOME_FAIL);
    }
    CHECK_EQUAL(stat_of(&sys, "cu0.log_messages"), 2);
    CHECK_EQUAL(stat_of(&sys, "cu0.read_log_entries"), 3);
    tm_system_release(&sys);
}

static void protocol_errors(void)
{
    tm_system sys;
    tm_system_init(&sys, 2, 5, NULL);
    simtx_msg req = tm_make(SIMTX_OP_TM_CID_REQUEST, 0x100, 0, 1, 1); /* partition 1: not the allocator */
    tm_system_send(&sys, &req);
    tm_system_run(&sys, 10);
    CHECK(tm_system_failure(&sys) != NULL);
    if (tm_system_failure(&sys)) CHECK_CONTAINS(tm_system_failure(&sys), "cid_allocator");
    tm_system_release(&sys);

    tm_system_init(&sys, 2, 5, NULL);
    tm_entry foreign = {0x104, 1}; /* partition 1's word sent to partition 0 */
    simtx_msg m = tm_make_log(SIMTX_OP_TM_READ_LOG, 1, &foreign, 1, 1);
    m.address = 0; /* routed to partition 0 */
    tm_system_send(&sys, &m);
    tm_system_run(&sys, 10);
    CHECK(tm_system_failure(&sys) != NULL);
    if (tm_system_failure(&sys)) CHECK_CONTAINS(tm_system_failure(&sys), "not a word of partition 0");
    tm_system_release(&sys);

    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg early = tm_make(SIMTX_OP_TM_DECISION, 0, 1, TM_DECISION_COMMIT, 1);
    tm_system_send(&sys, &early);
    tm_system_run(&sys, 10);
    CHECK(tm_system_failure(&sys) != NULL);
    if (tm_system_failure(&sys)) CHECK_CONTAINS(tm_system_failure(&sys), "before its outcome");
    tm_system_release(&sys);

    /* Bad parameters name the parameter. */
    commit_unit_params p;
    const char *const bad[] = {"partition=3", "partitions=2", NULL};
    fake_params(&commit_unit_block_info, &p, bad);
    static fake_env fake; /* large: not on the stack */
    fake_env_init(&fake, NULL);
    char error[256] = "";
    CHECK(commit_unit_block_info.create(&p, &fake.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "partition");
    simtx_params_release(commit_unit_block_info.params, &p);
    const char *const bad_lwh[] = {"lwh_entries=2", "lwh_ways=4", NULL};
    fake_params(&commit_unit_block_info, &p, bad_lwh);
    CHECK(commit_unit_block_info.create(&p, &fake.env, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "lwh_entries");
    simtx_params_release(commit_unit_block_info.params, &p);
}

/* The test-only broken validation lets a stale read pass. */
static void broken_validation_passes_stale_read(void)
{
    const char *const broken[] = {"skip_validation_check=true", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, broken);
    tm_system_write_word(&sys, 0x100, 7);
    tm_entry r = {0x100, 6};
    send_logs(&sys, 1, &r, 1, NULL, 0, 1000);
    tm_system_run(&sys, 50);
    const simtx_msg *o = tm_system_response(&sys, 1000);
    CHECK(o != NULL);
    if (o) CHECK_EQUAL(o->aux, TM_OUTCOME_PASS);
    CHECK_EQUAL(stat_of(&sys, "cu0.validation_mismatches"), 1);
    tm_system_release(&sys);
}

/* Ideal mode validates without L2 reads, against the values it wrote back. */
static void ideal_validation(void)
{
    const char *const ideal[] = {"validation=ideal", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 30, ideal);
    tm_system_write_word(&sys, 0x100, 7); /* written by the host, not by a transaction */
    tm_entry r1 = {0x100, 7}, w1 = {0x100, 8};
    send_logs(&sys, 1, &r1, 1, &w1, 1, 1000);
    tm_entry r2 = {0x100, 7}; /* stale once ID 1 commits */
    send_logs(&sys, 2, &r2, 1, NULL, 0, 2000);
    tm_entry r3 = {0x104, 99}; /* never written by a transaction: taken as read */
    send_logs(&sys, 3, &r3, 1, NULL, 0, 3000);
    tm_system_run(&sys, 100);
    const simtx_msg *o1 = tm_system_response(&sys, 1000), *o3 = tm_system_response(&sys, 3000);
    CHECK(o1 && o3);
    if (o1) CHECK_EQUAL(o1->aux, TM_OUTCOME_PASS);
    if (o3) CHECK_EQUAL(o3->aux, TM_OUTCOME_PASS);
    /* No L2 round trip: outcomes within a few cycles of the logs. */
    CHECK(tm_system_response_cycle(&sys, 1000) < 10);
    CHECK(tm_system_response(&sys, 2000) == NULL); /* hazard on ID 1 */
    decide(&sys, 0x100, 1, true, 1100);
    tm_system_run(&sys, 200);
    const simtx_msg *o2 = tm_system_response(&sys, 2000);
    CHECK(o2 != NULL);
    if (o2) CHECK_EQUAL(o2->aux, TM_OUTCOME_FAIL);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_validations"), 0);
    CHECK_EQUAL(stat_of(&sys, "cu0.validation_mismatches"), 1);
    CHECK_EQUAL(tm_system_read_word(&sys, 0x100), 8);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* Warp TM: one coalesced TM_LOG_DONE and one coalesced TM_DECISION for IDs
 * 1..4 of a warp (ID 2 has no entries: a skip record). */
static void coalesced_done_and_decision(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    tm_system_write_word(&sys, 0x10, 5);
    simtx_msg reads;
    tm_log_init(&reads, SIMTX_OP_TM_READ_LOG, 1, 0, 0);
    tm_log_append(&reads, 1, 0x10, 5);
    tm_log_append(&reads, 3, 0x10, 4); /* stale */
    reads.id = 1;
    simtx_msg writes;
    tm_log_init(&writes, SIMTX_OP_TM_WRITE_LOG, 1, 0, 0);
    tm_log_append(&writes, 4, 0x20, 44);
    tm_log_append(&writes, 3, 0x24, 33);
    writes.id = 2;
    simtx_msg done;
    tm_done_init(&done, 0, 1);
    CHECK(tm_done_append(&done, 1, 0));
    CHECK(tm_done_append(&done, 0, 0));
    CHECK(tm_done_append(&done, 1, 1));
    CHECK(tm_done_append(&done, 0, 1));
    done.id = 3;
    tm_system_send(&sys, &done); /* before its entries: the counts make it wait */
    tm_system_send(&sys, &reads);
    tm_system_send(&sys, &writes);
    tm_system_run(&sys, 100);
    const simtx_msg *outcome = tm_system_response(&sys, 3);
    CHECK(outcome != NULL);
    if (outcome) CHECK_EQUAL(outcome->aux, 0xB); /* 1 pass, 2 skipped, 3 fail, 4 pass */
    simtx_msg decision;
    tm_decision_init(&decision, 0, 1, 4, 0x9); /* commit 1 and 4, abort 3 */
    decision.id = 4;
    tm_system_send(&sys, &decision);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 4) != NULL);
    CHECK_EQUAL(tm_system_read_word(&sys, 0x20), 44);
    CHECK_EQUAL(tm_system_read_word(&sys, 0x24), 0);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 5);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_commits"), 2);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_aborts"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_tx_skip"), 1);
    CHECK(tm_system_failure(&sys) == NULL);
    /* Committing an ID that failed here is a protocol error. */
    tm_system_release(&sys);
    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg stale = tm_make_log(SIMTX_OP_TM_READ_LOG, 1, (tm_entry[]){{0x10, 9}}, 1, 1);
    tm_system_send(&sys, &stale);
    simtx_msg single = tm_make(SIMTX_OP_TM_LOG_DONE, 0, 1, 1, 2);
    tm_system_send(&sys, &single);
    tm_system_run(&sys, 100);
    tm_decision_init(&decision, 0, 1, 1, 1);
    tm_system_send(&sys, &decision);
    tm_system_run(&sys, 20);
    CHECK(tm_system_failure(&sys) != NULL);
    if (tm_system_failure(&sys)) CHECK_CONTAINS(tm_system_failure(&sys), "failed validation");
    tm_system_release(&sys);
}

/* Within one coalesced TM_LOG_DONE a younger ID reading what an older one
 * writes fails at once (it cannot wait for the older ID's decision, which
 * waits for this very outcome). */
static void intra_group_conflict(void)
{
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg w = tm_make_log(SIMTX_OP_TM_WRITE_LOG, 1, (tm_entry[]){{0x30, 1}}, 1, 1);
    simtx_msg r;
    tm_log_init(&r, SIMTX_OP_TM_READ_LOG, 1, 0, 0);
    tm_log_append(&r, 2, 0x30, 0);
    r.id = 2;
    simtx_msg done;
    tm_done_init(&done, 0, 1);
    tm_done_append(&done, 0, 1);
    tm_done_append(&done, 1, 0);
    done.id = 3;
    tm_system_send(&sys, &w);
    tm_system_send(&sys, &r);
    tm_system_send(&sys, &done);
    tm_system_run(&sys, 100);
    const simtx_msg *outcome = tm_system_response(&sys, 3);
    CHECK(outcome != NULL);
    if (outcome) CHECK_EQUAL(outcome->aux, 0x1);
    CHECK_EQUAL(stat_of(&sys, "cu0.intra_warp_hazards"), 1);
    CHECK_EQUAL(stat_of(&sys, "cu0.tm_n_validations"), 0);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* IDs past the window wait aside (without blocking older IDs' messages
 * behind them); a message for a retired ID is a protocol error. */
/* Messages past the window never fill the input queue: the skips that let
 * the window move on still get in (an ID stays live at a partition after
 * its transaction finished while older skips travel, so such messages keep
 * coming; they used to fill the queue and deadlock the unit). */
static void window_backlog(void)
{
    const char *const small[] = {"window=2", "input_queue_depth=2", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, small);
    tm_entry r = {0x10, 0};
    for (uint32_t cid = 5; cid <= 8; cid++) send_logs(&sys, cid, &r, 1, NULL, 0, 1000 * cid); /* 8 messages past IDs 1..4 */
    simtx_msg skip = tm_make(SIMTX_OP_TM_SKIP, 0, 1, 2, 100), skip2 = tm_make(SIMTX_OP_TM_SKIP, 0, 3, 2, 101);
    tm_system_send(&sys, &skip);
    tm_system_send(&sys, &skip2);
    tm_system_run(&sys, 200);
    CHECK(tm_system_response(&sys, 100) != NULL);
    CHECK(tm_system_response(&sys, 101) != NULL);
    for (uint32_t cid = 5; cid <= 8; cid++) {
        const simtx_msg *outcome = tm_system_response(&sys, 1000 * cid);
        CHECK(outcome != NULL);
        if (outcome) CHECK_EQUAL(outcome->aux, TM_OUTCOME_PASS);
        decide(&sys, 0, cid, true, 1000 * cid + 100);
        tm_system_run(&sys, 100);
    }
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 9);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

static void window_limit(void)
{
    const char *const small[] = {"window=2", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, small);
    tm_entry r = {0x10, 0};
    send_logs(&sys, 5, &r, 1, NULL, 0, 5000); /* past IDs 1..4 */
    simtx_msg skip = tm_make(SIMTX_OP_TM_SKIP, 0, 1, 2, 100); /* behind it in the queue */
    simtx_msg skip2 = tm_make(SIMTX_OP_TM_SKIP, 0, 3, 2, 101);
    tm_system_send(&sys, &skip);
    tm_system_send(&sys, &skip2);
    tm_system_run(&sys, 1);
    CHECK(tm_system_response(&sys, 100) != NULL); /* taken past the waiting ones */
    CHECK(tm_system_response(&sys, 101) == NULL); /* IDs 3, 4 wait for 1, 2 to retire */
    tm_system_run(&sys, 100);
    const simtx_msg *o5 = tm_system_response(&sys, 5000);
    CHECK(o5 != NULL);
    if (o5) CHECK_EQUAL(o5->aux, TM_OUTCOME_PASS);
    CHECK_EQUAL(stat_of(&sys, "cu0.held_beyond_max"), 3); /* the log and TM_LOG_DONE of 5, the skip of 3, 4 */
    decide(&sys, 0, 5, true, 5100);
    tm_system_run(&sys, 100);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 6);
    CHECK(tm_system_failure(&sys) == NULL);
    send_logs(&sys, 3, &r, 1, NULL, 0, 3000); /* retired long ago */
    tm_system_run(&sys, 10);
    CHECK(tm_system_failure(&sys) != NULL);
    if (tm_system_failure(&sys)) CHECK_CONTAINS(tm_system_failure(&sys), "already retired");
    tm_system_release(&sys);
}

/* Single-form messages of one warp (core 2, warp 5): a younger lane reading
 * what an older, undecided lane writes fails at once (the warp may decide
 * only when it has every outcome); another warp's reader waits. */
static void same_warp_hazard(void)
{
    tm_entry w1 = {0x30, 1}, r = {0x30, 0};
    simtx_msg reads = tm_make_log(SIMTX_OP_TM_READ_LOG, 2, &r, 1, 2001);
    simtx_msg done = tm_make(SIMTX_OP_TM_LOG_DONE, 0, 2, 1, 2000);
    reads.core = done.core = 2;
    reads.warp = done.warp = 5;
    simtx_msg reads3 = tm_make_log(SIMTX_OP_TM_READ_LOG, 3, &r, 1, 3001);
    simtx_msg done3 = tm_make(SIMTX_OP_TM_LOG_DONE, 0, 3, 1, 3000);
    reads3.core = done3.core = 2;
    reads3.warp = done3.warp = 6;
    tm_system sys;
    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg writes1 = tm_make_log(SIMTX_OP_TM_WRITE_LOG, 1, &w1, 1, 1001);
    simtx_msg done1 = tm_make(SIMTX_OP_TM_LOG_DONE, 0, 1, (uint64_t)1 << 32, 1000);
    done1.core = 2;
    done1.warp = 5;
    tm_system_send(&sys, &writes1);
    tm_system_send(&sys, &done1);
    tm_system_send(&sys, &reads);
    tm_system_send(&sys, &done);
    tm_system_send(&sys, &reads3);
    tm_system_send(&sys, &done3);
    tm_system_run(&sys, 100);
    const simtx_msg *o2 = tm_system_response(&sys, 2000);
    CHECK(o2 != NULL);
    if (o2) CHECK_EQUAL(o2->aux, TM_OUTCOME_FAIL);
    CHECK(tm_system_response(&sys, 3000) == NULL); /* warp 6 waits for ID 1 */
    CHECK_EQUAL(stat_of(&sys, "cu0.intra_warp_hazards"), 1);
    decide(&sys, 0, 1, false, 1100);
    tm_system_run(&sys, 100);
    const simtx_msg *o3 = tm_system_response(&sys, 3000);
    CHECK(o3 != NULL);
    if (o3) CHECK_EQUAL(o3->aux, TM_OUTCOME_PASS); /* ID 1 aborted: 0x30 still 0 */
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

/* The position in the L2 log of the first op with aux (-1: none). */
static int logged(const tm_system *sys, simtx_op op, uint64_t aux)
{
    for (size_t i = 0; i < sys->l2_log.count; i++)
        if (sys->l2_log.items[i].msg.op == op && sys->l2_log.items[i].msg.aux == aux) return (int)i;
    return -1;
}

/* SI-TM's version boundaries (version_close, version.h): a CLOSE at the
 * newest retired ID follows its write-back; an ACQUIRE passes only once a
 * CLOSE covers its timestamp. Off by default: ACQUIREs pass, no CLOSE. */
static void version_close(void)
{
    const char *const on[] = {"version_close=true", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, on);
    simtx_msg a0 = tm_make(SIMTX_OP_VERSION_ACQUIRE, 0x40, 0, 0, 800); /* ts 0: nothing to wait for */
    tm_system_send(&sys, &a0);
    tm_entry w1 = {0x1010, 1};
    send_logs(&sys, 1, NULL, 0, &w1, 1, 1000);
    simtx_msg a1 = tm_make(SIMTX_OP_VERSION_ACQUIRE, 0x40, 0, 1, 801); /* ts 1: waits for ID 1 */
    tm_system_send(&sys, &a1);
    tm_system_run(&sys, 50);
    CHECK(tm_system_response(&sys, 800) != NULL);
    CHECK(tm_system_response(&sys, 801) == NULL);
    CHECK_EQUAL(logged(&sys, SIMTX_OP_VERSION_CLOSE, 1), -1);
    decide(&sys, 0x1010, 1, true, 1100);
    tm_system_run(&sys, 100);
    int close = logged(&sys, SIMTX_OP_VERSION_CLOSE, 1), acquire = logged(&sys, SIMTX_OP_VERSION_ACQUIRE, 1);
    int write = -1;
    for (size_t i = 0; i < sys.l2_log.count; i++)
        if (sys.l2_log.items[i].msg.op == SIMTX_OP_WRITE && sys.l2_log.items[i].msg.address == 0x1010) write = (int)i;
    CHECK(write >= 0 && close > write && acquire > close);
    if (close >= 0) CHECK_EQUAL(sys.l2_log.items[close].msg.address, VERSION_ALL_REGIONS);
    CHECK(tm_system_response(&sys, 801) != NULL);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);

    tm_system_init(&sys, 1, 5, NULL);
    simtx_msg a5 = tm_make(SIMTX_OP_VERSION_ACQUIRE, 0x40, 0, 5, 805);
    tm_system_send(&sys, &a5);
    send_logs(&sys, 1, NULL, 0, &w1, 1, 1000);
    decide(&sys, 0x1010, 1, true, 1100);
    tm_system_run(&sys, 100);
    CHECK(tm_system_response(&sys, 805) != NULL);
    CHECK_EQUAL(logged(&sys, SIMTX_OP_VERSION_CLOSE, 1), -1);
    tm_system_release(&sys);
}

/* Issue 27: a version closed at commit point P holds exactly the write-backs
 * of IDs <= P. IDs 1..6 are decided together, so a later ID's write-back is
 * issued while an earlier ID waits for its acknowledgement (the L2 answers
 * after 5 cycles): no CLOSE may follow a later ID's write (the slice would
 * put it into the version closed at P) nor precede an earlier ID's. The
 * write values are the commit IDs. */
static void version_boundary_exact(void)
{
    const char *const on[] = {"version_close=true", NULL};
    tm_system sys;
    tm_system_init(&sys, 1, 5, on);
    for (uint32_t c = 1; c <= 6; c++) {
        tm_entry w[2] = {{0x1000 + 8 * c, c}, {0x1004 + 8 * c, c}};
        send_logs(&sys, c, NULL, 0, w, 2, c * 1000);
    }
    simtx_msg a = tm_make(SIMTX_OP_VERSION_ACQUIRE, 0x40, 0, 6, 900); /* passes once a CLOSE covers ID 6 */
    tm_system_send(&sys, &a);
    tm_system_run(&sys, 100);
    for (uint32_t c = 1; c <= 6; c++) decide(&sys, 0x1000, c, true, c * 1000 + 100);
    tm_system_run(&sys, 300);
    for (uint32_t c = 1; c <= 6; c++) CHECK(tm_system_response(&sys, c * 1000 + 100) != NULL);
    CHECK(tm_system_response(&sys, 900) != NULL);
    CHECK_EQUAL(commit_unit_retire_cid(sys.nodes[0].unit), 7);
    unsigned closes = 0, writes = 0;
    uint64_t last_close = 0;
    for (size_t i = 0; i < sys.l2_log.count; i++) {
        const simtx_msg *m = &sys.l2_log.items[i].msg;
        if (m->op == SIMTX_OP_WRITE) {
            uint32_t c;
            memcpy(&c, m->data, 4);
            CHECK(c > last_close); /* not a write of a version already closed */
            writes++;
        } else if (m->op == SIMTX_OP_VERSION_CLOSE) {
            for (size_t j = 0; j < i; j++) { /* every earlier write is of an ID <= the point */
                uint32_t c;
                memcpy(&c, sys.l2_log.items[j].msg.data, 4);
                if (sys.l2_log.items[j].msg.op == SIMTX_OP_WRITE && c > m->aux)
                    CHECK_EQUAL(c, m->aux); /* fails: a later ID's write inside the version closed at aux */
            }
            CHECK(m->aux > last_close);
            last_close = m->aux;
            closes++;
        }
    }
    CHECK_EQUAL(writes, 12);
    CHECK(closes >= 2); /* the boundary fence stalls write-back, it does not end closing */
    CHECK_EQUAL(last_close, 6);
    CHECK(tm_system_failure(&sys) == NULL);
    tm_system_release(&sys);
}

int main(void)
{
    commit_and_abort();
    ordering_across_ids();
    skip_retirement();
    hazard_on_older_writer(true);
    hazard_on_older_writer(false);
    lwh_overflow();
    writeback_bandwidth(false);
    writeback_bandwidth(true);
    backpressure();
    ideal_validation();
    passthrough();
    temporal_conflict_detection();
    version_close();
    version_boundary_exact();
    coalesced_messages();
    coalesced_done_and_decision();
    intra_group_conflict();
    window_limit();
    window_backlog();
    same_warp_hazard();
    protocol_errors();
    broken_validation_passes_stale_read();
    return simtx_test_summary();
}
