/* Instruction coverage (kernels/isa.c): every RV32IMA instruction the core
 * runs, on edge operands (sign bits, zero, INT_MIN and -1, shifts by 0 and
 * 31, every byte offset of the sub-word loads and stores, the nine AMOs on
 * global and shared words, lr.w/sc.w), against this file's own C
 * arithmetic. Not the scalar reference interpreter: it shares the core's
 * decoder and ALU (rv32.c), so a decoding bug (srai run as srli) would pass
 * both. Threads 0..143 take every pair of 12 edge values; the rest take
 * random pairs. */
#include "host_common.h"
#include "kernels/isa_ops.h"

static uint32_t sra32(uint32_t a, uint32_t s)
{
    s &= 31;
    return s && (a & 0x80000000u) ? (a >> s) | ~(0xffffffffu >> s) : a >> s;
}
static uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t op_sub(uint32_t a, uint32_t b) { return a - b; }
static uint32_t op_sll(uint32_t a, uint32_t b) { return a << (b & 31); }
static uint32_t op_slt(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
static uint32_t op_sltu(uint32_t a, uint32_t b) { return a < b; }
static uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t op_srl(uint32_t a, uint32_t b) { return a >> (b & 31); }
static uint32_t op_sra(uint32_t a, uint32_t b) { return sra32(a, b); }
static uint32_t op_or(uint32_t a, uint32_t b) { return a | b; }
static uint32_t op_and(uint32_t a, uint32_t b) { return a & b; }
static uint32_t op_mul(uint32_t a, uint32_t b) { return a * b; }
static uint32_t op_mulh(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32); }
static uint32_t op_mulhsu(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)b) >> 32); }
static uint32_t op_mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static uint32_t op_div(uint32_t a, uint32_t b)
{
    if (!b) return 0xffffffffu;
    if (a == 0x80000000u && b == 0xffffffffu) return a;
    return (uint32_t)((int32_t)a / (int32_t)b);
}
static uint32_t op_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
static uint32_t op_rem(uint32_t a, uint32_t b)
{
    if (!b) return a;
    if (a == 0x80000000u && b == 0xffffffffu) return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}
