/* Unit tests of the cache engine shared by l1_cache and l2_cache, driven
 * cycle by cycle without SystemC: hits, misses, sector fills, MSHR merging,
 * MSHR-full stalls and backpressure, LRU order, dirty writebacks, write
 * policies, clean/flush, fences, debug accesses, atomics (forwarded, or
 * executed on the line and compared with the memory block's) and bad
 * configurations. */
#include <stdio.h>
#include <string.h>

#include "cache_harness.h"
#include "partition_interleave.h"
#include "l1_cache.h"
#include "l2_cache.h"
#include "memory.h"
#include "test_support.h"

/* The default harness geometry: 4 sets x 2 ways, so lines 0x200 apart share
 * a set. */
#define SET_STRIDE 0x200

static void fill_pattern(uint8_t *data, size_t size, uint8_t seed)
{
    for (size_t i = 0; i < size; i++) data[i] = (uint8_t)(seed + i * 3);
}

static void test_bad_configurations(void)
{
    char error[256];
    harness h;
    cache_config config = harness_config(true);
    config.size = 0;
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'size'");
    config = harness_config(true);
    config.size = 1000; /* not a multiple of 128 x 2 */
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'size'");
    CHECK_CONTAINS(error, "multiple of line_size x associativity");
    config = harness_config(true);
    config.sectors = 3; /* does not divide 128 */
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'sectors'");
    config = harness_config(true);
    config.line_size = 256; /* more than a message carries */
    config.size = 4 * 2 * 256;
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'line_size'");
    config = harness_config(true);
    config.associativity = 0;
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'associativity'");
    config = harness_config(true);
    config.mshr_entries = 0;
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'mshr_entries'");
    config = harness_config(true);
    config.response_queue_depth = 2; /* less than mshr_max_merge = 4 */
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'response_queue_depth'");
    config = harness_config(true);
    config.partition_count = 6;
    config.partition_interleave = 200;
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'partition_interleave'");
    config = harness_config(false);
    config.execute_atomics = true; /* a write-through cache holds no dirty data */
    CHECK(!harness_init(&h, &config, error, sizeof error));
    CHECK_CONTAINS(error, "'atomics'");
    config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_release(&h);

    /* The blocks refuse through create() with the same parameter names. */
    l2_cache_params l2;
    char message[256] = "";
    simtx_params_init(l2_cache_block_info.params, &l2, message, sizeof message);
    l2.size = 100 * 1000; /* not a multiple of 128 x 8 */
    simtx_env env = {0};
    CHECK(l2_cache_block_info.create(&l2, &env, message, sizeof message) == NULL);
    CHECK_CONTAINS(message, "'size'");
    l2.size = 0;
    CHECK(l2_cache_block_info.create(&l2, &env, message, sizeof message) == NULL);
    CHECK_CONTAINS(message, "'size'");
    l1_cache_params l1;
    simtx_params_init(l1_cache_block_info.params, &l1, message, sizeof message);
    l1.sectors = 5;
    CHECK(l1_cache_block_info.create(&l1, &env, message, sizeof message) == NULL);
    CHECK_CONTAINS(message, "'sectors'");
    simtx_params_release(l1_cache_block_info.params, &l1);
    simtx_params_release(l2_cache_block_info.params, &l2);
}

/* A read miss fetches only the sectors it needs; a second read hits after
 * hit_latency without going down; another sector of the line is a sector
 * miss. */
static void test_read_miss_hit_and_sectors(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t pattern[128];
    fill_pattern(pattern, 128, 7);
    sparse_memory_write(h.memory, 0x1000, pattern, 128);

    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x1000, 64, 1, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 3);
    CHECK_EQUAL(h.down_count, 1);
    CHECK_EQUAL(h.down[0].op, SIMTX_OP_READ);
    CHECK_EQUAL(h.down[0].address, 0x1000);
    CHECK_EQUAL(h.down[0].size, 64); /* sectors 0 and 1 of 32 bytes */
    CHECK(h.down[0].handle == NULL);
    harness_settle(&h, 100);
    const simtx_msg *first = harness_response(&h, 1);
    CHECK(first && first->is_response && first->status == SIMTX_STATUS_OK);
    CHECK(first && memcmp(first->data, pattern, 64) == 0);
    uint32_t valid = 0, dirty = 0;
    CHECK(cache_line_state(h.cache, 0x1000, &valid, &dirty));
    CHECK_EQUAL(valid, 0x3);
    CHECK_EQUAL(dirty, 0);

    uint64_t before = h.now;
    size_t down_before = h.down_count;
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x1020, 32, 2, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 10);
    const simtx_msg *hit = harness_response(&h, 2);
    CHECK(hit && memcmp(hit->data, pattern + 32, 32) == 0);
    CHECK_EQUAL(h.down_count, down_before); /* nothing went down */
    /* Looked up the cycle after arrival, answered hit_latency (3) later. */
    CHECK_EQUAL(h.up_cycle[h.up_count - 1], before + 1 + 3);
    CHECK_EQUAL(cache_get_stats(h.cache)->hits, 1);

    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x1060, 32, 3, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 3);
    CHECK_EQUAL(h.down_count, down_before + 1);
    CHECK_EQUAL(h.down[h.down_count - 1].address, 0x1060);
    CHECK_EQUAL(h.down[h.down_count - 1].size, 32);
    harness_settle(&h, 100);
    const simtx_msg *sector = harness_response(&h, 3);
    CHECK(sector && memcmp(sector->data, pattern + 96, 32) == 0);
    CHECK_EQUAL(cache_get_stats(h.cache)->sector_misses, 1);
    CHECK_EQUAL(cache_get_stats(h.cache)->misses, 1);
    CHECK(cache_line_state(h.cache, 0x1000, &valid, NULL));
    CHECK_EQUAL(valid, 0xB);
    CHECK(h.failure[0] == '\0');
    harness_release(&h);
}

/* Reads of a line in flight merge into its MSHR: one fill, every read
 * answered, extra sectors fetched by a second fill of the same MSHR. */
static void test_mshr_merge(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t pattern[128];
    fill_pattern(pattern, 128, 50);
    sparse_memory_write(h.memory, 0x2000, pattern, 128);
    harness_request(&h, SIMTX_OP_READ, 0x2000, 32, 1, NULL);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_READ, 0x2000, 32, 2, NULL);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_READ, 0x2040, 32, 3, NULL); /* another sector */
    harness_run(&h, 3);
    CHECK_EQUAL(cache_mshrs_in_use(h.cache), 1);
    CHECK_EQUAL(h.down_count, 2);
    CHECK_EQUAL(h.down[0].size, 32);
    CHECK_EQUAL(h.down[1].address, 0x2040);
    CHECK_EQUAL(h.up_count, 0); /* nobody answered before the fills */
    harness_serve(&h, 1);
    harness_run(&h, 3);
    CHECK_EQUAL(h.up_count, 0); /* the MSHR waits for its last fill */
    harness_settle(&h, 100);
    CHECK_EQUAL(h.up_count, 3);
    CHECK(harness_response(&h, 2) && memcmp(harness_response(&h, 2)->data, pattern, 32) == 0);
    CHECK(harness_response(&h, 3) && memcmp(harness_response(&h, 3)->data, pattern + 64, 32) == 0);
    CHECK_EQUAL(cache_get_stats(h.cache)->hit_reserved, 2);
    CHECK_EQUAL(cache_mshrs_in_use(h.cache), 0);
    harness_release(&h);
}

