#include "dram_timing_checker.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* "Never happened": far enough in the past that every constraint holds. */
#define LONG_AGO INT64_MIN / 4

typedef struct checked_bank {
    bool open;
    unsigned row;
    int64_t last_act, last_pre, last_read, last_write, last_copy_act;
} checked_bank;

struct dram_timing_checker {
    dram_timing t;
    unsigned rows;
    checked_bank *banks;
    int64_t *last_column_in_group;
    int64_t last_column, last_read, last_write; /* external RD / WR only for the two last */
    int64_t last_limited_act;                   /* last ACT counted for tRRD/tFAW */
    int64_t act_window[4];                      /* the last four such ACTs, oldest first */
    int64_t last_pre_any, last_ref, last_command;
    int64_t refresh_interval_start; /* last REF, or power-up */
};

dram_timing_checker *dram_timing_checker_create(const dram_timing *timing, unsigned rows)
{
    dram_timing_checker *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->t = *timing;
    c->rows = rows;
    c->banks = calloc(timing->banks, sizeof *c->banks);
    c->last_column_in_group = calloc(timing->bank_groups, sizeof *c->last_column_in_group);
    if (!c->banks || !c->last_column_in_group) {
        dram_timing_checker_destroy(c);
        return NULL;
    }
    for (unsigned i = 0; i < timing->banks; i++)
        c->banks[i] = (checked_bank){false, 0, LONG_AGO, LONG_AGO, LONG_AGO, LONG_AGO, LONG_AGO};
    for (unsigned i = 0; i < timing->bank_groups; i++) c->last_column_in_group[i] = LONG_AGO;
    c->last_column = c->last_read = c->last_write = c->last_limited_act = LONG_AGO;
    for (unsigned i = 0; i < 4; i++) c->act_window[i] = LONG_AGO;
    c->last_pre_any = LONG_AGO;
    c->last_ref = LONG_AGO;
    c->refresh_interval_start = 0; /* the refresh interval counts from power-up */
    c->last_command = -1;
    return c;
}

void dram_timing_checker_destroy(dram_timing_checker *c)
{
    if (!c) return;
    free(c->banks);
    free(c->last_column_in_group);
    free(c);
}

typedef struct context {
    const dram_command *command;
    char *error;
    size_t error_size;
} context;

/* One spacing rule: the command must come at least `needed` cycles after
 * the earlier event at `since`. */
static bool spacing(const context *x, const char *constraint, const char *earlier, int64_t since, int64_t needed)
{
    int64_t now = (int64_t)x->command->cycle;
    if (since == LONG_AGO || now - since >= needed) return true;
    snprintf(x->error, x->error_size,
             "%s violated: %s bank %u at cycle %" PRId64 " is %" PRId64 " cycles after %s at cycle %" PRId64 ", needs %" PRId64,
             constraint, dram_command_name(x->command->kind), x->command->bank, now, now - since, earlier, since, needed);
    return false;
}

static bool state_error(const context *x, const char *what)
{
    snprintf(x->error, x->error_size, "protocol violated: %s bank %u at cycle %" PRIu64 ": %s",
             dram_command_name(x->command->kind), x->command->bank, x->command->cycle, what);
    return false;
}

static bool activate_limits(const dram_timing_checker *c, const context *x)
{
    return spacing(x, "tRRD", "an ACT", c->last_limited_act, c->t.rrd) &&
           spacing(x, "tFAW", "the 4th-last ACT", c->act_window[0], c->t.faw);
}

static void record_limited_act(dram_timing_checker *c, int64_t now)
{
    c->last_limited_act = now;
    for (unsigned i = 0; i < 3; i++) c->act_window[i] = c->act_window[i + 1];
    c->act_window[3] = now;
}

static bool column_limits(const dram_timing_checker *c, const context *x, unsigned bank)
{
    const checked_bank *b = &c->banks[bank];
    if (!b->open) return state_error(x, "bank is not open");
    return spacing(x, "tRCD", "ACT", b->last_act, c->t.rcd) &&
           spacing(x, "tCCDL", "a column command in the same bank group", c->last_column_in_group[dram_bank_group(&c->t, bank)],
                   c->t.ccd_l) &&
           spacing(x, "tCCDS", "a column command", c->last_column, c->t.ccd_s);
}

