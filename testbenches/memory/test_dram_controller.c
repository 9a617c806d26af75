/* The dram_controller core driven from plain C: configuration errors,
 * address mapping and subarrays, read/write data and latency, FR-FCFS
 * order, backpressure, refresh, and RowClone copies (data and latency),
 * all with the timing checker on. */
#include "dram_test_env.h"
#include "sparse_memory.h"
#include "test_support.h"

static const dram_timing *timing_of(const dram_controller_params *p, dram_timing *t)
{
    *t = (dram_timing){.rcd = (unsigned)p->t_rcd, .rp = (unsigned)p->t_rp, .ras = (unsigned)p->t_ras,
                       .cl = (unsigned)p->t_cl, .wl = (unsigned)p->t_wl, .ccd_l = (unsigned)p->t_ccd_l,
                       .rrd = (unsigned)p->t_rrd, .wr = (unsigned)p->t_wr, .rtp = (unsigned)p->t_rtp,
                       .burst = (unsigned)(p->burst_length / p->transfers_per_clock)};
    return t;
}

/* Default parameters, for expected values derived from them; the caller
 * releases their strings with simtx_params_release. */
static dram_controller_params defaults(void)
{
    dram_controller_params p;
    char error[256];
    simtx_params_init(dram_controller_block_info.params, &p, error, sizeof error);
    return p;
}

static void expect_create_error(const char *const *overrides, const char *part)
{
    test_env t;
    char error[512] = "";
    void *core = test_create(&t, &dram_controller_block_info, overrides, error, sizeof error);
    CHECK(core == NULL);
    if (!CHECK_CONTAINS(error, part)) fprintf(stderr, "  for %s=%s\n", overrides[0], overrides[1]);
    if (core) test_destroy(&t);
}

static void test_configuration_errors(void)
{
    expect_create_error((const char *const[]){"address_map", "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSQ", NULL}, "'address_map': unexpected character 'Q'");
    expect_create_error((const char *const[]){"address_map", "RRRRRRRRRRR.BB.CCCC.GG.CC.SSSSS", NULL}, "'address_map' has 11 row bits");
    expect_create_error((const char *const[]){"address_map", "RRRRRRRRRRRR.BB.CCCC.CC.GG.SSSSS", NULL}, "lowest 7 bits must be C or S");
    expect_create_error((const char *const[]){"address_map", "RRRRRRRRRRRR.BB.CCCCC.GG.C.SSSSS", NULL}, "lowest 7 bits must be C or S");
    expect_create_error((const char *const[]){"address_map", "RRRRRRRRRRRR.BBB.CCCC.GG.CC.SSSSS", NULL}, "bank bits");
    expect_create_error((const char *const[]){"address_map", "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXRRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSS", NULL}, "more than 64");
    expect_create_error((const char *const[]){"rows", "3000", NULL}, "'rows' (3000) must be a power of two");
    expect_create_error((const char *const[]){"subarrays", "8192", NULL}, "'subarrays' (8192) exceeds 'rows'");
    expect_create_error((const char *const[]){"bank_groups", "3", NULL}, "'banks' (16) is not a multiple");
    expect_create_error((const char *const[]){"tRC", "30", NULL}, "'tRC' (30) must be at least tRAS + tRP");
    expect_create_error((const char *const[]){"tRAS", "10", NULL}, "'tRAS' (10) must be at least tRCD");
    expect_create_error((const char *const[]){"tCCDS", "1", NULL}, "'tCCDS' (1) is shorter than a burst");
    expect_create_error((const char *const[]){"tCCDL", "1", "tCCDS", "2", NULL}, "'tCCDL' (1) must be at least tCCDS");
    expect_create_error((const char *const[]){"tRTW", "5", NULL}, "'tRTW' (5) is too short");
    expect_create_error((const char *const[]){"tREFI", "90", NULL}, "'tREFI' (90) must exceed tRFC");
    expect_create_error((const char *const[]){"burst_length", "6", NULL}, "'burst_length' (6) is not a multiple");
}