/* With every MSHR busy a miss stalls at the head of the input queue; the full
 * queue refuses more requests until a fill frees an MSHR. */
static void test_mshr_full_backpressure(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    config.mshr_entries = 2;
    CHECK(harness_init(&h, &config, error, sizeof error));
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0000, 32, 1, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 1);
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0080, 32, 2, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 1);
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0100, 32, 3, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 1);
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0180, 32, 4, NULL), SIMTX_ACCEPTED);
    harness_run(&h, 2);
    CHECK_EQUAL(cache_mshrs_in_use(h.cache), 2);
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0200, 32, 5, NULL), SIMTX_BUSY); /* queue of 2 is full */
    CHECK(cache_get_stats(h.cache)->reservation_fails_mshr > 0);
    CHECK_EQUAL(h.down_count, 2);
    harness_serve(&h, 1); /* one MSHR frees */
    harness_run(&h, 3);
    CHECK_EQUAL(h.down_count, 3);
    CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0200, 32, 5, NULL), SIMTX_ACCEPTED);
    harness_settle(&h, 200);
    CHECK_EQUAL(h.up_count, 5);
    harness_release(&h);
}

/* LRU: with two ways, touching A after B makes B the victim of C. */
static void test_lru_order(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint64_t a = 0x0, b = SET_STRIDE, c = 2 * SET_STRIDE;
    harness_request(&h, SIMTX_OP_READ, a, 128, 1, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, b, 128, 2, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, a, 128, 3, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, c, 128, 4, NULL);
    harness_settle(&h, 100);
    CHECK(cache_line_state(h.cache, a, NULL, NULL));
    CHECK(!cache_line_state(h.cache, b, NULL, NULL));
    CHECK(cache_line_state(h.cache, c, NULL, NULL));
    CHECK_EQUAL(cache_get_stats(h.cache)->evictions, 1);
    /* Now A is older than C: D evicts A. */
    harness_request(&h, SIMTX_OP_READ, 3 * SET_STRIDE, 128, 5, NULL);
    harness_settle(&h, 100);
    CHECK(!cache_line_state(h.cache, a, NULL, NULL));
    CHECK(cache_line_state(h.cache, c, NULL, NULL));
    harness_release(&h);
}

/* Write-back write-allocate: whole-sector writes allocate without a fetch
 * and make the line dirty; the eviction writes back only the dirty sectors
 * with the right bytes enabled. */
static void test_write_back_and_eviction(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[128];
    fill_pattern(data, 128, 99);
    harness_request(&h, SIMTX_OP_WRITE, 0x40, 32, 1, data); /* sector 2, whole */
    harness_settle(&h, 100);
    CHECK_EQUAL(h.down_count, 0); /* no fetch */
    CHECK(harness_response(&h, 1) != NULL);
    uint32_t valid = 0, dirty = 0;
    CHECK(cache_line_state(h.cache, 0x0, &valid, &dirty));
    CHECK_EQUAL(valid, 0x4);
    CHECK_EQUAL(dirty, 0x4);
    /* A partial write of sector 0 fetches it first, then merges the bytes. */
    uint8_t old[128];
    fill_pattern(old, 128, 1);
    sparse_memory_write(h.memory, 0x0, old, 128);
    uint8_t four[4] = {0xAA, 0xBB, 0xCC, 0xDD};
    harness_request(&h, SIMTX_OP_WRITE, 0x4, 4, 2, four);
    harness_settle(&h, 100);
    CHECK_EQUAL(h.down_count, 1);
    CHECK_EQUAL(h.down[0].op, SIMTX_OP_READ);
    CHECK_EQUAL(h.down[0].size, 32);
    harness_request(&h, SIMTX_OP_READ, 0x0, 32, 3, NULL);
    harness_settle(&h, 100);
    const simtx_msg *read = harness_response(&h, 3);
    uint8_t expected[32];
    memcpy(expected, old, 32);
    memcpy(expected + 4, four, 4);
    CHECK(read && memcmp(read->data, expected, 32) == 0);
    CHECK(cache_line_state(h.cache, 0x0, &valid, &dirty));
    CHECK_EQUAL(valid, 0x5);
    CHECK_EQUAL(dirty, 0x5);
    /* Fill both ways of the set with other lines: the dirty line goes back. */
    harness_request(&h, SIMTX_OP_READ, SET_STRIDE, 32, 4, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, 2 * SET_STRIDE, 32, 5, NULL);
    harness_settle(&h, 100);
    CHECK(!cache_line_state(h.cache, 0x0, NULL, NULL));
    const simtx_msg *writeback = NULL;
    for (size_t i = 0; i < h.down_count; i++)
        if (h.down[i].op == SIMTX_OP_WRITE) writeback = &h.down[i];
    CHECK(writeback != NULL);
    if (writeback) {
        CHECK_EQUAL(writeback->address, 0x0);
        CHECK_EQUAL(writeback->size, 96);                   /* sectors 0..2 */
        CHECK_EQUAL(writeback->byte_enable[0], 0xFFFFFFFFu); /* sector 0 on, sector 1 (clean) off */
        CHECK_EQUAL(writeback->byte_enable[1], 0xFFFFFFFFu); /* sector 2 on */
    }
    CHECK_EQUAL(cache_get_stats(h.cache)->writebacks, 1);
    uint8_t memory[128];
    sparse_memory_read(h.memory, 0x0, memory, 128);
    CHECK(memcmp(memory, expected, 32) == 0);
    CHECK(memcmp(memory + 32, old + 32, 32) == 0); /* clean sector 1 untouched */
    CHECK(memcmp(memory + 64, data, 32) == 0);
    CHECK(memcmp(memory + 96, old + 96, 32) == 0);
    harness_release(&h);
}

/* CLEAN_LINE writes the dirty data back and answers only once it is
 * acknowledged, keeping the line; FLUSH_LINE also drops it. */
