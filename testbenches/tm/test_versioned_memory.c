/* The versioned-memory blocks chained as in a partition, without SystemC:
 * vit -> bulk_copy -> dram_controller (the L2's whole-row ROW_COPY is
 * test_cache_engine's). Checks, with the dram_controller's default map (2 KB
 * rows, 16 banks, 64 rows a subarray: the next row of a bank is +0x8000):
 *   - copy timing (SI-TM Table 2): one row by RowClone FPM in 2 tRAS + tRP
 *     = 64 DRAM cycles; a version of 16 rows, one per bank, in less than
 *     half of 16 serial copies and no faster than tFAW allows;
 *   - the slice's life cycle through messages: a write waits for the first
 *     copy, lands in the S2 version and answers with the address it used;
 *     a snapshot reads its pinned version, others the newest state; a
 *     versions' footprint address is relocated; a CLOSE starts the next
 *     copy, whose data DRAM holds;
 *   - two versions with a reader pinning the old one: the writer waits,
 *     the release lets the copy and the write go on (no deadlock). */
#include "bulk_copy.h"
#include "dram_controller.h"
#include "fake_env.h"
#include "test_support.h"
#include "version.h"
#include "vit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCKS 3
#define MAX_ANSWERS 256

typedef struct chain chain;
typedef struct link {
    chain *chain;
    unsigned index;
} link;

struct chain {
    const simtx_block_info *info[MAX_BLOCKS];
    void *core[MAX_BLOCKS];
    simtx_env env[MAX_BLOCKS];
    link links[MAX_BLOCKS];
    unsigned count;
    bool blocked[MAX_BLOCKS][2];
    simtx_observer *observer;
    uint64_t now;
    simtx_msg answers[MAX_ANSWERS];
    uint64_t answer_cycles[MAX_ANSWERS];
    unsigned answer_count;
    char failure[512];
};

/* Port 0 of every block faces up (responses go up), port 1 down. */
static bool chain_send(void *context, unsigned port, const simtx_msg *msg)
{
    link *l = context;
    chain *c = l->chain;
    if (port == 0 && l->index == 0) {
        if (c->answer_count < MAX_ANSWERS) {
            c->answer_cycles[c->answer_count] = c->now;
            c->answers[c->answer_count++] = *msg;
        }
        return true;
    }
    unsigned to = port == 0 ? l->index - 1 : l->index + 1, to_port = port == 0 ? 1 : 0;
    if (c->info[to]->accept(c->core[to], to_port, msg, c->now) == SIMTX_BUSY) {
        c->blocked[l->index][port] = true;
        return false;
    }
    return true;
}

static void chain_fail(void *context, const char *message)
{
    link *l = context;
    snprintf(l->chain->failure, sizeof l->chain->failure, "%s", message);
}

static void chain_add(chain *c, const simtx_block_info *info, const char *name, const char *const *settings)
{
    unsigned i = c->count++;
    c->info[i] = info;
    c->links[i] = (link){c, i};
    c->env[i] = (simtx_env){.context = &c->links[i], .instance_name = name, .seed = 1, .send = chain_send, .fail = chain_fail,
                            .observer = c->observer, .probes_traced = true};
    void *params = calloc(1, info->params->struct_size);
    fake_params(info, params, settings);
    simtx_observer_set_prefix(c->observer, name);
    char error[256] = "";
    c->core[i] = info->create(params, &c->env[i], error, sizeof error);
    if (!c->core[i]) fprintf(stderr, "%s: %s\n", name, error);
    CHECK(c->core[i] != NULL);
    simtx_params_release(info->params, params);
    free(params);
}

static void chain_init(chain *c)
{
    memset(c, 0, sizeof *c);
    c->observer = simtx_observer_create();
}

static void chain_release(chain *c)
{
    for (unsigned i = 0; i < c->count; i++) c->info[i]->destroy(c->core[i]);
    simtx_observer_destroy(c->observer);
}

static void chain_run(chain *c, uint64_t cycles)
{
    for (uint64_t end = c->now + cycles; c->now < end; c->now++)
        for (unsigned i = 0; i < c->count; i++) {
            for (unsigned p = 0; p < 2; p++)
                if (c->blocked[i][p] && c->info[i]->port_free) {
                    c->blocked[i][p] = false;
                    c->info[i]->port_free(c->core[i], p);
                }
            c->info[i]->cycle(c->core[i], c->now);
        }
}

