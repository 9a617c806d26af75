#include "msg_queue.h"

#include <stdlib.h>

bool msg_queue_init(msg_queue *q, size_t capacity)
{
    q->messages = calloc(capacity ? capacity : 1, sizeof *q->messages);
    q->ready_cycles = calloc(capacity ? capacity : 1, sizeof *q->ready_cycles);
    q->capacity = capacity;
    q->head = q->length = 0;
    return q->messages && q->ready_cycles;
}

void msg_queue_release(msg_queue *q)
{
    free(q->messages);
    free(q->ready_cycles);
    q->messages = NULL;
    q->ready_cycles = NULL;
    q->capacity = q->length = 0;
}

bool msg_queue_push(msg_queue *q, const simtx_msg *msg, uint64_t ready_cycle)
{
    if (q->length == q->capacity) return false;
    size_t tail = (q->head + q->length) % q->capacity;
    q->messages[tail] = *msg;
    q->ready_cycles[tail] = ready_cycle;
    q->length++;
    return true;
}

simtx_msg *msg_queue_front(msg_queue *q)
{
    return q->length ? &q->messages[q->head] : NULL;
}

uint64_t msg_queue_front_ready(const msg_queue *q)
{
    return q->ready_cycles[q->head];
}

void msg_queue_pop(msg_queue *q)
{
    if (!q->length) return;
    q->head = (q->head + 1) % q->capacity;
    q->length--;
}
