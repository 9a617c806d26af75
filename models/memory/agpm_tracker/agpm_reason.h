/* agpm_reason: AGPM's statistics-based reasoning (the paper's Table III), a
 * pure function of the ten Table II variables and whether the kernel uses
 * shared memory. */
#ifndef SIMTX_AGPM_REASON_H
#define SIMTX_AGPM_REASON_H

#include <stdbool.h>
#include <stdint.h>

#include "agpm.h"

/* Table II's variables over one period (agpm_buffer_sums at each level). */
typedef struct agpm_vars {
    uint64_t l1d_t_all, l1d_s_all, l1d_t_log, l1d_s_log;
    uint64_t l2_t_all, l2_s_all, l2_t_log, l2_s_log;
    uint64_t all, log; /* memory accesses and log updates of the period */
} agpm_vars;

/* The thresholds Table III names. */
typedef struct agpm_rules {
    double ratio;      /* b/d: l1d_t(s)_log / l1d_t(s)_all above it is b (paper: 0.25) */
    uint64_t few_logs; /* e: at most this many log updates (paper: 100) */
} agpm_rules;

/* Precedence (the paper gives none): e, then h, then a, b, c, d, f, g,
 * which are mutually exclusive; no match is AGPM_REASON_NONE (the paper:
 * "no locality: the non-temporal path is recommended"). With it Table II's
 * 22 rows get exactly the paper's reasons (h before the locality rules or
 * NW would be b; e before them or BFS would be a). b versus d: b when either
 * ratio (temporal or spatial) exceeds rules->ratio (the paper's "t(s)";
 * Table II's rows agree on both). */
agpm_reason agpm_classify(const agpm_vars *v, bool shared_memory, const agpm_rules *rules);

/* The path a reason calls for: temporal for a, c, d, g; non-temporal for
 * b, e, f, h and no reason (section IV). */
agpm_path agpm_reason_path(agpm_reason reason);

/* 'a'..'h', or '-' for none. */
char agpm_reason_letter(agpm_reason reason);

/* Table I's type of a reason as the paper prints it: "I", "II", "III",
 * "II, III" (f) or "-". */
const char *agpm_reason_type(agpm_reason reason);

/* Whether the buffers show any temporal locality (l1d_t_all or l2_t_all
 * not 0): the Themis baseline's test. */
static inline bool agpm_vars_temporal(const agpm_vars *v) { return v->l1d_t_all || v->l2_t_all; }

#endif
