#include "simtx_msg.h"

#include <stdio.h>

/* A request carries data for writes, atomics, logs and notifications; a
 * response for reads and atomics. Lazy-TM responses are charged their size
 * as data (an acknowledgement echoes its request's size): what the crossbar
 * has always counted for them. */
const simtx_op_info simtx_op_infos[256] = {
    /*                            name              family                 req    resp   log    line   answered */
    [SIMTX_OP_READ]            = {"read",           SIMTX_FAMILY_ACCESS,   false, true,  false, true,  true},
    [SIMTX_OP_WRITE]           = {"write",          SIMTX_FAMILY_ACCESS,   true,  false, false, true,  true},
    [SIMTX_OP_ATOMIC]          = {"atomic",         SIMTX_FAMILY_ATOMIC,   true,  true,  false, true,  true},
    [SIMTX_OP_CLEAN_LINE]      = {"clean_line",     SIMTX_FAMILY_LINE,     false, false, false, true,  true},
    [SIMTX_OP_FLUSH_LINE]      = {"flush_line",     SIMTX_FAMILY_LINE,     false, false, false, true,  true},
    [SIMTX_OP_FENCE]           = {"fence",          SIMTX_FAMILY_FENCE,    false, false, false, false, true},
    [SIMTX_OP_ROW_COPY]        = {"row_copy",       SIMTX_FAMILY_ROW_COPY, false, false, false, true,  true},
    [SIMTX_OP_TM_CID_REQUEST]  = {"tm_cid_request", SIMTX_FAMILY_TM_LAZY,  false, true,  false, false, true},
    [SIMTX_OP_TM_READ_LOG]     = {"tm_read_log",    SIMTX_FAMILY_TM_LAZY,  true,  true,  true,  false, true},
    [SIMTX_OP_TM_WRITE_LOG]    = {"tm_write_log",   SIMTX_FAMILY_TM_LAZY,  true,  true,  true,  false, true},
    [SIMTX_OP_TM_LOG_DONE]     = {"tm_log_done",    SIMTX_FAMILY_TM_LAZY,  true,  true,  true,  false, true},
    [SIMTX_OP_TM_SKIP]         = {"tm_skip",        SIMTX_FAMILY_TM_LAZY,  false, true,  false, false, true},
    [SIMTX_OP_TM_DECISION]     = {"tm_decision",    SIMTX_FAMILY_TM_LAZY,  true,  true,  true,  false, true},
    [SIMTX_OP_TM_LWT_QUERY]    = {"tm_lwt_query",   SIMTX_FAMILY_TM_LAZY,  false, true,  false, false, true},
    [SIMTX_OP_NOTIFY]          = {"notify",         SIMTX_FAMILY_NOTIFY,   true,  false, false, false, false},
    [SIMTX_OP_MONITOR_HIT]     = {"monitor_hit",    SIMTX_FAMILY_MONITOR,  false, false, false, false, false},
    [SIMTX_OP_MONITOR_MISS]    = {"monitor_miss",   SIMTX_FAMILY_MONITOR,  false, false, false, false, false},
    [SIMTX_OP_MONITOR_EVICT]   = {"monitor_evict",  SIMTX_FAMILY_MONITOR,  false, false, false, false, false},
    [SIMTX_OP_MONITOR_WRITEBACK] = {"monitor_writeback", SIMTX_FAMILY_MONITOR, false, false, false, false, false},
    [SIMTX_OP_TX_BEGIN]        = {"tx_begin",       SIMTX_FAMILY_TX,       false, false, false, false, true},
    [SIMTX_OP_TX_COMMIT]       = {"tx_commit",      SIMTX_FAMILY_TX,       false, true,  false, false, true},
    [SIMTX_OP_TX_ROLLBACK]     = {"tx_rollback",    SIMTX_FAMILY_TX,       false, false, false, false, true},
    [SIMTX_OP_TX_RESUME]       = {"tx_resume",      SIMTX_FAMILY_TX,       false, false, false, false, true},
    [SIMTX_OP_TX_ABORT]        = {"tx_abort",       SIMTX_FAMILY_TX,       false, false, false, false, false},
    [SIMTX_OP_VERSION_REGISTER] = {"version_register", SIMTX_FAMILY_VERSION, false, false, false, false, true},
    [SIMTX_OP_VERSION_ACQUIRE] = {"version_acquire", SIMTX_FAMILY_VERSION, false, false, false, false, true},
    [SIMTX_OP_VERSION_RELEASE] = {"version_release", SIMTX_FAMILY_VERSION, false, false, false, false, true},
    [SIMTX_OP_VERSION_CLOSE]   = {"version_close",  SIMTX_FAMILY_VERSION, false, false, false, false, true},
    [SIMTX_OP_VERSION_COPY]    = {"version_copy",   SIMTX_FAMILY_VERSION, false, false, false, false, true},
    [SIMTX_OP_PEER]            = {"peer",           SIMTX_FAMILY_PEER,     true,  true,  false, false, true},
    [SIMTX_OP_AGPM_LOG]        = {"agpm_log",       SIMTX_FAMILY_PM_CONTROL, false, false, false, false, false},
    [SIMTX_OP_AGPM_DONE]       = {"agpm_done",      SIMTX_FAMILY_PM_CONTROL, false, false, false, false, false},
    [SIMTX_OP_AGPM_KERNEL]     = {"agpm_kernel",    SIMTX_FAMILY_PM_CONTROL, false, false, false, false, false},
    [SIMTX_OP_AGPM_DECISION]   = {"agpm_decision",  SIMTX_FAMILY_PM_CONTROL, false, false, false, false, false},
    [SIMTX_OP_COUNT ... 255]   = {"unknown",        SIMTX_FAMILY_COUNT,    false, false, false, false, true},
};

