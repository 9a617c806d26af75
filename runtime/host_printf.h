/* host_printf: the host side of device printf (runtime/kernel/gpu_printf.h):
 * clears the launch's record buffer before it and prints the records after. */
#ifndef SIMTX_HOST_PRINTF_H
#define SIMTX_HOST_PRINTF_H

#include <stdbool.h>
#include <stdio.h>

#include "host_api.h"
#include "kernel_image.h"

/* Empties image's buffer (none: nothing to do); false with the device's error. */
bool host_printf_clear(gpu_device *d, const kernel_image *image);
/* Prints the buffer's records to out, then a line on stderr if some were
 * dropped; false with the device's error when the buffer cannot be read. */
bool host_printf_flush(gpu_device *d, const kernel_image *image, FILE *out);

#endif
