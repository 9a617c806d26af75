/* PMEM-spec (the paper's [28]): every persistent write non-temporal, log
 * updates and data alike; loads untouched (cached). A data write's clwb is
 * then dropped by the selector (answered at once: the line holds nothing
 * dirty of that write). Its misspeculation handling is not modelled. */
#include <stdint.h>
#include <stdlib.h>

#include "agpm_policy.h"

typedef struct pmem_spec_state {
    uint64_t base, size;
} pmem_spec_state;

static void *create(const agpm_selector_params *params)
{
    pmem_spec_state *s = malloc(sizeof *s);
    if (s) {
        s->base = (uint64_t)params->persistent_base;
        s->size = (uint64_t)params->persistent_size;
    }
    return s;
}

static agpm_path always_nt(void *state, const simtx_msg *write)
{
    (void)state, (void)write;
    return AGPM_PATH_NON_TEMPORAL;
}

static bool persistent(void *state, const simtx_msg *write)
{
    const pmem_spec_state *s = state;
    return write->address - s->base < s->size;
}

const agpm_policy agpm_policy_pmem_spec = {"pmem_spec", false, create, always_nt, persistent, NULL};
