/* simtx_assert as a release build compiles it (SIMTX_ASSERTIONS undefined). */
#undef SIMTX_ASSERTIONS
#include "simtx_assert.h"

int simtx_assert_off_evaluations(void);

int simtx_assert_off_evaluations(void)
{
    int evaluations = 0;
    simtx_assert("test", ++evaluations < 0);
    return evaluations;
}
