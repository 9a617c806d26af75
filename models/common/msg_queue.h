/* A bounded FIFO of messages, stored by value, with a ready cycle per entry
 * so a core can model a fixed delay without being ticked in between. */
#ifndef SIMTX_MSG_QUEUE_H
#define SIMTX_MSG_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtx_assert.h"
#include "simtx_msg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct msg_queue {
    simtx_msg *messages;
    uint64_t *ready_cycles;
    size_t capacity, head, length;
} msg_queue;

bool msg_queue_init(msg_queue *q, size_t capacity);
void msg_queue_release(msg_queue *q);

static inline bool msg_queue_full(const msg_queue *q) { return q->length == q->capacity; }
static inline bool msg_queue_empty(const msg_queue *q) { return q->length == 0; }

/* Appends an entry usable from ready_cycle on and returns it, for the
 * caller to write the message in place; NULL if full. */
static inline simtx_msg *msg_queue_push_slot(msg_queue *q, uint64_t ready_cycle)
{
    simtx_assert("msg_queue", q->head < q->capacity && q->length <= q->capacity);
    if (q->length == q->capacity) return NULL;
    size_t tail = q->head + q->length;
    if (tail >= q->capacity) tail -= q->capacity;
    q->ready_cycles[tail] = ready_cycle;
    q->length++;
    return &q->messages[tail];
}

/* Appends a copy of msg, usable from ready_cycle on. Returns false if full. */
static inline bool msg_queue_push(msg_queue *q, const simtx_msg *msg, uint64_t ready_cycle)
{
    simtx_msg *slot = msg_queue_push_slot(q, ready_cycle);
    if (slot) *slot = *msg;
    return slot != NULL;
}

/* The oldest message, or NULL when empty. */
static inline simtx_msg *msg_queue_front(msg_queue *q)
{
    return q->length ? &q->messages[q->head] : NULL;
}

static inline uint64_t msg_queue_front_ready(const msg_queue *q)
{
    simtx_assert("msg_queue", q->length > 0);
    return q->ready_cycles[q->head];
}

/* Storage slot (0..capacity-1) of the entry `position` places behind the
 * head: lets a core keep per-entry data of its own in parallel arrays. */
static inline size_t msg_queue_slot(const msg_queue *q, size_t position)
{
    simtx_assert("msg_queue", position < q->capacity);
    size_t slot = q->head + position;
    return slot >= q->capacity ? slot - q->capacity : slot;
}

/* Storage slot of the oldest entry (position 0, without the wrap test). */
static inline size_t msg_queue_head_slot(const msg_queue *q) { return q->head; }

/* The newest message, or NULL when empty: to amend a message just pushed. */
static inline simtx_msg *msg_queue_back(msg_queue *q)
{
    return q->length ? &q->messages[msg_queue_slot(q, q->length - 1)] : NULL;
}

static inline void msg_queue_pop(msg_queue *q)
{
    if (!q->length) return;
    if (++q->head == q->capacity) q->head = 0;
    q->length--;
}

#ifdef __cplusplus
}
#endif
#endif
