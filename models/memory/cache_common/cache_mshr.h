/* cache_mshr: taking an MSHR for a line, its targets and the fills it
 * asks of the next level (cache_fills.c completes them). */
#ifndef SIMTX_CACHE_MSHR_H
#define SIMTX_CACHE_MSHR_H

#include "cache_messages.h"

/* Queues a read of the span covering the wanted sectors for an MSHR. */
CACHE_STEP void push_fill(cache *c, unsigned mshr_index, const simtx_msg *cause, uint32_t sectors, uint64_t now)
{
    mshr *m = &c->mshrs[mshr_index];
    unsigned first = (unsigned)__builtin_ctz(sectors), last = 31u - (unsigned)__builtin_clz(sectors);
    own_request(c, cause, SIMTX_OP_READ, m->line_address * c->config.line_size + first * c->sector_size,
                (last - first + 1) * c->sector_size, ID_FILL, mshr_index, now);
    m->requested |= sectors;
    m->fills_outstanding++;
}

CACHE_STEP int allocate_mshr(cache *c, unsigned line_index)
{
    for (unsigned word = 0; word * 64 < c->config.mshr_entries; word++) {
        if (!c->free_mshrs[word]) continue;
        unsigned i = word * 64 + (unsigned)__builtin_ctzll(c->free_mshrs[word]);
        c->free_mshrs[word] &= c->free_mshrs[word] - 1;
        mshr *m = &c->mshrs[i];
        m->in_use = true;
        m->line_address = c->tags[line_index];
        m->line_index = line_index;
        m->requested = m->arrived = m->full_written = 0;
        m->fills_outstanding = 0;
        m->status = SIMTX_STATUS_OK;
        m->served_by = SIMTX_LEVEL_NONE;
        m->target_count = m->answers = 0;
        c->lines[line_index].mshr = (int)i;
        c->victim_ranks[line_index] = UINT64_MAX;
        c->mshrs_used++;
        return (int)i;
    }
    return -1;
}

CACHE_STEP void add_target(cache *c, mshr *m, const simtx_msg *msg, bool respond)
{
    mshr_target *t = &m->targets[m->target_count++];
    copy_request(&t->msg, msg);
    t->respond = respond;
    m->answers += respond;
    (void)c;
}

#endif
