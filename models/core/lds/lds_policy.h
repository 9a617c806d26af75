/* The LDS's access policy slot: how a checked request acts on the storage
 * and how long it holds the banks, and (optionally) what the transaction
 * events of tx.h do. Chosen once at create by the `policy` parameter; the
 * block's request path never asks which policy it runs.
 *
 *   plain    (lds_plain.c) shared memory as the SIMT core had it: distinct
 *            words per bank serialise, loads/stores/atomics/lr/sc in place.
 *   localtm  (lds_localtm.c) GPU-LocalTM (shared/papers/gpu-localtm.txt,
 *            sections 3-4): per-bank, per-work-item Bloom filters, eager
 *            versioning in shadow memory inside the CTA's region, the
 *            transaction conflict mask (TCM) per wavefront, requester-loses
 *            conflicts, two-level serialisation, the paper's cycle costs.
 *
 * A policy without `tx_event` serves no transaction: the block answers the
 * TX family with a command error, as before. */
#ifndef SIMTX_LDS_POLICY_H
#define SIMTX_LDS_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lds.h"
#include "ldst.h"
#include "simtx_stats.h"
#include "tx.h"

/* A request reassembled from its beats and checked: every active lane's
 * access lies in the window the policy allows (access_window) and is
 * aligned, the op is served. */
typedef struct lds_request {
    uint8_t op;         /* SIMTX_OP_READ, WRITE or ATOMIC */
    uint8_t atomic_op;  /* simtx_atomic_op, for SIMTX_OP_ATOMIC */
    uint8_t kind;       /* ldst_kind: plain, lr or sc */
    uint8_t access_size;
    uint8_t flags;      /* the message layer's: SIMTX_FLAG_TRANSACTIONAL */
    uint32_t base;      /* the CTA's region in the storage */
    uint32_t window;    /* the CTA's shared bytes (ldst.h window size) */
    uint64_t lanes;
    int32_t warp, cta;
    /* Out, transactional requests: the lanes that stand in the warp's
     * conflict mask after the access (they conflicted now or earlier and
     * stop: the verdict tells the core, tx.h 2). */
    uint64_t aborted;
    /* Out: the aborted lanes re-run at the attempt's tx_commit, after an
     * empty walk when none runs on (tx.h TX_VERDICT_RETRY_AT_COMMIT). */
    bool retry_at_commit;
    /* Out: cycles the request's responses leave later without holding the
     * banks longer (added to its latency only). */
    unsigned added_latency;
    uint32_t offsets[LDST_MAX_LANES];  /* into the region */
    uint32_t data[LDST_MAX_LANES];     /* store data, atomic operands */
    uint32_t expected[LDST_MAX_LANES]; /* CAS and sc */
    uint32_t results[LDST_MAX_LANES];  /* out: the lanes' values of rd */
} lds_request;

/* What a policy may read of the block's configuration. */
typedef struct lds_geometry {
    uint32_t size, banks, bank_width;
} lds_geometry;

/* A tx.h event (TX_BEGIN, TX_COMMIT or TX_ROLLBACK) for a policy's
 * tx_event, and its answer. */
typedef struct lds_tx_event {
    uint8_t op;
    int32_t warp, cta;
    uint64_t lanes;
    uint64_t aux;          /* BEGIN: the attempt number (0: the lanes' first) */
    uint32_t first_thread; /* BEGIN: the warp's first thread in its CTA (tx.h) */
    /* Out. */
    unsigned cycles;       /* cycles the event takes before its answer (its latency; no bank is held) */
    bool hold;             /* BEGIN: answered later, through lds_policy_env.release */
    uint64_t held;         /* BEGIN: named lanes that do not run this attempt */
    bool consistent;       /* BEGIN: the attempt never reads inconsistent data (tx.h TX_BEGIN_CONSISTENT) */
    tx_outcome outcome;    /* COMMIT */
} lds_tx_event;

/* What the block gives a policy at create. */
typedef struct lds_policy_env {
    void *context;
    simtx_observer *observer; /* the block's: the policy's statistics and probes */
    void (*fail)(void *context, const char *message);
    /* A held TX_BEGIN of warp is answered now (the answer's held lanes,
     * bank cycles and consistent). */
    void (*release)(void *context, int32_t warp, const lds_tx_event *answer);
    /* Lanes of warp's running attempt (BEGIN's aux) left it outside the
     * warp's own accesses: a TX_ABORT (tx.h 6) on the tx_events socket. */
    void (*abort)(void *context, int32_t warp, int32_t cta, uint64_t lanes, uint32_t attempt);
    /* Commit records (lds.h): whether they are kept now, and one more. */
    bool (*recording)(void *context);
    void (*record)(void *context, uint32_t instance, const uint32_t *words, uint32_t reads, uint32_t writes);
} lds_policy_env;

typedef struct lds_policy {
    const char *name;
    /* Optional: the policy's own state (NULL: none); on failure returns
     * false with a message naming the parameter. */
    bool (*create)(void **state, const lds_params *params, const lds_geometry *geometry, const lds_policy_env *env,
                   char *error, size_t error_size);
    void (*destroy)(void *state);
    /* Optional: the bytes of the region a request's lanes may access
     * (default: its window); a lane beyond is an address error. */
    uint32_t (*access_window)(void *state, const lds_request *request);
    /* Performs the request on storage (the whole LDS) in ascending lane
     * order, writes every active lane's result, and returns the cycles the
     * request holds the banks (at least 1 for a request with lanes). */
    unsigned (*perform)(void *state, const lds_geometry *geometry, uint8_t *storage, lds_request *request);
    /* Optional: CTA slot cta's region [base, base + size) was zeroed
     * (dispatch). */
    void (*clear)(void *state, int32_t cta, uint32_t base, uint32_t size);
    /* Optional: a tx.h event; fills the answer. */
    void (*tx_event)(void *state, uint8_t *storage, lds_tx_event *event);
} lds_policy;

extern const lds_policy lds_plain_policy;
extern const lds_policy lds_localtm_policy;

#endif
