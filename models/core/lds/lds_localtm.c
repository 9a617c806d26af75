/* The localtm policy: GPU-LocalTM (shared/papers/gpu-localtm.txt, sections
 * 3-4) in the LDS. Per CTA (work-group): per-bank, per-work-item Bloom
 * filters (one signature for reads and writes, bit = (word / banks) %
 * filter_bits), shadow memory in the CTA's region (runtime/kernel/
 * gpu_localtm.h: N data words, N backups, N owner bytes, N = window / 9),
 * eager versioning. Per wavefront (warp slot): the transaction conflict
 * mask (TCM), TCM OLD and the mode (NORMAL, TX, wavefront-serial,
 * work-group-serial). Conflicts: requester loses, in the paper's three
 * steps (fast detection, ownership, broadcast), except that a serialised
 * work-item (its wavefront runs it alone) finding only TX-mode work-items
 * of other wavefronts in the filters wins: they abort through the TCM and
 * the broadcast (conflict_resolution = serial_wins; README). Costs per bank, the slowest
 * bank decides; `perfect` keeps the behaviour and adds no cycle.
 *
 * Choices the paper leaves open (lds README): the owner byte's validity is
 * kept beside it (8 bits cannot say "free" with 256 owners); a work-item's
 * own filters are cleared when it aborts; rows are region-relative words.
 * Timing (section 4.2, "added to the memory instruction latency"): the
 * request holds the banks for its plain cycles (as Perfect) and its
 * responses leave later by one filter evaluation (filter_cycles) for the
 * whole request, then per bank the sum of its lanes' shadow work (new,
 * own, false own), the slowest bank deciding, and with conflicts the
 * clearing of the conflicting work-items' entries once (the broadcast: the
 * slowest bank's entries), not a second time per lane. The added cycles
 * are the instruction's latency, not bank time every later request of
 * every wavefront waits behind (README). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lds_banks.h"
#include "lds_lane.h"
#include "lds_policy.h"
#include "simtx_array.h"

enum { LTM_NORMAL, LTM_TX, LTM_WF_SERIAL, LTM_WG_SERIAL, LTM_MODES };
static const char *const ltm_mode_names[LTM_MODES] = {"normal", "tx", "wf_serial", "wg_serial"};

typedef struct ltm_wavefront {
    bool known;
    bool open;        /* an attempt began and has not committed or been closed */
    bool tcm_old_valid;
    bool held;        /* its TX_BEGIN waits for a work-group serialisation to end */
    bool cancelled;   /* another wavefront's work-group serialisation aborted this attempt */
    uint8_t mode;
    int32_t cta;
    uint32_t first;   /* work-item of lane 0 */
    uint32_t attempt; /* BEGIN's aux */
    uint64_t tcm, tcm_old, exec, retry;
    uint64_t held_lanes, held_aux, held_order;
} ltm_wavefront;

typedef struct ltm_words {
    uint32_t *words;
    uint32_t count, capacity;
} ltm_words;

typedef struct ltm_group {
    bool known;
    uint32_t base, words;  /* the region and its N */
    uint32_t instance;     /* the CTA dispatch (commit records) */
    int32_t serial_warp;   /* the wavefront in work-group serialisation, or -1 */
    int16_t *owner;        /* [words]: the owning work-item, -1: free (the owner byte's validity) */
    uint32_t *filters;     /* [banks][work-items] */
    uint16_t *bit_counts;  /* [banks][filter bits]: filters with the bit set */
    uint16_t *entries;     /* [work-items][banks]: owned words per bank */
    ltm_words *owned;      /* [work-items] */
} ltm_group;

typedef struct ltm {
    lds_params p;
    lds_policy_env env;
    uint32_t banks, bits, items, waves;
    bool word_hash; /* filter_hash = word */
    bool serial_wins; /* conflict_resolution = serial_wins */
    ltm_wavefront *wave;
    ltm_group *groups;
    uint32_t group_count;
    uint64_t hold_counter;
    uint32_t instances;      /* CTA dispatches so far */
    uint32_t *record;        /* one commit record's words */
    size_t record_capacity;
    uint32_t *bank_cost, *broadcast; /* [banks]: one request's */
    struct {
        uint64_t accesses, conflicts, false_conflicts, fresh, own, false_own, restores, serial_wins, conflict_events;
        uint64_t extra_access, extra_begin, extra_commit;
        uint64_t attempts, wf_serializations, wg_serializations, lane_commits, lane_aborts, holds;
    } stats;
    uint64_t *probes; /* [waves][3]: mode, TCM, TCM OLD */
} ltm;

