/* The argument block of the saxpy kernel, shared by the kernel and its host
 * program: device addresses are 32-bit. */
#ifndef SAXPY_H
#define SAXPY_H

#include <stdint.h>

struct saxpy_args {
    uint32_t x, y; /* device addresses of the int32 arrays */
    int32_t a;
    uint32_t n;
};

#endif
