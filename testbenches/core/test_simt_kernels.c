/* Kernel toolchain, loader, verifier, IPDOM, disassembler and the scalar
 * reference interpreter, on the kernels the build compiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_image.h"
#include "rv32.h"
#include "rv32_reference.h"
#include "sparse_memory.h"
#include "test_support.h"

static const char *kernel_dir;

static void kernel_path(const char *name, const char *opt, char *path, size_t size)
{
    snprintf(path, size, "%s/%s_%s.elf", kernel_dir, name, opt);
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long length = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *bytes = malloc((size_t)length);
    *size = fread(bytes, 1, (size_t)length, f);
    fclose(f);
    return bytes;
}

static void test_decode_and_disassemble(void)
{
    /* Encodings checked against llvm-objdump. */
    static const struct {
        uint32_t raw, pc;
        const char *text;
    } cases[] = {
        {0x00a50533, 0, "add a0, a0, a0"},
        {0xfff58593, 0, "addi a1, a1, -1"},
        {0x00c52023, 0, "sw a2, 0(a0)"},
        {0xffc5a683, 0, "lw a3, -4(a1)"},
        {0x00b50463, 0x100, "beq a0, a1, 0x108"},
        {0x00008067, 0, "ret"},
        {0x008000ef, 0x200, "jal ra, 0x208"},
        {0xcc0025f3, 0, "csrr a1, 0xcc0"},
        {0x02b50533, 0, "mul a0, a0, a1"},
        {0x02b54533, 0, "div a0, a0, a1"},
        {0x00b5252f, 0, "amoadd.w a0, a1, (a0)"},
        {0x1005a52f, 0, "lr.w a0, (a1)"},
        {0x18d5a62f, 0, "sc.w a2, a3, (a1)"},
        {0x0000000b, 0, "gpu.bar"},
        {0x0000100b, 0, "gpu.exit"},
        {0x0000200b, 0, "gpu.tx_begin"},
        {0x00b5202b, 0, "gpu.nt_store a1, 0(a0)"},
        {0x0005400b, 0, "gpu.clwb (a0)"},
        {0x0000500b, 0, "gpu.sfence"},
        {0xc0001073, 0, "csr-write 0xc00 (0xc0001073)"},
        /* F: f registers by their ABI names, the rs3 of a fused op, fcsr accesses. */
        {0x0085a507, 0, "flw fa0, 8(a1)"},
        {0xfeb12e27, 0, "fsw fa1, -4(sp)"},
        {0x00208053, 0, "fadd.s ft0, ft1, ft2"},
        {0x68c5f543, 0, "fmadd.s fa0, fa1, fa2, fa3"},
        {0x5800f053, 0, "fsqrt.s ft0, ft1"},
        {0xc0051553, 0, "fcvt.w.s a0, fa0"},
        {0xd015f553, 0, "fcvt.s.wu fa0, a1"},
        {0xa0b52553, 0, "feq.s a0, fa0, fa1"},
        {0xe00f9553, 0, "fclass.s a0, ft11"},
        {0xf0050053, 0, "fmv.w.x ft0, a0"},
        {0x00102573, 0, "csrrs a0, fflags, zero"},
        {0x0021d5f3, 0, "csrrwi a1, frm, 3"},
        {0xc0002573, 0, "csrr a0, 0xc00"},
        {0xffffffff, 0, "illegal 0xffffffff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rv_insn insn;
        char text[96];
        rv_decode(cases[i].raw, &insn);
        rv_disassemble(&insn, cases[i].pc, text, sizeof text);
        CHECK_STRING(text, cases[i].text);
    }
    /* The persistence ops: clwb and the non-temporal store take the store
     * path (clwb on any byte of its line), sfence is a fence. */
    CHECK_EQUAL(rv_class_of(RV_CLWB), RV_CLASS_STORE);
    CHECK_EQUAL(rv_class_of(RV_NT_STORE), RV_CLASS_STORE);
    CHECK_EQUAL(rv_class_of(RV_SFENCE), RV_CLASS_FENCE);
    CHECK_EQUAL(rv_access_size(RV_CLWB), 1);
    CHECK_EQUAL(rv_access_size(RV_NT_STORE), 4);
    /* AGPM's log updates: custom-1 funct3 3 and 4, stores of a word. */
    rv_insn log;
    rv_decode(0x00B5302Bu, &log); /* gpu_persist_log: a1 at 0(a0) */
    CHECK_EQUAL(log.op, RV_LOG_STORE);
    CHECK_EQUAL(log.rs1, 10);
    CHECK_EQUAL(log.rs2, 11);
    rv_decode(0x00B5402Bu, &log); /* gpu_persist_log_name */
    CHECK_EQUAL(log.op, RV_LOG_NAME_STORE);
    CHECK_EQUAL(rv_class_of(RV_LOG_NAME_STORE), RV_CLASS_STORE);
    CHECK_EQUAL(rv_access_size(RV_LOG_STORE), 4);
    rv_decode(0x00B5502Bu, &log); /* funct3 5: free */
    CHECK_EQUAL(log.op, RV_ILLEGAL);
    /* F operands in the one register index space; fields that are no
     * register (fsqrt's rs2, fsrmi's immediate) read as x0 (no dependency). */
    rv_insn f;
    rv_decode(0x68c5f543, &f); /* fmadd.s fa0, fa1, fa2, fa3 */
    CHECK_EQUAL(f.rd, RV_FLOAT_REGISTER(10));
    CHECK_EQUAL(f.rs1, RV_FLOAT_REGISTER(11));
    CHECK_EQUAL(rv_rs3(&f), RV_FLOAT_REGISTER(13));
    rv_decode(0x5800f053, &f); /* fsqrt.s ft0, ft1 */
    CHECK_EQUAL(f.rs2, 0);
    rv_decode(0x0021d5f3, &f); /* fsrmi a1, 3 */
    CHECK_EQUAL(f.op, RV_FCSR_ACCESS);
    CHECK_EQUAL(f.rs1, 0);
    rv_decode(0x00205053, &f); /* fadd.s with the reserved rounding mode 5 */
    CHECK_EQUAL(f.op, RV_ILLEGAL);
    CHECK_EQUAL(rv_compute(RV_DIV, 7, 0), UINT32_MAX);
    CHECK_EQUAL(rv_compute(RV_REM, 7, 0), 7);
    CHECK_EQUAL(rv_compute(RV_DIV, 0x80000000u, UINT32_MAX), 0x80000000u);
    CHECK_EQUAL(rv_compute(RV_MULHU, 0xffffffffu, 0xffffffffu), 0xfffffffeu);
    CHECK_EQUAL(rv_compute(RV_SRA, 0x80000000u, 4), 0xf8000000u);
    CHECK_EQUAL(rv_extend_load(RV_LB, 0x80), 0xffffff80u);
    CHECK_EQUAL(rv_amo_apply(RV_AMOMIN, 5, (uint32_t)-3), (uint32_t)-3);
    CHECK_EQUAL(rv_amo_apply(RV_AMOMINU, 5, (uint32_t)-3), 5);
}

