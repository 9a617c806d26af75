/* Unit tests of the shared C pieces: parameter tables, statistics, message
 * queues, the sparse backing store, the op property table and the
 * reference-count table. */
#include <stdlib.h>
#include <string.h>

#include "msg_queue.h"
#include "ref_table.h"
#include "simtx_msg.h"
#include "simtx_params.h"
#include "simtx_stats.h"
#include "sparse_memory.h"
#include "test_support.h"

typedef struct example_params {
    int64_t count;
    double ratio;
    bool enabled;
    char *label;
    char *mode;
} example_params;

static const simtx_param_spec example_specs[] = {
    {"count", SIMTX_PARAM_INT, "4", "items", 1, 64, NULL, "how many", offsetof(example_params, count)},
    {"ratio", SIMTX_PARAM_DOUBLE, "0.5", "", 0, 1, NULL, "a share", offsetof(example_params, ratio)},
    {"enabled", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "on or off", offsetof(example_params, enabled)},
    {"label", SIMTX_PARAM_STRING, "x", "", 0, 0, NULL, "a name", offsetof(example_params, label)},
    {"mode", SIMTX_PARAM_ENUM, "fast", "", 0, 0, "fast|slow", "a choice", offsetof(example_params, mode)},
};
static const simtx_param_table example_table = {example_specs, 5, sizeof(example_params)};

static void test_params(void)
{
    example_params p;
    char error[256];
    CHECK(simtx_params_init(&example_table, &p, error, sizeof error));
    CHECK_EQUAL(p.count, 4);
    CHECK(p.ratio == 0.5);
    CHECK(p.enabled);
    CHECK_STRING(p.label, "x");
    CHECK_STRING(p.mode, "fast");

    const simtx_param_spec *count = simtx_param_find(&example_table, "count");
    const simtx_param_spec *ratio = simtx_param_find(&example_table, "ratio");
    const simtx_param_spec *mode = simtx_param_find(&example_table, "mode");
    CHECK(simtx_param_find(&example_table, "nope") == NULL);
    simtx_value value;
    CHECK(simtx_param_parse_text(count, "0x10", &value, error, sizeof error));
    CHECK(simtx_param_assign(count, &p, &value, error, sizeof error));
    CHECK_EQUAL(p.count, 16);
    /* Out of range, wrong type, bad enum, bad text: refused, value kept. */
    CHECK(simtx_param_parse_text(count, "65", &value, error, sizeof error));
    CHECK(!simtx_param_assign(count, &p, &value, error, sizeof error));
    CHECK_CONTAINS(error, "'count' = 65 is out of range [1, 64]");
    CHECK_EQUAL(p.count, 16);
    value = (simtx_value){.kind = SIMTX_VALUE_STRING, .string = "many"};
    CHECK(!simtx_param_assign(count, &p, &value, error, sizeof error));
    CHECK_CONTAINS(error, "expects an integer (int), got a string");
    CHECK(!simtx_param_parse_text(count, "12abc", &value, error, sizeof error));
    CHECK_CONTAINS(error, "expects an integer, got \"12abc\"");
    CHECK(simtx_param_parse_text(count, "2KiB", &value, error, sizeof error));
    CHECK_EQUAL(value.integer, 2048);
    value = (simtx_value){.kind = SIMTX_VALUE_INTEGER, .integer = 1};
    CHECK(simtx_param_assign(ratio, &p, &value, error, sizeof error)); /* integers are numbers */
    CHECK(p.ratio == 1.0);
    value = (simtx_value){.kind = SIMTX_VALUE_STRING, .string = "medium"};
    CHECK(!simtx_param_assign(mode, &p, &value, error, sizeof error));
    CHECK_CONTAINS(error, "is not one of fast|slow");
    value.string = "slow";
    CHECK(simtx_param_assign(mode, &p, &value, error, sizeof error));
    char text[64];
    simtx_param_format(mode, &p, text, sizeof text);
    CHECK_STRING(text, "slow");
    simtx_params_release(&example_table, &p);
    CHECK(p.label == NULL);
}