static void ltm_fail(ltm *l, const char *message) { l->env.fail(l->env.context, message); }

static ltm_group *group_of(ltm *l, int32_t cta)
{
    if (cta < 0) return NULL;
    if ((uint32_t)cta >= l->group_count) {
        uint32_t count = (uint32_t)cta + 1;
        ltm_group *grown = realloc(l->groups, count * sizeof *grown);
        if (!grown) return NULL;
        memset(grown + l->group_count, 0, (count - l->group_count) * sizeof *grown);
        l->groups = grown;
        l->group_count = count;
    }
    ltm_group *g = &l->groups[cta];
    if (!g->known) {
        g->filters = calloc((size_t)l->banks * l->items, sizeof *g->filters);
        g->bit_counts = calloc((size_t)l->banks * l->bits, sizeof *g->bit_counts);
        g->entries = calloc((size_t)l->items * l->banks, sizeof *g->entries);
        g->owned = calloc(l->items, sizeof *g->owned);
        if (!g->filters || !g->bit_counts || !g->entries || !g->owned) return NULL;
        g->known = true;
        g->serial_warp = -1;
    }
    return g;
}

static ltm_wavefront *wave_of(ltm *l, int32_t warp)
{
    if (warp < 0 || (uint32_t)warp >= l->waves) {
        char message[160];
        snprintf(message, sizeof message, "lds: warp slot %d beyond parameter 'max_wavefronts' (%u) of the localtm policy", warp, l->waves);
        ltm_fail(l, message);
        return NULL;
    }
    return &l->wave[warp];
}

static void update_probes(ltm *l, int32_t warp)
{
    const ltm_wavefront *w = &l->wave[warp];
    l->probes[3 * warp] = w->mode;
    l->probes[3 * warp + 1] = w->tcm;
    l->probes[3 * warp + 2] = w->tcm_old_valid ? w->tcm_old : 0;
}

/* A work-item's filters and entries go (commit and abort alike). */
static void drop_item(ltm *l, ltm_group *g, uint32_t item)
{
    for (uint32_t b = 0; b < l->banks; b++) {
        uint32_t *filter = &g->filters[(size_t)b * l->items + item];
        for (uint32_t m = *filter; m; m &= m - 1) g->bit_counts[(size_t)b * l->bits + (unsigned)__builtin_ctz(m)]--;
        *filter = 0;
        g->entries[(size_t)item * l->banks + b] = 0;
    }
    ltm_words *owned = &g->owned[item];
    for (uint32_t i = 0; i < owned->count; i++)
        if (owned->words[i] < g->words && g->owner[owned->words[i]] == (int16_t)item) g->owner[owned->words[i]] = -1;
    owned->count = 0;
}

/* Aborts a work-item: its backups go back (newest first) and its entries and filters are cleared. */
static void restore_item(ltm *l, ltm_group *g, uint8_t *storage, uint32_t item)
{
    uint8_t *region = storage + g->base;
    const ltm_words *owned = &g->owned[item];
    for (uint32_t i = owned->count; i-- > 0;) {
        uint32_t k = owned->words[i];
        if (k >= g->words || g->owner[k] != (int16_t)item) continue;
        memcpy(region + 4 * k, region + 4 * (g->words + k), 4);
        region[8 * g->words + k] = 0;
        l->stats.restores++;
    }
    drop_item(l, g, item);
}

/* The most entries a set of work-items holds in one bank: the slowest bank's clearing. */
static unsigned slowest_bank(const ltm *l, const ltm_group *g, uint32_t first, uint64_t lanes)
{
    unsigned worst = 0;
    for (uint32_t b = 0; b < l->banks; b++) {
        unsigned sum = 0;
        for (uint64_t m = lanes; m; m &= m - 1) {
            uint32_t item = first + (uint32_t)__builtin_ctzll(m);
            if (item < l->items) sum += g->entries[(size_t)item * l->banks + b];
        }
        if (sum > worst) worst = sum;
    }
    return worst;
}

/* A committing work-item's commit record (lds.h): each word it owns, its
 * value at the first access (the backup) as a read, its value now as a write. */
