/* Instruction coverage: every thread runs every RV32IMA instruction the
 * core supports (isa_ops.h), each written as inline asm so that it runs at
 * every optimisation level, on its operand pair (a, b) and writes each
 * result; its sub-word stores and AMOs act on its own global and shared
 * words. The host checks every word with its own C arithmetic (isa.c).
 * Left out: ecall and ebreak, which stop the run by design (execute.c),
 * and the CSR writes the core refuses; fence runs, csrr in gpu.h's ids. */
#include "gpu.h"
#include "isa_ops.h"
#include "workload_args.h"

GPU_SHARED(uint32_t, isa_shared[ISA_BLOCK_MAX * ISA_SHARED_WORDS]);

/* A call (jal ra) and its return (jalr). */
static __attribute__((noinline)) uint32_t isa_called(uint32_t x)
{
    uint32_t r;
    __asm__ volatile("xori %0, %1, 0x5a" : "=r"(r) : "r"(x));
    return r;
}

#define R_OP(op)                                                                        \
    do {                                                                                \
        uint32_t r;                                                                     \
        __asm__ volatile(#op " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));                 \
        out[k++] = r;                                                                   \
    } while (0);
#define I_OP(op, r_op, imm)                                                             \
    do {                                                                                \
        uint32_t r;                                                                     \
        __asm__ volatile(#op " %0, %1, %2" : "=r"(r) : "r"(a), "i"(imm));               \
        out[k++] = r;                                                                   \
    } while (0);
#define BRANCH(op)                                                                      \
    do {                                                                                \
        uint32_t r;                                                                     \
        __asm__ volatile("li %0, 1\n" #op " %1, %2, 1f\nli %0, 0\n1:" : "=&r"(r) : "r"(a), "r"(b)); \
        out[k++] = r;                                                                   \
    } while (0);
#define LOAD(op, offset)                                                                \
    do {                                                                                \
        uint32_t r;                                                                     \
        __asm__ volatile(#op " %0, " #offset "(%1)" : "=r"(r) : "r"(load_word) : "memory"); \
        out[k++] = r;                                                                   \
    } while (0);
#define LOADS                                                                           \
    LOAD(lb, 0) LOAD(lb, 1) LOAD(lb, 2) LOAD(lb, 3) LOAD(lbu, 0) LOAD(lbu, 1) LOAD(lbu, 2) LOAD(lbu, 3) \
    LOAD(lh, 0) LOAD(lh, 2) LOAD(lw, 0)
#define AMO(op, name)                                                                   \
    do {                                                                                \
        uint32_t r;                                                                     \
        __asm__ volatile(#op ".w %0, %2, (%1)" : "=r"(r) : "r"(amo_word), "r"(b) : "memory"); \
        out[k++] = r;                                                                   \
        amo_word++;                                                                     \
    } while (0);
#define STORES(base)                                                                    \
    __asm__ volatile("sb %1, 0(%0)\nsb %1, 5(%0)\nsb %1, 10(%0)\nsb %1, 15(%0)\nsh %1, 16(%0)\nsh %1, 22(%0)\nsw %1, 24(%0)" \
                     ::"r"(base), "r"(a) : "memory")

GPU_KERNEL void isa(const struct isa_args *args)
{
    uint32_t i = gpu_global_id_x(), t = gpu_thread_x();
    if (i >= args->n) return;
    uint32_t a = ((const uint32_t *)args->a)[i], b = ((const uint32_t *)args->b)[i];
    uint32_t *out = (uint32_t *)args->out + i * (ISA_RESULTS + ISA_SHARED_LOADS);
    uint32_t *global = (uint32_t *)args->global + i * ISA_GLOBAL_WORDS;
    uint32_t *shared = isa_shared + t * ISA_SHARED_WORDS;
    uint32_t k = 0;
    ISA_R_OPS(R_OP)
    ISA_I_OPS(I_OP)
    ISA_BRANCHES(BRANCH)
    const uint32_t *load_word = (const uint32_t *)args->in + i;
    LOADS
    volatile uint32_t *amo_word = global + ISA_STORE_WORDS;
    ISA_AMOS(AMO)
    /* Shared memory: the AMOs on words set to a (atomics in the core). */
    for (uint32_t w = 0; w < ISA_AMO_COUNT; w++) shared[ISA_STORE_WORDS + w] = a;
    amo_word = shared + ISA_STORE_WORDS;
    ISA_AMOS(AMO)
    {
        uint32_t *word = global + ISA_STORE_WORDS + ISA_AMO_COUNT, value, status, again;
        __asm__ volatile("lr.w %0, (%3)\nsc.w %1, %4, (%3)\nsc.w %2, %4, (%3)"
                         : "=&r"(value), "=&r"(status), "=&r"(again) : "r"(word), "r"(b) : "memory");
        out[k++] = value;
        out[k++] = status;
        out[k++] = again;
    }
    {
        uint32_t high, low, before, after;
        __asm__ volatile("lui %0, 0x80000\nlui %1, 0xfffff" : "=&r"(high), "=&r"(low));
        /* jal x0 (a jump over one instruction) between two auipcs; jal ra
         * and jalr in the call (the loader takes no other link register). */
        __asm__ volatile("auipc %0, 0\nj 1f\nli %1, 0\n1: auipc %1, 0" : "=&r"(before), "=&r"(after));
        out[k++] = high;
        out[k++] = low;
        out[k++] = (after - before) + (isa_called(a) ^ a ^ 0x5a);
    }
    __asm__ volatile("fence" ::: "memory");
    /* Sub-word stores at every byte offset, to global and shared words the
     * host and this thread set to a pattern; then the loads from shared. */
    STORES(global);
    for (uint32_t w = 0; w < ISA_STORE_WORDS; w++) shared[w] = 0xa5a5a5a5u;
    STORES(shared);
    /* The loads again, from a shared word holding the same bytes. */
    shared[ISA_SHARED_WORDS - 1] = ((const uint32_t *)args->in)[i];
    load_word = shared + ISA_SHARED_WORDS - 1;
    LOADS
    uint32_t *shared_out = (uint32_t *)args->shared_out + i * ISA_SHARED_WORDS;
    for (uint32_t w = 0; w < ISA_SHARED_WORDS; w++) shared_out[w] = shared[w];
}
