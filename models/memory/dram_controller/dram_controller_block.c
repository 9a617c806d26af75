/* dram_controller_block.c: the block's face: parameters, sockets,
 * creation and destruction, statistics and probes registration, the test
 * API and the block table. Nothing here runs per cycle. */
#include "dram_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAM(field) offsetof(dram_controller_params, field)
#define NO_LIMIT SIMTX_PARAM_NO_LIMIT

/* Defaults: Hynix H5GQ1H24AFR (1 Gb GDDR5 x32) at the GTX480's 924 MHz
 * command clock (tCK = 1.082 ns). Minimum timings are converted with
 * cycles = ceil(ns / tCK); tREFI, a maximum, with floor. */
static const simtx_param_spec dram_controller_param_specs[] = {
    {"address_map", SIMTX_PARAM_STRING, "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSS", "", 0, 0, NULL,
     "address bits, most significant first: R row, G bank group, B bank, C column (burst), S byte in burst, X/0 not decoded; bits above must be zero", PARAM(address_map)},
    {"partition_count", SIMTX_PARAM_INT, "1", "partitions", 1, 1024, NULL, "memory partitions the interconnect interleaves addresses over; their chunks are removed before decoding (GPGPU-Sim's addrdec dropping the dramid bits)", PARAM(partition_count)},
    {"partition_interleave", SIMTX_PARAM_INT, "256", "bytes", 1, 1LL << 40, NULL, "bytes per partition chunk (a power of two, at least a burst and 128 bytes), as in the interconnect's mapping", PARAM(partition_interleave)},
    {"banks", SIMTX_PARAM_INT, "16", "banks", 1, 1024, NULL, "banks in the channel (all groups)", PARAM(banks)},
    {"bank_groups", SIMTX_PARAM_INT, "4", "groups", 1, 1024, NULL, "bank groups (tCCDL applies within a group)", PARAM(bank_groups)},
    {"rows", SIMTX_PARAM_INT, "4096", "rows", 1, 1 << 24, NULL, "rows per bank", PARAM(rows)},
    {"subarrays", SIMTX_PARAM_INT, "64", "subarrays", 1, 1 << 24, NULL, "subarrays per bank; a subarray holds rows/subarrays consecutive rows", PARAM(subarrays)},
    {"row_bytes", SIMTX_PARAM_INT, "2048", "bytes", 1, 1 << 20, NULL, "row (page) size", PARAM(row_bytes)},
    {"bus_bytes", SIMTX_PARAM_INT, "4", "bytes", 1, 64, NULL, "data bus width (4: one x32 device)", PARAM(bus_bytes)},
    {"burst_length", SIMTX_PARAM_INT, "8", "transfers", 1, 64, NULL, "data transfers per column command", PARAM(burst_length)},
    {"transfers_per_clock", SIMTX_PARAM_INT, "4", "transfers", 1, 8, NULL, "data transfers per command clock (GDDR5: 4)", PARAM(transfers_per_clock)},
    {"queue_depth", SIMTX_PARAM_INT, "16", "requests", 1, 4096, NULL, "read/write requests the scheduler holds; a full queue refuses new ones", PARAM(queue_depth)},
    {"return_queue_depth", SIMTX_PARAM_INT, "32", "responses", 1, 4096, NULL, "responses waiting for the port; when full no request completes", PARAM(return_queue_depth)},
    {"copy_queue_depth", SIMTX_PARAM_INT, "4", "copies", 1, 256, NULL, "ROW_COPY operations held at once", PARAM(copy_queue_depth)},
    {"tRCD", SIMTX_PARAM_INT, "12", "cycles", 1, NO_LIMIT, NULL, "ACT to RD/WR (12 ns)", PARAM(t_rcd)},
    {"tRP", SIMTX_PARAM_INT, "12", "cycles", 1, NO_LIMIT, NULL, "PRE to ACT (12 ns)", PARAM(t_rp)},
    {"tRAS", SIMTX_PARAM_INT, "26", "cycles", 1, NO_LIMIT, NULL, "ACT to PRE (28 ns)", PARAM(t_ras)},
    {"tRC", SIMTX_PARAM_INT, "38", "cycles", 1, NO_LIMIT, NULL, "ACT to ACT, same bank (40 ns = 37 cycles, raised to tRAS + tRP)", PARAM(t_rc)},
    {"tCL", SIMTX_PARAM_INT, "12", "cycles", 1, NO_LIMIT, NULL, "RD to first data (12 ns)", PARAM(t_cl)},
    {"tWL", SIMTX_PARAM_INT, "4", "cycles", 0, NO_LIMIT, NULL, "WR to first data", PARAM(t_wl)},
    {"tCCDS", SIMTX_PARAM_INT, "2", "cycles", 1, NO_LIMIT, NULL, "column to column, different bank groups", PARAM(t_ccd_s)},
    {"tCCDL", SIMTX_PARAM_INT, "3", "cycles", 1, NO_LIMIT, NULL, "column to column, same bank group", PARAM(t_ccd_l)},
    {"tRRD", SIMTX_PARAM_INT, "6", "cycles", 1, NO_LIMIT, NULL, "ACT to ACT, different banks (5.5 ns)", PARAM(t_rrd)},
    {"tFAW", SIMTX_PARAM_INT, "22", "cycles", 1, NO_LIMIT, NULL, "window holding at most four ACTs (23 ns)", PARAM(t_faw)},
    {"tWTR", SIMTX_PARAM_INT, "5", "cycles", 0, NO_LIMIT, NULL, "end of write data to RD (5 ns)", PARAM(t_wtr)},
    {"tRTW", SIMTX_PARAM_INT, "11", "cycles", 1, NO_LIMIT, NULL, "RD to WR (bus turnaround: tCL + burst + 1 - tWL)", PARAM(t_rtw)},
    {"tWR", SIMTX_PARAM_INT, "12", "cycles", 1, NO_LIMIT, NULL, "end of write data to PRE (12 ns)", PARAM(t_wr)},
    {"tRTP", SIMTX_PARAM_INT, "2", "cycles", 1, NO_LIMIT, NULL, "RD to PRE", PARAM(t_rtp)},
    {"tREFI", SIMTX_PARAM_INT, "3603", "cycles", 1, NO_LIMIT, NULL, "refresh interval (3.9 us)", PARAM(t_refi)},
    {"tRFC", SIMTX_PARAM_INT, "61", "cycles", 1, NO_LIMIT, NULL, "REF to ACT (65 ns)", PARAM(t_rfc)},
    {"refresh", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "issue an all-bank REF every tREFI", PARAM(refresh)},
    {"check_timing", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "verify every command with the independent timing checker; a violation fails the run", PARAM(check_timing)},
    {"copy_activates_limited", SIMTX_PARAM_BOOL, "true", "", 0, 0, NULL, "the second activate of a RowClone FPM copy counts against tRRD and tFAW", PARAM(copy_activates_limited)},
    {"inject_timing_error", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL,
     "testing the checker only: the scheduler uses tRCD - 1 while the checker keeps tRCD", PARAM(inject_timing_error)},
    {"row_copy_mode", SIMTX_PARAM_ENUM, "auto", "", 0, 0, "auto|controller",
     "auto: RowClone FPM within a subarray, PSM between banks, through the controller otherwise; controller: always read and write through the controller", PARAM(row_copy_mode)},
    {"starvation_cap", SIMTX_PARAM_INT, "0", "commands", 0, 1 << 20, NULL,
     "0: classic FR-FCFS; N: after N column commands of younger requests on the oldest request's bank, that bank serves the oldest request first", PARAM(starvation_cap)},
};