/* Every branch reconverges at an instruction of its function reachable from
 * both of its successors, or at the virtual exit. */
static bool reaches(const kernel_image *image, const kernel_function *f, uint32_t from, uint32_t to, uint8_t *seen)
{
    uint32_t n = (f->end - f->start) / 4;
    memset(seen, 0, n);
    uint32_t *stack = malloc(sizeof(uint32_t) * (n + 1));
    uint32_t depth = 0;
    bool found = false;
    stack[depth++] = from;
    while (depth && !found) {
        uint32_t pc = stack[--depth];
        if (pc < f->start || pc >= f->end || seen[(pc - f->start) / 4]) continue;
        seen[(pc - f->start) / 4] = 1;
        if (pc == to) found = true;
        const kernel_insn *k = kernel_image_insn(image, pc);
        switch ((kernel_flow)k->flow) {
        case KERNEL_FLOW_BRANCH: stack[depth++] = k->target; stack[depth++] = pc + 4; break;
        case KERNEL_FLOW_JUMP: stack[depth++] = k->target; break;
        case KERNEL_FLOW_RETURN: case KERNEL_FLOW_TAIL_CALL: case KERNEL_FLOW_STOP: break;
        default: stack[depth++] = pc + 4; break;
        }
    }
    free(stack);
    return found;
}

