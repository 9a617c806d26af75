/* A host plugin that begins a serializability check, as a host program on
 * any platform may: on one without tm_unit blocks begin must refuse (NULL,
 * with the reason), not hand out a check that passes with 0 commits. */
#include <stdio.h>

#include <simtx/host_api.h>

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    (void)argc, (void)argv;
    gpu_serializability *check = gpu_serializability_begin(device);
    if (!check) return 1; /* simtx reports gpu_last_error */
    size_t commits = 0;
    bool passed = gpu_serializability_end(check, &commits);
    printf("serializability check %s with %zu commits\n", passed ? "passed" : "failed", commits);
    return passed ? 0 : 1;
}
