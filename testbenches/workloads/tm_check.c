#include "tm_check.h"

#include <stdlib.h>
#include <string.h>

#include "tm_oracle.h"

typedef struct region {
    uint32_t address, bytes;
    uint8_t *data;
} region;

typedef struct commit {
    uint32_t cid, after; /* after: read-only, serialized right after cid (temporal conflict detection) */
    uint32_t read_count, write_count;
    uint32_t *words; /* address, value pairs */
} commit;

struct tm_check {
    region *regions;
    size_t region_count;
    commit *commits;
    size_t commit_count, commit_capacity;
    bool out_of_memory;
    gpu_device *device;
};

tm_check *tm_check_begin(gpu_device *device, workload_context *context, int *status)
{
    *status = 0;
    if (!workload_int(context, "check_serializability", 1, 0, 1)) return NULL;
    tm_check *check = calloc(1, sizeof *check);
    if (!check) {
        *status = workload_fail(context, "out of host memory");
        return NULL;
    }
    check->device = device;
    if (!gpu_tm_record(device, true)) {
        *status = workload_fail(context, "serializability oracle: %s", gpu_last_error(device));
        free(check);
        return NULL;
    }
    return check;
}

bool tm_check_region(tm_check *check, gpu_device *device, uint32_t address, uint32_t bytes)
{
    if (!check) return true;
    region *grown = realloc(check->regions, (check->region_count + 1) * sizeof *grown);
    if (!grown) return false;
    check->regions = grown;
    region *r = &check->regions[check->region_count];
    r->address = address;
    r->bytes = bytes;
    r->data = malloc(bytes ? bytes : 1);
    if (!r->data || !gpu_copy_from_device(device, r->data, address, bytes)) {
        free(r->data);
        return false;
    }
    check->region_count++;
    return true;
}

static void collect(void *context, const tm_unit_record *record, const uint32_t *words)
{
    tm_check *check = context;
    if (check->out_of_memory) return;
    if (check->commit_count == check->commit_capacity) {
        size_t capacity = check->commit_capacity ? check->commit_capacity * 2 : 1024;
        commit *grown = realloc(check->commits, capacity * sizeof *grown);
        if (!grown) {
            check->out_of_memory = true;
            return;
        }
        check->commits = grown;
        check->commit_capacity = capacity;
    }
    size_t n = 2 * ((size_t)record->read_count + record->write_count);
    commit *c = &check->commits[check->commit_count];
    c->words = malloc((n ? n : 1) * sizeof(uint32_t));
    if (!c->words) {
        check->out_of_memory = true;
        return;
    }
    memcpy(c->words, words + record->first_word, n * sizeof(uint32_t));
    c->cid = record->cid;
    c->after = record->after;
    c->read_count = record->read_count;
    c->write_count = record->write_count;
    check->commit_count++;
}

static int by_cid(const void *a, const void *b)
{
    const commit *x = a, *y = b;
    if (x->cid != y->cid) return x->cid < y->cid ? -1 : 1;
    return x->after < y->after ? -1 : x->after > y->after;
}

static bool read_initial(void *context, uint64_t address, void *data, size_t size)
{
    const tm_check *check = context;
    for (size_t i = 0; i < check->region_count; i++) {
        const region *r = &check->regions[i];
        if (address >= r->address && address + size <= (uint64_t)r->address + r->bytes) {
            memcpy(data, r->data + (address - r->address), size);
            return true;
        }
    }
    return false;
}

static bool read_final(void *context, uint64_t address, void *data, size_t size)
{
    const tm_check *check = context;
    return gpu_copy_from_device(check->device, data, (uint32_t)address, size);
}

static void destroy(tm_check *check)
{
    for (size_t i = 0; i < check->region_count; i++) free(check->regions[i].data);
    for (size_t i = 0; i < check->commit_count; i++) free(check->commits[i].words);
    free(check->regions);
    free(check->commits);
    free(check);
}

int tm_check_end(tm_check *check, gpu_device *device, workload_context *context)
{
    if (!check) return 0;
    int status = 0;
    if (!gpu_tm_history(device, collect, check) || check->out_of_memory) {
        status = workload_fail(context, "serializability oracle: %s",
                               check->out_of_memory ? "out of host memory" : gpu_last_error(device));
        destroy(check);
        return status;
    }
    /* A launch that committed nothing leaves commits NULL, which qsort must not get. */
    if (check->commit_count > 1) qsort(check->commits, check->commit_count, sizeof *check->commits, by_cid);
    tm_oracle *oracle = tm_oracle_create(read_initial, check);
    if (!oracle) {
        destroy(check);
        return workload_fail(context, "out of host memory");
    }
    tm_oracle_access *accesses = NULL;
    size_t capacity = 0;
    for (size_t i = 0; i < check->commit_count && !status; i++) {
        const commit *c = &check->commits[i];
        if (i && !c->after && c->cid == check->commits[i - 1].cid && !check->commits[i - 1].after) {
            status = workload_fail(context, "serializability oracle: commit ID %u committed twice", c->cid);
            break;
        }
        size_t n = (size_t)c->read_count + c->write_count;
        if (n > capacity) {
            capacity = n * 2;
            tm_oracle_access *grown = realloc(accesses, capacity * sizeof *grown);
            if (!grown) {
                status = workload_fail(context, "out of host memory");
                break;
            }
            accesses = grown;
        }
        for (size_t k = 0; k < n; k++) accesses[k] = (tm_oracle_access){c->words[2 * k], c->words[2 * k + 1], 4};
        tm_oracle_commit(oracle, c->cid, accesses, c->read_count, accesses + c->read_count, c->write_count);
    }
    if (!status) {
        const char *error = tm_oracle_check_final(oracle, read_final, check);
        if (error) status = workload_fail(context, "serializability oracle: %s", error);
        else if (context->log)
            fprintf(context->log, "serializability oracle: %zu committed transactions replayed in commit order, consistent\n",
                    check->commit_count);
    }
    free(accesses);
    tm_oracle_destroy(oracle);
    gpu_tm_record(device, false);
    destroy(check);
    return status;
}

void tm_check_discard(tm_check *check, gpu_device *device)
{
    if (!check) return;
    gpu_tm_record(device, false);
    destroy(check);
}

void tm_print_statistics(gpu_device *device, workload_context *context, const char *name)
{
    /* The tm_units' and the cores' statistics (the commit units count commits and aborts too). */
    static const char *const names[] = {"aborts_validation", "aborts_intra_warp", "aborts_timeout", "tm_wasted_cycles", "commit_cycles", "log_bytes"};
    if (!context->log) return;
    fprintf(context->log, "%s:", name);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double value = 0;
        if (gpu_statistic(device, names[i], &value)) fprintf(context->log, " %s=%.0f", names[i], value);
    }
    fprintf(context->log, "\n");
}