static void test_address_map(void)
{
    dram_controller_params p = defaults();
    dram_address_map map;
    char error[256];
    CHECK(dram_controller_params_address_map(&p, &map, error, sizeof error));
    /* Decode and compose are inverses over many addresses. */
    uint64_t state = 12345;
    bool round_trip = true;
    for (unsigned i = 0; i < 1000; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t address = (state >> 20) & ((1ull << 27) - 1);
        dram_location l = dram_address_decode(&map, address);
        round_trip &= dram_address_compose(&map, &l, 0) == address && l.bank < 16 && l.row < 4096 && l.column < 64;
    }
    CHECK(round_trip);
    /* The default layout: 128 bytes in one row and bank, then the bank group. */
    dram_location l = dram_address_decode(&map, 0x7f);
    CHECK_EQUAL(l.bank, 0);
    CHECK_EQUAL(l.column, 3);
    CHECK_EQUAL(l.byte, 31);
    CHECK_EQUAL(dram_address_decode(&map, 0x80).group, 1);
    CHECK_EQUAL(dram_address_decode(&map, 0x80).bank, 4);
    CHECK_EQUAL(dram_address_decode(&map, 1u << 15).row, 1);
    CHECK(!dram_address_in_range(&map, 1ull << 27));
    /* Subarrays: 64 rows each; versions of a row go to rows of its subarray. */
    dram_location a = {.bank = 5, .row = 64 * 7 + 3}, b = a, c = a, d = a;
    b.row = 64 * 7 + 63;
    c.row = 64 * 8;
    d.bank = 6;
    uint64_t aa = dram_address_compose(&map, &a, 0);
    CHECK(dram_same_subarray(&map, aa, dram_address_compose(&map, &b, 0)));
    CHECK(!dram_same_subarray(&map, aa, dram_address_compose(&map, &c, 0)));
    CHECK(!dram_same_subarray(&map, aa, dram_address_compose(&map, &d, 0)));
    uint64_t version = dram_subarray_row_address(&map, aa + 0x40, 9);
    CHECK(dram_same_subarray(&map, aa, version));
    CHECK_EQUAL(dram_address_decode(&map, version).row, 64 * 7 + 9);
    CHECK_EQUAL(dram_address_decode(&map, version).column, 0);
    /* A scrambled map decodes as reading its string bit by bit. */
    const char *scrambled = "RRR.B.RRRRR.G.RRRR.C.B.CC.G.X.CCC.SSSSS";
    dram_address_map scrambled_map;
    CHECK(dram_address_map_parse(scrambled, &map.geometry, 128, &scrambled_map, error, sizeof error));
    bool bitwise = true;
    for (unsigned i = 0; i < 1000; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t address = (state >> 20) & ((1ull << 28) - 1);
        unsigned fields[128] = {0}, bit = 28;
        for (const char *p = scrambled; *p; p++)
            if (*p != '.') fields[(unsigned char)*p] = fields[(unsigned char)*p] << 1 | (unsigned)(address >> --bit & 1);
        dram_location l = dram_address_decode(&scrambled_map, address);
        bitwise &= l.row == fields['R'] && l.group == fields['G'] && l.bank == fields['G'] * 4 + fields['B'] &&
                   l.column == fields['C'] && l.byte == fields['S'] &&
                   dram_address_compose(&scrambled_map, &l, address) == address;
    }
    CHECK(bitwise);
    /* Undecoded (channel) bits must match too. */
    dram_geometry g = map.geometry;
    dram_address_map with_channel;
    CHECK(dram_address_map_parse("X.RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSS", &g, 128, &with_channel, error, sizeof error));
    CHECK(!dram_same_subarray(&with_channel, 0, 1ull << 27));
    CHECK(dram_same_subarray(&with_channel, 1ull << 27, (1ull << 27) | (1u << 15)));
    simtx_params_release(dram_controller_block_info.params, &p);
}

static uint64_t address_of(test_env *t, unsigned bank, unsigned row, unsigned column)
{
    dram_location l = {.bank = bank, .row = row, .column = column};
    return dram_address_compose(dram_controller_address_map(t->core), &l, 0);
}

static simtx_msg request(simtx_op op, uint64_t address, uint32_t size, uint64_t id)
{
    simtx_msg m;
    simtx_msg_init(&m, op, address, size);
    m.id = id;
    for (uint32_t i = 0; i < size && i < SIMTX_MSG_MAX_DATA; i++) m.data[i] = (uint8_t)(id * 31 + i);
    return m;
}

static const char *const checked[] = {"check_timing", "true", NULL};

