/* Fuzz target: the kernel loader (ELF parsing, the control-flow graph and
 * post-dominators, the load-time checks) on a kernel ELF in memory. */
#include <stdint.h>
#include <stdlib.h>

#include "kernel_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char error[512];
    kernel_image *image = kernel_image_load_memory(data, size, error, sizeof error);
    kernel_image_destroy(image);
    return 0;
}