static const simtx_param_table dram_controller_param_table = {
    dram_controller_param_specs, sizeof dram_controller_param_specs / sizeof dram_controller_param_specs[0],
    sizeof(dram_controller_params)};

static const simtx_socket_spec dram_controller_sockets[] = {
    {"port", SIMTX_SOCKET_TARGET, NULL, "requests and ROW_COPY operations in, responses out", false},
};

static void fill_geometry(const dram_controller_params *p, dram_geometry *g)
{
    g->banks = (unsigned)p->banks;
    g->bank_groups = (unsigned)p->bank_groups;
    g->rows = (unsigned)p->rows;
    g->subarrays = (unsigned)p->subarrays;
    g->row_bytes = (unsigned)p->row_bytes;
    g->burst_bytes = (unsigned)(p->bus_bytes * p->burst_length);
}

bool dram_controller_params_address_map(const dram_controller_params *p, dram_address_map *map, char *error,
                                        size_t error_size)
{
    dram_geometry g;
    fill_geometry(p, &g);
    return dram_address_map_parse(p->address_map, &g, SIMTX_MSG_MAX_DATA, map, error, error_size) &&
           dram_address_map_set_partitions(map, (uint64_t)p->partition_count, (uint64_t)p->partition_interleave,
                                           SIMTX_MSG_MAX_DATA, error, error_size);
}