static void test_read_write_latency(void)
{
    test_env t;
    char error[256];
    if (!CHECK(test_create(&t, &dram_controller_block_info, checked, error, sizeof error))) return;
    dram_controller_params p = defaults();
    dram_timing tm;
    timing_of(&p, &tm);
    uint64_t a = address_of(&t, 2, 100, 8);
    simtx_msg write = request(SIMTX_OP_WRITE, a, 64, 1);
    CHECK(test_offer(&t, &write));
    CHECK(test_run_for_responses(&t, 1, 1000));
    /* Closed bank: seen at the next cycle, ACT at 1, WR at tRCD, second burst
     * tCCDL later, data done tWL + burst after. */
    CHECK_EQUAL(t.response_cycles[0], 1 + tm.rcd + tm.ccd_l + tm.wl + tm.burst);
    test_run_until(&t, 200);
    simtx_msg read = request(SIMTX_OP_READ, a, 64, 2);
    uint64_t start = t.now;
    CHECK(test_offer(&t, &read));
    CHECK(test_run_for_responses(&t, 2, 2000));
    CHECK_EQUAL(t.responses[1].id, 2);
    CHECK(memcmp(t.responses[1].data, write.data, 64) == 0);
    CHECK(t.responses[1].is_response && t.responses[1].status == SIMTX_STATUS_OK);
    /* Row hit (open page): seen at the next cycle, RD at once, second burst
     * tCCDL later, then tCL + burst. */
    CHECK_EQUAL(t.response_cycles[1] - start, 1 + tm.ccd_l + tm.cl + tm.burst);
    /* 128-byte read of another row of the same bank: PRE, ACT, four bursts. */
    test_run_until(&t, 400);
    simtx_msg conflict = request(SIMTX_OP_READ, address_of(&t, 2, 101, 4), 128, 3);
    start = t.now;
    CHECK(test_offer(&t, &conflict));
    CHECK(test_run_for_responses(&t, 3, 3000));
    CHECK_EQUAL(t.response_cycles[2] - start, 1 + tm.rp + tm.rcd + 3 * tm.ccd_l + tm.cl + tm.burst);
    dram_controller_params q = defaults();
    (void)q;
    /* Byte enables: a partial write keeps the other bytes. */
    simtx_msg partial = request(SIMTX_OP_WRITE, a, 64, 4);
    partial.byte_enable[0] = 0xff; /* bytes 0..7 only */
    CHECK(test_offer(&t, &partial));
    simtx_msg reread = request(SIMTX_OP_READ, a, 64, 5);
    CHECK(test_offer(&t, &reread));
    CHECK(test_run_for_responses(&t, 5, 5000));
    CHECK(memcmp(t.responses[4].data, partial.data, 8) == 0);
    CHECK(memcmp(t.responses[4].data + 8, write.data + 8, 56) == 0);
    /* Errors: past the map, across a 128-byte block, an atomic. */
    simtx_msg outside = request(SIMTX_OP_READ, 1ull << 27, 64, 6);
    simtx_msg straddle = request(SIMTX_OP_READ, 0x60, 64, 7);
    simtx_msg atomic = request(SIMTX_OP_ATOMIC, 0, 4, 8);
    CHECK(test_offer(&t, &outside) && test_offer(&t, &straddle) && test_offer(&t, &atomic));
    CHECK(test_run_for_responses(&t, 8, 6000));
    CHECK_EQUAL(t.responses[5].status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(t.responses[6].status, SIMTX_STATUS_ADDRESS_ERROR);
    CHECK_EQUAL(t.responses[7].status, SIMTX_STATUS_COMMAND_ERROR);
    CHECK_EQUAL(t.failures, 0);
    test_destroy(&t);
    simtx_params_release(dram_controller_block_info.params, &p);
    simtx_params_release(dram_controller_block_info.params, &q);
}

static void test_fr_fcfs_and_backpressure(void)
{
    test_env t;
    char error[256];
    const char *const overrides[] = {"check_timing", "true", "queue_depth", "4", NULL};
    if (!CHECK(test_create(&t, &dram_controller_block_info, overrides, error, sizeof error))) return;
    /* A opens row 1; B needs row 2 of the same bank; C hits row 1: C overtakes B. */
    simtx_msg a = request(SIMTX_OP_READ, address_of(&t, 0, 1, 0), 64, 1);
    simtx_msg b = request(SIMTX_OP_READ, address_of(&t, 0, 2, 0), 64, 2);
    simtx_msg c = request(SIMTX_OP_READ, address_of(&t, 0, 1, 8), 64, 3);
    simtx_msg d = request(SIMTX_OP_READ, address_of(&t, 1, 1, 8), 64, 4);
    simtx_msg e = request(SIMTX_OP_READ, address_of(&t, 3, 1, 8), 64, 5);
    CHECK(test_offer(&t, &a) && test_offer(&t, &b) && test_offer(&t, &c) && test_offer(&t, &d));
    CHECK(!test_offer(&t, &e)); /* the queue of 4 is full */
    CHECK(t.next_wake != SIMTX_NEVER); /* refusing, it has work pending */
    CHECK(test_run_for_responses(&t, 4, 2000));
    unsigned position[6] = {0};
    for (unsigned i = 0; i < 4; i++) position[t.responses[i].id] = i;
    CHECK(position[3] < position[2]);
    CHECK(position[1] < position[2]);
    CHECK(test_offer(&t, &e));
    /* A write then a read of the same bytes, behind other traffic: the read
     * sees the write (requests touching the same bytes keep their order). */
    simtx_msg w = request(SIMTX_OP_WRITE, address_of(&t, 5, 9, 2), 64, 6);
    simtx_msg r = request(SIMTX_OP_READ, address_of(&t, 5, 9, 2), 64, 7);
    CHECK(test_offer(&t, &w) && test_offer(&t, &r));
    CHECK(test_run_for_responses(&t, 7, 5000));
    CHECK_EQUAL(t.responses[6].id, 7);
    CHECK(memcmp(t.responses[6].data, w.data, 64) == 0);
    /* Return-queue backpressure: the port refuses, nothing is lost. */
    t.refuse_responses = true;
    for (unsigned i = 0; i < 4; i++) {
        simtx_msg m = request(SIMTX_OP_READ, address_of(&t, 7, 3, i * 4), 64, 10 + i);
        CHECK(test_offer(&t, &m));
    }
    test_run_until(&t, t.now + 500);
    CHECK_EQUAL(t.response_count, 7);
    t.refuse_responses = false;
    dram_controller_block_info.port_free(t.core, 0);
    t.next_wake = t.now + 1;
    CHECK(test_run_for_responses(&t, 11, 10000));
    CHECK_EQUAL(t.failures, 0);
    test_destroy(&t);
}

typedef struct refresh_log {
    uint64_t cycles[256];
    unsigned count;
} refresh_log;

static void log_refresh(void *context, const dram_command *command)
{
    refresh_log *log = context;
    if (command->kind == DRAM_CMD_REF && log->count < 256) log->cycles[log->count++] = command->cycle;
}

static void test_refresh(void)
{
    test_env t;
    char error[256];
    if (!CHECK(test_create(&t, &dram_controller_block_info, checked, error, sizeof error))) return;
    refresh_log log = {{0}, 0};
    dram_controller_set_command_listener(t.core, log_refresh, &log);
    dram_controller_params p = defaults();
    uint64_t refi = (uint64_t)p.t_refi;
    /* Traffic across 5 refresh intervals, then a long idle gap, then more. */
    uint64_t state = 7;
    unsigned sent = 0;
    while (t.now < 5 * refi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        simtx_msg m = request((state >> 40) & 1 ? SIMTX_OP_WRITE : SIMTX_OP_READ, ((state >> 20) % (1u << 27)) & ~63ull, 64, sent);
        if (test_offer(&t, &m)) sent++;
        test_run_until(&t, t.now + 3);
    }
    CHECK(test_run_for_responses(&t, sent, t.now + 100000));
    uint64_t wakes_before = t.now;
    test_run_until(&t, 40 * refi); /* asleep: no cycles run */
    CHECK(t.next_wake == SIMTX_NEVER);
    (void)wakes_before;
    simtx_msg late = request(SIMTX_OP_READ, 0x1000, 64, 99999);
    CHECK(test_offer(&t, &late));
    CHECK(test_run_for_responses(&t, sent + 1, t.now + 1000));
    /* One REF per tREFI, each soon after it was due, including the ones owed
     * while asleep (issued at their due cycles). */
    CHECK_EQUAL(log.count, 40);
    bool on_time = true;
    for (unsigned i = 0; i < log.count; i++)
        on_time &= log.cycles[i] >= (i + 1) * refi && log.cycles[i] < (i + 1) * refi + 200;
    CHECK(on_time);
    /* A run may end long after the controller fell asleep: it owes the
     * refreshes since then, and the checker's end-of-run verdict must see
     * them (not a missing REF). */
    test_run_until(&t, 60 * refi);
    CHECK(t.next_wake == SIMTX_NEVER);
    dram_controller_block_info.finish(t.core, t.now);
    CHECK_EQUAL(log.count, 59); /* the one due at the last cycle itself is not owed yet */
    CHECK_EQUAL(t.failures, 0);
    if (t.failures) fprintf(stderr, "  %s\n", t.last_failure);
    test_destroy(&t);
    simtx_params_release(dram_controller_block_info.params, &p);
}

/* Writes a recognisable pattern into a whole row through debug access. */
static void fill_row(test_env *t, unsigned bank, unsigned row, uint8_t seed)
{
    for (unsigned column = 0; column < 64; column++) {
        uint8_t burst[32];
        for (unsigned i = 0; i < 32; i++) burst[i] = (uint8_t)(seed + column * 7 + i);
        int forward;
        dram_controller_block_info.debug_access(t->core, true, address_of(t, bank, row, column), burst, 32, &forward);
    }
}

static bool row_has(test_env *t, unsigned bank, unsigned row, uint8_t seed)
{
    for (unsigned column = 0; column < 64; column++) {
        uint8_t burst[32];
        dram_controller_peek(t->core, address_of(t, bank, row, column), burst, 32);
        for (unsigned i = 0; i < 32; i++)
            if (burst[i] != (uint8_t)(seed + column * 7 + i)) return false;
    }
    return true;
}

/* One copy on an idle controller; returns its latency from its first command
 * to completion, and checks the data moved. */
static uint64_t copy_latency(const char *mode, unsigned source_bank, unsigned source_row, unsigned target_bank,
                             unsigned target_row, const char *expected_stat)
{
    test_env t;
    char error[256];
    const char *const overrides[] = {"check_timing", "true", "row_copy_mode", mode, NULL};
    if (!CHECK(test_create(&t, &dram_controller_block_info, overrides, error, sizeof error))) return 0;
    fill_row(&t, source_bank, source_row, 11);
    fill_row(&t, target_bank, target_row, 200);
    simtx_msg copy = request(SIMTX_OP_ROW_COPY, address_of(&t, source_bank, source_row, 0), 2048, 1);
    copy.aux = address_of(&t, target_bank, target_row, 0);
    CHECK(test_offer(&t, &copy));
    CHECK(test_run_for_responses(&t, 1, 10000));
    CHECK_EQUAL(t.responses[0].status, SIMTX_STATUS_OK);
    CHECK_EQUAL(t.responses[0].op, SIMTX_OP_ROW_COPY);
    CHECK(row_has(&t, target_bank, target_row, 11));
    CHECK(row_has(&t, source_bank, source_row, 11));
    uint64_t first, done;
    dram_controller_last_copy_cycles(t.core, &first, &done);
    CHECK_EQUAL(t.response_cycles[0], done);
    CHECK_EQUAL(t.failures, 0);
    (void)expected_stat;
    test_destroy(&t);
    return done - first;
}

static void test_row_copies(void)
{
    dram_controller_params p = defaults();
    dram_timing tm;
    timing_of(&p, &tm);
    unsigned bursts = 2048 / 32;
    /* FPM: rows 64 and 100 of bank 3 share subarray 1: 2 tRAS + tRP. */
    uint64_t fpm = copy_latency("auto", 3, 64, 3, 100, "row_copies_fpm");
    CHECK_EQUAL(fpm, 2 * tm.ras + tm.rp);
    /* PSM between banks 0 and 5 (other group): both ACTs, a TRANSFER per
     * burst at tCCDL, write recovery on the target, PRE. */
    uint64_t psm = copy_latency("auto", 0, 10, 5, 20, "row_copies_psm");
    CHECK_EQUAL(psm, tm.rrd + tm.rcd + (bursts - 1) * tm.ccd_l + tm.wl + tm.burst + tm.wr + tm.rp);
    /* Through the controller: all reads, then all writes. */
    uint64_t controller = copy_latency("controller", 0, 10, 5, 20, "row_copies_controller");
    CHECK(controller > psm);
    CHECK(psm > fpm);
    /* Same bank, different subarray: through the controller. */
    uint64_t other_subarray = copy_latency("auto", 3, 10, 3, 700, "row_copies_controller");
    CHECK(other_subarray > controller);

    /* Copies keep arrival order with reads and writes around them. */
    test_env t;
    char error[256];
    if (!CHECK(test_create(&t, &dram_controller_block_info, checked, error, sizeof error))) return;
    fill_row(&t, 3, 64, 11);
    simtx_msg before = request(SIMTX_OP_WRITE, address_of(&t, 3, 64, 5), 32, 1);
    simtx_msg copy = request(SIMTX_OP_ROW_COPY, address_of(&t, 3, 64, 0), 0, 2);
    copy.aux = address_of(&t, 3, 65, 0);
    simtx_msg after = request(SIMTX_OP_READ, address_of(&t, 3, 65, 5), 32, 3);
    simtx_msg unaligned = request(SIMTX_OP_ROW_COPY, address_of(&t, 3, 64, 1), 2048, 4);
    unaligned.aux = address_of(&t, 3, 66, 0);
    simtx_msg too_far = request(SIMTX_OP_ROW_COPY, address_of(&t, 3, 64, 0), 2048, 5);
    too_far.aux = 1ull << 30;
    CHECK(test_offer(&t, &before) && test_offer(&t, &copy) && test_offer(&t, &after));
    CHECK(test_offer(&t, &unaligned) && test_offer(&t, &too_far));
    CHECK(test_run_for_responses(&t, 5, 10000));
    for (unsigned i = 0; i < 5; i++) {
        const simtx_msg *m = &t.responses[i];
        if (m->id == 3) CHECK(memcmp(m->data, before.data, 32) == 0);
        if (m->id == 4) CHECK_EQUAL(m->status, SIMTX_STATUS_COMMAND_ERROR);
        if (m->id == 5) CHECK_EQUAL(m->status, SIMTX_STATUS_ADDRESS_ERROR);
        if (m->id == 2) CHECK_EQUAL(m->status, SIMTX_STATUS_OK);
    }
    CHECK(dram_controller_same_subarray(t.core, copy.address, copy.aux));
    CHECK_EQUAL(t.failures, 0);
    test_destroy(&t);
    simtx_params_release(dram_controller_block_info.params, &p);
}

/* Random mixed traffic with copies on few rows (so that requests touching
 * the same bytes meet in the queue): every read returns what an in-order
 * memory would (a shadow updated at arrival), and the checker finds nothing. */
static void test_random_traffic(void)
{
    test_env t;
    char error[256];
    if (!CHECK(test_create(&t, &dram_controller_block_info, checked, error, sizeof error))) return;
    enum { REQUESTS = 6000 };
    static uint8_t expected[REQUESTS][64];
    sparse_memory *shadow = sparse_memory_create();
    uint64_t state = 99;
    unsigned sent = 0, copies = 0, rows_touched = 8;
    while (sent < REQUESTS) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned bank = (unsigned)(state >> 33) % 4, row = (unsigned)(state >> 40) % rows_touched;
        unsigned column = (unsigned)(state >> 50) % 4 * 2;
        simtx_msg m;
        if ((state >> 20) % 97 == 0) {
            m = request(SIMTX_OP_ROW_COPY, address_of(&t, bank, row, 0), 2048, sent);
            m.aux = address_of(&t, (state >> 24) % 2 ? bank : (bank + 1) % 4, (row + 1) % rows_touched, 0);
        } else {
            m = request((state >> 30) % 2 ? SIMTX_OP_WRITE : SIMTX_OP_READ, address_of(&t, bank, row, column), 64, sent);
        }
        if (!test_offer(&t, &m)) {
            test_run_until(&t, t.now + 1);
            continue;
        }
        if (m.op == SIMTX_OP_WRITE) sparse_memory_write(shadow, m.address, m.data, 64);
        else if (m.op == SIMTX_OP_READ) sparse_memory_read(shadow, m.address, expected[sent], 64);
        else {
            const dram_address_map *map = dram_controller_address_map(t.core);
            dram_location from = dram_address_decode(map, m.address), to = dram_address_decode(map, m.aux);
            for (unsigned c = 0; c < 64; c++) {
                uint8_t burst[32];
                from.column = to.column = c;
                sparse_memory_read(shadow, dram_address_compose(map, &from, 0), burst, 32);
                sparse_memory_write(shadow, dram_address_compose(map, &to, 0), burst, 32);
            }
            copies++;
        }
        sent++;
        test_run_until(&t, t.now + (state >> 60) % 3);
    }
    CHECK(test_run_for_responses(&t, REQUESTS, t.now + 1000000));
    unsigned wrong = 0, reads = 0;
    for (unsigned i = 0; i < t.response_count; i++) {
        const simtx_msg *m = &t.responses[i];
        if (m->op != SIMTX_OP_READ) continue;
        reads++;
        wrong += memcmp(m->data, expected[m->id], 64) != 0;
    }
    CHECK(reads > 2000);
    CHECK_EQUAL(wrong, 0);
    CHECK(copies > 20);
    CHECK_EQUAL(t.failures, 0);
    if (t.failures) fprintf(stderr, "  %s\n", t.last_failure);
    sparse_memory_destroy(shadow);
    test_destroy(&t);
}