static void record_commit(ltm *l, const ltm_group *g, const uint8_t *storage, uint32_t item)
{
    const uint8_t *region = storage + g->base;
    const ltm_words *owned = &g->owned[item];
    uint32_t *words = simtx_array_reserve(l->record, &l->record_capacity, 4 * (size_t)owned->count + 1, sizeof *words, 64);
    if (!words) {
        ltm_fail(l, "lds: out of memory for a commit record");
        return;
    }
    l->record = words;
    uint32_t count = 0;
    for (uint32_t i = 0; i < owned->count; i++) {
        uint32_t k = owned->words[i];
        if (k >= g->words || g->owner[k] != (int16_t)item) continue;
        words[2 * count] = 4 * k;
        memcpy(&words[2 * count + 1], region + 4 * (g->words + k), 4);
        count++;
    }
    for (uint32_t i = 0; i < count; i++) {
        words[2 * (count + i)] = words[2 * i];
        memcpy(&words[2 * (count + i) + 1], region + words[2 * i], 4);
    }
    l->env.record(l->env.context, g->instance, words, count, count);
}

static bool item_of(ltm *l, const ltm_wavefront *w, unsigned lane, uint32_t *item)
{
    *item = w->first + lane;
    if (*item < l->items) return true;
    char message[200];
    snprintf(message, sizeof message, "lds: work-item %u (lane %u) beyond parameter 'max_work_items' (%u) of the localtm policy: a work-group has at most that many (an owner is one byte)",
             *item, lane, l->items);
    ltm_fail(l, message);
    return false;
}

/* Aborts the running lanes of w (restoring each); returns them. */
static uint64_t abort_lanes(ltm *l, ltm_group *g, uint8_t *storage, ltm_wavefront *w, uint64_t lanes)
{
    lanes &= ~w->tcm;
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t item;
        if (item_of(l, w, (unsigned)__builtin_ctzll(m), &item)) restore_item(l, g, storage, item);
    }
    w->tcm |= lanes;
    l->stats.lane_aborts += (uint64_t)__builtin_popcountll(lanes);
    return lanes;
}

/* Step 1's question: does another work-item's filter of the bank hold the
 * bit? broken_filters looks at the work-items of the same wavefront only. */
static bool others_hold(const ltm *l, const ltm_group *g, const ltm_wavefront *w, uint32_t bank, uint32_t item, uint32_t bit)
{
    const uint32_t *filters = &g->filters[(size_t)bank * l->items];
    if (l->p.broken_filters) {
        for (uint32_t i = w->first; i < w->first + 64 && i < l->items; i++)
            if (i != item && (filters[i] & 1u << bit)) return true;
        return false;
    }
    unsigned holders = g->bit_counts[(size_t)bank * l->bits + bit];
    return holders > ((filters[item] >> bit) & 1u);
}

/* The wavefront of the CTA whose open attempt runs work-item item (it
 * holds filter bits only then): the open one with the largest first
 * work-item not above it (a warp's work-items are consecutive), or -1. */
static int32_t wave_of_item(const ltm *l, int32_t cta, uint32_t item)
{
    int32_t found = -1;
    for (uint32_t v = 0; v < l->waves; v++) {
        const ltm_wavefront *o = &l->wave[v];
        if (o->open && o->cta == cta && o->first <= item && (found < 0 || o->first > l->wave[found].first)) found = (int32_t)v;
    }
    return found;
}

/* conflict_resolution = serial_wins: w runs one work-item alone (wavefront-
 * or work-group-serial) and item's access found the bit in other
 * work-items' filters of the bank. When every such holder belongs to a
 * TX-mode attempt of another wavefront, the holders lose instead: their TCM
 * bits are set, their backups restored and entries cleared in every bank
 * (step 3's broadcast, charged to this access), their wavefronts told
 * (TX_ABORT), and the access goes on as if no filter held the bit. A
 * holder in a serialised wavefront keeps the word: the requester loses and
 * its wavefront escalates to work-group serialisation, the last resort.
 * Returns whether the requester won. */
