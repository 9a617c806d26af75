/* Host side shared by the GPU-LocalTM workloads (localtm_ht, localtm_km,
 * localtm_ga): the options every one of them takes and the launch of one
 * work-group on its LocalTM region. */
#ifndef SIMTX_LOCALTM_COMMON_H
#define SIMTX_LOCALTM_COMMON_H

#include "host_common.h"
#include "kernels/localtm_args.h"
#include "tm_check.h"

typedef struct localtm_setup {
    uint32_t n;         /* work-items of the one work-group */
    bool serial;        /* mode=serial: the TX serialization build */
    uint64_t seed;
    char path[1024];    /* the kernel ELF */
} localtm_setup;

/* Reads n (1..256, default 256), mode (tm | serial) and seed; picks
 * <base>.elf or <base>_serial.elf. Returns 1 on bad input. */
int localtm_setup_read(workload_context *context, const char *base, localtm_setup *setup);
/* Launches the kernel `base` on one work-group of setup->n work-items
 * with a LocalTM region of `data_words` data words and waits; in mode tm
 * with the serializability oracle on the lds's commit records around it
 * (option check_serializability, default 1). Returns 0, or 1 with the
 * error written. */
int localtm_launch(gpu_device *device, workload_context *context, gpu_module *module, const char *base,
                   const localtm_setup *setup, const void *args, size_t args_size, uint32_t data_words);
/* Prints the LocalTM statistics the platform has (none on one without the
 * localtm policy) after the summary line. */
void localtm_print_statistics(gpu_device *device, workload_context *context, const char *name);

#endif
