#include "dram_controller.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_timing_checker.h"
#include "sparse_memory.h"

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
    {"port", SIMTX_SOCKET_TARGET, NULL, "requests and ROW_COPY operations in, responses out"},
};

typedef enum { COPY_FPM, COPY_PSM, COPY_CONTROLLER } copy_mode;

typedef enum {
    STEP_OPEN_SOURCE,
    STEP_COPY_ACTIVATE, /* FPM */
    STEP_OPEN_TARGET,
    STEP_TRANSFERS,     /* PSM */
    STEP_READS,         /* through the controller */
    STEP_WRITES,
    STEP_CLOSE_SOURCE,
    STEP_CLOSE_TARGET,
    STEP_WAIT_DONE
} copy_step;

/* A queued read or write, by slot: one host cache line each (the array is
 * aligned), as the plan and the bank summaries read a few requests' fields
 * at every command. Its sequence number is in the controller's sequences. */
typedef struct __attribute__((aligned(64))) dram_request {
    uint64_t arrival, address;
    /* A lower bound on when its next command may issue, for the queue scan:
     * issuing commands only pushes timing limits later. Reset to 0 (look
     * again) whenever its bank's summary is redone (summarise_bank). */
    uint64_t not_before;
    uint32_t size;
    unsigned row, column;
    unsigned message;         /* its message, which becomes its response */
    uint16_t bank;            /* banks are at most 1024 */
    uint16_t younger_in_bank; /* the next request of its bank in arrival order (NO_SLOT: none) */
    uint8_t bursts, bursts_issued; /* a request is at most 128 bytes */
    bool is_write, activated, precharged;
} dram_request;

/* What the FR-FCFS queue scan reads first of a queued request, by queue
 * position (oldest first), packed so that the whole queue spans a few cache
 * lines. */
typedef struct queued_request {
    uint32_t row;
    uint16_t bank, slot;
    bool hazard;     /* an older request touching the same bytes may still be queued */
    bool is_write;
} queued_request;

#define NO_SLOT UINT16_MAX

/* The kinds of candidate FR-FCFS looks at when no request is held back, by
 * the command each waits for: a bank's oldest read and oldest write for the
 * open row wait for RD and WR; without such row hits, its oldest request
 * waits for ACT (closed) or PRE (open on another row: a row is not closed
 * under its hits). */
enum { CANDIDATE_READ, CANDIDATE_WRITE, CANDIDATE_ACTIVATE, CANDIDATE_PRECHARGE, CANDIDATE_KINDS };

/* Per bank, what FR-FCFS may do there, kept as requests arrive and leave and
 * as the bank opens and closes: the slots of its oldest request and of its
 * oldest read and oldest write for the open row (NO_SLOT: none). Every
 * request of a bank waits for the same kind of command, so unless requests
 * are held back these are the only ones worth looking at. The bank's
 * requests form a list in arrival order, oldest to youngest through
 * younger_in_bank, so that keeping this costs a walk over the bank's few
 * requests rather than over the whole queue. */
typedef struct bank_queue {
    uint16_t oldest, youngest, read_hit, write_hit;
} bank_queue;

/* What FR-FCFS will do next when no request is held back: the first cycle
 * a command may go and the oldest row hit and oldest other request whose
 * command may go then (NO_SLOT: none). Valid until a request arrives or a
 * command goes: nothing else changes the requests' timing. */
typedef struct request_plan {
    uint64_t cycle;
    uint16_t hit, other;
    bool valid;
} request_plan;

typedef struct dram_copy {
    simtx_msg msg;
    uint64_t arrival, sequence, first_command, done;
    copy_mode mode;
    copy_step step;
    bool started, issued_any;
    unsigned source_bank, source_row, target_bank, target_row, bursts_done;
    uint64_t source_address, target_address, data_ready;
    uint8_t *buffer; /* controller mode: the row in flight */
} dram_copy;

enum { BANK_IDLE, BANK_ACTIVE, BANK_REFRESHING, BANK_COPYING };
#define NO_OPEN_ROW UINT32_MAX /* rows are below 2^24 */
#define BUS_WINDOW 64 /* cycles over which the bus_utilisation probe is computed */
#define BUS_CANDIDATES 128 /* more than BUS_WINDOW: see record_bus_burst */

/* The fields every cycle and command use come first, so that a cycle finds
 * them in a few host cache lines: between two of a controller's cycles the
 * other blocks' run evicts them from the host's first-level cache. */
struct dram_controller {
    bool sleeping; /* the last cycle() returned SIMTX_NEVER */
    bool issued_this_cycle, refresh_due, refresh_shown, port_blocked, failed;
    /* The last arrival offered was refused (the port holds one at a time):
     * the shim offers it again right after each cycle. */
    bool refused_waiting;
    uint8_t refused_op;
    /* The parameters the cycle reads, beside its state rather than in params. */
    unsigned queue_depth, return_queue_depth, starvation_cap;
    unsigned request_count, copy_count;
    unsigned hazards; /* queued requests whose hazard flag is set */
    unsigned bank_words;
    request_plan plan;
    uint64_t next_refresh, refresh_end;
    /* Requests are considered from the cycle after they arrive, whether the
     * shim delivered them before or after running that cycle. The cycle is
     * SIMTX_NEVER before the first arrival, so that equal to now it means
     * arrivals then. */
    uint64_t last_arrival_cycle;
    unsigned arrivals_that_cycle;

    /* Responses leave in the order they become ready, those ready at once
     * in the order they were made. That order is kept by position in a
     * ring, so that sending one moves no message and looks at no other
     * response. */
    unsigned response_count, response_capacity, response_head; /* the ring's first position */
    uint64_t next_response_ready; /* the first's ready (SIMTX_NEVER: none) */
    unsigned *response_messages;         /* by ring position, first to leave first */
    uint64_t *response_ready;            /* by ring position */

    dram_request *requests;
    /* The requests' sequence numbers by slot, apart: the plan ranks its
     * candidates by them, and from this array of a few host cache lines
     * rather than from a line of each candidate's request. */
    uint64_t *sequences;
    /* The messages of requests and then of their responses, which are made
     * in place: a request's message is not copied again. */
    simtx_msg *messages;
    unsigned *free_messages;
    unsigned free_message_count;
    unsigned free_count;
    unsigned *free_slots;
    queued_request *queue;  /* occupied slots by position, oldest first */
    bank_queue *bank_queues;
    /* Per kind of candidate, a bit per bank with one, so that the bank plan
     * looks at each bank for the kinds of command it waits for only. */
    uint64_t *candidate_banks; /* CANDIDATE_KINDS sets of bank_words words, interleaved */
    uint32_t *open_row;     /* per bank: the open row, or NO_OPEN_ROW (mirrors state.banks for the scan) */
    sparse_memory *data;
    dram_timing_checker *checker;
    void (*listener)(void *context, const dram_command *command);
    void *listener_context;
    uint64_t sequence;
    unsigned burst_bytes, bursts_per_row;
    unsigned burst_shift; /* log2 of burst_bytes (a power of two): an arrival counts its bursts without dividing */
    simtx_env env;
    dram_timing timing;
    dram_timing_state state;

    struct {
        /* Those counted at every cycle or command first. */
        uint64_t wakeups;
        uint64_t commands[DRAM_CMD_COUNT]; /* by kind */
        uint64_t reads, writes, bytes_read, bytes_written, row_hits, row_misses, row_conflicts;
        uint64_t copies_fpm, copies_psm, copies_controller, copies_trivial;
        uint64_t address_errors, command_errors, timing_violations, checked_commands;
        simtx_histogram read_latency, write_latency, copy_latency, copy_service_latency;
        simtx_average queue_occupancy;
        double activates_per_kilocycle, bus_utilisation, row_hit_rate;
    } stats;

