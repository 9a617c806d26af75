/* The instruction lists of the isa workload, shared by its kernel
 * (kernels/isa.c: each entry one inline-asm instruction, so that every one
 * runs whatever the optimisation level) and its host oracle (isa.c: its own
 * C arithmetic, independent of the simulator's decoder and ALU). The order
 * of the lists is the order of the results. */
#ifndef SIMTX_ISA_OPS_H
#define SIMTX_ISA_OPS_H

/* Register-register ALU, M extension. */
#define ISA_R_OPS(X)                                                                                       \
    X(add) X(sub) X(sll) X(slt) X(sltu) X(xor) X(srl) X(sra) X(or) X(and) X(mul) X(mulh) X(mulhsu) X(mulhu) \
    X(div) X(divu) X(rem) X(remu)
/* Register-immediate: each with the R op computing it and the immediates
 * (sign bits, zero, the 12-bit extremes; shifts by 0, 1, 31). */
#define ISA_I_OPS(X)                                                                                           \
    X(addi, add, 0) X(addi, add, 1) X(addi, add, -1) X(addi, add, 2047) X(addi, add, -2048)                  \
    X(slti, slt, 0) X(slti, slt, 1) X(slti, slt, -1) X(slti, slt, 2047) X(slti, slt, -2048)                  \
    X(sltiu, sltu, 0) X(sltiu, sltu, 1) X(sltiu, sltu, -1) X(sltiu, sltu, 2047) X(sltiu, sltu, -2048)        \
    X(xori, xor, 0) X(xori, xor, -1) X(xori, xor, 1365) X(ori, or, 0) X(ori, or, -2048) X(ori, or, 1365)     \
    X(andi, and, 0) X(andi, and, -1) X(andi, and, 2047) X(andi, and, -2048)                                  \
    X(slli, sll, 0) X(slli, sll, 1) X(slli, sll, 31) X(srli, srl, 0) X(srli, srl, 1) X(srli, srl, 31)         \
    X(srai, sra, 0) X(srai, sra, 1) X(srai, sra, 31)
/* Branches: the result is 1 when taken. */
#define ISA_BRANCHES(X) X(beq) X(bne) X(blt) X(bge) X(bltu) X(bgeu)
/* The AMOs (each returns the old word; the word becomes op(old, b)), run on
 * a global and a shared word; lr.w/sc.w follow separately. */
#define ISA_AMOS(X)                                                                                          \
    X(amoswap, swap) X(amoadd, add) X(amoand, and) X(amoor, or) X(amoxor, xor) X(amomin, min) X(amomax, max) \
    X(amominu, minu) X(amomaxu, maxu)

#define ISA_COUNT_1(...) +1
#define ISA_R_COUNT (0 ISA_R_OPS(ISA_COUNT_1))
#define ISA_I_COUNT (0 ISA_I_OPS(ISA_COUNT_1))
#define ISA_BRANCH_COUNT (0 ISA_BRANCHES(ISA_COUNT_1))
#define ISA_AMO_COUNT (0 ISA_AMOS(ISA_COUNT_1))

/* Per thread: the results (ALU, branches, loads, the AMOs' old words, lr/sc,
 * lui/auipc/jal), the words its sub-word stores and AMOs leave in global
 * memory, and what they leave in shared memory (copied out). */
#define ISA_LOADS 11   /* lb, lbu at bytes 0..3; lh, lhu at 0, 2; lw */
#define ISA_MISC 6     /* lr.w's value, sc.w's status, sc.w again (no reservation), lui x2, auipc-jal-auipc distance */
#define ISA_RESULTS (ISA_R_COUNT + ISA_I_COUNT + ISA_BRANCH_COUNT + ISA_LOADS + 2 * ISA_AMO_COUNT + ISA_MISC)
#define ISA_STORE_WORDS 7 /* sb at bytes 0..3 of words 0..3, sh at 0 and 2 of words 4, 5, sw word 6 */
#define ISA_GLOBAL_WORDS (ISA_STORE_WORDS + ISA_AMO_COUNT + 1) /* + the lr/sc word */
#define ISA_SHARED_WORDS (ISA_STORE_WORDS + ISA_AMO_COUNT + 1) /* + the word the loads read */
#define ISA_BLOCK_MAX 128 /* the static shared array: 8.5 KiB, within the GTX480 cores' 16 KiB */
#define ISA_SHARED_LOADS 11 /* the same loads from the shared word the stores wrote */

#endif
