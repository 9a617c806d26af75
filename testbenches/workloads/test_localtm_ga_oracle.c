/* localtm_ga's serializability oracle (localtm_ga_oracle.c) on crafted
 * histories: every serial order passes; a lost update, a cycle between
 * two solutions' chains, a read of a word nobody wrote, a write that does
 * not follow from what was read and a final word off its chain fail, each
 * with its reason. */
#include <string.h>

#include "kernels/localtm_args.h"
#include "localtm_ga_oracle.h"
#include "test_support.h"

enum { N = 4, SOLUTIONS = 3 };

typedef struct fixture {
    uint32_t initial[SOLUTIONS], final[SOLUTIONS], first[N], second[N], cross[N], log[2 * N];
    localtm_ga_history history;
} fixture;

static void setup(fixture *f)
{
    static const uint32_t initial[SOLUTIONS] = {0x0f, 0xa5, 0x3c}, first[N] = {0, 1, 2, 0}, second[N] = {1, 2, 0, 2};
    static const uint32_t cross[N] = {0xf0, 0x33, 0x0f, 0xcc};
    memset(f, 0, sizeof *f);
    memcpy(f->initial, initial, sizeof initial), memcpy(f->first, first, sizeof first);
    memcpy(f->second, second, sizeof second), memcpy(f->cross, cross, sizeof cross);
    /* Weights 10, 20, ..., 80; capacity 100. */
    f->history = (localtm_ga_history){N, SOLUTIONS, 100, 10 | 20 << 8 | 30 << 16 | 40u << 24, 50 | 60 << 8 | 70 << 16 | 80u << 24,
                                      f->initial, f->final, f->first, f->second, f->cross, f->log};
}

/* Runs the transactions in `order` one after another, logging their reads. */
static void run_serially(fixture *f, const uint32_t *order)
{
    uint32_t state[SOLUTIONS];
    memcpy(state, f->initial, sizeof state);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t t = order[i];
        f->log[2 * t] = state[f->first[t]], f->log[2 * t + 1] = state[f->second[t]];
        state[f->first[t]] = localtm_ga_written(&f->history, t, f->first[t]);
        state[f->second[t]] = localtm_ga_written(&f->history, t, f->second[t]);
    }
    memcpy(f->final, state, sizeof state);
}

static int verdict(fixture *f, char *error)
{
    error[0] = 0;
    return localtm_ga_check(&f->history, error, 256);
}

int main(void)
{
    fixture f;
    char error[256];
    static const uint32_t orders[][N] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        setup(&f);
        run_serially(&f, orders[i]);
        CHECK_EQUAL(verdict(&f, error), 0);
    }
    /* Lost update: work-item 3 read solution 0's initial word, which 0 read too. */
    setup(&f);
    run_serially(&f, (const uint32_t[]){0, 1, 2, 3});
    f.log[2 * 3] = f.initial[0];
    CHECK_EQUAL(verdict(&f, error), 1);
    CHECK_CONTAINS(error, "both read the same version of solution 0");
    /* A read naming a writer that never touched the solution (1 touches 1 and 2). */
    setup(&f);
    run_serially(&f, (const uint32_t[]){0, 1, 2, 3});
    f.log[2 * 3] = (f.log[2 * 3] & 0xffu) | 2u << 8;
    CHECK_EQUAL(verdict(&f, error), 1);
    CHECK_CONTAINS(error, "work-item 3 read");
    CHECK_CONTAINS(error, "which work-item 1 never wrote");
    /* A write that does not follow from the reads: 1 read 0's word with another mask. */
    setup(&f);
    run_serially(&f, (const uint32_t[]){0, 1, 2, 3});
    f.log[2 * 1] ^= 0x01;
    CHECK_EQUAL(verdict(&f, error), 1);
    CHECK_CONTAINS(error, "which work-item 0 never wrote");
    /* A final word off its chain (an abort's restore over a committed write). */
    setup(&f);
    run_serially(&f, (const uint32_t[]){0, 1, 2, 3});
    f.final[1] = f.initial[1];
    CHECK_EQUAL(verdict(&f, error), 1);
    CHECK_CONTAINS(error, "solution 1: 2 of the 2 transactions touching it chain from its initial word");
    /* A cycle: equal masks make every write the same mask, so 0 can read 1's
     * word of solution 0 while 1 reads 0's word of solution 1: each chain is
     * fine, together they order 0 before 1 and 1 before 0. */
    setup(&f);
    f.history.n = 2;
    f.first[0] = f.first[1] = 0, f.second[0] = f.second[1] = 1;
    f.initial[0] = f.initial[1] = 0x0f;
    f.log[0] = 0x0f | 2u << 8, f.log[1] = 0x0f;         /* 0 reads solution 0 from 1, solution 1 initial */
    f.log[2] = 0x0f, f.log[3] = 0x0f | 1u << 8;         /* 1 reads solution 0 initial, solution 1 from 0 */
    f.final[0] = 0x0f | 1u << 8, f.final[1] = 0x0f | 2u << 8, f.final[2] = f.initial[2];
    CHECK_EQUAL(localtm_ga_written(&f.history, 0, 1), 0x0f | 1u << 8);
    CHECK_EQUAL(verdict(&f, error), 1);
    CHECK_CONTAINS(error, "the reads-from order of 2 transactions has a cycle");
    return simtx_test_summary();
}
