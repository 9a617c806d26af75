/* agpm_policy: the path selector's policy slot, one file per policy
 * (agpm_policy_*.c), chosen once at creation by the `policy` parameter. A
 * policy owns its state; the selector asks it the path of each log update
 * and whether a plain persistent write goes non-temporal, and hands it the
 * tracker's decisions. */
#ifndef SIMTX_AGPM_POLICY_H
#define SIMTX_AGPM_POLICY_H

#include <stdbool.h>

#include "agpm.h"
#include "agpm_selector.h"

typedef struct agpm_policy {
    const char *name;
    /* Reads the tracker's decisions (needs the decision socket bound). */
    bool uses_tracker;
    /* Its state (freed with free), or NULL when out of memory. */
    void *(*create)(const agpm_selector_params *params);
    /* The path of a log update (write: the mem.h WRITE as it arrived). */
    agpm_path (*log_path)(void *state, const simtx_msg *write);
    /* Optional: whether a persistent write that is no log update goes
     * non-temporal (its clwb then dropped); NULL: never. */
    bool (*data_non_temporal)(void *state, const simtx_msg *write);
    /* Optional: the tracker's AGPM_DECISION; NULL: ignored. */
    void (*decide)(void *state, const simtx_msg *decision);
} agpm_policy;

extern const agpm_policy agpm_policy_nt, agpm_policy_clwb, agpm_policy_agpm, agpm_policy_themis, agpm_policy_pmem_spec,
    agpm_policy_bucl;

/* The state of the policies that follow one path until told otherwise. */
typedef struct agpm_policy_path_state {
    agpm_path path;
} agpm_policy_path_state;
void *agpm_policy_path_create(const agpm_selector_params *params);

#endif
