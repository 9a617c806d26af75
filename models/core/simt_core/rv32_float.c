/* rv32_float: the F extension's per-lane semantics. The arithmetic runs on
 * the host's single precision under the host rounding mode (fenv), which
 * gives IEEE-754 results and flags; what RISC-V defines beyond IEEE-754
 * (canonical NaN, fmin/fmax, saturating conversions, round to nearest with
 * ties away) is done here explicitly. Built with -frounding-math. */
#include "rv32_float.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

static bool is_nan(uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu); }
static bool is_signaling(uint32_t x) { return is_nan(x) && !(x & 0x400000u); }

static const int host_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* The host's raised exceptions as fflags. */
static uint32_t raised_flags(void)
{
    int raised = fetestexcept(FE_ALL_EXCEPT);
    return (raised & FE_INEXACT ? RV_FFLAG_NX : 0u) | (raised & FE_UNDERFLOW ? RV_FFLAG_UF : 0u) |
           (raised & FE_OVERFLOW ? RV_FFLAG_OF : 0u) | (raised & FE_DIVBYZERO ? RV_FFLAG_DZ : 0u) |
           (raised & FE_INVALID ? RV_FFLAG_NV : 0u);
}

/* The rounded operations. volatile operands and result: the compiler
 * neither folds them nor moves them across the fenv calls around them. */
static float rounded(rv_op op, volatile float a, volatile float b, volatile float c)
{
    volatile float r;
    switch (op) {
    case RV_FADD: r = a + b; break;
    case RV_FSUB: r = a - b; break;
    case RV_FMUL: r = a * b; break;
    case RV_FDIV: r = a / b; break;
    case RV_FSQRT: r = sqrtf(a); break;
    case RV_FMADD: r = fmaf(a, b, c); break;
    case RV_FMSUB: r = fmaf(a, b, -c); break;
    case RV_FNMSUB: r = fmaf(-a, b, c); break;
    default: r = fmaf(-a, b, -c); break; /* RV_FNMADD */
    }
    return r;
}

/* The same in long double, whose 64 significant bits hold any tie of
 * single precision exactly (a tie needs 25). */
static long double rounded_wide(rv_op op, volatile long double a, volatile long double b, volatile long double c)
{
    volatile long double r;
    switch (op) {
    case RV_FADD: r = a + b; break;
    case RV_FSUB: r = a - b; break;
    case RV_FMUL: r = a * b; break;
    case RV_FDIV: r = a / b; break;
    case RV_FSQRT: r = sqrtl(a); break;
    case RV_FMADD: r = fmal(a, b, c); break;
    case RV_FMSUB: r = fmal(a, b, -c); break;
    case RV_FNMSUB: r = fmal(-a, b, c); break;
    default: r = fmal(-a, b, -c); break;
    }
    return r;
}

/* Round to nearest, ties away (RMM, no host mode): differs from ties to
 * even only on an exact tie, which needs exact known exactly (round to
 * nearest even in the host mode on entry). */
static float ties_away(long double exact, float nearest_even)
{
    fesetround(FE_TOWARDZERO);
    volatile float toward_zero = (float)exact;
    fesetround(FE_TONEAREST);
    float away = nextafterf(toward_zero, copysignf(INFINITY, toward_zero));
    return (long double)toward_zero + (long double)away == 2 * exact ? away : nearest_even;
}

static uint32_t arithmetic(rv_op op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *fflags)
{
    float fa = as_float(a), fb = as_float(b), fc = as_float(c);
    fesetround(host_modes[rm == RV_RM_RMM ? RV_RM_RNE : rm]);
    feclearexcept(FE_ALL_EXCEPT);
    float r = rounded(op, fa, fb, fc);
    uint32_t flags = raised_flags();
    if (rm == RV_RM_RMM && (flags & RV_FFLAG_NX)) {
        feclearexcept(FE_ALL_EXCEPT);
        long double exact = rounded_wide(op, fa, fb, fc);
        if (!fetestexcept(FE_INEXACT)) r = ties_away(exact, r); /* inexact in 64 bits: no tie */
    }
    fesetround(FE_TONEAREST); /* the simulator's own arithmetic */
    *fflags |= flags;
    return isnan(r) ? RV_CANONICAL_NAN : bits_of(r);
}

/* fcvt.w.s, fcvt.wu.s: rounded to an integer in rm, saturated (NaN as the
 * largest) with the invalid flag, inexact when rounded. */
static uint32_t to_integer(uint32_t a, unsigned rm, bool is_unsigned, uint32_t *fflags)
{
    float x = as_float(a);
    if (is_nan(a)) {
        *fflags |= RV_FFLAG_NV;
        return is_unsigned ? UINT32_MAX : (uint32_t)INT32_MAX;
    }
    float r;
    switch (rm) {
    case RV_RM_RTZ: r = truncf(x); break;
    case RV_RM_RDN: r = floorf(x); break;
    case RV_RM_RUP: r = ceilf(x); break;
    case RV_RM_RMM: r = roundf(x); break;
    default: r = nearbyintf(x); break; /* the host mode is to nearest, even */
    }
    double d = r;
    double low = is_unsigned ? 0.0 : -2147483648.0, high = is_unsigned ? 4294967295.0 : 2147483647.0;
    if (d < low || d > high) {
        *fflags |= RV_FFLAG_NV;
        if (is_unsigned) return d < low ? 0 : UINT32_MAX;
        return d < low ? 0x80000000u : (uint32_t)INT32_MAX;
    }
    if (r != x) *fflags |= RV_FFLAG_NX;
    return is_unsigned ? (uint32_t)d : (uint32_t)(int32_t)d;
}

