/* vit: the Version Index Table slice of one memory partition (SI-TM,
 * ISCA'17 §3): regions, their versions' states, creation times and
 * reference counts; it translates every access it passes to the L2 and
 * asks its bulk copy unit for the copies that make new versions
 * (models/protocols/version.h). */
#ifndef SIMTX_VIT_H
#define SIMTX_VIT_H

#include "simtx_block.h"

typedef struct vit_params {
    int64_t versions;       /* version slots per region (Table 2: 8) */
    int64_t regions;        /* regions the table holds (1 KB / 193-bit entries: 42) */
    int64_t timestamp_bits; /* creation-time width (Table 1: 32) */
    int64_t version_stride; /* bytes from one version of a region to the next (one subarray row on) */
    int64_t align;          /* regions are multiples of it (whole DRAM rows in every partition) */
    int64_t latency;        /* cycles a message spends in the slice */
    int64_t queue_depth;    /* input and output queues */
    int64_t hold_depth;     /* accesses waiting for an S2 version */
    int64_t pending_entries; /* accesses forwarded and not yet answered */
    int64_t probe_regions;  /* regions whose versions have probes */
    char *region_list;      /* regions registered before the run: "base:size:relocated,..." */
} vit_params;

extern const simtx_block_info vit_block_info;

#ifdef __cplusplus
extern "C" {
#endif

/* The host's versioned allocations (runtime/host_api.h gpu_malloc_versioned),
 * at zero time between launches, as the simtx runner calls them on every
 * slice: the same as a VERSION_REGISTER (version.h) without its traffic.
 * vit_layout: the version stride and alignment, the slots per region, and
 * the lowest address above every registered region's versions and
 * relocated area (where a new region meets none of them). */
void vit_layout(const void *core, uint64_t *stride, uint64_t *align, unsigned *versions, uint64_t *free_from);
/* False with the slice's message (table full, layout) in error. */
bool vit_register(void *core, uint64_t base, uint64_t size, uint64_t relocated, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
