/* sitm_ddg: SITM_Oracle's exact dependency graph (see sitm_ddg.h for the
 * edges, the order races and the pruning rule). */
#include "sitm_ddg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum { RUNNING, COMMITTED, DEAD };

typedef struct vec {
    uint32_t *at, count, capacity;
} vec;

struct sitm_ddg_node {
    vec out;            /* successors (may name dead nodes: skipped, compacted lazily) */
    vec writes;         /* words written (for the commit's edges) */
    uint32_t in;        /* live predecessors */
    uint32_t c;         /* snapshot (0: unknown) */
    uint32_t cid;       /* commit ID (committed writers) */
    uint32_t key;       /* a committed node's position: cid, or C - 1 */
    uint32_t mark;      /* search epoch */
    uint8_t state;
    bool doomed;
};

struct sitm_ddg_word {
    uint32_t word; /* word + 1; 0 empty */
    vec readers, writers;
};

static bool push(vec *v, uint32_t x)
{
    if (v->count == v->capacity) {
        uint32_t capacity = v->capacity ? 2 * v->capacity : 4;
        uint32_t *at = realloc(v->at, capacity * sizeof *at);
        if (!at) return false;
        v->at = at;
        v->capacity = capacity;
    }
    v->at[v->count++] = x;
    return true;
}

static void drop(vec *v)
{
    free(v->at);
    *v = (vec){0};
}

bool sitm_ddg_init(sitm_ddg *g, unsigned ids, char *error, size_t error_size)
{
    *g = (sitm_ddg){0};
    if (ids == 0 || ids > 65536) {
        snprintf(error, error_size, "ids must be 1..65536 (got %u)", ids);
        return false;
    }
    g->ids = ids;
    g->slot = malloc(ids * sizeof *g->slot);
    g->running = malloc(ids * sizeof *g->running);
    if (!g->slot || !g->running) {
        snprintf(error, error_size, "out of memory");
        sitm_ddg_release(g);
        return false;
    }
    for (unsigned i = 0; i < ids; i++) g->slot[i] = NONE;
    return true;
}

void sitm_ddg_release(sitm_ddg *g)
{
    for (uint32_t i = 0; i < g->node_count; i++) {
        drop(&g->nodes[i].out);
        drop(&g->nodes[i].writes);
    }
    for (uint32_t i = 0; i < g->word_capacity; i++) {
        drop(&g->words[i].readers);
        drop(&g->words[i].writers);
    }
    free(g->nodes);
    free(g->words);
    free(g->slot);
    free(g->running);
    free(g->committed);
    free(g->stack);
    *g = (sitm_ddg){0};
}

static void out_of_memory(void)
{
    fprintf(stderr, "sitm_ddg: out of memory\n");
    abort();
}

/* ---- words ---- */

static uint32_t home(uint32_t word, uint32_t capacity)
{
    return (uint32_t)(((uint64_t)word * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (capacity - 1);
}

static sitm_ddg_word *word_of(sitm_ddg *g, uint32_t word)
{
    if (2 * (g->word_count + 1) > g->word_capacity) {
        uint32_t capacity = g->word_capacity ? 2 * g->word_capacity : 1024;
        sitm_ddg_word *old = g->words, *bigger = calloc(capacity, sizeof *bigger);
        if (!bigger) out_of_memory();
        for (uint32_t i = 0; i < g->word_capacity; i++) {
            if (!old[i].word) continue;
            uint32_t j = home(old[i].word - 1, capacity);
            while (bigger[j].word) j = (j + 1) & (capacity - 1);
            bigger[j] = old[i];
        }
        free(old);
        g->words = bigger;
        g->word_capacity = capacity;
    }
    uint32_t i = home(word, g->word_capacity);
    while (g->words[i].word && g->words[i].word != word + 1) i = (i + 1) & (g->word_capacity - 1);
    if (!g->words[i].word) {
        g->words[i].word = word + 1;
        g->word_count++;
    }
    return &g->words[i];
}

/* Drops dead nodes from a word's list. */
static void compact(const sitm_ddg *g, vec *v)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < v->count; i++)
        if (g->nodes[v->at[i]].state != DEAD) v->at[kept++] = v->at[i];
    v->count = kept;
}