bool dram_timing_checker_observe(dram_timing_checker *c, const dram_command *command, char *error, size_t error_size)
{
    context x = {command, error, error_size};
    const dram_timing *t = &c->t;
    int64_t now = (int64_t)command->cycle;
    if (command->bank >= t->banks || (command->kind == DRAM_CMD_TRANSFER && command->target_bank >= t->banks))
        return state_error(&x, "no such bank");
    if (now <= c->last_command) {
        snprintf(error, error_size, "command bus violated: %s at cycle %" PRId64 " follows a command at cycle %" PRId64,
                 dram_command_name(command->kind), now, c->last_command);
        return false;
    }
    if (t->refresh && now - c->refresh_interval_start > (int64_t)DRAM_REFRESH_POSTPONE_LIMIT * t->refi) {
        snprintf(error, error_size, "tREFI violated: no REF for %" PRId64 " cycles before cycle %" PRId64 " (limit %u x tREFI = %" PRId64 ")",
                 now - c->refresh_interval_start, now, DRAM_REFRESH_POSTPONE_LIMIT, (int64_t)DRAM_REFRESH_POSTPONE_LIMIT * t->refi);
        return false;
    }
    checked_bank *b = &c->banks[command->bank];
    bool ok = true;
    switch (command->kind) {
    case DRAM_CMD_ACT:
        if (b->open) return state_error(&x, "bank already open");
        if (command->row >= c->rows) return state_error(&x, "row out of range");
        ok = spacing(&x, "tRP", "PRE", b->last_pre, t->rp) && spacing(&x, "tRC", "ACT", b->last_act, t->rc) &&
             spacing(&x, "tRFC", "REF", c->last_ref, t->rfc) && activate_limits(c, &x);
        if (!ok) return false;
        b->open = true;
        b->row = command->row;
        b->last_act = now;
        record_limited_act(c, now);
        break;
    case DRAM_CMD_COPY_ACT:
        if (!b->open) return state_error(&x, "RowClone copy activate to a closed bank");
        if (command->row >= c->rows) return state_error(&x, "row out of range");
        if (command->row == b->row) return state_error(&x, "RowClone copy activate of the row already open");
        if (b->row / t->rows_per_subarray != command->row / t->rows_per_subarray)
            return state_error(&x, "RowClone FPM between rows of different subarrays");
        ok = spacing(&x, "tRAS", "ACT (source row restored)", b->last_act, t->ras) &&
             spacing(&x, "tRAS", "COPY_ACT", b->last_copy_act, t->ras) && (!t->copy_activates_limited || activate_limits(c, &x));
        if (!ok) return false;
        b->row = command->row;
        b->last_copy_act = now;
        if (t->copy_activates_limited) record_limited_act(c, now);
        break;
    case DRAM_CMD_PRE:
        ok = spacing(&x, "tRAS", "ACT", b->last_act, t->ras) && spacing(&x, "tRAS", "COPY_ACT", b->last_copy_act, t->ras) &&
             spacing(&x, "tRTP", "RD", b->last_read, t->rtp) &&
             spacing(&x, "tWR", "WR", b->last_write, (int64_t)t->wl + t->burst + t->wr);
        if (!ok) return false;
        b->open = false;
        b->last_pre = now;
        c->last_pre_any = now;
        break;
    case DRAM_CMD_RD:
    case DRAM_CMD_WR: {
        if (b->open && b->row != command->row) return state_error(&x, "a different row is open");
        if (!column_limits(c, &x, command->bank)) return false;
        bool is_read = command->kind == DRAM_CMD_RD;
        ok = is_read ? spacing(&x, "tWTR", "WR", c->last_write, (int64_t)t->wl + t->burst + t->wtr)
                     : spacing(&x, "tRTW", "RD", c->last_read, t->rtw);
        if (!ok) return false;
        if (is_read) b->last_read = c->last_read = now;
        else b->last_write = c->last_write = now;
        c->last_column = now;
        c->last_column_in_group[dram_bank_group(t, command->bank)] = now;
        break;
    }
    case DRAM_CMD_TRANSFER: {
        checked_bank *target = &c->banks[command->target_bank];
        if (command->target_bank == command->bank) return state_error(&x, "RowClone PSM within one bank");
        if (b->open && b->row != command->row) return state_error(&x, "a different source row is open");
        if (target->open && target->row != command->target_row) return state_error(&x, "a different target row is open");
        if (!column_limits(c, &x, command->bank) || !column_limits(c, &x, command->target_bank)) return false;
        b->last_read = now;
        target->last_write = now;
        c->last_column = now;
        c->last_column_in_group[dram_bank_group(t, command->bank)] = now;
        c->last_column_in_group[dram_bank_group(t, command->target_bank)] = now;
        break;
    }
    case DRAM_CMD_REF:
        for (unsigned i = 0; i < t->banks; i++)
            if (c->banks[i].open) {
                snprintf(error, error_size, "protocol violated: REF at cycle %" PRId64 " with bank %u open", now, i);
                return false;
            }
        ok = spacing(&x, "tRP", "PRE", c->last_pre_any, t->rp) &&
             spacing(&x, "tRFC", "REF", c->last_ref, t->rfc);
        if (!ok) return false;
        c->last_ref = c->refresh_interval_start = now;
        break;
    default: return state_error(&x, "unknown command");
    }
    c->last_command = now;
    return true;
}

bool dram_timing_checker_finish(dram_timing_checker *c, uint64_t now, char *error, size_t error_size)
{
    if (c->t.refresh && (int64_t)now - c->refresh_interval_start > (int64_t)DRAM_REFRESH_POSTPONE_LIMIT * c->t.refi) {
        snprintf(error, error_size, "tREFI violated: no REF from cycle %" PRId64 " to the end of the run at %" PRIu64,
                 c->refresh_interval_start, now);
        return false;
    }
    return true;
}
