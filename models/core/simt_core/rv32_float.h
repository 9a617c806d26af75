/* rv32_float: the F extension's per-lane arithmetic with RISC-V's rules on
 * top of the host's IEEE-754 single precision (canonical NaN results,
 * fmin/fmax's NaN and signed-zero order, saturating conversions, quiet and
 * signalling comparisons), the five rounding modes and the accrued
 * exception flags. Shared by the SIMT core and the reference interpreter. */
#ifndef SIMTX_RV32_FLOAT_H
#define SIMTX_RV32_FLOAT_H

#include <stdbool.h>
#include <stdint.h>

#include "rv32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fflags bits (fcsr[4:0]) and the rounding modes (fcsr[7:5], rm field). */
enum { RV_FFLAG_NX = 1, RV_FFLAG_UF = 2, RV_FFLAG_OF = 4, RV_FFLAG_DZ = 8, RV_FFLAG_NV = 16 };
enum { RV_RM_RNE, RV_RM_RTZ, RV_RM_RDN, RV_RM_RUP, RV_RM_RMM, RV_RM_DYNAMIC = 7 };
#define RV_CANONICAL_NAN 0x7fc00000u

/* The rounding mode an instruction uses for a thread whose fcsr is fcsr:
 * its rm field, or frm when it says dynamic; RV_RM_DYNAMIC when the mode
 * is reserved (the instruction is illegal then). */
static inline unsigned rv_float_rounding(const rv_insn *insn, uint32_t fcsr)
{
    unsigned rm = (insn->raw >> 12) & 7;
    if (rm == RV_RM_DYNAMIC) rm = (fcsr >> 5) & 7;
    return rm <= RV_RM_RMM ? rm : RV_RM_DYNAMIC;
}

/* Whether op rounds (its funct3 is a rounding mode). */
static inline bool rv_float_rounds(rv_op op)
{
    return (op >= RV_FADD && op <= RV_FSQRT) || (op >= RV_FMADD && op <= RV_FNMADD) || (op >= RV_FCVT_W_S && op <= RV_FCVT_S_WU);
}

/* The result of F op (RV_CLASS_FLOAT, not RV_FCSR_ACCESS) on the operand
 * bits a (rs1), b (rs2) and c (rs3) in rounding mode rm (0-4); ORs the
 * exception flags it raises into *fflags. Integer operands and results are
 * plain words. */
uint32_t rv_float_compute(rv_op op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *fflags);

/* csrrw/csrrs/csrrc(i) of fflags, frm or fcsr (insn: an RV_FCSR_ACCESS)
 * with rs1's value rs1_value on a thread's fcsr; returns the CSR's old
 * value (for rd). */
uint32_t rv_fcsr_access(const rv_insn *insn, uint32_t rs1_value, uint32_t *fcsr);

#ifdef __cplusplus
}
#endif
#endif
