/* One lane's access to the LDS's bytes: what every policy does to a word
 * once it decided the lane may (plain: always). */
#ifndef SIMTX_LDS_LANE_H
#define SIMTX_LDS_LANE_H

#include <string.h>

#include "lds_policy.h"

/* Fixed-size copies (inlined, unlike a copy of a run-time size). */
static inline uint32_t lds_load_bytes(const uint8_t *bytes, unsigned size)
{
    uint32_t value = 0; /* zero-extended: the core sign-extends per instruction */
    if (size == 4) memcpy(&value, bytes, 4);
    else if (size == 2) memcpy(&value, bytes, 2);
    else value = bytes[0];
    return value;
}

static inline void lds_store_bytes(uint8_t *bytes, const uint32_t *value, unsigned size)
{
    if (size == 4) memcpy(bytes, value, 4);
    else if (size == 2) memcpy(bytes, value, 2);
    else memcpy(bytes, value, 1);
}

/* Lane `lane` of the request on the region's bytes: its result. */
static inline void lds_lane_access(uint8_t *region, lds_request *request, unsigned lane)
{
    unsigned size = request->access_size;
    uint8_t *bytes = region + request->offsets[lane];
    uint32_t old = lds_load_bytes(bytes, size);
    uint32_t result = old;
    if (request->op == SIMTX_OP_WRITE) {
        lds_store_bytes(bytes, &request->data[lane], size);
    } else if (request->op == SIMTX_OP_ATOMIC && request->kind == LDST_KIND_SC) {
        bool stored = old == request->expected[lane];
        if (stored) memcpy(bytes, &request->data[lane], 4);
        result = stored ? 0 : 1;
    } else if (request->op == SIMTX_OP_ATOMIC) {
        uint32_t updated = simtx_atomic_apply((simtx_atomic_op)request->atomic_op, old, request->data[lane],
                                              request->expected[lane]);
        memcpy(bytes, &updated, 4);
    }
    request->results[lane] = result;
}

#endif
