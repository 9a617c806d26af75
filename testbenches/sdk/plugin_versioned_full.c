/* A host plugin filling the Version Index Table of
 * platforms/gtx480_warptm_versioned.lua with gpu_malloc_versioned (the
 * platform registers one region itself): the slices take regions until
 * their table is full, then refuse the next with their reason, naming the
 * allocation; prints how many were taken and returns the refusal (1). */
#include <simtx/host_api.h>
#include <stdio.h>

int SIMTX_HOST_MAIN(gpu_device *device, int argc, char **argv)
{
    (void)argc, (void)argv;
    unsigned taken = 0;
    while (taken < 100 && gpu_malloc_versioned(device, 4096)) taken++;
    printf("plugin: %u versioned allocations taken\n", taken);
    return 1;
}
