/* The bank kernel's argument block and its transfer schedule, shared by the
 * kernel and the host oracle (both compute transfer i the same way). */
#ifndef BANK_H
#define BANK_H

#include <stdint.h>

struct bank_args {
    uint32_t accounts;         /* device address of int32 balances */
    uint32_t account_count;    /* at least 2 */
    uint32_t threads, per_thread;
};

/* Transfer i moves bank_amount(i) from bank_from(i) to bank_to(i) (another account). */
static inline uint32_t bank_from(uint32_t i, uint32_t count) { return (i * 2654435761u >> 7) % count; }
static inline uint32_t bank_to(uint32_t i, uint32_t count) { return (bank_from(i, count) + 1 + i % (count - 1)) % count; }
static inline int32_t bank_amount(uint32_t i) { return (int32_t)(1 + i % 10); }

#endif