/* ---- nodes and edges ---- */

static uint32_t new_node(sitm_ddg *g)
{
    if (g->node_count == g->node_capacity) {
        uint32_t capacity = g->node_capacity ? 2 * g->node_capacity : 1024;
        sitm_ddg_node *nodes = realloc(g->nodes, capacity * sizeof *nodes);
        if (!nodes) out_of_memory();
        g->nodes = nodes;
        g->node_capacity = capacity;
    }
    g->nodes[g->node_count] = (sitm_ddg_node){.state = RUNNING};
    if (++g->live > g->stats.nodes_peak) g->stats.nodes_peak = g->live;
    return g->node_count++;
}

static bool has_edge(const sitm_ddg *g, uint32_t u, uint32_t v)
{
    const vec *out = &g->nodes[u].out;
    for (uint32_t i = 0; i < out->count; i++)
        if (out->at[i] == v) return true;
    return false;
}

/* Whether `to` is reachable from `from` over live, undoomed nodes. */
static bool reaches(sitm_ddg *g, uint32_t from, uint32_t to)
{
    g->stats.searches++;
    if (++g->epoch == 0) {
        for (uint32_t i = 0; i < g->node_count; i++) g->nodes[i].mark = 0;
        g->epoch = 1;
    }
    uint32_t depth = 0;
    g->nodes[from].mark = g->epoch;
    if (g->stack_capacity < 16) {
        g->stack = realloc(g->stack, 16 * sizeof *g->stack);
        if (!g->stack) out_of_memory();
        g->stack_capacity = 16;
    }
    g->stack[depth++] = from;
    while (depth) {
        sitm_ddg_node *n = &g->nodes[g->stack[--depth]];
        g->stats.visited++;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < n->out.count; i++) {
            uint32_t v = n->out.at[i];
            sitm_ddg_node *m = &g->nodes[v];
            if (m->state == DEAD) continue; /* compacted away */
            n->out.at[kept++] = v;
            if (m->doomed || m->mark == g->epoch) continue;
            if (v == to) return true;
            m->mark = g->epoch;
            if (depth == g->stack_capacity) {
                g->stack_capacity *= 2;
                g->stack = realloc(g->stack, g->stack_capacity * sizeof *g->stack);
                if (!g->stack) out_of_memory();
            }
            g->stack[depth++] = v;
        }
        n->out.count = kept;
    }
    return false;
}

/* Adds u -> v unless it closes a cycle (then false). Doomed ends take every
 * edge (their paths are not searched). */
static bool add_edge(sitm_ddg *g, uint32_t u, uint32_t v)
{
    if (u == v || has_edge(g, u, v)) return true;
    if (!g->nodes[u].doomed && !g->nodes[v].doomed && reaches(g, v, u)) return false;
    if (!push(&g->nodes[u].out, v)) out_of_memory();
    g->nodes[v].in++;
    g->stats.edges++;
    return true;
}

static void remove_edge(sitm_ddg *g, uint32_t u, uint32_t v)
{
    vec *out = &g->nodes[u].out;
    for (uint32_t i = 0; i < out->count; i++) {
        if (out->at[i] != v) continue;
        out->at[i] = out->at[--out->count];
        g->nodes[v].in--;
        return;
    }
}

static void kill(sitm_ddg *g, uint32_t n)
{
    sitm_ddg_node *node = &g->nodes[n];
    for (uint32_t i = 0; i < node->out.count; i++)
        if (g->nodes[node->out.at[i]].state != DEAD) g->nodes[node->out.at[i]].in--;
    drop(&node->out);
    drop(&node->writes);
    node->state = DEAD;
    g->live--;
}

static void doom(sitm_ddg *g, uint32_t n)
{
    if (!g->nodes[n].doomed) g->stats.doomed++;
    g->nodes[n].doomed = true;
}

