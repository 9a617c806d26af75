/* cta: CTAs on the core: launch start and end, the kernel's register analysis, CTA dispatch and release, barriers and warp completion. */
#ifndef SIMTX_CTA_H
#define SIMTX_CTA_H

#include <stdbool.h>
#include <stdint.h>

#include "simt_core.h"

typedef struct warp warp;

/* Whether the launch has a CTA left and this core has the warps, CTA slot
 * and registers for it (shared memory is placed by cta_dispatch). */
bool cta_fits(const simt_core *c);
/* Takes the next CTA of the launch if this core has room for it (the
 * caller checks cta_may_fit first). */
bool cta_dispatch(simt_core *c, uint64_t now);
/* A finished warp's last memory instruction completed: complete its CTA
 * when every warp is done and quiet. */
void cta_check_done(simt_core *c, uint32_t slot, uint64_t now);
/* Releases the barrier once every live warp of the CTA waits there. */
void cta_check_barrier(simt_core *c, uint32_t slot);
/* The warp's top entry waits at a CTA barrier (simt_stack_park_top): the
 * warp runs other lanes that can still reach it, or waits there whole (and
 * the barrier may release). Lanes that can reach it only past it, waiting
 * to reconverge with the lanes at it, fail the run (false), naming both pcs. */
bool cta_barrier_arrive(simt_core *c, warp *w, uint32_t warp_index);
/* Pops the warp's reconverged and emptied stack entries; a warp left
 * without entries is done (its CTA may complete). */
void cta_reconverge_warp(simt_core *c, warp *w, uint32_t warp_index, uint64_t now);

#endif
