/* The serializability oracle for host programs (host_api.h): the tm_units'
 * commit records replayed in commit-ID order by verification/tm_oracle on
 * snapshots of the regions registered before the launch. When the
 * transactions took snapshots (SI-TM), verification/si_check checks each
 * read against its snapshot and the dependency graph for cycles first; the
 * replay follows only if every read was validated at commit (a plain-SI or
 * stale-snapshot history is serializable, if at all, in another order). The
 * ldss' records (GPU-LocalTM), each CTA instance's shared memory a space of
 * its own, are replayed in their commit order from the values their first
 * commits read (a region starts zeroed and may be written before its
 * transactions). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_backend.h"
#include "si_check.h"
#include "tm_oracle.h"

typedef struct region {
    uint32_t address, bytes;
    uint8_t *data;
} region;

typedef struct commit {
    uint32_t cid, after; /* after: read-only, serialized right after cid (temporal conflict detection) */
    uint32_t read_count, write_count;
    uint32_t snapshot, flags; /* tm_unit_record's */
    uint32_t *words; /* address, value pairs */
} commit;

typedef struct lds_commit {
    gpu_lds_commit record;
    uint32_t *words; /* byte offset, value pairs */
} lds_commit;

struct gpu_serializability {
    gpu_device *device;
    region *regions;
    size_t region_count;
    commit *commits;
    size_t commit_count, commit_capacity;
    lds_commit *lds_commits;
    size_t lds_count, lds_capacity;
    bool out_of_memory;
};

/* Names the oracle in the device's last error. */
static void prefix_error(gpu_device *device)
{
    char reason[512];
    snprintf(reason, sizeof reason, "%s", gpu_last_error(device));
    gpu_set_error(device, "serializability oracle: %s", reason);
}

gpu_serializability *gpu_serializability_begin(gpu_device *device)
{
    if (!device) return NULL;
    gpu_serializability *check = calloc(1, sizeof *check);
    if (!check) {
        gpu_set_error(device, "serializability oracle: out of host memory");
        return NULL;
    }
    check->device = device;
    if (!gpu_tm_record(device, true)) {
        prefix_error(device);
        free(check);
        return NULL;
    }
    return check;
}

bool gpu_serializability_region(gpu_serializability *check, uint32_t address, uint32_t bytes)
{
    if (!check) return false;
    region *grown = realloc(check->regions, (check->region_count + 1) * sizeof *grown);
    if (!grown) return gpu_set_error(check->device, "serializability oracle: out of host memory");
    check->regions = grown;
    region *r = &check->regions[check->region_count];
    r->address = address;
    r->bytes = bytes;
    r->data = malloc(bytes ? bytes : 1);
    if (!r->data) return gpu_set_error(check->device, "serializability oracle: out of host memory");
    if (!gpu_copy_from_device(check->device, r->data, address, bytes)) {
        free(r->data);
        return false;
    }
    check->region_count++;
    return true;
}

/* Room for one more item in *items (count of *capacity, item_size bytes
 * each), and a copy of a commit's words (reads + writes address, value
 * pairs); NULL when out of host memory (marked). */
static uint32_t *room_and_words(gpu_serializability *check, void **items, size_t count, size_t *capacity, size_t item_size,
                                const uint32_t *words, uint32_t reads, uint32_t writes)
{
    if (check->out_of_memory) return NULL;
    if (count == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 1024;
        void *grown = realloc(*items, grown_capacity * item_size);
        if (!grown) {
            check->out_of_memory = true;
            return NULL;
        }
        *items = grown;
        *capacity = grown_capacity;
    }
    size_t n = 2 * ((size_t)reads + writes);
    uint32_t *copy = malloc((n ? n : 1) * sizeof(uint32_t));
    if (!copy) {
        check->out_of_memory = true;
        return NULL;
    }
    memcpy(copy, words, n * sizeof(uint32_t));
    return copy;
}

static void collect(void *context, const tm_unit_record *record, const uint32_t *words)
{
    gpu_serializability *check = context;
    void *items = check->commits;
    uint32_t *copy = room_and_words(check, &items, check->commit_count, &check->commit_capacity, sizeof(commit),
                                    words + record->first_word, record->read_count, record->write_count);
    check->commits = items;
    if (!copy) return;
    commit *c = &check->commits[check->commit_count];
    c->words = copy;
    c->cid = record->cid;
    c->after = record->after;
    c->read_count = record->read_count;
    c->write_count = record->write_count;
    c->snapshot = record->snapshot;
    c->flags = record->flags;
    check->commit_count++;
}

static void collect_lds(void *context, const gpu_lds_commit *record, const uint32_t *words)
{
    gpu_serializability *check = context;
    void *items = check->lds_commits;
    uint32_t *copy = room_and_words(check, &items, check->lds_count, &check->lds_capacity, sizeof(lds_commit), words,
                                    record->read_count, record->write_count);
    check->lds_commits = items;
    if (!copy) return;
    lds_commit *c = &check->lds_commits[check->lds_count];
    c->words = copy;
    c->record = *record;
    check->lds_count++;
}

