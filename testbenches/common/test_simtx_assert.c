/* simtx_assert (models/common/simtx_assert.h), built here with
 * SIMTX_ASSERTIONS as the Debug and sanitizer builds are: a broken invariant
 * of the coalescer, a queue index or a table lookup ends the process with
 * SIGABRT and a message naming the block and the invariant (before,
 * the coalescer's wrote past a message and crashed later); a release build
 * compiles the checks out (test_simtx_assert_off.c). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ldst_coalesce.h"
#include "msg_queue.h"
#include "ref_table.h"
#include "simtx_assert.h"
#include "test_support.h"

int simtx_assert_off_evaluations(void);

/* Runs broken() in a child; its stderr into text. True when it aborted. */
static bool aborts(void (*broken)(void), char *text, size_t size)
{
    int pipe_ends[2];
    if (pipe(pipe_ends)) return false;
    fflush(stdout), fflush(stderr);
    pid_t child = fork();
    if (child == 0) {
        dup2(pipe_ends[1], 2);
        close(pipe_ends[0]);
        broken();
        _exit(0);
    }
    close(pipe_ends[1]);
    size_t length = 0;
    ssize_t got;
    while (length + 1 < size && (got = read(pipe_ends[0], text + length, size - 1 - length)) > 0) length += (size_t)got;
    text[length] = 0;
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

/* A lane's 4-byte access 2 bytes before a 32-byte segment's end. */
static void coalesce_across_segment(void)
{
    uint32_t addresses[2] = {0x1000, 0x101e};
    ldst_segment segments[2];
    ldst_coalesce(addresses, 3, 4, 32, segments);
}

static void queue_index_past_capacity(void)
{
    msg_queue q;
    msg_queue_init(&q, 4);
    (void)msg_queue_slot(&q, 9);
}

static void table_set_overfull(void)
{
    ref_table table;
    ref_table_init(&table, 12, 4);
    table.live[ref_table_set(&table, 5)] = 5; /* more live entries than ways */
    (void)ref_table_find(&table, 5);
}

int main(void)
{
    static const struct {
        void (*broken)(void);
        const char *message;
    } cases[] = {
        {coalesce_across_segment, "simtx: internal error: ldst_unit (coalescer): invariant 'offset + size <= segment_size' broken (ldst_coalesce.c:"},
        {queue_index_past_capacity, "simtx: internal error: msg_queue: invariant 'position < q->capacity' broken (msg_queue.h:"},
        {table_set_overfull, "simtx: internal error: ref_table: invariant 'table->live[set] <= table->ways' broken (ref_table.h:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        CHECK(aborts(cases[i].broken, text, sizeof text));
        CHECK_CONTAINS(text, cases[i].message);
    }
    /* Kept invariants pass silently. */
    uint32_t addresses[2] = {0x1000, 0x101c};
    ldst_segment segments[2];
    CHECK_EQUAL(ldst_coalesce(addresses, 3, 4, 32, segments), 1);
    /* Compiled out: the condition is not even evaluated. */
    CHECK_EQUAL(simtx_assert_off_evaluations(), 0);
    return simtx_test_summary();
}