/* ---- pruning ---- */

static void prune(sitm_ddg *g)
{
    if (g->key_max < SITM_DDG_RETAIN) return;
    uint32_t floor = NONE; /* the smallest running snapshot: committed nodes below it are closed */
    for (uint32_t i = 0; i < g->running_count; i++) {
        uint32_t c = g->nodes[g->running[i]].c;
        if (!c) return; /* a snapshot not known yet holds pruning */
        if (c < floor) floor = c;
    }
    for (bool changed = true; changed;) {
        changed = false;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < g->committed_count; i++) {
            uint32_t n = g->committed[i];
            uint32_t key = g->nodes[n].key;
            if (g->nodes[n].in == 0 && key < floor && key < g->key_max - SITM_DDG_RETAIN) {
                if (key >= g->pruned_max) g->pruned_max = key + 1;
                kill(g, n);
                g->stats.pruned++;
                changed = true;
            } else {
                g->committed[kept++] = n;
            }
        }
        g->committed_count = kept;
    }
}

static void leave_running(sitm_ddg *g, uint32_t n)
{
    for (uint32_t i = 0; i < g->running_count; i++) {
        if (g->running[i] != n) continue;
        g->running[i] = g->running[--g->running_count];
        return;
    }
}

/* ---- the interface ---- */

void sitm_ddg_begin(sitm_ddg *g, unsigned id)
{
    if (id >= g->ids) return;
    if (g->slot[id] != NONE) sitm_ddg_abort(g, id);
    uint32_t n = new_node(g);
    g->slot[id] = n;
    g->running[g->running_count++] = n;
}

void sitm_ddg_snapshot(sitm_ddg *g, unsigned id, uint32_t c)
{
    if (id >= g->ids || g->slot[id] == NONE || !c) return;
    sitm_ddg_node *n = &g->nodes[g->slot[id]];
    if (n->c) return;
    n->c = c;
    if (c < g->pruned_max) g->stats.stale_snapshots++; /* it may have edges to a pruned node */
}

void sitm_ddg_doom(sitm_ddg *g, unsigned id)
{
    if (id < g->ids && g->slot[id] != NONE) g->nodes[g->slot[id]].doomed = true;
}

bool sitm_ddg_doomed(const sitm_ddg *g, unsigned id)
{
    return id < g->ids && g->slot[id] != NONE && g->nodes[g->slot[id]].doomed;
}

static uint32_t running_node(const sitm_ddg *g, unsigned id)
{
    return id < g->ids ? g->slot[id] : NONE;
}

/* The accessor's edge: a cycle dooms it (it aborts) and the edge is not added. */
static bool accessor_edge(sitm_ddg *g, uint32_t self, uint32_t u, uint32_t v)
{
    if (add_edge(g, u, v)) return true;
    g->stats.loops++;
    g->nodes[self].doomed = true; /* a loop, not a write-write loser: not counted in `doomed` */
    return false;
}

sitm_ddg_verdict sitm_ddg_read(sitm_ddg *g, unsigned id, uint32_t word)
{
    uint32_t r = running_node(g, id);
    if (r == NONE) return SITM_DDG_IGNORED;
    if (g->nodes[r].doomed) return SITM_DDG_OK;
    sitm_ddg_word *w = word_of(g, word);
    compact(g, &w->writers);
    for (uint32_t i = 0; i < w->writers.count; i++) {
        uint32_t x = w->writers.at[i];
        if (x == r) continue;
        const sitm_ddg_node *writer = &g->nodes[x];
        bool before = writer->state == COMMITTED && writer->cid && writer->cid < g->nodes[r].c;
        if (!(before ? accessor_edge(g, r, x, r) : accessor_edge(g, r, r, x))) return SITM_DDG_LOOP;
    }
    if (!push(&w->readers, r)) out_of_memory();
    return SITM_DDG_OK;
}

