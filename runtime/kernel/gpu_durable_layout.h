/* gpu_durable_layout.h: the persistent state of CTA-level durable
 * transactions, shared by the device runtime (gpu_durable.h) and the host's
 * recovery (runtime/durable_recovery.h). Plain C, stdint only.
 *
 * A launch's transactions keep, in the persistent window:
 * - an undo log: for CTA c, entry k of thread t is two words {address, old
 *   value} at log + ((c * entries + k) * threads + t) * 8, so a warp's k-th
 *   entries are 256 consecutive bytes (two lines, one coalesced request);
 *   address 0 ends a thread's entries (the persistent window starts at
 *   0xa0000000, so no logged word has address 0): entries past it are an
 *   earlier transaction's;
 * - a state word per CTA at flags + c * GPU_DURABLE_FLAG_STRIDE: IDLE (never
 *   began, or rolled back), IN_TX (its log is durable, its data may be
 *   changing) or COMPLETE (all its data durable).
 * The host zeroes both before the launch. */
#ifndef SIMTX_GPU_DURABLE_LAYOUT_H
#define SIMTX_GPU_DURABLE_LAYOUT_H

#include <stdint.h>

/* The path a transaction's log updates (and its state word) take to the
 * persistent domain; data always takes store + clwb (the paper's two static
 * baselines). NONE: no persistence at all (the paper's base). */
#define GPU_PERSIST_NONE 0u
#define GPU_PERSIST_NT 1u   /* non-temporal store, bypassing the caches */
#define GPU_PERSIST_CLWB 2u /* store, then clwb of its line */
/* gpu_persist_log: a log update whose path the hardware chooses (a path
 * selector between the LD/ST unit and the L1, AGPM); non-temporal where
 * no selector sits. */
#define GPU_PERSIST_ADAPTIVE 3u

#define GPU_DURABLE_IDLE 0u
#define GPU_DURABLE_IN_TX 1u
#define GPU_DURABLE_COMPLETE 2u

/* One state word per 128-byte line: a CTA's clwb of its state carries no
 * other CTA's state (at the cost of 124 unused bytes per CTA). */
#define GPU_DURABLE_FLAG_STRIDE 128u
#define GPU_DURABLE_ENTRY_BYTES 8u

typedef struct gpu_durable_region {
    uint32_t log;     /* undo log base (persistent window) */
    uint32_t flags;   /* state words base (persistent window) */
    uint32_t entries; /* log entries per thread */
    uint32_t threads; /* threads per CTA */
} gpu_durable_region;

#endif