static void test_clean_and_flush(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[128];
    fill_pattern(data, 128, 3);
    harness_request(&h, SIMTX_OP_WRITE, 0x3000, 128, 1, data);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_CLEAN_LINE, 0x3000, 0, 2, NULL);
    harness_run(&h, 10);
    CHECK_EQUAL(h.down_count, 1);
    CHECK_EQUAL(h.down[0].op, SIMTX_OP_WRITE);
    CHECK_EQUAL(h.down[0].size, 128);
    CHECK_EQUAL(h.down[0].aux, MEM_WRITEBACK_CLEAN);
    CHECK(harness_response(&h, 2) == NULL); /* not before the acknowledgement */
    harness_serve(&h, 1);
    harness_run(&h, 3);
    const simtx_msg *clean = harness_response(&h, 2);
    CHECK(clean && clean->op == SIMTX_OP_CLEAN_LINE && clean->status == SIMTX_STATUS_OK);
    uint32_t valid = 0, dirty = 0;
    CHECK(cache_line_state(h.cache, 0x3000, &valid, &dirty));
    CHECK_EQUAL(valid, 0xF);
    CHECK_EQUAL(dirty, 0);
    uint8_t memory[128];
    sparse_memory_read(h.memory, 0x3000, memory, 128);
    CHECK(memcmp(memory, data, 128) == 0);
    /* Clean line: the clean goes on (behind any write-back of the line on
     * its way down) and is answered when the next level answers it. */
    harness_request(&h, SIMTX_OP_CLEAN_LINE, 0x3000, 0, 3, NULL);
    harness_run(&h, 10);
    CHECK_EQUAL(h.down_count, 2);
    CHECK_EQUAL(h.down[1].op, SIMTX_OP_CLEAN_LINE);
    CHECK(harness_response(&h, 3) == NULL);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 3) != NULL);
    CHECK(cache_line_state(h.cache, 0x3000, NULL, NULL)); /* kept */
    /* Dirty again, then flushed: written back and invalidated. */
    harness_request(&h, SIMTX_OP_WRITE, 0x3020, 32, 4, data);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_FLUSH_LINE, 0x3000, 0, 5, NULL);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 5) != NULL);
    CHECK_EQUAL(h.down_count, 3);
    CHECK_EQUAL(h.down[2].address, 0x3020);
    CHECK_EQUAL(h.down[2].size, 32);
    CHECK(!cache_line_state(h.cache, 0x3000, NULL, NULL));
    CHECK_EQUAL(cache_get_stats(h.cache)->cleans, 2);
    CHECK_EQUAL(cache_get_stats(h.cache)->flushes, 1);
    CHECK_EQUAL(cache_get_stats(h.cache)->clean_writebacks, 2);
    harness_release(&h);
}

/* A non-temporal write to a dirty line of a write-back cache: the line is
 * written back (an eviction) and dropped, the write follows it down, and it
 * is answered only once the next level acknowledges it; a later read misses
 * and fetches the merged data. */
static void test_non_temporal_write(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[128], word[4] = {1, 2, 3, 4};
    fill_pattern(data, 128, 5);
    harness_request(&h, SIMTX_OP_WRITE, 0x5000, 128, 1, data);
    harness_settle(&h, 100);
    CHECK_EQUAL(h.down_count, 0); /* allocated, dirty */
    simtx_msg nt = harness_message(SIMTX_OP_WRITE, 0x5040, 4, 2, word);
    nt.flags = SIMTX_FLAG_NON_TEMPORAL;
    CHECK(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &nt, h.now) != SIMTX_BUSY);
    harness_run(&h, 10);
    CHECK_EQUAL(h.down_count, 2);
    CHECK_EQUAL(h.down[0].op, SIMTX_OP_WRITE);
    CHECK_EQUAL(h.down[0].aux, MEM_WRITEBACK_EVICTION);
    CHECK_EQUAL(h.down[0].size, 128);
    CHECK_EQUAL(h.down[1].op, SIMTX_OP_WRITE);
    CHECK_EQUAL(h.down[1].address, 0x5040);
    CHECK(h.down[1].flags & SIMTX_FLAG_NON_TEMPORAL);
    CHECK(!cache_line_state(h.cache, 0x5000, NULL, NULL)); /* dropped */
    CHECK(harness_response(&h, 2) == NULL);               /* not before the acknowledgement */
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 2) != NULL);
    harness_request(&h, SIMTX_OP_READ, 0x5040, 8, 3, NULL);
    harness_settle(&h, 100);
    const simtx_msg *read = harness_response(&h, 3);
    CHECK(read && memcmp(read->data, word, 4) == 0 && memcmp(read->data + 4, data + 0x44, 4) == 0);
    CHECK_EQUAL(cache_get_stats(h.cache)->non_temporal_writes, 1);
    harness_release(&h);
}

/* Write-through, no-allocate, evict on write hit (the L1 policy): writes go
 * down and are answered when the next level answers; a write hit drops the
 * line; a write while a fill is in flight is seen by later reads merged into
 * the same MSHR but not by earlier ones. */
static void test_write_through_policy(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(false);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t old[128], fresh[128];
    fill_pattern(old, 128, 11);
    fill_pattern(fresh, 128, 200);
    sparse_memory_write(h.memory, 0x4000, old, 128);

    harness_request(&h, SIMTX_OP_WRITE, 0x5000, 32, 1, fresh); /* miss: no allocate */
    harness_run(&h, 5);
    CHECK(harness_response(&h, 1) == NULL);
    CHECK_EQUAL(h.down_count, 1);
    CHECK(h.down[0].op == SIMTX_OP_WRITE && h.down[0].id != 1 && h.down[0].handle == NULL);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 1) != NULL);
    CHECK(!cache_line_state(h.cache, 0x5000, NULL, NULL));

    harness_request(&h, SIMTX_OP_READ, 0x4000, 128, 2, NULL);
    harness_settle(&h, 100);
    CHECK(cache_line_state(h.cache, 0x4000, NULL, NULL));
    harness_request(&h, SIMTX_OP_WRITE, 0x4000, 4, 3, fresh); /* hit: evict */
    harness_settle(&h, 100);
    CHECK(!cache_line_state(h.cache, 0x4000, NULL, NULL));
    CHECK_EQUAL(cache_get_stats(h.cache)->write_evictions, 1);

    /* Read (miss), write, read, all before the fill returns. */
    fill_pattern(old, 128, 77);
    sparse_memory_write(h.memory, 0x6000, old, 128);
    harness_request(&h, SIMTX_OP_READ, 0x6000, 32, 4, NULL);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_WRITE, 0x6008, 8, 5, fresh);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_READ, 0x6000, 32, 6, NULL);
    harness_settle(&h, 200);
    const simtx_msg *before = harness_response(&h, 4), *after = harness_response(&h, 6);
    CHECK(before && memcmp(before->data, old, 32) == 0);
    uint8_t expected[32];
    memcpy(expected, old, 32);
    memcpy(expected + 8, fresh, 8);
    CHECK(after && memcmp(after->data, expected, 32) == 0);
    uint8_t memory[32];
    sparse_memory_read(h.memory, 0x6000, memory, 32);
    CHECK(memcmp(memory, expected, 32) == 0);
    CHECK_EQUAL(cache_get_stats(h.cache)->writebacks, 0);
    harness_release(&h);
}

