/* pm_kvs: a persistent key-value store's batched insert (GPM's gpKVS kind):
 * a set-associative table of `buckets` x PM_KVS_WAYS {key, value} slots in
 * the persistent window, `prefill` pairs in it before the launch, `n` new
 * distinct keys inserted, one per thread, tx_per_cta durable transactions
 * per CTA, each on a block of keys (durable_common.h). Oracle: every prefilled pair in place, every new key
 * exactly once in its bucket with its value, nothing else. Crash checker:
 * each CTA's inserts all present or all absent, prefilled pairs intact, no
 * slot holding anything else. */
#include "durable_common.h"

#include <stdio.h>

/* The kernel's hash (kernels/pm_kvs.c). */
static uint32_t bucket_of(uint32_t key, uint32_t buckets) { return (key * 2654435761u >> 8) % buckets; }
/* Values follow from keys, so a slot holding only its value still names its insert. */
#define VALUE_OF(key) ((key) ^ 0x5bd1e995u)

typedef struct kvs_state {
    uint32_t n, buckets, prefill;
    uint32_t *table;    /* buckets x WAYS x {key, value}: the prefilled image */
    uint32_t *counts;   /* per bucket: prefilled pairs */
    uint32_t *keys;     /* the batch */
    uint32_t block;
} kvs_state;

static int thread_of_key(const kvs_state *s, uint32_t key, uint32_t bucket)
{
    for (uint32_t t = 0; t < s->n; t++)
        if (s->keys[t] == key) return bucket_of(key, s->buckets) == bucket ? (int)t : -1;
    return -1;
}

/* Walks an image of the table: prefilled slots must be intact; every other
 * slot is empty or (part of) a batch insert of its bucket, counted in
 * words[t] (key and value words found new) and slots[t]. Returns the first
 * bad slot's description in bad (empty when none). */
static void scan_table(const kvs_state *s, const uint32_t *image, uint8_t *words, uint8_t *slots, char *bad, size_t bad_size)
{
    bad[0] = '\0';
    for (uint32_t bucket = 0; bucket < s->buckets; bucket++)
        for (uint32_t way = 0; way < PM_KVS_WAYS; way++) {
            const uint32_t *slot = &image[(bucket * PM_KVS_WAYS + way) * 2];
            const uint32_t *prefilled = &s->table[(bucket * PM_KVS_WAYS + way) * 2];
            if (way < s->counts[bucket]) {
                if ((slot[0] != prefilled[0] || slot[1] != prefilled[1]) && !bad[0])
                    snprintf(bad, bad_size, "bucket %u way %u: prefilled {%u, %u} became {%u, %u}", bucket, way, prefilled[0], prefilled[1],
                             slot[0], slot[1]);
                continue;
            }
            if (!slot[0] && !slot[1]) continue;
            uint32_t key = slot[0] ? slot[0] : VALUE_OF(slot[1]);
            int t = thread_of_key(s, key, bucket);
            if (t < 0 || (slot[0] && slot[1] && slot[1] != VALUE_OF(key))) {
                if (!bad[0]) snprintf(bad, bad_size, "bucket %u way %u holds {%u, %u}, no insert of this batch", bucket, way, slot[0], slot[1]);
                continue;
            }
            slots[t]++;
            words[t] += (slot[0] == key) + (slot[1] == VALUE_OF(key));
        }
}

