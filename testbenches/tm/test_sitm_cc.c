/* The SI-TM concurrency-control block (models/tm/sitm_cc) through its
 * sockets (protocols/sitm.h): Figure 8's loop found by the accesses that
 * make its edges (reads and writes of three transactions), the single-
 * writer rule and its release at SI_END, a full Writer Table refusing a
 * write and holding new transactions until an SI_END frees an entry, a
 * timestamp overflow dooming the running transactions and restarting the
 * table once they ended, other traffic passing through both ways, and the
 * exact policy (SITM_Oracle): the same accesses looping only when a cycle
 * closes, no single-writer rule, answers in no time, commits ordered by
 * the commit ID and snapshot the messages carry; and that every verdict
 * aborts the transaction whose entry it answers, never another one (a
 * loop closed by a read, a running writer with the larger ID, writers of
 * one message). */
#include "fake_env.h"
#include "sitm.h"
#include "sitm_cc.h"
#include "test_support.h"

#include <stdio.h>
#include <string.h>

typedef struct bench {
    fake_env fake;
    sitm_cc_params params;
    void *core;
    uint64_t now;
    size_t seen; /* sent messages looked at */
} bench;

static void open_bench(bench *b, const char *const *settings)
{
    fake_env_init(&b->fake, NULL);
    fake_params(&sitm_cc_block_info, &b->params, settings);
    char error[256] = "";
    b->core = sitm_cc_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    CHECK(b->core != NULL);
    if (!b->core) printf("%s\n", error);
    b->now = 0;
    b->seen = 0;
}

static void close_bench(bench *b)
{
    sitm_cc_block_info.destroy(b->core);
    simtx_params_release(sitm_cc_block_info.params, &b->params);
}

/* Runs until a response with this id leaves upstream (or 200 cycles pass). */
static const simtx_msg *await(bench *b, uint64_t id)
{
    for (unsigned i = 0; i < 200; i++) {
        for (; b->seen < b->fake.sent_count; b->seen++)
            if (b->fake.sent_port[b->seen] == 0 && b->fake.sent[b->seen].is_response && b->fake.sent[b->seen].id == id)
                return &b->fake.sent[b->seen++];
        sitm_cc_block_info.cycle(b->core, b->now++);
    }
    return NULL;
}

static uint64_t next_id = 100;

static uint64_t post(bench *b, simtx_msg *m)
{
    m->id = next_id++;
    CHECK_EQUAL(sitm_cc_block_info.accept(b->core, 0, m, b->now), SIMTX_ACCEPTED);
    return m->id;
}

static uint64_t begin_async(bench *b, uint64_t lanes)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.transaction_id = 0;
    m.lane_mask = lanes;
    return post(b, &m);
}

static void begin(bench *b, uint64_t lanes) { CHECK(await(b, begin_async(b, lanes)) != NULL); }

/* SI_BEGIN of lanes whose snapshot holds the commit IDs up to `point`. */
static uint64_t begin_at_async(bench *b, uint64_t lanes, uint32_t point)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.lane_mask = lanes;
    m.aux = point;
    return post(b, &m);
}

/* SI_BEGIN of another form (sitm.h 1: ADMIT, ADMITTED). */
static uint64_t begin_form_async(bench *b, uint64_t lanes, unsigned form)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.lane_mask = lanes;
    sitm_set_begin(&m, false, form);
    return post(b, &m);
}

/* A begin with a pinned snapshot while new transactions are kept out: it is
 * answered WAIT at once, never held (a held one kept its version from being
 * recycled while the transactions it waited for waited at a VIT for a
 * version slot: every benchmark deadlocked with 2 versions). Its ADMIT form
 * is held instead; returns the ADMIT's id. */
static uint64_t begin_waits(bench *b, uint64_t lanes)
{
    const simtx_msg *r = await(b, begin_async(b, lanes));
    CHECK(r != NULL);
    if (r) CHECK_EQUAL(r->aux, SITM_BEGIN_WAIT);
    return begin_form_async(b, lanes, SITM_BEGIN_ADMIT);
}

