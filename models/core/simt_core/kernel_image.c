#include "kernel_image.h"
#include "kernel_shared.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EM_RISCV 243
#define PT_LOAD 1
#define SHT_SYMTAB 2
#define SHF_EXECINSTR 4
#define STT_FUNC 2
#define STT_OBJECT 1

static uint16_t read16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t read32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static bool failf(char *error, size_t error_size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
    return false;
}

const kernel_function *kernel_image_function_at(const kernel_image *image, uint32_t pc)
{
    for (size_t i = 0; i < image->function_count; i++)
        if (pc >= image->functions[i].start && pc < image->functions[i].end) return &image->functions[i];
    return NULL;
}

const kernel_function *kernel_image_find_function(const kernel_image *image, const char *name)
{
    for (size_t i = 0; i < image->function_count; i++)
        if (!strcmp(image->functions[i].name, name)) return &image->functions[i];
    return NULL;
}

void kernel_image_describe_pc(const kernel_image *image, uint32_t pc, char *out, size_t out_size)
{
    const kernel_function *f = kernel_image_function_at(image, pc);
    const kernel_insn *k = kernel_image_insn(image, pc);
    char text[96] = "(outside the kernel's text)";
    if (k) rv_disassemble(&k->insn, pc, text, sizeof text);
    if (f) snprintf(out, out_size, "0x%x <%s+0x%x>: %s", pc, f->name, pc - f->start, text);
    else snprintf(out, out_size, "0x%x: %s", pc, text);
}

bool kernel_image_read_code(const kernel_image *image, uint32_t address, void *data, unsigned size)
{
    if (address < image->code_start || address >= image->code_end || size > image->code_end - address) return false;
    memcpy(data, image->code + (address - image->code_start), size);
    return true;
}

void kernel_image_destroy(kernel_image *image)
{
    if (!image) return;
    for (size_t i = 0; i < image->function_count; i++) free(image->functions[i].name);
    for (size_t i = 0; i < image->data_segment_count; i++) free(image->data_segments[i].bytes);
    free(image->functions);
    free(image->data_segments);
    free(image->insns);
    free(image->code);
    free(image);
}

/* A persistence op between a tx_begin (index begin) and its commit (end)
 * in the same function is refused at load time: lazy versioning holds the
 * transaction's stores until the commit, so nothing could be persisted
 * there (the core refuses one reached through a call at run time). A
 * search over the successors from begin that stops at end; visited and
 * stack are scratch arrays of n + 1 entries. */
static bool no_persistence_op_inside(const kernel_image *image, const kernel_function *f, const kernel_insn *insns, uint32_t n,
                                     const uint32_t *successors, uint32_t begin, uint32_t end, uint32_t *visited, uint32_t *stack,
                                     char *error, size_t error_size)
{
    for (uint32_t v = 0; v <= n; v++) visited[v] = 0;
    uint32_t depth = 0;
    stack[depth++] = begin;
    visited[begin] = 1;
    while (depth) {
        uint32_t v = stack[--depth];
        rv_op op = (rv_op)insns[v].insn.op;
        if (op == RV_SFENCE || op == RV_CLWB || op == RV_NT_STORE || op == RV_LOG_STORE || op == RV_LOG_NAME_STORE) {
            char where[160], begun[160];
            kernel_image_describe_pc(image, f->start + 4 * v, where, sizeof where);
            kernel_image_describe_pc(image, f->start + 4 * begin, begun, sizeof begun);
            return failf(error, error_size,
                         "%s at %s lies inside the transaction begun at %s: persistence ops are not supported in transactions "
                         "(the transaction's stores wait for its commit; persist after tx_commit)",
                         rv_op_name(op), where, begun);
        }
        for (int s = 0; s < 2; s++) {
            uint32_t w = successors[2 * v + s];
            if (w >= n || w == end || visited[w]) continue;
            visited[w] = 1;
            stack[depth++] = w;
        }
    }
    return true;
}

/* Immediate post-dominators of one function's instructions (Cooper, Harvey
 * and Kennedy's iterative algorithm on the reverse CFG; node n is the
 * virtual exit). Writes the reconvergence pc of every branch. */
