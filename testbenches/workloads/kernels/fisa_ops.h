/* The instruction lists of the fisa workload (single-precision coverage),
 * shared by its kernel (kernels/fisa.c: one inline-asm instruction per
 * entry, each followed by a read-and-clear of fflags) and its host oracle
 * (fisa.c: the host's C float arithmetic under its own rounding modes).
 * The order of the lists is the order of the results; every result is two
 * words, the value and the fflags the instruction raised. */
#ifndef SIMTX_FISA_OPS_H
#define SIMTX_FISA_OPS_H

/* f = op(a, b) in a static rounding mode. */
#define FISA_ROUNDED(X)                                                                                   \
    X(fadd, rne) X(fadd, rtz) X(fadd, rdn) X(fadd, rup) X(fadd, rmm) X(fsub, rne) X(fsub, rtz) X(fsub, rmm) \
    X(fmul, rne) X(fmul, rtz) X(fmul, rdn) X(fmul, rup) X(fmul, rmm) X(fdiv, rne) X(fdiv, rtz) X(fdiv, rdn) \
    X(fdiv, rup) X(fdiv, rmm)
/* f = op(a, b), no rounding. */
#define FISA_EXACT(X) X(fmin) X(fmax) X(fsgnj) X(fsgnjn) X(fsgnjx)
/* x = op(a, b). */
#define FISA_COMPARES(X) X(feq) X(flt) X(fle)
/* f = sqrt(a). */
#define FISA_SQRT(X) X(rne) X(rtz) X(rup)
/* f = op(a, b, c). */
#define FISA_FUSED(X) X(fmadd, rne) X(fmsub, rne) X(fnmsub, rne) X(fnmadd, rne) X(fmadd, rtz) X(fmadd, rdn) X(fmadd, rup)
/* x = fcvt.w[u].s(a). */
#define FISA_TO_INT(X) X(w, rne) X(w, rtz) X(w, rdn) X(w, rup) X(w, rmm) X(wu, rne) X(wu, rtz)
/* f = fcvt.s.w[u](a's bits as an integer). */
#define FISA_FROM_INT(X) X(w, rne) X(w, rtz) X(w, rmm) X(wu, rne) X(wu, rup)

#define FISA_COUNT_1(...) +1
/* + fclass, fmv.x.w of fmv.w.x, a dynamic-mode fadd (frm = thread % 5) and the frm read back. */
#define FISA_MISC 4
#define FISA_RESULTS                                                                                          \
    (0 FISA_ROUNDED(FISA_COUNT_1) FISA_EXACT(FISA_COUNT_1) FISA_COMPARES(FISA_COUNT_1) FISA_SQRT(FISA_COUNT_1) \
     FISA_FUSED(FISA_COUNT_1) FISA_TO_INT(FISA_COUNT_1) FISA_FROM_INT(FISA_COUNT_1) + FISA_MISC)
#define FISA_WORDS (2 * FISA_RESULTS)

#endif
