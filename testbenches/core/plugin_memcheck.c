/* A host plugin for the memory checker's tests (simtx run --host
 * this -- KERNEL_ELF MODE), built against the installed header only. MODE:
 * global_past (thread 37 stores 100 MiB past a 4 KiB allocation),
 * shared_past (thread 63 stores one word past its CTA's 256 bytes of shared
 * memory) or in_bounds (both kernels within bounds; the results checked). */
#include <stdio.h>
#include <string.h>

#include <simtx/host_api.h>

struct memcheck_args {
    uint32_t data, count, offset, thread;
};

enum { WORDS = 1024, NO_THREAD = 0xffffffffu };

static int launch(gpu_device *device, gpu_module *module, const char *kernel, gpu_dim3 grid, gpu_dim3 block, struct memcheck_args args)
{
    return gpu_launch(device, module, kernel, grid, block, &args, sizeof args, 0) && gpu_synchronize(device) ? 0 : 1;
}

/* Every word t of the first `count` holds t. */
static int check_words(gpu_device *device, uint32_t data, uint32_t count)
{
    static uint32_t words[WORDS];
    if (!gpu_copy_from_device(device, words, data, 4 * count)) return 1;
    for (uint32_t t = 0; t < count; t++)
        if (words[t] != t) return gpu_set_error(device, "oracle: word %u is %u", t, words[t]), 1;
    return 0;
}

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    if (argc != 3) {
        gpu_set_error(device, "arguments: KERNEL_ELF global_past|shared_past|in_bounds");
        return 2;
    }
    gpu_module *module = gpu_module_load(device, argv[1]);
    if (!module) return gpu_last_error_is_input(device) ? 2 : 1;
    uint32_t data = gpu_malloc(device, 4 * WORDS);
    if (!data) return 1;
    gpu_dim3 one = {1, 1, 1}, grid = {WORDS / 128, 1, 1}, block = {128, 1, 1}, cta64 = {64, 1, 1};
    int status;
    if (!strcmp(argv[2], "global_past"))
        status = launch(device, module, "store_words", grid, block, (struct memcheck_args){data, WORDS, 100u << 20, 37});
    else if (!strcmp(argv[2], "shared_past"))
        status = launch(device, module, "shared_words_at", one, cta64, (struct memcheck_args){data, 64, 4, 63});
    else if (!strcmp(argv[2], "in_bounds")) {
        status = launch(device, module, "store_words", grid, block, (struct memcheck_args){data, WORDS, 0, NO_THREAD});
        status = status ? status : check_words(device, data, WORDS);
        status = status ? status : launch(device, module, "shared_words_at", one, cta64, (struct memcheck_args){data, 64, 0, NO_THREAD});
        status = status ? status : check_words(device, data, 64);
        if (!status) printf("memcheck plugin: in-bounds kernels correct\n");
    } else {
        gpu_set_error(device, "unknown mode '%s'", argv[2]);
        status = 2;
    }
    gpu_module_unload(module);
    return status;
}
