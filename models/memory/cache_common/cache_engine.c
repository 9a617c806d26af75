/* cache_engine: creation (the configuration's checks, statistics and
 * probes), end of run and inspection. */
#include "cache_messages.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void cache_finish(cache *c, uint64_t now)
{
    simtx_time_average_close(&c->stats.mshr_occupancy, now);
    uint64_t lookups = c->stats.hits + c->stats.misses + c->stats.sector_misses + c->stats.hit_reserved;
    c->stats.hit_rate = lookups ? (double)c->stats.hits / (double)lookups : 0.0;
}

const cache_stats *cache_get_stats(const cache *c) { return &c->stats; }

bool cache_line_state(const cache *c, uint64_t address, uint32_t *valid_sectors, uint32_t *dirty_sectors)
{
    int index = find_line(c, line_of(c, address));
    if (index < 0) return false;
    if (valid_sectors) *valid_sectors = c->lines[index].valid;
    if (dirty_sectors) *dirty_sectors = c->lines[index].dirty;
    return true;
}

unsigned cache_mshrs_in_use(const cache *c) { return c->mshrs_used; }

bool cache_idle(const cache *c)
{
    return msg_queue_empty(&c->input) && msg_queue_empty(&c->misses) && msg_queue_empty(&c->responses) &&
           !c->mshrs_used && !pending_in_use(c);
}

void cache_describe_pending(const cache *c, char *text, size_t size)
{
    if (cache_idle(c)) return;
    snprintf(text, size, "input queue %zu/%u, miss queue %zu/%u, response queue %zu/%u, MSHRs %u/%u, pending entries %u/%u%s%s",
             c->input.length, c->config.input_queue_depth, c->misses.length, c->config.miss_queue_depth, c->responses.length,
             c->config.response_queue_depth, c->mshrs_used, c->config.mshr_entries, pending_in_use(c), c->config.pending_entries,
             c->upstream_blocked ? ", upstream port busy" : "", c->downstream_blocked ? ", downstream port busy" : "");
}

/* ---- creation ---- */

static bool check_config(const cache_config *k, char *error, size_t error_size)
{
    if (!k->size) return snprintf(error, error_size, "parameter 'size' must be positive"), false;
    if (!k->line_size || k->line_size > SIMTX_MSG_MAX_DATA)
        return snprintf(error, error_size, "parameter 'line_size' must be 1..%d bytes (one message carries a line)", SIMTX_MSG_MAX_DATA), false;
    if (!k->associativity) return snprintf(error, error_size, "parameter 'associativity' must be positive"), false;
    uint64_t set_bytes = (uint64_t)k->line_size * k->associativity;
    if (k->size % set_bytes)
        return snprintf(error, error_size, "parameter 'size' (%" PRIu64 ") must be a multiple of line_size x associativity (%" PRIu64 ")",
                        k->size, set_bytes), false;
    if (!k->sectors || k->sectors > CACHE_MAX_SECTORS || k->line_size % k->sectors)
        return snprintf(error, error_size, "parameter 'sectors' (%u) must divide line_size (%u) and be 1..%u", k->sectors, k->line_size,
                        CACHE_MAX_SECTORS), false;
    if (!k->mshr_entries) return snprintf(error, error_size, "parameter 'mshr_entries' must be positive"), false;
    if (!k->mshr_max_merge) return snprintf(error, error_size, "parameter 'mshr_max_merge' must be positive"), false;
    if (k->response_queue_depth < k->mshr_max_merge)
        return snprintf(error, error_size, "parameter 'response_queue_depth' (%u) must hold the responses of one MSHR (mshr_max_merge = %u)",
                        k->response_queue_depth, k->mshr_max_merge), false;
    if (k->miss_queue_depth < 2)
        return snprintf(error, error_size, "parameter 'miss_queue_depth' must be at least 2 (a writeback and a fill)"), false;
    if (!k->input_queue_depth) return snprintf(error, error_size, "parameter 'input_queue_depth' must be positive"), false;
    if (!k->pending_entries) return snprintf(error, error_size, "parameter 'pending_entries' must be positive"), false;
    if (k->execute_atomics && !k->write_back)
        return snprintf(error, error_size, "parameter 'atomics': executing atomics needs a write-back cache"), false;
    if (k->partition_count > 1 && k->partition_interleave % k->line_size)
        return snprintf(error, error_size, "parameter 'partition_interleave' (%" PRIu64 ") must be a multiple of line_size (%u)",
                        k->partition_interleave, k->line_size), false;
    return true;
}