static int by_space(const void *a, const void *b)
{
    const gpu_lds_commit *x = &((const lds_commit *)a)->record, *y = &((const lds_commit *)b)->record;
    if (x->space != y->space) return x->space < y->space ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* One CTA instance's commits, in order. */
typedef struct lds_space {
    const lds_commit *commits;
    size_t count;
} lds_space;

/* The initial value of a word: what its first commit read (every word a
 * GPU-LocalTM commit writes it also reads). */
static bool read_lds_initial(void *context, uint64_t address, void *data, size_t size)
{
    const lds_space *space = context;
    for (size_t i = 0; i < space->count; i++) {
        const lds_commit *c = &space->commits[i];
        for (uint32_t k = 0; k < c->record.read_count; k++)
            if (address >= c->words[2 * k] && address + size <= (uint64_t)c->words[2 * k] + 4) {
                memcpy(data, (const uint8_t *)&c->words[2 * k + 1] + (address - c->words[2 * k]), size);
                return true;
            }
    }
    return false;
}

/* The final value of a word: its last commit's write (the CTA's shared
 * memory is gone after the run; the replay's reads are the check). */
static bool read_lds_final(void *context, uint64_t address, void *data, size_t size)
{
    const lds_space *space = context;
    for (size_t i = space->count; i-- > 0;) {
        const lds_commit *c = &space->commits[i];
        const uint32_t *writes = c->words + 2 * (size_t)c->record.read_count;
        for (uint32_t k = 0; k < c->record.write_count; k++)
            if (address >= writes[2 * k] && address + size <= (uint64_t)writes[2 * k] + 4) {
                memcpy(data, (const uint8_t *)&writes[2 * k + 1] + (address - writes[2 * k]), size);
                return true;
            }
    }
    return false;
}

/* Replays each CTA instance's shared-memory commits; NULL when each is
 * serializable in its commit order, else the first violation. */
static const char *replay_lds(gpu_serializability *check, char *message, size_t message_size)
{
    if (check->lds_count > 1) qsort(check->lds_commits, check->lds_count, sizeof *check->lds_commits, by_space);
    tm_oracle_access *accesses = NULL;
    size_t capacity = 0;
    const char *error = NULL;
    for (size_t first = 0, end; first < check->lds_count && !error; first = end) {
        for (end = first + 1; end < check->lds_count && check->lds_commits[end].record.space == check->lds_commits[first].record.space;) end++;
        lds_space space = {&check->lds_commits[first], end - first};
        tm_oracle *oracle = tm_oracle_create(read_lds_initial, &space);
        if (!oracle) return "out of host memory";
        for (size_t i = 0; i < space.count && !error; i++) {
            const lds_commit *c = &space.commits[i];
            size_t n = (size_t)c->record.read_count + c->record.write_count;
            if (n > capacity) {
                capacity = n * 2;
                tm_oracle_access *grown = realloc(accesses, capacity * sizeof *grown);
                if (!grown) {
                    error = "out of host memory";
                    break;
                }
                accesses = grown;
            }
            for (size_t k = 0; k < n; k++) accesses[k] = (tm_oracle_access){c->words[2 * k], c->words[2 * k + 1], 4};
            tm_oracle_commit(oracle, c->record.order, accesses, c->record.read_count, accesses + c->record.read_count,
                             c->record.write_count);
        }
        const char *violation = error ? NULL : tm_oracle_check_final(oracle, read_lds_final, &space);
        if (violation) {
            snprintf(message, message_size, "shared memory of CTA instance 0x%llx (offsets in its region): %s",
                     (unsigned long long)space.commits[0].record.space, violation);
            error = message;
        }
        tm_oracle_destroy(oracle);
    }
    free(accesses);
    return error;
}

static int by_cid(const void *a, const void *b)
{
    const commit *x = a, *y = b;
    if (x->cid != y->cid) return x->cid < y->cid ? -1 : 1;
    return x->after < y->after ? -1 : x->after > y->after;
}

static bool read_initial(void *context, uint64_t address, void *data, size_t size)
{
    const gpu_serializability *check = context;
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
    const gpu_serializability *check = context;
    return gpu_copy_from_device(check->device, data, (uint32_t)address, size);
}

static void destroy(gpu_serializability *check)
{
    for (size_t i = 0; i < check->region_count; i++) free(check->regions[i].data);
    for (size_t i = 0; i < check->commit_count; i++) free(check->commits[i].words);
    for (size_t i = 0; i < check->lds_count; i++) free(check->lds_commits[i].words);
    free(check->regions);
    free(check->commits);
    free(check->lds_commits);
    free(check);
}

/* Replays the sorted history; NULL when serializable, else the first violation. */
static const char *replay(gpu_serializability *check, tm_oracle *oracle, char *message, size_t message_size)
{
    tm_oracle_access *accesses = NULL;
    size_t capacity = 0;
    const char *error = NULL;
    for (size_t i = 0; i < check->commit_count && !error; i++) {
        const commit *c = &check->commits[i];
        if (i && !c->after && c->cid == check->commits[i - 1].cid && !check->commits[i - 1].after) {
            snprintf(message, message_size, "commit ID %u committed twice", c->cid);
            error = message;
            break;
        }
        size_t n = (size_t)c->read_count + c->write_count;
        if (n > capacity) {
            capacity = n * 2;
            tm_oracle_access *grown = realloc(accesses, capacity * sizeof *grown);
            if (!grown) {
                error = "out of host memory";
                break;
            }
            accesses = grown;
        }
        for (size_t k = 0; k < n; k++) accesses[k] = (tm_oracle_access){c->words[2 * k], c->words[2 * k + 1], 4};
        tm_oracle_commit(oracle, c->cid, accesses, c->read_count, accesses + c->read_count, c->write_count);
    }
    free(accesses);
    return error ? error : tm_oracle_check_final(oracle, read_final, check);
}

/* The SI history checker over the sorted history; NULL when it holds. */
static const char *check_snapshots(gpu_serializability *check, si_check *checker, gpu_serializability_report *report,
                                   char *message, size_t message_size)
{
    for (size_t i = 0; i < check->commit_count; i++) {
        const commit *c = &check->commits[i];
        bool snapshot = c->flags & TM_UNIT_RECORD_SNAPSHOT, validated = !(c->flags & TM_UNIT_RECORD_UNVALIDATED) && !c->after;
        if (!snapshot && !validated && !c->after) {
            snprintf(message, message_size, "commit ID %" PRIu32 ": its reads were not validated and it recorded no snapshot", c->cid);
            return message;
        }
        si_check_tx tx = {c->cid, snapshot ? c->snapshot : c->after ? c->cid : c->cid - 1, validated, c->read_count, c->write_count, c->words};
        if (!si_check_add(checker, &tx)) return "out of host memory";
    }
    const char *error = si_check_run(checker, SI_CHECK_SERIALIZABLE, read_final, check);
    const si_check_counts *counts = si_check_get_counts(checker);
    report->edges_wr = counts->edges_wr;
    report->edges_ww = counts->edges_ww;
    report->edges_rw = counts->edges_rw;
    report->validated_torn_reads = counts->validated_torn_reads;
    if (si_check_note(checker)) snprintf(report->torn_note, sizeof report->torn_note, "%s", si_check_note(checker));
    if (error) return error;
    report->snapshots_checked = true;
    return NULL;
}

bool gpu_serializability_end(gpu_serializability *check, size_t *commit_count)
{
    gpu_serializability_report report;
    bool ok = gpu_serializability_finish(check, &report);
    if (commit_count) *commit_count = report.commits;
    return ok;
}

bool gpu_serializability_finish(gpu_serializability *check, gpu_serializability_report *report)
{
    *report = (gpu_serializability_report){0};
    if (!check) return false;
    gpu_device *device = check->device;
    if (!gpu_tm_history(device, collect, check) || !gpu_lds_history(device, collect_lds, check) || check->out_of_memory) {
        if (check->out_of_memory) gpu_set_error(device, "serializability oracle: out of host memory");
        else prefix_error(device);
        gpu_tm_record(device, false);
        destroy(check);
        return false;
    }
    /* A launch that committed nothing leaves commits NULL, which qsort must not get. */
    if (check->commit_count > 1) qsort(check->commits, check->commit_count, sizeof *check->commits, by_cid);
    bool snapshots = false, all_validated = true;
    for (size_t i = 0; i < check->commit_count; i++) {
        if (check->commits[i].flags & TM_UNIT_RECORD_SNAPSHOT) snapshots = true;
        if (check->commits[i].flags & TM_UNIT_RECORD_UNVALIDATED) all_validated = false;
    }
    char message[160], lds_message[512];
    const char *error = NULL;
    if (snapshots || !all_validated) {
        si_check *checker = si_check_create(read_initial, check);
        error = checker ? check_snapshots(check, checker, report, message, sizeof message) : "out of host memory";
        if (error) gpu_set_error(device, "snapshot-isolation checker: %s", error);
        si_check_destroy(checker);
    }
    if (!error && all_validated) {
        tm_oracle *oracle = tm_oracle_create(read_initial, check);
        error = oracle ? replay(check, oracle, message, sizeof message) : "out of host memory";
        if (error) gpu_set_error(device, "serializability oracle: %s", error);
        else report->replayed = true;
        tm_oracle_destroy(oracle);
    }
    if (!error) {
        error = replay_lds(check, lds_message, sizeof lds_message);
        if (error) gpu_set_error(device, "serializability oracle: %s", error);
    }
    report->commits = check->commit_count + check->lds_count;
    gpu_tm_record(device, false);
    destroy(check);
    return !error;
}

void gpu_serializability_discard(gpu_serializability *check)
{
    if (!check) return;
    gpu_tm_record(check->device, false);
    destroy(check);
}
