/* Real data for large, sparsely used address spaces: storage is allocated
 * in 256-byte chunks on first write (indexed by 64 KiB pages); unwritten bytes
 * read as zero. */
#ifndef SIMTX_SPARSE_MEMORY_H
#define SIMTX_SPARSE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sparse_memory sparse_memory;

sparse_memory *sparse_memory_create(void);
void sparse_memory_destroy(sparse_memory *memory);
void sparse_memory_read(sparse_memory *memory, uint64_t address, void *data, size_t size);
void sparse_memory_write(sparse_memory *memory, uint64_t address, const void *data, size_t size);
/* Writes only the bytes whose bit is set in byte_enable (bit i: data[i]). */
void sparse_memory_write_masked(sparse_memory *memory, uint64_t address, const void *data, size_t size,
                                const uint64_t *byte_enable);
size_t sparse_memory_page_count(const sparse_memory *memory);
/* Hints for a model that knows an access well ahead (a DRAM controller
 * queueing a request): random accesses to a large memory miss the host's
 * caches twice, at the chunk's entry in its page and at the chunk. Stage 1
 * (early) fetches the entry, stage 2 (later, once it has arrived) the
 * chunk's bytes. Neither changes anything. */
void sparse_memory_prefetch_entry(const sparse_memory *memory, uint64_t address);
void sparse_memory_prefetch_bytes(const sparse_memory *memory, uint64_t address, size_t size);

#ifdef __cplusplus
}
#endif
#endif
