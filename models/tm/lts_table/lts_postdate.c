/* lts_postdate: the corrected Figure 7 (see lts_postdate.h for the fixes and
 * the decisions the paper leaves open). */
#include "lts_postdate.h"

#include <stdio.h>
#include <stdlib.h>

static void fresh(lts_entry *e, uint32_t cts)
{
    e->cts = cts;
    e->pdts = LTS_UNSET;
    e->prev = 0;
    e->state = LTS_FREE;
}

bool lts_postdate_init(lts_postdate *t, unsigned count, unsigned bits, uint32_t delta, char *error, size_t error_size)
{
    *t = (lts_postdate){0};
    if (count == 0 || count > 65536) {
        snprintf(error, error_size, "entries must be 1..65536 (got %u)", count);
        return false;
    }
    if (bits < 2 || bits > 31) {
        snprintf(error, error_size, "timestamp_bits must be 2..31 (got %u)", bits);
        return false;
    }
    uint32_t max = (UINT32_C(1) << bits) - 1;
    if (delta == 0 || delta >= max) {
        snprintf(error, error_size, "delta must be 1..%u for %u-bit timestamps (got %u)", max - 1, bits, delta);
        return false;
    }
    t->entries = calloc(count, sizeof *t->entries);
    if (!t->entries) {
        snprintf(error, error_size, "out of memory for %u entries", count);
        return false;
    }
    t->count = count;
    t->bits = bits;
    t->delta = delta;
    t->max = max;
    lts_postdate_reset(t);
    return true;
}

void lts_postdate_release(lts_postdate *t)
{
    free(t->entries);
    t->entries = NULL;
}

void lts_postdate_reset(lts_postdate *t)
{
    t->clock = 0;
    for (unsigned i = 0; i < t->count; i++) fresh(&t->entries[i], 1);
}

void lts_postdate_begin(lts_postdate *t, unsigned id)
{
    lts_entry *e = &t->entries[id];
    fresh(e, t->clock + 1);
    e->state = LTS_RUNNING;
}

/* OnPredecessorReceivesTS with fixes (a) and (c); `point` is the successor's
 * PDTS, or a committed successor's PrevTS. Returns false on overflow. */
static bool predecessor(lts_postdate *t, lts_entry *p, uint32_t point, uint32_t *ts)
{
    if (point == LTS_UNSET || p->cts >= point) {
        if (p->pdts == LTS_UNSET) {
            if (p->cts > t->max - t->delta) return false;
            p->pdts = p->cts + t->delta;
        }
    } else {
        uint32_t mid = lts_midpoint(p->cts, point);
        if (mid < p->pdts) p->pdts = mid; /* an unset PDTS is +infinity (a) */
    }
    *ts = p->pdts;
    return true;
}

lts_verdict lts_postdate_edge(lts_postdate *t, unsigned pred, unsigned succ)
{
    lts_entry *p = &t->entries[pred], *s = &t->entries[succ];
    if (pred == succ || p->state == LTS_FREE || s->state == LTS_FREE ||
        (p->state == LTS_COMMITTED && s->state == LTS_COMMITTED)) {
        t->stats.ignored++;
        return LTS_IGNORED;
    }
    t->stats.edges++;
    uint32_t ts = 0;
    if (p->state == LTS_COMMITTED) {
        ts = p->prev; /* Figure 7 line 2 */
    } else {
        uint32_t point = s->state == LTS_COMMITTED ? s->prev : s->pdts;
        /* A pending overflow is checked before anything changes. */
        if ((point == LTS_UNSET || p->cts >= point) && p->pdts == LTS_UNSET && p->cts > t->max - t->delta) {
            t->stats.overflows++;
            return LTS_OVERFLOW;
        }
        predecessor(t, p, point, &ts);
        if (p->pdts <= p->cts) { /* no room left below the successor: precision */
            t->stats.loops++;
            return LTS_LOOP;
        }
    }
    if (s->state == LTS_COMMITTED) {
        /* The running predecessor must order before the committed point. */
        if (ts >= s->prev) {
            t->stats.loops++;
            return LTS_LOOP;
        }
        return LTS_OK;
    }
    /* OnSuccessorReceivesTS: CTS must stay below PDTS. */
    if (s->pdts != LTS_UNSET && ts >= s->pdts - 1) {
        t->stats.loops++;
        return LTS_LOOP;
    }
    if (ts >= t->max) {
        t->stats.overflows++;
        return LTS_OVERFLOW;
    }
    if (ts + 1 > s->cts) s->cts = ts + 1;
    else t->stats.lowered_cts_avoided++; /* the printed line 20 would lower it (b) */
    return LTS_OK;
}

void lts_postdate_commit(lts_postdate *t, unsigned id)
{
    lts_entry *e = &t->entries[id];
    e->prev = e->cts;
    e->pdts = LTS_UNSET;
    e->state = LTS_COMMITTED;
    if (e->cts > t->clock) t->clock = e->cts;
}

void lts_postdate_abort(lts_postdate *t, unsigned id)
{
    lts_entry *e = &t->entries[id];
    e->prev = e->cts;
    e->pdts = LTS_UNSET;
    e->state = LTS_FREE;
}

void lts_postdate_retire(lts_postdate *t, unsigned id)
{
    if (t->entries[id].state == LTS_COMMITTED) t->entries[id].state = LTS_FREE;
}

lts_verdict lts_postdate_before_point(lts_postdate *t, unsigned id, uint32_t point)
{
    lts_entry *p = &t->entries[id];
    if (p->state != LTS_RUNNING) return LTS_IGNORED;
    t->stats.edges++;
    if (p->cts >= point) { /* it already follows the point */
        t->stats.loops++;
        return LTS_LOOP;
    }
    uint32_t ts = 0;
    predecessor(t, p, point, &ts);
    if (p->pdts <= p->cts || ts >= point) {
        t->stats.loops++;
        return LTS_LOOP;
    }
    return LTS_OK;
}

lts_verdict lts_postdate_after_point(lts_postdate *t, unsigned id, uint32_t point)
{
    lts_entry *s = &t->entries[id];
    if (s->state != LTS_RUNNING) return LTS_IGNORED;
    t->stats.edges++;
    if (s->pdts != LTS_UNSET && point >= s->pdts - 1) {
        t->stats.loops++;
        return LTS_LOOP;
    }
    if (point >= t->max) {
        t->stats.overflows++;
        return LTS_OVERFLOW;
    }
    if (point + 1 > s->cts) s->cts = point + 1;
    return LTS_OK;
}
