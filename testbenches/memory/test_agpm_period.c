/* AGPM's period rule (section IV-A) on a CWPPR sequence: 10000 to start;
 * CWPPR 100, 120, 110, 110 -> after the first period (no previous one)
 * 10000, rising 11000, falling 9900, equal ("otherwise") 8910; and the
 * clamp. */
#include "agpm_period.h"
#include "test_support.h"

int main(void)
{
    agpm_period p;
    agpm_period_init(&p, 10000, 10, 500, 1000000);
    CHECK_EQUAL(agpm_period_end(&p, 100.0), 10000);
    CHECK_EQUAL(agpm_period_end(&p, 120.0), 11000);
    CHECK_EQUAL(agpm_period_end(&p, 110.0), 9900);
    CHECK_EQUAL(agpm_period_end(&p, 110.0), 8910);
    CHECK_EQUAL(p.number, 4);
    /* Falling forever stops at the minimum; rising at the maximum. */
    agpm_period q;
    agpm_period_init(&q, 600, 10, 500, 700);
    agpm_period_end(&q, 50.0);
    CHECK_EQUAL(agpm_period_end(&q, 40.0), 540);
    CHECK_EQUAL(agpm_period_end(&q, 30.0), 500);
    CHECK_EQUAL(agpm_period_end(&q, 40.0), 550);
    CHECK_EQUAL(agpm_period_end(&q, 50.0), 605);
    CHECK_EQUAL(agpm_period_end(&q, 60.0), 665);
    CHECK_EQUAL(agpm_period_end(&q, 70.0), 700);
    return simtx_test_summary();
}
