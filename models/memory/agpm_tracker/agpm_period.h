/* agpm_period: AGPM's period rule (section IV-A). A period ends after
 * `threshold` log updates; at its end the threshold moves by step_percent
 * of itself: up when the period's CWPPR (mean cycles a log update waited
 * for its durable acknowledgement) exceeds the previous period's, down
 * otherwise (equal included: the paper's "otherwise"); the first period
 * has no previous one and keeps it. Integer arithmetic, rounding down;
 * clamped to [minimum, maximum]. The threshold survives launch
 * boundaries (the tracker's concern: a launch's end also ends a period, so
 * a kernel with fewer log updates than the threshold is one period of its
 * own length, the paper's "smaller value"). */
#ifndef SIMTX_AGPM_PERIOD_H
#define SIMTX_AGPM_PERIOD_H

#include <stdbool.h>
#include <stdint.h>

typedef struct agpm_period {
    uint64_t threshold, minimum, maximum;
    unsigned step_percent;
    double last_cwppr;
    bool have_last;
    uint64_t number; /* periods ended */
} agpm_period;

void agpm_period_init(agpm_period *p, uint64_t initial, unsigned step_percent, uint64_t minimum, uint64_t maximum);
/* A period ended with this CWPPR: returns the next threshold. */
uint64_t agpm_period_end(agpm_period *p, double cwppr);

#endif
