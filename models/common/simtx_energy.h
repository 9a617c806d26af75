/* The energy model's formulas (docs/fidelity.md, Energy). Blocks only name
 * and count their events (simtx_observe_energy, simtx_stats.h); the run's
 * energy report prices them with the platform's technology file through
 * these formulas, kept here so that each one has a unit test.
 *
 * Units throughout: energy in pJ, power in W, time in ps (simulated) or ns
 * (device timings), current in mA, voltage in V. Handy identities:
 * W x ps = pJ, and mA x V x ns = pJ. */
#ifndef SIMTX_ENERGY_H
#define SIMTX_ENERGY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dynamic energy of an event counted `count` times at `pj_per_event`. */
static inline double simtx_energy_dynamic_pj(uint64_t count, double pj_per_event)
{
    return (double)count * pj_per_event;
}

/* Static (leakage) energy of a block drawing `watts` for `time_ps`: every
 * block leaks for the whole simulated time, busy or idle. */
static inline double simtx_energy_static_pj(double watts, uint64_t time_ps)
{
    return watts * (double)time_ps;
}

/* Average power in W of `pj` spent over `time_ps` (0 when no time passed). */
static inline double simtx_energy_average_w(double pj, uint64_t time_ps)
{
    return time_ps ? pj / (double)time_ps : 0.0;
}

/* One DRAM device's datasheet currents (mA) and supply (V), in the sense
 * of the JEDEC IDD measurements: IDD0 one bank ACT-PRE at tRC, IDD2N
 * precharge standby, IDD3N active standby, IDD4R/IDD4W burst read/write,
 * IDD5 burst refresh at tRFC. */
typedef struct simtx_dram_currents {
    double vdd;
    double idd0, idd2n, idd3n, idd4r, idd4w, idd5;
} simtx_dram_currents;

/* The timings the controller runs the device at, in command clocks, and
 * the clock period. burst_cycles: the clocks of one RD/WR's data
 * (burst_length / transfers_per_clock). */
typedef struct simtx_dram_times {
    double tck_ns;
    double tras, trp, trfc, burst_cycles;
} simtx_dram_times;

/* Energies of one rank of `devices` devices working in lock step, per
 * command, and its background power. In the manner of DRAMPower (Chandrasekar
 * et al.): each command's energy is the current above the background it
 * draws for the time the command takes:
 *   ACT  (IDD0 - IDD3N) x tRAS x VDD    PRE  (IDD0 - IDD2N) x tRP x VDD
 *   RD   (IDD4R - IDD3N) x burst x VDD  WR   (IDD4W - IDD3N) x burst x VDD
 *   REF  (IDD5 - IDD3N) x tRFC x VDD
 * and the background is IDD2N x VDD while every bank is precharged, IDD3N x
 * VDD while one is open: precharged_w all the time plus active_cycle_pj,
 * (IDD3N - IDD2N) x tCK x VDD, per clock with a bank open. A RowClone FPM
 * copy's second activate costs an ACT (Seshadri et al., MICRO'13: FPM is
 * two ACTs and a PRE); a PSM TRANSFER moves a burst out of one bank into
 * another inside the chip, a RD plus a WR (no I/O: the IDDs exclude it). */
typedef struct simtx_dram_energies {
    double act_pj, pre_pj, rd_pj, wr_pj, ref_pj, copy_act_pj, transfer_pj;
    double active_cycle_pj;
    double precharged_w;
} simtx_dram_energies;

void simtx_dram_energies_derive(const simtx_dram_currents *currents, const simtx_dram_times *times, double devices,
                                simtx_dram_energies *out);

#ifdef __cplusplus
}
#endif
#endif
