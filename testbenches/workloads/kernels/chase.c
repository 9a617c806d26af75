/* One thread follows a chain of pointers: each load's address is the value
 * the previous load returned, so the loop's time per step is the space's
 * load-to-use latency (scripts/calibrate differences two chain lengths to
 * remove the launch and the chain's set-up). */
#include "gpu.h"
#include "workload_args.h"

#define SPREAD 8 /* words between links in shared and local memory */

/* Runs `step` steps times, eight to an iteration, so that the loop's own
 * instructions add little to a step (at every optimisation level). */
#define REPEAT(steps, step)                                                        \
    do {                                                                           \
        uint32_t i_ = 0;                                                           \
        for (; i_ + 8 <= (steps); i_ += 8) {                                       \
            step; step; step; step; step; step; step; step;                        \
        }                                                                          \
        for (; i_ < (steps); i_++) step;                                           \
    } while (0)

GPU_SHARED(uint32_t, chase_shared[CHASE_IN_CORE_WORDS * SPREAD]);

/* next = the index after i in a full-period sequence (29 i + 7 mod 64). */
static const uint32_t chase_constant[CHASE_IN_CORE_WORDS] = {
    7,  36, 1,  30, 59, 24, 53, 18, 47, 12, 41, 6,  35, 0,  29, 58, 23, 52, 17, 46, 11, 40,
    5,  34, 63, 28, 57, 22, 51, 16, 45, 10, 39, 4,  33, 62, 27, 56, 21, 50, 15, 44, 9,  38,
    3,  32, 61, 26, 55, 20, 49, 14, 43, 8,  37, 2,  31, 60, 25, 54, 19, 48, 13, 42};

/* Links word i * SPREAD of chain to word next(i) * SPREAD; returns the start. */
static uint32_t link(volatile uint32_t *chain)
{
    for (uint32_t i = 0; i < CHASE_IN_CORE_WORDS; i++)
        chain[i * SPREAD] = (uint32_t)(uintptr_t)&chain[chase_constant[i] * SPREAD];
    return (uint32_t)(uintptr_t)&chain[0];
}

GPU_KERNEL void chase(const struct chase_args *args)
{
    uint32_t p = args->start, steps = args->steps, base = 0;
    volatile uint32_t local[CHASE_IN_CORE_WORDS * SPREAD];
    switch (args->space) {
    case CHASE_GLOBAL:
        REPEAT(steps, p = *(volatile const uint32_t *)(uintptr_t)p);
        break;
    case CHASE_ATOMIC:
        REPEAT(steps, p = gpu_atomic_add((volatile uint32_t *)(uintptr_t)p, 0));
        break;
    case CHASE_SHARED:
    case CHASE_LOCAL:
        p = base = link(args->space == CHASE_SHARED ? chase_shared : local);
        REPEAT(steps, p = *(volatile const uint32_t *)(uintptr_t)p);
        p = (p - base) / (4 * SPREAD); /* the link's index */
        break;
    default:
        p = 0;
        REPEAT(steps, p = chase_constant[p]);
        break;
    }
    *(volatile uint32_t *)(uintptr_t)args->out = p;
}