static void test_stats(void)
{
    simtx_histogram h;
    memset(&h, 0, sizeof h);
    simtx_histogram_add(&h, 0);
    simtx_histogram_add(&h, 1);
    simtx_histogram_add(&h, 5);
    simtx_histogram_add(&h, 1000);
    CHECK_EQUAL(h.count, 4);
    CHECK_EQUAL(h.minimum, 0);
    CHECK_EQUAL(h.maximum, 1000);
    CHECK_EQUAL(h.buckets[0], 1);  /* 0 */
    CHECK_EQUAL(h.buckets[1], 1);  /* 1 */
    CHECK_EQUAL(h.buckets[3], 1);  /* 4..7 */
    CHECK_EQUAL(h.buckets[10], 1); /* 512..1023 */
    CHECK(simtx_histogram_mean(&h) == 1006.0 / 4);

    /* Level 2 for cycles 0-9, 6 for 10-19, 0 for 20-39: mean 0.25*2 + 0.25*6. */
    simtx_time_average held = {{0, 0}, 0, 0};
    simtx_time_average_set(&held, 2, 0);
    simtx_time_average_set(&held, 6, 10);
    simtx_time_average_set(&held, 6, 15); /* re-setting the same level changes nothing */
    simtx_time_average_set(&held, 0, 20);
    simtx_time_average_close(&held, 40);
    CHECK_EQUAL(held.average.count, 40);
    CHECK(simtx_average_mean(&held.average) == 2.0);

    simtx_observer *o = simtx_observer_create();
    uint64_t hits = 7, level = 3;
    simtx_average average = {0, 0};
    simtx_average_add(&average, 2);
    simtx_average_add(&average, 4);
    simtx_observer_set_prefix(o, "cache");
    simtx_observe_counter(o, "hits", &hits, "accesses", "hits");
    simtx_observe_average(o, "occupancy", &average, "entries", "mean occupancy");
    simtx_observe_probe(o, "level", &level, 4, "fill level");
    simtx_observer_set_prefix(o, NULL);
    CHECK_EQUAL(simtx_observer_stat_count(o), 2);
    CHECK_STRING(simtx_observer_stat(o, 0)->name, "cache.hits");
    CHECK_STRING(simtx_observer_probe(o, 0)->name, "cache.level");
    CHECK(simtx_observer_find_stat(o, "cache.occupancy") != NULL);
    char *buffer = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buffer, &size);
    simtx_stats_write_json_members(o, out, 2);
    fclose(out);
    CHECK_CONTAINS(buffer, "\"cache.hits\": 7");
    CHECK_CONTAINS(buffer, "\"cache.occupancy\": {\"mean\": 3, \"count\": 2}");
    free(buffer);
    simtx_observer_destroy(o);
    /* A NULL observer ignores registrations. */
    simtx_observe_counter(NULL, "x", &hits, "", "");
    CHECK_EQUAL(simtx_observer_stat_count(NULL), 0);
}

static void test_msg_queue(void)
{
    msg_queue q;
    CHECK(msg_queue_init(&q, 3));
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_READ, 0, 4);
    for (unsigned i = 0; i < 3; i++) {
        m.id = i;
        CHECK(msg_queue_push(&q, &m, 10 + i));
    }
    CHECK(msg_queue_full(&q));
    CHECK(!msg_queue_push(&q, &m, 0));
    CHECK_EQUAL(msg_queue_front(&q)->id, 0);
    CHECK_EQUAL(msg_queue_front_ready(&q), 10);
    msg_queue_pop(&q);
    m.id = 3;
    CHECK(msg_queue_push(&q, &m, 20)); /* wraps around */
    for (unsigned i = 1; i <= 3; i++) {
        CHECK_EQUAL(msg_queue_front(&q)->id, i);
        msg_queue_pop(&q);
    }
    CHECK(msg_queue_empty(&q));
    CHECK(msg_queue_front(&q) == NULL);
    msg_queue_release(&q);
}

