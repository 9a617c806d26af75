/* Themis (the paper's [27]) as the paper describes it: the temporal path
 * when the stores show temporal locality (the tracker's buffers: l1d_t_all
 * or l2_t_all not 0), the non-temporal one otherwise; the same periods as
 * AGPM. It has no notion of too strong locality (reason b). Its removal of
 * persist barriers is not modelled (worth about 1.5% on GPUs, [31]). */
#include "agpm_policy.h"

static agpm_path current(void *state, const simtx_msg *write)
{
    (void)write;
    return ((agpm_policy_path_state *)state)->path;
}

static void decide(void *state, const simtx_msg *decision)
{
    ((agpm_policy_path_state *)state)->path = agpm_decision_temporal(decision) ? AGPM_PATH_TEMPORAL : AGPM_PATH_NON_TEMPORAL;
}

const agpm_policy agpm_policy_themis = {"themis", true, agpm_policy_path_create, current, NULL, decide};
