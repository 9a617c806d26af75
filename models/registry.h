/* Every block type the elaborator can instantiate, by name. */
#ifndef SIMTX_REGISTRY_H
#define SIMTX_REGISTRY_H

#include <string.h>

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const simtx_block_info *const simtx_registry[]; /* NULL-terminated, sorted by name */
const simtx_block_info *simtx_registry_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