static bool compute_post_dominators(kernel_image *image, const kernel_function *f, char *error, size_t error_size)
{
    uint32_t n = (f->end - f->start) / 4, exit_node = n;
    kernel_insn *insns = &image->insns[(f->start - image->text_start) / 4];
    uint32_t *successors = malloc(sizeof(uint32_t) * 2 * (n + 1));
    uint32_t *pred_count = calloc(n + 2, sizeof(uint32_t));
    uint32_t *pred_start = calloc(n + 2, sizeof(uint32_t));
    uint32_t *preds = malloc(sizeof(uint32_t) * 2 * (n + 1));
    uint32_t *order = malloc(sizeof(uint32_t) * (n + 1));     /* postorder of the reverse DFS */
    uint32_t *number = malloc(sizeof(uint32_t) * (n + 1));    /* postorder number, UINT32_MAX: unreached */
    uint32_t *ipdom = malloc(sizeof(uint32_t) * (n + 1));
    uint32_t *stack = malloc(sizeof(uint32_t) * (n + 1));
    uint32_t *next_pred = calloc(n + 1, sizeof(uint32_t));
    bool ok = successors && pred_count && pred_start && preds && order && number && ipdom && stack && next_pred;
    if (!ok) {
        failf(error, error_size, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        const kernel_insn *k = &insns[i];
        uint32_t a = exit_node, b = exit_node;
        switch ((kernel_flow)k->flow) {
        case KERNEL_FLOW_BRANCH: a = i + 1; b = (k->target - f->start) / 4; break;
        case KERNEL_FLOW_JUMP: a = b = (k->target - f->start) / 4; break;
        case KERNEL_FLOW_RETURN: case KERNEL_FLOW_TAIL_CALL: case KERNEL_FLOW_STOP: break;
        default: a = b = i + 1; break;
        }
        if (a > n) a = exit_node;
        if (b > n) b = exit_node;
        successors[2 * i] = a;
        successors[2 * i + 1] = b;
        pred_count[a]++;
        if (b != a) pred_count[b]++;
    }
    for (uint32_t v = 0; v <= n; v++) pred_start[v + 1] = pred_start[v] + pred_count[v];
    for (uint32_t v = 0; v <= n; v++) pred_count[v] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = successors[2 * i], b = successors[2 * i + 1];
        preds[pred_start[a] + pred_count[a]++] = i;
        if (b != a) preds[pred_start[b] + pred_count[b]++] = i;
    }
    /* Iterative DFS over predecessors from the exit: postorder numbers. */
    for (uint32_t v = 0; v <= n; v++) number[v] = UINT32_MAX, ipdom[v] = UINT32_MAX;
    uint32_t depth = 0, counter = 0;
    stack[depth++] = exit_node;
    number[exit_node] = UINT32_MAX - 1; /* visited marker */
    while (depth) {
        uint32_t v = stack[depth - 1];
        if (next_pred[v] < pred_count[v]) {
            uint32_t p = preds[pred_start[v] + next_pred[v]++];
            if (number[p] == UINT32_MAX) {
                number[p] = UINT32_MAX - 1;
                stack[depth++] = p;
            }
        } else {
            depth--;
            number[v] = counter;
            order[counter++] = v;
        }
    }
    ipdom[exit_node] = exit_node;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = counter - 1; k-- > 0;) { /* reverse postorder, skipping the exit */
            uint32_t v = order[k], best = UINT32_MAX;
            for (int s = 0; s < 2; s++) {
                uint32_t w = successors[2 * v + s];
                if (ipdom[w] == UINT32_MAX) continue;
                if (best == UINT32_MAX) {
                    best = w;
                    continue;
                }
                uint32_t x = w, y = best;
                while (x != y) {
                    while (number[x] < number[y]) x = ipdom[x];
                    while (number[y] < number[x]) y = ipdom[y];
                }
                best = x;
            }
            if (best != UINT32_MAX && ipdom[v] != best) {
                ipdom[v] = best;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (insns[i].flow != KERNEL_FLOW_BRANCH) continue;
        uint32_t p = ipdom[i]; /* unreached (an endless loop): reconverge only at the exit */
        insns[i].reconverge = (p == UINT32_MAX || p >= n) ? KERNEL_EXIT_PC : f->start + 4 * p;
    }
    /* Each tx_begin needs the tx_commit that ends it on every path: the
     * first commit on its post-dominator chain, skipping nested pairs
     * (flattened nesting). Its pc is where committed lanes continue. */
    for (uint32_t i = 0; ok && i < n; i++) {
        if (insns[i].insn.op != RV_TX_BEGIN) continue;
        uint32_t open = 1, v = ipdom[i], steps = 0;
        while (v != UINT32_MAX && v < n && steps++ <= n) {
            if (insns[v].insn.op == RV_TX_BEGIN) open++;
            else if (insns[v].insn.op == RV_TX_COMMIT && --open == 0) break;
            v = ipdom[v];
        }
        if (v == UINT32_MAX || v >= n || open) {
            char where[160];
            kernel_image_describe_pc(image, f->start + 4 * i, where, sizeof where);
            ok = failf(error, error_size,
                       "gpu.tx_begin at %s has no tx_commit on every path after it (a transaction must end in its function)",
                       where);
            break;
        }
        insns[i].target = f->start + 4 * v;
        ok = no_persistence_op_inside(image, f, insns, n, successors, i, v, next_pred, stack, error, error_size);
    }
done:
    free(successors), free(pred_count), free(pred_start), free(preds), free(order), free(number), free(ipdom), free(stack),
        free(next_pred);
    return ok;
}

