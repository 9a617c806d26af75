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
