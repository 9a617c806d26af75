/* localtm_ga's serializability oracle, apart from the device so that a
 * unit test can feed it histories (test_localtm_ga_oracle.c).
 *
 * Every solution word carries the id + 1 of its last writer in bits 8..
 * (0: initial), and every work-item t logged the two words its committed
 * transaction read (log[2t]: solution first[t], log[2t + 1]: second[t]).
 * The history is serializable iff, for every solution, the transactions
 * touching it form one chain of reads-from from its initial word (each read
 * sees the initial word or exactly what an earlier toucher wrote; no two
 * read the same version: no lost update) ending at its final word, and the
 * chains together are acyclic (a topological sort gives the serial order).
 * Each transaction's writes are recomputed from what it read
 * (localtm_ga_crossover). Any serial order passes. */
#ifndef SIMTX_LOCALTM_GA_ORACLE_H
#define SIMTX_LOCALTM_GA_ORACLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct localtm_ga_history {
    uint32_t n, solutions, capacity, weights_low, weights_high;
    const uint32_t *initial, *final, *first, *second, *cross, *log;
} localtm_ga_history;

/* 0: serializable; 1: not (error says why); -1: out of memory. */
int localtm_ga_check(const localtm_ga_history *history, char *error, size_t error_size);
/* The word work-item t wrote to `slot` (one of its two), from its log. */
uint32_t localtm_ga_written(const localtm_ga_history *history, uint32_t t, uint32_t slot);

#endif