/* Reads in the bypass window (L1 not caching global data) go down every time. */
static void test_bypass(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(false);
    config.bypass_base = 0x10000;
    config.bypass_size = 0x10000;
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t pattern[64];
    fill_pattern(pattern, 64, 5);
    sparse_memory_write(h.memory, 0x10040, pattern, 64);
    harness_request(&h, SIMTX_OP_READ, 0x10040, 64, 1, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, 0x10040, 64, 2, NULL);
    harness_settle(&h, 100);
    CHECK_EQUAL(h.down_count, 2);
    CHECK(harness_response(&h, 2) && memcmp(harness_response(&h, 2)->data, pattern, 64) == 0);
    CHECK(!cache_line_state(h.cache, 0x10040, NULL, NULL));
    /* Outside the window the cache caches as usual. */
    harness_request(&h, SIMTX_OP_READ, 0x100, 64, 3, NULL);
    harness_settle(&h, 100);
    CHECK(cache_line_state(h.cache, 0x100, NULL, NULL));
    harness_release(&h);
}

/* A fence waits for the writes forwarded before it. */
static void test_fence(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(false);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[32] = {1};
    harness_request(&h, SIMTX_OP_WRITE, 0x100, 32, 1, data);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_FENCE, 0, 0, 2, NULL);
    harness_run(&h, 20);
    CHECK(harness_response(&h, 2) == NULL);
    harness_serve(&h, 1);
    harness_run(&h, 10);
    CHECK(harness_response(&h, 1) != NULL);
    CHECK(harness_response(&h, 2) != NULL);
    harness_release(&h);
}

/* A FENCE with CACHE_FENCE_INVALIDATE empties a write-through cache once its
 * fills have landed; a plain FENCE keeps the lines. */
static void test_invalidating_fence(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(false);
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_request(&h, SIMTX_OP_READ, 0x0, 32, 1, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_FENCE, 0, 0, 2, NULL);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 2) != NULL);
    CHECK(cache_line_state(h.cache, 0x0, NULL, NULL));
    harness_request(&h, SIMTX_OP_READ, 0x400, 32, 3, NULL); /* a fill in flight */
    harness_run(&h, 1);
    simtx_msg fence;
    simtx_msg_init(&fence, SIMTX_OP_FENCE, 0, 0);
    fence.id = 4;
    fence.aux = CACHE_FENCE_INVALIDATE;
    CHECK_EQUAL(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &fence, h.now), SIMTX_ACCEPTED);
    harness_run(&h, 5);
    CHECK(harness_response(&h, 4) == NULL); /* waits for the fill */
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 3) != NULL);
    CHECK(harness_response(&h, 4) != NULL);
    CHECK(!cache_line_state(h.cache, 0x0, NULL, NULL));
    CHECK(!cache_line_state(h.cache, 0x400, NULL, NULL));
    CHECK_EQUAL(cache_get_stats(h.cache)->invalidations, 2);
    harness_release(&h);
}

/* Refused sends are kept and retried after port_free. */
static void test_port_backpressure(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    h.refuse_down = true;
    harness_request(&h, SIMTX_OP_READ, 0x0, 32, 1, NULL);
    harness_run(&h, 5);
    CHECK_EQUAL(h.down_count, 0);
    h.refuse_down = false;
    cache_port_free(h.cache, CACHE_DOWNSTREAM_PORT);
    harness_run(&h, 2);
    CHECK_EQUAL(h.down_count, 1);
    h.refuse_up = true;
    harness_serve(&h, 1);
    harness_run(&h, 5);
    CHECK_EQUAL(h.up_count, 0);
    h.refuse_up = false;
    cache_port_free(h.cache, CACHE_UPSTREAM_PORT);
    harness_run(&h, 2);
    CHECK_EQUAL(h.up_count, 1);
    harness_release(&h);
}

/* Debug accesses: a write-back cache serves reads it fully holds (dirty data
 * included) and overlays its newer bytes otherwise; a debug write updates
 * the cached copy and is forwarded. */
static void test_debug_access(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[128];
    fill_pattern(data, 128, 40);
    harness_request(&h, SIMTX_OP_WRITE, 0x7000, 64, 1, data);
    harness_settle(&h, 100);
    uint8_t read[64] = {0};
    int forward = -2;
    CHECK_EQUAL(cache_debug_access(h.cache, false, 0x7000, read, 64, &forward), 64);
    CHECK(memcmp(read, data, 64) == 0);
    uint8_t wide[128];
    memset(wide, 0xEE, sizeof wide);
    CHECK_EQUAL(cache_debug_access(h.cache, false, 0x7000, wide, 128, &forward), 0);
    CHECK_EQUAL(forward, CACHE_DOWNSTREAM_PORT);
    cache_debug_overlay(h.cache, 0x7000, wide, 128);
    CHECK(memcmp(wide, data, 64) == 0);
    CHECK_EQUAL(wide[64], 0xEE); /* not cached: left as the next level gave it */
    uint8_t patch[4] = {9, 8, 7, 6};
    CHECK_EQUAL(cache_debug_access(h.cache, true, 0x7010, patch, 4, &forward), 0);
    CHECK_EQUAL(forward, CACHE_DOWNSTREAM_PORT);
    CHECK_EQUAL(cache_debug_access(h.cache, false, 0x7010, read, 4, &forward), 4);
    CHECK(memcmp(read, patch, 4) == 0);
    harness_release(&h);
}

/* An atomic acts at the next level: a dirty copy is written back first (in
 * order, ahead of the atomic), the line dropped, and the next level's answer
 * (the old value) returned to the requester. */
static void test_atomic_forwarding(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[32];
    fill_pattern(data, 32, 17);
    harness_request(&h, SIMTX_OP_WRITE, 0x8000, 32, 1, data);
    harness_settle(&h, 100);
    CHECK_EQUAL(h.down_count, 0);
    uint8_t operand[4] = {1, 0, 0, 0};
    harness_request(&h, SIMTX_OP_ATOMIC, 0x8004, 4, 2, operand);
    harness_run(&h, 5);
    CHECK_EQUAL(h.down_count, 2);
    CHECK(h.down[0].op == SIMTX_OP_WRITE && h.down[0].address == 0x8000);
    CHECK(h.down[1].op == SIMTX_OP_ATOMIC && h.down[1].address == 0x8004 && h.down[1].handle == NULL);
    CHECK(!cache_line_state(h.cache, 0x8000, NULL, NULL));
    /* The next level answers the atomic with the old value it held. */
    harness_serve(&h, 1);
    simtx_msg answer = h.down[1];
    memcpy(answer.data, data + 4, 4);
    simtx_msg_make_response(&answer, SIMTX_STATUS_OK);
    CHECK_EQUAL(cache_accept(h.cache, CACHE_DOWNSTREAM_PORT, &answer, h.now), SIMTX_ACCEPTED);
    harness_run(&h, 5);
    const simtx_msg *old = harness_response(&h, 2);
    CHECK(old && old->op == SIMTX_OP_ATOMIC && memcmp(old->data, data + 4, 4) == 0);
    CHECK(cache_idle(h.cache));
    harness_release(&h);
}