static void test_good_kernels(void)
{
    static const char *const kernels[] = {"vector_add", "reduction", "histogram", "spmv", "bfs", "divergence"};
    static const char *const opts[] = {"O0", "O1", "O2", "O3", "Os"};
    uint8_t *seen = malloc(1 << 20);
    for (size_t k = 0; k < 6; k++)
        for (size_t o = 0; o < 5; o++) {
            char path[1024], error[512] = "";
            kernel_path(kernels[k], opts[o], path, sizeof path);
            kernel_image *image = kernel_image_load_file(path, error, sizeof error);
            if (!CHECK(image != NULL)) {
                fprintf(stderr, "  %s\n", error);
                continue;
            }
            CHECK(kernel_image_find_function(image, kernels[k]) != NULL);
            CHECK(kernel_image_find_function(image, "memcpy") != NULL);
            if (!strcmp(kernels[k], "histogram")) CHECK(image->static_shared_bytes >= 256 * 4);
            unsigned branches = 0, bad = 0;
            for (size_t f = 0; f < image->function_count; f++) {
                const kernel_function *fn = &image->functions[f];
                for (uint32_t pc = fn->start; pc < fn->end; pc += 4) {
                    const kernel_insn *insn = kernel_image_insn(image, pc);
                    if (insn->flow != KERNEL_FLOW_BRANCH) continue;
                    branches++;
                    if (insn->reconverge == KERNEL_EXIT_PC) continue;
                    if (insn->reconverge < fn->start || insn->reconverge >= fn->end ||
                        !reaches(image, fn, insn->target, insn->reconverge, seen) || !reaches(image, fn, pc + 4, insn->reconverge, seen))
                        bad++;
                }
            }
            CHECK(branches > 0);
            CHECK_EQUAL(bad, 0);
            kernel_image_destroy(image);
        }
    free(seen);
}

/* gpu.h's transaction intrinsics survive optimisation as written: the
 * kernel with one transaction on each arm of an if keeps two tx_begins and
 * two tx_commits at every level and loads (clang merged the begins at -O1
 * and above, issue 26). */
static void test_transactions_kept_apart(void)
{
    static const char *const opts[] = {"O0", "O1", "O2", "O3", "Os"};
    for (size_t o = 0; o < 5; o++) {
        char path[1024], error[512] = "";
        kernel_path("tx_blind", opts[o], path, sizeof path);
        kernel_image *image = kernel_image_load_file(path, error, sizeof error);
        if (!CHECK(image != NULL)) {
            fprintf(stderr, "  %s: %s\n", opts[o], error);
            continue;
        }
        const kernel_function *f = kernel_image_find_function(image, "tx_blind");
        unsigned begins = 0, commits = 0;
        for (uint32_t pc = f->start; pc < f->end; pc += 4) {
            rv_op op = (rv_op)kernel_image_insn(image, pc)->insn.op;
            begins += op == RV_TX_BEGIN;
            commits += op == RV_TX_COMMIT;
        }
        CHECK_EQUAL(begins, 2);
        CHECK_EQUAL(commits, 2);
        kernel_image_destroy(image);
    }
}

static void expect_rejected(const char *name, const char *message)
{
    char path[1024], error[512] = "";
    kernel_path(name, "O2", path, sizeof path);
    kernel_image *image = kernel_image_load_file(path, error, sizeof error);
    CHECK(image == NULL);
    CHECK_CONTAINS(error, message);
    kernel_image_destroy(image);
}

