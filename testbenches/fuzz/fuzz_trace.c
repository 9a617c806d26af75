/* Fuzz target: the trace player's trace reader and parser (both formats,
 * the line and cycle bounds) through the block's create(), as a run loads a
 * trace. The input is the trace file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simtx_stats.h"
#include "trace_player.h"

static char trace_path[64];

static void fail(void *context, const char *message) {}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!trace_path[0]) {
        snprintf(trace_path, sizeof trace_path, "%s/simtx_fuzz_trace_%d.trc", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
                 (int)getpid());
    }
    FILE *file = fopen(trace_path, "wb");
    if (!file) abort();
    fwrite(data, 1, size, file);
    fclose(file);

    const simtx_param_table *table = trace_player_block_info.params;
    trace_player_params params;
    char error[512];
    if (!simtx_params_init(table, &params, error, sizeof error)) abort();
    simtx_value path = {.kind = SIMTX_VALUE_STRING, .string = trace_path};
    simtx_value check = {.kind = SIMTX_VALUE_BOOL, .boolean = true};
    if (!simtx_param_assign(simtx_param_find(table, "trace"), &params, &path, error, sizeof error) ||
        !simtx_param_assign(simtx_param_find(table, "check_data"), &params, &check, error, sizeof error))
        abort();
    simtx_observer *observer = simtx_observer_create();
    simtx_env env = {.instance_name = "player", .seed = 1, .fail = fail, .observer = observer};
    void *core = trace_player_block_info.create(&params, &env, error, sizeof error);
    if (core) trace_player_block_info.destroy(core);
    unlink(trace_path);
    simtx_observer_destroy(observer);
    simtx_params_release(table, &params);
    return 0;
}
