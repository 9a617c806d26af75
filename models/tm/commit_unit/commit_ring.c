/* commit_ring: the commit-ID window of a commit unit (see commit_ring.h). */
#include "commit_ring.h"

#include <stdlib.h>
#include <string.h>

bool commit_ring_init(commit_ring *r, uint32_t window)
{
    memset(r, 0, sizeof *r);
    r->window = window;
    r->hazard_cid = r->writeback_cid = r->retire_cid = 1;
    r->slots = calloc(window, sizeof *r->slots);
    r->groups = calloc((size_t)window * 2, sizeof *r->groups);
    r->free_groups = calloc((size_t)window * 2, sizeof *r->free_groups);
    r->validate_queue = calloc(window, sizeof *r->validate_queue);
    r->complete_queue = calloc((size_t)window * 2, sizeof *r->complete_queue);
    if (r->free_groups)
        for (uint32_t i = 0; i < window * 2; i++) r->free_groups[r->free_group_count++] = (int32_t)(window * 2 - 1 - i);
    return r->slots && r->groups && r->free_groups && r->validate_queue && r->complete_queue;
}

void commit_ring_release(commit_ring *r)
{
    if (r->slots)
        for (uint32_t i = 0; i < r->window; i++) {
            free(r->slots[i].reads.entries);
            free(r->slots[i].writes.entries);
        }
    free(r->slots);
    free(r->queries.messages);
    free(r->beyond.messages);
    free(r->groups);
    free(r->free_groups);
    free(r->validate_queue);
    free(r->complete_queue);
    memset(r, 0, sizeof *r);
}

commit_slot *commit_ring_open(commit_ring *r, uint32_t cid)
{
    commit_slot *s = commit_ring_slot(r, cid);
    if (s->state == COMMIT_SLOT_FREE) {
        s->cid = cid;
        s->state = COMMIT_SLOT_FILL;
    }
    return s->cid == cid && s->state == COMMIT_SLOT_FILL ? s : NULL;
}

bool commit_log_append(commit_log *log, tm_entry entry)
{
    if (log->count == log->capacity) {
        uint32_t capacity = log->capacity ? log->capacity * 2 : 16;
        tm_entry *grown = realloc(log->entries, capacity * sizeof *grown);
        if (!grown) return false;
        log->entries = grown;
        log->capacity = capacity;
    }
    log->entries[log->count++] = entry;
    return true;
}

int32_t commit_ring_group_open(commit_ring *r, const simtx_msg *request)
{
    int32_t g = r->free_groups[--r->free_group_count];
    r->groups[g].request = *request;
    r->groups[g].pending = 0;
    r->groups[g].mask = 0;
    return g;
}

void commit_ring_group_free(commit_ring *r, int32_t group) { r->free_groups[r->free_group_count++] = group; }

bool commit_ring_hold(commit_held *held, const simtx_msg *message)
{
    if (held->length == held->capacity) {
        size_t capacity = held->capacity ? 2 * held->capacity : 64;
        simtx_msg *grown = realloc(held->messages, capacity * sizeof *grown);
        if (!grown) return false;
        held->messages = grown;
        held->capacity = capacity;
    }
    held->messages[held->length++] = *message;
    return true;
}

void commit_ring_unhold(commit_held *held, size_t index)
{
    memmove(&held->messages[index], &held->messages[index + 1], (held->length - index - 1) * sizeof *held->messages);
    held->length--;
}

uint32_t commit_ring_retire(commit_ring *r)
{
    uint32_t retired = 0;
    while (r->retire_cid < r->writeback_cid) {
        commit_slot *s = commit_ring_slot(r, r->retire_cid);
        if (s->state != COMMIT_SLOT_SKIP && s->state != COMMIT_SLOT_DONE) break;
        s->reads.count = s->writes.count = 0;
        s->state = COMMIT_SLOT_FREE;
        s->done_received = s->has_decision = s->commit = s->hazard = s->validation_failed = false;
        s->expected_reads = s->expected_writes = s->hazard_progress = s->wait_for_cid = 0;
        s->validation_issued = s->validation_returned = s->writeback_issued = s->writeback_acked = 0;
        for (uint32_t waiter = s->first_waiter; waiter; waiter = commit_ring_slot(r, waiter)->next_waiter)
            commit_ring_queue_validation(r, waiter); /* their hazard is gone */
        s->first_waiter = 0;
        r->retire_cid++;
        retired++;
    }
    return retired;
}
