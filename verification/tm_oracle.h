/* A serializability oracle for transactional memory: it records every
 * committed transaction's reads and writes in commit order and replays them
 * on a shadow memory seeded from the initial memory image. Each read must
 * see the value the serial replay has at that point, and at the end the
 * simulated memory must hold the replay's values at every written address.
 *
 * Reads are the values a transaction read from memory (its read log), taken
 * as seen before its own writes: a read that a transaction served from its
 * own write log is not a memory read and must not be recorded. Memory the
 * transactions touch must not be written outside transactions while the
 * oracle runs.
 *
 *   tm_oracle *o = tm_oracle_create(read_initial_memory, platform);
 *   ... for each committed transaction, in commit order:
 *   tm_oracle_commit(o, commit_id, reads, n_reads, writes, n_writes);
 *   ... after the run:
 *   const char *error = tm_oracle_check_final(o, read_final_memory, platform);
 *   if (error) report(error); // names the first violating transaction and address
 */
#ifndef SIMTX_TM_ORACLE_H
#define SIMTX_TM_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads size bytes of memory at address; false if it cannot. */
typedef bool (*tm_oracle_memory_reader)(void *context, uint64_t address, void *data, size_t size);

/* One access: size 1..8 bytes, value little endian in the low bytes. */
typedef struct tm_oracle_access {
    uint64_t address;
    uint64_t value;
    uint32_t size;
} tm_oracle_access;

typedef struct tm_oracle tm_oracle;

/* The initial image is read lazily, the first time the replay touches a
 * byte, through read_initial (which must keep returning the initial image:
 * call it before the run, e.g. by snapshotting, or give a reader of a copy). */
tm_oracle *tm_oracle_create(tm_oracle_memory_reader read_initial, void *context);
void tm_oracle_destroy(tm_oracle *oracle);

/* Records and replays one committed transaction (tx_id names it in
 * messages, e.g. its commit ID). Returns false once any violation has been
 * found (the first one is kept; later transactions are still replayed). */
bool tm_oracle_commit(tm_oracle *oracle, uint64_t tx_id, const tm_oracle_access *reads, size_t read_count,
                      const tm_oracle_access *writes, size_t write_count);

/* Compares the final memory with the replay at every byte any committed
 * transaction wrote. Returns NULL when the history is serializable in commit
 * order, otherwise the first violation as text (owned by the oracle), e.g.
 * "transaction 7 (#3 in commit order) read 0x1040 = 0x0 but the serial
 * replay has 0x1". */
const char *tm_oracle_check_final(tm_oracle *oracle, tm_oracle_memory_reader read_final, void *context);

/* The first violation so far, or NULL. */
const char *tm_oracle_error(const tm_oracle *oracle);
uint64_t tm_oracle_commit_count(const tm_oracle *oracle);

#ifdef __cplusplus
}
#endif
#endif