    dram_controller_params params;
    dram_address_map map;
    bool copy_through_controller;
    /* FR-FCFS does not close a row while an unblocked request for it waits;
     * when copies or the starvation cap block requests, each pass marks the
     * banks where it saw one. */
    uint64_t *bank_hit_scan;
    uint64_t scans; /* scheduler passes so far */
    unsigned *conflicts;    /* scratch: queue positions whose bank holds another row */

    dram_copy *copies;      /* oldest first */
    unsigned *copies_on_bank; /* started copies using each bank */

    /* starvation_cap: column commands that went to the oldest request's bank
     * for younger requests since it became the oldest. */
    uint64_t oldest_sequence, bypasses;
    /* The bus_utilisation probe counts the bursts issued after the newest one
     * whose data started BUS_WINDOW cycles ago or more (at most BUS_WINDOW).
     * Only a burst starting before every later one can be that newest old
     * burst, so those candidates are kept in issue order (their starts rise)
     * and each cycle drops the ones gone old, instead of walking the window. */
    struct {
        uint64_t start[BUS_CANDIDATES], number[BUS_CANDIDATES];
        unsigned head, count;
        uint64_t issued, newest_old; /* bursts so far; number of the newest old one (0: none) */
    } bus;
    uint64_t last_copy_first_command, last_copy_done;
    struct {
        uint64_t *bank_state, *bank_row;
        uint64_t queue_depth, return_queue_depth, copy_queue_depth, row_hits, row_misses, bus_utilisation;
    } probes;
};

