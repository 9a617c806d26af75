/* nt: every log update non-temporal (the paper's nt-store baseline,
 * [27, 28]); data stays store + clwb. */
#include "agpm_policy.h"

static agpm_path always_nt(void *state, const simtx_msg *write)
{
    (void)state, (void)write;
    return AGPM_PATH_NON_TEMPORAL;
}

const agpm_policy agpm_policy_nt = {"nt", false, agpm_policy_path_create, always_nt, NULL, NULL};
