#include "si_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tx_entry {
    uint32_t commit, snapshot;
    bool validated;
    uint32_t read_count, write_count;
    size_t first_word;
} tx_entry;

/* One committed write: a version of its word. */
typedef struct version {
    uint32_t address, value, commit, tx, seq;
} version;

enum { EDGE_WR, EDGE_WW, EDGE_RW };
static const char *const edge_names[] = {"wr", "ww", "rw"};

typedef struct edge {
    uint32_t from, to, address, kind;
} edge;

struct si_check {
    si_check_memory_reader read_initial;
    void *context;
    tx_entry *txs;
    size_t tx_count, tx_capacity;
    uint32_t *words;
    size_t word_count, word_capacity;
    version *versions; /* by address, then commit ID */
    size_t version_count;
    edge *edges;
    size_t edge_count, edge_capacity;
    si_check_counts counts;
    bool failed;
    char error[1024];
    bool noting; /* explain_read writes the note, not the error */
    char note[1024];
};

si_check *si_check_create(si_check_memory_reader read_initial, void *context)
{
    si_check *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->read_initial = read_initial;
    c->context = context;
    return c;
}

void si_check_destroy(si_check *c)
{
    if (!c) return;
    free(c->txs);
    free(c->words);
    free(c->versions);
    free(c->edges);
    free(c);
}

static bool grow(void **array, size_t *capacity, size_t needed, size_t size)
{
    if (needed <= *capacity) return true;
    size_t n = *capacity ? *capacity : 256;
    while (n < needed) n *= 2;
    void *grown = realloc(*array, n * size);
    if (!grown) return false;
    *array = grown;
    *capacity = n;
    return true;
}

bool si_check_add(si_check *c, const si_check_tx *tx)
{
    size_t n = 2 * ((size_t)tx->read_count + tx->write_count);
    if (!grow((void **)&c->txs, &c->tx_capacity, c->tx_count + 1, sizeof *c->txs) ||
        !grow((void **)&c->words, &c->word_capacity, c->word_count + n, sizeof *c->words))
        return false;
    c->txs[c->tx_count++] = (tx_entry){tx->commit, tx->snapshot, tx->validated, tx->read_count, tx->write_count, c->word_count};
    if (n) memcpy(c->words + c->word_count, tx->words, n * sizeof *c->words);
    c->word_count += n;
    return true;
}

const si_check_counts *si_check_get_counts(const si_check *c) { return &c->counts; }

static const char *fail(si_check *c, const char *format, ...)
{
    if (c->noting) { /* a validated read's snapshot mismatch: noted once, not a failure */
        if (!c->note[0]) {
            va_list args;
            va_start(args, format);
            vsnprintf(c->note, sizeof c->note, format, args);
            va_end(args);
        }
        return c->note;
    }
    if (c->failed) return c->error;
    c->failed = true;
    va_list args;
    va_start(args, format);
    vsnprintf(c->error, sizeof c->error, format, args);
    va_end(args);
    return c->error;
}

const char *si_check_note(const si_check *c) { return c->note[0] ? c->note : NULL; }

/* "commit 12", or "read-only #3 (snapshot 9)" for a transaction without writes. */
static const char *tx_name(const si_check *c, uint32_t t, char *text, size_t size)
{
    const tx_entry *e = &c->txs[t];
    if (e->write_count) snprintf(text, size, "commit %" PRIu32, e->commit);
    else snprintf(text, size, "read-only #%" PRIu32 " (snapshot %" PRIu32 ")", t, e->snapshot);
    return text;
}