/* A stream of row hits keeps a conflicting older request waiting under
 * classic FR-FCFS (the row is not closed under its hits) for as long as the
 * stream lasts; with starvation_cap = 4 the older request is served after at
 * most four of those hits. Returns the conflicting request's latency. */
static uint64_t conflict_latency_under_hit_stream(const char *cap)
{
    test_env t;
    char error[256];
    const char *const overrides[] = {"check_timing", "true", "starvation_cap", cap, "refresh", "false", NULL};
    if (!CHECK(test_create(&t, &dram_controller_block_info, overrides, error, sizeof error))) return 0;
    simtx_msg opener = request(SIMTX_OP_READ, address_of(&t, 0, 1, 0), 64, 0);
    CHECK(test_offer(&t, &opener));
    CHECK(test_run_for_responses(&t, 1, 1000)); /* bank 0 holds row 1 open */
    simtx_msg conflict = request(SIMTX_OP_READ, address_of(&t, 0, 2, 0), 64, 1);
    uint64_t start = t.now;
    CHECK(test_offer(&t, &conflict));
    uint64_t done = 0;
    for (unsigned id = 2; t.now < start + 3000; id++) { /* a hit to row 1 every 4 cycles while the queue takes it */
        simtx_msg hit = request(SIMTX_OP_READ, address_of(&t, 0, 1, (id % 32) * 2), 64, id);
        while (!test_offer(&t, &hit)) test_run_until(&t, t.now + 1);
        test_run_until(&t, t.now + 4);
        for (unsigned i = 0; i < t.response_count && !done; i++)
            if (t.responses[i].id == 1) done = t.response_cycles[i];
    }
    CHECK_EQUAL(t.failures, 0);
    test_destroy(&t);
    return done ? done - start : UINT64_MAX;
}