static uint64_t min2(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

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
    char name[48];
    for (unsigned b = 0; b < c->timing.banks; b++) {
        snprintf(name, sizeof name, "bank%u_state", b);
        simtx_observe_probe(o, name, &c->probes.bank_state[b], 2, "0 idle, 1 row open, 2 refreshing, 3 RowClone copy");
        snprintf(name, sizeof name, "bank%u_row", b);
        simtx_observe_probe(o, name, &c->probes.bank_row[b], 24, "row open (last opened)");
    }
    simtx_observe_probe(o, "queue_depth", &c->probes.queue_depth, 13, "read/write requests held");
    simtx_observe_probe(o, "return_queue_depth", &c->probes.return_queue_depth, 13, "responses waiting");
    simtx_observe_probe(o, "copy_queue_depth", &c->probes.copy_queue_depth, 9, "ROW_COPY operations held");
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
    ok = ok && c->data && c->requests && c->sequences && c->messages && c->free_messages && c->queue && c->conflicts && c->open_row &&
         c->free_slots && c->bank_hit_scan && c->bank_queues && c->candidate_banks && c->copies && c->copies_on_bank && c->response_messages &&
         c->response_ready && c->probes.bank_state && c->probes.bank_row && c->params.address_map &&
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

/* ---- probes ---- */

/* Without a waveform nothing reads the probes: they are left as they are
 * (about 4% of a trace replay's host instructions). */
static void show_bank(dram_controller *c, unsigned bank, uint64_t now)
{
    if (!c->env.probes_traced) return;
    const dram_bank_timing *b = &c->state.banks[bank];
    c->probes.bank_state[bank] = c->copies_on_bank[bank] ? BANK_COPYING
                                 : now < c->refresh_end   ? BANK_REFRESHING
                                 : b->open                ? BANK_ACTIVE
                                                          : BANK_IDLE;
    c->probes.bank_row[bank] = b->row;
}

/* The probes are shown where what they show changes, rather than every
 * cycle: waveforms sample them between time steps only. */
static void show_counts(dram_controller *c)
{
    if (!c->env.probes_traced) return;
    c->probes.queue_depth = c->request_count;
    c->probes.return_queue_depth = c->response_count;
    c->probes.copy_queue_depth = c->copy_count;
    c->probes.row_hits = c->stats.row_hits;
    c->probes.row_misses = c->stats.row_misses + c->stats.row_conflicts;
}

static void show_bus(dram_controller *c)
{
    unsigned busy = (unsigned)min2(BUS_WINDOW, c->bus.issued - c->bus.newest_old) * c->timing.burst;
    c->probes.bus_utilisation = min2(100, busy * 100u / BUS_WINDOW);
}

/* Drops the bursts gone old by now from the bus window. */
static void age_bus_window(dram_controller *c, uint64_t now)
{
    if (!c->env.probes_traced || !c->bus.count || c->bus.start[c->bus.head] + BUS_WINDOW > now) return;
    do {
        c->bus.newest_old = c->bus.number[c->bus.head];
        c->bus.head = (c->bus.head + 1) % BUS_CANDIDATES;
        c->bus.count--;
    } while (c->bus.count && c->bus.start[c->bus.head] + BUS_WINDOW <= now);
    show_bus(c);
}

/* ---- commands ---- */

/* A bank's words of the candidate sets: the sets are interleaved word by
 * word, so that a bank's four bits lie in adjacent words. */
static uint64_t *bank_candidate_words(const dram_controller *c, unsigned bank)
{
    return &c->candidate_banks[bank / 64 * CANDIDATE_KINDS];
}

/* Recomputes a bank's row hits and its bits in the candidate sets after a
 * request arrived or left (which keep its list) or the bank opened or
 * closed. Its requests' next commands may have changed too: they are looked
 * at again (not_before). */
__attribute__((always_inline)) /* at its three callers: once or twice per command */
static inline void summarise_bank(dram_controller *c, unsigned bank)
{
    bank_queue *b = &c->bank_queues[bank];
    uint16_t read_hit = NO_SLOT, write_hit = NO_SLOT;
    uint32_t open_row = c->open_row[bank];
    for (unsigned slot = b->oldest; slot != NO_SLOT; slot = c->requests[slot].younger_in_bank) {
        dram_request *r = &c->requests[slot];
        r->not_before = 0;
        if (r->row != open_row) continue;
        if (r->is_write) write_hit = write_hit == NO_SLOT ? (uint16_t)slot : write_hit;
        else read_hit = read_hit == NO_SLOT ? (uint16_t)slot : read_hit;
    }
    b->read_hit = read_hit;
    b->write_hit = write_hit;
    /* Out of every set, then into its own. */
    uint64_t *words = bank_candidate_words(c, bank), bit = 1ull << (bank % 64);
    for (unsigned kind = 0; kind < CANDIDATE_KINDS; kind++) words[kind] &= ~bit;
    if (read_hit != NO_SLOT) words[CANDIDATE_READ] |= bit;
    if (write_hit != NO_SLOT) words[CANDIDATE_WRITE] |= bit;
    if (read_hit == NO_SLOT && write_hit == NO_SLOT && b->oldest != NO_SLOT)
        words[open_row == NO_OPEN_ROW ? CANDIDATE_ACTIVATE : CANDIDATE_PRECHARGE] |= bit;
}

static bool bank_has_hits(const dram_controller *c, unsigned bank)
{
    const bank_queue *b = &c->bank_queues[bank];
    return b->read_hit != NO_SLOT || b->write_hit != NO_SLOT;
}

/* A burst that starts no later than an older candidate replaces it: whenever
 * the older one is old, so is this newer one. A candidate BUS_CANDIDATES
 * bursts back may be dropped: the count is capped at BUS_WINDOW anyway. */
static void record_bus_burst(dram_controller *c, uint64_t data_start)
{
    while (c->bus.count && c->bus.start[(c->bus.head + c->bus.count - 1) % BUS_CANDIDATES] >= data_start) c->bus.count--;
    if (c->bus.count == BUS_CANDIDATES) {
        c->bus.head = (c->bus.head + 1) % BUS_CANDIDATES;
        c->bus.count--;
    }
    unsigned tail = (c->bus.head + c->bus.count++) % BUS_CANDIDATES;
    c->bus.start[tail] = data_start;
    c->bus.number[tail] = ++c->bus.issued;
    show_bus(c);
}

/* Shows the command to the listener and the timing checker. It takes a
 * copy, so that without them the caller's command never needs memory. */
__attribute__((noinline)) static void observe_command(dram_controller *c, dram_command command)
{
    if (c->listener) c->listener(c->listener_context, &command);
    if (c->checker) {
        char message[256];
        if (dram_timing_checker_observe(c->checker, &command, message, sizeof message)) c->stats.checked_commands++;
        else {
            c->stats.timing_violations++;
            if (!c->failed) c->env.fail(c->env.context, message);
            c->failed = true;
        }
    }
}

__attribute__((always_inline)) /* into the cycle: once per command */
static inline void issue(dram_controller *c, dram_command command, uint64_t now)
{
    command.cycle = now;
    dram_timing_issue(&c->state, &command);
    c->plan.valid = false;
    if (command.kind == DRAM_CMD_ACT || command.kind == DRAM_CMD_PRE || command.kind == DRAM_CMD_COPY_ACT) {
        const dram_bank_timing *b = &c->state.banks[command.bank];
        c->open_row[command.bank] = b->open ? b->row : NO_OPEN_ROW;
        summarise_bank(c, command.bank);
    }
    /* A copy made field by field only here, so that the command itself
     * never needs the stack (its stores and wider reloads stalled the host). */
    if (c->listener || c->checker)
        observe_command(c, (dram_command){.kind = command.kind, .cycle = now, .bank = command.bank, .row = command.row,
                                          .column = command.column, .target_bank = command.target_bank,
                                          .target_row = command.target_row});
    c->stats.commands[command.kind]++;
    if (command.kind == DRAM_CMD_RD || command.kind == DRAM_CMD_WR) {
        uint64_t data_start = now + (command.kind == DRAM_CMD_RD ? c->timing.cl : c->timing.wl);
        if (c->env.probes_traced) record_bus_burst(c, data_start ? data_start : 1); /* 0: never started */
    }
    /* A RD or WR changes no bank's state or row. */
    if (command.kind == DRAM_CMD_REF) {
        for (unsigned b = 0; b < c->timing.banks; b++) show_bank(c, b, now);
    } else if (command.kind != DRAM_CMD_RD && command.kind != DRAM_CMD_WR) {
        show_bank(c, command.bank, now);
        if (command.kind == DRAM_CMD_TRANSFER) show_bank(c, command.target_bank, now);
    }
    c->issued_this_cycle = true;
}

/* Tries a command: issues it if it may go now and nothing went this cycle,
 * otherwise lowers *wake to when it may. */
static bool try_issue(dram_controller *c, dram_command *command, uint64_t now, uint64_t *wake)
{
    uint64_t earliest = dram_timing_earliest(&c->state, command);
    if (earliest <= now && !c->issued_this_cycle) {
        issue(c, *command, now);
        return true;
    }
    *wake = min2(*wake, max2(earliest, now + 1));
    return false;
}

/* The ring position of the response `index` places after the first. */
static unsigned response_position(const dram_controller *c, unsigned index)
{
    unsigned position = c->response_head + index;
    return position < c->response_capacity ? position : position - c->response_capacity;
}

static unsigned take_message(dram_controller *c) { return c->free_messages[--c->free_message_count]; }

/* Queues the response made in `message`. */
__attribute__((always_inline)) /* once per request */
static inline void push_response(dram_controller *c, unsigned message, uint64_t ready)
{
    /* After those ready no later: responses are made nearly in order of
     * readiness, so this moves few. */
    unsigned index = c->response_count++, position = response_position(c, index);
    for (; index; index--) {
        unsigned before = response_position(c, index - 1);
        if (c->response_ready[before] <= ready) break;
        c->response_messages[position] = c->response_messages[before];
        c->response_ready[position] = c->response_ready[before];
        position = before;
    }
    c->response_messages[position] = message;
    c->response_ready[position] = ready;
    c->next_response_ready = c->response_ready[c->response_head];
}

/* Queues a response to `msg` with `status`. */
static void respond(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t ready)
{
    unsigned message = take_message(c);
    c->messages[message] = *msg;
    simtx_msg_make_response(&c->messages[message], status);
    push_response(c, message, ready);
}

/* ---- accepting ---- */

static void reject(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t now)
{
    if (status == SIMTX_STATUS_ADDRESS_ERROR) c->stats.address_errors++;
    else c->stats.command_errors++;
    respond(c, msg, status, now + 1);
}

static bool row_aligned(const dram_controller *c, uint64_t address)
{
    dram_location l = dram_address_decode(&c->map, address);
    return dram_address_in_range(&c->map, address) && l.column == 0 && l.byte == 0;
}

static void accept_copy(dram_controller *c, const simtx_msg *msg, uint64_t now)
{
    uint64_t source = msg->address, target = msg->aux;
    if (!dram_address_in_range(&c->map, source) || !dram_address_in_range(&c->map, target) ||
        (source & c->map.undecoded_mask) != (target & c->map.undecoded_mask)) {
        reject(c, msg, SIMTX_STATUS_ADDRESS_ERROR, now);
        return;
    }
    if (!row_aligned(c, source) || !row_aligned(c, target) || (msg->size != 0 && msg->size != c->map.geometry.row_bytes)) {
        reject(c, msg, SIMTX_STATUS_COMMAND_ERROR, now);
        return;
    }
    dram_location s = dram_address_decode(&c->map, source), t = dram_address_decode(&c->map, target);
    if (s.bank == t.bank && s.row == t.row) {
        c->stats.copies_trivial++;
        respond(c, msg, SIMTX_STATUS_OK, now + 1);
        return;
    }
    dram_copy *copy = &c->copies[c->copy_count++];
    uint8_t *buffer = copy->buffer;
    *copy = (dram_copy){.msg = *msg, .arrival = now, .sequence = c->sequence++, .buffer = buffer,
                        .source_bank = s.bank, .source_row = s.row, .target_bank = t.bank, .target_row = t.row,
                        .source_address = source, .target_address = target, .step = STEP_OPEN_SOURCE};
    if (c->copy_through_controller) copy->mode = COPY_CONTROLLER;
    else if (s.bank != t.bank) copy->mode = COPY_PSM;
    else if (dram_same_subarray(&c->map, source, target)) copy->mode = COPY_FPM;
    else copy->mode = COPY_CONTROLLER; /* same bank, other subarray: see README */
}

static inline bool has_room_for(const dram_controller *c, uint8_t op)
{
    /* Responses made at arrival need a return-queue slot too. */
    if (c->response_count >= c->return_queue_depth) return false;
    if (op == SIMTX_OP_READ || op == SIMTX_OP_WRITE) return c->request_count < c->queue_depth;
    return op != SIMTX_OP_ROW_COPY || c->copy_count < (unsigned)c->params.copy_queue_depth;
}

/* The refused arrival the shim offers again right after this cycle will be
 * taken; the controller asks for the next cycle to see it itself, so its
 * wakes do not rest on the shim's retry scheduling one. */
static inline bool refused_arrival_fits(const dram_controller *c)
{
    return c->refused_waiting && has_room_for(c, c->refused_op);
}

/* Takes an arrival there is room for. */
__attribute__((noinline)) /* keeps the refusal, half the offers of a saturated trace, free of its frame */
static simtx_accept_result take_arrival(dram_controller *c, const simtx_msg *msg, uint64_t now)
{
    bool is_access = msg->op == SIMTX_OP_READ || msg->op == SIMTX_OP_WRITE;
    simtx_average_add(&c->stats.queue_occupancy, (double)c->request_count);
    c->plan.valid = false;
    if (msg->op == SIMTX_OP_ROW_COPY) {
        accept_copy(c, msg, now);
    } else if (!is_access) {
        if (msg->op == SIMTX_OP_ATOMIC) reject(c, msg, SIMTX_STATUS_COMMAND_ERROR, now);
        else {
            /* Clean, flush and fence: nothing is cached here and an accepted
             * write is already ordered before later requests. */
            respond(c, msg, SIMTX_STATUS_OK, now + 1);
        }
    } else {
        uint64_t block = SIMTX_MSG_MAX_DATA;
        /* Made once for the range test and decoding: with partitions it takes a division. */
        uint64_t local = dram_partition_local_address(&c->map, msg->address);
        if (msg->size == 0 || msg->size > SIMTX_MSG_MAX_DATA || !dram_local_address_in_range(&c->map, local) ||
            msg->address / block != (msg->address + msg->size - 1) / block) {
            reject(c, msg, SIMTX_STATUS_ADDRESS_ERROR, now);
        } else {
            unsigned slot = c->free_slots[--c->free_count];
            dram_request *r = &c->requests[slot];
            dram_location l = dram_local_address_decode(&c->map, local);
            unsigned first = (unsigned)(msg->address >> c->burst_shift);
            unsigned last = (unsigned)((msg->address + msg->size - 1) >> c->burst_shift);
            unsigned message = take_message(c);
            c->messages[message] = *msg;
            /* The host fetches the request's place in the data store now and
             * its bytes when its row opens (or its first burst goes): a random
             * trace's data otherwise misses the host's caches when copied. */
            sparse_memory_prefetch_entry(c->data, msg->address);
            c->sequences[slot] = c->sequence++;
            *r = (dram_request){.arrival = now, .address = msg->address, .size = msg->size,
                                .message = message, .bank = l.bank, .row = l.row, .column = l.column, .bursts = last - first + 1,
                                .younger_in_bank = NO_SLOT, .is_write = msg->op == SIMTX_OP_WRITE};
            queued_request *q = &c->queue[c->request_count];
            *q = (queued_request){.row = l.row, .bank = (uint16_t)l.bank,
                                  .slot = (uint16_t)slot, .is_write = r->is_write};
            /* Requests sharing a byte share its bank: only the bank's are looked at. */
            bank_queue *b = &c->bank_queues[l.bank];
            for (unsigned i = b->oldest; i != NO_SLOT && !q->hazard; i = c->requests[i].younger_in_bank) {
                const dram_request *older = &c->requests[i];
                q->hazard = (older->is_write || r->is_write) && older->address < msg->address + msg->size &&
                            msg->address < older->address + older->size;
            }
            c->hazards += q->hazard;
            if (b->oldest == NO_SLOT) b->oldest = (uint16_t)slot;
            else c->requests[b->youngest].younger_in_bank = (uint16_t)slot;
            b->youngest = (uint16_t)slot;
            c->request_count++;
            if (c->last_arrival_cycle != now) c->arrivals_that_cycle = 0;
            c->last_arrival_cycle = now;
            c->arrivals_that_cycle++;
            summarise_bank(c, l.bank);
        }
    }
    show_counts(c);
    return SIMTX_ACCEPTED;
}

static simtx_accept_result dram_controller_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    dram_controller *c = core;
    (void)port;
    c->refused_waiting = !has_room_for(c, msg->op);
    if (c->refused_waiting) {
        c->refused_op = msg->op;
        return SIMTX_BUSY;
    }
    return take_arrival(c, msg, now);
}