cache *cache_create(const cache_config *config, const simtx_env *env, char *error, size_t error_size)
{
    if (!check_config(config, error, error_size)) return NULL;
    cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->config = *config;
    c->env = *env;
    c->sets = (unsigned)(config->size / ((uint64_t)config->line_size * config->associativity));
    c->sector_size = config->line_size / config->sectors;
    if (!(config->line_size & (config->line_size - 1))) c->line_shift = (unsigned)__builtin_ctz(config->line_size);
    if (config->partition_count > 1 && config->partition_interleave)
        c->lines_per_chunk = config->partition_interleave / config->line_size;
    c->sets_power_of_two = !(c->sets & (c->sets - 1));
    size_t line_count = (size_t)c->sets * config->associativity;
    c->lines = calloc(line_count, sizeof *c->lines);
    c->tags = malloc(line_count * sizeof *c->tags);
    c->victim_ranks = calloc(line_count, sizeof *c->victim_ranks);
    c->data = calloc(line_count, config->line_size);
    c->mshrs = calloc(config->mshr_entries, sizeof *c->mshrs);
    c->free_mshrs = calloc((config->mshr_entries + 63) / 64, sizeof *c->free_mshrs);
    c->pending = calloc(config->pending_entries, sizeof *c->pending);
    c->free_pending = calloc(config->pending_entries, sizeof *c->free_pending);
    bool ok = c->lines && c->tags && c->victim_ranks && c->data && c->mshrs && c->free_mshrs && c->pending && c->free_pending &&
              msg_queue_init(&c->input, (size_t)config->input_queue_depth + config->access_latency) && msg_queue_init(&c->misses, (size_t)config->miss_queue_depth + config->miss_latency) &&
              msg_queue_init(&c->responses, config->response_queue_depth);
    for (unsigned i = 0; ok && i < config->mshr_entries; i++) {
        c->mshrs[i].targets = calloc(config->mshr_max_merge, sizeof *c->mshrs[i].targets);
        ok = c->mshrs[i].targets != NULL;
    }
    if (!ok) {
        snprintf(error, error_size, "out of memory for a %" PRIu64 "-byte cache", config->size);
        cache_destroy(c);
        return NULL;
    }
    for (size_t i = 0; i < line_count; i++) {
        c->lines[i].mshr = -1;
        c->tags[i] = NO_LINE;
    }
    for (unsigned i = 0; i < config->mshr_entries; i++) c->free_mshrs[i / 64] |= UINT64_C(1) << (i % 64);
    for (unsigned i = 0; i < config->pending_entries; i++) c->free_pending[i] = config->pending_entries - 1 - i;
    c->free_pending_count = config->pending_entries;

    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "accesses", &c->stats.accesses, "requests", "requests accepted from upstream");
    simtx_observe_counter(o, "reads", &c->stats.reads, "requests", "read requests accepted");
    simtx_observe_counter(o, "writes", &c->stats.writes, "requests", "write requests accepted");
    simtx_observe_counter(o, "hits", &c->stats.hits, "requests", "reads, writes and atomics served by the cached line");
    simtx_observe_counter(o, "misses", &c->stats.misses, "requests", "accesses that allocated a new line");
    simtx_observe_counter(o, "sector_misses", &c->stats.sector_misses, "requests", "accesses to a present line lacking a sector");
    simtx_observe_counter(o, "hit_reserved", &c->stats.hit_reserved, "requests", "accesses merged into an MSHR already filling the line");
    simtx_observe_counter(o, "reservation_fails_mshr", &c->stats.reservation_fails_mshr, "lookups", "lookups stalled: every MSHR in use");
    simtx_observe_counter(o, "reservation_fails_merge", &c->stats.reservation_fails_merge, "lookups", "lookups stalled: the line's MSHR holds mshr_max_merge accesses");
    simtx_observe_counter(o, "reservation_fails_set", &c->stats.reservation_fails_set, "lookups", "lookups stalled: every way of the set is waiting for a fill");
    simtx_observe_counter(o, "stalls_queue", &c->stats.stalls_queue, "lookups", "lookups stalled: miss, response or pending queue full");
    simtx_observe_counter(o, "fills", &c->stats.fills, "responses", "fill responses received");
    simtx_observe_counter(o, "fill_bytes", &c->stats.fill_bytes, "bytes", "bytes fetched from the next level");
    simtx_observe_counter(o, "evictions", &c->stats.evictions, "lines", "valid lines replaced");
    simtx_observe_counter(o, "writebacks", &c->stats.writebacks, "messages", "dirty data written to the next level (evictions, cleans, flushes)");
    simtx_observe_counter(o, "writeback_bytes", &c->stats.writeback_bytes, "bytes", "dirty bytes written back");
    simtx_observe_counter(o, "write_evictions", &c->stats.write_evictions, "lines", "lines dropped by a write hit (write-evict)");
    simtx_observe_counter(o, "forwarded", &c->stats.forwarded, "requests", "requests passed on (write-through, uncached, atomics...)");
    simtx_observe_counter(o, "atomics", &c->stats.atomics, "requests", "atomics executed on a cached line (atomics = execute)");
    simtx_observe_counter(o, "cleans", &c->stats.cleans, "requests", "CLEAN_LINE requests handled");
    simtx_observe_counter(o, "clean_writebacks", &c->stats.clean_writebacks, "messages",
                          "writebacks made for a CLEAN_LINE or FLUSH_LINE (a clwb's data leaving this level; included in writebacks)");
    simtx_observe_counter(o, "non_temporal_writes", &c->stats.non_temporal_writes, "requests",
                          "non-temporal writes passed on uncached, a cached copy dropped (written back first if dirty)");
    simtx_observe_counter(o, "flushes", &c->stats.flushes, "requests", "FLUSH_LINE requests handled");
    simtx_observe_counter(o, "fences", &c->stats.fences, "requests", "FENCE requests answered");
    simtx_observe_counter(o, "invalidations", &c->stats.invalidations, "lines", "lines dropped by invalidating fences (kernel boundaries)");
    simtx_observe_counter(o, "error_responses", &c->stats.error_responses, "responses", "responses with an error status");
    simtx_observe_energy(o, "lookup", &c->stats.accesses, "a request's tag lookup and control");
    simtx_observe_energy(o, "hit", &c->stats.hits, "a data-array access serving a hit");
    simtx_observe_energy(o, "miss", &c->stats.misses, "a line allocated (tag write, MSHR)");
    simtx_observe_energy(o, "fill_byte", &c->stats.fill_bytes, "a byte written into the data array by a fill");
    simtx_observe_energy(o, "writeback_byte", &c->stats.writeback_bytes, "a dirty byte read out for a write-back");
    simtx_observe_energy(o, "atomic", &c->stats.atomics, "an atomic executed on a cached line");
    simtx_observe_average(o, "mshr_occupancy_mean", &c->stats.mshr_occupancy.average, "entries", "MSHRs in use, averaged over time");
    simtx_observe_real(o, "hit_rate", &c->stats.hit_rate, "", "hits / (hits + misses + sector misses + hit_reserved)");
    simtx_observe_level_probe(o, "mshr_occupancy", &c->probes.mshr_occupancy, 16, 0, "MSHRs in use");
    simtx_observe_level_probe(o, "input_queue", &c->probes.input_queue, 16, 0, "requests waiting for the tag lookup");
    simtx_observe_level_probe(o, "miss_queue", &c->probes.miss_queue, 16, 0, "messages waiting to go to the next level");
    simtx_observe_level_probe(o, "response_queue", &c->probes.response_queue, 16, 0, "responses waiting to go back");
    simtx_observe_level_probe(o, "pending", &c->probes.pending, 16, 0, "forwarded requests awaiting the next level");
    return c;
}

void cache_destroy(cache *c)
{
    if (!c) return;
    if (c->mshrs)
        for (unsigned i = 0; i < c->config.mshr_entries; i++) free(c->mshrs[i].targets);
    free(c->mshrs);
    free(c->free_mshrs);
    free(c->lines);
    free(c->tags);
    free(c->victim_ranks);
    free(c->data);
    free(c->pending);
    free(c->free_pending);
    msg_queue_release(&c->input);
    msg_queue_release(&c->misses);
    msg_queue_release(&c->responses);
    free(c);
}
