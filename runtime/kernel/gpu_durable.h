/* gpu_durable.h: CTA-level durable transactions (undo logging) for kernels
 * writing the persistent window, after Figure 1 of the AGPM paper
 * (../shared/papers/agpm_durable-transactions-gpu-pm.txt, section II-A):
 *
 *     gpu_durable_tx tx = gpu_durable_open(&args->region, args->path);
 *     gpu_durable_log(&tx, &out[i]);        // each output's old value, persisted
 *     gpu_durable_begin(&tx);               // barrier; state IN_TX, persisted; barrier
 *     gpu_durable_store(&tx, &out[i], v);   // store, clwb, sfence (as often as needed)
 *     gpu_durable_commit(&tx);              // barrier; state COMPLETE, persisted
 *     gpu_durable_next(&tx);                // before another transaction on tx: barrier
 *
 * Every thread of the CTA that has not exited must make the begin and commit
 * calls (they hold barriers), thread 0 among them (it writes the state); the
 * calls may sit after divergent code (a barrier counts threads, not warps:
 * docs/sdk.md, "Barriers"). A thread that returns before them must write no
 * durable data. A thread logs at most region.entries words per transaction
 * (more are a fault: the kernel writes outside the log). A CTA may run
 * several transactions one after another with the same tx, with a
 * gpu_durable_next call by every thread between two of them: its barrier
 * keeps the next transaction's log entries from overwriting the committed
 * one's before COMPLETE is durable (else a failure in between would roll the
 * committed data back with the next transaction's old values); a log or
 * begin call after a commit without it is a fault (a trap, on every path,
 * so a crash-free run finds it). A single transaction per CTA pays nothing
 * for this, as in Figure 1. The path (GPU_PERSIST_*, per
 * transaction) carries the log entries and the state word: NT as non-temporal
 * stores, CLWB as stores each followed by a clwb of its line, ADAPTIVE as
 * log updates (gpu_persist_log, the entry's address word by
 * gpu_persist_log_name) whose path the hardware chooses per request
 * (AGPM's path selector; non-temporal where none sits); data always goes
 * store + clwb. NONE runs the same kernel without persistence (no log,
 * no state, no barriers added, plain stores): the paper's base.
 *
 * Ordering (what recovery relies on; runtime/durable_recovery.h rolls back
 * every CTA whose state is IN_TX in the durable image):
 * 1. each thread's log entries, and an end mark after them (address 0)
 *    when it logged fewer than region.entries, are durable (sfence) before
 *    the begin barrier, so IN_TX is never durable without the whole CTA's
 *    log, and recovery never applies an older transaction's entries left
 *    past a thread's last one;
 * 2. IN_TX is durable (sfence) before the barrier after it, so no data
 *    update becomes durable while the state still says IDLE (Figure 1 has
 *    no barrier here; without it another warp's data could reach the
 *    persistent domain before the state);
 * 3. each data update is durable (clwb, sfence) before the commit barrier,
 *    so COMPLETE is never durable without all the CTA's data;
 * 4. COMPLETE is durable (sfence) before gpu_durable_next's barrier, so no
 *    later transaction's log entry overwrites this one's first.
 * sfence orders the calling warp's persists only; the barriers extend the
 * order to the CTA.
 *
 * Deliberately broken builds, for the crash campaign to catch (compile the
 * kernel with one defined): GPU_DURABLE_BROKEN_NO_SFENCE drops every sfence;
 * GPU_DURABLE_BROKEN_DATA_BEFORE_LOG writes the log without persisting it and
 * persists it only at commit, after the data; GPU_DURABLE_BROKEN_REUSED_LOG
 * drops the end mark and gpu_durable_next's barrier (orderings 1's end
 * mark and 4: gpu_durable_next has no barrier, so a CTA's later transactions
 * tear its earlier ones). */
#ifndef SIMTX_GPU_DURABLE_H
#define SIMTX_GPU_DURABLE_H

#include "gpu.h"
#include "gpu_durable_layout.h"

typedef struct gpu_durable_tx {
    uint32_t *first_entry; /* this thread's first log entry */
    uint32_t *next_entry;  /* its next one */
    uint32_t entry_stride; /* words between a thread's consecutive entries */
    uint32_t *last_entry;  /* one past this thread's last entry */
    uint32_t *state;       /* the CTA's state word */
    uint32_t path;
    uint32_t leader;       /* this thread is the CTA's thread 0 (writes the state) */
    uint32_t committed;    /* committed since the open or the last gpu_durable_next */
} gpu_durable_tx;

GPU_INLINE void gpu_durable_fence_(void)
{
#ifndef GPU_DURABLE_BROKEN_NO_SFENCE
    gpu_sfence();
#endif
}

/* Writes one word of the log or the state through the transaction's path. */
GPU_INLINE void gpu_durable_put_(uint32_t path, uint32_t *address, uint32_t value)
{
    if (path == GPU_PERSIST_NT) {
        gpu_store_nontemporal(address, value);
    } else if (path == GPU_PERSIST_ADAPTIVE) {
        gpu_persist_log(address, value);
    } else {
        *(volatile uint32_t *)address = value;
        gpu_clwb(address);
    }
}

