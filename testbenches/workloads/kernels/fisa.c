/* Single-precision coverage: every thread runs every F instruction
 * (fisa_ops.h) as inline asm, so that each runs at every optimisation level,
 * on its operands a, b, c loaded with flw, and writes each result (fsw for
 * float results) and the fflags it raised (csrrw fflags, zero: read and
 * clear). The host checks every word with its own C arithmetic (fisa.c). */
#include "fisa_ops.h"
#include "gpu.h"
#include "workload_args.h"

#define FLAGS()                                                                          \
    do {                                                                                 \
        uint32_t f;                                                                      \
        __asm__ volatile("csrrw %0, fflags, zero" : "=r"(f));                            \
        out[k++] = f;                                                                    \
    } while (0)
/* A float result leaves by fsw, an integer one by sw. */
#define STORE_F(r)                                                                       \
    do {                                                                                 \
        __asm__ volatile("fsw %1, 0(%0)" : : "r"(&out[k]), "f"(r) : "memory");          \
        k++;                                                                             \
    } while (0)
#define ROUNDED(op, rm)                                                                  \
    do {                                                                                 \
        float r;                                                                         \
        __asm__ volatile(#op ".s %0, %1, %2, " #rm : "=f"(r) : "f"(a), "f"(b));          \
        STORE_F(r);                                                                      \
        FLAGS();                                                                         \
    } while (0);
#define EXACT(op)                                                                        \
    do {                                                                                 \
        float r;                                                                         \
        __asm__ volatile(#op ".s %0, %1, %2" : "=f"(r) : "f"(a), "f"(b));                \
        STORE_F(r);                                                                      \
        FLAGS();                                                                         \
    } while (0);
#define COMPARE(op)                                                                      \
    do {                                                                                 \
        uint32_t r;                                                                      \
        __asm__ volatile(#op ".s %0, %1, %2" : "=r"(r) : "f"(a), "f"(b));                \
        out[k++] = r;                                                                    \
        FLAGS();                                                                         \
    } while (0);
#define SQRT(rm)                                                                         \
    do {                                                                                 \
        float r;                                                                         \
        __asm__ volatile("fsqrt.s %0, %1, " #rm : "=f"(r) : "f"(a));                     \
        STORE_F(r);                                                                      \
        FLAGS();                                                                         \
    } while (0);
#define FUSED(op, rm)                                                                    \
    do {                                                                                 \
        float r;                                                                         \
        __asm__ volatile(#op ".s %0, %1, %2, %3, " #rm : "=f"(r) : "f"(a), "f"(b), "f"(c)); \
        STORE_F(r);                                                                      \
        FLAGS();                                                                         \
    } while (0);
#define TO_INT(type, rm)                                                                 \
    do {                                                                                 \
        uint32_t r;                                                                      \
        __asm__ volatile("fcvt." #type ".s %0, %1, " #rm : "=r"(r) : "f"(a));            \
        out[k++] = r;                                                                    \
        FLAGS();                                                                         \
    } while (0);
#define FROM_INT(type, rm)                                                               \
    do {                                                                                 \
        float r;                                                                         \
        __asm__ volatile("fcvt.s." #type " %0, %1, " #rm : "=f"(r) : "r"(a_bits));       \
        STORE_F(r);                                                                      \
        FLAGS();                                                                         \
    } while (0);

GPU_KERNEL void fisa(const struct fisa_args *args)
{
    uint32_t i = gpu_global_id_x();
    if (i >= args->n) return;
    float a, b, c;
    __asm__ volatile("flw %0, 0(%1)" : "=f"(a) : "r"((const float *)args->a + i));
    __asm__ volatile("flw %0, 0(%1)" : "=f"(b) : "r"((const float *)args->b + i));
    __asm__ volatile("flw %0, 0(%1)" : "=f"(c) : "r"((const float *)args->c + i));
    uint32_t a_bits = ((const uint32_t *)args->a)[i];
    uint32_t *out = (uint32_t *)args->out + i * FISA_WORDS, k = 0;
    __asm__ volatile("csrw fflags, zero");
    FISA_ROUNDED(ROUNDED)
    FISA_EXACT(EXACT)
    FISA_COMPARES(COMPARE)
    FISA_SQRT(SQRT)
    FISA_FUSED(FUSED)
    FISA_TO_INT(TO_INT)
    FISA_FROM_INT(FROM_INT)
    uint32_t r;
    __asm__ volatile("fclass.s %0, %1" : "=r"(r) : "f"(a));
    out[k++] = r;
    FLAGS();
    float moved;
    __asm__ volatile("fmv.w.x %0, %2\nfmv.x.w %1, %0" : "=&f"(moved), "=r"(r) : "r"(a_bits));
    out[k++] = r;
    FLAGS();
    float sum;
    uint32_t mode = i % 5, old;
    __asm__ volatile("fsrm %0, %1" : "=r"(old) : "r"(mode));
    __asm__ volatile("fadd.s %0, %1, %2, dyn" : "=f"(sum) : "f"(a), "f"(b));
    STORE_F(sum);
    FLAGS();
    __asm__ volatile("frrm %0" : "=r"(r));
    out[k++] = r;
    out[k++] = old; /* frm before fsrm: 0 (round to nearest) at the start of every thread */
}