static bool serial_takes_over(ltm *l, ltm_group *g, uint8_t *storage, const ltm_wavefront *w, uint32_t bank, uint32_t item, uint32_t bit)
{
    if (!l->serial_wins || l->p.broken_filters || w->mode < LTM_WF_SERIAL) return false;
    const uint32_t *filters = &g->filters[(size_t)bank * l->items];
    for (uint32_t i = 0; i < l->items; i++) {
        if (i == item || !(filters[i] >> bit & 1u)) continue;
        int32_t v = wave_of_item(l, w->cta, i);
        if (v < 0 || &l->wave[v] == w || l->wave[v].mode != LTM_TX) return false;
    }
    for (uint32_t i = 0; i < l->items; i++) {
        if (i == item || !(filters[i] >> bit & 1u)) continue;
        int32_t v = wave_of_item(l, w->cta, i);
        ltm_wavefront *holder = &l->wave[v];
        for (uint32_t b = 0; b < l->banks; b++) l->broadcast[b] += g->entries[(size_t)i * l->banks + b];
        uint64_t victims = abort_lanes(l, g, storage, holder, UINT64_C(1) << (i - holder->first));
        l->stats.serial_wins += (uint64_t)__builtin_popcountll(victims);
        update_probes(l, v);
        if (victims) l->env.abort(l->env.context, v, holder->cta, victims, holder->attempt);
    }
    return true;
}

static uint32_t ltm_access_window(void *state, const lds_request *request)
{
    (void)state;
    return request->flags & SIMTX_FLAG_TRANSACTIONAL ? 4u * (request->window / 9u) : request->window;
}

static unsigned ltm_perform(void *state, const lds_geometry *geometry, uint8_t *storage, lds_request *r)
{
    ltm *l = state;
    uint8_t *region = storage + r->base;
    unsigned degree = lds_banks_conflict_degree(r->offsets, r->lanes, geometry->banks, geometry->bank_width);
    r->aborted = 0;
    if (!(r->flags & SIMTX_FLAG_TRANSACTIONAL)) {
        for (uint64_t m = r->lanes; m; m &= m - 1) lds_lane_access(region, r, (unsigned)__builtin_ctzll(m));
        return degree;
    }
    ltm_wavefront *w = wave_of(l, r->warp);
    ltm_group *g = w && w->open ? group_of(l, w->cta) : NULL;
    if (!g || g->base != r->base) {
        char message[200];
        snprintf(message, sizeof message, "lds: a transactional request of warp %d outside a LocalTM attempt (no TX_BEGIN on the lds socket, or another CTA's region)", r->warp);
        if (w) ltm_fail(l, message);
        return degree;
    }
    memset(l->bank_cost, 0, l->banks * sizeof *l->bank_cost);
    memset(l->broadcast, 0, l->banks * sizeof *l->broadcast);
    bool conflicted = false, any_conflict = false;
    uint8_t *owner_bytes = region + 8 * g->words;
    uint64_t tcm_before = w->tcm;
    for (uint64_t m = r->lanes & ~tcm_before; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint32_t item;
        if (!item_of(l, w, lane, &item)) return degree;
        uint32_t k = r->offsets[lane] / 4, bank = k % l->banks, bit = (l->word_hash ? k : k / l->banks) % l->bits;
        uint32_t *mine = &g->filters[(size_t)bank * l->items + item];
        unsigned cost = 0;
        l->stats.accesses++;
        bool conflict = others_hold(l, g, w, bank, item, bit);
        if (conflict) {
            l->stats.conflicts++;
            any_conflict = true;
            if (g->owner[k] < 0 || g->owner[k] == (int16_t)item) l->stats.false_conflicts++; /* no other work-item holds the word */
            if (serial_takes_over(l, g, storage, w, bank, item, bit)) {
                conflict = false; /* the holders lost: the access goes on */
                conflicted = true;
            }
        }
        if (conflict) { /* (i) a conflict: the requester loses */
            /* Its entries are cleared in every bank by the broadcast (step 3). */
            for (uint32_t b = 0; b < l->banks; b++) l->broadcast[b] += g->entries[(size_t)item * l->banks + b];
            conflicted = true;
            abort_lanes(l, g, storage, w, UINT64_C(1) << lane);
        } else if (!(*mine >> bit & 1u) || g->owner[k] != (int16_t)item) { /* (ii) new, or (iii) my false positive */
            if (*mine >> bit & 1u) {
                l->stats.false_own++;
                cost += (unsigned)l->p.false_own_cycles;
            } else {
                l->stats.fresh++;
                cost += (unsigned)l->p.new_cycles;
                *mine |= 1u << bit;
                g->bit_counts[(size_t)bank * l->bits + bit]++;
            }
            memcpy(region + 4 * (g->words + k), region + 4 * k, 4); /* the backup */
            g->owner[k] = (int16_t)item;
            owner_bytes[k] = (uint8_t)item;
            g->entries[(size_t)item * l->banks + bank]++;
            ltm_words *owned = &g->owned[item];
            if (owned->count == owned->capacity) {
                uint32_t capacity = owned->capacity ? 2 * owned->capacity : 16;
                uint32_t *grown = realloc(owned->words, capacity * sizeof *grown);
                if (!grown) {
                    ltm_fail(l, "lds: out of memory for a work-item's LocalTM entries");
                    return degree;
                }
                owned->words = grown;
                owned->capacity = capacity;
            }
            owned->words[owned->count++] = k;
            lds_lane_access(region, r, lane);
        } else { /* (iii) then 2: my own word again */
            l->stats.own++;
            cost += (unsigned)l->p.own_cycles;
            lds_lane_access(region, r, lane);
        }
        l->bank_cost[bank] += cost;
    }
    if (any_conflict) l->stats.conflict_events++;
    r->aborted = r->lanes & w->tcm; /* step 3: the TCM tells the core */
    /* Section 3.1: TCM lanes are "quiesced until the transaction is
     * re-started" at TX Commit, so the wavefront walks on to it. */
    r->retry_at_commit = true;
    update_probes(l, r->warp);
    if (l->p.perfect || !(r->lanes & ~tcm_before)) return degree;
    unsigned slowest = 0, broadcast = 0;
    for (uint32_t b = 0; b < l->banks; b++) {
        if (l->bank_cost[b] > slowest) slowest = l->bank_cost[b];
        if (l->broadcast[b] > broadcast) broadcast = l->broadcast[b];
    }
    unsigned extra = (unsigned)l->p.filter_cycles + slowest + (conflicted ? broadcast : 0);
    l->stats.extra_access += extra;
    r->added_latency = extra; /* the instruction's latency (section 4.2), not the banks' */
    return degree;
}