static void test_starvation_cap(void)
{
    CHECK(conflict_latency_under_hit_stream("0") == UINT64_MAX); /* classic FR-FCFS: starved throughout */
    uint64_t capped = conflict_latency_under_hit_stream("4");
    /* Four hits (two bursts each, tCCDL apart), then PRE, ACT, its two bursts and tCL + burst. */
    CHECK(capped < 120);
}

/* The controller's decisions must not depend on when it is woken: run once
 * only at the cycles it asks for (plus the cycle after each new offer or
 * freed port, as the shim does) and once at every cycle, with the same offers
 * and response-port stalls, and both must issue the same commands at the same
 * cycles and answer at the same cycles. As in the shim, a refused offer is
 * offered again right after each cycle the controller runs; taking it then
 * wakes nothing here (the shim's retry schedules the next cycle), so the
 * controller must ask for the next cycle itself. */
typedef struct command_log {
    dram_command *commands;
    unsigned count, capacity;
} command_log;

static void log_command(void *context, const dram_command *command)
{
    command_log *log = context;
    if (log->count < log->capacity) log->commands[log->count] = *command;
    log->count++;
}

static void run_wake_schedule(const char *const *overrides, bool every_cycle, command_log *log, test_env *t)
{
    char error[256];
    if (!CHECK(test_create(t, &dram_controller_block_info, overrides, error, sizeof error))) return;
    dram_controller_set_command_listener(t->core, log_command, log);
    uint64_t state = 7;
    unsigned sent = 0;
    bool have_pending = false, refused = false;
    simtx_msg pending;
    for (uint64_t now = 0; now < 60000; now++) {
        t->now = now;
        if (t->next_wake != SIMTX_NEVER && (every_cycle || t->next_wake <= now)) {
            t->next_wake = t->info->cycle(t->core, now);
            if (refused && t->info->accept(t->core, 0, &pending, now) == SIMTX_ACCEPTED) have_pending = refused = false;
        }
        if (now % 5000 == 1000) t->refuse_responses = true; /* the port stalls for a while */
        if (now % 5000 == 1300) {
            t->refuse_responses = false;
            t->info->port_free(t->core, 0);
            if (t->next_wake > now + 1) t->next_wake = now + 1;
        }
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        bool busy_phase = now % 8000 < 5000; /* bursts of traffic, then idle stretches */
        if (!have_pending && busy_phase && (state >> 61) < 5) {
            unsigned bank = (unsigned)(state >> 33) % 6, row = (unsigned)(state >> 40) % 6;
            unsigned column = (unsigned)(state >> 50) % 8 * 2;
            if ((state >> 20) % 151 == 0) {
                pending = request(SIMTX_OP_ROW_COPY, address_of(t, bank, row, 0), 2048, sent);
                pending.aux = address_of(t, (state >> 24) % 2 ? bank : (bank + 1) % 6, (row + 1) % 6, 0);
            } else {
                pending = request((state >> 30) % 3 ? SIMTX_OP_READ : SIMTX_OP_WRITE, address_of(t, bank, row, column),
                                  (state >> 28) % 4 ? 64 : 128, sent);
            }
            have_pending = true;
            sent++;
        }
        if (have_pending && !refused) {
            if (t->next_wake > now + 1) t->next_wake = now + 1;
            refused = t->info->accept(t->core, 0, &pending, now) != SIMTX_ACCEPTED;
            have_pending = refused;
        }
    }
}

