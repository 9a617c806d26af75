/* The plain policy: shared memory as the SIMT core had it built in. */
#include "lds_banks.h"
#include "lds_lane.h"
#include "lds_policy.h"

static unsigned plain_perform(void *state, const lds_geometry *geometry, uint8_t *storage, lds_request *request)
{
    (void)state;
    uint8_t *region = storage + request->base;
    for (uint64_t m = request->lanes; m; m &= m - 1) lds_lane_access(region, request, (unsigned)__builtin_ctzll(m));
    return lds_banks_conflict_degree(request->offsets, request->lanes, geometry->banks, geometry->bank_width);
}

const lds_policy lds_plain_policy = {
    .name = "plain",
    .perform = plain_perform,
};
