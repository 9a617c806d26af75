/* gpu_printf.h: device printf, as CUDA's. gpu_printf(format, ...) appends a
 * record to a buffer in global memory: the format's address and up to 8
 * arguments, one 32-bit word each (integers, floats by their bits, strings by
 * their address). After the launch the host runtime prints the records to
 * its standard output, in the order the calls reserved their room, and says
 * how many a full buffer dropped. Conversions: d i u x X o c s f F e E g G a
 * A p %, with flags, width and precision; no double, no 64-bit integers
 * (write float constants as 1.5f: 1.5 is a double). */
#ifndef SIMTX_GPU_PRINTF_H
#define SIMTX_GPU_PRINTF_H

#include "gpu.h"

#define GPU_PRINTF_WORDS 4094 /* with next and a spare word: 16 KiB of .bss */

/* Weak: every file that includes this header shares the one buffer, which
 * the host finds by its name (models/core/simt_core/kernel_image.h). The
 * host clears `next` before every launch. */
__attribute__((weak)) struct {
    uint32_t next, reserved;
    uint32_t words[GPU_PRINTF_WORDS];
} gpu_printf_buffer;

GPU_INLINE uint32_t gpu_printf_integer_(uint32_t x) { return x; }
GPU_INLINE uint32_t gpu_printf_float_(float x) { return (union { float f; uint32_t w; }){x}.w; }
GPU_INLINE uint32_t gpu_printf_string_(const char *x) { return (uint32_t)(uintptr_t)x; }
#define GPU_PRINTF_WORD_(x) \
    _Generic((x), float: gpu_printf_float_, char *: gpu_printf_string_, const char *: gpu_printf_string_, default: gpu_printf_integer_)(x)

/* A record: its word count, then the words (the format's first). */
GPU_INLINE void gpu_printf_record_(uint32_t count, const uint32_t *words)
{
    uint32_t at = __atomic_fetch_add(&gpu_printf_buffer.next, count + 1, __ATOMIC_RELAXED);
    if (at + count + 1 > GPU_PRINTF_WORDS) return; /* full: the host counts what `next` passed */
    gpu_printf_buffer.words[at] = count;
    for (uint32_t i = 0; i < count; i++) gpu_printf_buffer.words[at + 1 + i] = words[i];
}

#define GPU_PRINTF_NTH_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define GPU_PRINTF_COUNT_(...) GPU_PRINTF_NTH_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define GPU_PRINTF_CAT_(a, b) a##b
#define GPU_PRINTF_MAP_(n, ...) GPU_PRINTF_CAT_(GPU_PRINTF_MAP_, n)(__VA_ARGS__)
#define GPU_PRINTF_MAP_1(a) GPU_PRINTF_WORD_(a)
#define GPU_PRINTF_MAP_2(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_1(__VA_ARGS__)
#define GPU_PRINTF_MAP_3(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_2(__VA_ARGS__)
#define GPU_PRINTF_MAP_4(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_3(__VA_ARGS__)
#define GPU_PRINTF_MAP_5(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_4(__VA_ARGS__)
#define GPU_PRINTF_MAP_6(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_5(__VA_ARGS__)
#define GPU_PRINTF_MAP_7(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_6(__VA_ARGS__)
#define GPU_PRINTF_MAP_8(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_7(__VA_ARGS__)
#define GPU_PRINTF_MAP_9(a, ...) GPU_PRINTF_WORD_(a), GPU_PRINTF_MAP_8(__VA_ARGS__)
#define GPU_PRINTF_EXPAND_(n, ...) GPU_PRINTF_MAP_(n, __VA_ARGS__)

/* gpu_printf(format, up to 8 arguments) */
#define gpu_printf(...)                                                  \
    gpu_printf_record_(GPU_PRINTF_COUNT_(__VA_ARGS__),                   \
                       (const uint32_t[]){GPU_PRINTF_EXPAND_(GPU_PRINTF_COUNT_(__VA_ARGS__), __VA_ARGS__)})

#endif
