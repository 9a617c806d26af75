/* The argument block of kernels/localtm_basic.c, shared with the host. */
#ifndef SIMTX_LOCALTM_BASIC_ARGS_H
#define SIMTX_LOCALTM_BASIC_ARGS_H

#include <stdint.h>

/* flags: [0] WI4 read words 2 and 3, [1] attempts of the "else" leg, [2] WI4
 * committed (table1); out: a value per thread. */
struct localtm_basic_args {
    uint32_t flags, out, n;
};

#define LOCALTM_BASIC_WORDS 64u

#endif
