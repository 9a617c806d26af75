/* The plain policy: shared memory as the SIMT core had it built in. */
#include <string.h>

#include "lds_banks.h"
#include "lds_policy.h"

static unsigned plain_bank_cycles(void *state, const lds_geometry *geometry, const lds_request *request)
{
    (void)state;
    return lds_banks_conflict_degree(request->offsets, request->lanes, geometry->banks, geometry->bank_width);
}

/* Fixed-size copies (inlined, unlike a copy of a run-time size). */
static inline uint32_t load_bytes(const uint8_t *bytes, unsigned size)
{
    uint32_t value = 0; /* zero-extended: the core sign-extends per instruction */
    if (size == 4) memcpy(&value, bytes, 4);
    else if (size == 2) memcpy(&value, bytes, 2);
    else value = bytes[0];
    return value;
}

static inline void store_bytes(uint8_t *bytes, const uint32_t *value, unsigned size)
{
    if (size == 4) memcpy(bytes, value, 4);
    else if (size == 2) memcpy(bytes, value, 2);
    else memcpy(bytes, value, 1);
}

static void plain_perform(void *state, uint8_t *storage, lds_request *request)
{
    (void)state;
    unsigned size = request->access_size;
    uint8_t *region = storage + request->base;
    for (uint64_t m = request->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        uint8_t *bytes = region + request->offsets[lane];
        uint32_t old = load_bytes(bytes, size);
        uint32_t result = old;
        if (request->op == SIMTX_OP_WRITE) {
            store_bytes(bytes, &request->data[lane], size);
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
}

const lds_policy lds_plain_policy = {
    .name = "plain",
    .bank_cycles = plain_bank_cycles,
    .perform = plain_perform,
};
