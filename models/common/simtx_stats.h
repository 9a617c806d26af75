/* Statistics and probes. A core keeps its counters in its own struct and
 * registers pointers to them with the observer at creation; the observer
 * writes JSON and a text summary at the end of a run, and hands probes to the
 * waveform writer. A NULL observer ignores registrations (plain C tests). */
#ifndef SIMTX_STATS_H
#define SIMTX_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simtx_average {
    double sum;
    uint64_t count;
} simtx_average;

/* A level averaged over time (queue or MSHR occupancy): each value counts
 * for the cycles it was held, so the mean does not depend on how often the
 * block happened to be ticked. Register `average` with
 * simtx_observe_average; close it in the block's finish(). */
typedef struct simtx_time_average {
    simtx_average average; /* sum of level x cycles, and cycles */
    double level;
    uint64_t since;
} simtx_time_average;

/* Log2 buckets: bucket 0 holds value 0, bucket i holds [2^(i-1), 2^i). */
#define SIMTX_HISTOGRAM_BUCKETS 40
typedef struct simtx_histogram {
    uint64_t count, sum, minimum, maximum;
    uint64_t buckets[SIMTX_HISTOGRAM_BUCKETS];
} simtx_histogram;

typedef enum simtx_stat_kind {
    SIMTX_STAT_COUNTER,  /* const uint64_t * */
    SIMTX_STAT_REAL,     /* const double *, usually derived in finish() */
    SIMTX_STAT_AVERAGE,  /* const simtx_average * */
    SIMTX_STAT_HISTOGRAM /* const simtx_histogram * */
} simtx_stat_kind;

typedef struct simtx_stat_entry {
    char *name; /* "instance.statistic" */
    simtx_stat_kind kind;
    const void *value;
    const char *unit;
    const char *doc;
} simtx_stat_entry;

/* How a waveform shows a probe: a number, a name per value (an
 * enumeration: value i is value_names[i]), or a level drawn as an analog
 * step trace (a queue depth or occupancy, 0..level_maximum when known). */
typedef enum simtx_probe_kind {
    SIMTX_PROBE_NUMBER,
    SIMTX_PROBE_ENUM,
    SIMTX_PROBE_LEVEL
} simtx_probe_kind;

typedef struct simtx_probe_entry {
    char *name;
    const uint64_t *value;
    unsigned width; /* bits shown in waveforms */
    const char *doc;
    simtx_probe_kind kind;
    const char *const *value_names; /* SIMTX_PROBE_ENUM: static storage */
    unsigned value_name_count;
    uint64_t level_maximum; /* SIMTX_PROBE_LEVEL: 0 when unknown */
} simtx_probe_entry;

/* An energy event (docs/adding-a-design.md, Energy): something the block
 * does whose energy the platform's technology file prices, named by the
 * block ("read_hit") and counted by a counter of the block, usually one
 * of its statistics. Not a statistic itself: it appears in the energy
 * report (and `simtx describe`), not among the statistics. */
typedef struct simtx_energy_entry {
    char *name; /* "instance.event" */
    const uint64_t *count;
    const char *doc;
} simtx_energy_entry;

typedef struct simtx_observer simtx_observer;

simtx_observer *simtx_observer_create(void);
void simtx_observer_destroy(simtx_observer *observer);
/* Names registered from now on are prefixed with "prefix.". */
void simtx_observer_set_prefix(simtx_observer *observer, const char *prefix);

void simtx_observe_counter(simtx_observer *o, const char *name, const uint64_t *value, const char *unit, const char *doc);
void simtx_observe_real(simtx_observer *o, const char *name, const double *value, const char *unit, const char *doc);
void simtx_observe_average(simtx_observer *o, const char *name, const simtx_average *value, const char *unit, const char *doc);
void simtx_observe_histogram(simtx_observer *o, const char *name, const simtx_histogram *value, const char *unit, const char *doc);
void simtx_observe_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width, const char *doc);
/* An enumeration: names[i] (static storage, count entries) names value i. */
void simtx_observe_enum_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width,
                              const char *const *names, unsigned count, const char *doc);
/* A level (queue depth, occupancy) between 0 and maximum (0: unknown). */
void simtx_observe_level_probe(simtx_observer *o, const char *name, const uint64_t *value, unsigned width,
                               uint64_t maximum, const char *doc);

/* Names an energy event and the counter that counts it (it may also be
 * registered as a statistic). The technology file gives its energy per
 * count under "<block type>.<event>". */
void simtx_observe_energy(simtx_observer *o, const char *event, const uint64_t *count, const char *doc);

size_t simtx_observer_stat_count(const simtx_observer *o);
const simtx_stat_entry *simtx_observer_stat(const simtx_observer *o, size_t index);
size_t simtx_observer_probe_count(const simtx_observer *o);
const simtx_probe_entry *simtx_observer_probe(const simtx_observer *o, size_t index);
const simtx_stat_entry *simtx_observer_find_stat(const simtx_observer *o, const char *name);
size_t simtx_observer_energy_count(const simtx_observer *o);
const simtx_energy_entry *simtx_observer_energy(const simtx_observer *o, size_t index);

/* JSON object members ("name": value,...) at the given indent, no braces. */
void simtx_stats_write_json_members(const simtx_observer *o, FILE *out, int indent);
/* Aligned "name  value  unit" lines. */
void simtx_stats_write_text(const simtx_observer *o, FILE *out);

static inline void simtx_average_add(simtx_average *a, double value)
{
    a->sum += value;
    a->count++;
}
static inline double simtx_average_mean(const simtx_average *a)
{
    return a->count ? a->sum / (double)a->count : 0.0;
}
/* The level becomes `level` at cycle now (now never decreases). */
static inline void simtx_time_average_set(simtx_time_average *t, double level, uint64_t now)
{
    t->average.sum += t->level * (double)(now - t->since);
    t->average.count += now - t->since;
    t->since = now;
    t->level = level;
}
/* Accounts the current level up to cycle now (end of run). */
static inline void simtx_time_average_close(simtx_time_average *t, uint64_t now)
{
    simtx_time_average_set(t, t->level, now);
}
/* The bucket a value falls in (for a block that tallies its values and
 * fills the buckets from the tally at finish). */
static inline unsigned simtx_histogram_bucket(uint64_t value)
{
    unsigned bucket = 0;
    if (value) bucket = 64u - (unsigned)__builtin_clzll(value);
    return bucket < SIMTX_HISTOGRAM_BUCKETS ? bucket : SIMTX_HISTOGRAM_BUCKETS - 1;
}
/* Inline: blocks add a sample per instruction or request. */
static inline void simtx_histogram_add(simtx_histogram *h, uint64_t value)
{
    h->buckets[simtx_histogram_bucket(value)]++;
    if (h->count == 0 || value < h->minimum) h->minimum = value;
    if (value > h->maximum) h->maximum = value;
    h->count++;
    h->sum += value;
}
double simtx_histogram_mean(const simtx_histogram *h);

#ifdef __cplusplus
}
#endif
#endif