/* ---- data movement ---- */

static uint64_t burst_address(const dram_controller *c, uint64_t row_address, unsigned column)
{
    dram_location l = dram_address_decode(&c->map, row_address);
    l.column = column;
    l.byte = 0;
    return dram_address_compose(&c->map, &l, row_address);
}

static void move_burst(dram_controller *c, uint64_t from, uint64_t to)
{
    uint8_t burst[512];
    for (unsigned done = 0; done < c->burst_bytes; done += sizeof burst) {
        unsigned n = min2(sizeof burst, c->burst_bytes - done);
        sparse_memory_read(c->data, from + done, burst, n);
        sparse_memory_write(c->data, to + done, burst, n);
    }
}

/* ---- copies ---- */

static bool copy_uses_bank(const dram_copy *copy, unsigned bank)
{
    return copy->source_bank == bank || copy->target_bank == bank;
}

/* A copy starts once every older request and copy on its banks is done,
 * so data moves in arrival order. */
static bool copy_may_start(const dram_controller *c, unsigned index)
{
    const dram_copy *copy = &c->copies[index];
    if (c->refresh_due) return false;
    for (unsigned i = 0; i < index; i++)
        if (copy_uses_bank(&c->copies[i], copy->source_bank) || copy_uses_bank(&c->copies[i], copy->target_bank))
            return false;
    for (unsigned i = 0; i < c->request_count; i++) {
        unsigned slot = c->queue[i].slot;
        if (c->sequences[slot] < copy->sequence && copy_uses_bank(copy, c->requests[slot].bank)) return false;
    }
    return true;
}

/* The command that opens `row` in `bank`, or false when it is open. */
static bool open_command(const dram_controller *c, unsigned bank, unsigned row, dram_command *command)
{
    const dram_bank_timing *b = &c->state.banks[bank];
    if (b->open && b->row == row) return false;
    *command = (dram_command){.kind = b->open ? DRAM_CMD_PRE : DRAM_CMD_ACT, .bank = bank, .row = row};
    return true;
}

static void finish_copy_step(dram_controller *c, dram_copy *copy, uint64_t done)
{
    copy->done = done;
    copy->step = STEP_WAIT_DONE;
}

/* Works out the copy's next command (skipping steps already satisfied) and
 * issues it when its timing allows. */
