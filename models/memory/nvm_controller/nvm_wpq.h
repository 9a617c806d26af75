/* nvm_wpq: the write-pending queue of an NVM controller. It sits in the
 * persistent domain (ADR): an entry's data is durable from insertion, and
 * leaves the queue once the media holds it. Entries keep arrival order
 * (seq), so overlapping writes overlay and drain oldest first. */
#ifndef SIMTX_NVM_WPQ_H
#define SIMTX_NVM_WPQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtx_msg.h"

typedef struct nvm_wpq_entry {
    uint64_t address;
    uint64_t seq;     /* arrival order over the controller's life */
    uint64_t arrival; /* cycle the write was accepted */
    uint64_t done;    /* issued: cycle the media holds it */
    uint64_t byte_enable[2];
    uint32_t size;
    unsigned bank;
    bool valid, issued;
    uint8_t data[SIMTX_MSG_MAX_DATA];
} nvm_wpq_entry;

typedef struct nvm_wpq {
    nvm_wpq_entry *entries; /* capacity slots, valid or free */
    nvm_wpq_entry **order;  /* scratch: overlapping entries, oldest first */
    unsigned capacity, count;
    uint64_t next_seq;
} nvm_wpq;

bool nvm_wpq_init(nvm_wpq *wpq, unsigned capacity);
void nvm_wpq_release(nvm_wpq *wpq);
static inline bool nvm_wpq_full(const nvm_wpq *wpq) { return wpq->count == wpq->capacity; }

/* Takes a write request (address, size <= SIMTX_MSG_MAX_DATA, data,
 * byte_enable); NULL when full. */
nvm_wpq_entry *nvm_wpq_insert(nvm_wpq *wpq, const simtx_msg *write, unsigned bank, uint64_t now);
void nvm_wpq_remove(nvm_wpq *wpq, nvm_wpq_entry *entry);

/* Overlays, oldest first, the enabled bytes of every entry overlapping
 * [address, address + size) onto data. Returns whether every byte of the
 * range came from the queue (computed for size <= SIMTX_MSG_MAX_DATA only;
 * false for larger ranges). */
bool nvm_wpq_overlay(const nvm_wpq *wpq, uint64_t address, uint8_t *data, size_t size);

/* Writes data into the enabled bytes of every entry overlapping the range
 * (a zero-time host write, so that a later drain keeps it). */
void nvm_wpq_patch(nvm_wpq *wpq, uint64_t address, const uint8_t *data, size_t size);

#endif