static uint32_t word_of(const simtx_msg *msg)
{
    uint32_t value;
    memcpy(&value, msg->data, sizeof value);
    return value;
}

static uint32_t cached_word(harness *h, uint64_t address)
{
    uint32_t value = 0;
    int forward;
    CHECK_EQUAL(cache_debug_access(h->cache, false, address, (uint8_t *)&value, sizeof value, &forward), sizeof value);
    return value;
}

static cache_config executing_config(void)
{
    cache_config config = harness_config(true);
    config.execute_atomics = true;
    config.atomic_latency = 5;
    return config;
}

/* An atomic on a cached line is done here: nothing goes down, the old value
 * comes back atomic_latency after the lookup and the sector becomes dirty. */
static void test_atomic_execute_hit(void)
{
    harness h;
    char error[256];
    cache_config config = executing_config();
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint32_t words[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    harness_request(&h, SIMTX_OP_WRITE, 0x8000, 32, 1, (const uint8_t *)words); /* whole sector: no fetch */
    harness_settle(&h, 100);
    uint64_t start = h.now;
    CHECK_EQUAL(harness_atomic(&h, 0x8004, SIMTX_ATOMIC_ADD, 5, 0, 2), SIMTX_ACCEPTED);
    harness_run(&h, 10);
    CHECK_EQUAL(h.down_count, 0);
    const simtx_msg *old = harness_response(&h, 2);
    CHECK(old && old->status == SIMTX_STATUS_OK && word_of(old) == 20);
    CHECK_EQUAL(h.up_cycle[h.up_count - 1], start + 1 + 5); /* looked up next cycle, atomic_latency 5 */
    CHECK_EQUAL(cached_word(&h, 0x8004), 25);
    uint32_t dirty = 0;
    CHECK(cache_line_state(h.cache, 0x8000, NULL, &dirty));
    CHECK_EQUAL(dirty, 0x1);
    CHECK_EQUAL(cache_get_stats(h.cache)->atomics, 1);
    CHECK_EQUAL(cache_get_stats(h.cache)->forwarded, 0);
    /* Its result reaches the next level with the line's writeback. */
    harness_request(&h, SIMTX_OP_FLUSH_LINE, 0x8000, 0, 3, NULL);
    harness_settle(&h, 100);
    uint32_t stored = 0;
    sparse_memory_read(h.memory, 0x8004, &stored, sizeof stored);
    CHECK_EQUAL(stored, 25);
    CHECK(h.failure[0] == '\0');
    harness_release(&h);
}

/* A miss allocates the line and fetches the word's sector like a read; the
 * atomic is applied when the fill lands. */
static void test_atomic_execute_miss(void)
{
    harness h;
    char error[256];
    cache_config config = executing_config();
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint32_t value = 0x100;
    sparse_memory_write(h.memory, 0x9044, &value, sizeof value);
    CHECK_EQUAL(harness_atomic(&h, 0x9044, SIMTX_ATOMIC_SWAP, 0x777, 0, 1), SIMTX_ACCEPTED);
    harness_run(&h, 3);
    CHECK_EQUAL(h.down_count, 1);
    CHECK(h.down[0].op == SIMTX_OP_READ && h.down[0].address == 0x9040 && h.down[0].size == 32);
    harness_settle(&h, 100);
    const simtx_msg *old = harness_response(&h, 1);
    CHECK(old && old->op == SIMTX_OP_ATOMIC && word_of(old) == 0x100);
    CHECK_EQUAL(cached_word(&h, 0x9044), 0x777);
    uint32_t valid = 0, dirty = 0;
    CHECK(cache_line_state(h.cache, 0x9000, &valid, &dirty));
    CHECK_EQUAL(valid, 0x4);
    CHECK_EQUAL(dirty, 0x4);
    CHECK_EQUAL(cache_get_stats(h.cache)->misses, 1);
    sparse_memory_read(h.memory, 0x9044, &value, sizeof value);
    CHECK_EQUAL(value, 0x100); /* not written back yet */
    harness_release(&h);
}

/* Atomics and reads to a line in flight merge into its MSHR and are replayed
 * in arrival order: each sees exactly the atomics before it. */
static void test_atomic_execute_same_line(void)
{
    harness h;
    char error[256];
    cache_config config = executing_config();
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint32_t values[2] = {10, 1000};
    sparse_memory_write(h.memory, 0xA000, values, sizeof values);
    harness_atomic(&h, 0xA000, SIMTX_ATOMIC_ADD, 1, 0, 1);
    harness_run(&h, 1);
    harness_atomic(&h, 0xA000, SIMTX_ATOMIC_ADD, 2, 0, 2);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_READ, 0xA000, 8, 3, NULL);
    harness_run(&h, 1);
    harness_atomic(&h, 0xA004, SIMTX_ATOMIC_MAX, 5, 0, 4);
    harness_run(&h, 3);
    CHECK_EQUAL(h.down_count, 1); /* one fill for all four */
    CHECK_EQUAL(cache_get_stats(h.cache)->hit_reserved, 3);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 1) && word_of(harness_response(&h, 1)) == 10);
    CHECK(harness_response(&h, 2) && word_of(harness_response(&h, 2)) == 11);
    const simtx_msg *read = harness_response(&h, 3);
    uint32_t seen[2] = {0, 0};
    if (read) memcpy(seen, read->data, sizeof seen);
    CHECK_EQUAL(seen[0], 13);
    CHECK_EQUAL(seen[1], 1000);
    CHECK(harness_response(&h, 4) && word_of(harness_response(&h, 4)) == 1000);
    CHECK_EQUAL(cached_word(&h, 0xA000), 13);
    CHECK_EQUAL(cached_word(&h, 0xA004), 1000);
    CHECK_EQUAL(cache_get_stats(h.cache)->atomics, 3);
    harness_release(&h);
}

/* CAS writes only when the old value equals the expected one (aux); either
 * way the old value comes back. Unsupported atomics get a command error. */