int pm_kvs_main(gpu_device *device, workload_context *context)
{
    kvs_state s = {0};
    s.n = (uint32_t)workload_int(context, "n", 2048, 1, 1 << 20);
    s.buckets = (uint32_t)workload_int(context, "buckets", 0, 0, 1 << 22);
    s.block = (uint32_t)workload_int(context, "block", 128, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    durable_run run;
    if (durable_options(context, "pm_kvs", &run) || context->bad_input) return 1;
    int64_t prefill_option = workload_int(context, "prefill", -1, -1, 1 << 22);
    s.prefill = prefill_option < 0 ? s.n / 2 : (uint32_t)prefill_option;
    /* Default: half the slots used after the batch. */
    if (!s.buckets) s.buckets = (2 * (s.n + s.prefill) + PM_KVS_WAYS - 1) / PM_KVS_WAYS;
    if ((uint64_t)s.n + s.prefill > (uint64_t)s.buckets * PM_KVS_WAYS * 3 / 4)
        return workload_bad_option(context, "workload.n + prefill (%u) must fit in 3/4 of the table's %u slots (buckets x %u)", s.n + s.prefill,
                                   s.buckets * PM_KVS_WAYS, PM_KVS_WAYS);
    uint32_t ctas = (uint32_t)((s.n + (uint64_t)s.block * run.tx_per_cta - 1) / ((uint64_t)s.block * run.tx_per_cta));
    size_t table_words = (size_t)s.buckets * PM_KVS_WAYS * 2;
    int status = 0;
    gpu_module *module = NULL;
    s.table = calloc(table_words, 4);
    s.counts = calloc(s.buckets, 4);
    s.keys = malloc(4 * (size_t)s.n);
    uint32_t *pending = calloc(s.buckets, 4), *values = malloc(4 * (size_t)s.n), *image = malloc(4 * table_words);
    uint8_t *words = calloc(s.n, 1), *slots = calloc(s.n, 1), *states = calloc(ctas, 1);
    durable_tally *tally = calloc((size_t)ctas * run.tx_per_cta, sizeof *tally);
    if (!s.table || !s.counts || !s.keys || !pending || !values || !image || !words || !slots || !states || !tally) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    /* Distinct non-zero keys; a key whose bucket is full is drawn again. */
    for (uint32_t i = 0; i < s.prefill + s.n;) {
        uint32_t key = (uint32_t)workload_random(&seed);
        uint32_t bucket = bucket_of(key, s.buckets), used = s.counts[bucket] + pending[bucket];
        bool taken = !key || used == PM_KVS_WAYS;
        for (uint32_t way = 0; way < s.counts[bucket] && !taken; way++) taken = s.table[(bucket * PM_KVS_WAYS + way) * 2] == key;
        for (uint32_t t = 0; t + s.prefill < i && !taken; t++) taken = s.keys[t] == key;
        if (taken) continue;
        if (i < s.prefill) {
            uint32_t *slot = &s.table[(bucket * PM_KVS_WAYS + s.counts[bucket]++) * 2];
            slot[0] = key, slot[1] = VALUE_OF(key);
        } else {
            s.keys[i - s.prefill] = key;
            values[i - s.prefill] = VALUE_OF(key);
            pending[bucket]++;
        }
        i++;
    }
    HOST_CHECK(module = gpu_module_load(device, run.kernel));
    uint32_t dtable, dcounts, dkeys, dvalues;
    HOST_CHECK(dtable = gpu_malloc_persistent(device, 4 * table_words));
    HOST_CHECK(dcounts = gpu_malloc(device, 4 * (size_t)s.buckets));
    HOST_CHECK(dkeys = gpu_malloc(device, 4 * (size_t)s.n));
    HOST_CHECK(dvalues = gpu_malloc(device, 4 * (size_t)s.n));
    HOST_CHECK(gpu_copy_to_device(device, dtable, s.table, 4 * table_words));
    HOST_CHECK(gpu_copy_to_device(device, dcounts, s.counts, 4 * (size_t)s.buckets));
    HOST_CHECK(gpu_copy_to_device(device, dkeys, s.keys, 4 * (size_t)s.n));
    HOST_CHECK(gpu_copy_to_device(device, dvalues, values, 4 * (size_t)s.n));
    HOST_CHECK(durable_prepare(device, &run, ctas, s.block, 2));
    struct pm_kvs_args args = {run.region, run.path, run.tx_per_cta, dtable, dcounts, dkeys, dvalues, s.n, s.buckets};
    HOST_CHECK(gpu_launch(device, module, "pm_kvs", dim3_1d(ctas), dim3_1d(s.block), &args, sizeof args, 0));
    HOST_CHECK(durable_synchronize(device, &run));
    char bad[256];
    if (!run.crashed) {
        HOST_CHECK(gpu_copy_from_device(device, image, dtable, 4 * table_words));
        scan_table(&s, image, words, slots, bad, sizeof bad);
        if (bad[0]) {
            status = workload_fail(context, "pm_kvs: %s", bad);
            goto done;
        }
        for (uint32_t t = 0; t < s.n; t++)
            if (slots[t] != 1 || words[t] != 2) {
                status = workload_fail(context, "pm_kvs: key %u (thread %u) is in %u slots, %u of its 2 words right", s.keys[t], t, slots[t], words[t]);
                goto done;
            }
        if (context->log) fprintf(context->log, "pm_kvs: %u keys inserted into %u buckets beside %u prefilled\n", s.n, s.buckets, s.prefill);
    }
    if (gpu_has_durable_image(device)) {
        gpu_durable_recovery report;
        if ((status = durable_recover(device, context, &run, states, &report))) goto done;
        HOST_CHECK(gpu_copy_from_durable(device, image, dtable, 4 * table_words));
        memset(words, 0, s.n), memset(slots, 0, s.n);
        scan_table(&s, image, words, slots, bad, sizeof bad);
        if (bad[0] && run.path != GPU_PERSIST_NONE) {
            status = workload_fail(context, "pm_kvs: the recovered durable table: %s", bad);
            goto done;
        }
        for (uint32_t t = 0; t < s.n; t++) {
            durable_tally *c = &tally[t / s.block]; /* the unit of t's transaction */
            if (slots[t] > 1) {
                status = workload_fail(context, "pm_kvs: key %u (thread %u) in %u slots of the durable table", s.keys[t], t, slots[t]);
                goto done;
            }
            c->outputs += 2;
            c->new_values += words[t];
            /* The words of its slot not new are as they were (empty); an
             * absent insert left both. */
            c->old_values += 2u - words[t];
        }
        status = durable_verdict(context, &run, states, tally, &report);
    }
done:
    gpu_module_unload(module);
    free(s.table), free(s.counts), free(s.keys), free(pending), free(values), free(image), free(words), free(slots), free(states), free(tally);
    return status;
}
