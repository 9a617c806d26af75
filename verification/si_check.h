/* A checker of snapshot-isolated transactional histories (SI-TM, ISCA'17;
 * Adya's dependency graph). It takes the committed transactions, each with
 * its commit ID, the snapshot its reads saw and its read and write words,
 * and checks, per 4-byte word:
 *  (i)   every read returns the newest value committed at or before the
 *        transaction's snapshot point (else a torn snapshot, a read of a
 *        version newer than the snapshot, or of data no committed
 *        transaction wrote);
 *  (ii)  first committer wins: a transaction whose reads were not validated
 *        at commit (plain SI) never overwrites a word that another
 *        transaction committed after its snapshot (else a lost update);
 *  (iii) in serializable mode, the dependency graph is acyclic: write-read
 *        (the writer of the version read -> the reader), write-write
 *        (consecutive versions; a word's version order is its writers'
 *        commit-ID order) and read-write anti-dependencies (a reader -> the
 *        writer of the next version after the one it read). An acyclic graph
 *        is serializable in its topological order, which need not be the
 *        commit order (a read-only or stale-snapshot transaction may
 *        serialize before writers that committed first). A cycle is named,
 *        edge by edge (write skew, the read-only anomaly, ...).
 * Finally the memory must hold each written word's last version.
 *
 * A transaction whose reads were validated by value at commit (KILO/Warp
 * TM's commit units) read, in value, the state just before its commit ID,
 * so the graph places its reads there (value validation admits A-B-A
 * histories that a snapshot placement would call cyclic). Its reads are
 * still checked against its snapshot, but a mismatch there only counts
 * (validated_torn_reads, the first one kept as si_check_note): validation
 * made it harmless, yet it shows a snapshot that was not one. A read-only transaction committed
 * without a commit ID has no writes; give it its snapshot point.
 *
 *   si_check *c = si_check_create(read_initial, context);
 *   si_check_add(c, &(si_check_tx){.id = 7, .commit = 7, .snapshot = 4, ...});
 *   const char *error = si_check_run(c, SI_CHECK_SERIALIZABLE, read_final, context);
 *   si_check_destroy(c);
 */
#ifndef SIMTX_SI_CHECK_H
#define SIMTX_SI_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads size bytes of memory at address; false if it cannot. */
typedef bool (*si_check_memory_reader)(void *context, uint64_t address, void *data, size_t size);

typedef struct si_check_tx {
    uint32_t commit;   /* its commit ID (names it; orders its writes). Writers need distinct IDs */
    uint32_t snapshot; /* its reads saw exactly the commits with IDs <= snapshot */
    bool validated;    /* its reads were validated by value at commit: the graph reads at commit - 1 */
    uint32_t read_count, write_count;
    const uint32_t *words; /* address, value pairs: reads (memory reads only, not of its own writes), then writes */
} si_check_tx;

typedef enum si_check_mode {
    SI_CHECK_SNAPSHOT_ISOLATION, /* (i) and (ii): what plain SI guarantees */
    SI_CHECK_SERIALIZABLE,       /* (i), (ii) and (iii) */
} si_check_mode;

typedef struct si_check_counts {
    uint64_t transactions, reads, writes;
    uint64_t edges_wr, edges_ww, edges_rw; /* (iii) only */
    uint64_t validated_torn_reads;         /* validated reads that did not come from their snapshot */
} si_check_counts;

typedef struct si_check si_check;

/* The initial image is read lazily through read_initial (which must keep
 * returning the initial image). NULL when out of memory. */
si_check *si_check_create(si_check_memory_reader read_initial, void *context);
void si_check_destroy(si_check *check);

/* Copies one committed transaction; false when out of memory. */
bool si_check_add(si_check *check, const si_check_tx *tx);

/* Checks the history and the final memory. NULL when it holds, else the
 * first violation as text (owned by the checker), e.g. "dependency cycle
 * (write skew): commit 12 -rw 0x10100040-> commit 13 -rw 0x10100044->
 * commit 12". Call once. */
const char *si_check_run(si_check *check, si_check_mode mode, si_check_memory_reader read_final, void *context);

const si_check_counts *si_check_get_counts(const si_check *check);
/* The first validated read that did not come from its snapshot, or NULL. */
const char *si_check_note(const si_check *check);

#ifdef __cplusplus
}
#endif
#endif