const dram_address_map *dram_controller_address_map(const dram_controller *c) { return &c->map; }

bool dram_controller_same_subarray(const dram_controller *c, uint64_t a, uint64_t b)
{
    return dram_same_subarray(&c->map, a, b);
}

void dram_controller_peek(dram_controller *c, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(c->data, address, data, size);
}

void dram_controller_last_copy_cycles(const dram_controller *c, uint64_t *first_command, uint64_t *done)
{
    *first_command = c->last_copy_first_command;
    *done = c->last_copy_done;
}

void dram_controller_set_command_listener(dram_controller *c, void (*listener)(void *, const dram_command *),
                                          void *context)
{
    c->listener = listener;
    c->listener_context = context;
}

static void dram_controller_destroy(void *core)
{
    dram_controller *c = core;
    if (!c) return;
    dram_timing_checker_destroy(c->checker);
    dram_timing_state_release(&c->state);
    sparse_memory_destroy(c->data);
    if (c->copies)
        for (unsigned i = 0; i < (unsigned)c->params.copy_queue_depth; i++) free(c->copies[i].buffer);
    free(c->requests);
    free(c->sequences);
    free(c->messages);
    free(c->free_messages);
    free(c->queue);
    free(c->conflicts);
    free(c->open_row);
    free(c->free_slots);
    free(c->bank_hit_scan);
    free(c->bank_queues);
    free(c->candidate_banks);
    free(c->copies);
    free(c->copies_on_bank);
    free(c->response_messages);
    free(c->response_ready);
    free(c->probes.bank_state);
    free(c->probes.bank_row);
    free(c->probes.bank_command);
    free(c->params.address_map);
    free(c->params.row_copy_mode);
    free(c);
}