static void begin_attempt(ltm *l, uint8_t *storage, int32_t warp, lds_tx_event *answer);

/* The attempt of w ended (its commit, or its next BEGIN when every lane
 * stopped without one): TCM_end against TCM OLD picks the next mode. */
static void close_attempt(ltm *l, uint8_t *storage, int32_t warp)
{
    ltm_wavefront *w = &l->wave[warp];
    uint64_t end = w->tcm;
    w->open = false;
    if (w->cancelled) {
        /* Aborted by another wavefront's work-group serialisation, not by its
         * own conflicts: it re-runs the same attempt after the hold, in the
         * same mode against the same TCM OLD (section 3.1: the other
         * wavefronts "are aborted and stalled at the TX Begin"; the rule
         * compares re-executions that ran). */
        w->cancelled = false;
        w->retry |= end;
    } else if (!end) {
        w->mode = LTM_NORMAL;
        w->tcm_old_valid = false;
        w->retry = 0;
    } else {
        uint8_t next = LTM_TX;
        if (w->tcm_old_valid && end == w->tcm_old) {
            if (w->mode == LTM_TX) {
                next = LTM_WF_SERIAL;
                l->stats.wf_serializations++;
            } else if (w->mode == LTM_WF_SERIAL) {
                next = LTM_WG_SERIAL;
                l->stats.wg_serializations++;
            }
        }
        w->mode = next;
        w->tcm_old = end;
        w->tcm_old_valid = true;
        w->retry = end;
    }
    update_probes(l, warp);
    ltm_group *g = group_of(l, w->cta);
    if (!g || g->serial_warp != warp) return;
    /* The work-group serialisation ends: the held BEGINs run, oldest first,
     * until one of them serialises the work-group again. */
    g->serial_warp = -1;
    while (g->serial_warp < 0) {
        int32_t next = -1;
        for (uint32_t i = 0; i < l->waves; i++)
            if (l->wave[i].held && l->wave[i].cta == w->cta && (next < 0 || l->wave[i].held_order < l->wave[next].held_order))
                next = (int32_t)i;
        if (next < 0) break;
        ltm_wavefront *h = &l->wave[next];
        h->held = false;
        lds_tx_event answer = {.op = SIMTX_OP_TX_BEGIN, .warp = next, .cta = h->cta, .lanes = h->held_lanes, .aux = h->held_aux};
        begin_attempt(l, storage, next, &answer);
        l->env.release(l->env.context, next, &answer);
    }
}

