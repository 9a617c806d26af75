#include "simtx_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct simtx_observer {
    char *prefix;
    simtx_stat_entry *stats;
    size_t stat_count, stat_capacity;
    simtx_probe_entry *probes;
    size_t probe_count, probe_capacity;
    simtx_energy_entry *energy;
    size_t energy_count, energy_capacity;
};

static void *grow(void *array, size_t *capacity, size_t count, size_t element_size)
{
    if (count < *capacity) return array;
    size_t next = *capacity ? *capacity * 2 : 16;
    void *bigger = realloc(array, next * element_size);
    if (!bigger) abort(); /* out of memory while building the platform */
    *capacity = next;
    return bigger;
}

static char *full_name(const simtx_observer *o, const char *name)
{
    size_t prefix_length = o->prefix ? strlen(o->prefix) + 1 : 0;
    char *text = malloc(prefix_length + strlen(name) + 1);
    if (!text) abort();
    if (prefix_length) {
        memcpy(text, o->prefix, prefix_length - 1);
        text[prefix_length - 1] = '.';
    }
    strcpy(text + prefix_length, name);
    return text;
}

simtx_observer *simtx_observer_create(void)
{
    simtx_observer *o = calloc(1, sizeof *o);
    if (!o) abort();
    return o;
}

void simtx_observer_destroy(simtx_observer *o)
{
    if (!o) return;
    for (size_t i = 0; i < o->stat_count; i++) free(o->stats[i].name);
    for (size_t i = 0; i < o->probe_count; i++) free(o->probes[i].name);
    for (size_t i = 0; i < o->energy_count; i++) free(o->energy[i].name);
    free(o->energy);
    free(o->stats);
    free(o->probes);
    free(o->prefix);
    free(o);
}

void simtx_observer_set_prefix(simtx_observer *o, const char *prefix)
{
    if (!o) return;
    free(o->prefix);
    o->prefix = prefix && prefix[0] ? strdup(prefix) : NULL;
}

static void add_stat(simtx_observer *o, const char *name, simtx_stat_kind kind, const void *value,
                     const char *unit, const char *doc)
{
    if (!o) return;
    o->stats = grow(o->stats, &o->stat_capacity, o->stat_count, sizeof *o->stats);
    o->stats[o->stat_count++] = (simtx_stat_entry){full_name(o, name), kind, value, unit ? unit : "", doc ? doc : ""};
}

void simtx_observe_counter(simtx_observer *o, const char *name, const uint64_t *value, const char *unit, const char *doc)
{
    add_stat(o, name, SIMTX_STAT_COUNTER, value, unit, doc);
}
void simtx_observe_real(simtx_observer *o, const char *name, const double *value, const char *unit, const char *doc)
{
    add_stat(o, name, SIMTX_STAT_REAL, value, unit, doc);
}
void simtx_observe_average(simtx_observer *o, const char *name, const simtx_average *value, const char *unit, const char *doc)
{
    add_stat(o, name, SIMTX_STAT_AVERAGE, value, unit, doc);
}
void simtx_observe_histogram(simtx_observer *o, const char *name, const simtx_histogram *value, const char *unit, const char *doc)
{
    add_stat(o, name, SIMTX_STAT_HISTOGRAM, value, unit, doc);
}

static simtx_probe_entry *add_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width, const char *doc)
{
    o->probes = grow(o->probes, &o->probe_capacity, o->probe_count, sizeof *o->probes);
    simtx_probe_entry *probe = &o->probes[o->probe_count++];
    *probe = (simtx_probe_entry){full_name(o, name), value, width ? width : 1, doc ? doc : "", SIMTX_PROBE_NUMBER, NULL, 0, 0};
    return probe;
}

void simtx_observe_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width, const char *doc)
{
    if (o) add_probe(o, name, value, width, doc);
}

void simtx_observe_enum_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width,
                              const char *const *names, unsigned count, const char *doc)
{
    if (!o) return;
    simtx_probe_entry *probe = add_probe(o, name, value, width, doc);
    probe->kind = SIMTX_PROBE_ENUM;
    probe->value_names = names;
    probe->value_name_count = count;
}

void simtx_observe_level_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width,
                               uint64_t maximum, const char *doc)
{
    if (!o) return;
    simtx_probe_entry *probe = add_probe(o, name, value, width, doc);
    probe->kind = SIMTX_PROBE_LEVEL;
    probe->level_maximum = maximum;
}