static void register_observations(dram_controller *c)
{
    simtx_observer *o = c->env.observer;
    simtx_observe_counter(o, "reads", &c->stats.reads, "requests", "read requests served");
    simtx_observe_counter(o, "writes", &c->stats.writes, "requests", "write requests served");
    simtx_observe_counter(o, "bytes_read", &c->stats.bytes_read, "bytes", "bytes read");
    simtx_observe_counter(o, "bytes_written", &c->stats.bytes_written, "bytes", "bytes written");
    simtx_observe_counter(o, "row_hits", &c->stats.row_hits, "requests", "requests served from a row already open");
    simtx_observe_counter(o, "row_misses", &c->stats.row_misses, "requests", "requests that activated a closed bank");
    simtx_observe_counter(o, "row_conflicts", &c->stats.row_conflicts, "requests", "requests that closed another row first");
    simtx_observe_counter(o, "activates", &c->stats.commands[DRAM_CMD_ACT], "commands", "ACT commands (RowClone copy activates not included)");
    simtx_observe_counter(o, "copy_activates", &c->stats.commands[DRAM_CMD_COPY_ACT], "commands", "RowClone FPM second activates");
    simtx_observe_counter(o, "precharges", &c->stats.commands[DRAM_CMD_PRE], "commands", "PRE commands");
    simtx_observe_counter(o, "read_bursts", &c->stats.commands[DRAM_CMD_RD], "commands", "RD commands");
    simtx_observe_counter(o, "write_bursts", &c->stats.commands[DRAM_CMD_WR], "commands", "WR commands");
    simtx_observe_counter(o, "transfers", &c->stats.commands[DRAM_CMD_TRANSFER], "commands", "RowClone PSM TRANSFER commands");
    simtx_observe_counter(o, "refreshes", &c->stats.commands[DRAM_CMD_REF], "commands", "REF commands");
    simtx_observe_counter(o, "row_copies_fpm", &c->stats.copies_fpm, "copies", "ROW_COPY done with RowClone Fast Parallel Mode");
    simtx_observe_counter(o, "row_copies_psm", &c->stats.copies_psm, "copies", "ROW_COPY done with RowClone Pipelined Serial Mode");
    simtx_observe_counter(o, "row_copies_controller", &c->stats.copies_controller, "copies", "ROW_COPY read and written through the controller");
    simtx_observe_counter(o, "row_copies_trivial", &c->stats.copies_trivial, "copies", "ROW_COPY onto the same row (no command)");
    simtx_observe_counter(o, "address_errors", &c->stats.address_errors, "requests", "requests outside the map or crossing a 128-byte block");
    simtx_observe_counter(o, "command_errors", &c->stats.command_errors, "requests", "requests with an unsupported op or a malformed ROW_COPY");
    simtx_observe_counter(o, "timing_violations", &c->stats.timing_violations, "commands", "commands the timing checker rejected");
    simtx_observe_counter(o, "checked_commands", &c->stats.checked_commands, "commands", "commands the timing checker verified");
    simtx_observe_counter(o, "wakeups", &c->stats.wakeups, "calls", "cycles the controller was run (simulation cost)");
    simtx_observe_histogram(o, "read_latency", &c->stats.read_latency, "cycles", "arrival to response ready, reads");
    simtx_observe_histogram(o, "write_latency", &c->stats.write_latency, "cycles", "arrival to response ready, writes");
    simtx_observe_histogram(o, "copy_latency", &c->stats.copy_latency, "cycles", "arrival to completion, ROW_COPY");
    simtx_observe_histogram(o, "copy_service_latency", &c->stats.copy_service_latency, "cycles", "first command to completion, ROW_COPY (2 tRAS + tRP for FPM on an idle bank)");
    simtx_observe_average(o, "queue_occupancy", &c->stats.queue_occupancy, "requests", "requests held, sampled at each arrival");
    simtx_observe_real(o, "activates_per_kilocycle", &c->stats.activates_per_kilocycle, "ACT/1000 cycles", "activates per 1000 DRAM clocks over the run");
    simtx_observe_real(o, "bus_utilisation", &c->stats.bus_utilisation, "fraction", "data-bus busy cycles over the run");
    simtx_observe_real(o, "row_hit_rate", &c->stats.row_hit_rate, "fraction", "row hits over requests served");
    /* Energy: the device's commands and active time, priced from its currents
     * (simtx_energy.h); the controller's own work per request, and the I/O. */
    simtx_observe_energy(o, "act", &c->stats.commands[DRAM_CMD_ACT], "an ACT (row activation)");
    simtx_observe_energy(o, "pre", &c->stats.commands[DRAM_CMD_PRE], "a PRE (bank precharge)");
    simtx_observe_energy(o, "rd", &c->stats.commands[DRAM_CMD_RD], "a RD burst");
    simtx_observe_energy(o, "wr", &c->stats.commands[DRAM_CMD_WR], "a WR burst");
    simtx_observe_energy(o, "ref", &c->stats.commands[DRAM_CMD_REF], "an all-bank REF");
    simtx_observe_energy(o, "copy_act", &c->stats.commands[DRAM_CMD_COPY_ACT], "a RowClone FPM second activate");
    simtx_observe_energy(o, "transfer", &c->stats.commands[DRAM_CMD_TRANSFER], "a RowClone PSM TRANSFER (a burst between banks)");
    simtx_observe_energy(o, "active_cycle", &c->energy.active_cycles, "a clock with a bank open (active over precharged standby)");
    simtx_observe_energy(o, "read_request", &c->stats.reads, "a read through the controller (queue, FR-FCFS scheduling)");
    simtx_observe_energy(o, "write_request", &c->stats.writes, "a write through the controller");
    simtx_observe_energy(o, "io_read_byte", &c->stats.bytes_read, "a byte across the data I/O, read (termination and drivers: not in the IDDs)");
    simtx_observe_energy(o, "io_write_byte", &c->stats.bytes_written, "a byte across the data I/O, written");
    static const char *const bank_states[] = {"idle", "row_open", "refreshing", "rowclone_copy"};
    /* DRAM_CMD_ order after "none" (0: no command yet), twice: bit 3
     * toggles at each command (dram_controller.c, show_command). */
    static const char *const bank_commands[] = {"none", "ACT", "PRE", "RD", "WR", "REF", "COPY_ACT", "TRANSFER",
                                                "none", "ACT", "PRE", "RD", "WR", "REF", "COPY_ACT", "TRANSFER"};
    _Static_assert(DRAM_CMD_COUNT + 1 == 8, "a name per DRAM command, below the toggle bit");
    char name[48];
    for (unsigned b = 0; b < c->timing.banks; b++) {
        snprintf(name, sizeof name, "bank%u_state", b);
        simtx_observe_enum_probe(o, name, &c->probes.bank_state[b], 2, bank_states, 4, "the bank's state (a RowClone copy holds it for 2 tRAS + tRP)");
        snprintf(name, sizeof name, "bank%u_row", b);
        simtx_observe_probe(o, name, &c->probes.bank_row[b], 24, "row open (last opened)");
        snprintf(name, sizeof name, "bank%u_command", b);
        simtx_observe_enum_probe(o, name, &c->probes.bank_command[b], 4, bank_commands, 16,
                                 "latest command to this bank (REF goes to every bank, TRANSFER to both of its banks)");
    }
    simtx_observe_level_probe(o, "queue_depth", &c->probes.queue_depth, 13, c->queue_depth, "read/write requests held");
    simtx_observe_level_probe(o, "return_queue_depth", &c->probes.return_queue_depth, 13, c->return_queue_depth, "responses waiting");
    simtx_observe_level_probe(o, "copy_queue_depth", &c->probes.copy_queue_depth, 9, (uint64_t)c->params.copy_queue_depth, "ROW_COPY operations held");
    simtx_observe_probe(o, "row_hits", &c->probes.row_hits, 32, "row hits so far");
    simtx_observe_probe(o, "row_misses", &c->probes.row_misses, 32, "row misses and conflicts so far");
    simtx_observe_probe(o, "bus_utilisation", &c->probes.bus_utilisation, 7, "percent of the last 64 cycles the data bus was busy");
}