static void test_atomic_execute_cas(void)
{
    harness h;
    char error[256];
    cache_config config = executing_config();
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint32_t seven = 7;
    sparse_memory_write(h.memory, 0xB010, &seven, sizeof seven);
    harness_atomic(&h, 0xB010, SIMTX_ATOMIC_CAS, 9, 7, 1); /* succeeds */
    harness_settle(&h, 100);
    harness_atomic(&h, 0xB010, SIMTX_ATOMIC_CAS, 11, 7, 2); /* fails: 9 is there */
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 1) && word_of(harness_response(&h, 1)) == 7);
    CHECK(harness_response(&h, 2) && word_of(harness_response(&h, 2)) == 9);
    CHECK_EQUAL(cached_word(&h, 0xB010), 9);
    simtx_msg wide = harness_atomic_message(0xB010, SIMTX_ATOMIC_ADD, 1, 0, 3);
    wide.size = 8;
    CHECK_EQUAL(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &wide, h.now), SIMTX_ACCEPTED);
    simtx_msg unknown = harness_atomic_message(0xB010, SIMTX_ATOMIC_COUNT, 1, 0, 4);
    CHECK_EQUAL(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &unknown, h.now), SIMTX_ACCEPTED);
    harness_run(&h, 1);
    simtx_msg straddling = harness_atomic_message(0xB07C, SIMTX_ATOMIC_ADD, 1, 0, 5);
    straddling.size = 8; /* refused for its size, as the memory block does, not failed as line-crossing */
    CHECK_EQUAL(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &straddling, h.now), SIMTX_ACCEPTED);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 3) && harness_response(&h, 3)->status == SIMTX_STATUS_COMMAND_ERROR);
    CHECK(harness_response(&h, 4) && harness_response(&h, 4)->status == SIMTX_STATUS_COMMAND_ERROR);
    CHECK(harness_response(&h, 5) && harness_response(&h, 5)->status == SIMTX_STATUS_COMMAND_ERROR);
    CHECK(h.failure[0] == '\0');
    CHECK_EQUAL(cached_word(&h, 0xB010), 9);
    CHECK_EQUAL(h.down_count, 1); /* the one fill */
    harness_release(&h);
}

/* The memory block as the oracle of atomic semantics. */
typedef struct oracle_memory {
    void *core;
    simtx_msg answer;
    bool answered;
    uint64_t now;
} oracle_memory;

static bool oracle_send(void *context, unsigned port, const simtx_msg *msg)
{
    oracle_memory *o = context;
    (void)port;
    o->answer = *msg;
    o->answered = true;
    return true;
}

