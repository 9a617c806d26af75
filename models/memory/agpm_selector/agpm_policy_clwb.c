/* clwb: every log update temporal (the paper's store+clwb baseline): the
 * write through the caches, then a clean of its line. */
#include "agpm_policy.h"

static agpm_path always_temporal(void *state, const simtx_msg *write)
{
    (void)state, (void)write;
    return AGPM_PATH_TEMPORAL;
}

const agpm_policy agpm_policy_clwb = {"clwb", false, agpm_policy_path_create, always_temporal, NULL, NULL};