/* A TX_BEGIN that runs now (answer: its lanes and aux in, the answer out). */
static void begin_attempt(ltm *l, uint8_t *storage, int32_t warp, lds_tx_event *answer)
{
    uint64_t lanes = answer->lanes, aux = answer->aux;
    ltm_wavefront *w = &l->wave[warp];
    ltm_group *g = group_of(l, w->cta);
    unsigned cost = (unsigned)l->p.begin_cycles;
    if (aux == 0) { /* the transaction's first attempt */
        w->mode = LTM_TX;
        w->tcm_old_valid = false;
        w->retry = 0;
    } else if (w->mode == LTM_NORMAL) {
        w->mode = LTM_TX;
    }
    w->attempt = (uint32_t)aux;
    w->open = true;
    l->stats.attempts++;
    if (w->mode == LTM_TX) {
        w->tcm = 0;
        w->exec = lanes;
    } else { /* serialised: one work-item runs, the other retry lanes stay in the TCM */
        uint64_t keep = lanes & (~lanes + 1);
        w->tcm = (w->retry | lanes) & ~keep;
        w->exec = keep | w->tcm;
        if (w->mode == LTM_WG_SERIAL && g) {
            /* Every other wavefront's attempt aborts; clearing costs the most occupied bank. */
            unsigned worst = 0;
            for (uint32_t b = 0; b < l->banks; b++) {
                unsigned sum = 0;
                for (uint32_t i = 0; i < l->items; i++) sum += g->entries[(size_t)i * l->banks + b];
                if (sum > worst) worst = sum;
            }
            cost += worst;
            for (uint32_t v = 0; v < l->waves; v++) {
                ltm_wavefront *other = &l->wave[v];
                if ((int32_t)v == warp || !other->open || other->cta != w->cta) continue;
                uint64_t victims = abort_lanes(l, g, storage, other, other->exec);
                other->cancelled = true;
                update_probes(l, (int32_t)v);
                if (victims) l->env.abort(l->env.context, (int32_t)v, other->cta, victims, other->attempt);
            }
            g->serial_warp = warp;
        }
    }
    answer->held = lanes & w->tcm;
    answer->consistent = true; /* eager versioning, requester loses: no attempt reads another's data */
    if (l->p.perfect) cost = 0;
    l->stats.extra_begin += cost;
    answer->cycles = cost;
    update_probes(l, warp);
}

static void ltm_tx_event(void *state, uint8_t *storage, lds_tx_event *e)
{
    ltm *l = state;
    ltm_wavefront *w = wave_of(l, e->warp);
    if (!w) return;
    e->cycles = 0;
    e->hold = false;
    e->held = 0;
    memset(&e->outcome, 0, sizeof e->outcome);
    if (e->op == SIMTX_OP_TX_BEGIN) {
        if (!w->known || e->aux == 0) {
            w->known = true;
            w->cta = e->cta;
        }
        w->first = e->first_thread;
        ltm_group *g = group_of(l, e->cta);
        if (!g) {
            ltm_fail(l, "lds: out of memory for a work-group's LocalTM state");
            return;
        }
        if (w->open) close_attempt(l, storage, e->warp); /* every lane stopped: no TX_COMMIT came */
        if (g->serial_warp >= 0 && g->serial_warp != e->warp) { /* held at its TX Begin */
            w->held = true;
            w->held_lanes = e->lanes;
            w->held_aux = e->aux;
            w->held_order = l->hold_counter++;
            l->stats.holds++;
            e->hold = true;
            return;
        }
        begin_attempt(l, storage, e->warp, e);
        return;
    }
    ltm_group *g = w->known ? group_of(l, w->cta) : NULL;
    if (!g || !w->open) {
        char message[160];
        snprintf(message, sizeof message, "lds: %s of warp %d outside a LocalTM attempt", simtx_op_name((simtx_op)e->op), e->warp);
        ltm_fail(l, message);
        return;
    }
    if (e->op == SIMTX_OP_TX_ROLLBACK) { /* the core abandons the attempt (timeout, fault) */
        unsigned cost = slowest_bank(l, g, w->first, e->lanes & ~w->tcm);
        abort_lanes(l, g, storage, w, e->lanes);
        e->cycles = l->p.perfect ? 0 : cost;
        update_probes(l, e->warp);
        return;
    }
    /* TX_COMMIT: committed = EXEC & ~TCM; the TCM's lanes retry. */
    uint64_t committed = e->lanes & ~w->tcm;
    unsigned cost = (unsigned)l->p.commit_cycles + slowest_bank(l, g, w->first, committed);
    bool recording = l->env.recording && l->env.recording(l->env.context);
    for (uint64_t m = committed; m; m &= m - 1) {
        uint32_t item;
        if (!item_of(l, w, (unsigned)__builtin_ctzll(m), &item)) continue;
        if (recording) record_commit(l, g, storage, item);
        drop_item(l, g, item);
    }
    l->stats.lane_commits += (uint64_t)__builtin_popcountll(committed);
    e->outcome.committed = committed;
    e->outcome.retry = e->lanes & w->tcm;
    close_attempt(l, storage, e->warp);
    e->outcome.serialize = w->mode == LTM_WF_SERIAL   ? TX_SERIALIZE_WAVEFRONT
                           : w->mode == LTM_WG_SERIAL ? TX_SERIALIZE_WORK_GROUP
                                                      : TX_SERIALIZE_NONE;
    if (l->p.perfect) cost = 0;
    l->stats.extra_commit += cost;
    e->cycles = cost;
}