static int by_address_commit(const void *a, const void *b)
{
    const version *x = a, *y = b;
    if (x->address != y->address) return x->address < y->address ? -1 : 1;
    if (x->commit != y->commit) return x->commit < y->commit ? -1 : 1;
    if (x->tx != y->tx) return x->tx < y->tx ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The word's versions in commit order; a transaction's repeated write of a
 * word keeps its last value; two writers with one commit ID fail. */
static bool build_versions(si_check *c)
{
    size_t total = 0;
    for (size_t t = 0; t < c->tx_count; t++) total += c->txs[t].write_count;
    c->versions = malloc((total ? total : 1) * sizeof *c->versions);
    if (!c->versions) return fail(c, "out of host memory"), false;
    size_t n = 0;
    for (size_t t = 0; t < c->tx_count; t++) {
        const tx_entry *e = &c->txs[t];
        const uint32_t *w = c->words + e->first_word + 2 * (size_t)e->read_count;
        for (uint32_t i = 0; i < e->write_count; i++)
            c->versions[n++] = (version){w[2 * i], w[2 * i + 1], e->commit, (uint32_t)t, i};
    }
    qsort(c->versions, n, sizeof *c->versions, by_address_commit);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        version *v = &c->versions[i];
        if (kept && c->versions[kept - 1].address == v->address && c->versions[kept - 1].tx == v->tx) {
            c->versions[kept - 1] = *v; /* the same transaction's later write */
            continue;
        }
        if (kept && c->versions[kept - 1].address == v->address && c->versions[kept - 1].commit == v->commit)
            return fail(c, "commit ID %" PRIu32 " was used by two transactions that wrote 0x%" PRIx32, v->commit, v->address),
                   false;
        c->versions[kept++] = *v;
    }
    c->version_count = kept;
    return true;
}

/* The range of the word's versions; empty when no transaction wrote it. */
static void word_versions(const si_check *c, uint32_t address, size_t *lo, size_t *hi)
{
    size_t a = 0, b = c->version_count;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (c->versions[m].address < address) a = m + 1;
        else b = m;
    }
    *lo = a;
    b = c->version_count;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (c->versions[m].address <= address) a = m + 1;
        else b = m;
    }
    *hi = a;
}

/* The index of the newest version of [lo, hi) with commit ID <= point, or lo - 1 (the initial image). */
static size_t version_at(const si_check *c, size_t lo, size_t hi, int64_t point)
{
    size_t a = lo, b = hi;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if ((int64_t)c->versions[m].commit <= point) a = m + 1;
        else b = m;
    }
    return a - 1; /* wraps to SIZE_MAX for lo = 0: compared with lo - 1 below */
}

static bool initial_value(si_check *c, uint32_t address, uint32_t *value)
{
    uint8_t bytes[4];
    if (!c->read_initial || !c->read_initial(c->context, address, bytes, 4)) return false;
    *value = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    return true;
}

/* The value of the version at index i of [lo, hi) (lo - 1: the initial image). */
static bool value_of(si_check *c, size_t lo, size_t i, uint32_t address, uint32_t *value)
{
    if (i != lo - 1) {
        *value = c->versions[i].value;
        return true;
    }
    if (initial_value(c, address, value)) return true;
    fail(c, "a transaction read 0x%" PRIx32 ", which the initial image cannot supply (no checked region holds it)", address);
    return false;
}