/* fcvt.s.w, fcvt.s.wu. */
static uint32_t from_integer(uint32_t a, unsigned rm, bool is_unsigned, uint32_t *fflags)
{
    long double exact = is_unsigned ? (long double)a : (long double)(int32_t)a;
    fesetround(host_modes[rm == RV_RM_RMM ? RV_RM_RNE : rm]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile uint32_t word = a; /* read after feclearexcept: the conversion cannot move before it */
    volatile float r = is_unsigned ? (float)word : (float)(int32_t)word;
    uint32_t flags = raised_flags();
    float result = rm == RV_RM_RMM && (flags & RV_FFLAG_NX) ? ties_away(exact, r) : r;
    fesetround(FE_TONEAREST);
    *fflags |= flags;
    return bits_of(result);
}

/* fmin.s, fmax.s: a NaN operand loses to a number; -0 is below +0. */
static uint32_t min_max(bool is_min, uint32_t a, uint32_t b, uint32_t *fflags)
{
    if (is_signaling(a) || is_signaling(b)) *fflags |= RV_FFLAG_NV;
    if (is_nan(a) && is_nan(b)) return RV_CANONICAL_NAN;
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    if (!((a | b) & 0x7fffffffu)) return is_min ? a | b : a & b; /* two zeros: the sign decides */
    float fa = as_float(a), fb = as_float(b);
    return is_min ? (fa < fb ? a : b) : (fa > fb ? a : b);
}

static uint32_t classify(uint32_t a)
{
    bool negative = a >> 31;
    uint32_t exponent = (a >> 23) & 0xff, fraction = a & 0x7fffffu;
    if (exponent == 0xff) {
        if (fraction) return fraction & 0x400000u ? 1u << 9 : 1u << 8; /* quiet, signalling NaN */
        return negative ? 1u << 0 : 1u << 7;
    }
    if (exponent == 0) {
        if (!fraction) return negative ? 1u << 3 : 1u << 4;
        return negative ? 1u << 2 : 1u << 5; /* subnormal */
    }
    return negative ? 1u << 1 : 1u << 6;
}

uint32_t rv_float_compute(rv_op op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *fflags)
{
    switch (op) {
    case RV_FADD: case RV_FSUB: case RV_FMUL: case RV_FDIV: case RV_FSQRT:
    case RV_FMADD: case RV_FMSUB: case RV_FNMSUB: case RV_FNMADD:
        return arithmetic(op, rm, a, b, c, fflags);
    case RV_FMIN: case RV_FMAX: return min_max(op == RV_FMIN, a, b, fflags);
    case RV_FSGNJ: return (a & 0x7fffffffu) | (b & 0x80000000u);
    case RV_FSGNJN: return (a & 0x7fffffffu) | (~b & 0x80000000u);
    case RV_FSGNJX: return a ^ (b & 0x80000000u);
    case RV_FCVT_W_S: case RV_FCVT_WU_S: return to_integer(a, rm, op == RV_FCVT_WU_S, fflags);
    case RV_FCVT_S_W: case RV_FCVT_S_WU: return from_integer(a, rm, op == RV_FCVT_S_WU, fflags);
    case RV_FMV_X_W: case RV_FMV_W_X: return a;
    case RV_FEQ: /* quiet: only a signalling NaN is invalid */
        if (is_signaling(a) || is_signaling(b)) *fflags |= RV_FFLAG_NV;
        return !is_nan(a) && !is_nan(b) && as_float(a) == as_float(b);
    case RV_FLT: case RV_FLE: /* signalling: any NaN is invalid */
        if (is_nan(a) || is_nan(b)) {
            *fflags |= RV_FFLAG_NV;
            return 0;
        }
        return op == RV_FLT ? as_float(a) < as_float(b) : as_float(a) <= as_float(b);
    case RV_FCLASS: return classify(a);
    default: return 0;
    }
}

uint32_t rv_fcsr_access(const rv_insn *insn, uint32_t rs1_value, uint32_t *fcsr)
{
    unsigned funct3 = (insn->raw >> 12) & 7, csr = (unsigned)insn->imm;
    uint32_t operand = funct3 >= 5 ? (insn->raw >> 15) & 31 : rs1_value; /* csrr*i: the rs1 field is the value */
    unsigned shift = csr == RV_CSR_FRM ? 5 : 0;
    uint32_t width = csr == RV_CSR_FFLAGS ? 0x1fu : csr == RV_CSR_FRM ? 7u : 0xffu;
    uint32_t old = (*fcsr >> shift) & width, value = old;
    switch (funct3 & 3) {
    case 1: value = operand; break;        /* csrrw */
    case 2: value = old | operand; break;  /* csrrs */
    case 3: value = old & ~operand; break; /* csrrc */
    }
    *fcsr = (*fcsr & ~(width << shift)) | (value & width) << shift;
    return old;
}
