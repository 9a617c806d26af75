/* The nvm_controller's face: parameters and sockets, creation checks,
 * statistics and probes, zero-time access (the durable image), the block
 * table. */
#include <stdio.h>
#include <stdlib.h>

#include "nvm_controller_internal.h"
#include "partition_interleave.h"

#define PARAM(field) offsetof(nvm_controller_params, field)

static const simtx_param_spec nvm_param_specs[] = {
    {"banks", SIMTX_PARAM_INT, "16", "banks", 1, 1024, NULL,
     "media banks, each serving one access at a time (not in the AGPM paper: a GDDR5 channel's count)", PARAM(banks)},
    {"bank_interleave", SIMTX_PARAM_INT, "128", "bytes", 128, 1LL << 30, NULL,
     "bytes of consecutive partition-local addresses on one bank before the next (a power of two; 128: an L2 line)",
     PARAM(bank_interleave)},
    {"partition", SIMTX_PARAM_INT, "0", "", 0, 1023, NULL,
     "the partition this channel serves (below partition_count): the host reads the durable image from the channel holding an address",
     PARAM(partition)},
    {"partition_count", SIMTX_PARAM_INT, "1", "partitions", 1, 1024, NULL,
     "memory partitions the interconnect interleaves addresses over; their chunks are removed before choosing a bank",
     PARAM(partition_count)},
    {"partition_interleave", SIMTX_PARAM_INT, "256", "bytes", 128, 1LL << 40, NULL,
     "bytes per partition chunk (a power of two), as in the interconnect's mapping", PARAM(partition_interleave)},
    {"read_cycles", SIMTX_PARAM_INT, "192", "cycles", 1, 1e6, NULL,
     "media read, the bank busy (AGPM Table IV: 160 ns at the controller's 1.2 GHz)", PARAM(read_cycles)},
    {"write_cycles", SIMTX_PARAM_INT, "576", "cycles", 1, 1e6, NULL,
     "media write, the bank busy (AGPM Table IV: 480 ns at 1.2 GHz)", PARAM(write_cycles)},
    {"bus_bytes_per_cycle", SIMTX_PARAM_INT, "32", "bytes", 1, 1 << 16, NULL,
     "channel data bus (AGPM Table IV: 307 GB/s over 8 channels at 1.2 GHz)", PARAM(bus_bytes_per_cycle)},
    {"wpq_latency", SIMTX_PARAM_INT, "1", "cycles", 1, 1e6, NULL,
     "arrival to the acknowledgement of a write, or the answer of a read the WPQ holds", PARAM(wpq_latency)},
    {"read_queue_depth", SIMTX_PARAM_INT, "16", "requests", 1, 4096, NULL,
     "reads held until answered; a full queue refuses reads (the GTX480 DRAM scheduler's 16)", PARAM(read_queue_depth)},
    {"wpq_entries", SIMTX_PARAM_INT, "64", "writes", 1, 4096, NULL,
     "write-pending queue entries (not in the paper): more absorb longer write bursts, but a failure must drain them all",
     PARAM(wpq_entries)},
    {"write_drain_threshold", SIMTX_PARAM_INT, "48", "writes", 1, 4096, NULL,
     "WPQ occupancy from which writes go to the media before reads: higher keeps reads fast longer, but refuses writes sooner",
     PARAM(write_drain_threshold)},
};

static const simtx_param_table nvm_param_table = {
    nvm_param_specs, sizeof nvm_param_specs / sizeof nvm_param_specs[0], sizeof(nvm_controller_params)};

static const simtx_socket_spec nvm_sockets[] = {
    {"port", SIMTX_SOCKET_TARGET, NULL, "reads, writes, fences and line cleans in, responses out", false},
};

static bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static bool check_params(const nvm_controller_params *p, char *error, size_t error_size)
{
    if (!is_power_of_two(p->bank_interleave)) {
        snprintf(error, error_size, "'bank_interleave' (%lld) must be a power of two", (long long)p->bank_interleave);
        return false;
    }
    if (!is_power_of_two(p->partition_interleave)) {
        snprintf(error, error_size, "'partition_interleave' (%lld) must be a power of two",
                 (long long)p->partition_interleave);
        return false;
    }
    if (p->partition >= p->partition_count) {
        snprintf(error, error_size, "'partition' (%lld) must be below 'partition_count' (%lld)", (long long)p->partition,
                 (long long)p->partition_count);
        return false;
    }
    if (p->write_drain_threshold > p->wpq_entries) {
        snprintf(error, error_size, "'write_drain_threshold' (%lld) exceeds 'wpq_entries' (%lld): writes would never go first",
                 (long long)p->write_drain_threshold, (long long)p->wpq_entries);
        return false;
    }
    return true;
}

static void nvm_controller_destroy(void *core)
{
    nvm_controller *c = core;
    if (!c) return;
    sparse_memory_destroy(c->media);
    nvm_wpq_release(&c->wpq);
    msg_queue_release(&c->answers);
    free(c->reads);
    free(c->bank_free);
    free(c);
}

static void observe(nvm_controller *c, simtx_observer *o)
{
    simtx_observe_counter(o, "reads", &c->stats.reads, "requests", "read requests answered");
    simtx_observe_counter(o, "writes", &c->stats.writes, "requests", "write requests accepted into the WPQ (durable from then)");
    simtx_observe_counter(o, "forwarded_reads", &c->stats.forwarded_reads, "requests",
                          "reads answered from the WPQ, which held all their bytes (no media access)");
    simtx_observe_counter(o, "media_reads", &c->stats.media_reads, "accesses", "reads of the media");
    simtx_observe_counter(o, "media_writes", &c->stats.media_writes, "accesses", "WPQ entries written to the media");
    simtx_observe_counter(o, "bytes_read", &c->stats.bytes_read, "bytes", "bytes answered to reads");
    simtx_observe_counter(o, "bytes_written", &c->stats.bytes_written, "bytes", "bytes of writes accepted");
    simtx_observe_counter(o, "persists_writeback", &c->stats.persists_writeback, "requests",
                          "writes accepted that a cache wrote back on eviction (a plain store's data reaching persistence)");
    simtx_observe_counter(o, "persists_clwb", &c->stats.persists_clwb, "requests", "writes accepted that a cache wrote back for a clwb");
    simtx_observe_counter(o, "persists_non_temporal", &c->stats.persists_non_temporal, "requests", "non-temporal writes accepted");
    simtx_observe_counter(o, "persists_other", &c->stats.persists_other, "requests",
                          "other writes accepted (a requester's own writes, no write-back cache on the way)");
    simtx_observe_counter(o, "fences", &c->stats.fences, "requests", "FENCE requests answered (every accepted write is already durable)");
    simtx_observe_counter(o, "line_requests", &c->stats.line_requests, "requests",
                          "CLEAN_LINE and FLUSH_LINE answered at once (no cache above held the line dirty)");
    simtx_observe_counter(o, "wpq_full_stalls", &c->stats.wpq_full_stalls, "stalls", "writes refused because the WPQ was full (once per refused write)");
    simtx_observe_counter(o, "wpq_full_cycles", &c->stats.wpq_full_cycles, "cycles", "cycles a refused write waited for a WPQ entry");
    simtx_observe_energy(o, "read_request", &c->stats.reads, "a read through the controller (queue, WPQ search)");
    simtx_observe_energy(o, "wpq_insert", &c->stats.writes, "a write entered into the WPQ (its SRAM and address CAM)");
    simtx_observe_energy(o, "media_read", &c->stats.media_reads, "a read of the media");
    simtx_observe_energy(o, "media_write", &c->stats.media_writes, "a WPQ entry written to the media");
    simtx_observe_counter(o, "address_errors", &c->stats.address_errors, "requests", "requests over SIMTX_MSG_MAX_DATA or crossing a 128-byte block");
    simtx_observe_counter(o, "command_errors", &c->stats.command_errors, "requests", "atomics (the L2 executes them), answered with a command error");
    simtx_observe_histogram(o, "read_latency", &c->stats.read_latency, "cycles", "arrival to response ready, reads");
    simtx_observe_histogram(o, "write_accept_latency", &c->stats.write_accept_latency, "cycles",
                            "first offer (a refused write counts from its refusal) to acknowledgement: the write is durable");
    simtx_observe_histogram(o, "write_media_latency", &c->stats.write_media_latency, "cycles", "acceptance to the media holding the write");
    simtx_observe_average(o, "wpq_occupancy", &c->stats.wpq_occupancy.average, "writes", "WPQ entries held, averaged over time");
    simtx_observe_average(o, "read_queue_occupancy", &c->stats.read_queue_occupancy.average, "requests", "reads held, averaged over time");
    simtx_observe_level_probe(o, "wpq_occupancy", &c->probes.wpq_occupancy, 13, (uint64_t)c->params.wpq_entries, "WPQ entries held");
    simtx_observe_level_probe(o, "read_queue_depth", &c->probes.read_queue_depth, 13, (uint64_t)c->params.read_queue_depth, "reads held");
}