static void advance_copy(dram_controller *c, dram_copy *copy, uint64_t now, uint64_t *wake)
{
    const dram_timing *t = &c->timing;
    for (;;) {
        dram_command command;
        switch (copy->step) {
        case STEP_OPEN_SOURCE:
            if (!open_command(c, copy->source_bank, copy->source_row, &command)) {
                copy->step = copy->mode == COPY_FPM ? STEP_COPY_ACTIVATE : copy->mode == COPY_PSM ? STEP_OPEN_TARGET : STEP_READS;
                continue;
            }
            break;
        case STEP_OPEN_TARGET:
            if (!open_command(c, copy->target_bank, copy->target_row, &command)) {
                copy->step = copy->mode == COPY_PSM ? STEP_TRANSFERS : STEP_WRITES;
                continue;
            }
            break;
        case STEP_COPY_ACTIVATE:
            command = (dram_command){.kind = DRAM_CMD_COPY_ACT, .bank = copy->source_bank, .row = copy->target_row};
            break;
        case STEP_TRANSFERS:
            command = (dram_command){.kind = DRAM_CMD_TRANSFER, .bank = copy->source_bank, .row = copy->source_row,
                                     .column = copy->bursts_done, .target_bank = copy->target_bank,
                                     .target_row = copy->target_row};
            break;
        case STEP_READS:
            command = (dram_command){.kind = DRAM_CMD_RD, .bank = copy->source_bank, .row = copy->source_row,
                                     .column = copy->bursts_done};
            break;
        case STEP_WRITES:
            if (now < copy->data_ready) { /* the whole row must have reached the controller */
                *wake = min2(*wake, copy->data_ready);
                return;
            }
            command = (dram_command){.kind = DRAM_CMD_WR, .bank = copy->target_bank, .row = copy->target_row,
                                     .column = copy->bursts_done};
            break;
        case STEP_CLOSE_SOURCE:
            command = (dram_command){.kind = DRAM_CMD_PRE, .bank = copy->source_bank};
            break;
        case STEP_CLOSE_TARGET:
            command = (dram_command){.kind = DRAM_CMD_PRE, .bank = copy->target_bank};
            break;
        default: *wake = min2(*wake, max2(copy->done, now + 1)); return;
        }
        if (!try_issue(c, &command, now, wake)) return;
        if (!copy->issued_any) copy->first_command = now;
        copy->issued_any = true;
        switch (copy->step) {
        case STEP_COPY_ACTIVATE: /* the destination row now holds the source's data */
            for (unsigned i = 0; i < c->bursts_per_row; i++)
                move_burst(c, burst_address(c, copy->source_address, i), burst_address(c, copy->target_address, i));
            copy->step = STEP_CLOSE_SOURCE;
            break;
        case STEP_TRANSFERS:
            move_burst(c, burst_address(c, copy->source_address, copy->bursts_done),
                       burst_address(c, copy->target_address, copy->bursts_done));
            if (++copy->bursts_done == c->bursts_per_row) copy->step = STEP_CLOSE_SOURCE;
            break;
        case STEP_READS:
            sparse_memory_read(c->data, burst_address(c, copy->source_address, copy->bursts_done),
                               copy->buffer + copy->bursts_done * c->burst_bytes, c->burst_bytes);
            copy->data_ready = now + t->cl + t->burst;
            if (++copy->bursts_done == c->bursts_per_row) {
                copy->bursts_done = 0;
                copy->step = STEP_OPEN_TARGET;
            }
            break;
        case STEP_WRITES:
            sparse_memory_write(c->data, burst_address(c, copy->target_address, copy->bursts_done),
                                copy->buffer + copy->bursts_done * c->burst_bytes, c->burst_bytes);
            if (++copy->bursts_done == c->bursts_per_row) finish_copy_step(c, copy, now + t->wl + t->burst);
            break;
        case STEP_CLOSE_SOURCE:
            if (copy->mode == COPY_PSM) copy->step = STEP_CLOSE_TARGET;
            else finish_copy_step(c, copy, now + t->rp);
            break;
        case STEP_CLOSE_TARGET: finish_copy_step(c, copy, now + t->rp); break;
        default: break; /* opening steps re-check the bank next time */
        }
        return;
    }
}

static void start_copy(dram_controller *c, dram_copy *copy, uint64_t now)
{
    copy->started = true;
    c->copies_on_bank[copy->source_bank]++;
    if (copy->target_bank != copy->source_bank) c->copies_on_bank[copy->target_bank]++;
    show_bank(c, copy->source_bank, now);
    show_bank(c, copy->target_bank, now);
}

__attribute__((noinline)) /* the rare path: keeps the cycle light */
static void complete_copies(dram_controller *c, uint64_t now)
{
    for (unsigned i = 0; i < c->copy_count;) {
        dram_copy *copy = &c->copies[i];
        if (copy->step != STEP_WAIT_DONE || copy->done > now) {
            i++;
            continue;
        }
        respond(c, &copy->msg, SIMTX_STATUS_OK, copy->done);
        simtx_histogram_add(&c->stats.copy_latency, copy->done - copy->arrival);
        simtx_histogram_add(&c->stats.copy_service_latency, copy->done - copy->first_command);
        if (copy->mode == COPY_FPM) c->stats.copies_fpm++;
        else if (copy->mode == COPY_PSM) c->stats.copies_psm++;
        else c->stats.copies_controller++;
        c->last_copy_first_command = copy->first_command;
        c->last_copy_done = copy->done;
        c->copies_on_bank[copy->source_bank]--;
        if (copy->target_bank != copy->source_bank) c->copies_on_bank[copy->target_bank]--;
        unsigned source = copy->source_bank, target = copy->target_bank;
        uint8_t *buffer = copy->buffer;
        memmove(copy, copy + 1, (c->copy_count - i - 1) * sizeof *copy);
        c->copies[--c->copy_count].buffer = buffer; /* keep every slot's buffer */
        show_bank(c, source, now);
        show_bank(c, target, now);
        show_counts(c);
    }
}

/* ---- read/write scheduling (FR-FCFS) ---- */

static bool blocked_slow(dram_controller *c, unsigned position)
{
    queued_request *q = &c->queue[position];
    const dram_request *r = &c->requests[q->slot];
    for (unsigned i = 0; i < c->copy_count; i++)
        if (c->copies[i].sequence < c->sequences[q->slot] && copy_uses_bank(&c->copies[i], r->bank)) return true;
    if (!q->hazard) return false;
    /* An older request touching the same bytes goes first when either writes. */
    for (unsigned i = 0; i < position; i++) {
        const dram_request *older = &c->requests[c->queue[i].slot];
        if (older->bank != r->bank || older->row != r->row || !(older->is_write || r->is_write)) continue;
        if (older->address < r->address + r->size && r->address < older->address + older->size)
            return true;
    }
    q->hazard = false; /* the older ones are gone and later arrivals are younger */
    c->hazards--;
    return false;
}


static void complete_request(dram_controller *c, unsigned slot, uint64_t now)
{
    dram_request *r = &c->requests[slot];
    unsigned bank = r->bank, position = 0;
    while (c->queue[position].slot != slot) position++;
    simtx_msg *msg = &c->messages[r->message];
    uint64_t ready;
    if (r->is_write) {
        sparse_memory_write_masked(c->data, msg->address, msg->data, msg->size, msg->byte_enable);
        c->stats.writes++;
        c->stats.bytes_written += msg->size;
        ready = now + c->timing.wl + c->timing.burst;
        simtx_histogram_add(&c->stats.write_latency, ready - r->arrival);
    } else {
        sparse_memory_read(c->data, msg->address, msg->data, msg->size);
        c->stats.reads++;
        c->stats.bytes_read += msg->size;
        ready = now + c->timing.cl + c->timing.burst;
        simtx_histogram_add(&c->stats.read_latency, ready - r->arrival);
    }
    if (r->precharged) c->stats.row_conflicts++;
    else if (r->activated) c->stats.row_misses++;
    else c->stats.row_hits++;
    simtx_msg_make_response(msg, SIMTX_STATUS_OK);
    push_response(c, r->message, ready);
    memmove(&c->queue[position], &c->queue[position + 1], (c->request_count - position - 1) * sizeof *c->queue);
    c->request_count--;
    c->free_slots[c->free_count++] = slot;
    bank_queue *b = &c->bank_queues[bank];
    uint16_t *link = &b->oldest, older = NO_SLOT;
    while (*link != slot) {
        older = *link;
        link = &c->requests[older].younger_in_bank;
    }
    *link = r->younger_in_bank;
    if (b->youngest == slot) b->youngest = older;
    summarise_bank(c, bank);
    show_counts(c);
}