sitm_ddg_verdict sitm_ddg_write(sitm_ddg *g, unsigned id, uint32_t word)
{
    uint32_t n = running_node(g, id);
    if (n == NONE) return SITM_DDG_IGNORED;
    sitm_ddg_word *w = word_of(g, word);
    if (!push(&g->nodes[n].writes, word) || !push(&w->writers, n)) out_of_memory();
    if (g->nodes[n].doomed) return SITM_DDG_OK;
    compact(g, &w->writers);
    for (uint32_t i = 0; i < w->writers.count; i++) {
        uint32_t x = w->writers.at[i];
        if (x == n || g->nodes[x].state != COMMITTED) continue; /* concurrent running writers: one loses at commit */
        if (g->nodes[x].cid >= g->nodes[n].c) { /* committed after the snapshot: the commit units abort it */
            doom(g, n);
            return SITM_DDG_OK;
        }
        if (!accessor_edge(g, n, x, n)) return SITM_DDG_LOOP;
    }
    compact(g, &w->readers);
    for (uint32_t i = 0; i < w->readers.count; i++)
        if (!accessor_edge(g, n, w->readers.at[i], n)) return SITM_DDG_LOOP;
    return SITM_DDG_OK;
}

sitm_ddg_verdict sitm_ddg_edge(sitm_ddg *g, unsigned pred, unsigned succ)
{
    uint32_t u = running_node(g, pred), v = running_node(g, succ);
    if (u == NONE || v == NONE) return SITM_DDG_IGNORED;
    if (add_edge(g, u, v)) return SITM_DDG_OK;
    g->stats.loops++;
    return SITM_DDG_LOOP;
}

void sitm_ddg_commit(sitm_ddg *g, unsigned id, uint32_t cid)
{
    uint32_t n = running_node(g, id);
    if (n == NONE) return;
    g->slot[id] = NONE;
    leave_running(g, n);
    sitm_ddg_node *t = &g->nodes[n];
    if (t->doomed) {
        g->stats.doom_misses++;
        t->doomed = false;
    }
    t->state = COMMITTED;
    t->cid = t->writes.count ? cid : 0;
    t->key = t->cid ? t->cid : (t->c ? t->c - 1 : 0);
    if (t->key > g->key_max) g->key_max = t->key;
    if (g->committed_count == g->committed_capacity) {
        uint32_t capacity = g->committed_capacity ? 2 * g->committed_capacity : 256;
        uint32_t *committed = realloc(g->committed, capacity * sizeof *committed);
        if (!committed) out_of_memory();
        g->committed = committed;
        g->committed_capacity = capacity;
    }
    g->committed[g->committed_count++] = n;
    for (uint32_t k = 0; t->cid && k < g->nodes[n].writes.count; k++) {
        sitm_ddg_word *w = word_of(g, g->nodes[n].writes.at[k]);
        compact(g, &w->writers);
        for (uint32_t i = 0; i < w->writers.count; i++) {
            uint32_t x = w->writers.at[i];
            if (x == n || g->nodes[x].state != RUNNING) continue;
            if (g->nodes[x].c && g->nodes[x].c > cid) add_edge(g, n, x); /* it saw this commit: ww */
            else doom(g, x);                                               /* first committer wins */
        }
        compact(g, &w->readers);
        for (uint32_t i = 0; i < w->readers.count; i++) {
            uint32_t r = w->readers.at[i];
            if (r == n || !(g->nodes[r].c > cid)) continue;
            /* The reader saw this commit: the edge it took while the writer
             * looked running goes the other way. */
            g->stats.flips++;
            remove_edge(g, r, n);
            if (!add_edge(g, n, r)) {
                g->stats.late_loops++;
                if (g->nodes[r].state == RUNNING) doom(g, r);
            }
        }
    }
    prune(g);
}

void sitm_ddg_abort(sitm_ddg *g, unsigned id)
{
    uint32_t n = running_node(g, id);
    if (n == NONE) return;
    g->slot[id] = NONE;
    leave_running(g, n);
    kill(g, n);
    prune(g);
}