/* SI_END; cids[lane]: the commit ID the lane took (NULL: none). */
static void end_with(bench *b, uint64_t lanes, uint64_t committed, const uint32_t *cids)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_END, SITM_CC_ADDRESS, 0);
    m.lane_mask = lanes;
    m.aux = committed;
    for (uint64_t l = lanes; cids && l; l &= l - 1) sitm_set_end_cid(&m, (unsigned)__builtin_ctzll(l), cids[__builtin_ctzll(l)]);
    CHECK(await(b, post(b, &m)) != NULL);
}

static void end(bench *b, uint64_t lanes, uint64_t committed) { end_with(b, lanes, committed, NULL); }

/* One entry: its verdict. */
static uint8_t access1(bench *b, unsigned id, uint32_t word, uint8_t kind)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_ACCESS, SITM_CC_ADDRESS, 0);
    sitm_append_entry(&m, word, (uint16_t)id, kind);
    const simtx_msg *r = await(b, post(b, &m));
    CHECK(r != NULL);
    if (!r) return 255;
    CHECK_EQUAL(r->size, SITM_ENTRY_BYTES);
    CHECK_EQUAL(sitm_get_entry(r, 0).id, id); /* the response names its entry */
    return sitm_get_entry(r, 0).verdict;
}

static void figure8(void)
{
    /* T1, T2, T3 = IDs 1, 2, 3. Edge A: T1 reads x, T2 writes it (T1 -> T2);
     * B: T2 reads y, T3 writes it; C: T3 reads z, T1 writes it: T1 would
     * take CTS 34 > its PDTS 11, so T1's write is the loop. */
    bench b;
    open_bench(&b, (const char *const[]){NULL});
    begin(&b, 0xe);
    CHECK_EQUAL(access1(&b, 1, 0x100, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 2, 0x100, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(access1(&b, 2, 0x200, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x200, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x300, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 1, 0x300, SITM_WRITE), SITM_LOOP);
    /* Later entries of the looping transaction get its verdict at once. */
    CHECK_EQUAL(access1(&b, 1, 0x400, SITM_READ), SITM_LOOP);
    /* Order A,C,B, with C found the other way round (T3 reads z after the
     * running T1 wrote it: still T3 -> T1): T3 gets PDTS 5, and at B T3
     * would take CTS 23 > 5. */
    end(&b, 0xe, 0);
    begin(&b, 0xe);
    CHECK_EQUAL(access1(&b, 1, 0x100, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 2, 0x100, SITM_WRITE), SITM_OK); /* A */
    CHECK_EQUAL(access1(&b, 1, 0x300, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x300, SITM_READ), SITM_OK);  /* C: T3 reads what running T1 writes */
    CHECK_EQUAL(access1(&b, 2, 0x200, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x200, SITM_WRITE), SITM_LOOP); /* B: 23 > T3's PDTS 5 */
    /* Single writer: T2 owns 0x100; T1 writing it is the new writer and loses. */
    CHECK_EQUAL(access1(&b, 1, 0x100, SITM_WRITE), SITM_SINGLE_WRITER);
    /* T2 commits: its entries go, and a new transaction in slot 1 may write. */
    end(&b, 0x4, 0x4);
    end(&b, 0xa, 0);
    begin(&b, 0x2);
    CHECK_EQUAL(access1(&b, 1, 0x100, SITM_WRITE), SITM_OK);
    end(&b, 0x2, 0x2);
    CHECK(b.fake.failure[0] == '\0');
    close_bench(&b);
}

/* SI_BEGIN / SI_END of lanes of the warp whose lane 0 has ID `base` (another
 * core's warp slot: sitm.h TRANSACTION IDS). */
static void begin_base(bench *b, uint32_t base, uint64_t lanes)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_BEGIN, SITM_CC_ADDRESS, 0);
    m.transaction_id = base;
    m.lane_mask = lanes;
    m.core = (int)(base / 64);
    CHECK(await(b, post(b, &m)) != NULL);
}