static void *dram_controller_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const dram_controller_params *p = params;
    if (p->banks % p->bank_groups) {
        snprintf(error, error_size, "parameter 'banks' (%lld) is not a multiple of 'bank_groups' (%lld)",
                 (long long)p->banks, (long long)p->bank_groups);
        return NULL;
    }
    if (p->burst_length % p->transfers_per_clock) {
        snprintf(error, error_size, "parameter 'burst_length' (%lld) is not a multiple of 'transfers_per_clock' (%lld)",
                 (long long)p->burst_length, (long long)p->transfers_per_clock);
        return NULL;
    }
    dram_address_map map;
    if (!dram_controller_params_address_map(p, &map, error, error_size)) return NULL;
    dram_timing t = {
        .rcd = (unsigned)p->t_rcd, .rp = (unsigned)p->t_rp, .ras = (unsigned)p->t_ras, .rc = (unsigned)p->t_rc,
        .cl = (unsigned)p->t_cl, .wl = (unsigned)p->t_wl, .ccd_s = (unsigned)p->t_ccd_s, .ccd_l = (unsigned)p->t_ccd_l,
        .rrd = (unsigned)p->t_rrd, .faw = (unsigned)p->t_faw, .wtr = (unsigned)p->t_wtr, .rtw = (unsigned)p->t_rtw,
        .wr = (unsigned)p->t_wr, .rtp = (unsigned)p->t_rtp, .refi = (unsigned)p->t_refi, .rfc = (unsigned)p->t_rfc,
        .burst = (unsigned)(p->burst_length / p->transfers_per_clock), .refresh = p->refresh,
        .copy_activates_limited = p->copy_activates_limited, .rows_per_subarray = map.rows_per_subarray,
        .banks = (unsigned)p->banks, .bank_groups = (unsigned)p->bank_groups};
    if (!dram_timing_validate(&t, error, error_size)) return NULL;

    dram_controller *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->params = *p;
    c->params.address_map = strdup(p->address_map);
    c->params.row_copy_mode = strdup(p->row_copy_mode);
    c->env = *env;
    c->map = map;
    c->timing = t;
    c->burst_bytes = map.geometry.burst_bytes;
    c->bursts_per_row = map.geometry.row_bytes / map.geometry.burst_bytes;
    c->burst_shift = map.widths[DRAM_FIELD_BYTE];
    c->copy_through_controller = !strcmp(p->row_copy_mode, "controller");
    unsigned depth = (unsigned)p->queue_depth, copies = (unsigned)p->copy_queue_depth;
    c->response_capacity = (unsigned)p->return_queue_depth + copies;
    c->queue_depth = depth;
    c->return_queue_depth = (unsigned)p->return_queue_depth;
    c->starvation_cap = (unsigned)p->starvation_cap;
    dram_timing scheduler_timing = t;
    if (p->inject_timing_error) scheduler_timing.rcd--; /* a deliberately broken scheduler */
    bool ok = dram_timing_state_init(&c->state, &scheduler_timing);
    c->data = sparse_memory_create();
    c->requests = aligned_alloc(_Alignof(dram_request), depth * sizeof *c->requests);
    c->sequences = calloc(depth, sizeof *c->sequences);
    unsigned messages = depth + c->response_capacity; /* every request and every response */
    c->messages = calloc(messages, sizeof *c->messages);
    c->free_messages = calloc(messages, sizeof *c->free_messages);
    c->queue = calloc(depth, sizeof *c->queue);
    c->conflicts = calloc(depth, sizeof *c->conflicts);
    c->open_row = malloc(t.banks * sizeof *c->open_row);
    c->free_slots = calloc(depth, sizeof *c->free_slots);
    c->bank_hit_scan = calloc(t.banks, sizeof *c->bank_hit_scan);
    c->bank_queues = malloc(t.banks * sizeof *c->bank_queues);
    c->bank_words = (t.banks + 63) / 64;
    c->candidate_banks = calloc(CANDIDATE_KINDS * c->bank_words, sizeof *c->candidate_banks);
    c->copies = calloc(copies, sizeof *c->copies);
    c->copies_on_bank = calloc(t.banks, sizeof *c->copies_on_bank);
    c->response_messages = calloc(c->response_capacity, sizeof *c->response_messages);
    c->response_ready = calloc(c->response_capacity, sizeof *c->response_ready);
    c->probes.bank_state = calloc(t.banks, sizeof *c->probes.bank_state);
    c->probes.bank_row = calloc(t.banks, sizeof *c->probes.bank_row);
    c->probes.bank_command = calloc(t.banks, sizeof *c->probes.bank_command);
    ok = ok && c->data && c->requests && c->sequences && c->messages && c->free_messages && c->queue && c->conflicts && c->open_row &&
         c->free_slots && c->bank_hit_scan && c->bank_queues && c->candidate_banks && c->copies && c->copies_on_bank && c->response_messages &&
         c->response_ready && c->probes.bank_state && c->probes.bank_row && c->probes.bank_command && c->params.address_map &&
         c->params.row_copy_mode;
    for (unsigned i = 0; ok && i < copies; i++) ok = (c->copies[i].buffer = malloc(map.geometry.row_bytes)) != NULL;
    if (ok && p->check_timing) ok = (c->checker = dram_timing_checker_create(&t, map.geometry.rows)) != NULL;
    if (!ok) {
        snprintf(error, error_size, "out of memory for queue_depth %u", depth);
        dram_controller_destroy(c);
        return NULL;
    }
    for (unsigned i = 0; i < depth; i++) c->free_slots[c->free_count++] = depth - 1 - i;
    for (unsigned i = 0; i < messages; i++) c->free_messages[c->free_message_count++] = messages - 1 - i;
    for (unsigned b = 0; b < t.banks; b++) {
        c->open_row[b] = NO_OPEN_ROW;
        c->bank_queues[b] = (bank_queue){NO_SLOT, NO_SLOT, NO_SLOT, NO_SLOT};
    }
    c->next_refresh = t.refi;
    c->last_arrival_cycle = SIMTX_NEVER;
    c->next_response_ready = SIMTX_NEVER;
    register_observations(c);
    return c;
}

static void dram_controller_port_free(void *core, unsigned port)
{
    (void)port;
    ((dram_controller *)core)->port_blocked = false;
}

const simtx_block_info dram_controller_block_info = {
    .name = "dram_controller",
    .summary = "one GDDR5 channel: FR-FCFS controller, banks with subarrays, refresh, RowClone copies, timing checker",
    .params = &dram_controller_param_table,
    .sockets = dram_controller_sockets,
    .socket_count = 1,
    .create = dram_controller_create,
    .destroy = dram_controller_destroy,
    .accept = dram_controller_accept,
    .cycle = dram_controller_cycle,
    .port_free = dram_controller_port_free,
    .debug_access = dram_device_debug_access,
    .finish = dram_controller_finish,
    .announces_room = true, /* room is noticed at the end of every cycle (refused_arrival_fits) */
};