static const kernel_function *function_starting_at(const kernel_image *image, uint32_t pc)
{
    for (size_t i = 0; i < image->function_count; i++)
        if (image->functions[i].start == pc) return &image->functions[i];
    return NULL;
}

/* Resolves control flow and rejects what SIMT execution cannot support. */
static bool verify_and_resolve(kernel_image *image, char *error, size_t error_size)
{
    size_t count = (image->text_end - image->text_start) / 4;
    for (size_t i = 0; i < count; i++) {
        kernel_insn *k = &image->insns[i];
        uint32_t pc = image->text_start + 4 * (uint32_t)i;
        const kernel_function *f = kernel_image_function_at(image, pc);
        char where[160];
        k->op_class = (uint8_t)rv_class_of((rv_op)k->insn.op);
        k->flow = KERNEL_FLOW_NEXT;
        k->reconverge = KERNEL_EXIT_PC;
        if (!f) continue; /* padding between functions is never executed */
        kernel_image_describe_pc(image, pc, where, sizeof where);
        switch ((rv_class)k->op_class) {
        case RV_CLASS_BRANCH:
            k->flow = KERNEL_FLOW_BRANCH;
            k->target = pc + (uint32_t)k->insn.imm;
            if (k->target < f->start || k->target >= f->end)
                return failf(error, error_size, "branch leaves its function at %s", where);
            if (k->target & 3) return failf(error, error_size, "branch to a misaligned address at %s", where);
            break;
        case RV_CLASS_JUMP: {
            bool direct = k->insn.op == RV_JAL;
            uint32_t target = pc + (uint32_t)k->insn.imm;
            if (!direct && i > 0 && pc - 4 >= f->start) { /* call/tail = auipc rX, hi; jalr rd, lo(rX) */
                const rv_insn *prev = &image->insns[i - 1].insn;
                if (prev->op == RV_AUIPC && prev->rd == k->insn.rs1 && prev->rd != 0) {
                    direct = true;
                    target = pc - 4 + (uint32_t)prev->imm + (uint32_t)k->insn.imm;
                }
            }
            if (!direct) {
                if (k->insn.rd == 0 && k->insn.rs1 == 1 && k->insn.imm == 0) {
                    k->flow = KERNEL_FLOW_RETURN;
                    break;
                }
                if (k->insn.rd == 0)
                    return failf(error, error_size,
                                 "indirect jump at %s: jump tables and computed gotos are not supported (build with -fno-jump-tables)",
                                 where);
                return failf(error, error_size,
                             "indirect call at %s: calls through function pointers may diverge and are not supported", where);
            }
            k->target = target;
            if (target & 3) return failf(error, error_size, "jump to a misaligned address at %s", where);
            if (k->insn.rd == 0 && target >= f->start && target < f->end) k->flow = KERNEL_FLOW_JUMP;
            else if (!function_starting_at(image, target))
                return failf(error, error_size, "jump to 0x%x, which is no function's entry, at %s", target, where);
            else k->flow = k->insn.rd == 0 ? KERNEL_FLOW_TAIL_CALL : KERNEL_FLOW_CALL;
            if (k->flow == KERNEL_FLOW_CALL && k->insn.rd != 1)
                return failf(error, error_size, "call that links a register other than ra at %s", where);
            break;
        }
        case RV_CLASS_EXIT: case RV_CLASS_ILLEGAL: k->flow = KERNEL_FLOW_STOP; break;
        case RV_CLASS_TX: break;
        default:
            if (k->insn.op == RV_ECALL || k->insn.op == RV_EBREAK) k->flow = KERNEL_FLOW_STOP;
            break;
        }
    }
    for (size_t i = 0; i < image->function_count; i++)
        if (!compute_post_dominators(image, &image->functions[i], error, error_size)) return false;
    return true;
}

