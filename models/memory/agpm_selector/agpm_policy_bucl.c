/* BUCL (the paper's [36]): cache bypassing for un-coalesced accesses. A log
 * update goes non-temporal when its access made more than bucl_degree mem.h
 * requests after coalescing (the ldst_unit's count, in transaction_id of a
 * request outside transactions: mem.h), temporal otherwise. The paper gives
 * no threshold: the default 2 follows its Figure 4, where [1, 2] is
 * "perfectly coalesced". Its bypass on an L1 reservation failure is not
 * modelled (simtx's L1 refuses rather than fails, and the non-temporal path
 * crosses the same L1 port). */
#include <stdint.h>
#include <stdlib.h>

#include "agpm_policy.h"

typedef struct bucl_state {
    uint32_t degree;
} bucl_state;

static void *create(const agpm_selector_params *params)
{
    bucl_state *s = malloc(sizeof *s);
    if (s) s->degree = (uint32_t)params->bucl_degree;
    return s;
}

static agpm_path by_degree(void *state, const simtx_msg *write)
{
    return write->transaction_id > ((bucl_state *)state)->degree ? AGPM_PATH_NON_TEMPORAL : AGPM_PATH_TEMPORAL;
}

const agpm_policy agpm_policy_bucl = {"bucl", false, create, by_degree, NULL, NULL};