static void test_wake_independence(void)
{
    static const char *const configs[][9] = {
        {"check_timing", "true", NULL},
        {"check_timing", "true", "queue_depth", "4", "return_queue_depth", "2", NULL},
        {"check_timing", "true", "row_copy_mode", "controller", "tREFI", "900", NULL},
    };
    for (unsigned k = 0; k < sizeof configs / sizeof configs[0]; k++) {
        static dram_command on_wake_commands[200000], every_cycle_commands[200000];
        command_log on_wake = {on_wake_commands, 200000, 0}, every = {every_cycle_commands, 200000, 0};
        static test_env a, b;
        run_wake_schedule(configs[k], false, &on_wake, &a);
        run_wake_schedule(configs[k], true, &every, &b);
        CHECK(on_wake.count > 10000);
        CHECK_EQUAL(on_wake.count, every.count);
        unsigned n = on_wake.count < every.count ? on_wake.count : every.count, first = n;
        for (unsigned i = 0; i < n && i < on_wake.capacity && first == n; i++) {
            const dram_command *x = &on_wake.commands[i], *y = &every.commands[i];
            if (x->kind != y->kind || x->cycle != y->cycle || x->bank != y->bank || x->row != y->row || x->column != y->column)
                first = i;
        }
        if (!CHECK_EQUAL(first, n))
            fprintf(stderr, "  config %u: command %u: %s bank %u at %llu on wake-up, %s bank %u at %llu every cycle\n", k,
                    first, dram_command_name(on_wake.commands[first].kind), on_wake.commands[first].bank,
                    (unsigned long long)on_wake.commands[first].cycle, dram_command_name(every.commands[first].kind),
                    every.commands[first].bank, (unsigned long long)every.commands[first].cycle);
        CHECK_EQUAL(a.response_count, b.response_count);
        unsigned late = 0;
        for (unsigned i = 0; i < a.response_count && i < b.response_count; i++)
            late += a.response_cycles[i] != b.response_cycles[i] || a.responses[i].id != b.responses[i].id;
        CHECK_EQUAL(late, 0);
        CHECK_EQUAL(a.failures + b.failures, 0);
        if (a.failures) fprintf(stderr, "  %s\n", a.last_failure);
        test_destroy(&a);
        test_destroy(&b);
    }
}

int main(void)
{
    test_configuration_errors();
    test_address_map();
    test_read_write_latency();
    test_fr_fcfs_and_backpressure();
    test_refresh();
    test_row_copies();
    test_random_traffic();
    test_starvation_cap();
    test_wake_independence();
    return simtx_test_summary();
}
