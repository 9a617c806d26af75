/* The Table III classifier (models/memory/agpm_tracker/agpm_reason.c)
 * against all 22 rows of the AGPM paper's Table II: each row's variables
 * give exactly the paper's reason, its Table I type and the path section IV
 * assigns (temporal for a, c, d, g). Shared memory is set for SGEMM and NW
 * only (reason h). Also the precedence: e before h before the rest. */
#include <stdio.h>
#include <string.h>

#include "agpm_reason.h"
#include "test_support.h"

typedef struct row {
    const char *kernel;
    /* In Table II's column order: l1d_t_all l1d_t_log l1d_s_all l1d_s_log l2_t_all l2_t_log l2_s_all l2_s_log all log */
    uint64_t v[10];
    bool shared;
    const char *type;
    char reason;
} row;

static const row rows[22] = {
    {"SAD1", {0, 0, 0, 0, 289160, 157652, 300509, 167001, 2288857, 324803}, false, "I", 'c'},
    {"Stencil1", {0, 0, 0, 0, 0, 0, 0, 0, 131871, 33849}, false, "III", 'f'},
    {"SGEMM", {0, 0, 0, 0, 0, 0, 0, 0, 3191435, 133274}, true, "II", 'h'},
    {"GRID1", {2398, 0, 3126, 0, 7495, 3483, 9588, 3930, 1047435, 662069}, false, "I", 'a'},
    {"GRID2", {47898, 0, 47898, 0, 140745, 64156, 140745, 64156, 591011, 200163}, false, "I", 'a'},
    {"2DCONV", {0, 0, 0, 0, 0, 0, 0, 0, 79334, 17060}, false, "III", 'f'},
    {"Backprop1", {0, 0, 7, 6, 0, 0, 153, 147, 88412, 65076}, false, "I", 'g'},
    {"Backprop2", {8764, 2671, 9476, 2987, 8958, 6330, 9707, 6920, 280763, 118159}, false, "II", 'b'},
    {"Pathfinder", {1221, 97, 1225, 101, 35000, 26646, 35843, 27229, 806640, 382582}, false, "I", 'd'},
    {"StreamTriad", {0, 0, 0, 0, 0, 0, 0, 0, 36000, 17476}, false, "III", 'f'},
    {"RA", {1, 1, 2, 2, 2, 1, 4, 2, 6644, 2676}, false, "II", 'b'},
    {"ATAX1", {45460, 45460, 45460, 45460, 135526, 89964, 135526, 89964, 1926411, 180170}, false, "II", 'b'},
    {"ATAX2", {89032, 45562, 134032, 45562, 135770, 90000, 135770, 90000, 545022, 180170}, false, "II", 'b'},
    {"NW", {82, 40, 154, 84, 204, 88, 426, 156, 3195, 1392}, true, "II", 'h'},
    {"BFS", {5, 0, 5, 0, 2, 1, 2, 1, 9528, 79}, false, "III", 'e'},
    {"SSSP1", {0, 0, 0, 0, 1, 0, 1, 0, 1007, 17}, false, "III", 'e'},
    {"SSSP2", {1028, 771, 1028, 771, 2570, 1285, 2570, 1285, 9509, 6168}, false, "II", 'b'},
    {"MVT1", {63720, 63720, 63720, 63720, 196227, 130846, 196227, 130846, 9444863, 341037}, false, "II", 'b'},
    {"GESUMMV", {60929, 60929, 60929, 60929, 193639, 129104, 193639, 129104, 15752038, 281725}, false, "II", 'b'},
    {"2MM1", {1639464, 0, 2809772, 0, 5608094, 4905025, 6369854, 5416431, 95599514, 51796409}, false, "I", 'a'},
    {"3MM1", {28360, 0, 28608, 0, 441916, 411072, 449205, 418361, 7281497, 4458165}, false, "I", 'a'},
    {"GEMM", {33545, 2031, 34045, 2031, 1533475, 1501161, 1559512, 1527197, 7332760, 4503201}, false, "I", 'd'},
};