static void test_sparse_memory(void)
{
    sparse_memory *m = sparse_memory_create();
    uint8_t data[9000], back[9000];
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 13 + 5);
    sparse_memory_write(m, 0x7ff0, data, sizeof data); /* spans three pages */
    sparse_memory_read(m, 0x7ff0, back, sizeof back);
    CHECK(memcmp(data, back, sizeof data) == 0);
    uint8_t zero[16], expect_zero[16] = {0};
    sparse_memory_read(m, 0x123456789000ull, zero, sizeof zero); /* never written */
    CHECK(memcmp(zero, expect_zero, sizeof zero) == 0);
    /* Masked write: only enabled bytes change. */
    uint8_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint64_t mask[2] = {0x5, 0};
    sparse_memory_write_masked(m, 0x7ff0, ones, 8, mask);
    sparse_memory_read(m, 0x7ff0, back, 8);
    CHECK_EQUAL(back[0], 1);
    CHECK_EQUAL(back[1], data[1]);
    CHECK_EQUAL(back[2], 1);
    /* Masks of every shape (none, all, partial words) at offsets crossing
     * 64-byte words and 256-byte chunks, against a byte-by-byte model. */
    uint8_t model[512] = {0}, value[128];
    uint64_t state = 1;
    bool masked_ok = true;
    for (unsigned trial = 0; trial < 400; trial++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        unsigned offset = (unsigned)(state >> 33) % 384, size = 1 + (unsigned)(state >> 45) % 128;
        unsigned shape = trial % 4;
        uint64_t enables[2] = {shape == 0 ? 0 : shape == 1 ? UINT64_MAX : state, shape == 0 ? 0 : shape == 1 ? UINT64_MAX : ~state};
        for (unsigned i = 0; i < size; i++) value[i] = (uint8_t)(trial + i);
        sparse_memory_write_masked(m, 0x40000 + offset, value, size, enables);
        for (unsigned i = 0; i < size; i++)
            if ((enables[i >> 6] >> (i & 63)) & 1u) model[offset + i] = value[i];
        uint8_t stored[512];
        sparse_memory_read(m, 0x40000, stored, sizeof stored);
        masked_ok &= memcmp(stored, model, sizeof model) == 0;
    }
    CHECK(masked_ok);
    /* Many pages: the table grows and keeps every page. */
    for (uint64_t page = 0; page < 5000; page++) sparse_memory_write(m, page << 20, &page, sizeof page);
    bool all = true;
    for (uint64_t page = 0; page < 5000; page++) {
        uint64_t value;
        sparse_memory_read(m, page << 20, &value, sizeof value);
        all &= value == page;
    }
    CHECK(all);
    CHECK(sparse_memory_page_count(m) >= 5000);
    /* Prefetch hints change nothing, on stored and on unwritten addresses
     * (unwritten pages and chunks are not created). */
    size_t pages = sparse_memory_page_count(m);
    for (uint64_t page = 0; page < 5000; page += 7) {
        sparse_memory_prefetch_entry(m, page << 20);
        sparse_memory_prefetch_bytes(m, page << 20, 128);
        sparse_memory_prefetch_entry(m, (page << 20) + 0x4000);
        sparse_memory_prefetch_bytes(m, (page << 20) + 0x4000, 64);
        sparse_memory_prefetch_bytes(m, (UINT64_C(1) << 60) + page, 64);
    }
    CHECK_EQUAL(sparse_memory_page_count(m), pages);
    all = true;
    for (uint64_t page = 0; page < 5000; page++) {
        uint64_t value;
        sparse_memory_read(m, page << 20, &value, sizeof value);
        all &= value == page;
    }
    CHECK(all);
    sparse_memory_destroy(m);
}

/* Every op has a distinct name and a family; posted ops get no response
 * and so carry no response data; an op past the table is "unknown" of no
 * family; the flags fit in the message without growing it. */
