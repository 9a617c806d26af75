/* Kernels for the memory checker's tests (plugin_memcheck.c). */
#include "gpu.h"

struct memcheck_args {
    uint32_t data;   /* a global allocation of `count` words */
    uint32_t count;
    uint32_t offset; /* bytes added to the address of thread `thread`'s access */
    uint32_t thread;
};

/* Thread t below count stores t to word t (thread `thread` offset bytes further). */
GPU_KERNEL void store_words(const struct memcheck_args *args)
{
    uint32_t t = gpu_global_id_x();
    uint32_t address = args->data + 4 * t + (t == args->thread ? args->offset : 0);
    if (t < args->count) *(volatile uint32_t *)address = t;
}

static GPU_SHARED(uint32_t, shared_words[64]);

/* Thread t of a CTA of 64 stores t to shared word t (thread `thread`
 * offset bytes further), then copies its word to global word t. */
GPU_KERNEL void shared_words_at(const struct memcheck_args *args)
{
    uint32_t t = gpu_thread_x();
    volatile uint32_t *words = shared_words;
    *(volatile uint32_t *)((uint32_t)&words[t] + (t == args->thread ? args->offset : 0)) = t;
    gpu_sync_threads();
    if (t < args->count) ((volatile uint32_t *)args->data)[t] = words[t];
}
