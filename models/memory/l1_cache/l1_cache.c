#include "l1_cache.h"

#include "cache_engine.h"

#define PARAM(field) offsetof(l1_cache_params, field)

/* Defaults: the GTX480 L1D in its 48 KB configuration (GPGPU-Sim
 * "64:128:6, A:32:8, 8": 64 sets of 6 x 128 B lines, 32 MSHRs merging 8). */
static const simtx_param_spec l1_cache_param_specs[] = {
    {"size", SIMTX_PARAM_INT, "48KiB", "bytes", 1, 1LL << 40, NULL, "bytes of line data; a multiple of line_size x associativity", PARAM(size)},
    {"line_size", SIMTX_PARAM_INT, "128", "bytes", 1, SIMTX_MSG_MAX_DATA, NULL, "bytes per line", PARAM(line_size)},
    {"associativity", SIMTX_PARAM_INT, "6", "ways", 1, 1024, NULL, "lines per set (LRU replacement)", PARAM(associativity)},
    {"sectors", SIMTX_PARAM_INT, "1", "sectors", 1, 32, NULL, "sectors per line (valid bits and fills per sector); must divide line_size. Fermi's L1 fills whole 128 B lines", PARAM(sectors)},
    {"mshr_entries", SIMTX_PARAM_INT, "32", "entries", 1, 4096, NULL, "lines being filled at once; a miss finding none stalls", PARAM(mshr_entries)},
    {"mshr_max_merge", SIMTX_PARAM_INT, "8", "accesses", 1, 1024, NULL, "accesses one MSHR holds (merged misses to a line in flight)", PARAM(mshr_max_merge)},
    {"hit_latency", SIMTX_PARAM_INT, "1", "cycles", 0, 1e6, NULL, "cycles from the tag lookup to a hit's response", PARAM(hit_latency)},
    {"access_latency", SIMTX_PARAM_INT, "0", "cycles", 0, 1e5, NULL, "cycles from arrival to the tag lookup, hits and misses alike (a pipeline: it does not fill the input queue)", PARAM(access_latency)},
    {"input_queue_depth", SIMTX_PARAM_INT, "4", "requests", 1, 1 << 16, NULL, "requests waiting for the tag lookup (one per cycle); full: refuse", PARAM(input_queue_depth)},
    {"miss_queue_depth", SIMTX_PARAM_INT, "8", "messages", 2, 1 << 16, NULL, "fills, write-throughs and forwarded requests waiting for the L2 side", PARAM(miss_queue_depth)},
    {"miss_latency", SIMTX_PARAM_INT, "0", "cycles", 0, 1e5, NULL, "cycles from a miss (or a write-back) to its request leaving for the next level (a pipeline: it does not fill the miss queue)", PARAM(miss_latency)},
    {"response_queue_depth", SIMTX_PARAM_INT, "16", "responses", 1, 1 << 16, NULL, "responses waiting for the core side; at least mshr_max_merge", PARAM(response_queue_depth)},
    {"pending_entries", SIMTX_PARAM_INT, "64", "requests", 1, 1 << 16, NULL, "forwarded requests (writes, uncached reads, atomics) in flight", PARAM(pending_entries)},
    {"cache_global", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "false: reads in the global window are not cached (GPGPU-Sim's TM configurations)", PARAM(cache_global)},
    {"global_base", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "first address of the global window", PARAM(global_base)},
    {"global_size", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "bytes of the global window; 0: the whole address space", PARAM(global_size)},
};

static const simtx_param_table l1_cache_param_table = {
    l1_cache_param_specs, sizeof l1_cache_param_specs / sizeof l1_cache_param_specs[0], sizeof(l1_cache_params)};

static const simtx_socket_spec l1_cache_sockets[] = {
    {"upstream", SIMTX_SOCKET_TARGET, NULL, "the core's requests in, responses out", false},
    {"downstream", SIMTX_SOCKET_INITIATOR, NULL, "fills and forwarded requests out (to the crossbar), responses in", false},
    {"monitor", SIMTX_SOCKET_MONITOR, NULL, "hit, miss, eviction and writeback events out (models/protocols/monitor.h); may stay unbound, its receiver takes every event", false},
};

static void *l1_cache_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const l1_cache_params *p = params;
    cache_config config = {
        CACHE_CONFIG_SHARED_PARAMS(p),
        .write_back = false,
        .level = SIMTX_LEVEL_L1,
        /* Protocols that cross the core's memory path (the lazy-TM one on its way to the commit units). */
        .pass_through_families = simtx_core_path_families(),
    };
    if (!p->cache_global) {
        config.bypass_base = (uint64_t)p->global_base;
        config.bypass_size = p->global_size ? (uint64_t)p->global_size : UINT64_MAX;
    }
    return cache_create(&config, env, error, error_size);
}

static void l1_cache_destroy(void *core) { cache_destroy(core); }
static simtx_accept_result l1_cache_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    return cache_accept(core, port, msg, now);
}
static uint64_t l1_cache_cycle(void *core, uint64_t now) { return cache_cycle(core, now); }
static void l1_cache_port_free(void *core, unsigned port) { cache_port_free(core, port); }
static size_t l1_cache_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size, int *forward_port)
{
    return cache_debug_access(core, is_write, address, data, size, forward_port);
}
static void l1_cache_finish(void *core, uint64_t now) { cache_finish(core, now); }
static void l1_cache_describe_pending(void *core, char *text, size_t size) { cache_describe_pending(core, text, size); }
static void l1_cache_monitor_bound(void *core, unsigned port) { (void)port, cache_monitor_bound(core); }

const simtx_block_info l1_cache_block_info = {
    .name = "l1_cache",
    .summary = "L1 data cache: write-through/no-allocate/write-evict, LRU, sectored, MSHRs, optional global bypass",
    .params = &l1_cache_param_table,
    .sockets = l1_cache_sockets,
    .socket_count = 3,
    .create = l1_cache_create,
    .destroy = l1_cache_destroy,
    .accept = l1_cache_accept,
    .cycle = l1_cache_cycle,
    .port_free = l1_cache_port_free,
    .debug_access = l1_cache_debug_access,
    .finish = l1_cache_finish,
    .describe_pending = l1_cache_describe_pending,
    .monitor_bound = l1_cache_monitor_bound,
    .announces_room = true, /* cache_messages.h: announce_room */
};
