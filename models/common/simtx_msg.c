#include "simtx_msg.h"

const char *simtx_op_name(simtx_op op)
{
    static const char *const names[SIMTX_OP_COUNT] = {
        "read", "write", "atomic", "clean_line", "flush_line", "fence", "row_copy",
    };
    return (unsigned)op < SIMTX_OP_COUNT ? names[op] : "unknown";
}
