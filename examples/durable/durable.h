/* What the durable example's kernel and host plugin share: the kernel's
 * arguments. Include it after gpu_durable.h (kernel) or
 * <simtx/durable_recovery.h> (host): both define gpu_durable_region. */
#ifndef DURABLE_EXAMPLE_H
#define DURABLE_EXAMPLE_H

#include <stdint.h>

struct durable_args {
    gpu_durable_region region; /* the undo log and the CTAs' state words */
    uint32_t path;             /* GPU_PERSIST_NT or GPU_PERSIST_CLWB: how the log persists */
    uint32_t balances;         /* n words in the persistent window */
    uint32_t n;
};

/* Element i after its CTA's transaction: what the host oracle expects. */
static inline uint32_t durable_updated(uint32_t old, uint32_t i) { return old * 3u + i; }

#endif
