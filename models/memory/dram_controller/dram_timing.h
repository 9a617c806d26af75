/* GDDR5 timing: the constraint set, the commands, and the scheduler's own
 * bookkeeping of when each command may next issue.
 *
 * All values are in DRAM command-clock cycles (CK, the controller's clock).
 * The constraints, which the scheduler obeys and the independent checker
 * (dram_timing_checker.c) verifies:
 *   same bank:  ACT->ACT tRC, ACT->RD/WR tRCD, ACT->PRE tRAS, PRE->ACT tRP,
 *               RD->PRE tRTP, WR->PRE tWL+tBURST+tWR (write recovery after
 *               the data), COPY_ACT->PRE tRAS, ACT->COPY_ACT tRAS
 *   any banks:  ACT->ACT tRRD, at most 4 ACTs in any tFAW window,
 *               column->column tCCDL in the same bank group, tCCDS otherwise,
 *               WR->RD tWL+tBURST+tWTR, RD->WR tRTW,
 *               all banks precharged for REF, PRE->REF tRP, REF->ACT/REF tRFC,
 *               at most one command per cycle.
 * RowClone: COPY_ACT is the second activate of Fast Parallel Mode (a row of
 * the same subarray is raised while the sense amplifiers hold the source
 * row); TRANSFER moves one burst from an open row of one bank to an open row
 * of another over the chip's internal bus (Pipelined Serial Mode) and counts
 * as a column command of both banks for tCCD, as a read of the source bank
 * for tRTP and as a write of the destination bank for tWR. Whether COPY_ACT
 * counts against tRRD/tFAW is the copy_activates_limited setting. */
#ifndef SIMTX_DRAM_TIMING_H
#define SIMTX_DRAM_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dram_timing {
    unsigned rcd, rp, ras, rc, cl, wl, ccd_s, ccd_l, rrd, faw, wtr, rtw, wr, rtp, refi, rfc;
    unsigned burst;               /* cycles a burst holds the data bus */
    bool refresh;                 /* REF every tREFI */
    bool copy_activates_limited;  /* COPY_ACT counts against tRRD and tFAW */
    unsigned rows_per_subarray;   /* for the checker's FPM subarray rule */
    unsigned banks, bank_groups;
} dram_timing;

/* Rejects impossible combinations (tRC < tRAS + tRP, a tCCD shorter than a
 * burst, ...) with a message naming the parameter. */
bool dram_timing_validate(const dram_timing *t, char *error, size_t error_size);

typedef enum {
    DRAM_CMD_ACT,
    DRAM_CMD_PRE,
    DRAM_CMD_RD,
    DRAM_CMD_WR,
    DRAM_CMD_REF,
    DRAM_CMD_COPY_ACT, /* RowClone FPM: second activate, row = destination */
    DRAM_CMD_TRANSFER, /* RowClone PSM: bank/row -> target_bank/target_row, one burst */
    DRAM_CMD_COUNT
} dram_command_kind;

typedef struct dram_command {
    dram_command_kind kind;
    uint64_t cycle;
    unsigned bank, row, column;
    unsigned target_bank, target_row; /* TRANSFER only */
} dram_command;

const char *dram_command_name(dram_command_kind kind);

/* The scheduler's view: for each bank and the channel, the earliest cycle
 * each kind of command may issue, updated as commands issue. */
typedef struct dram_bank_timing {
    bool open;
    unsigned row;
    unsigned group; /* dram_bank_group, kept to spare the scheduler two divisions a look */
    uint64_t next_act, next_pre, next_column, next_copy_act;
} dram_bank_timing;

typedef struct dram_timing_state {
    dram_timing timing;
    dram_bank_timing *banks;
    uint64_t *group_next_column;
    uint64_t next_column, next_read, next_write; /* channel-wide */
    uint64_t next_act;                          /* tRRD */
    uint64_t recent_acts[4];                    /* tFAW window */
    unsigned recent_act_count, recent_act_head;
    uint64_t next_ref, next_command;
} dram_timing_state;