static dram_command column_command(const dram_request *r)
{
    return (dram_command){.kind = r->is_write ? DRAM_CMD_WR : DRAM_CMD_RD, .bank = r->bank, .row = r->row,
                          .column = r->column + r->bursts_issued};
}

/* The command FR-FCFS picks at a cycle: the slot of the row hit whose
 * column command goes, or of the request whose ACT (its bank is closed) or
 * PRE (open on another row) goes (NO_SLOT: none). */
typedef struct request_choice {
    unsigned hit, other;
} request_choice;

/* A candidate's rank in the plan: the cycle its command may go, then its
 * sequence number, so that the smallest rank is the earliest candidate and,
 * of the earliest, the oldest. One comparison of ranks replaces the
 * comparisons of cycles and then of ages, whose outcomes the host
 * mispredicted about once per candidate. */
typedef unsigned __int128 plan_rank;

static inline uint64_t rank_cycle(plan_rank rank) { return (uint64_t)(rank >> 64); }

/* The best row hit and the best other candidate found so far (rank all
 * ones, slot NO_SLOT: none). */
typedef struct plan_search {
    plan_rank hit_rank, other_rank;
    uint16_t hit, other;
} plan_search;

/* Keeps `slot` if it ranks before the best of its class: without a branch
 * (selects), as which one wins is unpredictable. */
static inline void plan_candidate(const dram_controller *c, unsigned slot, uint64_t earliest, bool is_hit,
                                  plan_search *search)
{
    plan_rank rank = (plan_rank)earliest << 64 | c->sequences[slot];
    plan_rank *best = is_hit ? &search->hit_rank : &search->other_rank;
    uint16_t *best_slot = is_hit ? &search->hit : &search->other;
    bool better = rank < *best;
    *best = better ? rank : *best;
    *best_slot = better ? (uint16_t)slot : *best_slot;
}

/* The cycle of the best candidate so far (SIMTX_NEVER: none). */
static inline uint64_t search_cycle(const plan_search *search)
{
    return min2(rank_cycle(search->hit_rank), rank_cycle(search->other_rank));
}

/* Counts a kind's candidates in the plan, given the kind's channel-wide
 * limit and the words of candidate bits. */
__attribute__((always_inline)) /* compiled once per kind */
static inline void plan_kind(const dram_controller *c, unsigned kind, uint64_t limit, unsigned bank_words,
                             plan_search *search)
{
    for (unsigned word = 0; word < bank_words; word++)
        for (uint64_t bits = c->candidate_banks[word * CANDIDATE_KINDS + kind]; bits; bits &= bits - 1) {
            unsigned bank = word * 64 + (unsigned)__builtin_ctzll(bits);
            const bank_queue *b = &c->bank_queues[bank];
            const dram_bank_timing *timing = &c->state.banks[bank];
            switch (kind) {
            case CANDIDATE_READ: plan_candidate(c, b->read_hit, max2(limit, dram_bank_column_limit(&c->state, bank)), true, search); break;
            case CANDIDATE_WRITE: plan_candidate(c, b->write_hit, max2(limit, dram_bank_column_limit(&c->state, bank)), true, search); break;
            case CANDIDATE_ACTIVATE: plan_candidate(c, b->oldest, max2(limit, timing->next_act), false, search); break;
            default: plan_candidate(c, b->oldest, max2(limit, timing->next_pre), false, search); break;
            }
        }
}

/* Counts a kind's candidates in the plan unless none of them can go by
 * the best cycle so far, none going before the kind's channel-wide limit. */
__attribute__((always_inline)) static inline void plan_kind_if_early(const dram_controller *c, unsigned kind, uint64_t limit,
                                                                    unsigned bank_words, plan_search *search)
{
    if (limit <= search_cycle(search)) plan_kind(c, kind, limit, bank_words, search);
}

/* FR-FCFS when no request is held back, from the banks' summaries: the
 * first cycle from now at which a command may go, and the candidates then.
 * The kind with the earliest channel-wide limit is looked at first: its
 * candidates usually settle the plan's cycle, and then the other kinds
 * whose limit is later need no look. */
__attribute__((always_inline)) /* compiled for one word of candidate bits and for any */
static inline void plan_by_bank_words(dram_controller *c, uint64_t now, unsigned bank_words)
{
    plan_search search = {.hit_rank = ~(plan_rank)0, .other_rank = ~(plan_rank)0, .hit = NO_SLOT, .other = NO_SLOT};
    /* Nothing goes before now: raising the channel-wide limits to now once
     * raises every candidate's. */
    dram_channel_limits channel = dram_channel_limits_of(&c->state);
    uint64_t limits[CANDIDATE_KINDS] = {max2(channel.read, now), max2(channel.write, now), max2(channel.activate, now),
                                        max2(channel.precharge, now)};
    unsigned first = CANDIDATE_READ;
    for (unsigned kind = CANDIDATE_WRITE; kind < CANDIDATE_KINDS; kind++)
        if (limits[kind] < limits[first]) first = kind;
    /* Each call names its kind, so that it is compiled for it. */
    switch (first) {
    case CANDIDATE_READ: plan_kind(c, CANDIDATE_READ, limits[CANDIDATE_READ], bank_words, &search); break;
    case CANDIDATE_WRITE: plan_kind(c, CANDIDATE_WRITE, limits[CANDIDATE_WRITE], bank_words, &search); break;
    case CANDIDATE_ACTIVATE: plan_kind(c, CANDIDATE_ACTIVATE, limits[CANDIDATE_ACTIVATE], bank_words, &search); break;
    default: plan_kind(c, CANDIDATE_PRECHARGE, limits[CANDIDATE_PRECHARGE], bank_words, &search); break;
    }
    if (first != CANDIDATE_READ) plan_kind_if_early(c, CANDIDATE_READ, limits[CANDIDATE_READ], bank_words, &search);
    if (first != CANDIDATE_WRITE) plan_kind_if_early(c, CANDIDATE_WRITE, limits[CANDIDATE_WRITE], bank_words, &search);
    if (first != CANDIDATE_ACTIVATE) plan_kind_if_early(c, CANDIDATE_ACTIVATE, limits[CANDIDATE_ACTIVATE], bank_words, &search);
    if (first != CANDIDATE_PRECHARGE) plan_kind_if_early(c, CANDIDATE_PRECHARGE, limits[CANDIDATE_PRECHARGE], bank_words, &search);
    uint64_t cycle = search_cycle(&search);
    c->plan = (request_plan){.cycle = cycle, .hit = rank_cycle(search.hit_rank) == cycle ? search.hit : NO_SLOT,
                             .other = rank_cycle(search.other_rank) == cycle ? search.other : NO_SLOT, .valid = true};
}

/* Channels of up to 64 banks, the usual, need no loop over words. */
__attribute__((noinline)) /* once per command: keeps choose_by_bank light */
static void plan_by_bank(dram_controller *c, uint64_t now)
{
    if (c->bank_words == 1) plan_by_bank_words(c, now, 1);
    else plan_by_bank_words(c, now, c->bank_words);
}

/* FR-FCFS when no request is held back. The plan made after the last
 * command still holds if no request arrived and no command went since. */
