#include "dram_timing.h"

#include <stdio.h>
#include <stdlib.h>

const char *dram_command_name(dram_command_kind kind)
{
    static const char *const names[DRAM_CMD_COUNT] = {"ACT", "PRE", "RD", "WR", "REF", "COPY_ACT", "TRANSFER"};
    return kind < DRAM_CMD_COUNT ? names[kind] : "?";
}

bool dram_timing_validate(const dram_timing *t, char *error, size_t error_size)
{
    if (t->rc < t->ras + t->rp) {
        snprintf(error, error_size, "parameter 'tRC' (%u) must be at least tRAS + tRP (%u + %u)", t->rc, t->ras, t->rp);
        return false;
    }
    if (t->ras < t->rcd) {
        snprintf(error, error_size, "parameter 'tRAS' (%u) must be at least tRCD (%u)", t->ras, t->rcd);
        return false;
    }
    if (t->ccd_s < t->burst) {
        snprintf(error, error_size, "parameter 'tCCDS' (%u) is shorter than a burst (%u cycles): bursts would overlap on the bus",
                 t->ccd_s, t->burst);
        return false;
    }
    if (t->ccd_l < t->ccd_s) {
        snprintf(error, error_size, "parameter 'tCCDL' (%u) must be at least tCCDS (%u)", t->ccd_l, t->ccd_s);
        return false;
    }
    if (t->rtw + t->wl < t->cl + t->burst + 1) {
        snprintf(error, error_size,
                 "parameter 'tRTW' (%u) is too short: write data would meet read data on the bus (needs at least "
                 "tCL + burst + 1 - tWL = %u)",
                 t->rtw, t->cl + t->burst + 1 - t->wl);
        return false;
    }
    if (t->faw < t->rrd) {
        snprintf(error, error_size, "parameter 'tFAW' (%u) must be at least tRRD (%u)", t->faw, t->rrd);
        return false;
    }
    if (t->refresh && t->refi <= t->rfc + t->rc) {
        snprintf(error, error_size, "parameter 'tREFI' (%u) must exceed tRFC + tRC (%u + %u): no time left for accesses",
                 t->refi, t->rfc, t->rc);
        return false;
    }
    return true;
}

bool dram_timing_state_init(dram_timing_state *s, const dram_timing *t)
{
    *s = (dram_timing_state){.timing = *t};
    s->banks = calloc(t->banks, sizeof *s->banks);
    s->group_next_column = calloc(t->bank_groups, sizeof *s->group_next_column);
    if (!s->banks || !s->group_next_column) return false;
    for (unsigned b = 0; b < t->banks; b++) s->banks[b].group = dram_bank_group(t, b);
    return true;
}

void dram_timing_state_release(dram_timing_state *s)
{
    free(s->banks);
    free(s->group_next_column);
}

static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void record_activate(dram_timing_state *s, uint64_t cycle)
{
    s->next_act = cycle + s->timing.rrd;
    if (s->recent_act_count < 4) {
        s->recent_acts[(s->recent_act_head + s->recent_act_count++) % 4] = cycle;
    } else {
        s->recent_acts[s->recent_act_head] = cycle;
        s->recent_act_head = (s->recent_act_head + 1) % 4;
    }
}

static void record_column(dram_timing_state *s, unsigned bank, uint64_t cycle)
{
    s->next_column = max2(s->next_column, cycle + s->timing.ccd_s);
    uint64_t *group = &s->group_next_column[s->banks[bank].group];
    *group = max2(*group, cycle + s->timing.ccd_l);
}

void dram_timing_issue(dram_timing_state *s, const dram_command *c)
{
    const dram_timing *t = &s->timing;
    uint64_t now = c->cycle;
    dram_bank_timing *b = &s->banks[c->bank];
    s->next_command = now + 1;
    switch (c->kind) {
    case DRAM_CMD_ACT:
        b->open = true;
        b->row = c->row;
        b->next_act = max2(b->next_act, now + t->rc);
        b->next_pre = max2(b->next_pre, now + t->ras);
        b->next_column = max2(b->next_column, now + t->rcd);
        b->next_copy_act = max2(b->next_copy_act, now + t->ras);
        record_activate(s, now);
        break;
    case DRAM_CMD_COPY_ACT:
        b->row = c->row;
        b->next_pre = max2(b->next_pre, now + t->ras);
        b->next_copy_act = max2(b->next_copy_act, now + t->ras);
        if (t->copy_activates_limited) record_activate(s, now);
        break;
    case DRAM_CMD_PRE:
        b->open = false;
        b->next_act = max2(b->next_act, now + t->rp);
        s->next_ref = max2(s->next_ref, now + t->rp);
        break;
    case DRAM_CMD_RD:
        record_column(s, c->bank, now);
        s->next_write = max2(s->next_write, now + t->rtw);
        b->next_pre = max2(b->next_pre, now + t->rtp);
        break;
    case DRAM_CMD_WR:
        record_column(s, c->bank, now);
        s->next_read = max2(s->next_read, now + t->wl + t->burst + t->wtr);
        b->next_pre = max2(b->next_pre, now + t->wl + t->burst + t->wr);
        break;
    case DRAM_CMD_TRANSFER: {
        record_column(s, c->bank, now);
        record_column(s, c->target_bank, now);
        b->next_pre = max2(b->next_pre, now + t->rtp);
        dram_bank_timing *target = &s->banks[c->target_bank];
        target->next_pre = max2(target->next_pre, now + t->wl + t->burst + t->wr);
        break;
    }
    case DRAM_CMD_REF:
        for (unsigned i = 0; i < t->banks; i++) s->banks[i].next_act = max2(s->banks[i].next_act, now + t->rfc);
        s->next_ref = now + t->rfc;
        break;
    default: break;
    }
}
