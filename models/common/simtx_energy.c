#include "simtx_energy.h"

/* mA x V x ns = pJ: (current above background) x time x supply, for the rank. */
static double command_pj(double current_ma, double cycles, double tck_ns, double vdd, double devices)
{
    return current_ma * cycles * tck_ns * vdd * devices;
}

void simtx_dram_energies_derive(const simtx_dram_currents *c, const simtx_dram_times *t, double devices,
                                simtx_dram_energies *out)
{
    out->act_pj = command_pj(c->idd0 - c->idd3n, t->tras, t->tck_ns, c->vdd, devices);
    out->pre_pj = command_pj(c->idd0 - c->idd2n, t->trp, t->tck_ns, c->vdd, devices);
    out->rd_pj = command_pj(c->idd4r - c->idd3n, t->burst_cycles, t->tck_ns, c->vdd, devices);
    out->wr_pj = command_pj(c->idd4w - c->idd3n, t->burst_cycles, t->tck_ns, c->vdd, devices);
    out->ref_pj = command_pj(c->idd5 - c->idd3n, t->trfc, t->tck_ns, c->vdd, devices);
    out->copy_act_pj = out->act_pj;
    out->transfer_pj = out->rd_pj + out->wr_pj;
    out->active_cycle_pj = command_pj(c->idd3n - c->idd2n, 1, t->tck_ns, c->vdd, devices);
    out->precharged_w = c->idd2n * 1e-3 * c->vdd * devices;
}
