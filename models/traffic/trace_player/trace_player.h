/* trace_player: an initiator that replays a memory trace (DRAMsim3
 * "0xADDR READ|WRITE CYCLE" or Ramulator "0xADDR R|W") or a synthetic
 * pattern, with a bounded number of outstanding requests. */
#ifndef SIMTX_TRACE_PLAYER_H
#define SIMTX_TRACE_PLAYER_H

#include "simtx_block.h"

typedef struct trace_player_params {
    char *trace;           /* path; empty: synthetic traffic */
    char *format;          /* auto | dramsim3 | ramulator */
    int64_t max_outstanding;
    int64_t request_size;
    int64_t synthetic_requests;
    char *synthetic_pattern; /* random | stream */
    int64_t read_percent;
    int64_t address_base, address_range;
    bool check_data;
    int64_t max_cycle;
} trace_player_params;

extern const simtx_block_info trace_player_block_info;

/* One parsed trace line. */
typedef struct trace_request {
    uint64_t address;
    bool is_write;
    uint64_t cycle; /* not issued before; 0 for Ramulator traces */
} trace_request;

typedef enum { TRACE_FORMAT_AUTO, TRACE_FORMAT_DRAMSIM3, TRACE_FORMAT_RAMULATOR } trace_format;

/* Parses one line. Returns 1 for a request, 0 for a blank or comment line,
 * -1 for a malformed line (with a reason). *format is fixed by the first
 * request line when it is TRACE_FORMAT_AUTO. */
int trace_parse_line(const char *line, trace_format *format, trace_request *request, char *reason,
                     size_t reason_size);

#endif
