#include "l2_cache.h"

#include <string.h>

#include "cache_engine.h"

#define PARAM(field) offsetof(l2_cache_params, field)

/* Defaults: one GTX480 memory partition's L2 (128 KB of the 768 KB total;
 * GPGPU-Sim gives each of its two sub-partitions 64 sets x 8 ways x 128 B
 * with 32 MSHRs merging 4). */
static const simtx_param_spec l2_cache_param_specs[] = {
    {"size", SIMTX_PARAM_INT, "128KiB", "bytes", 1, 1LL << 40, NULL, "bytes of line data; a multiple of line_size x associativity", PARAM(size)},
    {"line_size", SIMTX_PARAM_INT, "128", "bytes", 1, SIMTX_MSG_MAX_DATA, NULL, "bytes per line", PARAM(line_size)},
    {"associativity", SIMTX_PARAM_INT, "8", "ways", 1, 1024, NULL, "lines per set (LRU replacement)", PARAM(associativity)},
    {"sectors", SIMTX_PARAM_INT, "4", "sectors", 1, 32, NULL, "sectors per line (valid/dirty bits and fills per sector); must divide line_size", PARAM(sectors)},
    {"mshr_entries", SIMTX_PARAM_INT, "32", "entries", 1, 4096, NULL, "lines being filled at once; a miss finding none stalls", PARAM(mshr_entries)},
    {"mshr_max_merge", SIMTX_PARAM_INT, "4", "accesses", 1, 1024, NULL, "accesses one MSHR holds (merged misses to a line in flight)", PARAM(mshr_max_merge)},
    {"hit_latency", SIMTX_PARAM_INT, "20", "cycles", 0, 1e6, NULL, "cycles from the tag lookup to a hit's response", PARAM(hit_latency)},
    {"access_latency", SIMTX_PARAM_INT, "0", "cycles", 0, 1e5, NULL, "cycles from arrival to the tag lookup, hits and misses alike (a pipeline: it does not fill the input queue)", PARAM(access_latency)},
    {"input_queue_depth", SIMTX_PARAM_INT, "8", "requests", 1, 1 << 16, NULL, "requests waiting for the tag lookup (one per cycle); full: refuse", PARAM(input_queue_depth)},
    {"miss_queue_depth", SIMTX_PARAM_INT, "8", "messages", 2, 1 << 16, NULL, "fills, writebacks and forwarded requests waiting for the DRAM side", PARAM(miss_queue_depth)},
    {"miss_latency", SIMTX_PARAM_INT, "0", "cycles", 0, 1e5, NULL, "cycles from a miss (or a write-back) to its request leaving for the next level (a pipeline: it does not fill the miss queue)", PARAM(miss_latency)},
    {"response_queue_depth", SIMTX_PARAM_INT, "8", "responses", 1, 1 << 16, NULL, "responses waiting for the crossbar; at least mshr_max_merge", PARAM(response_queue_depth)},
    {"pending_entries", SIMTX_PARAM_INT, "32", "requests", 1, 1 << 16, NULL, "forwarded requests (cleans awaiting their writeback, forwarded atomics...) in flight", PARAM(pending_entries)},
    {"atomics", SIMTX_PARAM_ENUM, "execute", "", 0, 0, "execute|forward", "execute: atomics read-modify-write the line here (Fermi's ROP units; a miss allocates and fills the line); forward: the next level performs them", PARAM(atomics)},
    {"atomic_latency", SIMTX_PARAM_INT, "20", "cycles", 0, 1e6, NULL, "cycles from an executed atomic's read-modify-write to its response", PARAM(atomic_latency)},
    {"partition_count", SIMTX_PARAM_INT, "1", "partitions", 1, 1024, NULL, "memory partitions addresses are interleaved over (set indexing drops the partition bits)", PARAM(partition_count)},
    {"partition_interleave", SIMTX_PARAM_INT, "256", "bytes", 1, 1LL << 40, NULL, "bytes per partition chunk, as in the crossbar's mapping", PARAM(partition_interleave)},
    {"row_copy_column_bits", SIMTX_PARAM_INT, "0x1E7F", "", 0, 9.2e18, NULL, "partition-local address bits that vary within a DRAM row (the DRAM map's C and S bits; the default is the dram_controller's default map's): a ROW_COPY writes back the dirty lines of its whole source row and drops those of its destination row; 0: only the line at its address", PARAM(row_copy_column_bits)},
};

static const simtx_param_table l2_cache_param_table = {
    l2_cache_param_specs, sizeof l2_cache_param_specs / sizeof l2_cache_param_specs[0], sizeof(l2_cache_params)};

static const simtx_socket_spec l2_cache_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "requests from the crossbar (or a commit unit) in, responses out", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "fills, writebacks and forwarded requests out (to the DRAM controller), responses in", false},
    {"monitor", SIMTX_SOCKET_MONITOR, NULL, "hit, miss, eviction and writeback events out (models/protocols/monitor.h); may stay unbound, its receiver takes every event", false},
};

static void *l2_cache_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const l2_cache_params *p = params;
    cache_config config = {
        CACHE_CONFIG_SHARED_PARAMS(p),
        .write_back = true,
        .level = SIMTX_LEVEL_L2,
        .execute_atomics = !strcmp(p->atomics, "execute"),
        .atomic_latency = (unsigned)p->atomic_latency,
        .partition_count = (unsigned)p->partition_count,
        .partition_interleave = (uint64_t)p->partition_interleave,
        .row_copy_column_bits = (uint64_t)p->row_copy_column_bits,
    };
    return cache_create(&config, env, error, error_size);
}

static void l2_cache_destroy(void *core) { cache_destroy(core); }
static simtx_accept_result l2_cache_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    return cache_accept(core, port, msg, now);
}
static uint64_t l2_cache_cycle(void *core, uint64_t now) { return cache_cycle(core, now); }
static void l2_cache_port_free(void *core, unsigned port) { cache_port_free(core, port); }
static size_t l2_cache_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    return cache_debug_access(core, is_write, address, data, size, forward_port);
}
static void l2_cache_debug_forwarded(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size)
{
    if (!is_write) cache_debug_overlay(core, address, data, size); /* dirty data here is newer */
}
static void l2_cache_finish(void *core, uint64_t now) { cache_finish(core, now); }
static void l2_cache_describe_pending(void *core, char *text, size_t size) { cache_describe_pending(core, text, size); }
static void l2_cache_monitor_bound(void *core, unsigned port) { (void)port, cache_monitor_bound(core); }

const simtx_block_info l2_cache_block_info = {
    .name = "l2_cache",
    .summary = "L2 slice of a memory partition: write-back, write-allocate, LRU, sectored, MSHRs, executing atomics",
    .params = &l2_cache_param_table,
    .sockets = l2_cache_sockets,
    .socket_count = 3,
    .create = l2_cache_create,
    .destroy = l2_cache_destroy,
    .accept = l2_cache_accept,
    .cycle = l2_cache_cycle,
    .port_free = l2_cache_port_free,
    .debug_access = l2_cache_debug_access,
    .finish = l2_cache_finish,
    .describe_pending = l2_cache_describe_pending,
    .monitor_bound = l2_cache_monitor_bound,
    .announces_room = true, /* cache_messages.h: announce_room */
    .debug_forwarded = l2_cache_debug_forwarded,
};
