/* simtx_assert: the report of a broken internal invariant (simtx_assert.h). */
#include "simtx_assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void simtx_assert_failed(const char *block, const char *condition, const char *file, int line, const char *function)
{
    const char *base = strrchr(file, '/');
    fflush(stdout);
    fprintf(stderr, "simtx: internal error: %s: invariant '%s' broken (%s:%d, %s)\n", block ? block : "?", condition,
            base ? base + 1 : file, line, function);
    abort();
}
