/* cache_engine: the timing and data model shared by the l1_cache and
 * l2_cache blocks. A set-associative, sectored cache holding real line data,
 * with LRU replacement, MSHRs that merge accesses to a line in flight, and
 * two write policies:
 *  - write-back, write-allocate (the L2 slice), optionally executing
 *    atomics on its lines (allocated and filled like a read on a miss);
 *  - write-through, no-allocate, evict-on-write-hit (GPGPU-Sim's L1 for
 *    global data), which never holds dirty data.
 * Port 0 faces the requesters (a target socket), port 1 the next level (an
 * initiator socket), port 2 an optional observer (a monitor socket,
 * models/protocols/monitor.h). The blocks wrap it with their own parameter
 * tables. */
#ifndef SIMTX_CACHE_ENGINE_H
#define SIMTX_CACHE_ENGINE_H

#include "mem.h"
#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CACHE_UPSTREAM_PORT 0u
#define CACHE_DOWNSTREAM_PORT 1u
#define CACHE_MONITOR_PORT 2u /* optional: monitor.h events, sent only once cache_monitor_bound was called */
#define CACHE_MAX_SECTORS 32u
/* msg.aux bit of a FENCE asking a write-through cache to drop all its lines
 * (non-coherent L1s at a kernel boundary). */
#define CACHE_FENCE_INVALIDATE MEM_FENCE_INVALIDATE

typedef struct cache_config {
    uint64_t size;                 /* bytes of line data */
    unsigned line_size;            /* bytes per line, at most SIMTX_MSG_MAX_DATA */
    unsigned associativity;        /* ways per set */
    unsigned sectors;              /* per line; a miss fetches only the sectors it needs */
    unsigned mshr_entries;         /* lines being filled at once */
    unsigned mshr_max_merge;       /* accesses waiting on one MSHR */
    unsigned hit_latency;          /* cycles from tag lookup to a hit's response */
    unsigned input_queue_depth;    /* requests waiting for the tag lookup */
    unsigned access_latency;       /* cycles from arrival to the tag lookup, for hits and misses
                                      alike (GPGPU-Sim's ROP delay); a pipeline that does not
                                      count against input_queue_depth */
    unsigned miss_queue_depth;     /* messages waiting to go to the next level */
    unsigned miss_latency;         /* cycles a message for the next level spends on its way there
                                      (GPGPU-Sim's L2-to-DRAM latency queue); a pipeline that does
                                      not count against miss_queue_depth */
    unsigned response_queue_depth; /* responses waiting to go back */
    unsigned pending_entries;      /* forwarded requests (writes, uncached reads...) in flight */
    bool write_back;               /* true: write-back write-allocate; false: write-through no-allocate */
    uint64_t bypass_base, bypass_size; /* reads here are not cached (forwarded); size 0: none */
    bool execute_atomics;          /* write-back only: atomics read-modify-write the line here
                                      (Fermi's L2/ROP); false: forwarded to the next level */
    unsigned atomic_latency;       /* cycles from an executed atomic to its response */
    unsigned pass_through_families; /* bit f: ops of simtx_op_family f are forwarded unchanged
                                      (reads, writes, atomics, line maintenance, fences and row
                                      copies are served); an op of any other family fails the run */
    unsigned partition_count;      /* >1: drop the partition bits before indexing sets */
    uint64_t partition_interleave; /* bytes per partition chunk (with partition_count) */
    uint64_t row_copy_column_bits; /* partition-local address bits that vary within a DRAM row (the
                                      DRAM map's C and S bits): a ROW_COPY writes back every dirty line
                                      of its source row and drops every line of its destination row;
                                      0: only the line at its address */
    unsigned level;                /* simtx_level its hits answer with (mem.h, LEVELS) */
} cache_config;

/* Designated initializers of the cache_config fields that the l1_cache and
 * l2_cache params structs both carry under the same names. Their parameter
 * tables' ranges already keep each value positive (or >= 0 for latencies);
 * cache_create checks how they combine. Use:
 *   cache_config config = {CACHE_CONFIG_SHARED_PARAMS(p), .write_back = ...}; */
#define CACHE_CONFIG_SHARED_PARAMS(p)                                                                \
    .size = (uint64_t)(p)->size, .line_size = (unsigned)(p)->line_size,                              \
    .associativity = (unsigned)(p)->associativity, .sectors = (unsigned)(p)->sectors,                \
    .mshr_entries = (unsigned)(p)->mshr_entries, .mshr_max_merge = (unsigned)(p)->mshr_max_merge,     \
    .hit_latency = (unsigned)(p)->hit_latency, .access_latency = (unsigned)(p)->access_latency,       \
    .input_queue_depth = (unsigned)(p)->input_queue_depth,                                           \
    .miss_queue_depth = (unsigned)(p)->miss_queue_depth, .miss_latency = (unsigned)(p)->miss_latency, \
    .response_queue_depth = (unsigned)(p)->response_queue_depth,                                     \
    .pending_entries = (unsigned)(p)->pending_entries

typedef struct cache_stats {
    uint64_t accesses, reads, writes, hits, misses, sector_misses, hit_reserved;
    uint64_t reservation_fails_mshr, reservation_fails_merge, reservation_fails_set, stalls_queue;
    uint64_t fills, fill_bytes, evictions, writebacks, writeback_bytes, write_evictions;
    uint64_t forwarded, atomics, cleans, flushes, fences, invalidations, error_responses;
    uint64_t clean_writebacks, non_temporal_writes; /* persistence: writebacks a clean or flush caused, uncached writes */
    simtx_time_average mshr_occupancy;
    double hit_rate;
} cache_stats;

typedef struct cache cache;

/* Checks the configuration (a bad one is refused with a message naming the
 * block parameter, which the blocks name like the config fields) and builds
 * the cache; registers statistics and probes with env->observer. */
cache *cache_create(const cache_config *config, const simtx_env *env, char *error, size_t error_size);
void cache_destroy(cache *c);
simtx_accept_result cache_accept(cache *c, unsigned port, const simtx_msg *msg, uint64_t now);
uint64_t cache_cycle(cache *c, uint64_t now);
void cache_port_free(cache *c, unsigned port);
/* Debug accesses: a write updates the cached copy and is forwarded; a read is
 * served here when every byte is cached, otherwise forwarded (and later
 * overlaid by cache_debug_overlay with the newer data held here). */
size_t cache_debug_access(cache *c, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port);
/* Copies every byte this cache holds in a valid sector over data: the cached
 * copy is never older than the next level's. */
void cache_debug_overlay(const cache *c, uint64_t address, uint8_t *data, size_t size);
void cache_finish(cache *c, uint64_t now);
/* The monitor port (CACHE_MONITOR_PORT) is bound: from now on the cache
 * sends models/protocols/monitor.h events on it. */
void cache_monitor_bound(cache *c);

/* Inspection for tests and checkers. */
const cache_stats *cache_get_stats(const cache *c);
bool cache_line_state(const cache *c, uint64_t address, uint32_t *valid_sectors, uint32_t *dirty_sectors);
unsigned cache_mshrs_in_use(const cache *c);
/* True when nothing is queued, in flight or waiting. */
bool cache_idle(const cache *c);
/* The block's describe_pending (simtx_block.h): queue, MSHR and pending
 * entry occupancies and busy ports; nothing when idle. */
void cache_describe_pending(const cache *c, char *text, size_t size);

#ifdef __cplusplus
}
#endif
#endif
