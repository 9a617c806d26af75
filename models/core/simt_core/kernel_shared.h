/* kernel_shared: the static shared memory each kernel of an ELF is charged.
 *
 * The .shared variables of a module are laid out once by the linker, at
 * fixed addresses from the shared window's base; every kernel of the
 * module sees the same layout. A kernel needs the window up to the end of
 * the highest variable its own code can reach, not the module's total:
 * from the relocations the linker keeps (simtx-cc links with
 * --emit-relocs), each function's references into the shared window
 * (R_RISCV_HI20/LO12 or PCREL_HI20 against a variable's symbol) give the
 * variables it names; a kernel reaches its own function's and those of
 * every function it calls or tail-calls, transitively (the loader
 * resolved every call: no indirect ones). Its charge is the end of the
 * highest variable reached (0: none).
 *
 * The module's total is every kernel's charge instead when the ELF has no
 * relocations (linked without --emit-relocs), or when an address in the
 * shared window is stored in data (a relocation outside the text: the
 * kernel reading it cannot be told), or a reference lies outside every
 * function. */
#ifndef SIMTX_KERNEL_SHARED_H
#define SIMTX_KERNEL_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets every function's static_shared_bytes (its charge as a kernel) and
 * image->shared_by_kernel; false on a malformed relocation section, with a
 * message. elf is the file the image was loaded from. */
bool kernel_shared_charge(kernel_image *image, const uint8_t *elf, size_t size, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
#endif
