/* Single-precision coverage (kernels/fisa.c): every F instruction the core
 * runs, on edge operands (signed zeros, the smallest subnormal and normal,
 * the largest finite, infinities, quiet and signalling NaNs, exact ties of
 * every rounding, conversions out of range), against the host's own C float
 * arithmetic under its rounding modes (fenv) and RISC-V's rules written out
 * here from the specification: the canonical NaN, fmin/fmax's NaN and
 * signed-zero order, saturating conversions, ties away from zero. Not the
 * simulator's rv32_float.c, so that a mistake there cannot pass both. Then
 * the scalar reference interpreter (which shares rv32_float.c) must leave
 * the same words, which checks its F path. */
#include <fenv.h>
#include <limits.h>
#include <math.h>

#include "host_common.h"
#include "kernels/fisa_ops.h"
#include "rv32_reference.h"
#include "sparse_memory.h"

enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
enum { rne, rtz, rdn, rup, rmm };
#define CANONICAL_NAN 0x7fc00000u

static float f_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
static uint32_t bits_of(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}
static bool signaling(uint32_t x) { return isnan(f_of(x)) && !(x & 0x00400000u); }
static uint32_t host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    return (e & FE_INEXACT ? NX : 0u) | (e & FE_UNDERFLOW ? UF : 0u) | (e & FE_OVERFLOW ? OF : 0u) |
           (e & FE_DIVBYZERO ? DZ : 0u) | (e & FE_INVALID ? NV : 0u);
}
static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};

typedef enum { OP_fadd, OP_fsub, OP_fmul, OP_fdiv, OP_fsqrt, OP_fmadd, OP_fmsub, OP_fnmsub, OP_fnmadd } fop;

static float evaluate(fop op, float a, float b, float c)
{
    volatile float x = a, y = b, z = c, r;
    switch (op) {
    case OP_fadd: r = x + y; break;
    case OP_fsub: r = x - y; break;
    case OP_fmul: r = x * y; break;
    case OP_fdiv: r = x / y; break;
    case OP_fsqrt: r = sqrtf(x); break;
    case OP_fmadd: r = fmaf(x, y, z); break;
    case OP_fmsub: r = fmaf(x, y, -z); break;
    case OP_fnmsub: r = fmaf(-x, y, z); break; /* -(x * y) + z */
    default: r = fmaf(-x, y, -z); break;   /* -(x * y) - z */
    }
    return r;
}

/* Ties away (rmm): add, subtract and multiply of floats are exact in double
 * for these operands; a tie is a double exactly between the two floats
 * around it. Quotients and square roots of floats are never ties. */
static float away_if_tie(fop op, float a, float b, float nearest)
{
    if (op != OP_fadd && op != OP_fsub && op != OP_fmul) return nearest;
    double exact = op == OP_fadd ? (double)a + b : op == OP_fsub ? (double)a - b : (double)a * b;
    if (!isfinite(exact) || exact == (double)nearest) return nearest;
    fesetround(FE_TOWARDZERO);
    volatile float low = (float)exact;
    fesetround(FE_TONEAREST);
    float high = nextafterf(low, exact > 0 ? INFINITY : -INFINITY);
    return 2 * exact == (double)low + high ? high : nearest;
}

