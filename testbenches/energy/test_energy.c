/* The energy model's formulas (models/common/simtx_energy.h), each against
 * a hand calculation. */
#include <math.h>
#include <stdio.h>

#include "simtx_energy.h"
#include "test_support.h"

static bool close_to(double actual, double expected)
{
    bool ok = fabs(actual - expected) <= 1e-9 * fabs(expected) + 1e-12;
    if (!ok) printf("  %.17g != %.17g\n", actual, expected);
    return ok;
}

static void dynamic_and_static(void)
{
    /* 1000 L1 hits at 120 pJ: 120 nJ. */
    CHECK(close_to(simtx_energy_dynamic_pj(1000, 120), 120000));
    CHECK(close_to(simtx_energy_dynamic_pj(0, 120), 0));
    /* 2 W leaking for 1 us (1e6 ps) is 2 uJ = 2e6 pJ; an idle block leaks too. */
    CHECK(close_to(simtx_energy_static_pj(2.0, 1000000), 2e6));
    CHECK(close_to(simtx_energy_static_pj(0.25, 0), 0));
    /* 3 uJ over 1.5 us is 2 W; no time, no power. */
    CHECK(close_to(simtx_energy_average_w(3e6, 1500000), 2.0));
    CHECK(close_to(simtx_energy_average_w(3e6, 0), 0));
}

/* Two devices at 1.5 V, a 1 ns clock: currents and timings round enough to
 * do by hand. mA x V x ns = pJ. */
static const simtx_dram_currents currents = {.vdd = 1.5, .idd0 = 100, .idd2n = 40, .idd3n = 50, .idd4r = 150, .idd4w = 140, .idd5 = 200};
static const simtx_dram_times times = {.tck_ns = 1.0, .tras = 30, .trp = 10, .trfc = 100, .burst_cycles = 2};

static void dram_commands(void)
{
    simtx_dram_energies e;
    simtx_dram_energies_derive(&currents, &times, 2, &e);
    CHECK(close_to(e.act_pj, (100 - 50) * 30 * 1.5 * 2));      /* 4500 */
    CHECK(close_to(e.pre_pj, (100 - 40) * 10 * 1.5 * 2));      /* 1800 */
    CHECK(close_to(e.rd_pj, (150 - 50) * 2 * 1.5 * 2));        /* 600 */
    CHECK(close_to(e.wr_pj, (140 - 50) * 2 * 1.5 * 2));        /* 540 */
    CHECK(close_to(e.ref_pj, (200 - 50) * 100 * 1.5 * 2));     /* 45000 */
    CHECK(close_to(e.copy_act_pj, 4500));                      /* RowClone FPM: another ACT */
    CHECK(close_to(e.transfer_pj, 600 + 540));                 /* PSM: a RD and a WR inside the chip */
    CHECK(close_to(e.active_cycle_pj, (50 - 40) * 1 * 1.5 * 2)); /* 30 */
    CHECK(close_to(e.precharged_w, 40e-3 * 1.5 * 2));          /* 0.12 W */
}

/* The IDD0 measurement itself: one bank ACT-PRE at tRC = tRAS + tRP draws
 * IDD0 throughout. The model must give back IDD0 x tRC x VDD: the ACT and
 * PRE energies over the background (IDD3N while the row is open, IDD2N
 * while precharging). */
static void dram_idd0_cycle(void)
{
    simtx_dram_energies e;
    simtx_dram_energies_derive(&currents, &times, 2, &e);
    double trc = times.tras + times.trp;
    double background = e.precharged_w * trc * times.tck_ns * 1000 + e.active_cycle_pj * times.tras;
    CHECK(close_to(e.act_pj + e.pre_pj + background, 100 * trc * 1.5 * 2)); /* 12000 pJ */
}

/* A 1 us run: one ACT, one PRE, 4 RD, 2 WR, a REF, a bank open 300 of the
 * 1000 clocks. By hand, from the currents directly: the commands 4500 +
 * 1800 + 4 x 600 + 2 x 540 + 45000 = 54780, the background (700 x IDD2N +
 * 300 x IDD3N) x VDD x 2 = (28000 + 15000) x 3 = 129000: 183780 pJ. */
static void dram_run(void)
{
    simtx_dram_energies e;
    simtx_dram_energies_derive(&currents, &times, 2, &e);
    double total = simtx_energy_dynamic_pj(1, e.act_pj) + simtx_energy_dynamic_pj(1, e.pre_pj) + simtx_energy_dynamic_pj(4, e.rd_pj) +
                   simtx_energy_dynamic_pj(2, e.wr_pj) + simtx_energy_dynamic_pj(1, e.ref_pj) +
                   simtx_energy_dynamic_pj(300, e.active_cycle_pj) + simtx_energy_static_pj(e.precharged_w, 1000000);
    CHECK(close_to(total, 183780));
}

int main(void)
{
    dynamic_and_static();
    dram_commands();
    dram_idd0_cycle();
    dram_run();
    return simtx_test_summary();
}