static void ltm_clear(void *state, int32_t cta, uint32_t base, uint32_t size)
{
    ltm *l = state;
    if (cta < 0) return; /* the core's size check: no CTA's region */
    ltm_group *g = group_of(l, cta);
    if (!g) {
        ltm_fail(l, "lds: out of memory for a work-group's LocalTM state");
        return;
    }
    uint32_t words = size / 9u;
    if (words != g->words || !g->owner) {
        free(g->owner);
        g->owner = malloc((words ? words : 1) * sizeof *g->owner);
        if (!g->owner) {
            ltm_fail(l, "lds: out of memory for a work-group's LocalTM owners");
            return;
        }
    }
    g->base = base;
    g->words = words;
    g->instance = l->instances++;
    for (uint32_t k = 0; k < words; k++) g->owner[k] = -1;
    memset(g->filters, 0, (size_t)l->banks * l->items * sizeof *g->filters);
    memset(g->bit_counts, 0, (size_t)l->banks * l->bits * sizeof *g->bit_counts);
    memset(g->entries, 0, (size_t)l->items * l->banks * sizeof *g->entries);
    for (uint32_t i = 0; i < l->items; i++) g->owned[i].count = 0;
    g->serial_warp = -1;
}

static void ltm_destroy(void *state)
{
    ltm *l = state;
    if (!l) return;
    for (uint32_t c = 0; c < l->group_count; c++) {
        ltm_group *g = &l->groups[c];
        free(g->owner), free(g->filters), free(g->bit_counts), free(g->entries);
        for (uint32_t i = 0; g->owned && i < l->items; i++) free(g->owned[i].words);
        free(g->owned);
    }
    free(l->groups), free(l->wave), free(l->bank_cost), free(l->broadcast), free(l->probes), free(l->record);
    free(l);
}

