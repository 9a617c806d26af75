/* simt_stack: the IPDOM stack's operations (no dependency on the core, so a test drives it alone). */
#include "simt_stack.h"

#include <stdlib.h>

bool simt_stack_init(simt_stack *s, uint32_t capacity)
{
    s->entries = calloc(capacity, sizeof *s->entries);
    s->depth = 0;
    s->capacity = s->entries ? capacity : 0;
    return s->entries != NULL;
}

void simt_stack_release(simt_stack *s)
{
    free(s->entries);
    s->entries = NULL;
    s->depth = s->capacity = 0;
}

void simt_stack_start(simt_stack *s, uint32_t entry_pc, uint32_t exit_pc, uint64_t mask)
{
    s->depth = 1;
    s->entries[0] = (stack_entry){entry_pc, exit_pc, mask, true, false, ENTRY_NORMAL, 0};
}

simt_stack_status simt_stack_push(simt_stack *s, uint32_t pc, uint32_t reconverge, uint64_t mask, bool is_call)
{
    if (s->depth == SIMT_STACK_MAX_DEPTH) return SIMT_STACK_TOO_DEEP;
    if (s->depth == s->capacity) {
        uint32_t grown = s->capacity ? s->capacity * 2 : 16;
        stack_entry *entries = realloc(s->entries, grown * sizeof *entries);
        if (!entries) return SIMT_STACK_NO_MEMORY;
        s->entries = entries;
        s->capacity = grown;
    }
    s->entries[s->depth++] = (stack_entry){pc, reconverge, mask, is_call, false, ENTRY_NORMAL, 0};
    return SIMT_STACK_OK;
}

simt_stack_state simt_stack_reconverge(simt_stack *s, uint32_t exit_pc)
{
    while (s->depth) {
        const stack_entry *top = &s->entries[s->depth - 1];
        if (top->mask && (top->pc != top->reconverge || top->at_barrier)) {
            return top->pc == exit_pc ? SIMT_STACK_BROKEN : SIMT_STACK_RUNNING;
        }
        s->depth--;
    }
    return SIMT_STACK_FINISHED;
}

simt_stack_status simt_stack_open_transaction(simt_stack *s, uint32_t begin_pc, uint32_t commit_pc, uint64_t mask,
                                              uint32_t *retry_index)
{
    s->entries[s->depth - 1].pc = commit_pc + 4;
    *retry_index = s->depth;
    simt_stack_status status = simt_stack_push(s, begin_pc + 4, TX_NO_RECONVERGE, 0, false);
    if (status != SIMT_STACK_OK) return status;
    s->entries[s->depth - 1].kind = ENTRY_RETRY;
    status = simt_stack_push(s, begin_pc + 4, TX_NO_RECONVERGE, mask, false);
    if (status != SIMT_STACK_OK) return status;
    s->entries[s->depth - 1].kind = ENTRY_TRANSACTION;
    return SIMT_STACK_OK;
}

simt_stack_status simt_stack_pause(simt_stack *s, uint32_t retry_index, uint32_t pc, uint64_t lanes, uint32_t log_index)
{
    uint32_t attempt = simt_stack_attempt_index(s, retry_index), top = s->depth - 1, count = 0;
    for (uint32_t e = attempt; e <= top; e++) count += (s->entries[e].mask & lanes) != 0;
    for (uint32_t i = 0; i < count; i++) { /* room for the copies */
        simt_stack_status status = simt_stack_push(s, 0, 0, 0, false);
        if (status != SIMT_STACK_OK) return status;
    }
    /* The attempt's entries move up by `count`; the lanes' copies of those
     * holding them fill the gap, in order (an entry holds all of the top
     * entry's lanes or none: IPDOM entries nest). */
    for (uint32_t e = top + 1; e-- > attempt;) s->entries[e + count] = s->entries[e];
    uint32_t copy = attempt;
    for (uint32_t e = attempt + count; e <= top + count; e++) {
        if (!(s->entries[e].mask & lanes)) continue;
        s->entries[copy] = s->entries[e];
        s->entries[copy].mask = lanes;
        s->entries[e].mask &= ~lanes;
        copy++;
    }
    s->entries[attempt].kind = ENTRY_PAUSED;
    s->entries[attempt].log_index = log_index;
    s->entries[copy - 1].pc = pc;
    return SIMT_STACK_OK;
}

simt_stack_status simt_stack_settle_transaction(simt_stack *s, uint32_t retry_index, uint32_t begin_pc, simt_settle *next)
{
    s->depth = simt_stack_attempt_index(s, retry_index); /* drop the (empty) Transaction entry and anything above */
    if (s->depth > retry_index + 1) { /* the newest pause (top segment) resumes where it stopped */
        uint32_t e = s->depth - 1;
        while (s->entries[e].kind != ENTRY_PAUSED) e--;
        s->entries[e].kind = ENTRY_TRANSACTION;
        *next = SIMT_SETTLE_RESUME;
        return SIMT_STACK_OK;
    }
    stack_entry *retry = &s->entries[retry_index];
    if (!retry->mask) {
        *next = SIMT_SETTLE_DONE;
        s->depth = retry_index; /* pop the Retry entry: the parent is at tx_commit + 4 */
        return SIMT_STACK_OK;
    }
    *next = SIMT_SETTLE_RERUN;
    uint64_t again = retry->mask;
    retry->mask = 0;
    simt_stack_status status = simt_stack_push(s, begin_pc + 4, TX_NO_RECONVERGE, again, false);
    if (status == SIMT_STACK_OK) s->entries[s->depth - 1].kind = ENTRY_TRANSACTION;
    return status;
}

bool simt_stack_run_other_leaf(simt_stack *s)
{
    uint64_t above = 0; /* lanes of the entries above e */
    for (uint32_t e = s->depth; e-- > 0;) {
        stack_entry entry = s->entries[e];
        if (entry.mask && !entry.at_barrier && !(entry.mask & above)) {
            for (uint32_t k = e; k + 1 < s->depth; k++) s->entries[k] = s->entries[k + 1];
            s->entries[s->depth - 1] = entry;
            return true;
        }
        above |= entry.mask;
    }
    return false;
}

uint64_t simt_stack_lanes_past_barrier(const simt_stack *s, uint32_t exit_pc, uint32_t *pc)
{
    uint64_t all = 0, waiting = 0, unfinished = 0;
    for (uint32_t e = 0; e < s->depth; e++) {
        const stack_entry *entry = &s->entries[e];
        all |= entry->mask;
        if (entry->at_barrier) waiting |= entry->mask;
        if (entry->pc != exit_pc) unfinished |= entry->mask;
    }
    uint64_t past = all & unfinished & ~waiting;
    for (uint32_t e = s->depth; past && e-- > 0;) /* the innermost entry holding them: where they run on */
        if ((s->entries[e].mask & past) && s->entries[e].pc != exit_pc) {
            *pc = s->entries[e].pc;
            break;
        }
    return past;
}

void simt_stack_release_barrier(simt_stack *s)
{
    for (uint32_t e = 0; e < s->depth; e++) s->entries[e].at_barrier = false;
}

void simt_stack_remove_lanes(simt_stack *s, uint64_t mask)
{
    for (uint32_t e = 0; e < s->depth; e++) s->entries[e].mask &= ~mask;
}
