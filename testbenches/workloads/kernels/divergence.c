/* Divergence torture: nested if/else, loops with early exits, calls with
 * divergent returns, recursion, switch-like chains and early thread exits,
 * all driven by per-thread data. Each thread writes only its own output
 * words, so running every thread alone must give the same memory. */
#include "gpu.h"
#include "workload_args.h"

__attribute__((noinline)) static uint32_t classify(uint32_t v)
{
    if (v % 3 == 0) return 1;   /* divergent returns */
    if (v % 5 == 0) {
        if (v & 8) return 2;
        return 3;
    }
    for (uint32_t k = 0; k < (v & 7); k++)
        if (((v >> k) & 3) == 3) return 10 + k;
    return 4;
}

__attribute__((noinline)) static uint32_t collatz_steps(uint32_t v, uint32_t limit)
{
    uint32_t steps = 0;
    while (v != 1) {
        if (steps == limit) break; /* early exit */
        v = (v & 1) ? 3 * v + 1 : v / 2;
        steps++;
    }
    return steps;
}

__attribute__((noinline)) static uint32_t gcd(uint32_t a, uint32_t b)
{
    if (b == 0) return a;
    return gcd(b, a % b); /* recursion (or a loop, at higher -O) */
}

__attribute__((noinline)) static int32_t chain(uint32_t v)
{
    switch (v % 7) { /* no jump tables: a chain of compares, or a table in .rodata */
    case 0: return 11;
    case 1: return -3;
    case 2: return 57;
    case 3: return 1000;
    case 4: return -99;
    case 5: return 7;
    default: return 0;
    }
}

GPU_KERNEL void divergence(const struct divergence_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    uint32_t v = ((const uint32_t *)args->input)[i];
    uint32_t *out = (uint32_t *)args->output + 4 * i;
    uint32_t a = 0, b = 0;
    if (v & 1) {
        if (v & 2) a = classify(v);
        else {
            a = collatz_steps(v % 97 + 1, 40);
            if (a > 20) {
                out[3] = 0xdead;
                gpu_exit(); /* early exit inside nested divergence */
            }
        }
    } else {
        for (uint32_t k = 0; k < v % 13; k++) {
            b += k * v;
            if (b % 11 == 5) break;
            if (k == 7) continue;
            b ^= k;
        }
        a = gcd(v % 1000 + 1, (v >> 8) % 1000 + 1);
    }
    /* lr/sc under divergence: only threads with v & 4 try, on their own word
     * (still 0x5a5a5a5a from the host, unless v & 8 changed it first). */
    uint32_t expect = 0x5a5a5a5a;
    if (v & 8) out[1] = 7;
    if (v & 4) __atomic_compare_exchange_n(&out[1], &expect, b ^ 0x1234, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    out[0] = a;
    out[1] = b + expect + __atomic_load_n(&out[1], __ATOMIC_RELAXED);
    out[2] = (uint32_t)chain(v + a);
    out[3] = v % 4 == 3 ? classify(v >> 4) : collatz_steps(v % 31 + 1, 100);
}