/* Serves one request with the memory block and returns its response. */
static simtx_msg oracle_serve(oracle_memory *o, const simtx_msg *request)
{
    o->answered = false;
    CHECK_EQUAL(memory_block_info.accept(o->core, 0, request, o->now), SIMTX_ACCEPTED);
    while (!o->answered) memory_block_info.cycle(o->core, ++o->now);
    return o->answer;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Random atomics of every code (CAS with a matching expected value half the
 * time) and reads over 12 lines of an 8-line cache, issued as fast as the
 * cache takes them (merges, evictions of dirty lines, stalls): every old
 * value, every read and the final memory equal the memory block's answers
 * to the same sequence. */
static void test_atomic_execute_matches_memory(void)
{
    enum { REQUESTS = 1500, WORDS = 8, LINES = 12 }; /* HARNESS_MAX bounds the messages sent down */
    harness h;
    char error[256];
    cache_config config = executing_config();
    CHECK(harness_init(&h, &config, error, sizeof error));
    memory_params params;
    CHECK(simtx_params_init(memory_block_info.params, &params, error, sizeof error));
    params.latency = 1;
    oracle_memory oracle = {0};
    simtx_env env = {.context = &oracle, .instance_name = "oracle", .send = oracle_send};
    oracle.core = memory_block_info.create(&params, &env, error, sizeof error);
    CHECK(oracle.core != NULL);
    if (!oracle.core) return;
    static simtx_msg expected[REQUESTS];
    uint64_t state = 42;
    unsigned issued = 0, mismatches = 0;
    while ((issued < REQUESTS || !cache_idle(h.cache)) && h.now < 1000000) {
        if (issued < REQUESTS) {
            uint64_t r = next_random(&state);
            uint64_t address = (r % LINES) * SET_STRIDE / 2 + ((r >> 8) % WORDS) * 4;
            simtx_msg request;
            if ((r >> 16) % 5 == 0) {
                request = harness_message(SIMTX_OP_READ, address, 4, issued, NULL);
            } else {
                simtx_atomic_op code = (simtx_atomic_op)((r >> 20) % SIMTX_ATOMIC_COUNT);
                uint32_t operand = (uint32_t)(r >> 32) % 64 - 32;
                uint32_t current = 0;
                memory_peek(oracle.core, address, &current, sizeof current);
                uint32_t compare = (r >> 24) % 2 ? current : current + 1;
                request = harness_atomic_message(address, code, operand, compare, issued);
            }
            if (cache_accept(h.cache, CACHE_UPSTREAM_PORT, &request, h.now) == SIMTX_ACCEPTED)
                expected[issued++] = oracle_serve(&oracle, &request);
        }
        harness_run(&h, 1);
        harness_serve(&h, next_random(&state) % 3);
    }
    CHECK_EQUAL(issued, REQUESTS);
    CHECK_EQUAL(h.up_count, REQUESTS);
    for (size_t i = 0; i < h.up_count; i++) {
        const simtx_msg *answer = &h.up[i];
        if (answer->id >= REQUESTS || answer->status != SIMTX_STATUS_OK ||
            word_of(answer) != word_of(&expected[answer->id]))
            mismatches++;
    }
    CHECK_EQUAL(mismatches, 0);
    CHECK(cache_get_stats(h.cache)->atomics > REQUESTS / 2);
    CHECK(cache_get_stats(h.cache)->evictions > 0 && cache_get_stats(h.cache)->hit_reserved > 0);
    for (unsigned line = 0; line < LINES; line++) {
        uint64_t base = line * SET_STRIDE / 2;
        uint32_t cached[WORDS], reference[WORDS];
        sparse_memory_read(h.memory, base, cached, sizeof cached);
        cache_debug_overlay(h.cache, base, (uint8_t *)cached, sizeof cached);
        memory_peek(oracle.core, base, reference, sizeof reference);
        CHECK(memcmp(cached, reference, sizeof cached) == 0);
    }
    memory_block_info.destroy(oracle.core);
    harness_release(&h);
}

/* access_latency delays every lookup (hits and misses alike) without
 * filling the input queue: more requests than its depth are in the pipeline. */
static void test_access_latency(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    config.access_latency = 10;
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[32] = {5};
    harness_request(&h, SIMTX_OP_WRITE, 0x0, 32, 1, data); /* allocates without a fetch */
    harness_settle(&h, 100);
    uint64_t start = h.now;
    for (unsigned i = 0; i < 5; i++) { /* depth 2, yet all five enter the pipeline */
        CHECK_EQUAL(harness_request(&h, SIMTX_OP_READ, 0x0, 32, 10 + i, NULL), SIMTX_ACCEPTED);
        harness_run(&h, 1);
    }
    harness_run(&h, 30);
    CHECK_EQUAL(h.up_count, 6);
    const simtx_msg *first = harness_response(&h, 10);
    CHECK(first && first->data[0] == 5);
    CHECK_EQUAL(h.up_cycle[1], start + 10 + 3); /* access 10, hit 3 */
    CHECK_EQUAL(h.up_cycle[5], start + 4 + 10 + 3);
    harness_request(&h, SIMTX_OP_READ, 0x1000, 32, 20, NULL); /* a miss waits too */
    uint64_t miss = h.now;
    harness_run(&h, 10);
    CHECK_EQUAL(h.down_count, 0);
    harness_run(&h, 1);
    CHECK_EQUAL(h.down_count, 1);
    CHECK_EQUAL(h.now, miss + 11);
    harness_release(&h);
}

/* A line-crossing access is a run-time error naming the access. */
static void test_line_crossing(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_request(&h, SIMTX_OP_READ, 0x70, 32, 1, NULL);
    harness_run(&h, 2);
    CHECK_CONTAINS(h.failure, "crosses a 128-byte line boundary");
    harness_release(&h);
}

/* Partition-aware set indexing spreads a partition's lines over all sets. */
static void test_partition_indexing(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    config.size = 8 * 128; /* 8 sets, direct mapped */
    config.associativity = 1;
    config.partition_count = 6;
    config.partition_interleave = 256;
    CHECK(harness_init(&h, &config, error, sizeof error));
    /* Partition 0's chunks are 0, 6*256, 12*256...: 4 chunks = 8 lines. */
    for (unsigned k = 0; k < 4; k++)
        for (unsigned half = 0; half < 2; half++) {
            harness_request(&h, SIMTX_OP_READ, k * 6 * 256 + half * 128, 32, k * 2 + half, NULL);
            harness_settle(&h, 100);
        }
    CHECK_EQUAL(cache_get_stats(h.cache)->evictions, 0); /* all 8 lines fit */
    harness_release(&h);
}

/* Ops of a family the cache neither serves nor passes through fail the run,
 * naming the cache and the op; a passed-through family is forwarded
 * unchanged and leaves the line at its address alone (it does not act on
 * it); a row copy, which does, finds the line written back and dropped. */
static void test_unserved_and_passed_through_ops(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_request(&h, SIMTX_OP_TM_LOG_DONE, 0x100, 0, 1, NULL);
    harness_run(&h, 2);
    CHECK_CONTAINS(h.failure, "does not serve op tm_log_done");
    CHECK_CONTAINS(h.failure, "lazy-TM protocol");
    CHECK_EQUAL(h.down_count, 0);
    harness_release(&h);

    config.pass_through_families = 1u << SIMTX_FAMILY_TM_LAZY;
    CHECK(harness_init(&h, &config, error, sizeof error));
    uint8_t data[128];
    memset(data, 7, sizeof data);
    harness_request(&h, SIMTX_OP_WRITE, 0x100, 128, 1, data); /* a whole dirty line, no fetch */
    harness_settle(&h, 50);
    size_t before = h.down_count;
    harness_request(&h, SIMTX_OP_TM_LWT_QUERY, 0x100, 0, 2, NULL);
    harness_settle(&h, 50);
    CHECK(h.failure[0] == '\0');
    CHECK_EQUAL(h.down_count, before + 1);
    CHECK_EQUAL(h.down[before].op, SIMTX_OP_TM_LWT_QUERY);
    uint32_t valid = 0, dirty = 0;
    CHECK(cache_line_state(h.cache, 0x100, &valid, &dirty));
    CHECK(dirty != 0);
    CHECK(harness_response(&h, 2) != NULL);
    before = h.down_count;
    harness_request(&h, SIMTX_OP_ROW_COPY, 0x100, 128, 3, NULL);
    harness_settle(&h, 50);
    CHECK_EQUAL(h.down_count, before + 2);
    CHECK_EQUAL(h.down[before].op, SIMTX_OP_WRITE); /* the dirty line first */
    CHECK_EQUAL(h.down[before + 1].op, SIMTX_OP_ROW_COPY);
    CHECK(!cache_line_state(h.cache, 0x100, &valid, &dirty));
    harness_release(&h);
}

/* Monitor events: none before cache_monitor_bound, the same statistics
 * either way; once bound, one per hit and miss here; a refused event fails
 * the run naming the event. */
static void test_monitor_binding(void)
{
    cache_stats unbound_stats = {0};
    for (int bound = 0; bound < 2; bound++) {
        harness h;
        char error[256];
        cache_config config = harness_config(true);
        CHECK(harness_init(&h, &config, error, sizeof error));
        if (bound) cache_monitor_bound(h.cache);
        for (unsigned i = 0; i < 4; i++) {
            harness_request(&h, SIMTX_OP_READ, 0x100 + 32 * (i % 2), 32, i, NULL);
            harness_settle(&h, 100);
        }
        const cache_stats *stats = cache_get_stats(h.cache);
        if (!bound) {
            unbound_stats = *stats;
            CHECK_EQUAL(h.event_count, 0);
        } else {
            CHECK_EQUAL(stats->hits, unbound_stats.hits);
            CHECK_EQUAL(stats->misses + stats->sector_misses, unbound_stats.misses + unbound_stats.sector_misses);
            CHECK_EQUAL(h.event_count, stats->hits + stats->misses + stats->sector_misses);
            CHECK_EQUAL(h.events[0].op, SIMTX_OP_MONITOR_MISS);
            CHECK_EQUAL(h.events[h.event_count - 1].op, SIMTX_OP_MONITOR_HIT);
            h.refuse_events = true;
            harness_request(&h, SIMTX_OP_READ, 0x100, 32, 9, NULL);
            harness_settle(&h, 100);
            CHECK_CONTAINS(h.failure, "refused a monitor_hit event");
        }
        harness_release(&h);
    }
}

/* A ROW_COPY acts on whole DRAM rows: with GTX480's map (row_copy_column_bits
 * 0x3CFF, 6 partitions of 256-byte chunks) a 4 KB row of a partition is 32
 * lines 1 KB apart locally (6 KB globally). Every dirty line of the source
 * row is written back (through a miss queue of 4, over several lookups) and
 * kept clean, every line of the destination dropped (its dirty lines
 * discarded), and the ROW_COPY goes last; a line of the neighbouring bank
 * group stays dirty. Before the fix only the line at the ROW_COPY's address
 * was written back. */
static void test_row_copy_whole_row(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    config.size = 64 * 8 * 128;
    config.associativity = 8;
    config.partition_count = 6;
    config.partition_interleave = 256;
    config.row_copy_column_bits = 0x3CFF;
    CHECK(harness_init(&h, &config, error, sizeof error));
    const uint64_t partition = 2, source = 0x10000, target = 0x20000, columns = 0x3C80;
    uint8_t data[128];
    memset(data, 5, sizeof data);
    uint64_t id = 1, column = 0;
    do {
        harness_request(&h, SIMTX_OP_WRITE, partition_full_address(source | column, partition, 256, 6), 128, id++, data);
        harness_settle(&h, 100);
        column = (column - columns) & columns;
    } while (column);
    for (uint64_t k = 0; k < 4; k++) {
        harness_request(&h, SIMTX_OP_WRITE, partition_full_address(target | k << 10, partition, 256, 6), 128, id++, data);
        harness_settle(&h, 100);
    }
    uint64_t outside = partition_full_address(source | 0x100, partition, 256, 6); /* bank group 1: another row */
    harness_request(&h, SIMTX_OP_WRITE, outside, 128, id++, data);
    harness_settle(&h, 100);
    CHECK_EQUAL(cache_get_stats(h.cache)->evictions, 0);
    size_t before = h.down_count;
    CHECK_EQUAL(before, 0);

    uint64_t copy_id = id;
    simtx_msg copy = harness_message(SIMTX_OP_ROW_COPY, partition_full_address(source, partition, 256, 6), 4096, copy_id, NULL);
    copy.aux = partition_full_address(target, partition, 256, 6);
    CHECK_EQUAL(cache_accept(h.cache, CACHE_UPSTREAM_PORT, &copy, h.now), SIMTX_ACCEPTED);
    harness_settle(&h, 1000);
    CHECK_EQUAL(h.down_count - before, 33);
    unsigned writes = 0;
    for (size_t i = before; i < h.down_count; i++) {
        const simtx_msg *m = &h.down[i];
        if (m->op != SIMTX_OP_WRITE) continue;
        writes++;
        uint64_t local = partition_local_address(m->address, 256, 6);
        CHECK_EQUAL(partition_of_address(m->address, 256, 6), partition);
        CHECK_EQUAL(local & ~(uint64_t)0x3CFF, source); /* source lines only: the destination's are discarded */
    }
    CHECK_EQUAL(writes, 32);
    CHECK_EQUAL(h.down[h.down_count - 1].op, SIMTX_OP_ROW_COPY);
    CHECK(harness_response(&h, copy_id) != NULL);
    uint32_t valid = 0, dirty = 0;
    column = 0;
    do {
        CHECK(cache_line_state(h.cache, partition_full_address(source | column, partition, 256, 6), &valid, &dirty));
        CHECK_EQUAL(dirty, 0);
        CHECK(!cache_line_state(h.cache, partition_full_address(target | column, partition, 256, 6), &valid, &dirty));
        column = (column - columns) & columns;
    } while (column);
    CHECK(cache_line_state(h.cache, outside, &valid, &dirty));
    CHECK(dirty != 0);
    harness_release(&h);
}

/* mem.h LEVELS: a hit answers with the cache's level; a miss, the reads
 * merged into its MSHR, a bypassed read and a forwarded atomic with the
 * level the next level named (the harness: DRAM); an atomic executed on a
 * line held here with the cache's. */
static void test_served_by(void)
{
    harness h;
    char error[256];
    cache_config config = harness_config(true);
    config.level = SIMTX_LEVEL_L2;
    config.execute_atomics = true;
    config.atomic_latency = 2;
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_request(&h, SIMTX_OP_READ, 0x1000, 32, 1, NULL);
    harness_run(&h, 1);
    harness_request(&h, SIMTX_OP_READ, 0x1000, 32, 2, NULL); /* merged into the MSHR */
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, 0x1000, 32, 3, NULL); /* a hit */
    harness_settle(&h, 100);
    harness_atomic(&h, 0x1004, SIMTX_ATOMIC_ADD, 1, 0, 4); /* executed on the line held */
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 1) && harness_response(&h, 1)->served_by == SIMTX_LEVEL_DRAM);
    CHECK(harness_response(&h, 2) && harness_response(&h, 2)->served_by == SIMTX_LEVEL_DRAM);
    CHECK(harness_response(&h, 3) && harness_response(&h, 3)->served_by == SIMTX_LEVEL_L2);
    CHECK(harness_response(&h, 4) && harness_response(&h, 4)->served_by == SIMTX_LEVEL_L2);
    CHECK(h.down[0].served_by == SIMTX_LEVEL_NONE); /* requests carry none */
    harness_release(&h);

    config = harness_config(false); /* an L1 forwarding atomics, bypassing a window */
    config.level = SIMTX_LEVEL_L1;
    config.bypass_base = 0x10000;
    config.bypass_size = 0x10000;
    CHECK(harness_init(&h, &config, error, sizeof error));
    harness_request(&h, SIMTX_OP_READ, 0x10040, 64, 1, NULL);
    harness_atomic(&h, 0x2000, SIMTX_ATOMIC_ADD, 1, 0, 2);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, 0x100, 32, 3, NULL);
    harness_settle(&h, 100);
    harness_request(&h, SIMTX_OP_READ, 0x100, 32, 4, NULL);
    harness_settle(&h, 100);
    CHECK(harness_response(&h, 1) && harness_response(&h, 1)->served_by == SIMTX_LEVEL_DRAM);
    CHECK(harness_response(&h, 2) && harness_response(&h, 2)->served_by == SIMTX_LEVEL_DRAM);
    CHECK(harness_response(&h, 3) && harness_response(&h, 3)->served_by == SIMTX_LEVEL_DRAM);
    CHECK(harness_response(&h, 4) && harness_response(&h, 4)->served_by == SIMTX_LEVEL_L1);
    CHECK(h.failure[0] == '\0');
    harness_release(&h);
}

int main(void)
{
    test_served_by();
    test_monitor_binding();
    test_unserved_and_passed_through_ops();
    test_bad_configurations();
    test_read_miss_hit_and_sectors();
    test_mshr_merge();
    test_mshr_full_backpressure();
    test_lru_order();
    test_write_back_and_eviction();
    test_clean_and_flush();
    test_non_temporal_write();
    test_write_through_policy();
    test_bypass();
    test_fence();
    test_invalidating_fence();
    test_port_backpressure();
    test_debug_access();
    test_atomic_forwarding();
    test_atomic_execute_hit();
    test_atomic_execute_miss();
    test_atomic_execute_same_line();
    test_atomic_execute_cas();
    test_atomic_execute_matches_memory();
    test_access_latency();
    test_line_crossing();
    test_partition_indexing();
    test_row_copy_whole_row();
    return simtx_test_summary();
}