static void end_base(bench *b, uint32_t base, uint64_t lanes, uint64_t committed)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_END, SITM_CC_ADDRESS, 0);
    m.transaction_id = base;
    m.lane_mask = lanes;
    m.aux = committed;
    m.core = (int)(base / 64);
    CHECK(await(b, post(b, &m)) != NULL);
}

/* Which transaction a verdict aborts (sitm.h WHICH TRANSACTION A VERDICT
 * ABORTS): always the one whose entry it answers, ISCA'17 section 5 ("the
 * loop detection results will be sent back to the transaction that made the
 * access"; "if there already exists a writer, the new writer is aborted").
 * T1 runs on another core (ID 65: core 1's warp slot, lane 1); T2 and T3
 * (IDs 2, 3) on core 0. Figure 8 in the order A, B, C, with C found by T3's
 * READ of the word the running T1 wrote: post-dating T3 -> T1 breaks T1's
 * invariant (T3's PDTS 33 >= T1's PDTS 11: Figure 7 line 17 declares the
 * loop at the successor T1), yet the verdict is T3's, the access that would
 * close the loop; T1 is left running and commits. */
static void requester_is_the_victim(void)
{
    bench b;
    open_bench(&b, (const char *const[]){NULL});
    begin_base(&b, 64, 0x2); /* T1 = 65, core 1 */
    begin(&b, 0xc);          /* T2 = 2, T3 = 3, core 0 */
    CHECK_EQUAL(access1(&b, 65, 0x100, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 2, 0x100, SITM_WRITE), SITM_OK); /* A: T1 -> T2 */
    CHECK_EQUAL(access1(&b, 2, 0x200, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x200, SITM_WRITE), SITM_OK); /* B: T2 -> T3 */
    CHECK_EQUAL(access1(&b, 65, 0x300, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x300, SITM_READ), SITM_LOOP); /* C: the reader T3 closes it */
    CHECK_EQUAL(access1(&b, 3, 0x500, SITM_READ), SITM_LOOP); /* T3 stays doomed */
    /* T1 (the successor whose timestamps broke) is not doomed: no message
     * left the block for core 1, and its next accesses pass. */
    size_t sent = b.fake.sent_count;
    CHECK_EQUAL(access1(&b, 65, 0x400, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(b.fake.sent_count, sent + 1); /* only that access's response */
    /* Single writer: T1, with the larger ID, owns 0x400; T2 (smaller ID)
     * writing it is the new writer and loses; T1 keeps the word (a read of
     * it by T1 passes: T1 is not doomed by the refusal either). */
    CHECK_EQUAL(access1(&b, 2, 0x400, SITM_WRITE), SITM_SINGLE_WRITER);
    CHECK_EQUAL(access1(&b, 65, 0x700, SITM_READ), SITM_OK);
    end(&b, 0xc, 0);
    end_base(&b, 64, 0x2, 0x2);
    /* "Otherwise, the writer with a larger ID will abort": writers arriving
     * together are a warp's lanes in one message, entries in lane order
     * (tmu_sitm.c), so the lowest ID claims the word and the larger lose. */
    begin(&b, 0x70);
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_ACCESS, SITM_CC_ADDRESS, 0);
    for (uint16_t id = 4; id <= 6; id++) sitm_append_entry(&m, 0x600, id, SITM_WRITE);
    const simtx_msg *r = await(&b, post(&b, &m));
    CHECK(r != NULL);
    if (r) {
        CHECK_EQUAL(sitm_entry_count(r), 3u);
        CHECK_EQUAL(sitm_get_entry(r, 0).verdict, SITM_OK);
        CHECK_EQUAL(sitm_get_entry(r, 1).verdict, SITM_SINGLE_WRITER);
        CHECK_EQUAL(sitm_get_entry(r, 2).verdict, SITM_SINGLE_WRITER);
    }
    end(&b, 0x70, 0x10);
    CHECK(b.fake.failure[0] == '\0');
    close_bench(&b);
}

static void overflow_waits(void)
{
    /* A 2-entry Writer Table: the third word is refused; a new transaction
     * waits until the writer ends, then starts. */
    bench b;
    open_bench(&b, (const char *const[]){"wt_entries=2", "wt_ways=2", NULL});
    begin(&b, 0x1);
    CHECK_EQUAL(access1(&b, 0, 0x10, SITM_WRITE), SITM_OK);
    CHECK_EQUAL(access1(&b, 0, 0x11, SITM_WRITE), SITM_OK);
    begin(&b, 0x2);
    CHECK_EQUAL(access1(&b, 1, 0x12, SITM_WRITE), SITM_OVERFLOW);
    uint64_t held = begin_waits(&b, 0x4);
    CHECK(await(&b, held) == NULL); /* held: the table is overflowed */
    end(&b, 0x2, 0);                /* the aborted one frees nothing */
    CHECK(await(&b, held) == NULL);
    end(&b, 0x1, 0x1);              /* the writer commits: entries freed */
    b.seen = 0;
    const simtx_msg *r = await(&b, held); /* the waiting transaction is admitted (alone) */
    CHECK(r != NULL);
    if (r) CHECK_EQUAL(r->aux, 0x4);
    /* Another begin meanwhile waits: the admitted one runs alone first. */
    r = await(&b, begin_async(&b, 0x8));
    CHECK(r != NULL);
    if (r) CHECK_EQUAL(r->aux, SITM_BEGIN_WAIT);
    r = await(&b, begin_form_async(&b, 0x4, SITM_BEGIN_ADMITTED)); /* with its snapshot now: it starts */
    CHECK(r != NULL);
    if (r) CHECK_EQUAL(r->aux, 0x4);
    CHECK_EQUAL(access1(&b, 2, 0x12, SITM_WRITE), SITM_OK); /* and progresses */
    end(&b, 0x4, 0x4);
    close_bench(&b);
}

static void timestamp_overflow(void)
{
    /* 5-bit timestamps (max 31), delta 10: a chain T0 -> T1 -> T2 -> T3
     * overflows at its third edge; every running transaction is doomed, new
     * ones wait until they all ended, then the table restarts. */
    bench b;
    open_bench(&b, (const char *const[]){"timestamp_bits=5", NULL});
    begin(&b, 0x1f);
    CHECK_EQUAL(access1(&b, 0, 0x100, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 1, 0x100, SITM_WRITE), SITM_OK); /* T0 (1,11) T1 12 */
    CHECK_EQUAL(access1(&b, 1, 0x200, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 2, 0x200, SITM_WRITE), SITM_OK); /* T1 (12,22) T2 23 */
    CHECK_EQUAL(access1(&b, 2, 0x300, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x300, SITM_WRITE), SITM_OVERFLOW); /* T2's PDTS would be 33 */
    CHECK_EQUAL(access1(&b, 4, 0x400, SITM_READ), SITM_OVERFLOW);  /* doomed too */
    uint64_t held = begin_waits(&b, 0x20);
    CHECK(await(&b, held) == NULL);
    end(&b, 0x0f, 0);
    CHECK(await(&b, held) == NULL); /* T4 still runs */
    end(&b, 0x10, 0x10);            /* a doomed transaction that accessed nothing more may commit */
    b.seen = 0;
    const simtx_msg *r = await(&b, held);
    CHECK(r != NULL);
    if (r) CHECK_EQUAL(r->aux, 0x20);
    CHECK(await(&b, begin_form_async(&b, 0x20, SITM_BEGIN_ADMITTED)) != NULL);
    CHECK_EQUAL(access1(&b, 5, 0x100, SITM_READ), SITM_OK);
    close_bench(&b);
}

/* Snapshots and commit IDs (sitm.h 1 and 4): a transaction whose snapshot
 * holds commit IDs up to 2 starts only once IDs 1 and 2 ended here (ID 2's
 * writer still held its Writer Table entry, and the reader sees its
 * write). A read of a word that a commit after the snapshot overwrote
 * orders the reader before that commit: writing a word the commit read then
 * closes a loop; with the commit in its snapshot the same accesses are fine. */
static void snapshot_points(void)
{
    bench b;
    open_bench(&b, (const char *const[]){NULL});
    begin(&b, 0x3);                                          /* IDs 0 and 1, snapshot 0 */
    CHECK_EQUAL(access1(&b, 0, 0x100, SITM_WRITE), SITM_OK); /* they take commit IDs 2 and 1 */
    CHECK_EQUAL(access1(&b, 1, 0x200, SITM_WRITE), SITM_OK);
    uint64_t held = begin_at_async(&b, 0x4, 2); /* ID 2 sees commit IDs up to 2 */
    CHECK(await(&b, held) == NULL);
    end_with(&b, 0x1, 0x1, (const uint32_t[]){2});
    CHECK(await(&b, held) == NULL); /* commit ID 1 has not ended */
    end_with(&b, 0x2, 0x2, (const uint32_t[]){0, 1});
    b.seen = 0;
    CHECK(await(&b, held) != NULL);
    CHECK_EQUAL(access1(&b, 2, 0x100, SITM_READ), SITM_OK); /* commit 2's write, in its snapshot */
    CHECK(await(&b, begin_at_async(&b, 0x8, 2)) != NULL);   /* ID 3 */
    CHECK_EQUAL(access1(&b, 2, 0x600, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x600, SITM_WRITE), SITM_OK); /* ID 2 -> ID 3: ID 2 (2, 12), ID 3 CTS 13 */
    CHECK_EQUAL(access1(&b, 3, 0x500, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 3, 0x300, SITM_WRITE), SITM_OK);
    end_with(&b, 0x8, 0x8, (const uint32_t[]){0, 0, 0, 3}); /* commit ID 3, at 13 */
    CHECK_EQUAL(access1(&b, 2, 0x300, SITM_READ), SITM_OK);   /* the version before commit 3: ID 2 precedes it */
    CHECK_EQUAL(access1(&b, 2, 0x500, SITM_WRITE), SITM_LOOP); /* and would follow it (commit 3 read 0x500) */
    end(&b, 0x4, 0);
    CHECK(await(&b, begin_at_async(&b, 0x10, 3)) != NULL);   /* ID 4 sees commit 3 */
    CHECK_EQUAL(access1(&b, 4, 0x300, SITM_READ), SITM_OK);
    CHECK_EQUAL(access1(&b, 4, 0x500, SITM_WRITE), SITM_OK);
    end_with(&b, 0x10, 0x10, (const uint32_t[]){0, 0, 0, 0, 4});
    /* ID 5 begins after commit 3 ended but on the snapshot before it (a
     * snapshot is acquired before SI_BEGIN is served): its read of 0x300 is
     * stale all the same, and it starts above commit 3: a loop. */
    CHECK(await(&b, begin_at_async(&b, 0x20, 2)) != NULL);
    CHECK_EQUAL(access1(&b, 5, 0x300, SITM_READ), SITM_LOOP);
    end(&b, 0x20, 0);
    CHECK(b.fake.failure[0] == '\0');
    close_bench(&b);
}

static void passes_through(void)
{
    bench b;
    open_bench(&b, (const char *const[]){NULL});
    simtx_msg read;
    simtx_msg_init(&read, SIMTX_OP_READ, 0x1000, 4);
    read.id = 7;
    CHECK_EQUAL(sitm_cc_block_info.accept(b.core, 0, &read, 0), SIMTX_ACCEPTED);
    for (unsigned i = 0; i < 5; i++) sitm_cc_block_info.cycle(b.core, b.now++);
    CHECK_EQUAL(b.fake.sent_count, 1);
    CHECK_EQUAL(b.fake.sent_port[0], 1);
    CHECK_EQUAL(b.fake.sent[0].address, 0x1000);
    simtx_msg response = b.fake.sent[0];
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    CHECK_EQUAL(sitm_cc_block_info.accept(b.core, 1, &response, b.now), SIMTX_ACCEPTED);
    for (unsigned i = 0; i < 5; i++) sitm_cc_block_info.cycle(b.core, b.now++);
    CHECK_EQUAL(b.fake.sent_count, 2);
    CHECK_EQUAL(b.fake.sent_port[1], 0);
    CHECK(b.fake.sent[1].is_response && b.fake.sent[1].id == 7);
    close_bench(&b);
}

static uint8_t access_at(bench *b, unsigned id, uint32_t word, uint8_t kind, uint32_t snapshot, uint64_t *cycles)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_SI_ACCESS, SITM_CC_ADDRESS, 0);
    m.aux = snapshot;
    sitm_append_entry(&m, word, (uint16_t)id, kind);
    uint64_t start = b->now;
    const simtx_msg *r = await(b, post(b, &m));
    CHECK(r != NULL);
    if (cycles) *cycles = b->now - start;
    return r ? sitm_get_entry(r, 0).verdict : 255;
}

