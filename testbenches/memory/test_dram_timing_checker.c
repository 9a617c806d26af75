/* The independent timing checker: legal GDDR5 command sequences pass, and
 * each deliberately mistimed command is caught with the constraint named. */
#include <stdio.h>
#include <string.h>

#include "dram_timing_checker.h"
#include "test_support.h"

static dram_timing gddr5(void)
{
    return (dram_timing){.rcd = 12, .rp = 12, .ras = 26, .rc = 38, .cl = 12, .wl = 4, .ccd_s = 2, .ccd_l = 3,
                         .rrd = 6, .faw = 22, .wtr = 5, .rtw = 11, .wr = 12, .rtp = 2, .refi = 3603, .rfc = 61,
                         .burst = 2, .refresh = true, .copy_activates_limited = true, .rows_per_subarray = 64,
                         .banks = 16, .bank_groups = 4};
}

#define C(kind, cycle, bank, row) ((dram_command){DRAM_CMD_##kind, (cycle), (bank), (row), 0, 0, 0})

/* Feeds all commands; the last one must be rejected naming `constraint`
 * (NULL: every command must pass). */
static void expect(const dram_timing *t, const dram_command *commands, size_t count, const char *constraint,
                   const char *what)
{
    dram_timing_checker *checker = dram_timing_checker_create(t, 4096);
    char error[256] = "";
    size_t passed = 0;
    while (passed < count && dram_timing_checker_observe(checker, &commands[passed], error, sizeof error)) passed++;
    if (!constraint) {
        if (!CHECK_EQUAL(passed, count)) fprintf(stderr, "  %s: %s\n", what, error);
    } else {
        if (!CHECK_EQUAL(passed, count - 1)) fprintf(stderr, "  %s: stopped at %zu: %s\n", what, passed, error);
        if (!CHECK_CONTAINS(error, constraint)) fprintf(stderr, "  %s\n", what);
    }
    dram_timing_checker_destroy(checker);
}