__attribute__((always_inline)) /* into choose_request, which runs twice a cycle */
static inline request_choice choose_by_bank(dram_controller *c, uint64_t now, uint64_t *wake)
{
    if (!c->plan.valid || c->plan.cycle < now) plan_by_bank(c, now);
    request_choice choice = {.hit = NO_SLOT, .other = NO_SLOT};
    if (c->plan.cycle > now) {
        *wake = min2(*wake, c->plan.cycle);
        return choice;
    }
    choice.hit = c->plan.hit;
    choice.other = c->plan.other;
    if (choice.hit != NO_SLOT && choice.other != NO_SLOT) *wake = now + 1; /* the one not chosen */
    return choice;
}

/* FR-FCFS in one pass over the queue, skipping the requests held back (by a
 * copy, a hazard, the starvation cap) and the `visible`..end ones not seen
 * yet. Requests whose not_before lies ahead cost a compare. */
__attribute__((noinline)) /* the rare path: keeps choose_request light */
static request_choice choose_by_scan(dram_controller *c, uint64_t now, int capped_bank, unsigned visible,
                                     bool return_full, uint64_t *wake)
{
    uint64_t scan = ++c->scans;
    request_choice choice = {.hit = NO_SLOT, .other = NO_SLOT};
    int hit = -1, other = -1; /* queue positions of the choice */
    unsigned conflict_count = 0;
    uint64_t next = *wake;
    /* Else only requests flagged with a hazard may be blocked. */
    bool check_all = c->copy_count || capped_bank >= 0 || visible < c->request_count;
    for (unsigned i = 0; i < visible; i++) {
        queued_request *q = &c->queue[i];
        if ((check_all || q->hazard) && ((i && q->bank == capped_bank) || blocked_slow(c, i))) continue;
        dram_request *r = &c->requests[q->slot];
        if (r->not_before > now) {
            if (check_all && c->open_row[q->bank] == q->row) c->bank_hit_scan[q->bank] = scan;
            next = min2(next, r->not_before); /* not ready yet: no need to look closer */
            continue;
        }
        unsigned bank = q->bank;
        uint32_t open_row = c->open_row[bank];
        bool is_hit = open_row == q->row;
        if (check_all && is_hit) c->bank_hit_scan[bank] = scan;
        uint64_t earliest;
        if (is_hit) {
            if (return_full && r->bursts_issued + 1 == r->bursts) continue; /* woken when a response leaves */
            earliest = dram_earliest_column(&c->state, bank, q->is_write);
        } else if (open_row != NO_OPEN_ROW) {
            c->conflicts[conflict_count++] = i; /* decided once all hits are known */
            continue;
        } else {
            earliest = dram_earliest_activate(&c->state, bank);
        }
        r->not_before = earliest;
        if (earliest > now) next = min2(next, earliest);
        else if (is_hit && hit < 0) hit = (int)i;
        else if (!is_hit && other < 0) other = (int)i;
        else next = now + 1;
    }
    for (unsigned k = 0; k < conflict_count; k++) {
        unsigned i = c->conflicts[k];
        queued_request *q = &c->queue[i];
        if (check_all ? c->bank_hit_scan[q->bank] == scan : bank_has_hits(c, q->bank)) continue;
        uint64_t earliest = dram_earliest_precharge(&c->state, q->bank);
        c->requests[q->slot].not_before = earliest;
        if (earliest <= now && (other < 0 || (int)i < other)) {
            if (other >= 0) next = now + 1; /* the displaced ACT */
            other = (int)i;
        } else {
            next = min2(next, max2(earliest, now + 1));
        }
    }
    if (hit >= 0 && other >= 0) next = now + 1; /* the one not chosen */
    *wake = next;
    if (hit >= 0) choice.hit = c->queue[hit].slot;
    if (other >= 0) choice.other = c->queue[other].slot;
    return choice;
}

/* The oldest row hit whose column command may go now; failing that, the
 * oldest request whose ACT or PRE may go now, where a row with hits waiting
 * is not closed under them. Every candidate not chosen lowers *wake to when
 * it may go (now + 1 for one ready now). */
__attribute__((noinline)) /* the rare path: keeps choose_request light */
static request_choice choose_held_back(dram_controller *c, uint64_t now, uint64_t *wake)
{
    /* The starvation cap, when reached, holds back the younger requests of
     * the oldest one's bank: its row is then closed for it (no hits wait
     * there any more) and it is served. */
    int capped_bank = -1;
    if (c->starvation_cap && c->request_count) {
        uint64_t oldest = c->sequences[c->queue[0].slot];
        if (oldest != c->oldest_sequence) {
            c->oldest_sequence = oldest;
            c->bypasses = 0;
        }
        if (c->bypasses >= c->starvation_cap) capped_bank = c->queue[0].bank;
    }
    unsigned visible = c->request_count;
    if (c->last_arrival_cycle == now) {
        visible -= c->arrivals_that_cycle; /* the youngest, at the end of the queue */
        *wake = now + 1;
    }
    bool return_full = c->response_count >= c->return_queue_depth;
    if (c->copy_count || c->hazards || capped_bank >= 0 || visible < c->request_count || return_full)
        return choose_by_scan(c, now, capped_bank, visible, return_full, wake);
    return choose_by_bank(c, now, wake);
}

/* Whether a request may be held back, or arrivals are not seen yet: then
 * the careful path. (One test for the first three: they are rarely set.) */
static bool requests_held_back(const dram_controller *c, uint64_t now)
{
    return (c->starvation_cap | c->copy_count | c->hazards) || c->last_arrival_cycle == now ||
           c->response_count >= c->return_queue_depth;
}

__attribute__((always_inline)) static inline request_choice choose_request(dram_controller *c, uint64_t now, bool held_back,
                                                                           uint64_t *wake)
{
    if (held_back) {
        uint64_t held_back_wake = *wake; /* the caller's wake stays in a register */
        request_choice choice = choose_held_back(c, now, &held_back_wake);
        *wake = held_back_wake;
        return choice;
    }
    return choose_by_bank(c, now, wake);
}

/* Issues the command FR-FCFS picks now, if any, and lowers *wake to the
 * first cycle another command may go. Returns refused_arrival_fits() as it
 * stands then, which the cycle needs too: nothing after changes it. */
__attribute__((always_inline)) /* into the cycle, with issue(): GCC would keep it apart */
static inline bool schedule_requests(dram_controller *c, uint64_t now, uint64_t *wake)
{
    /* A due refresh stops all traffic so that its precharges are not pushed
     * back forever by row hits. */
    if (c->refresh_due) return refused_arrival_fits(c);
    uint64_t wake_before = *wake;
    bool held_back = requests_held_back(c, now);
    request_choice choice = choose_request(c, now, held_back, wake);
    if (choice.hit == NO_SLOT && choice.other == NO_SLOT) return refused_arrival_fits(c);
    if (c->issued_this_cycle) { /* a copy or refresh took this cycle */
    } else if (choice.hit != NO_SLOT) {
        dram_request *r = &c->requests[choice.hit];
        issue(c, column_command(r), now);
        if (!r->bursts_issued && !r->activated) sparse_memory_prefetch_bytes(c->data, r->address, r->size);
        if (c->starvation_cap && choice.hit != c->queue[0].slot && r->bank == c->queue[0].bank) c->bypasses++;
        if (++r->bursts_issued == r->bursts) {
            complete_request(c, choice.hit, now);
            /* A copy waiting for its bank may start at once. */
            if (c->copy_count) wake_before = now + 1;
        }
    } else {
        dram_request *r = &c->requests[choice.other];
        dram_command command = {.kind = c->open_row[r->bank] == NO_OPEN_ROW ? DRAM_CMD_ACT : DRAM_CMD_PRE,
                                .bank = r->bank, .row = r->row};
        issue(c, command, now);
        if (command.kind == DRAM_CMD_PRE) r->precharged = true;
        else {
            r->activated = true;
            sparse_memory_prefetch_bytes(c->data, r->address, r->size); /* its bursts follow tRCD later */
        }
    }
    /* Nothing else may go this cycle: a second pass finds exactly when the
     * next command may, so that the controller is not woken early for
     * nothing; unless an arrival is seen next cycle anyway, which would
     * spoil that pass's plan. */
    if (refused_arrival_fits(c)) {
        *wake = now + 1;
        return true;
    }
    *wake = wake_before;
    /* Of what holds requests back, only the response the command may have
     * made can have come about since. */
    held_back = held_back ? requests_held_back(c, now) : c->response_count >= c->return_queue_depth;
    choose_request(c, now, held_back, wake);
    return false;
}