static uint32_t op_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }
static uint32_t op_beq(uint32_t a, uint32_t b) { return a == b; }
static uint32_t op_bne(uint32_t a, uint32_t b) { return a != b; }
static uint32_t op_blt(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
static uint32_t op_bge(uint32_t a, uint32_t b) { return (int32_t)a >= (int32_t)b; }
static uint32_t op_bltu(uint32_t a, uint32_t b) { return a < b; }
static uint32_t op_bgeu(uint32_t a, uint32_t b) { return a >= b; }
static uint32_t op_swap(uint32_t a, uint32_t b) { return (void)a, b; }
static uint32_t op_min(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a : b; }
static uint32_t op_max(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b ? a : b; }
static uint32_t op_minu(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t op_maxu(uint32_t a, uint32_t b) { return a > b ? a : b; }

typedef uint32_t (*isa_function)(uint32_t, uint32_t);
typedef struct isa_entry {
    const char *name;
    isa_function f;
    int32_t imm; /* I ops: the immediate as b */
    bool immediate;
} isa_entry;

#define R_ENTRY(op) {#op, op_##op, 0, false},
#define I_ENTRY(op, r_op, imm) {#op " " #imm, op_##r_op, imm, true},
#define B_ENTRY(op) {#op, op_##op, 0, false},
#define AMO_ENTRY(op, name) {#op ".w", op_##name, 0, false},
static const isa_entry alu[] = {ISA_R_OPS(R_ENTRY) ISA_I_OPS(I_ENTRY) ISA_BRANCHES(B_ENTRY)};
static const isa_entry amos[] = {ISA_AMOS(AMO_ENTRY)};

/* lb, lbu at bytes 0..3; lh, lhu at 0, 2; lw (kernels/isa.c's LOADS). */
static void expected_loads(uint32_t word, uint32_t *out)
{
    for (int i = 0; i < 4; i++) out[i] = (uint32_t)(int32_t)(int8_t)(word >> 8 * i);
    for (int i = 0; i < 4; i++) out[4 + i] = (word >> 8 * i) & 0xff;
    out[8] = (uint32_t)(int32_t)(int16_t)word;
    out[9] = (uint32_t)(int32_t)(int16_t)(word >> 16);
    out[10] = word;
}

/* What the sub-word stores of a leave in words set to 0xa5a5a5a5. */
static void expected_stores(uint32_t a, uint32_t *words)
{
    for (int i = 0; i < 4; i++) words[i] = (0xa5a5a5a5u & ~(0xffu << 8 * i)) | (a & 0xff) << 8 * i;
    words[4] = 0xa5a50000u | (a & 0xffff);
    words[5] = 0x0000a5a5u | a << 16;
    words[6] = a;
}

static int mismatch(workload_context *context, uint32_t thread, uint32_t a, uint32_t b, const char *what, uint32_t got,
                    uint32_t expected)
{
    return workload_fail(context, "isa: thread %u (a = 0x%08x, b = 0x%08x): %s gave 0x%08x, expected 0x%08x", thread, a, b, what,
                         got, expected);
}

int isa_main(gpu_device *device, workload_context *context)
{
    static const uint32_t edges[] = {0,          1,          0xffffffffu, 0x80000000u, 0x7fffffffu, 31,
                                     32,         0x80000001u, 0x12345678u, 0xfedcba98u, 2,           0xfffffffeu};
    enum { EDGES = sizeof edges / sizeof edges[0] };
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, ISA_BLOCK_MAX);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "isa", path, sizeof path);
    if (context->bad_input) return 1;
    enum { ALU = sizeof alu / sizeof alu[0], PER_THREAD = ISA_RESULTS + ISA_SHARED_LOADS };
    _Static_assert(ALU == ISA_R_COUNT + ISA_I_COUNT + ISA_BRANCH_COUNT, "isa_ops.h lists");
    int status = 0;
    gpu_module *module = NULL;
    uint32_t *a = malloc(4 * n), *b = malloc(4 * n), *in = malloc(4 * n), *out = malloc(4 * (size_t)n * PER_THREAD);
    uint32_t *global = malloc(4 * (size_t)n * ISA_GLOBAL_WORDS), *shared = malloc(4 * (size_t)n * ISA_SHARED_WORDS);
    if (!a || !b || !in || !out || !global || !shared) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        a[i] = i < EDGES * EDGES ? edges[i / EDGES] : (uint32_t)workload_random(&seed);
        b[i] = i < EDGES * EDGES ? edges[i % EDGES] : (uint32_t)workload_random(&seed);
        in[i] = (uint32_t)workload_random(&seed);
        uint32_t *g = global + (size_t)i * ISA_GLOBAL_WORDS;
        for (uint32_t w = 0; w < ISA_STORE_WORDS; w++) g[w] = 0xa5a5a5a5u;
        for (uint32_t w = ISA_STORE_WORDS; w < ISA_GLOBAL_WORDS; w++) g[w] = a[i];
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_a, d_b, d_in, d_out, d_global, d_shared;
    HOST_CHECK(d_a = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_b = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_in = gpu_malloc(device, 4 * n));
    HOST_CHECK(d_out = gpu_malloc(device, 4 * (size_t)n * PER_THREAD));
    HOST_CHECK(d_global = gpu_malloc(device, 4 * (size_t)n * ISA_GLOBAL_WORDS));
    HOST_CHECK(d_shared = gpu_malloc(device, 4 * (size_t)n * ISA_SHARED_WORDS));
    HOST_CHECK(gpu_copy_to_device(device, d_a, a, 4 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_b, b, 4 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_in, in, 4 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_global, global, 4 * (size_t)n * ISA_GLOBAL_WORDS));
    struct isa_args args = {d_a, d_b, d_in, d_out, d_global, d_shared, n};
    HOST_CHECK(gpu_launch(device, module, "isa", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    HOST_CHECK(gpu_copy_from_device(device, out, d_out, 4 * (size_t)n * PER_THREAD));
    HOST_CHECK(gpu_copy_from_device(device, global, d_global, 4 * (size_t)n * ISA_GLOBAL_WORDS));
    HOST_CHECK(gpu_copy_from_device(device, shared, d_shared, 4 * (size_t)n * ISA_SHARED_WORDS));
    for (uint32_t i = 0; i < n && !status; i++) {
        uint32_t x = a[i], y = b[i], k = 0, loads[ISA_LOADS], stores[ISA_STORE_WORDS];
        const uint32_t *r = out + (size_t)i * PER_THREAD, *g = global + (size_t)i * ISA_GLOBAL_WORDS;
        const uint32_t *s = shared + (size_t)i * ISA_SHARED_WORDS;
        char what[64];
        for (uint32_t e = 0; e < ALU && !status; e++, k++) {
            uint32_t expected = alu[e].f(x, alu[e].immediate ? (uint32_t)alu[e].imm : y);
            if (r[k] != expected) status = mismatch(context, i, x, y, alu[e].name, r[k], expected);
        }
        expected_loads(in[i], loads);
        static const char *const load_names[ISA_LOADS] = {"lb 0", "lb 1", "lb 2", "lb 3", "lbu 0", "lbu 1", "lbu 2", "lbu 3",
                                                          "lh 0", "lh 2", "lw 0"};
        for (uint32_t l = 0; l < ISA_LOADS && !status; l++, k++)
            if (r[k] != loads[l]) status = mismatch(context, i, x, y, load_names[l], r[k], loads[l]);
        for (int space = 0; space < 2; space++)
            for (uint32_t m = 0; m < ISA_AMO_COUNT && !status; m++, k++) {
                snprintf(what, sizeof what, "%s on %s memory (old value)", amos[m].name, space ? "shared" : "global");
                if (r[k] != x) status = mismatch(context, i, x, y, what, r[k], x);
                const uint32_t *word = (space ? s : g) + ISA_STORE_WORDS + m;
                snprintf(what, sizeof what, "%s on %s memory (the word after it)", amos[m].name, space ? "shared" : "global");
                if (!status && *word != amos[m].f(x, y)) status = mismatch(context, i, x, y, what, *word, amos[m].f(x, y));
            }
        const struct {
            const char *what;
            uint32_t got, expected;
        } misc[] = {
            {"lr.w", r[k], x}, {"sc.w after lr.w (status)", r[k + 1], 0}, {"sc.w without a reservation (status)", r[k + 2], 1},
            {"the word after sc.w", g[ISA_STORE_WORDS + ISA_AMO_COUNT], y}, {"lui 0x80000", r[k + 3], 0x80000000u},
            {"lui 0xfffff", r[k + 4], 0xfffff000u}, {"auipc, jal over one instruction, auipc: the distance (and a call)", r[k + 5], 12},
        };
        k += ISA_MISC;
        for (size_t m = 0; m < sizeof misc / sizeof misc[0] && !status; m++)
            if (misc[m].got != misc[m].expected) status = mismatch(context, i, x, y, misc[m].what, misc[m].got, misc[m].expected);
        for (uint32_t l = 0; l < ISA_SHARED_LOADS && !status; l++, k++) {
            snprintf(what, sizeof what, "%s from shared memory", load_names[l]);
            if (r[k] != loads[l]) status = mismatch(context, i, x, y, what, r[k], loads[l]);
        }
        expected_stores(x, stores);
        static const char *const store_names[ISA_STORE_WORDS] = {"sb at byte 0", "sb at byte 1", "sb at byte 2", "sb at byte 3",
                                                                 "sh at byte 0", "sh at byte 2", "sw"};
        for (int space = 0; space < 2; space++)
            for (uint32_t w = 0; w < ISA_STORE_WORDS && !status; w++) {
                uint32_t got = (space ? s : g)[w];
                snprintf(what, sizeof what, "%s to %s memory (the word after it)", store_names[w], space ? "shared" : "global");
                if (got != stores[w]) status = mismatch(context, i, x, y, what, got, stores[w]);
            }
    }
    if (!status && context->log)
        fprintf(context->log, "isa: %u threads, each with %u ALU and branch results, %u loads, %u AMOs, lr/sc, lui, auipc, jal and "
                              "%u sub-word store words correct\n", n, ALU, 2 * ISA_LOADS, 2 * ISA_AMO_COUNT, 2 * ISA_STORE_WORDS);
done:
    gpu_module_unload(module);
    free(a), free(b), free(in), free(out), free(global), free(shared);
    return status;
}