kernel_image *kernel_image_load_memory(const uint8_t *elf, size_t size, char *error, size_t error_size)
{
    if (error_size) error[0] = 0;
    if (size < 52 || memcmp(elf, "\177ELF", 4) != 0) {
        failf(error, error_size, "not an ELF file (%zu bytes)", size);
        return NULL;
    }
    if (elf[4] != 1 || elf[5] != 1) {
        failf(error, error_size, "not a 32-bit little-endian ELF (class %u, data %u)", elf[4], elf[5]);
        return NULL;
    }
    if (read16(elf + 18) != EM_RISCV) {
        failf(error, error_size, "not a RISC-V ELF (machine %u)", read16(elf + 18));
        return NULL;
    }
    uint32_t phoff = read32(elf + 28), shoff = read32(elf + 32);
    uint16_t phentsize = read16(elf + 42), phnum = read16(elf + 44), shentsize = read16(elf + 46), shnum = read16(elf + 48);
    if ((phnum && (phentsize < 32 || phoff > size || (uint64_t)phnum * phentsize > size - phoff)) ||
        (shnum && (shentsize < 40 || shoff > size || (uint64_t)shnum * shentsize > size - shoff))) {
        failf(error, error_size, "malformed ELF: header tables lie outside the file (truncated?)");
        return NULL;
    }
    kernel_image *image = calloc(1, sizeof *image);
    if (!image) return NULL;
    image->text_start = UINT32_MAX;
    image->code_start = UINT32_MAX;
    /* Sections: executable text must sit in the code window. */
    for (unsigned s = 0; s < shnum; s++) {
        const uint8_t *sh = elf + shoff + (size_t)s * shentsize;
        uint32_t type = read32(sh + 4), flags = read32(sh + 8), address = read32(sh + 12), section_size = read32(sh + 20);
        if (type == 0 || !section_size) continue;
        if (flags & SHF_EXECINSTR) {
            if (address < RV_CODE_BASE + 0x1000 || address >= RV_CODE_END || section_size > RV_CODE_END - address) {
                failf(error, error_size, "text at 0x%x..0x%x lies outside the code window 0x%x..0x%x", address,
                      address + section_size, RV_CODE_BASE + 0x1000, RV_CODE_END);
                goto fail;
            }
            if (address < image->text_start) image->text_start = address;
            if (address + section_size > image->text_end) image->text_end = address + section_size;
        }
    }
    if (image->text_start == UINT32_MAX) {
        failf(error, error_size, "the ELF has no executable section");
        goto fail;
    }
    /* Segments: the code window's bytes, data for the global window, the
     * shared window's size. */
    for (unsigned p = 0; p < phnum; p++) {
        const uint8_t *ph = elf + phoff + (size_t)p * phentsize;
        if (read32(ph) != PT_LOAD) continue;
        uint32_t offset = read32(ph + 4), vaddr = read32(ph + 8), filesz = read32(ph + 16), memsz = read32(ph + 20);
        if (offset > size || filesz > size - offset || filesz > memsz) {
            failf(error, error_size, "malformed ELF: a segment's bytes lie outside the file (truncated?)");
            goto fail;
        }
        if (!memsz) continue;
        rv_window window = rv_window_of(vaddr);
        if (window != rv_window_of(vaddr + memsz - 1)) {
            failf(error, error_size, "segment 0x%x..0x%x spans two address windows", vaddr, vaddr + memsz);
            goto fail;
        }
        if (window == RV_WINDOW_CODE) {
            if (image->code_start != UINT32_MAX) {
                /* Merge into one image covering every code segment. */
                uint32_t start = vaddr < image->code_start ? vaddr : image->code_start;
                uint32_t end = vaddr + memsz > image->code_end ? vaddr + memsz : image->code_end;
                if (end - start > 64u << 20) {
                    failf(error, error_size, "code segments span more than 64 MiB");
                    goto fail;
                }
                uint8_t *merged = calloc(1, end - start);
                if (!merged) goto fail;
                memcpy(merged + (image->code_start - start), image->code, image->code_end - image->code_start);
                free(image->code);
                image->code = merged;
                image->code_start = start;
                image->code_end = end;
            } else {
                if (memsz > 64u << 20) {
                    failf(error, error_size, "code segment larger than 64 MiB");
                    goto fail;
                }
                image->code = calloc(1, memsz);
                if (!image->code) goto fail;
                image->code_start = vaddr;
                image->code_end = vaddr + memsz;
            }
            memcpy(image->code + (vaddr - image->code_start), elf + offset, filesz);
        } else if (window == RV_WINDOW_GLOBAL) {
            kernel_segment *grown = realloc(image->data_segments, sizeof *grown * (image->data_segment_count + 1));
            if (!grown) goto fail;
            image->data_segments = grown;
            kernel_segment *segment = &grown[image->data_segment_count++];
            segment->address = vaddr;
            segment->file_size = filesz;
            segment->memory_size = memsz;
            segment->bytes = malloc(filesz ? filesz : 1);
            if (!segment->bytes) goto fail;
            memcpy(segment->bytes, elf + offset, filesz);
        } else if (window == RV_WINDOW_SHARED) {
            if (filesz) {
                failf(error, error_size, "initialised data in the shared window (0x%x): shared variables cannot have initial values", vaddr);
                goto fail;
            }
            if (vaddr + memsz - RV_SHARED_BASE > image->static_shared_bytes) image->static_shared_bytes = vaddr + memsz - RV_SHARED_BASE;
        } else {
            failf(error, error_size, "segment at 0x%x lies outside the code, global and shared windows", vaddr);
            goto fail;
        }
    }
    if (image->code_start == UINT32_MAX || image->text_start < image->code_start || image->text_end > image->code_end) {
        failf(error, error_size, "the executable sections are not in a loadable segment");
        goto fail;
    }
    /* Functions from the symbol table. */
    for (unsigned s = 0; s < shnum; s++) {
        const uint8_t *sh = elf + shoff + (size_t)s * shentsize;
        if (read32(sh + 4) != SHT_SYMTAB) continue;
        uint32_t offset = read32(sh + 16), table_size = read32(sh + 20), link = read32(sh + 24), entsize = read32(sh + 36);
        if (link >= shnum || entsize < 16 || offset > size || table_size > size - offset) {
            failf(error, error_size, "malformed ELF: bad symbol table");
            goto fail;
        }
        const uint8_t *strsh = elf + shoff + (size_t)link * shentsize;
        uint32_t str_offset = read32(strsh + 16), str_size = read32(strsh + 20);
        if (str_offset > size || str_size > size - str_offset) {
            failf(error, error_size, "malformed ELF: bad string table");
            goto fail;
        }
        for (uint32_t e = 0; e + entsize <= table_size; e += entsize) {
            const uint8_t *sym = elf + offset + e;
            uint32_t name = read32(sym), value = read32(sym + 4), sym_size = read32(sym + 8);
            bool is_printf_buffer = (sym[12] & 15) == STT_OBJECT && name < str_size &&
                                    memchr(elf + str_offset + name, 0, str_size - name) &&
                                    !strcmp((const char *)elf + str_offset + name, KERNEL_PRINTF_BUFFER);
            if (is_printf_buffer) {
                if (rv_window_of(value) != RV_WINDOW_GLOBAL || (value & 3) || sym_size < 8 || (sym_size & 3)) {
                    failf(error, error_size, "%s at 0x%x (size %u) is not a word array in the global window", KERNEL_PRINTF_BUFFER,
                          value, sym_size);
                    goto fail;
                }
                image->printf_buffer = value, image->printf_buffer_size = sym_size;
                continue;
            }
            if ((sym[12] & 15) != STT_FUNC || !sym_size) continue;
            if (name >= str_size || !memchr(elf + str_offset + name, 0, str_size - name)) {
                failf(error, error_size, "malformed ELF: a symbol name lies outside its string table");
                goto fail;
            }
            if (value < image->text_start || value >= image->text_end || sym_size > image->text_end - value || (value & 3) ||
                (sym_size & 3)) {
                failf(error, error_size, "function '%s' at 0x%x (size %u) is not inside the text", (const char *)elf + str_offset + name,
                      value, sym_size);
                goto fail;
            }
            kernel_function *grown = realloc(image->functions, sizeof *grown * (image->function_count + 1));
            if (!grown) goto fail;
            image->functions = grown;
            grown[image->function_count].name = strdup((const char *)elf + str_offset + name);
            grown[image->function_count].start = value;
            grown[image->function_count].end = value + sym_size;
            image->function_count++;
        }
    }
    if (!image->function_count) {
        failf(error, error_size, "the ELF has no function symbols (was it stripped?)");
        goto fail;
    }
    if ((image->text_start & 3) || (image->text_end & 3)) {
        failf(error, error_size, "text is not 4-byte aligned (compressed instructions? build with -march=rv32imaf)");
        goto fail;
    }
    size_t count = (image->text_end - image->text_start) / 4;
    image->insns = calloc(count ? count : 1, sizeof *image->insns);
    if (!image->insns) goto fail;
    for (size_t i = 0; i < count; i++)
        rv_decode(read32(image->code + (image->text_start - image->code_start) + 4 * i), &image->insns[i].insn);
    if (!verify_and_resolve(image, error, error_size)) goto fail;
    if (!kernel_shared_charge(image, elf, size, error, error_size)) goto fail;
    return image;
fail:
    if (!error[0]) failf(error, error_size, "out of memory");
    kernel_image_destroy(image);
    return NULL;
}

kernel_image *kernel_image_load_file(const char *path, char *error, size_t error_size)
{
    if (error_size) error[0] = 0;
    /* Not a FIFO or device: opening one would wait for a writer. */
    struct stat info;
    if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
        failf(error, error_size, "kernel '%s' is not a regular file (a folder, FIFO or device)", path);
        return NULL;
    }
    FILE *file = fopen(path, "rb");
    if (!file) {
        failf(error, error_size, "cannot open kernel '%s'", path);
        return NULL;
    }
    size_t capacity = 1 << 16, size = 0;
    uint8_t *bytes = malloc(capacity);
    for (size_t got; bytes && (got = fread(bytes + size, 1, capacity - size, file)) > 0;) {
        size += got;
        if (size == capacity) {
            uint8_t *grown = realloc(bytes, capacity *= 2);
            if (!grown) free(bytes);
            bytes = grown;
        }
    }
    fclose(file);
    if (!bytes) {
        failf(error, error_size, "out of memory reading '%s'", path);
        return NULL;
    }
    char inner[400] = "";
    kernel_image *image = kernel_image_load_memory(bytes, size, inner, sizeof inner);
    free(bytes);
    if (!image) failf(error, error_size, "kernel '%s': %s", path, inner);
    return image;
}
