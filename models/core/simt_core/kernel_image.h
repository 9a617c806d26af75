/* A kernel ELF loaded and verified for SIMT execution: the code window's
 * bytes, every instruction predecoded with its control flow resolved, the
 * immediate post-dominator (reconvergence point) of every branch, and the
 * data the host must place in the global window before a launch. */
#ifndef SIMTX_KERNEL_IMAGE_H
#define SIMTX_KERNEL_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rv32.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The virtual exit of a function: the reconvergence point of branches whose
 * paths only meet at the return. Never a real instruction address. */
#define KERNEL_EXIT_PC 0xffffffffu

typedef enum kernel_flow {
    KERNEL_FLOW_NEXT,     /* falls through */
    KERNEL_FLOW_BRANCH,   /* conditional, inside the function */
    KERNEL_FLOW_JUMP,     /* unconditional, inside the function */
    KERNEL_FLOW_CALL,     /* direct call (jal or auipc+jalr), returns to pc+4 */
    KERNEL_FLOW_TAIL_CALL,/* direct jump to another function's entry */
    KERNEL_FLOW_RETURN,   /* ret */
    KERNEL_FLOW_STOP      /* exit, trap or illegal: ends the thread */
} kernel_flow;

typedef struct kernel_insn {
    rv_insn insn;
    uint8_t op_class; /* rv_class */
    uint8_t flow;     /* kernel_flow */
    uint32_t target;      /* branch, jump and call target */
    uint32_t reconverge;  /* branches: immediate post-dominator, or KERNEL_EXIT_PC */
} kernel_insn;

typedef struct kernel_function {
    char *name;
    uint32_t start, end; /* [start, end) */
    uint32_t static_shared_bytes; /* launched as a kernel: the .shared bytes its code reaches (kernel_shared.h) */
} kernel_function;

typedef struct kernel_segment {
    uint32_t address, file_size, memory_size;
    uint8_t *bytes; /* file_size bytes; the rest is zero */
} kernel_segment;

typedef struct kernel_image {
    uint32_t text_start, text_end; /* predecoded range */
    kernel_insn *insns;            /* (text_end - text_start) / 4 */
    uint32_t code_start, code_end; /* the readable image in the code window */
    uint8_t *code;
    kernel_function *functions;
    size_t function_count;
    kernel_segment *data_segments; /* to copy into the global window */
    size_t data_segment_count;
    uint32_t static_shared_bytes;  /* .shared variables, the module's total */
    bool shared_by_kernel;         /* each function's static_shared_bytes is its own (from relocations), not the total */
    /* gpu_printf.h's record buffer (KERNEL_PRINTF_BUFFER) in the global
     * window, and its size in bytes; 0 when no code calls gpu_printf. */
    uint32_t printf_buffer, printf_buffer_size;
} kernel_image;

#define KERNEL_PRINTF_BUFFER "gpu_printf_buffer"

/* Loads and verifies; on failure returns NULL with a message in error. */
kernel_image *kernel_image_load_file(const char *path, char *error, size_t error_size);
kernel_image *kernel_image_load_memory(const uint8_t *elf, size_t size, char *error, size_t error_size);
void kernel_image_destroy(kernel_image *image);

static inline const kernel_insn *kernel_image_insn(const kernel_image *image, uint32_t pc)
{
    uint32_t offset = pc - image->text_start; /* below text_start wraps around: one comparison for both ends */
    if (offset >= image->text_end - image->text_start || (pc & 3)) return NULL;
    return &image->insns[offset >> 2];
}
const kernel_function *kernel_image_function_at(const kernel_image *image, uint32_t pc);
const kernel_function *kernel_image_find_function(const kernel_image *image, const char *name);
/* "0x1010 <vector_add+0x10>: lw a0, 0(a1)" */
void kernel_image_describe_pc(const kernel_image *image, uint32_t pc, char *out, size_t out_size);
/* Reads code-window bytes (constants in .rodata); false outside the image. */
bool kernel_image_read_code(const kernel_image *image, uint32_t address, void *data, unsigned size);

#ifdef __cplusplus
}
#endif
#endif
