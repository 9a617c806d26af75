/* gpu_localtm.h: a work-group's GPU-LocalTM region (shared/papers/
 * gpu-localtm.txt, section 3.2), for kernels and for the host programs that
 * size their launches. Plain C, stdint only.
 *
 * On a platform whose lds runs the `localtm` policy (platforms/
 * si_localtm.lua), every shared-memory access a work-item makes between
 * gpu_tx_begin() and gpu_tx_commit() (gpu.h) is transactional: the lds
 * versions it eagerly in shadow memory and detects conflicts with per-bank,
 * per-work-item Bloom filters; a conflicting work-item stops at once and
 * re-runs the transaction from gpu_tx_begin(). Global accesses inside such a
 * transaction stay plain, as in the paper.
 *
 * The shadow memory lies in the CTA's shared window itself, as the paper's
 * compiler allocates it: for N transactional data words the window holds
 *
 *   [0, 4N)    the N data words (the only words a transaction may access)
 *   [4N, 8N)   the N backup words (word k's backup at word k + N)
 *   [8N, 9N)   the N owner bytes (word k's owner at byte 8N + k)
 *
 * so a work-group needs GPU_LOCALTM_REGION_BYTES(N) = 9N bytes, and the lds
 * derives N from the window: N = floor(window / 9). The window is the whole
 * of the CTA's shared memory (static .shared variables plus the launch's
 * dynamic bytes, rounded up to a word), so a LocalTM kernel declares no
 * other shared variable: one GPU_LOCALTM_REGION, or dynamic shared memory
 * of GPU_LOCALTM_REGION_BYTES(N) bytes at GPU_SHARED_BASE. A transactional
 * access outside the data words is an address error naming lane and pc;
 * the backups and owners belong to the hardware (a kernel never touches
 * them, outside transactions either). Outside transactions the data words
 * are plain shared memory.
 *
 * Limits (section 4.3): at most GPU_LOCALTM_MAX_WORK_ITEMS work-items per
 * work-group (an owner is one byte), and a 64 KiB LDS holds at most
 * floor(65536 / 9) = 7281 data words. Overflow cannot happen: every data
 * word has its backup slot.
 *
 * A kernel with a scalar loop index inside a transaction is fine here: the
 * core checkpoints every register of every lane at gpu_tx_begin (the
 * paper's compiler must promote such indices to vector registers). */
#ifndef SIMTX_GPU_LOCALTM_H
#define SIMTX_GPU_LOCALTM_H

#include <stdint.h>

/* Bytes of shared memory a work-group needs for n transactional words. */
#define GPU_LOCALTM_REGION_BYTES(n) (9u * (uint32_t)(n))
/* The transactional words a window of `bytes` holds (what the lds uses). */
#define GPU_LOCALTM_WORDS(bytes) ((uint32_t)(bytes) / 9u)
/* Byte offsets of word k's backup and owner in a region of n words. */
#define GPU_LOCALTM_BACKUP_OFFSET(n, k) (4u * (uint32_t)(n) + 4u * (uint32_t)(k))
#define GPU_LOCALTM_OWNER_OFFSET(n, k) (8u * (uint32_t)(n) + (uint32_t)(k))
/* Work-items per work-group an owner byte can name. */
#define GPU_LOCALTM_MAX_WORK_ITEMS 256u

#ifdef GPU_SHARED
/* A kernel's static LocalTM region of n data words (with gpu.h included):
 * `GPU_LOCALTM_REGION(table, 256);` then table[0 .. 255] are the data words.
 * It must be the kernel's only shared variable. */
#define GPU_LOCALTM_REGION(name, n) GPU_SHARED(uint32_t, name[(GPU_LOCALTM_REGION_BYTES(n) + 3u) / 4u])
/* The data words of a region held in dynamic shared memory (launched with
 * GPU_LOCALTM_REGION_BYTES(n) shared bytes and no static .shared). */
#define gpu_localtm_data() ((volatile uint32_t *)GPU_SHARED_BASE)
#endif

#endif
