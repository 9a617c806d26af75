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