static void test_op_properties(void)
{
    for (unsigned op = 0; op < SIMTX_OP_COUNT; op++) {
        const simtx_op_info *info = simtx_op_info_of(op);
        CHECK(info->name != NULL && strcmp(info->name, "unknown") != 0);
        CHECK(info->family < SIMTX_FAMILY_COUNT);
        if (!info->answered) CHECK(!info->response_data);
        if (info->request_is_log) CHECK(info->request_data);
        for (unsigned other = 0; other < op; other++) CHECK(strcmp(info->name, simtx_op_info_of(other)->name) != 0);
    }
    CHECK_EQUAL(simtx_op_info_of(SIMTX_OP_TM_DECISION)->family, SIMTX_FAMILY_TM_LAZY);
    CHECK(!simtx_op_info_of(SIMTX_OP_MONITOR_EVICT)->answered);
    CHECK(simtx_op_info_of(SIMTX_OP_WRITE)->request_data && !simtx_op_info_of(SIMTX_OP_WRITE)->response_data);
    CHECK_EQUAL(strcmp(simtx_op_name((simtx_op)200), "unknown"), 0);
    CHECK_EQUAL(simtx_op_info_of(200)->family, SIMTX_FAMILY_COUNT);
    char text[128];
    simtx_op_unserved(text, sizeof text, "l2", SIMTX_OP_NOTIFY);
    CHECK_CONTAINS(text, "l2 does not serve op notify");
    CHECK_CONTAINS(text, "notification");
    /* flags sits in what was padding: the message is copied on hot paths. */
    CHECK_EQUAL(sizeof(simtx_msg), 224);
    simtx_msg msg;
    memset(&msg, 0xFF, sizeof msg);
    simtx_msg_init(&msg, SIMTX_OP_READ, 0, 4);
    CHECK_EQUAL(msg.flags, 0);
}

/* The set index is key mod sets, computed without a division, for every
 * key width and for set counts that are and are not powers of two; a full
 * set refuses a new key and takes it again once an entry freed. */
static void test_ref_table(void)
{
    static const uint32_t set_counts[] = {1, 3, 7, 384, 1024, 1000003};
    static const uint32_t keys[] = {0, 1, 2, 383, 384, 385, 0x3fffffff, 0x7fffffff, 0xfffffffe, 0xffffffff, 123456789};
    for (size_t s = 0; s < sizeof set_counts / sizeof *set_counts; s++) {
        ref_table t;
        CHECK(ref_table_init(&t, set_counts[s] * 2, 2));
        CHECK_EQUAL(t.sets, set_counts[s]);
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            CHECK_EQUAL(ref_table_set(&t, keys[k]), keys[k] % set_counts[s]);
        for (uint32_t key = 0; key < 5000; key++) CHECK_EQUAL(ref_table_set(&t, key * 7919u), (key * 7919u) % set_counts[s]);
        ref_table_release(&t);
    }
    ref_table t;
    CHECK(ref_table_init(&t, 8, 2)); /* 4 sets of 2 */
    uint32_t *a = ref_table_take(&t, 1);
    CHECK(a != NULL);
    *a = 1, ref_table_settle(&t, a, 0); /* taken only once its value is non-zero */
    uint32_t *b = ref_table_take(&t, 5);
    CHECK(b != NULL && b != a);
    *b = 3, ref_table_settle(&t, b, 0);
    CHECK_EQUAL(t.used, 2);
    CHECK(ref_table_take(&t, 9) == NULL); /* the set of 1 and 5 is full */
    CHECK(ref_table_find(&t, 9) == NULL);
    CHECK(ref_table_find(&t, 5) == b && *ref_table_find(&t, 5) == 3);
    CHECK(ref_table_take(&t, 2) != NULL); /* another set */
    *a = 0, ref_table_settle(&t, a, 1); /* 5 moves into the freed way */
    CHECK_EQUAL(t.used, 1);
    CHECK(ref_table_find(&t, 1) == NULL);
    CHECK(ref_table_find(&t, 5) != NULL && *ref_table_find(&t, 5) == 3);
    uint32_t *c = ref_table_take(&t, 9);
    CHECK(c != NULL && *c == 0);
    *c = 2, ref_table_settle(&t, c, 0);
    CHECK(ref_table_take(&t, 13) == NULL); /* full again */
    CHECK(*ref_table_find(&t, 9) == 2 && *ref_table_find(&t, 5) == 3);
    ref_table_release(&t);
}

int main(void)
{
    test_ref_table();
    test_op_properties();
    test_params();
    test_stats();
    test_msg_queue();
    test_sparse_memory();
    return simtx_test_summary();
}
