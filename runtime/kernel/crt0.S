/* crt0 for simtx kernels. The core starts every thread at the kernel's own
 * entry with a0 = the argument block, sp = the top of the thread's local
 * window and ra = __simtx_thread_exit; a return from the kernel lands here.
 * (The SIMT stack also treats that return as the end of the thread, so the
 * stub runs only if a kernel jumps here itself.) */
    .section .text.crt0, "ax"
    .globl __simtx_thread_exit
    .type __simtx_thread_exit, @function
__simtx_thread_exit:
    .insn r 0x0b, 1, 0, x0, x0, x0
    .size __simtx_thread_exit, . - __simtx_thread_exit
