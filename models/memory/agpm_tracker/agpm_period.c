#include "agpm_period.h"

void agpm_period_init(agpm_period *p, uint64_t initial, unsigned step_percent, uint64_t minimum, uint64_t maximum)
{
    p->threshold = initial;
    p->step_percent = step_percent;
    p->minimum = minimum;
    p->maximum = maximum;
    p->have_last = false;
    p->last_cwppr = 0;
    p->number = 0;
}

uint64_t agpm_period_end(agpm_period *p, double cwppr)
{
    if (p->have_last) {
        uint64_t step = p->threshold * p->step_percent / 100u;
        p->threshold = cwppr > p->last_cwppr ? p->threshold + step : p->threshold - step;
        if (p->threshold < p->minimum) p->threshold = p->minimum;
        if (p->threshold > p->maximum) p->threshold = p->maximum;
    }
    p->last_cwppr = cwppr;
    p->have_last = true;
    p->number++;
    return p->threshold;
}
