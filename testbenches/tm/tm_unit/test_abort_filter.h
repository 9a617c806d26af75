/* A tm_unit access filter for the testbenches (test_tm_unit.c,
 * tm_unit_testbench.cpp) that uses every filter hook: it holds TX_BEGIN
 * until a clock read (a commit-ID request for 0 IDs) answers and keeps the
 * answer + 1000 as the attempt's timestamp, tags forwarded loads with it
 * (SIMTX_FLAG_SNAPSHOT, transaction_id), counts NOTIFY_KIND_TEST
 * notifications (one naming a warp aborts its lanes in aux) and the lanes
 * whose attempt ended, tries to abort the lanes in abort_at_commit when
 * their TX_COMMIT arrives (the unit refuses: the commit decides), and aborts a lane that
 * loads TEST_ABORT_TRIGGER, once per lane (TX_ABORT, cause
 * TX_ABORT_WRITER_CONFLICT; statistic aborts_test_abort). A second one,
 * test_abort_first, aborts every lane at its first attempt's first access
 * when that is a load (aborts_test_abort_first): a real workload's
 * transactions then all run through TX_ABORT and a re-run. */
#ifndef SIMTX_TEST_ABORT_FILTER_H
#define SIMTX_TEST_ABORT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TEST_ABORT_TRIGGER 0x10100u

typedef struct test_abort_filter_state {
    uint32_t index;
    uint32_t timestamp; /* fetched at TX_BEGIN */
    uint64_t aborted;   /* lanes it aborted once */
    unsigned begins, notifications, ended;
    uint64_t abort_at_commit; /* lanes it tries to abort when their TX_COMMIT arrives (the unit refuses) */
} test_abort_filter_state;

/* The state of the last unit created with the filter. */
extern test_abort_filter_state *test_abort_filter_last;

/* Makes "test_abort" and "test_abort_first" filter names of every tm_unit created after. */
bool test_abort_filter_register(void);

#ifdef __cplusplus
}
#endif

#endif