static void *nvm_controller_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const nvm_controller_params *p = params;
    if (!check_params(p, error, error_size)) return NULL;
    nvm_controller *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->params = *p;
    c->env = *env;
    c->media = sparse_memory_create();
    c->reads = calloc((size_t)p->read_queue_depth, sizeof *c->reads);
    c->bank_free = calloc((size_t)p->banks, sizeof *c->bank_free);
    /* Acknowledgements wait in `answers` only while the port refuses
     * responses: room for a full WPQ and read queue's worth is plenty. */
    bool queues = nvm_wpq_init(&c->wpq, (unsigned)p->wpq_entries) &&
                  msg_queue_init(&c->answers, (size_t)(p->wpq_entries + p->read_queue_depth));
    if (!c->media || !c->reads || !c->bank_free || !queues) {
        snprintf(error, error_size, "out of memory for wpq_entries %lld", (long long)p->wpq_entries);
        nvm_controller_destroy(c);
        return NULL;
    }
    observe(c, env->observer);
    return c;
}

static void nvm_controller_port_free(void *core, unsigned port)
{
    (void)port;
    ((nvm_controller *)core)->port_blocked = false;
}

void nvm_controller_read_durable(nvm_controller *c, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(c->media, address, data, size);
    nvm_wpq_overlay(&c->wpq, address, data, size);
}

void nvm_controller_write_durable(nvm_controller *c, uint64_t address, const void *data, size_t size)
{
    sparse_memory_write(c->media, address, data, size);
    nvm_wpq_patch(&c->wpq, address, data, size);
}

void nvm_controller_read_media(nvm_controller *c, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(c->media, address, data, size);
}

bool nvm_controller_holds(const nvm_controller *c, uint64_t address)
{
    return partition_of_address(address, (uint64_t)c->params.partition_interleave, (uint64_t)c->params.partition_count) ==
           (uint64_t)c->params.partition;
}

unsigned nvm_controller_wpq_occupancy(const nvm_controller *c) { return c->wpq.count; }

static size_t nvm_controller_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                          int *forward_port)
{
    *forward_port = -1;
    if (is_write) nvm_controller_write_durable(core, address, data, size);
    else nvm_controller_read_durable(core, address, data, size);
    return size;
}

const simtx_block_info nvm_controller_block_info = {
    .name = "nvm_controller",
    .summary = "persistent-memory channel: FR-FCFS over NVM banks, an ADR write-pending queue (durable on acceptance) with read forwarding",
    .params = &nvm_param_table,
    .sockets = nvm_sockets,
    .socket_count = 1,
    .create = nvm_controller_create,
    .destroy = nvm_controller_destroy,
    .accept = nvm_controller_accept,
    .cycle = nvm_controller_cycle,
    .port_free = nvm_controller_port_free,
    .debug_access = nvm_controller_debug_access,
    .finish = nvm_controller_finish,
    .announces_room = true,
};