static uint32_t rounded(fop op, int rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *flags)
{
    fesetround(modes[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    float r = evaluate(op, f_of(a), f_of(b), f_of(c));
    *flags = host_flags();
    fesetround(FE_TONEAREST);
    if (rm == rmm) r = away_if_tie(op, f_of(a), f_of(b), r);
    return isnan(r) ? CANONICAL_NAN : bits_of(r);
}

static uint32_t exact_op(int which, uint32_t a, uint32_t b, uint32_t *flags)
{
    *flags = which < 2 && (signaling(a) || signaling(b)) ? NV : 0; /* sign injections never signal */
    bool a_nan = isnan(f_of(a)), b_nan = isnan(f_of(b));
    switch (which) {
    case 0: case 1: { /* fmin, fmax */
        if (a_nan && b_nan) return CANONICAL_NAN;
        if (a_nan || b_nan) return a_nan ? b : a;
        float x = f_of(a), y = f_of(b);
        if (x == y) return which == 0 ? (signbit(x) ? a : b) : (signbit(x) ? b : a); /* -0 < +0 */
        return (which == 0) == (x < y) ? a : b;
    }
    case 2: return (a & 0x7fffffffu) | (b & 0x80000000u);
    case 3: return (a & 0x7fffffffu) | (~b & 0x80000000u);
    default: return a ^ (b & 0x80000000u);
    }
}

static uint32_t compare(int which, uint32_t a, uint32_t b, uint32_t *flags)
{
    bool unordered = isnan(f_of(a)) || isnan(f_of(b));
    *flags = (which == 0 ? signaling(a) || signaling(b) : unordered) ? NV : 0; /* feq is quiet, flt and fle signal */
    if (unordered) return 0;
    return which == 0 ? f_of(a) == f_of(b) : which == 1 ? f_of(a) < f_of(b) : f_of(a) <= f_of(b);
}

static uint32_t to_int(bool is_unsigned, int rm, uint32_t a, uint32_t *flags)
{
    float x = f_of(a);
    *flags = 0;
    if (isnan(x)) return *flags = NV, is_unsigned ? 0xffffffffu : 0x7fffffffu;
    fesetround(modes[rm]);
    long long v = fabsf(x) >= 0x1p62f ? (x > 0 ? LLONG_MAX : LLONG_MIN) : rm == rmm ? llroundf(x) : llrintf(x);
    fesetround(FE_TONEAREST);
    long long low = is_unsigned ? 0 : INT32_MIN, high = is_unsigned ? (long long)UINT32_MAX : INT32_MAX;
    if (v < low || v > high) return *flags = NV, (uint32_t)(v < low ? low : high);
    if ((float)v != x) *flags = NX;
    return (uint32_t)v;
}

static uint32_t from_int(bool is_unsigned, int rm, uint32_t a, uint32_t *flags)
{
    double exact = is_unsigned ? (double)a : (double)(int32_t)a;
    fesetround(modes[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile uint32_t word = a; /* read after feclearexcept: the conversion cannot move before it */
    volatile float r = is_unsigned ? (float)word : (float)(int32_t)word;
    *flags = host_flags();
    fesetround(FE_TONEAREST);
    float result = r;
    if (rm == rmm && exact != (double)r) {
        fesetround(FE_TOWARDZERO);
        volatile float low = (float)exact;
        fesetround(FE_TONEAREST);
        float high = nextafterf(low, exact > 0 ? INFINITY : -INFINITY);
        if (2 * exact == (double)low + high) result = high;
    }
    return bits_of(result);
}

static uint32_t classify(uint32_t a)
{
    float x = f_of(a);
    bool negative = signbit(x);
    switch (fpclassify(x)) {
    case FP_INFINITE: return negative ? 1u << 0 : 1u << 7;
    case FP_NORMAL: return negative ? 1u << 1 : 1u << 6;
    case FP_SUBNORMAL: return negative ? 1u << 2 : 1u << 5;
    case FP_ZERO: return negative ? 1u << 3 : 1u << 4;
    default: return signaling(a) ? 1u << 8 : 1u << 9;
    }
}

static bool reference_access(void *memory, bool is_write, uint32_t address, void *data, unsigned size)
{
    if (is_write) sparse_memory_write(memory, address, data, size);
    else sparse_memory_read(memory, address, data, size);
    return true;
}

/* Runs every thread alone in the reference interpreter on the launch's
 * inputs; 0 when it leaves out's words. */
static int check_reference(workload_context *context, gpu_module *module, const struct fisa_args *args, uint32_t block,
                           const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *out)
{
    uint32_t n = args->n, ctas = (n + block - 1) / block, words = n * FISA_WORDS;
    sparse_memory *memory = sparse_memory_create();
    uint32_t *left = malloc(4 * (size_t)words);
    int status = 0;
    if (!memory || !left) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    sparse_memory_write(memory, GPU_ARGS_ADDRESS, args, sizeof *args);
    sparse_memory_write(memory, args->a, a, 4 * n);
    sparse_memory_write(memory, args->b, b, 4 * n);
    sparse_memory_write(memory, args->c, c, 4 * n);
    const kernel_function *entry = kernel_image_find_function(gpu_module_image(module), "fisa");
    for (uint32_t cta = 0; cta < ctas && !status; cta++)
        for (uint32_t t = 0; t < block && !status; t++) {
            rv_reference_thread thread = {{t, 0, 0}, {block, 1, 1}, {cta, 0, 0}, {ctas, 1, 1}, 32, GPU_ARGS_ADDRESS, 4096};
            char error[512];
            if (!rv_reference_run(gpu_module_image(module), entry->start, &thread, reference_access, memory, 100000, NULL, error,
                                  sizeof error))
                status = workload_fail(context, "fisa: thread %u of CTA %u in the reference: %s", t, cta, error);
        }
    sparse_memory_read(memory, args->out, left, 4 * (size_t)words);
    for (uint32_t w = 0; w < words && !status; w++)
        if (left[w] != out[w])
            status = workload_fail(context, "fisa: word %u of thread %u is 0x%08x, the reference interpreter left 0x%08x", w % FISA_WORDS,
                                   w / FISA_WORDS, out[w], left[w]);
done:
    sparse_memory_destroy(memory);
    free(left);
    return status;
}

int fisa_main(gpu_device *device, workload_context *context)
{
    static const uint32_t edges[] = {
        0x00000000u, 0x80000000u, 0x3f800000u /* 1 */, 0xbf800000u /* -1 */, 0x40200000u /* 2.5 */, 0xc0200000u /* -2.5 */,
        0x33800000u /* 2^-24: 1 + it is a tie */, 0x3f800001u /* 1 + ulp */, 0x3f000000u /* 0.5 */, 0x7f7fffffu /* largest */,
        0x00800000u /* smallest normal */, 0x00000001u /* smallest subnormal */, 0x807fffffu /* a negative subnormal */,
        0x7f800000u, 0xff800000u, 0x7fc00000u /* quiet NaN */, 0x7f800001u /* signalling NaN */, 0x4f000000u /* 2^31 */,
        0xcf000001u /* below -2^31 */, 0x40400000u /* 3 */};
    enum { EDGES = sizeof edges / sizeof edges[0] };
    uint32_t n = (uint32_t)workload_int(context, "n", EDGES * EDGES, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "fisa", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *a = malloc(4 * n), *b = malloc(4 * n), *c = malloc(4 * n), *out = malloc(4 * (size_t)n * FISA_WORDS);
    if (!a || !b || !c || !out) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        a[i] = i < EDGES * EDGES ? edges[i / EDGES] : (uint32_t)workload_random(&seed);
        b[i] = i < EDGES * EDGES ? edges[i % EDGES] : (uint32_t)workload_random(&seed);
        c[i] = i < EDGES * EDGES ? edges[(i * 7 + 3) % EDGES] : (uint32_t)workload_random(&seed);
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_a, d_b, d_c, d_out;
    HOST_CHECK(d_a = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_b = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_c = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_out = gpu_malloc(device, 4 * (size_t)n * FISA_WORDS));
    HOST_CHECK(gpu_copy_to_device(device, d_a, a, 4 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_b, b, 4 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_c, c, 4 * n));
    struct fisa_args args = {d_a, d_b, d_c, d_out, n};
    HOST_CHECK(gpu_launch(device, module, "fisa", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, out, d_out, 4 * (size_t)n * FISA_WORDS));
    for (uint32_t i = 0; i < n && !status; i++) {
        uint32_t x = a[i], y = b[i], z = c[i], k = 0;
        uint32_t expected[FISA_WORDS];
        const char *names[FISA_RESULTS];
        uint32_t e = 0, flags = 0;
#define PUT(name, value) (names[e / 2] = (name), expected[e++] = (value), expected[e++] = flags)
#define ROUNDED(op, rm) PUT(#op ".s " #rm, rounded(OP_##op, rm, x, y, 0, &flags));
        FISA_ROUNDED(ROUNDED)
        int which = 0;
#define EXACT(op) PUT(#op ".s", exact_op(which++, x, y, &flags));
        FISA_EXACT(EXACT)
        which = 0;
#define COMPARE(op) PUT(#op ".s", compare(which++, x, y, &flags));
        FISA_COMPARES(COMPARE)
#define SQRT(rm) PUT("fsqrt.s " #rm, rounded(OP_fsqrt, rm, x, 0, 0, &flags));
        FISA_SQRT(SQRT)
#define FUSED(op, rm) PUT(#op ".s " #rm, rounded(OP_##op, rm, x, y, z, &flags));
        FISA_FUSED(FUSED)
#define TO_INT(type, rm) PUT("fcvt." #type ".s " #rm, to_int(#type[1] == 'u', rm, x, &flags));
        FISA_TO_INT(TO_INT)
#define FROM_INT(type, rm) PUT("fcvt.s." #type " " #rm, from_int(#type[1] == 'u', rm, x, &flags));
        FISA_FROM_INT(FROM_INT)
        flags = 0;
        PUT("fclass.s", classify(x));
        PUT("fmv.w.x then fmv.x.w", x);
        PUT("fadd.s dyn (frm = thread % 5)", rounded(OP_fadd, (int)(i % 5), x, y, 0, &flags));
        names[e / 2] = "frrm after fsrm, frm before it";
        expected[e++] = i % 5;
        expected[e++] = 0;
        const uint32_t *r = out + (size_t)i * FISA_WORDS;
        for (k = 0; k < FISA_WORDS && !status; k++)
            if (r[k] != expected[k])
                status = workload_fail(context, "fisa: thread %u (a = 0x%08x, b = 0x%08x, c = 0x%08x): %s gave %s 0x%08x, expected 0x%08x",
                                       i, x, y, z, names[k / 2], k % 2 ? "fflags" : "", r[k], expected[k]);
    }
    if (!status) status = check_reference(context, module, &args, block, a, b, c, out);
    if (!status && context->log)
        fprintf(context->log, "fisa: %u threads, each with %u F results and their fflags correct, as in the reference interpreter\n", n,
                FISA_RESULTS);
done:
    gpu_module_unload(module);
    free(a), free(b), free(c), free(out);
    return status;
}
