#include "simtx_msg.h"

const char *simtx_op_name(simtx_op op)
{
    static const char *const names[SIMTX_OP_COUNT] = {
        "read", "write", "atomic", "clean_line", "flush_line", "fence", "row_copy",
        "tm_cid_request", "tm_read_log", "tm_write_log", "tm_log_done", "tm_skip", "tm_decision", "tm_lwt_query",
    };
    return (unsigned)op < SIMTX_OP_COUNT ? names[op] : "unknown";
}
