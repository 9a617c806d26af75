/* Randomized test of the cache engine against a shadow memory: random reads,
 * byte-masked writes, cleans, flushes and fences on a tiny cache (many
 * evictions, MSHR merges and stalls), with the next level answering after
 * random delays and both ports refusing at random. Every read must return
 * the data of the writes accepted before it; at the end, after flushing,
 * the next level must hold the shadow's data. Run for both write policies
 * and several seeds. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cache_harness.h"
#include "test_support.h"

#define SPAN 0x1000 /* 32 lines over 4 sets x 2 ways */
#define REQUESTS 6000

typedef struct expected_read {
    bool waiting;
    uint32_t size;
    uint8_t data[128];
} expected_read;

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void run_case(bool write_back, uint64_t seed, unsigned sectors)
{
    harness h;
    char error[256];
    cache_config config = harness_config(write_back);
    config.sectors = sectors;
    config.mshr_entries = 3;
    config.mshr_max_merge = 3;
    config.response_queue_depth = 4;
    CHECK(harness_init(&h, &config, error, sizeof error));
    sparse_memory *shadow = sparse_memory_create();
    static expected_read expected[REQUESTS];
    memset(expected, 0, sizeof expected);
    uint64_t state = seed;
    unsigned issued = 0, mismatches = 0, answered = 0;
    size_t checked_up = 0;
    while (issued < REQUESTS || !cache_idle(h.cache)) {
        if (h.now > 2000000) break;
        /* Random refusals: ports busy now and then, freed later. */
        bool was_up = h.refuse_up, was_down = h.refuse_down;
        h.refuse_up = next_random(&state) % 8 == 0;
        h.refuse_down = next_random(&state) % 8 == 0;
        if (was_up && !h.refuse_up) cache_port_free(h.cache, CACHE_UPSTREAM_PORT);
        if (was_down && !h.refuse_down) cache_port_free(h.cache, CACHE_DOWNSTREAM_PORT);
        if (issued < REQUESTS && next_random(&state) % 2 == 0) {
            uint64_t r = next_random(&state);
            unsigned kind = (unsigned)(r % 100);
            uint32_t size = 4u << (r >> 8) % 6; /* 4..128 */
            uint64_t address = (next_random(&state) % SPAN) & ~(uint64_t)(size - 1);
            simtx_msg msg;
            simtx_op op = kind < 55 ? SIMTX_OP_READ : kind < 94 ? SIMTX_OP_WRITE : kind < 97 ? SIMTX_OP_CLEAN_LINE
                        : kind < 99 ? SIMTX_OP_FLUSH_LINE : SIMTX_OP_FENCE;
            simtx_msg_init(&msg, op, address, op == SIMTX_OP_READ || op == SIMTX_OP_WRITE ? size : 0);
            msg.id = issued;
            if (op == SIMTX_OP_WRITE) {
                for (uint32_t b = 0; b < size; b++) msg.data[b] = (uint8_t)next_random(&state);
                if (next_random(&state) % 3 == 0) { /* a masked write */
                    msg.byte_enable[0] = next_random(&state);
                    msg.byte_enable[1] = next_random(&state);
                }
            }
            if (cache_accept(h.cache, CACHE_UPSTREAM_PORT, &msg, h.now) == SIMTX_ACCEPTED) {
                if (op == SIMTX_OP_WRITE) sparse_memory_write_masked(shadow, address, msg.data, size, msg.byte_enable);
                if (op == SIMTX_OP_READ) {
                    expected[issued].waiting = true;
                    expected[issued].size = size;
                    sparse_memory_read(shadow, address, expected[issued].data, size);
                }
                issued++;
            }
        }
        harness_run(&h, 1);
        /* The next level answers the oldest requests after random delays. */
        if (next_random(&state) % 4 == 0) harness_serve(&h, 1 + next_random(&state) % 3);
        for (; checked_up < h.up_count; checked_up++) {
            const simtx_msg *response = &h.up[checked_up];
            answered++;
            if (response->id >= REQUESTS) continue;
            expected_read *e = &expected[response->id];
            if (!e->waiting) continue;
            e->waiting = false;
            if (response->status != SIMTX_STATUS_OK || memcmp(response->data, e->data, e->size) != 0) {
                if (!mismatches)
                    fprintf(stderr, "seed %" PRIu64 " %s: read %" PRIu64 " of 0x%" PRIx64 " returned stale data\n", seed,
                            write_back ? "write-back" : "write-through", response->id, response->address);
                mismatches++;
            }
        }
        if (h.up_count > HARNESS_MAX - 8) { /* keep the log bounded */
            h.up_count = 0;
            checked_up = 0;
        }
        if (h.down_served > HARNESS_MAX / 2) {
            memmove(h.down, h.down + h.down_served, (h.down_count - h.down_served) * sizeof h.down[0]);
            h.down_count -= h.down_served;
            h.down_served = 0;
        }
    }
    CHECK_EQUAL(issued, REQUESTS);
    CHECK_EQUAL(answered, REQUESTS);
    CHECK_EQUAL(mismatches, 0);
    CHECK(cache_idle(h.cache));
    CHECK(h.failure[0] == '\0');
    /* Flush every line: the next level then holds exactly the shadow. */
    h.refuse_up = h.refuse_down = false;
    cache_port_free(h.cache, CACHE_UPSTREAM_PORT);
    cache_port_free(h.cache, CACHE_DOWNSTREAM_PORT);
    for (uint64_t line = 0; line < SPAN; line += 128) {
        while (harness_request(&h, SIMTX_OP_FLUSH_LINE, line, 0, REQUESTS + line, NULL) != SIMTX_ACCEPTED) {
            harness_run(&h, 1);
            harness_serve(&h, HARNESS_MAX);
        }
        harness_run(&h, 1);
        harness_serve(&h, HARNESS_MAX);
    }
    harness_settle(&h, 10000);
    uint8_t below[SPAN], truth[SPAN];
    sparse_memory_read(h.memory, 0, below, SPAN);
    sparse_memory_read(shadow, 0, truth, SPAN);
    CHECK(memcmp(below, truth, SPAN) == 0);
    const cache_stats *stats = cache_get_stats(h.cache);
    /* The case is only worth something if it met the interesting paths. */
    CHECK(stats->hit_reserved > 0);
    CHECK(stats->evictions > 0);
    CHECK(stats->reservation_fails_mshr + stats->reservation_fails_merge + stats->stalls_queue > 0);
    if (write_back) CHECK(stats->writebacks > 0);
    else CHECK(stats->write_evictions > 0);
    sparse_memory_destroy(shadow);
    harness_release(&h);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        run_case(true, seed, 4);
        run_case(false, seed, 4);
        run_case(true, seed * 77, 1);
        run_case(false, seed * 77, 1);
    }
    return simtx_test_summary();
}
