/* AGPM: the path the tracker's classifier chose for the period (Table III:
 * temporal for reasons a, c, d, g; non-temporal otherwise), from the
 * selector's initial_path until the first decision. */
#include "agpm_policy.h"

static agpm_path current(void *state, const simtx_msg *write)
{
    (void)write;
    return ((agpm_policy_path_state *)state)->path;
}

static void decide(void *state, const simtx_msg *decision) { ((agpm_policy_path_state *)state)->path = agpm_decision_path(decision); }

const agpm_policy agpm_policy_agpm = {"agpm", true, agpm_policy_path_create, current, NULL, decide};
