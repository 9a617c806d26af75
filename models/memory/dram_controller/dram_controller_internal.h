/* dram_controller_internal.h: internal to the dram_controller block, shared
 * by its files only (dram_controller.c, dram_controller_block.c,
 * dram_device.c); nothing outside the block includes it. The state is one
 * struct so that the cycle reads its hot fields from a few host cache
 * lines, whichever file a field's concern belongs to. */
#ifndef SIMTX_DRAM_CONTROLLER_INTERNAL_H
#define SIMTX_DRAM_CONTROLLER_INTERNAL_H

#include "dram_controller.h"
#include "dram_timing_checker.h"
#include "sparse_memory.h"

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
    /* Energy (simtx_observe_energy): the clocks with at least one bank open
     * (the device draws its active-standby current then), closed up to
     * open_since at each last close and at finish. */
    struct {
        uint64_t active_cycles, open_since;
        unsigned open_banks;
    } energy;

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
        uint64_t *bank_state, *bank_row, *bank_command; /* bank_command: latest DRAM_CMD_ + 1, 0 none yet */
        uint64_t queue_depth, return_queue_depth, copy_queue_depth, row_hits, row_misses, bus_utilisation;
    } probes;
};

static inline uint64_t min2(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline bool copy_uses_bank(const dram_copy *copy, unsigned bank)
{
    return copy->source_bank == bank || copy->target_bank == bank;
}

/* dram_controller.c: the cycle and the accept path (called by the shim
 * through the block's table, so living apart from the table costs nothing),
 * and what the device module needs from the controller: a command tried
 * through the scheduler's timing and observers, a response queued, and the
 * probes refreshed. */
simtx_accept_result dram_controller_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now);
uint64_t dram_controller_cycle(void *core, uint64_t now);
void dram_controller_finish(void *core, uint64_t now);
bool dram_controller_try_command(dram_controller *c, dram_command *command, uint64_t now, uint64_t *wake);
void dram_controller_respond(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t ready);
void dram_controller_reject(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t now);
void dram_controller_show_bank(dram_controller *c, unsigned bank, uint64_t now);
void dram_controller_show_counts(dram_controller *c);

#endif