static bool ltm_create(void **state, const lds_params *p, const lds_geometry *geometry, const lds_policy_env *env, char *error,
                       size_t error_size)
{
    if (geometry->bank_width != 4) {
        snprintf(error, error_size, "bank_width %u: the localtm policy versions 4-byte words (bank_width = 4)", geometry->bank_width);
        return false;
    }
    if (p->filter_bits != 8 && p->filter_bits != 16 && p->filter_bits != 32) {
        snprintf(error, error_size, "filter_bits %lld: the localtm policy's signatures have 8, 16 or 32 bits", (long long)p->filter_bits);
        return false;
    }
    ltm *l = calloc(1, sizeof *l);
    if (!l) return false;
    l->p = *p;
    l->p.policy = NULL;
    l->p.filter_hash = NULL;
    l->p.conflict_resolution = NULL;
    l->env = *env;
    l->banks = geometry->banks;
    l->bits = (uint32_t)p->filter_bits;
    l->word_hash = strcmp(p->filter_hash, "word") == 0;
    l->serial_wins = strcmp(p->conflict_resolution, "serial_wins") == 0;
    l->items = (uint32_t)p->max_work_items;
    l->waves = (uint32_t)p->max_wavefronts;
    l->wave = calloc(l->waves, sizeof *l->wave);
    l->bank_cost = calloc(l->banks, sizeof *l->bank_cost);
    l->broadcast = calloc(l->banks, sizeof *l->broadcast);
    l->probes = calloc(3 * (size_t)l->waves, sizeof *l->probes);
    if (!l->wave || !l->bank_cost || !l->broadcast || !l->probes) {
        snprintf(error, error_size, "out of memory for max_wavefronts %u", l->waves);
        ltm_destroy(l);
        return false;
    }
    *state = l;
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "tx_lds_accesses", &l->stats.accesses, "lanes", "transactional lane accesses (localtm), conflicting ones included");
    simtx_observe_counter(o, "ltm_conflicts", &l->stats.conflicts, "lanes", "accesses that found another work-item's filter bit (the requester aborts)");
    simtx_observe_counter(o, "ltm_conflict_events", &l->stats.conflict_events, "requests",
                          "wavefront accesses (transactional requests) in which at least one lane conflicted");
    simtx_observe_counter(o, "ltm_false_conflicts", &l->stats.false_conflicts, "lanes", "conflicts on a word no other work-item held (Bloom aliasing)");
    simtx_observe_counter(o, "ltm_serial_wins", &l->stats.serial_wins, "lanes",
                          "TX-mode work-items aborted by a serialised work-item's access (conflict_resolution = serial_wins)");
    simtx_observe_counter(o, "ltm_new", &l->stats.fresh, "lanes", "new accesses: no filter bit, backup and owner written");
    simtx_observe_counter(o, "ltm_own", &l->stats.own, "lanes", "second accesses to a word the work-item owns");
    simtx_observe_counter(o, "ltm_false_positive_own", &l->stats.false_own, "lanes", "own filter bit set on a word the work-item does not own: as a new access");
    simtx_observe_counter(o, "ltm_restores", &l->stats.restores, "words", "backups written back by aborts");
    simtx_observe_counter(o, "ltm_extra_cycles_access", &l->stats.extra_access, "cycles", "bank cycles transactional accesses added over the plain timing");
    simtx_observe_counter(o, "ltm_extra_cycles_begin", &l->stats.extra_begin, "cycles", "cycles TX_BEGINs took (incl. a work-group serialisation's clearing)");
    simtx_observe_counter(o, "ltm_extra_cycles_commit", &l->stats.extra_commit, "cycles", "cycles TX_COMMITs took (filters and the committers' entries)");
    simtx_observe_counter(o, "wf_attempts", &l->stats.attempts, "attempts", "wavefront transaction attempts begun");
    simtx_observe_counter(o, "wf_serializations", &l->stats.wf_serializations, "events", "attempts that ended with the TCM of the previous one: wavefront serialisation");
    simtx_observe_counter(o, "wg_serializations", &l->stats.wg_serializations, "events", "wavefront-serial attempts that ended with the TCM of the previous one: work-group serialisation");
    simtx_observe_counter(o, "wg_holds", &l->stats.holds, "events", "TX_BEGINs held while another wavefront serialised the work-group");
    simtx_observe_counter(o, "lane_commits", &l->stats.lane_commits, "lanes", "work-items that committed");
    simtx_observe_counter(o, "lane_aborts", &l->stats.lane_aborts, "lanes", "work-items aborted: conflicts, work-group serialisation, rollbacks");
    for (uint32_t i = 0; i < l->waves; i++) {
        char name[40];
        snprintf(name, sizeof name, "w%u_mode", i);
        simtx_observe_enum_probe(o, name, &l->probes[3 * i], 2, ltm_mode_names, LTM_MODES, "wavefront's LocalTM mode");
        snprintf(name, sizeof name, "w%u_tcm", i);
        simtx_observe_probe(o, name, &l->probes[3 * i + 1], 64, "wavefront's transaction conflict mask (bit = lane)");
        snprintf(name, sizeof name, "w%u_tcm_old", i);
        simtx_observe_probe(o, name, &l->probes[3 * i + 2], 64, "wavefront's TCM at the end of its previous attempt (0: none)");
    }
    return true;
}

const lds_policy lds_localtm_policy = {
    .name = "localtm",
    .create = ltm_create,
    .destroy = ltm_destroy,
    .access_window = ltm_access_window,
    .perform = ltm_perform,
    .clear = ltm_clear,
    .tx_event = ltm_tx_event,
};
