/* GPU-LocalTM workloads (shared/papers/gpu-localtm.txt, section 5.1):
 * argument blocks and LDS layouts shared by the kernels (RV32) and their
 * host programs. One work-group of `n` work-items; every transactional word
 * lies in the data part of the work-group's LocalTM region (words [0, N) of
 * a region of GPU_LOCALTM_REGION_BYTES(N) dynamic shared bytes: data, then
 * N backup words, then N owner bytes). N is rounded up to a multiple of 32
 * so that every data word's backup lies in its own bank. */
#ifndef SIMTX_LOCALTM_ARGS_H
#define SIMTX_LOCALTM_ARGS_H

#include <stdint.h>

#include "gpu_localtm.h"

#define LOCALTM_ROUND32(words) (((words) + 31u) & ~31u)
#define LOCALTM_MAX_WORK_ITEMS GPU_LOCALTM_MAX_WORK_ITEMS

/* HT: `buckets` buckets of n / buckets slots, slot s of bucket b at word
 * s * buckets + b (interleaved); 0 = empty, else work-item id + 1.
 * The serialization lock after the table. The kernel copies the table to
 * `table` and each work-item's slot (~0: none) to `placed` at its end. */
struct localtm_ht_args { uint32_t placed, table, n, buckets, slots, lock_word; };
#define LOCALTM_HT_WORDS(n) LOCALTM_ROUND32((n) + 1u)

/* KM: center c's sum of dimension d (d < 3, float) and its count (d = 3,
 * integer) at word 32 (4 floor(c / 32) + d) + c % 32: a center's four
 * words in one bank (the paper's "each center's dimensions in one bank").
 * The centers' coordinates (read outside transactions) follow at
 * coordinates_word + 3 c + d, then the lock. */
#define LOCALTM_KM_SUM_WORD(c, d) (32u * (4u * ((c) / 32u) + (d)) + (c) % 32u)
struct localtm_km_args { uint32_t points, centers, sums, assigned, n, center_count, coordinates_word, lock_word; };
#define LOCALTM_KM_COORDINATES_WORD(k) (128u * (((k) + 31u) / 32u))
#define LOCALTM_KM_WORDS(k) LOCALTM_ROUND32(LOCALTM_KM_COORDINATES_WORD(k) + 3u * (k) + 1u)

/* GA: `solutions` words at [0, solutions): bits 0..7 the object mask, bits
 * 8.. the work-item id + 1 of the last writer (0: initial), which lets the
 * host rebuild the order the transactions took. Work-item t's transaction
 * reads solutions first[t] and second[t] (distinct), logs the two words it
 * read (read_log[2t], [2t+1], after its commit) and writes both back:
 * the fitter unchanged, the weaker replaced by the crossover
 * (fitter & cross[t]) | (weaker & ~cross[t]). Fitness: |capacity - weight|,
 * smaller is fitter, ties to first[t]. weights: 8 object weights, one byte
 * each (objects 0..3 in weights_low, 4..7 in weights_high). */
struct localtm_ga_args { uint32_t initial, first, second, cross, read_log, final_solutions, n, solutions, capacity,
                         weights_low, weights_high, lock_word; };
#define LOCALTM_GA_WORDS(s) LOCALTM_ROUND32((s) + 1u)
#define LOCALTM_GA_OBJECTS 8u

static inline uint32_t localtm_ga_weight(uint32_t mask, uint32_t weights_low, uint32_t weights_high)
{
    uint32_t weight = 0;
    for (uint32_t k = 0; k < LOCALTM_GA_OBJECTS; k++)
        if (mask >> k & 1u) weight += ((k < 4u ? weights_low : weights_high) >> (8u * (k % 4u))) & 0xffu;
    return weight;
}
static inline uint32_t localtm_ga_distance(uint32_t mask, uint32_t capacity, uint32_t weights_low, uint32_t weights_high)
{
    uint32_t weight = localtm_ga_weight(mask, weights_low, weights_high);
    return weight > capacity ? weight - capacity : capacity - weight;
}
/* The new masks of a transaction that read masks a (first) and b. */
static inline void localtm_ga_crossover(uint32_t a, uint32_t b, uint32_t cross, uint32_t capacity, uint32_t weights_low,
                                        uint32_t weights_high, uint32_t *new_a, uint32_t *new_b)
{
    uint32_t fa = localtm_ga_distance(a, capacity, weights_low, weights_high);
    uint32_t fb = localtm_ga_distance(b, capacity, weights_low, weights_high);
    if (fb < fa) {
        *new_a = (b & cross) | (a & ~cross & 0xffu), *new_b = b;
    } else {
        *new_a = a, *new_b = (a & cross) | (b & ~cross & 0xffu);
    }
}

#endif
