-- A 40 nm GTX480-class (Fermi GF100) technology: the energy of each block's
-- events and each block's leakage, for the energy report (docs/fidelity.md,
-- Energy). specs/gtx480.lua and specs/agpm.lua name it; a netlist declares
-- it with technology(include("technology/gtx480_40nm.lua")).
--
-- Each figure is { value, unit, source, note }: the note says how far the
-- number may be off. Figures per event unless the name says otherwise
-- (`_byte`: per byte, `_lane`: per active lane); `static` is one block's
-- leakage in W, drawn for the whole simulated time, busy or idle.
--
-- Sources, abbreviated in the figures:
--   GPUWattch   Leng et al., "GPUWattch: Enabling Energy Optimizations in
--               GPGPUs", ISCA 2013 (GTX480 at 40 nm: per-component power
--               breakdowns, McPAT/CACTI-derived, validated within ~10%).
--   Keckler     Keckler et al., "GPUs and the Future of Parallel
--               Computing", IEEE Micro 2011 (40 nm energies: an FMA tens of
--               pJ, an 8 KB SRAM access ~10 pJ per 64 bits, on-chip wires
--               ~0.1-0.2 pJ per bit per mm).
--   CACTI       CACTI-style scaling at 40 nm (the SI-TM paper's Table 1:
--               15 kB table 31.5 mW, 12 kB 37.8 mW, 1 kB 3.2 mW).
--   split       the part of a GPUWattch-class chip total assigned to the
--               block by its share of area (GF100: ~529 mm^2, 15 SMs,
--               ~60 W of leakage at 1.0 V and 70 C in GPUWattch's
--               GTX480 validation; we take 45 W for the blocks modelled).
-- None of these figures was re-measured; none is a copy of another tool's
-- configuration. docs/fidelity.md lists the least certain and what the
-- totals do when each moves.
return {
    name = "gtx480_40nm",
    blocks = {
        simt_core = {
            static = { 2.0, "W", "split: 30 W of the SMs' leakage over 15 SMs (register file 128 KB, pipelines, I-cache)", "+-50%: leakage varies with die temperature and binning" },
            warp_issue = { 600, "pJ", "GPUWattch-class: I-cache read, decode, scoreboard, warp scheduler, operand collector, pipeline registers and their clock tree per issue; set with the lane figures so that a full-rate FP32 kernel draws ~80 W of SM dynamic power (GF100 at 1.4 GHz: 21 G warp instructions/s)", "+-50%: the pipeline overhead is the least itemised part of published breakdowns" },
            alu_lane = { 60, "pJ", "Keckler: a 32-bit integer op ~5 pJ and three register-file bank accesses ~15 pJ, times ~3 for the operand crossbar, pipeline latches and clocking that GPUWattch-class breakdowns attribute to execution", "+-50%" },
            mul_lane = { 80, "pJ", "as alu_lane, a multiplier ~3x an adder", "+-50%" },
            div_lane = { 250, "pJ", "estimate: an iterative divide, ~16 multiply-equivalent steps on the SFU path", "+-100%: no published per-divide figure found" },
            float_lane = { 100, "pJ", "Keckler: a single-precision FMA ~25 pJ at 40 nm plus register-file accesses, times the same overhead as alu_lane", "+-50%: divide and square root cost more, add less" },
            branch_lane = { 20, "pJ", "estimate: a compare and a register read per lane; the SIMT stack is in warp_issue", "+-60%" },
            jump_lane = { 15, "pJ", "estimate: a register write per lane", "+-60%" },
            load_lane = { 50, "pJ", "estimate: address generation and register write-back per lane (the memory side is priced by ldst_unit, caches, DRAM)", "+-60%" },
            store_lane = { 45, "pJ", "estimate: address generation and two register reads per lane", "+-60%" },
            atomic_lane = { 55, "pJ", "estimate: as a load and a store lane at the core (the operation itself: L2 atomic)", "+-60%" },
            csr_lane = { 10, "pJ", "estimate: a special-register read", "+-100%" },
            barrier_lane = { 2, "pJ", "estimate: barrier bookkeeping is per warp (warp_issue)", "+-100%: negligible either way" },
            exit_lane = { 2, "pJ", "estimate", "+-100%: negligible either way" },
            fence_lane = { 2, "pJ", "estimate", "+-100%: negligible either way" },
            tx_lane = { 20, "pJ", "estimate: a transaction instruction's per-lane bookkeeping (the SIMT stack entry, masks)", "+-100%" },
            illegal_lane = { 0, "pJ", "an illegal instruction fails the run", "exact" },
        },
        ldst_unit = {
            static = { 0.1, "W", "split: the coalescer and its queues, a small share of an SM", "+-100%" },
            request = { 30, "pJ", "estimate: a coalesced request's queue write and read, and the request's 128-bit address/control", "+-60%" },
            lane = { 3, "pJ", "estimate: an address compared against the segment being built", "+-60%" },
        },
        lds = {
            static = { 0.12, "W", "CACTI-style: 16 KB of 32 banks, about the leakage per kB of SI-TM Table 1's tables (~2.5 mW/kB) doubled for the bank crossbar", "+-60%" },
            request = { 20, "pJ", "estimate: the request's address crossbar and conflict check", "+-60%" },
            lane = { 6, "pJ", "Keckler: ~10 pJ per 64-bit access of an 8 KB SRAM, so ~5 pJ per 32-bit bank access, plus the data crossbar", "+-40%" },
            conflict_cycle = { 10, "pJ", "estimate: a replayed crossbar cycle", "+-100%" },
        },
        l1_cache = {
            static = { 0.25, "W", "CACTI-style: 48 KB data + tags at ~5 mW/kB (a larger, faster array than the SI-TM tables)", "+-60%" },
            lookup = { 25, "pJ", "CACTI-style: a 6-way tag read and compare", "+-50%" },
            hit = { 120, "pJ", "CACTI-style: a 128-byte line read from a 48 KB array (~1 pJ/byte)", "+-50%" },
            miss = { 30, "pJ", "estimate: a tag write and an MSHR allocated", "+-60%" },
            fill_byte = { 1.0, "pJ", "CACTI-style: a byte written into the data array", "+-50%" },
            writeback_byte = { 1.0, "pJ", "CACTI-style: a byte read out of the data array", "+-50%" },
            atomic = { 30, "pJ", "estimate: an ALU op on a word of the line", "+-100%" },
        },
        l2_cache = {
            static = { 0.6, "W", "CACTI-style: a 128 KB slice at ~4.5 mW/kB (GPUWattch GTX480 puts the L2's leakage at a few W for 768 KB)", "+-60%: SI-TM's 256 KB slices leak more, not scaled here" },
            lookup = { 40, "pJ", "CACTI-style: an 8-way tag read and compare of a 128 KB slice", "+-50%" },
            hit = { 110, "pJ", "CACTI-style: a 32-byte sector access of a 128 KB slice (~3.5 pJ/byte) with its ROP logic", "+-50%" },
            miss = { 40, "pJ", "estimate: a tag write and an MSHR allocated", "+-60%" },
            fill_byte = { 2.5, "pJ", "CACTI-style: a byte written into the slice", "+-50%" },
            writeback_byte = { 2.5, "pJ", "CACTI-style: a byte read out of the slice", "+-50%" },
            atomic = { 40, "pJ", "estimate: the ROP's ALU op on a word", "+-100%" },
        },
        crossbar = {
            static = { 1.5, "W", "split: the interconnect's wires and buffers (GPUWattch reports the NoC as a few % of GTX480 power)", "+-60%" },
            request_flit = { 250, "pJ", "Keckler: ~0.1 pJ/bit/mm x 256 bits x ~8 mm of die plus the switch and buffers", "+-60%: the wire length is a guess" },
            reply_flit = { 250, "pJ", "as request_flit", "+-60%" },
        },
        router = {
            static = { 0.2, "W", "estimate: a small switch", "+-100%" },
            flit = { 150, "pJ", "estimate: a link cycle through a router, shorter wires than the crossbar", "+-100%" },
        },
        memory = {
            static = { 1.0, "W", "estimate: a DRAM channel's background, as the dram_controller's precharged standby for two devices", "+-100%: a stand-in" },
            read_byte = { 120, "pJ", "GDDR5-class ~15 pJ/bit at the channel (core, I/O and controller)", "+-60%" },
            write_byte = { 120, "pJ", "as read_byte", "+-60%" },
        },
        dram_controller = {
            static = { 0.4, "W", "split: the memory controller and PHY of a 64-bit channel (GPUWattch lists the MC among the uncore)", "+-100%" },
            read_request = { 60, "pJ", "estimate: queue entry write, FR-FCFS comparisons over 16 entries, return queue", "+-100%" },
            write_request = { 60, "pJ", "as read_request", "+-100%" },
            io_read_byte = { 20, "pJ", "POD15 I/O ~2.5 pJ/bit (GDDR5 interface figures of the period); the IDDs exclude it", "+-60%" },
            io_write_byte = { 20, "pJ", "as io_read_byte", "+-60%" },
            -- The devices (1 Gb x32 GDDR5, Hynix H5GQ1H24AFR class at 1.5 V):
            -- DRAMPower-style energies come from these and the controller's timings.
            vdd = { 1.5, "V", "GDDR5 VDD = VDDQ = 1.5 V (JESD212)", "exact for the part; 1.35 V parts exist" },
            device_bits = { 32, "bits", "x32 devices (H5GQ1H24AFR: 32M x 32)", "exact" },
            idd0 = { 1000, "mA", "estimate for a 1 Gb x32 GDDR5 at 5 Gb/s: GDDR3 1 Gb (Qimonda HYB18H1G321AF -10) gives IDD0 375 mA at 1.8 V; GDDR5's clocking (WCK) raises every current", "+-40%: the H5GQ1H24AFR IDD table was not at hand" },
            idd2n = { 750, "mA", "estimate, as idd0 (GDDR3 reference: IDD2F 300 mA); GDDR5 standby is dominated by the always-on WCK/PLL", "+-40%" },
            idd3n = { 900, "mA", "estimate, as idd0 (GDDR3 reference: IDD3N 380 mA)", "+-40%" },
            idd4r = { 1500, "mA", "estimate, as idd0 (GDDR3 reference: IDD4R 510 mA)", "+-40%" },
            idd4w = { 1400, "mA", "estimate, as idd0 (GDDR3 reference: IDD4W 540 mA)", "+-40%" },
            idd5 = { 1600, "mA", "estimate, as idd0 (GDDR3 reference: IDD5B 570 mA)", "+-40%" },
        },
        tm_unit = {
            static = { 0.038, "W", "CACTI (SI-TM Table 1): a 12 kB table at 40 nm draws 37.8 mW; EA/PG's conflict address table is 12 KB per core", "+-50%: Table 1 gives power, not leakage alone" },
            tx_load = { 15, "pJ", "estimate: a search of the warp's logs (small SRAM)", "+-60%" },
            tx_store = { 15, "pJ", "estimate: a write-log entry written", "+-60%" },
            log_byte = { 1.5, "pJ", "estimate: a byte read out of the logs (the crossbar prices its flits)", "+-60%" },
            cat_lookup = { 12, "pJ", "CACTI-style: a word looked up in a 12 KB set-associative table", "+-50%" },
            cat_update = { 12, "pJ", "CACTI-style: a word written into it", "+-50%" },
            message = { 10, "pJ", "estimate: a TM protocol request formed", "+-100%" },
        },
        commit_unit = {
            static = { 0.032, "W", "CACTI (SI-TM Table 1): a 15 kB table draws 31.5 mW; a commit unit holds a 16 KB last-written-time table and its logs", "+-60%" },
            read_log_entry = { 8, "pJ", "estimate: an entry written into the unit's log storage", "+-60%" },
            write_log_entry = { 8, "pJ", "estimate: as read_log_entry", "+-60%" },
            validation = { 10, "pJ", "estimate: an entry read and its value compared (the L2 read is priced by the L2)", "+-60%" },
            commit_write = { 8, "pJ", "estimate: an entry read to write it back", "+-60%" },
            lwt_query = { 12, "pJ", "CACTI-style: a lookup in a 16 KB table of 4 sub-arrays", "+-50%" },
            cid_request = { 5, "pJ", "estimate: a counter and a reply", "+-100%" },
            rct_insert = { 12, "pJ", "CACTI-style: a reference count table read-modify-write", "+-50%" },
        },
        vit = {
            static = { 0.0032, "W", "CACTI (SI-TM Table 1): the 1 kB Version Index Table draws 3.2 mW", "+-50%: Table 1's power is per table, taken here per slice" },
            access = { 4, "pJ", "CACTI-style: a 42-entry associative search of 1 kB", "+-60%" },
            acquire = { 4, "pJ", "estimate: a reference count updated", "+-100%" },
            release = { 4, "pJ", "estimate: as acquire", "+-100%" },
        },
        bulk_copy = {
            static = { 0.005, "W", "estimate: a small control unit", "+-100%" },
            row_copy = { 20, "pJ", "estimate: a ROW_COPY formed and tracked (the in-DRAM copy is the dram_controller's)", "+-100%" },
            pass = { 2, "pJ", "estimate: a request passed through a register stage", "+-100%" },
        },
    },
}
