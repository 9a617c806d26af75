/* kernel_shared: each kernel's static shared memory from the ELF's kept
 * relocations and the resolved call graph (kernel_shared.h). */
#include "kernel_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHT_SYMTAB 2
#define SHT_RELA 4
#define SHT_REL 9
#define SHF_ALLOC 2
#define SHF_EXECINSTR 4
#define STT_OBJECT 1

static uint32_t read32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

typedef struct elf_view {
    const uint8_t *elf;
    size_t size;
    uint32_t shoff, shentsize, shnum;
} elf_view;

static const uint8_t *section(const elf_view *v, uint32_t index) { return v->elf + v->shoff + (size_t)index * v->shentsize; }

/* A section's bytes, or NULL when they lie outside the file. */
static const uint8_t *section_bytes(const elf_view *v, const uint8_t *sh, uint32_t *bytes)
{
    uint32_t offset = read32(sh + 16);
    *bytes = read32(sh + 20);
    if (offset > v->size || *bytes > v->size - offset) return NULL;
    return v->elf + offset;
}

/* The end of the shared variable (an object symbol of the table) holding
 * address; the module's end when no symbol covers it. */
static uint32_t variable_end(const uint8_t *symbols, uint32_t symbol_bytes, uint32_t address, uint32_t module_end)
{
    for (uint32_t e = 0; e + 16 <= symbol_bytes; e += 16) {
        const uint8_t *sym = symbols + e;
        uint32_t value = read32(sym + 4), size = read32(sym + 8);
        if ((sym[12] & 15) == STT_OBJECT && size && address >= value && address - value < size) return value + size;
    }
    return module_end;
}

/* The index of the function whose [start, end) holds pc; function_count when none. */
static size_t function_index(const kernel_image *image, uint32_t pc)
{
    for (size_t i = 0; i < image->function_count; i++)
        if (pc >= image->functions[i].start && pc < image->functions[i].end) return i;
    return image->function_count;
}

/* Each function's own reach into the shared window (the end of the highest
 * variable it names, absolute), from the relocations; false: fall back to
 * the module's total (see kernel_shared.h), *malformed on a bad table. */
static bool own_reach(const kernel_image *image, const elf_view *v, uint32_t *reach, bool *malformed)
{
    uint32_t base = RV_SHARED_BASE, end = RV_SHARED_BASE + image->static_shared_bytes;
    bool any = false;
    for (uint32_t s = 0; s < v->shnum; s++) {
        const uint8_t *sh = section(v, s);
        uint32_t type = read32(sh + 4);
        if (type != SHT_RELA && type != SHT_REL) continue;
        uint32_t link = read32(sh + 24), applies_to = read32(sh + 28);
        if (link >= v->shnum || applies_to >= v->shnum) return !(*malformed = true);
        uint32_t target_flags = read32(section(v, applies_to) + 8);
        if (!(target_flags & SHF_ALLOC)) continue; /* debugging information: not code or data a kernel reads */
        any = true;
        if (type == SHT_REL) return false; /* RISC-V uses RELA; no addends to read here */
        uint32_t relocation_bytes, symbol_bytes;
        const uint8_t *relocations = section_bytes(v, sh, &relocation_bytes);
        const uint8_t *symbols = section_bytes(v, section(v, link), &symbol_bytes);
        if (!relocations || !symbols || read32(section(v, link) + 4) != SHT_SYMTAB) return !(*malformed = true);
        for (uint32_t r = 0; r + 12 <= relocation_bytes; r += 12) {
            const uint8_t *rela = relocations + r;
            uint32_t symbol = read32(rela + 4) >> 8;
            if ((uint64_t)symbol * 16 + 16 > symbol_bytes) return !(*malformed = true);
            uint32_t target = read32(symbols + 16 * symbol + 4) + read32(rela + 8); /* S + A */
            if (target < base || target >= end) continue;
            if (!(target_flags & SHF_EXECINSTR)) return false; /* a shared address stored in data */
            size_t f = function_index(image, read32(rela));
            if (f == image->function_count) return false;
            uint32_t reached = variable_end(symbols, symbol_bytes, target, end);
            if (reached > reach[f]) reach[f] = reached;
        }
    }
    return any;
}

bool kernel_shared_charge(kernel_image *image, const uint8_t *elf, size_t size, char *error, size_t error_size)
{
    size_t n = image->function_count;
    image->shared_by_kernel = false;
    for (size_t i = 0; i < n; i++) image->functions[i].static_shared_bytes = image->static_shared_bytes;
    if (!image->static_shared_bytes) return true;
    elf_view v = {elf, size, read32(elf + 32), (uint32_t)(elf[46] | elf[47] << 8), (uint32_t)(elf[48] | elf[49] << 8)};
    uint32_t *reach = calloc(n, sizeof *reach);
    size_t *stack = malloc(n * sizeof *stack);
    bool *seen = malloc(n);
    bool malformed = false;
    if (!reach || !stack || !seen) {
        free(reach), free(stack), free(seen);
        snprintf(error, error_size, "out of memory");
        return false;
    }
    if (own_reach(image, &v, reach, &malformed)) {
        image->shared_by_kernel = true;
        /* Each function as a kernel: the highest reach over what it calls, transitively. */
        for (size_t k = 0; k < n; k++) {
            memset(seen, 0, n);
            size_t depth = 0;
            uint32_t highest = 0;
            stack[depth++] = k;
            seen[k] = true;
            while (depth) {
                const kernel_function *f = &image->functions[stack[--depth]];
                if (reach[f - image->functions] > highest) highest = reach[f - image->functions];
                for (uint32_t pc = f->start; pc < f->end; pc += 4) {
                    const kernel_insn *insn = kernel_image_insn(image, pc);
                    if (!insn || (insn->flow != KERNEL_FLOW_CALL && insn->flow != KERNEL_FLOW_TAIL_CALL)) continue;
                    size_t callee = function_index(image, insn->target);
                    if (callee < n && !seen[callee]) {
                        seen[callee] = true;
                        stack[depth++] = callee;
                    }
                }
            }
            image->functions[k].static_shared_bytes = highest ? highest - RV_SHARED_BASE : 0;
        }
    }
    free(reach), free(stack), free(seen);
    if (malformed) snprintf(error, error_size, "malformed ELF: a relocation section names a missing section or symbol");
    return !malformed;
}