/* ---- refresh ---- */

static void schedule_refresh(dram_controller *c, uint64_t now, uint64_t *wake)
{
    bool all_closed = true;
    for (unsigned b = 0; b < c->timing.banks; b++) {
        if (!c->state.banks[b].open) continue;
        all_closed = false;
        if (c->copies_on_bank[b]) continue; /* a copy under way finishes first */
        dram_command command = {.kind = DRAM_CMD_PRE, .bank = b};
        try_issue(c, &command, now, wake);
    }
    bool copying = false;
    for (unsigned i = 0; i < c->copy_count; i++) copying |= c->copies[i].started;
    if (!all_closed || copying) return;
    dram_command command = {.kind = DRAM_CMD_REF};
    if (try_issue(c, &command, now, wake)) {
        c->refresh_due = false;
        c->next_refresh += c->timing.refi;
        c->refresh_end = now + c->timing.rfc;
        c->refresh_shown = true;
        for (unsigned b = 0; b < c->timing.banks; b++) show_bank(c, b, now);
    }
}

/* An idle controller sleeps instead of waking every tREFI (a run ends when
 * every block is idle). On waking it issues the refreshes it owed at the
 * cycles they were due, as an always-awake controller would have: nothing
 * else was issued meanwhile, so the command stream stays legal. */
static void catch_up_refresh(dram_controller *c, uint64_t now)
{
    while (c->timing.refresh && c->next_refresh < now) {
        uint64_t cycle = max2(c->next_refresh, c->state.next_command);
        c->refresh_due = true;
        while (c->refresh_due && cycle < now) {
            uint64_t wake = SIMTX_NEVER;
            c->issued_this_cycle = false;
            schedule_refresh(c, cycle, &wake);
            cycle = c->issued_this_cycle ? cycle + 1 : max2(wake, cycle + 1);
        }
        if (c->refresh_due) return; /* finishes in the normal way from now */
    }
}

/* ---- the cycle ---- */

/* A due refresh and the copies, which go before requests; returns the
 * first cycle they need the controller again. */
static uint64_t schedule_refresh_and_copies(dram_controller *c, uint64_t now)
{
    uint64_t wake = SIMTX_NEVER;
    if (c->refresh_due) schedule_refresh(c, now, &wake);
    for (unsigned i = 0; i < c->copy_count; i++) {
        dram_copy *copy = &c->copies[i];
        if (copy->arrival == now) { /* considered from the next cycle, like requests */
            wake = now + 1;
            continue;
        }
        if (!copy->started && copy_may_start(c, i)) start_copy(c, copy, now);
        if (copy->started) advance_copy(c, copy, now, &wake);
    }
    /* Copies and refresh compute no wake for their following command. */
    if (c->issued_this_cycle && (c->copy_count || c->refresh_due)) wake = now + 1;
    return wake;
}

static uint64_t dram_controller_cycle(void *core, uint64_t now)
{
    dram_controller *c = core;
    if (c->sleeping) catch_up_refresh(c, now);
    c->sleeping = false;
    c->issued_this_cycle = false;
    c->stats.wakeups++;
    if (c->refresh_shown && now >= c->refresh_end) {
        c->refresh_shown = false;
        for (unsigned b = 0; b < c->timing.banks; b++) show_bank(c, b, now);
    }
    if (c->copy_count) complete_copies(c, now);
    /* Responses leave in the order they became ready. */
    while (!c->port_blocked && c->next_response_ready <= now) { /* SIMTX_NEVER: none */
        unsigned message = c->response_messages[c->response_head];
        if (!c->env.send(c->env.context, 0, &c->messages[message])) {
            c->port_blocked = true;
            break;
        }
        c->response_head = response_position(c, 1);
        c->response_count--;
        c->free_messages[c->free_message_count++] = message;
        c->next_response_ready = c->response_count ? c->response_ready[c->response_head] : SIMTX_NEVER;
        show_counts(c);
    }
    if (c->timing.refresh && now >= c->next_refresh) c->refresh_due = true;
    uint64_t wake = c->refresh_due || c->copy_count ? schedule_refresh_and_copies(c, now) : SIMTX_NEVER;
    bool arrival_follows = schedule_requests(c, now, &wake);
    age_bus_window(c, now);

    if (!c->port_blocked)
        if (c->response_count) wake = min2(wake, max2(c->next_response_ready, now + 1));
    if (arrival_follows) {
        wake = now + 1;
        c->refused_waiting = false; /* the offer follows at once */
        if (c->env.room) c->env.room(c->env.context, 0);
    }
    /* Unless idle, woken for the next refresh (looked at only when earlier). */
    if (c->timing.refresh && c->next_refresh < wake &&
        (c->request_count || c->copy_count || c->response_count || c->refresh_due))
        wake = c->next_refresh;
    if (c->refresh_shown) wake = min2(wake, c->refresh_end);
    if (wake == SIMTX_NEVER) {
        c->sleeping = true;
        return SIMTX_NEVER;
    }
    return max2(wake, now + 1);
}

static void dram_controller_port_free(void *core, unsigned port)
{
    (void)port;
    ((dram_controller *)core)->port_blocked = false;
}

static size_t dram_controller_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                           int *forward_port)
{
    dram_controller *c = core;
    *forward_port = -1;
    if (!size || !dram_address_in_range(&c->map, address) || !dram_address_in_range(&c->map, address + size - 1)) return 0;
    if (is_write) sparse_memory_write(c->data, address, data, size);
    else sparse_memory_read(c->data, address, data, size);
    return size;
}

static void dram_controller_finish(void *core, uint64_t now)
{
    dram_controller *c = core;
    if (c->sleeping) catch_up_refresh(c, now); /* the refreshes owed since it fell asleep */
    if (now) {
        c->stats.activates_per_kilocycle = (double)c->stats.commands[DRAM_CMD_ACT] * 1000.0 / (double)now;
        c->stats.bus_utilisation =
            (double)(c->stats.commands[DRAM_CMD_RD] + c->stats.commands[DRAM_CMD_WR]) * c->timing.burst / (double)now;
    }
    uint64_t served = c->stats.row_hits + c->stats.row_misses + c->stats.row_conflicts;
    c->stats.row_hit_rate = served ? (double)c->stats.row_hits / (double)served : 0.0;
    if (c->checker) {
        char message[256];
        if (!dram_timing_checker_finish(c->checker, now, message, sizeof message)) {
            c->stats.timing_violations++;
            if (!c->failed) c->env.fail(c->env.context, message);
            c->failed = true;
        }
    }
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
    .debug_access = dram_controller_debug_access,
    .finish = dram_controller_finish,
    .announces_room = true, /* room is noticed at the end of every cycle (refused_arrival_fits) */
};