/* (i) failed: names what the read saw instead of its snapshot's value. */
static void explain_read(si_check *c, uint32_t t, uint32_t address, uint32_t value, int64_t point, uint32_t expected,
                         size_t lo, size_t hi, size_t at, bool at_commit)
{
    char name[64], other[64];
    tx_name(c, t, name, sizeof name);
    const char *where = at_commit ? "at its commit" : "in its snapshot";
    for (size_t i = at + 1; i < hi; i++)
        if (c->versions[i].value == value && c->versions[i].tx != t) {
            fail(c,
                 "torn snapshot: %s read 0x%" PRIx32 " = 0x%" PRIx32 ", the version %s wrote, newer than its snapshot point %" PRId64
                 " (%s the word holds 0x%" PRIx32 ")",
                 name, address, value, tx_name(c, c->versions[i].tx, other, sizeof other), point, where, expected);
            return;
        }
    for (size_t i = at; i != lo - 1 && i >= lo; i--)
        if (c->versions[i].value == value) {
            fail(c,
                 "%s: %s read 0x%" PRIx32 " = 0x%" PRIx32 ", the version %s wrote, overwritten before its %s point %" PRId64
                 " (%s the word holds 0x%" PRIx32 ")",
                 at_commit ? "stale read" : "torn snapshot", name, address, value, tx_name(c, c->versions[i].tx, other, sizeof other),
                 at_commit ? "commit" : "snapshot", point, where, expected);
            return;
        }
    uint32_t initial;
    if (at != lo - 1 && initial_value(c, address, &initial) && initial == value) {
        fail(c,
             "%s: %s read 0x%" PRIx32 " = 0x%" PRIx32 ", its initial value, overwritten before its %s point %" PRId64
             " (%s the word holds 0x%" PRIx32 ")",
             at_commit ? "stale read" : "torn snapshot", name, address, value, at_commit ? "commit" : "snapshot", point, where,
             expected);
        return;
    }
    fail(c,
         "read of uncommitted data: %s read 0x%" PRIx32 " = 0x%" PRIx32 ", which no committed transaction wrote there (%s, point %" PRId64
         ", the word holds 0x%" PRIx32 ")",
         name, address, value, where, point, expected);
}

static bool add_edge(si_check *c, uint32_t from, uint32_t to, uint32_t address, uint32_t kind)
{
    if (from == to) return true;
    if (!grow((void **)&c->edges, &c->edge_capacity, c->edge_count + 1, sizeof *c->edges)) return fail(c, "out of host memory"), false;
    c->edges[c->edge_count++] = (edge){from, to, address, kind};
    if (kind == EDGE_WR) c->counts.edges_wr++;
    else if (kind == EDGE_WW) c->counts.edges_ww++;
    else c->counts.edges_rw++;
    return true;
}

/* (i) for every read, and the reads' wr and rw edges. */
static bool check_reads(si_check *c, bool graph)
{
    for (size_t t = 0; t < c->tx_count; t++) {
        const tx_entry *e = &c->txs[t];
        const uint32_t *r = c->words + e->first_word;
        char name[64];
        if (e->write_count && e->snapshot >= e->commit)
            return fail(c, "%s has snapshot point %" PRIu32 ", not before its own commit", tx_name(c, (uint32_t)t, name, sizeof name),
                        e->snapshot),
                   false;
        for (uint32_t i = 0; i < e->read_count; i++) {
            uint32_t address = r[2 * i], value = r[2 * i + 1], expected;
            size_t lo, hi;
            word_versions(c, address, &lo, &hi);
            size_t at = version_at(c, lo, hi, e->snapshot);
            if (!value_of(c, lo, at, address, &expected)) return false;
            if (expected != value) {
                c->noting = e->validated;
                explain_read(c, (uint32_t)t, address, value, e->snapshot, expected, lo, hi, at, false);
                c->noting = false;
                if (!e->validated) return false;
                c->counts.validated_torn_reads++;
            }
            if (e->validated) { /* in value, the reads hold just before its commit */
                at = version_at(c, lo, hi, (int64_t)e->commit - 1);
                if (!value_of(c, lo, at, address, &expected)) return false;
                if (expected != value) {
                    explain_read(c, (uint32_t)t, address, value, (int64_t)e->commit - 1, expected, lo, hi, at, true);
                    return false;
                }
            }
            if (!graph) continue;
            if (at != lo - 1 && !add_edge(c, c->versions[at].tx, (uint32_t)t, address, EDGE_WR)) return false;
            if (at + 1 < hi && !add_edge(c, (uint32_t)t, c->versions[at + 1].tx, address, EDGE_RW)) return false;
        }
    }
    return true;
}

/* (ii) for consecutive versions (a later writer concurrent with an earlier
 * one is concurrent with its immediate predecessor too), and the ww edges. */