static void chain_inject(chain *c, const simtx_msg *msg) { CHECK_EQUAL(c->info[0]->accept(c->core[0], 0, msg, c->now), SIMTX_ACCEPTED); }

static const simtx_msg *chain_answer(const chain *c, uint64_t id, uint64_t *cycle)
{
    for (unsigned i = 0; i < c->answer_count; i++)
        if (c->answers[i].id == id) {
            if (cycle) *cycle = c->answer_cycles[i];
            return &c->answers[i];
        }
    return NULL;
}

static uint64_t stat(const chain *c, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(c->observer, name);
    CHECK(e != NULL);
    return e ? *(const uint64_t *)e->value : 0;
}

static const char *const dram_settings[] = {"check_timing=true", NULL};

static void fill_rows(chain *c, unsigned dram, uint64_t base, uint64_t size, uint8_t seed)
{
    uint8_t data[256];
    for (uint64_t a = base; a < base + size; a += sizeof data) {
        for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(seed + a / 64 + i);
        int forward = -1;
        c->info[dram]->debug_access(c->core[dram], true, a, data, sizeof data, &forward);
    }
}

static bool same_data(chain *c, unsigned dram, uint64_t a, uint64_t b, uint64_t size)
{
    dram_controller *d = c->core[dram];
    uint8_t x[256], y[256];
    for (uint64_t off = 0; off < size; off += sizeof x) {
        size_t n = size - off < sizeof x ? (size_t)(size - off) : sizeof x;
        dram_controller_peek(d, a + off, x, n);
        dram_controller_peek(d, b + off, y, n);
        if (memcmp(x, y, n)) return false;
    }
    return true;
}

static simtx_msg request(simtx_op op, uint64_t address, uint32_t size, uint64_t aux, uint64_t id)
{
    simtx_msg m;
    simtx_msg_init(&m, op, address, size);
    m.aux = aux;
    m.id = id;
    return m;
}

/* One row: Fast Parallel Mode, 2 tRAS + tRP from the first command. */
static void copy_one_row(void)
{
    chain c;
    chain_init(&c);
    chain_add(&c, &bulk_copy_block_info, "copy", (const char *const[]){"row_bytes=2048", NULL});
    chain_add(&c, &dram_controller_block_info, "dram", dram_settings);
    fill_rows(&c, 1, 0, 0x2000, 3);
    simtx_msg m = request(SIMTX_OP_VERSION_COPY, 0, 128, 0x8000, 7);
    chain_inject(&c, &m);
    chain_run(&c, 400);
    uint64_t done = 0;
    const simtx_msg *answer = chain_answer(&c, 7, &done);
    CHECK(answer != NULL);
    CHECK(c.failure[0] == '\0');
    if (c.failure[0]) fprintf(stderr, "%s\n", c.failure);
    CHECK_EQUAL(stat(&c, "dram.row_copies_fpm"), 1);
    CHECK_EQUAL(stat(&c, "copy.row_copies"), 1);
    CHECK_EQUAL(stat(&c, "copy.bytes_copied"), 2048);
    uint64_t first = 0, finished = 0;
    dram_controller_last_copy_cycles(c.core[1], &first, &finished);
    CHECK_EQUAL(finished - first, 64); /* 2 tRAS + tRP = 26 + 26 + 12: 69.3 ns, Table 2's 68 ns */
    CHECK(done <= 64 + 8);            /* the unit adds a few cycles of its own */
    for (uint64_t k = 0; k < 16; k++) /* the row: 128 bytes every 0x200 (bank group bits 7-8 between) */
        CHECK(same_data(&c, 1, k * 0x200, 0x8000 + k * 0x200, 128));
    CHECK(!same_data(&c, 1, 0x80, 0x8080, 128)); /* bank group 1's row was not copied */
    chain_release(&c);
}

/* 16 rows, one per bank: the copies overlap, bounded by tRRD/tFAW (each FPM
 * copy activates twice) and copy_queue_depth. */