bool dram_timing_state_init(dram_timing_state *s, const dram_timing *t);
void dram_timing_state_release(dram_timing_state *s);

static inline unsigned dram_bank_group(const dram_timing *t, unsigned bank)
{
    return bank / (t->banks / t->bank_groups);
}

static inline uint64_t dram_max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline uint64_t dram_activate_limit(const dram_timing_state *s)
{
    uint64_t earliest = s->next_act;
    if (s->recent_act_count == 4) earliest = dram_max2(earliest, s->recent_acts[s->recent_act_head] + s->timing.faw);
    return earliest;
}

/* The bank's own column limit (tRCD after its ACT) and tCCDL in its group. */
static inline uint64_t dram_bank_column_limit(const dram_timing_state *s, unsigned bank)
{
    return dram_max2(s->banks[bank].next_column, s->group_next_column[s->banks[bank].group]);
}

static inline uint64_t dram_column_limit(const dram_timing_state *s, unsigned bank)
{
    return dram_max2(dram_bank_column_limit(s, bank), s->next_column);
}

/* The channel-wide part of the earliest cycle of each kind of command, the
 * same for every bank: worked out once for a pass over many banks. */
typedef struct dram_channel_limits {
    uint64_t activate, precharge, read, write;
} dram_channel_limits;

static inline dram_channel_limits dram_channel_limits_of(const dram_timing_state *s)
{
    return (dram_channel_limits){.activate = dram_max2(s->next_command, dram_activate_limit(s)),
                                 .precharge = s->next_command,
                                 .read = dram_max2(s->next_command, dram_max2(s->next_column, s->next_read)),
                                 .write = dram_max2(s->next_command, dram_max2(s->next_column, s->next_write))};
}

/* Earliest cycle an ACT, PRE, or RD/WR to `bank` may issue, given the
 * channel's limits. */
static inline uint64_t dram_bank_activate(const dram_timing_state *s, const dram_channel_limits *l, unsigned bank)
{
    return dram_max2(l->activate, s->banks[bank].next_act);
}

static inline uint64_t dram_bank_precharge(const dram_timing_state *s, const dram_channel_limits *l, unsigned bank)
{
    return dram_max2(l->precharge, s->banks[bank].next_pre);
}

static inline uint64_t dram_bank_column(const dram_timing_state *s, const dram_channel_limits *l, unsigned bank,
                                        bool is_write)
{
    return dram_max2(is_write ? l->write : l->read, dram_bank_column_limit(s, bank));
}

/* The same for one bank: the scheduler's queue scan asks for every queued
 * request it looks at, so these stay small enough to inline. */
static inline uint64_t dram_earliest_activate(const dram_timing_state *s, unsigned bank)
{
    dram_channel_limits l = dram_channel_limits_of(s);
    return dram_bank_activate(s, &l, bank);
}

static inline uint64_t dram_earliest_precharge(const dram_timing_state *s, unsigned bank)
{
    dram_channel_limits l = dram_channel_limits_of(s);
    return dram_bank_precharge(s, &l, bank);
}

static inline uint64_t dram_earliest_column(const dram_timing_state *s, unsigned bank, bool is_write)
{
    dram_channel_limits l = dram_channel_limits_of(s);
    return dram_bank_column(s, &l, bank, is_write);
}

/* Earliest cycle the command may issue (its own cycle field is ignored). */
static inline uint64_t dram_timing_earliest(const dram_timing_state *s, const dram_command *c)
{
    uint64_t earliest = s->next_command;
    const dram_bank_timing *b = &s->banks[c->bank];
    switch (c->kind) {
    case DRAM_CMD_ACT: return dram_earliest_activate(s, c->bank);
    case DRAM_CMD_PRE: return dram_earliest_precharge(s, c->bank);
    case DRAM_CMD_RD: return dram_earliest_column(s, c->bank, false);
    case DRAM_CMD_WR: return dram_earliest_column(s, c->bank, true);
    case DRAM_CMD_REF: return dram_max2(earliest, s->next_ref);
    case DRAM_CMD_COPY_ACT:
        earliest = dram_max2(earliest, b->next_copy_act);
        return s->timing.copy_activates_limited ? dram_max2(earliest, dram_activate_limit(s)) : earliest;
    case DRAM_CMD_TRANSFER: return dram_max2(earliest, dram_max2(dram_column_limit(s, c->bank), dram_column_limit(s, c->target_bank)));
    default: return earliest;
    }
}