static agpm_vars vars_of(const row *r)
{
    agpm_vars v = {.l1d_t_all = r->v[0], .l1d_t_log = r->v[1], .l1d_s_all = r->v[2], .l1d_s_log = r->v[3],
                   .l2_t_all = r->v[4], .l2_t_log = r->v[5], .l2_s_all = r->v[6], .l2_s_log = r->v[7],
                   .all = r->v[8], .log = r->v[9]};
    return v;
}

static const agpm_rules paper = {0.25, 100};

static void test_table_ii(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        agpm_vars v = vars_of(r);
        agpm_reason reason = agpm_classify(&v, r->shared, &paper);
        char got = agpm_reason_letter(reason);
        if (!CHECK_EQUAL(got, r->reason)) fprintf(stderr, "  row %s: reason %c, paper %c\n", r->kernel, got, r->reason);
        /* Table I's type: f is "II, III" in Table III; the rows say III. */
        const char *type = agpm_reason_type(reason);
        if (!CHECK(!strcmp(type, r->type) || (reason == AGPM_REASON_F && !strcmp(r->type, "III"))))
            fprintf(stderr, "  row %s: type %s, paper %s\n", r->kernel, type, r->type);
        agpm_path path = agpm_reason_path(reason);
        /* Type I is the temporal path's; II and III the non-temporal one's. */
        if (!CHECK_EQUAL(path, !strcmp(r->type, "I") ? AGPM_PATH_TEMPORAL : AGPM_PATH_NON_TEMPORAL))
            fprintf(stderr, "  row %s: wrong path\n", r->kernel);
    }
}

static void test_precedence(void)
{
    /* e before h: NW with 79 log updates is e. */
    agpm_vars nw = vars_of(&rows[13]);
    nw.log = 79;
    CHECK_EQUAL(agpm_classify(&nw, true, &paper), AGPM_REASON_E);
    /* e before the locality rules: BFS's L1 counters alone say a. */
    agpm_vars bfs = vars_of(&rows[14]);
    CHECK_EQUAL(agpm_classify(&bfs, false, &paper), AGPM_REASON_E);
    bfs.log = 101;
    CHECK_EQUAL(agpm_classify(&bfs, false, &paper), AGPM_REASON_A);
    /* h before the locality rules: NW without shared memory is b, SGEMM f. */
    agpm_vars n = vars_of(&rows[13]);
    CHECK_EQUAL(agpm_classify(&n, false, &paper), AGPM_REASON_B);
    agpm_vars s = vars_of(&rows[2]);
    CHECK_EQUAL(agpm_classify(&s, false, &paper), AGPM_REASON_F);
    /* e's bound is inclusive (log <= 100). */
    agpm_vars few = {0};
    few.log = 100;
    CHECK_EQUAL(agpm_classify(&few, false, &paper), AGPM_REASON_E);
    /* Nothing matches (L1 temporal log hits without L1 spatial ones): none, non-temporal. */
    agpm_vars odd = {.l1d_t_log = 3, .log = 1000};
    CHECK_EQUAL(agpm_classify(&odd, false, &paper), AGPM_REASON_NONE);
    CHECK_EQUAL(agpm_reason_path(AGPM_REASON_NONE), AGPM_PATH_NON_TEMPORAL);
    /* b versus d at the boundary: a ratio of exactly 0.25 is d. */
    agpm_vars edge = {.l1d_t_all = 400, .l1d_s_all = 400, .l1d_t_log = 100, .l1d_s_log = 100, .log = 1000};
    CHECK_EQUAL(agpm_classify(&edge, false, &paper), AGPM_REASON_D);
    edge.l1d_s_log = 101; /* either ratio above it: b */
    CHECK_EQUAL(agpm_classify(&edge, false, &paper), AGPM_REASON_B);
    /* Themis' test: any temporal locality. */
    agpm_vars sad = vars_of(&rows[0]);
    CHECK(agpm_vars_temporal(&sad));
    agpm_vars stream = vars_of(&rows[9]);
    CHECK(!agpm_vars_temporal(&stream));
}

int main(void)
{
    test_table_ii();
    test_precedence();
    return simtx_test_summary();
}