#define EXPECT_OK(t, ...)                                                                                  \
    do {                                                                                                   \
        const dram_command commands_[] = {__VA_ARGS__};                                                     \
        expect(t, commands_, sizeof commands_ / sizeof commands_[0], NULL, #__VA_ARGS__);                  \
    } while (0)
#define EXPECT_CAUGHT(t, constraint, ...)                                                                  \
    do {                                                                                                   \
        const dram_command commands_[] = {__VA_ARGS__};                                                     \
        expect(t, commands_, sizeof commands_ / sizeof commands_[0], constraint, #__VA_ARGS__);            \
    } while (0)

int main(void)
{
    dram_timing t = gddr5();
    /* A legal closed-row read, a row hit, a conflict, and a write after read. */
    EXPECT_OK(&t, C(ACT, 0, 0, 5), C(RD, 12, 0, 5), C(RD, 15, 0, 5), C(PRE, 26, 0, 0), C(ACT, 38, 0, 7),
              C(WR, 50, 0, 7), C(RD, 50 + 4 + 2 + 5, 0, 7), C(PRE, 50 + 4 + 2 + 12, 0, 0));
    /* Each constraint, one cycle short. */
    EXPECT_CAUGHT(&t, "tRCD", C(ACT, 0, 0, 5), C(RD, 11, 0, 5));
    EXPECT_CAUGHT(&t, "tRAS", C(ACT, 0, 0, 5), C(PRE, 25, 0, 0));
    EXPECT_CAUGHT(&t, "tRP", C(ACT, 0, 0, 5), C(PRE, 30, 0, 0), C(ACT, 41, 0, 6));
    dram_timing long_rc = t; /* tRC above tRAS + tRP, so that only tRC can catch it */
    long_rc.rc = 40;
    EXPECT_CAUGHT(&long_rc, "tRC", C(ACT, 0, 0, 5), C(PRE, 26, 0, 0), C(ACT, 39, 0, 6));
    EXPECT_CAUGHT(&t, "tRRD", C(ACT, 0, 0, 5), C(ACT, 5, 1, 5));
    EXPECT_CAUGHT(&t, "tCCDL", C(ACT, 0, 0, 5), C(ACT, 6, 1, 5), C(RD, 18, 0, 5), C(RD, 20, 1, 5));
    EXPECT_OK(&t, C(ACT, 0, 0, 5), C(ACT, 6, 4, 5), C(RD, 18, 0, 5), C(RD, 20, 4, 5)); /* other group: tCCDS */
    EXPECT_CAUGHT(&t, "tCCDS", C(ACT, 0, 0, 5), C(ACT, 6, 4, 5), C(RD, 18, 0, 5), C(RD, 19, 4, 5));
    EXPECT_CAUGHT(&t, "tWTR", C(ACT, 0, 0, 5), C(ACT, 6, 4, 5), C(WR, 18, 0, 5), C(RD, 28, 4, 5));
    EXPECT_CAUGHT(&t, "tRTW", C(ACT, 0, 0, 5), C(ACT, 6, 4, 5), C(RD, 18, 0, 5), C(WR, 28, 4, 5));
    EXPECT_CAUGHT(&t, "tWR", C(ACT, 0, 0, 5), C(WR, 12, 0, 5), C(PRE, 29, 0, 0));
    EXPECT_CAUGHT(&t, "tRTP", C(ACT, 0, 0, 5), C(RD, 25, 0, 5), C(PRE, 26, 0, 0));
    /* tFAW: with tRRD short enough that only the window can catch it. */
    dram_timing fast_rrd = t;
    fast_rrd.rrd = 2;
    EXPECT_OK(&fast_rrd, C(ACT, 0, 0, 1), C(ACT, 2, 1, 1), C(ACT, 4, 2, 1), C(ACT, 6, 3, 1), C(ACT, 22, 4, 1));
    EXPECT_CAUGHT(&fast_rrd, "tFAW", C(ACT, 0, 0, 1), C(ACT, 2, 1, 1), C(ACT, 4, 2, 1), C(ACT, 6, 3, 1), C(ACT, 21, 4, 1));
    /* Protocol: reads of a closed bank or another row, double activates, one command per cycle. */
    EXPECT_CAUGHT(&t, "not open", C(RD, 0, 0, 5));
    EXPECT_CAUGHT(&t, "different row", C(ACT, 0, 0, 5), C(RD, 12, 0, 6));
    EXPECT_CAUGHT(&t, "already open", C(ACT, 0, 0, 5), C(ACT, 40, 0, 6));
    EXPECT_CAUGHT(&t, "command bus", C(ACT, 0, 0, 5), C(ACT, 0, 1, 5));
    /* Refresh: banks closed, tRP before, tRFC after, and no long gaps. */
    EXPECT_OK(&t, C(ACT, 0, 0, 5), C(PRE, 26, 0, 0), C(REF, 38, 0, 0), C(ACT, 99, 0, 5));
    EXPECT_CAUGHT(&t, "bank 0 open", C(ACT, 0, 0, 5), C(REF, 40, 0, 0));
    EXPECT_CAUGHT(&t, "tRP", C(ACT, 0, 0, 5), C(PRE, 26, 0, 0), C(REF, 37, 0, 0));
    EXPECT_CAUGHT(&t, "tRFC", C(REF, 10, 0, 0), C(ACT, 70, 0, 5));
    EXPECT_CAUGHT(&t, "tREFI", C(ACT, 9 * 3603 + 1, 0, 5));
    {
        dram_timing_checker *checker = dram_timing_checker_create(&t, 4096);
        char error[256] = "";
        CHECK(dram_timing_checker_finish(checker, 9 * 3603, error, sizeof error));
        CHECK(!dram_timing_checker_finish(checker, 9 * 3603 + 1, error, sizeof error));
        CHECK_CONTAINS(error, "tREFI");
        dram_timing_checker_destroy(checker);
    }
    /* RowClone FPM: ACT src, COPY_ACT dst (same subarray) at tRAS, PRE at tRAS. */
    EXPECT_OK(&t, C(ACT, 0, 3, 64), C(COPY_ACT, 26, 3, 127), C(PRE, 52, 3, 0), C(ACT, 64, 3, 127));
    EXPECT_CAUGHT(&t, "tRAS", C(ACT, 0, 3, 64), C(COPY_ACT, 25, 3, 127));
    EXPECT_CAUGHT(&t, "tRAS", C(ACT, 0, 3, 64), C(COPY_ACT, 26, 3, 127), C(PRE, 51, 3, 0));
    EXPECT_CAUGHT(&t, "different subarrays", C(ACT, 0, 3, 63), C(COPY_ACT, 26, 3, 64));
    EXPECT_CAUGHT(&t, "closed bank", C(COPY_ACT, 26, 3, 64));
    /* Copy activates count against tRRD/tFAW, or not, as configured. */
    EXPECT_CAUGHT(&t, "tRRD", C(ACT, 0, 3, 64), C(ACT, 23, 5, 1), C(COPY_ACT, 26, 3, 65));
    dram_timing free_copies = t;
    free_copies.copy_activates_limited = false;
    EXPECT_OK(&free_copies, C(ACT, 0, 3, 64), C(ACT, 23, 5, 1), C(COPY_ACT, 26, 3, 65), C(ACT, 29, 6, 1));
    /* RowClone PSM: TRANSFERs need both rows open and obey tCCD; the target
     * bank then needs write recovery before PRE. */
    dram_command transfer = {DRAM_CMD_TRANSFER, 18, 0, 5, 0, 4, 9};
    dram_command transfer_early = transfer;
    transfer_early.cycle = 17;
    dram_command transfer_next = transfer;
    transfer_next.cycle = 20; /* same groups as the last: needs tCCDL */
    EXPECT_OK(&t, C(ACT, 0, 0, 5), C(ACT, 6, 4, 9), transfer, C(PRE, 26, 0, 0), C(PRE, 18 + 4 + 2 + 12, 4, 0));
    EXPECT_CAUGHT(&t, "tRCD", C(ACT, 0, 0, 5), C(ACT, 6, 4, 9), transfer_early);
    EXPECT_CAUGHT(&t, "tCCDL", C(ACT, 0, 0, 5), C(ACT, 6, 4, 9), transfer, transfer_next);
    EXPECT_CAUGHT(&t, "tWR", C(ACT, 0, 0, 5), C(ACT, 6, 4, 9), transfer, C(PRE, 35, 4, 0));
    return simtx_test_summary();
}