static inline void dram_record_activate(dram_timing_state *s, uint64_t cycle)
{
    s->next_act = cycle + s->timing.rrd;
    if (s->recent_act_count < 4) {
        s->recent_acts[(s->recent_act_head + s->recent_act_count++) % 4] = cycle;
    } else {
        s->recent_acts[s->recent_act_head] = cycle;
        s->recent_act_head = (s->recent_act_head + 1) % 4;
    }
}

static inline void dram_record_column(dram_timing_state *s, unsigned bank, uint64_t cycle)
{
    s->next_column = dram_max2(s->next_column, cycle + s->timing.ccd_s);
    uint64_t *group = &s->group_next_column[s->banks[bank].group];
    *group = dram_max2(*group, cycle + s->timing.ccd_l);
}

/* Records a command in the scheduler's view. Inline: the controller calls
 * it for every command, and its switch on the kind then joins the caller's. */
static inline void dram_timing_issue(dram_timing_state *s, const dram_command *c)
{
    const dram_timing *t = &s->timing;
    uint64_t now = c->cycle;
    dram_bank_timing *b = &s->banks[c->bank];
    s->next_command = now + 1;
    switch (c->kind) {
    case DRAM_CMD_ACT:
        b->open = true;
        b->row = c->row;
        b->next_act = dram_max2(b->next_act, now + t->rc);
        b->next_pre = dram_max2(b->next_pre, now + t->ras);
        b->next_column = dram_max2(b->next_column, now + t->rcd);
        b->next_copy_act = dram_max2(b->next_copy_act, now + t->ras);
        dram_record_activate(s, now);
        break;
    case DRAM_CMD_COPY_ACT:
        b->row = c->row;
        b->next_pre = dram_max2(b->next_pre, now + t->ras);
        b->next_copy_act = dram_max2(b->next_copy_act, now + t->ras);
        if (t->copy_activates_limited) dram_record_activate(s, now);
        break;
    case DRAM_CMD_PRE:
        b->open = false;
        b->next_act = dram_max2(b->next_act, now + t->rp);
        s->next_ref = dram_max2(s->next_ref, now + t->rp);
        break;
    case DRAM_CMD_RD:
        dram_record_column(s, c->bank, now);
        s->next_write = dram_max2(s->next_write, now + t->rtw);
        b->next_pre = dram_max2(b->next_pre, now + t->rtp);
        break;
    case DRAM_CMD_WR:
        dram_record_column(s, c->bank, now);
        s->next_read = dram_max2(s->next_read, now + t->wl + t->burst + t->wtr);
        b->next_pre = dram_max2(b->next_pre, now + t->wl + t->burst + t->wr);
        break;
    case DRAM_CMD_TRANSFER: {
        dram_record_column(s, c->bank, now);
        dram_record_column(s, c->target_bank, now);
        b->next_pre = dram_max2(b->next_pre, now + t->rtp);
        dram_bank_timing *target = &s->banks[c->target_bank];
        target->next_pre = dram_max2(target->next_pre, now + t->wl + t->burst + t->wr);
        break;
    }
    case DRAM_CMD_REF:
        for (unsigned i = 0; i < t->banks; i++) s->banks[i].next_act = dram_max2(s->banks[i].next_act, now + t->rfc);
        s->next_ref = now + t->rfc;
        break;
    default: break;
    }
}


#ifdef __cplusplus
}
#endif
#endif