static void copy_over_banks(void)
{
    chain c;
    chain_init(&c);
    chain_add(&c, &bulk_copy_block_info, "copy", (const char *const[]){"row_bytes=2048", NULL});
    chain_add(&c, &dram_controller_block_info, "dram", dram_settings);
    fill_rows(&c, 1, 0, 0x8000, 9);
    simtx_msg m = request(SIMTX_OP_VERSION_COPY, 0, 0x8000, 0x8000, 8);
    chain_inject(&c, &m);
    chain_run(&c, 2000);
    uint64_t done = 0;
    CHECK(chain_answer(&c, 8, &done) != NULL);
    CHECK(c.failure[0] == '\0');
    CHECK_EQUAL(stat(&c, "dram.row_copies_fpm"), 16);
    CHECK_EQUAL(stat(&c, "copy.row_copies"), 16);
    CHECK(done < 16 * 64 / 2);     /* faster than half of 16 serial copies */
    CHECK(done >= 7 * 22 + 26 + 12); /* 32 activates: 7 tFAW windows before the last, then tRAS + tRP */
    CHECK(same_data(&c, 1, 0, 0x8000, 0x8000));
    printf("16-row version copied in %llu DRAM cycles (serial: %u)\n", (unsigned long long)done, 16 * 64);
    chain_release(&c);
}

static const char *const vit_settings[] = {"version_stride=0x8000", "region_list=0x0:0x8000:0x400000", NULL};

static void write_word(chain *c, uint64_t address, uint32_t value, uint64_t id)
{
    simtx_msg m = request(SIMTX_OP_WRITE, address, 4, 0, id);
    memcpy(m.data, &value, 4);
    chain_inject(c, &m);
}

static uint32_t answered_word(const chain *c, uint64_t id)
{
    const simtx_msg *a = chain_answer(c, id, NULL);
    CHECK(a != NULL);
    uint32_t value = 0;
    if (a) memcpy(&value, a->data, 4);
    return value;
}

static void slice_life_cycle(void)
{
    chain c;
    chain_init(&c);
    chain_add(&c, &vit_block_info, "vit", vit_settings);
    chain_add(&c, &bulk_copy_block_info, "copy", (const char *const[]){"row_bytes=2048", NULL});
    chain_add(&c, &dram_controller_block_info, "dram", dram_settings);
    write_word(&c, 0x100, 0x11111111, 1); /* waits for version 1's copy */
    chain_run(&c, 20);
    CHECK(chain_answer(&c, 1, NULL) == NULL);
    CHECK_EQUAL(stat(&c, "vit.held_accesses"), 1);
    chain_run(&c, 1000);
    const simtx_msg *a = chain_answer(&c, 1, NULL);
    CHECK(a != NULL);
    if (a) CHECK_EQUAL(a->address, 0x100); /* the address the requester used */
    CHECK_EQUAL(stat(&c, "vit.copies_done"), 1);
    uint32_t word = 0;
    dram_controller_peek(c.core[2], 0x8100, &word, 4); /* version 1, the S2 */
    CHECK_EQUAL(word, 0x11111111);

    simtx_msg m = request(SIMTX_OP_VERSION_ACQUIRE, 0x0, 0, VERSION_NEWEST, 2);
    chain_inject(&c, &m);
    chain_run(&c, 5);
    const simtx_msg *acquired = chain_answer(&c, 2, NULL);
    CHECK(acquired != NULL);
    uint64_t handle = acquired ? acquired->aux : 0;
    CHECK_EQUAL(handle, version_handle(0, 0));
    m = request(SIMTX_OP_VERSION_CLOSE, VERSION_ALL_REGIONS, 0, 5, 3);
    chain_inject(&c, &m);
    chain_run(&c, 5);
    CHECK(chain_answer(&c, 3, NULL) != NULL);
    CHECK_EQUAL(stat(&c, "vit.versions_created"), 2);

    m = request(SIMTX_OP_READ, 0x100, 4, handle, 4); /* the pinned snapshot: version 0 */
    m.flags = SIMTX_FLAG_SNAPSHOT;
    m.transaction_id = (uint32_t)version_handle_timestamp(handle);
    chain_inject(&c, &m);
    m = request(SIMTX_OP_READ, 0x100, 4, 0, 5); /* the newest state */
    chain_inject(&c, &m);
    write_word(&c, 0x8100, 0x22222222, 6); /* version 1's footprint, not versioned: relocated */
    chain_run(&c, 1000);
    CHECK_EQUAL(answered_word(&c, 4), 0);
    CHECK_EQUAL(answered_word(&c, 5), 0x11111111);
    CHECK(chain_answer(&c, 6, NULL) != NULL);
    dram_controller_peek(c.core[2], 0x400100, &word, 4);
    CHECK_EQUAL(word, 0x22222222);
    dram_controller_peek(c.core[2], 0x8100, &word, 4);
    CHECK_EQUAL(word, 0x11111111); /* version 1 untouched by the relocated write */
    CHECK_EQUAL(stat(&c, "vit.relocations"), 1);
    CHECK_EQUAL(stat(&c, "vit.copies_done"), 2); /* version 2 copied from version 1 */
    dram_controller_peek(c.core[2], 0x10100, &word, 4);
    CHECK_EQUAL(word, 0x11111111);
    CHECK_EQUAL(stat(&c, "dram.row_copies_fpm"), 32);
    CHECK_EQUAL(stat(&c, "dram.row_copies_controller"), 0);
    CHECK(c.failure[0] == '\0');
    if (c.failure[0]) fprintf(stderr, "%s\n", c.failure);
    chain_release(&c);
}