/* Each protocol's declaration of its family (a new family adds its row here). */
const simtx_family_info simtx_family_infos[SIMTX_FAMILY_COUNT] = {
    /*                        name                 crosses_core_path */
    [SIMTX_FAMILY_ACCESS]   = {"memory access",     false},
    [SIMTX_FAMILY_ATOMIC]   = {"atomic",            false},
    [SIMTX_FAMILY_LINE]     = {"line maintenance",  false},
    [SIMTX_FAMILY_FENCE]    = {"fence",             false},
    [SIMTX_FAMILY_ROW_COPY] = {"row copy",          false},
    [SIMTX_FAMILY_TM_LAZY]  = {"lazy-TM protocol",  true},
    [SIMTX_FAMILY_NOTIFY]   = {"notification",      false},
    [SIMTX_FAMILY_MONITOR]  = {"monitor event",     false},
    [SIMTX_FAMILY_TX]       = {"transaction event", false},
    [SIMTX_FAMILY_VERSION]  = {"versioned memory",  true},
    [SIMTX_FAMILY_PEER]     = {"peer request",      false},
    [SIMTX_FAMILY_PM_CONTROL] = {"pm control",      false},
};

unsigned simtx_core_path_families(void)
{
    unsigned families = 0;
    for (unsigned f = 0; f < SIMTX_FAMILY_COUNT; f++) families |= (unsigned)simtx_family_infos[f].crosses_core_path << f;
    return families;
}

static const char *family_name(unsigned family) { return family < SIMTX_FAMILY_COUNT ? simtx_family_infos[family].name : "no family"; }

void simtx_op_unserved(char *text, size_t size, const char *block, unsigned op)
{
    const simtx_op_info *info = simtx_op_info_of(op);
    snprintf(text, size, "%s does not serve op %s (%u, %s)", block, info->name, op, family_name(info->family));
}

_Static_assert(SIMTX_MSG_HEADER_BYTES + SIMTX_MSG_MAX_DATA == sizeof(simtx_msg),
               "data must be simtx_msg's last field: headers are copied and cleared without it");
