/* Address interleaving over memory partitions: consecutive chunks of
 * `interleave` bytes go to partitions 0, 1, ..., count - 1, 0, ... (any
 * count, as GTX480's six). A partition's own blocks (L2 set indexing, DRAM
 * address decoding) use the partition-local address, which drops the
 * partition choice as GPGPU-Sim's address decoder drops the channel bits. */
#ifndef SIMTX_PARTITION_INTERLEAVE_H
#define SIMTX_PARTITION_INTERLEAVE_H

#include <stdint.h>

static inline uint64_t partition_of_address(uint64_t address, uint64_t interleave, uint64_t count)
{
    return address / interleave % count;
}

static inline uint64_t partition_local_address(uint64_t address, uint64_t interleave, uint64_t count)
{
    return address / (interleave * count) * interleave + address % interleave;
}

/* The full address of `local` in partition `partition` (the inverse). */
static inline uint64_t partition_full_address(uint64_t local, uint64_t partition, uint64_t interleave, uint64_t count)
{
    return local / interleave * (interleave * count) + partition * interleave + local % interleave;
}

#endif