static void test_rejections(void)
{
    expect_rejected("bad_jump_table", "indirect jump at 0x");
    expect_rejected("bad_indirect_call", "indirect call at 0x");
    expect_rejected("bad_tx", "has no tx_commit on every path after it");
    expect_rejected("bad_text_window", "lies outside the code window");
    char error[512] = "";
    CHECK(kernel_image_load_file("/nonexistent/kernel.elf", error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "cannot open kernel");
    /* Runtime-failing kernels load fine: their errors come at run time. */
    char path[1024];
    kernel_path("bad_illegal", "O2", path, sizeof path);
    kernel_image *image = kernel_image_load_file(path, error, sizeof error);
    CHECK(image != NULL);
    kernel_image_destroy(image);
}

/* Every truncation and many corruptions of a good ELF give an error or a
 * verified image, never a crash (run under the sanitizers too). */
static void test_malformed(void)
{
    char path[1024], error[512];
    kernel_path("divergence", "O2", path, sizeof path);
    size_t size = 0;
    uint8_t *bytes = read_all(path, &size);
    if (!CHECK(bytes != NULL)) return;
    unsigned rejected = 0;
    for (size_t length = 0; length < size; length += length < 256 ? 1 : 61) {
        uint8_t *copy = malloc(length ? length : 1);
        memcpy(copy, bytes, length);
        kernel_image *image = kernel_image_load_memory(copy, length, error, sizeof error);
        if (!image) rejected++;
        else kernel_image_destroy(image);
        free(copy);
    }
    CHECK(rejected > 0);
    kernel_image *truncated = kernel_image_load_memory(bytes, size / 2, error, sizeof error);
    CHECK(truncated == NULL);
    CHECK(strstr(error, "truncated") != NULL || strstr(error, "malformed") != NULL);
    kernel_image_destroy(truncated);
    uint64_t state = 12345;
    uint8_t *copy = malloc(size);
    for (int round = 0; round < 3000; round++) {
        memcpy(copy, bytes, size);
        for (int flips = 0; flips < 4; flips++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(state >> 33) % (round % 2 ? size : 64 + 0 * size);
            copy[at] ^= (uint8_t)(state >> 13);
        }
        kernel_image *image = kernel_image_load_memory(copy, size, error, sizeof error);
        kernel_image_destroy(image);
    }
    free(copy);
    free(bytes);
    CHECK(kernel_image_load_memory((const uint8_t *)"\177ELF", 4, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "not an ELF");
}

static bool reference_access(void *context, bool is_write, uint32_t address, void *data, unsigned size)
{
    if (is_write) sparse_memory_write(context, address, data, size);
    else sparse_memory_read(context, address, data, size);
    return true;
}

static void test_reference(void)
{
    char path[1024], error[512];
    kernel_path("vector_add", "O0", path, sizeof path);
    kernel_image *image = kernel_image_load_file(path, error, sizeof error);
    if (!CHECK(image != NULL)) return;
    sparse_memory *memory = sparse_memory_create();
    uint32_t args[4] = {0x10100000, 0x10200000, 0x10300000, 8};
    sparse_memory_write(memory, 0x100f0000, args, sizeof args);
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t a = 100 + i, b = 1000 * i;
        sparse_memory_write(memory, args[0] + 4 * i, &a, 4);
        sparse_memory_write(memory, args[1] + 4 * i, &b, 4);
    }
    for (uint32_t t = 0; t < 10; t++) { /* threads 8, 9 are out of range */
        rv_reference_thread thread = {{t, 0, 0}, {10, 1, 1}, {0, 0, 0}, {1, 1, 1}, 32, 0x100f0000, 1024};
        uint64_t steps = 0;
        CHECK(rv_reference_run(image, kernel_image_find_function(image, "vector_add")->start, &thread, reference_access, memory,
                               10000, &steps, error, sizeof error));
        CHECK(steps > 5);
    }
    for (uint32_t i = 0; i < 10; i++) {
        uint32_t c = 0;
        sparse_memory_read(memory, args[2] + 4 * i, &c, 4);
        CHECK_EQUAL(c, i < 8 ? 100 + i + 1000 * i : 0);
    }
    sparse_memory_destroy(memory);
    kernel_image_destroy(image);
    /* The reference reports faults clearly. */
    kernel_path("bad_window", "O2", path, sizeof path);
    image = kernel_image_load_file(path, error, sizeof error);
    if (!CHECK(image != NULL)) return;
    memory = sparse_memory_create();
    sparse_memory_write(memory, 0x100f0000, args, sizeof args);
    rv_reference_thread thread = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 32, 0x100f0000, 1024};
    CHECK(!rv_reference_run(image, kernel_image_find_function(image, "vector_add")->start, &thread, reference_access, memory, 10000,
                            NULL, error, sizeof error));
    CHECK_CONTAINS(error, "bad access to 0x90000000");
    sparse_memory_destroy(memory);
    kernel_image_destroy(image);
}

int main(int argc, char **argv)
{
    kernel_dir = argc > 1 ? argv[1] : SIMTX_KERNEL_DIR;
    test_decode_and_disassemble();
    test_good_kernels();
    test_transactions_kept_apart();
    test_rejections();
    test_malformed();
    test_reference();
    return simtx_test_summary();
}
