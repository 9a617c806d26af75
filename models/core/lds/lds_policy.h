/* The LDS's access policy slot: how a checked request acts on the storage
 * and how long it holds the banks. Chosen once at create by the `policy`
 * parameter; the block's request path never asks which policy it runs.
 *
 *   plain    (lds_plain.c) shared memory as the SIMT core had it: distinct
 *            words per bank serialise, loads/stores/atomics/lr/sc in place.
 *
 * GPU-LocalTM (shared/papers/gpu-localtm.txt, section 3) is the next
 * policy, in a file of its own: per-bank, per-work-item Bloom filters
 * (8 bits, address % 8) for fast conflict detection, per-bank shadow memory
 * of <owner, value> pairs inside the CTA's region for eager version
 * management, the transaction conflict mask (TCM) of the lanes that met a
 * conflict, and per-lane serialisation of transactional accesses (one
 * work-item per bank at a time, so its `bank_cycles` counts lanes rather
 * than distinct words). Its state lives behind `state`; `clear` drops a
 * CTA's filters and shadow entries at dispatch; requests carrying the
 * message layer's transactional flag take the transactional path, others
 * the plain one. The TCM goes back to the core in the response (its field
 * is to be defined in ldst.h with that design). */
#ifndef SIMTX_LDS_POLICY_H
#define SIMTX_LDS_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lds.h"
#include "ldst.h"

/* A request reassembled from its beats and checked: every active lane's
 * access lies in the window and is aligned, the op is served. */
typedef struct lds_request {
    uint8_t op;         /* SIMTX_OP_READ, WRITE or ATOMIC */
    uint8_t atomic_op;  /* simtx_atomic_op, for SIMTX_OP_ATOMIC */
    uint8_t kind;       /* ldst_kind: plain, lr or sc */
    uint8_t access_size;
    uint32_t base;      /* the CTA's region in the storage */
    uint64_t lanes;
    int32_t warp, cta;
    uint32_t offsets[LDST_MAX_LANES];  /* into the region */
    uint32_t data[LDST_MAX_LANES];     /* store data, atomic operands */
    uint32_t expected[LDST_MAX_LANES]; /* CAS and sc */
    uint32_t results[LDST_MAX_LANES];  /* out: the lanes' values of rd */
} lds_request;

/* What a policy may read of the block's configuration. */
typedef struct lds_geometry {
    uint32_t size, banks, bank_width;
} lds_geometry;

typedef struct lds_policy {
    const char *name;
    /* Optional: the policy's own state (NULL: none); on failure returns
     * false with a message naming the parameter. */
    bool (*create)(void **state, const lds_params *params, char *error, size_t error_size);
    void (*destroy)(void *state);
    /* Cycles the request holds the banks (at least 1 for a request with
     * lanes). */
    unsigned (*bank_cycles)(void *state, const lds_geometry *geometry, const lds_request *request);
    /* Performs the request on storage (the whole LDS) in ascending lane
     * order and writes every active lane's result. */
    void (*perform)(void *state, uint8_t *storage, lds_request *request);
    /* Optional: a CTA's region [base, base + size) was zeroed (dispatch). */
    void (*clear)(void *state, uint32_t base, uint32_t size);
} lds_policy;

extern const lds_policy lds_plain_policy;

#endif
