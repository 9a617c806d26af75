/* dram_controller.c: the controller's cycle: the request queue and its
 * arrivals, FR-FCFS with the bank plan, command issue, the return queue,
 * refresh and the probes. Everything the cycle inlines lives here, in one
 * translation unit; the copies' device side is in dram_device.c and the
 * block's face in dram_controller_block.c. */
#include "dram_device.h"

#include <string.h>

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

/* The latest command per bank, as DRAMSys draws its command lanes: the
 * kind + 1, with bit 3 toggled at each command so that a run of row hits
 * (RD, RD, ...) shows one box per command. REF goes to every bank,
 * TRANSFER to both of its banks. */
static void show_command_on(dram_controller *c, unsigned bank, const dram_command *command)
{
    c->probes.bank_command[bank] = ((uint64_t)command->kind + 1) | ((c->probes.bank_command[bank] & 8) ^ 8);
}

static void show_command(dram_controller *c, const dram_command *command)
{
    if (command->kind == DRAM_CMD_REF) {
        for (unsigned b = 0; b < c->timing.banks; b++) show_command_on(c, b, command);
        return;
    }
    show_command_on(c, command->bank, command);
    if (command->kind == DRAM_CMD_TRANSFER) show_command_on(c, command->target_bank, command);
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

/* A bank opened or closed at now: the active-standby time (energy) runs
 * while any bank is open. */
static void track_open_banks(dram_controller *c, bool opened, uint64_t now)
{
    if (opened) {
        if (c->energy.open_banks++ == 0) c->energy.open_since = now;
    } else if (--c->energy.open_banks == 0) {
        c->energy.active_cycles += now - c->energy.open_since;
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
        bool was_open = c->open_row[command.bank] != NO_OPEN_ROW;
        c->open_row[command.bank] = b->open ? b->row : NO_OPEN_ROW;
        if (b->open != was_open) track_open_banks(c, b->open, now);
        summarise_bank(c, command.bank);
    }
    /* A copy made field by field only here, so that the command itself
     * never needs the stack (its stores and wider reloads stalled the host). */
    if (c->listener || c->checker)
        observe_command(c, (dram_command){.kind = command.kind, .cycle = now, .bank = command.bank, .row = command.row,
                                          .column = command.column, .target_bank = command.target_bank,
                                          .target_row = command.target_row});
    c->stats.commands[command.kind]++;
    if (c->env.probes_traced) show_command(c, &command);
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
    c->messages[message].served_by = SIMTX_LEVEL_DRAM; /* mem.h LEVELS */
    push_response(c, message, ready);
}

/* ---- accepting ---- */

static void reject(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t now)
{
    if (status == SIMTX_STATUS_ADDRESS_ERROR) c->stats.address_errors++;
    else c->stats.command_errors++;
    respond(c, msg, status, now + 1);
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
        dram_device_accept_copy(c, msg, now);
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

simtx_accept_result dram_controller_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
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

/* ---- copies: when one may start ---- */

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
    msg->served_by = SIMTX_LEVEL_DRAM; /* mem.h LEVELS */
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
        if (!copy->started && copy_may_start(c, i)) dram_device_start_copy(c, copy, now);
        if (copy->started) dram_device_advance_copy(c, copy, now, &wake);
    }
    /* Copies and refresh compute no wake for their following command. */
    if (c->issued_this_cycle && (c->copy_count || c->refresh_due)) wake = now + 1;
    return wake;
}

uint64_t dram_controller_cycle(void *core, uint64_t now)
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
    if (c->copy_count) dram_device_complete_copies(c, now);
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

/* ---- for the device module (dram_device.c) ----
 * Out-of-line entries to the static helpers above, so that the copies'
 * rare calls from the other file leave the cycle's inlining as it is. */

bool dram_controller_try_command(dram_controller *c, dram_command *command, uint64_t now, uint64_t *wake)
{
    return try_issue(c, command, now, wake);
}

void dram_controller_respond(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t ready)
{
    respond(c, msg, status, ready);
}

void dram_controller_reject(dram_controller *c, const simtx_msg *msg, simtx_status status, uint64_t now)
{
    reject(c, msg, status, now);
}

void dram_controller_show_bank(dram_controller *c, unsigned bank, uint64_t now) { show_bank(c, bank, now); }

void dram_controller_show_counts(dram_controller *c) { show_counts(c); }

void dram_controller_finish(void *core, uint64_t now)
{
    dram_controller *c = core;
    if (c->sleeping) catch_up_refresh(c, now); /* the refreshes owed since it fell asleep */
    if (c->energy.open_banks) { /* banks still open: their time so far */
        c->energy.active_cycles += now - c->energy.open_since;
        c->energy.open_since = now;
    }
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