static void oracle(void)
{
    bench b;
    open_bench(&b, (const char *const[]){"loops=exact", "latency=0", NULL});
    begin(&b, 0xe);
    /* Figure 8, order A,B,C by accesses: the third edge closes the loop. */
    uint64_t cycles = 99;
    CHECK_EQUAL(access_at(&b, 1, 0x100, SITM_READ, 1, &cycles), SITM_OK);
    CHECK(cycles <= 1); /* served in no time: answered in the cycle it arrived */
    CHECK_EQUAL(access_at(&b, 2, 0x100, SITM_WRITE, 1, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 2, 0x200, SITM_READ, 1, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 3, 0x200, SITM_WRITE, 1, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 3, 0x300, SITM_READ, 1, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 1, 0x300, SITM_WRITE, 1, NULL), SITM_LOOP);
    CHECK_EQUAL(access_at(&b, 1, 0x400, SITM_READ, 1, NULL), SITM_LOOP); /* its later entries */
    /* No single-writer rule: a second running writer of 0x100 is accepted. */
    CHECK_EQUAL(access_at(&b, 3, 0x100, SITM_WRITE, 1, NULL), SITM_OK);
    end(&b, 0xe, 0);
    /* T1 writes x and commits with ID 5 (SI_END: data, the lanes' IDs).
     * T3 from snapshot 5 (without ID 5) reads y; T2 from snapshot 6 (with
     * it) reads x (T1 -> T2) and writes y (T3 -> T2); T3's write of x
     * loses to T1's commit (first committer wins: left out), no loop. */
    begin(&b, 0x2);
    CHECK_EQUAL(access_at(&b, 1, 0x500, SITM_WRITE, 5, NULL), SITM_OK);
    uint32_t cids[32] = {0};
    cids[1] = 5;
    end_with(&b, 0x2, 0x2, cids);
    begin(&b, 0xc);
    CHECK_EQUAL(access_at(&b, 3, 0x600, SITM_READ, 5, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 2, 0x500, SITM_READ, 6, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 2, 0x600, SITM_WRITE, 6, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 3, 0x500, SITM_WRITE, 5, NULL), SITM_OK);
    cids[1] = 0;
    cids[2] = 6;
    end_with(&b, 0xc, 0x4, cids);
    /* The commit IDs come in data only (sitm.h 4): T1 reads y, writes x and
     * commits with ID 7; T3 from snapshot 7 (without it) reads x (T3 -> T1)
     * and writes y (T1 -> T3): write skew, a loop. Read from aux's upper
     * half (the old, derived form, gone), T1 had no ID and looked
     * committed before the snapshot: no loop. */
    begin(&b, 0x2);
    CHECK_EQUAL(access_at(&b, 1, 0x700, SITM_READ, 7, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 1, 0x800, SITM_WRITE, 7, NULL), SITM_OK);
    cids[2] = 0;
    cids[1] = 7;
    end_with(&b, 0x2, 0x2, cids);
    begin(&b, 0x8);
    CHECK_EQUAL(access_at(&b, 3, 0x800, SITM_READ, 7, NULL), SITM_OK);
    CHECK_EQUAL(access_at(&b, 3, 0x700, SITM_WRITE, 7, NULL), SITM_LOOP);
    end(&b, 0x8, 0);
    CHECK(b.fake.failure[0] == '\0');
    close_bench(&b);
}

int main(void)
{
    figure8();
    requester_is_the_victim();
    oracle();
    overflow_waits();
    timestamp_overflow();
    snapshot_points();
    passes_through();
    return simtx_test_summary();
}