void simtx_observe_energy(simtx_observer *o, const char *event, const uint64_t *count, const char *doc)
{
    if (!o) return;
    o->energy = grow(o->energy, &o->energy_capacity, o->energy_count, sizeof *o->energy);
    o->energy[o->energy_count++] = (simtx_energy_entry){full_name(o, event), count, doc ? doc : ""};
}

size_t simtx_observer_energy_count(const simtx_observer *o) { return o ? o->energy_count : 0; }
const simtx_energy_entry *simtx_observer_energy(const simtx_observer *o, size_t i) { return &o->energy[i]; }
size_t simtx_observer_stat_count(const simtx_observer *o) { return o ? o->stat_count : 0; }
const simtx_stat_entry *simtx_observer_stat(const simtx_observer *o, size_t i) { return &o->stats[i]; }
size_t simtx_observer_probe_count(const simtx_observer *o) { return o ? o->probe_count : 0; }
const simtx_probe_entry *simtx_observer_probe(const simtx_observer *o, size_t i) { return &o->probes[i]; }

const simtx_stat_entry *simtx_observer_find_stat(const simtx_observer *o, const char *name)
{
    for (size_t i = 0; o && i < o->stat_count; i++)
        if (strcmp(o->stats[i].name, name) == 0) return &o->stats[i];
    return NULL;
}

double simtx_histogram_mean(const simtx_histogram *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/* Doubles are printed with %.17g: exact and deterministic. JSON has no
 * infinities or NaN; they become null. */
static void write_real(FILE *out, double value)
{
    if (value != value || value > 1.7976931348623157e308 || value < -1.7976931348623157e308) fputs("null", out);
    else fprintf(out, "%.17g", value);
}

void simtx_stats_write_json_members(const simtx_observer *o, FILE *out, int indent)
{
    for (size_t i = 0; i < simtx_observer_stat_count(o); i++) {
        const simtx_stat_entry *e = &o->stats[i];
        fprintf(out, "%s%*s\"%s\": ", i ? ",\n" : "", indent, "", e->name);
        switch (e->kind) {
        case SIMTX_STAT_COUNTER: fprintf(out, "%" PRIu64, *(const uint64_t *)e->value); break;
        case SIMTX_STAT_REAL: write_real(out, *(const double *)e->value); break;
        case SIMTX_STAT_AVERAGE: {
            const simtx_average *a = e->value;
            fprintf(out, "{\"mean\": ");
            write_real(out, simtx_average_mean(a));
            fprintf(out, ", \"count\": %" PRIu64 "}", a->count);
            break;
        }
        case SIMTX_STAT_HISTOGRAM: {
            const simtx_histogram *h = e->value;
            fprintf(out, "{\"count\": %" PRIu64 ", \"mean\": ", h->count);
            write_real(out, simtx_histogram_mean(h));
            fprintf(out, ", \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"log2_buckets\": [", h->minimum, h->maximum);
            unsigned last = 0;
            for (unsigned b = 0; b < SIMTX_HISTOGRAM_BUCKETS; b++)
                if (h->buckets[b]) last = b + 1;
            for (unsigned b = 0; b < last; b++) fprintf(out, "%s%" PRIu64, b ? ", " : "", h->buckets[b]);
            fprintf(out, "]}");
            break;
        }
        }
    }
    if (simtx_observer_stat_count(o)) fputc('\n', out);
}

void simtx_stats_write_text(const simtx_observer *o, FILE *out)
{
    size_t width = 0;
    for (size_t i = 0; i < simtx_observer_stat_count(o); i++) {
        size_t n = strlen(o->stats[i].name);
        if (n > width) width = n;
    }
    for (size_t i = 0; i < simtx_observer_stat_count(o); i++) {
        const simtx_stat_entry *e = &o->stats[i];
        char value[96];
        switch (e->kind) {
        case SIMTX_STAT_COUNTER: snprintf(value, sizeof value, "%" PRIu64, *(const uint64_t *)e->value); break;
        case SIMTX_STAT_REAL: snprintf(value, sizeof value, "%.6g", *(const double *)e->value); break;
        case SIMTX_STAT_AVERAGE: {
            const simtx_average *a = e->value;
            snprintf(value, sizeof value, "%.6g (n=%" PRIu64 ")", simtx_average_mean(a), a->count);
            break;
        }
        case SIMTX_STAT_HISTOGRAM: {
            const simtx_histogram *h = e->value;
            snprintf(value, sizeof value, "%.6g (n=%" PRIu64 ", %" PRIu64 "..%" PRIu64 ")", simtx_histogram_mean(h),
                     h->count, h->minimum, h->maximum);
            break;
        }
        }
        fprintf(out, "  %-*s  %24s  %s\n", (int)width, e->name, value, e->unit);
    }
}