static bool check_writes(si_check *c, bool graph)
{
    for (size_t i = 1; i < c->version_count; i++) {
        const version *a = &c->versions[i - 1], *b = &c->versions[i];
        if (a->address != b->address) continue;
        const tx_entry *later = &c->txs[b->tx];
        if (!later->validated && later->snapshot < a->commit) {
            char x[64], y[64];
            return fail(c,
                        "lost update: %s (snapshot %" PRIu32 ") overwrote 0x%" PRIx32 ", which %s committed after its snapshot "
                        "(first committer wins)",
                        tx_name(c, b->tx, x, sizeof x), later->snapshot, b->address, tx_name(c, a->tx, y, sizeof y)),
                   false;
        }
        if (graph && !add_edge(c, a->tx, b->tx, b->address, EDGE_WW)) return false;
    }
    return true;
}

static int by_from(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

/* What kind of cycle: the anomalies SI admits have two consecutive rw edges. */
static const char *cycle_kind(const si_check *c, const edge *const *cycle, size_t n)
{
    bool read_only = false, consecutive_rw = false, all_rw = true;
    for (size_t i = 0; i < n; i++) {
        if (!c->txs[cycle[i]->from].write_count) read_only = true;
        if (cycle[i]->kind != EDGE_RW) all_rw = false;
        if (cycle[i]->kind == EDGE_RW && cycle[(i + 1) % n]->kind == EDGE_RW) consecutive_rw = true;
        if (n == 2 && cycle[i]->kind == EDGE_WW && cycle[(i + 1) % n]->kind == EDGE_RW && cycle[i]->address == cycle[(i + 1) % n]->address)
            return "lost update";
    }
    if (read_only && consecutive_rw) return "read-only anomaly";
    if (consecutive_rw || all_rw) return "write skew";
    return "not serializable";
}

/* (iii): Kahn's topological sort; if nodes remain, a walk back along
 * remaining predecessors finds a node on a cycle, and a breadth-first
 * search from it the shortest cycle through it, which is named. */
static bool check_acyclic(si_check *c)
{
    size_t n = c->tx_count, m = c->edge_count;
    if (!m) return true;
    qsort(c->edges, m, sizeof *c->edges, by_from);
    size_t *out = calloc(n + 1, sizeof *out), *in_start = calloc(n + 1, sizeof *in_start);
    uint32_t *in_edges = malloc(m * sizeof *in_edges), *degree = calloc(n, sizeof *degree), *queue = malloc(n * sizeof *queue);
    uint32_t *parent = malloc(n * sizeof *parent);
    bool *removed = calloc(n, sizeof *removed);
    bool ok = out && in_start && in_edges && degree && queue && parent && removed;
    if (!ok) fail(c, "out of host memory");
    if (ok) {
        for (size_t e = 0; e < m; e++) {
            out[c->edges[e].from + 1]++;
            in_start[c->edges[e].to + 1]++;
            degree[c->edges[e].to]++;
        }
        for (size_t i = 0; i < n; i++) {
            out[i + 1] += out[i];
            in_start[i + 1] += in_start[i];
        }
        size_t *fill = malloc((n + 1) * sizeof *fill);
        if (!fill) ok = false, fail(c, "out of host memory");
        else {
            memcpy(fill, in_start, (n + 1) * sizeof *fill);
            for (size_t e = 0; e < m; e++) in_edges[fill[c->edges[e].to]++] = (uint32_t)e;
            free(fill);
        }
    }
    size_t head = 0, tail = 0, left = n;
    if (ok) {
        for (size_t i = 0; i < n; i++)
            if (!degree[i]) queue[tail++] = (uint32_t)i;
        while (head < tail) {
            uint32_t v = queue[head++];
            removed[v] = true;
            left--;
            for (size_t e = out[v]; e < out[v + 1]; e++)
                if (!--degree[c->edges[e].to]) queue[tail++] = c->edges[e].to;
        }
    }
    if (ok && left) {
        uint32_t v = 0;
        while (removed[v]) v++;
        /* Back along remaining predecessors until a node repeats: it lies on a cycle. */
        memset(parent, 0xFF, n * sizeof *parent);
        while (parent[v] == UINT32_MAX) {
            uint32_t p = UINT32_MAX;
            for (size_t k = in_start[v]; k < in_start[v + 1] && p == UINT32_MAX; k++)
                if (!removed[c->edges[in_edges[k]].from]) p = in_edges[k];
            parent[v] = p;
            v = c->edges[p].from;
        }
        /* The shortest cycle through v among the remaining nodes. */
        memset(parent, 0xFF, n * sizeof *parent);
        head = tail = 0;
        queue[tail++] = v;
        uint32_t closing = UINT32_MAX;
        while (head < tail && closing == UINT32_MAX) {
            uint32_t x = queue[head++];
            for (size_t e = out[x]; e < out[x + 1]; e++) {
                uint32_t y = c->edges[e].to;
                if (removed[y]) continue;
                if (y == v) {
                    closing = (uint32_t)e;
                    break;
                }
                if (parent[y] == UINT32_MAX) {
                    parent[y] = (uint32_t)e;
                    queue[tail++] = y;
                }
            }
        }
        size_t length = 0;
        for (uint32_t e = closing; c->edges[e].from != v; e = parent[c->edges[e].from]) length++;
        length++;
        const edge **cycle = malloc(length * sizeof *cycle);
        if (!cycle) return fail(c, "out of host memory"), false;
        size_t k = length;
        for (uint32_t e = closing;; e = parent[c->edges[e].from]) {
            cycle[--k] = &c->edges[e];
            if (c->edges[e].from == v) break;
        }
        char text[sizeof c->error], name[64];
        int used = snprintf(text, sizeof text, "dependency cycle (%s, %zu transactions): ", cycle_kind(c, cycle, length), length);
        for (size_t i = 0; i < length && used > 0 && (size_t)used < sizeof text; i++) {
            if (i == 12 && length > 13) { /* keep the message short: the start and the closing edge */
                used += snprintf(text + used, sizeof text - (size_t)used, "... ");
                i = length - 1;
            }
            used += snprintf(text + used, sizeof text - (size_t)used, "%s -%s 0x%" PRIx32 "-> ", tx_name(c, cycle[i]->from, name, sizeof name),
                             edge_names[cycle[i]->kind], cycle[i]->address);
        }
        if (used > 0 && (size_t)used < sizeof text) snprintf(text + used, sizeof text - (size_t)used, "%s", tx_name(c, v, name, sizeof name));
        fail(c, "%s", text);
        free(cycle);
        ok = false;
    }
    free(out);
    free(in_start);
    free(in_edges);
    free(degree);
    free(queue);
    free(parent);
    free(removed);
    return ok;
}

static bool check_final(si_check *c, si_check_memory_reader read_final, void *context)
{
    for (size_t i = 0; i < c->version_count; i++) {
        const version *v = &c->versions[i];
        if (i + 1 < c->version_count && c->versions[i + 1].address == v->address) continue; /* not the last version */
        uint8_t bytes[4];
        if (!read_final(context, v->address, bytes, 4))
            return fail(c, "final memory at 0x%" PRIx32 " cannot be read", v->address), false;
        uint32_t actual = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
        if (actual != v->value) {
            char name[64];
            return fail(c, "final memory at 0x%" PRIx32 " holds 0x%" PRIx32 " but its last version (%s) is 0x%" PRIx32 " (a lost write)",
                        v->address, actual, tx_name(c, v->tx, name, sizeof name), v->value),
                   false;
        }
    }
    return true;
}

const char *si_check_run(si_check *c, si_check_mode mode, si_check_memory_reader read_final, void *context)
{
    if (c->failed) return c->error;
    bool graph = mode == SI_CHECK_SERIALIZABLE;
    c->counts.transactions = c->tx_count;
    for (size_t t = 0; t < c->tx_count; t++) {
        c->counts.reads += c->txs[t].read_count;
        c->counts.writes += c->txs[t].write_count;
    }
    if (build_versions(c) && check_writes(c, graph) && check_reads(c, graph) && (!graph || check_acyclic(c)) &&
        check_final(c, read_final, context))
        return NULL;
    return c->error;
}