static void out_of_versions_stalls(void)
{
    chain c;
    chain_init(&c);
    chain_add(&c, &vit_block_info, "vit", (const char *const[]){"versions=2", "version_stride=0x8000", "region_list=0x0:0x8000:0x400000", NULL});
    chain_add(&c, &bulk_copy_block_info, "copy", (const char *const[]){"row_bytes=2048", NULL});
    chain_add(&c, &dram_controller_block_info, "dram", dram_settings);
    simtx_msg m = request(SIMTX_OP_VERSION_ACQUIRE, VERSION_ALL_REGIONS, 0, VERSION_NEWEST, 1);
    chain_inject(&c, &m);
    write_word(&c, 0x40, 1, 2);
    chain_run(&c, 1000);
    m = request(SIMTX_OP_VERSION_CLOSE, VERSION_ALL_REGIONS, 0, 1, 3);
    chain_inject(&c, &m);
    chain_run(&c, 5);
    write_word(&c, 0x40, 2, 4); /* no free slot: version 0 is read */
    chain_run(&c, 1000);
    CHECK(chain_answer(&c, 4, NULL) == NULL);
    CHECK_EQUAL(stat(&c, "vit.waits_for_slot"), 1);
    CHECK(stat(&c, "vit.hold_cycles") > 500);
    m = request(SIMTX_OP_VERSION_RELEASE, VERSION_ALL_REGIONS, 0, version_handle(0, 0), 5);
    chain_inject(&c, &m);
    chain_run(&c, 1000);
    CHECK(chain_answer(&c, 5, NULL) != NULL);
    CHECK(chain_answer(&c, 4, NULL) != NULL);
    uint32_t word = 0;
    dram_controller_peek(c.core[2], 0x40, &word, 4); /* slot 0 recycled, copied from slot 1, written */
    CHECK_EQUAL(word, 2);
    dram_controller_peek(c.core[2], 0x8040, &word, 4);
    CHECK_EQUAL(word, 1);
    CHECK_EQUAL(stat(&c, "vit.versions_recycled"), 1);
    CHECK(c.failure[0] == '\0');
    chain_release(&c);
}

/* VERSION_REGISTER at run time: a second region is taken; one meeting the
 * first's versions is refused, failing the run with the allocation named. */
static void register_at_run_time(void)
{
    chain c;
    chain_init(&c);
    chain_add(&c, &vit_block_info, "vit", vit_settings);
    chain_add(&c, &bulk_copy_block_info, "copy", (const char *const[]){"row_bytes=2048", NULL});
    chain_add(&c, &dram_controller_block_info, "dram", dram_settings);
    simtx_msg m = request(SIMTX_OP_VERSION_REGISTER, 0x800000, 0x2000, 0xC00000, 1);
    chain_inject(&c, &m);
    chain_run(&c, 5);
    const simtx_msg *a = chain_answer(&c, 1, NULL);
    CHECK(a != NULL && a->status == SIMTX_STATUS_OK);
    CHECK(c.failure[0] == '\0');
    m = request(SIMTX_OP_VERSION_REGISTER, 0x10000, 0x2000, 0xD00000, 2); /* on version 2 of the first region */
    chain_inject(&c, &m);
    chain_run(&c, 5);
    a = chain_answer(&c, 2, NULL);
    CHECK(a != NULL && a->status == SIMTX_STATUS_COMMAND_ERROR);
    CHECK_CONTAINS(c.failure, "versioned allocation 0x10000 (8192 bytes");
    CHECK_EQUAL(stat(&c, "vit.regions_registered"), 2);
    CHECK_EQUAL(stat(&c, "vit.regions_refused"), 1);
    chain_release(&c);
}

int main(void)
{
    copy_one_row();
    copy_over_banks();
    slice_life_cycle();
    out_of_versions_stalls();
    register_at_run_time();
    return simtx_test_summary();
}
