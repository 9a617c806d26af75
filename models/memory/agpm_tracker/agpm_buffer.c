#include "agpm_buffer.h"

#include <stdlib.h>
#include <string.h>

bool agpm_buffer_init(agpm_buffer *b, unsigned entries, unsigned counter_bits)
{
    memset(b, 0, sizeof *b);
    b->set_count = entries / 2 ? entries / 2 : 1;
    b->counter_max = (uint8_t)((1u << counter_bits) - 1u);
    b->sets = calloc(b->set_count, sizeof *b->sets);
    return b->sets != NULL;
}

void agpm_buffer_release(agpm_buffer *b)
{
    free(b->sets);
    b->sets = NULL;
}

static agpm_entry *set_of(agpm_buffer *b, uint64_t block) { return &b->sets[block % b->set_count]; }

static uint8_t bump(agpm_buffer *b, uint8_t counter)
{
    if (counter < b->counter_max) return (uint8_t)(counter + 1u);
    b->stats.saturations++;
    return counter;
}

static void add_way(const agpm_way *w, uint64_t *t, uint64_t *s);

/* An entry leaves with its counts still this level's (moved down, or lost
 * to another block of its set). */
static void depart(agpm_buffer *b, const agpm_entry *e)
{
    add_way(&e->all, &b->departed.t_all, &b->departed.s_all);
    add_way(&e->log, &b->departed.t_log, &b->departed.s_log);
}

static bool masked(const uint64_t mask[2], unsigned byte) { return (mask[byte >> 6] >> (byte & 63)) & 1u; }

/* A hit in one way: requested bytes above 0 +1, the block counter +1. */
static void hit_way(agpm_buffer *b, agpm_way *w, const uint64_t mask[2])
{
    for (unsigned half = 0; half < 2; half++)
        for (uint64_t m = mask[half]; m; m &= m - 1) {
            unsigned byte = half * 64u + (unsigned)__builtin_ctzll(m);
            if (w->bytes[byte]) w->bytes[byte] = bump(b, w->bytes[byte]);
        }
    w->block = bump(b, w->block);
}

void agpm_buffer_log(agpm_buffer *b, uint64_t block, const uint64_t mask[2], agpm_path path)
{
    agpm_entry *e = set_of(b, block);
    if (e->valid && e->block == block) {
        b->stats.hits++;
        hit_way(b, &e->all, mask);
        hit_way(b, &e->log, mask);
        if (path != (agpm_path)e->first_path) e->log.path_changed = e->all.path_changed = true;
        return;
    }
    if (e->valid) {
        b->stats.conflicts++;
        depart(b, e);
    } else {
        b->valid_count++;
    }
    memset(e, 0, sizeof *e);
    e->valid = true;
    e->block = block;
    e->first_path = (uint8_t)path;
    for (unsigned byte = 0; byte < AGPM_BLOCK_BYTES; byte++)
        if (masked(mask, byte)) e->all.bytes[byte] = e->log.bytes[byte] = 1;
    b->stats.fills++;
}

void agpm_buffer_extend(agpm_buffer *b, uint64_t block, const uint64_t mask[2], agpm_path path)
{
    agpm_entry *e = set_of(b, block);
    if (!e->valid || e->block != block) {
        agpm_buffer_log(b, block, mask, path);
        return;
    }
    for (unsigned byte = 0; byte < AGPM_BLOCK_BYTES; byte++)
        if (masked(mask, byte)) {
            if (!e->all.bytes[byte]) e->all.bytes[byte] = 1;
            if (!e->log.bytes[byte]) e->log.bytes[byte] = 1;
        }
}

void agpm_buffer_hit(agpm_buffer *b, uint64_t block, const uint64_t mask[2], bool log)
{
    agpm_entry *e = set_of(b, block);
    if (!e->valid || e->block != block) return;
    b->stats.hits++;
    hit_way(b, &e->all, mask);
    if (log) hit_way(b, &e->log, mask);
}

bool agpm_buffer_take(agpm_buffer *b, uint64_t block, agpm_entry *out)
{
    agpm_entry *e = set_of(b, block);
    if (!e->valid || e->block != block) return false;
    *out = *e;
    e->valid = false;
    b->valid_count--;
    b->stats.moves_out++;
    return true;
}

bool agpm_buffer_move_out(agpm_buffer *b, uint64_t block, agpm_entry *out)
{
    if (!agpm_buffer_take(b, block, out)) return false;
    depart(b, out);
    return true;
}

static void merge_way(agpm_buffer *b, agpm_way *into, const agpm_way *from)
{
    for (unsigned byte = 0; byte < AGPM_BLOCK_BYTES; byte++) {
        unsigned sum = (unsigned)into->bytes[byte] + from->bytes[byte];
        into->bytes[byte] = (uint8_t)(sum > b->counter_max ? b->counter_max : sum);
    }
    unsigned sum = (unsigned)into->block + from->block;
    into->block = (uint8_t)(sum > b->counter_max ? b->counter_max : sum);
    into->path_changed |= from->path_changed;
}

void agpm_buffer_put(agpm_buffer *b, const agpm_entry *entry)
{
    agpm_entry *e = set_of(b, entry->block);
    b->stats.moves_in++;
    if (e->valid && e->block == entry->block) {
        merge_way(b, &e->all, &entry->all);
        merge_way(b, &e->log, &entry->log);
        return;
    }
    if (e->valid) {
        b->stats.conflicts++;
        depart(b, e);
    } else {
        b->valid_count++;
    }
    *e = *entry;
    e->valid = true;
}

void agpm_buffer_flush(agpm_buffer *b)
{
    b->departed = (agpm_sums){0};
    if (!b->valid_count) return;
    for (unsigned s = 0; s < b->set_count; s++) b->sets[s].valid = false;
    b->valid_count = 0;
}

static void add_way(const agpm_way *w, uint64_t *t, uint64_t *s)
{
    uint64_t sum = 0;
    for (unsigned byte = 0; byte < AGPM_BLOCK_BYTES; byte++)
        if (w->bytes[byte] > 1) sum += w->bytes[byte];
    *t += sum;
    *s += sum + w->block;
}

void agpm_entry_add_sums(const agpm_entry *e, agpm_sums *sums)
{
    add_way(&e->all, &sums->t_all, &sums->s_all);
    add_way(&e->log, &sums->t_log, &sums->s_log);
}

void agpm_buffer_add_sums(const agpm_buffer *b, agpm_sums *sums)
{
    sums->t_all += b->departed.t_all, sums->s_all += b->departed.s_all;
    sums->t_log += b->departed.t_log, sums->s_log += b->departed.s_log;
    if (!b->valid_count) return;
    for (unsigned s = 0; s < b->set_count; s++)
        if (b->sets[s].valid) agpm_entry_add_sums(&b->sets[s], sums);
}
