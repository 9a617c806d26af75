/* Bank conflicts of one LDS request: how many cycles its lanes hold the
 * banks. */
#ifndef SIMTX_LDS_BANKS_H
#define SIMTX_LDS_BANKS_H

#include <stdint.h>

/* The conflict degree of the lanes of `lanes` accessing the byte offsets
 * offsets[lane]: the most distinct bank words (bank_width bytes, a power of
 * two) that fall in one of `banks` banks; lanes that read the same word share
 * it (a broadcast). 1 for a conflict-free request, 0 without lanes. */
unsigned lds_banks_conflict_degree(const uint32_t *offsets, uint64_t lanes, unsigned banks, unsigned bank_width);

#endif
