/* A host plugin for the exit-status tests: argv[1] says what it does:
 * "pass" (prints its arguments, seed and option, reads a statistic, returns
 * 0), "fail" (a failed oracle: 1) or "bad" (a bad argument: 2). */
#include <stdio.h>
#include <string.h>

#include <simtx/host_api.h>

const simtx_host_option simtx_host_options[] = {
    {"level", 3, -2, 9, "a number the plugin prints"},
    {NULL, 0, 0, 0, NULL},
};

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    if (argc < 2) {
        gpu_set_error(device, "give pass, fail or bad");
        return 2;
    }
    if (!strcmp(argv[1], "fail")) {
        gpu_set_error(device, "oracle: element 3 is 7, expected 9");
        return 1;
    }
    if (!strcmp(argv[1], "bad")) {
        gpu_set_error(device, "argument 'bad' is out of range");
        return 2;
    }
    double cycles = -1;
    int64_t level;
    if (!gpu_statistic(device, "simt_core:ctas_completed", &cycles) || !gpu_option(device, "level", &level)) return 1;
    if (gpu_option(device, "undeclared", &level)) return 1;
    printf("plugin: %d arguments, last '%s', %.0f CTAs so far, seed %llu, level %lld\n", argc, argv[argc - 1], cycles,
           (unsigned long long)gpu_seed(device), (long long)level);
    return 0;
}
