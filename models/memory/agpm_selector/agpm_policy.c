/* What several policies share: the state of one current path. */
#include <stdlib.h>
#include <string.h>

#include "agpm_policy.h"

void *agpm_policy_path_create(const agpm_selector_params *params)
{
    agpm_policy_path_state *s = calloc(1, sizeof *s);
    if (s) s->path = strcmp(params->initial_path, "temporal") ? AGPM_PATH_NON_TEMPORAL : AGPM_PATH_TEMPORAL;
    return s;
}