GPU_INLINE gpu_durable_tx gpu_durable_open(const gpu_durable_region *region, uint32_t path)
{
    uint32_t thread = gpu_thread_x() + gpu_block_dim_x() * (gpu_thread_y() + gpu_block_dim_y() * gpu_thread_z());
    uint32_t cta = gpu_block_x() + gpu_grid_dim_x() * (gpu_block_y() + gpu_grid_dim_y() * gpu_block_z());
    uint32_t *first = (uint32_t *)(region->log + (cta * region->entries * region->threads + thread) * GPU_DURABLE_ENTRY_BYTES);
    gpu_durable_tx tx;
    tx.first_entry = first;
    tx.next_entry = first;
    tx.entry_stride = region->threads * (GPU_DURABLE_ENTRY_BYTES / 4);
    tx.last_entry = first + region->entries * tx.entry_stride;
    tx.state = (uint32_t *)(region->flags + cta * GPU_DURABLE_FLAG_STRIDE);
    tx.path = path;
    tx.leader = thread == 0;
    tx.committed = 0;
    return tx;
}

/* Logs the current value of *address (a persistent word this thread will
 * update) and persists the entry before returning. */
GPU_INLINE void gpu_durable_log(gpu_durable_tx *tx, const volatile uint32_t *address)
{
    if (tx->committed) __builtin_trap(); /* a new transaction without gpu_durable_next */
    if (tx->path == GPU_PERSIST_NONE) return;
    if (tx->next_entry == tx->last_entry) __builtin_trap(); /* more entries than the region holds */
    uint32_t *entry = tx->next_entry;
    tx->next_entry += tx->entry_stride;
    uint32_t old = *address;
#ifdef GPU_DURABLE_BROKEN_DATA_BEFORE_LOG
    ((volatile uint32_t *)entry)[0] = (uint32_t)address;
    ((volatile uint32_t *)entry)[1] = old;
#else
    if (tx->path == GPU_PERSIST_NT) {
        gpu_store_nontemporal(entry, (uint32_t)address);
        gpu_store_nontemporal(entry + 1, old);
    } else if (tx->path == GPU_PERSIST_ADAPTIVE) {
        gpu_persist_log_name(entry, address);
        gpu_persist_log(entry + 1, old);
    } else {
        ((volatile uint32_t *)entry)[0] = (uint32_t)address;
        ((volatile uint32_t *)entry)[1] = old;
        gpu_clwb(entry);
    }
    gpu_durable_fence_();
#endif
}

/* The CTA's logs are durable: mark it IN_TX (durably) before any data update. */
GPU_INLINE void gpu_durable_begin(gpu_durable_tx *tx)
{
    if (tx->committed) __builtin_trap(); /* a new transaction without gpu_durable_next */
    if (tx->path == GPU_PERSIST_NONE) return;
#ifndef GPU_DURABLE_BROKEN_REUSED_LOG
    if (tx->next_entry != tx->last_entry) { /* the end of this thread's entries */
#ifdef GPU_DURABLE_BROKEN_DATA_BEFORE_LOG
        *(volatile uint32_t *)tx->next_entry = 0;
#else
        gpu_durable_put_(tx->path, tx->next_entry, 0);
        gpu_durable_fence_();
#endif
    }
#endif
    gpu_sync_threads();
    if (tx->leader) {
        gpu_durable_put_(tx->path, tx->state, GPU_DURABLE_IN_TX);
        gpu_durable_fence_();
    }
    gpu_sync_threads();
}

/* Updates a persistent word and persists it (store, clwb, sfence). */
GPU_INLINE void gpu_durable_store(gpu_durable_tx *tx, volatile uint32_t *address, uint32_t value)
{
    *address = value;
    if (tx->path == GPU_PERSIST_NONE) return;
    gpu_clwb((const void *)address);
    gpu_durable_fence_();
}

/* Every thread's data is durable: mark the CTA COMPLETE (durably). */
GPU_INLINE void gpu_durable_commit(gpu_durable_tx *tx)
{
    tx->committed = 1;
    if (tx->path == GPU_PERSIST_NONE) return;
#ifdef GPU_DURABLE_BROKEN_DATA_BEFORE_LOG
    /* The bug under test: the log reaches the persistent domain only now. */
    for (uint32_t *entry = tx->first_entry; entry != tx->next_entry; entry += tx->entry_stride) gpu_clwb(entry);
    gpu_sfence();
#endif
    gpu_sync_threads();
    if (tx->leader) {
        gpu_durable_put_(tx->path, tx->state, GPU_DURABLE_COMPLETE);
        gpu_durable_fence_();
    }
}

/* Between two transactions on tx (every thread that has not exited calls it:
 * it holds a barrier): the committed transaction's COMPLETE is durable
 * before any thread logs again, and the log starts over. */
GPU_INLINE void gpu_durable_next(gpu_durable_tx *tx)
{
    tx->committed = 0;
    if (tx->path == GPU_PERSIST_NONE) return;
#ifndef GPU_DURABLE_BROKEN_REUSED_LOG
    gpu_sync_threads();
#endif
    tx->next_entry = tx->first_entry;
}

#endif
