-- The GTX480 (Fermi) parameter set of the TM papers, as data: SI-TM
-- (ISCA'17) Table 2 and EA/PG (HPCA'16) Table 1, both "GPGPU-Sim
-- Configuration" of the same GTX480-like device, completed from
-- GPGPU-Sim's GTX480 configuration and the Hynix H5GQ1H24AFR datasheet where
-- the tables say nothing. The parts (parts/gpu.lua, parts/gpu_memory.lua,
-- parts/tm_lazy.lua) read it; a platform may copy it and change fields:
--
--   local spec = include("specs/gtx480.lua")
--   spec.l2.size = 256 * 1024
--
-- Each value names its source. Where a value differs from the papers'
-- tables:
--   * l1.size 48 KB: both tables say "60KB / 48KB"; 60 KB is EA/PG's baseline
--     with 12 KB extra L1 (the size of its Conflict Address Table).
--   * tm.l2_size 256 KB x 6 is SI-TM's ("Warp TM-specific", to match SI-TM's
--     storage); EA/PG's Warp TM runs with l2.size, 128 KB x 6.
--   * clocks.l2 700 MHz: the tables give core/interconnect/memory only.
-- Every other value below matches both tables. Not parameters here: the
-- tables' "2-Phase Parallel Conflict Resolution" (Warp TM's mechanism, in the
-- core) and "DRAM Scheduler Out-of-order, FR-FCFS" (the dram_controller's).
return {
    name = "gtx480",

    -- The energy figures (docs/fidelity.md, Energy): a 40 nm GTX480-class
    -- technology, and PCM for the platforms with persistent memory.
    technology = { include("../technology/gtx480_40nm.lua"), include("../technology/nvm_pcm.lua") },

    -- MHz. Tables: "Core/Interconnect/Memory clock 1400/1400/924 MHz",
    -- "Commit Unit Clock 700 MHz"; L2: not in the tables, half the core clock
    -- as in the earlier platforms.
    clocks = { core = 1400, icnt = 1400, l2 = 700, commit = 700, memory = 924 },

    -- Tables: "SIMT Cores 15".
    cores = 15,

    -- simt_core parameters.
    core = {
        warps = 48,              -- tables: "48 warps x 32 = 1536 threads"
        lanes = 32,              -- tables: 32 threads a warp, "SIMD Width 16 x 2"
        schedulers = 2,          -- tables: "Warp Scheduler Count 2 per core"
        scheduler = "gto",       -- tables: "Greedy-then-oldest"
        ctas = 8,                -- GPGPU-Sim GTX480: 8 CTAs per core
        registers = 32768,       -- GPGPU-Sim GTX480: 32768 registers per core
        shared_memory = 16 * 1024, -- tables: "Shared Memory per Core 16KB" (CTA placement; the lds holds it)
        -- Single precision, GPGPU-Sim's GTX480 configuration: -ptx_opcode_latency_fp
        -- 4,13,4,5,39 (ADD,MAX,MUL,MAD,DIV); square root on the SFU, whose
        -- latency the configuration leaves at GPGPU-Sim's default 8.
        fp_latency = 4,          -- ADD and MUL (min/max, moves and compares too: the SP unit's add path)
        fma_latency = 5,         -- MAD
        fdiv_latency = 39,       -- DIV
        fsqrt_latency = 8,       -- -ptx_opcode_latency_sfu default
    },

    -- ldst_unit parameters (a core's LD/ST unit for global memory, one per core).
    ldst = {
        segment_size = 128,      -- the coalescer's segment: the L1 line (tables: "128B line")
        sector_size = 32,        -- the coalescer's sector: the L2 sector (GPGPU-Sim GTX480: 32 B sectors)
    },

    -- lds parameters (a core's shared memory, one per core).
    lds = {
        size = 16 * 1024,        -- tables: "Shared Memory per Core 16KB"
        banks = 32,              -- GPGPU-Sim GTX480: 32 banks, 4 bytes wide
        latency = 24,            -- not in the tables: the SIMT core's shared-memory latency before the lds was a block
    },

    -- l1_cache parameters. Tables: "60KB / 48KB, 128B line, 6-way (Not
    -- caching global accesses)": the TM part turns cache_global off.
    l1 = {
        size = 48 * 1024, line_size = 128, associativity = 6,
        sectors = 1,             -- Fermi's L1 fills whole lines
        mshr_entries = 32,       -- GPGPU-Sim GTX480 L1D MSHRs
        mshr_max_merge = 8,      -- GPGPU-Sim GTX480 L1D merges
    },

    -- l2_cache parameters, per partition. EA/PG: "128KB x 6 partition =
    -- 768KB" (SI-TM's larger L2 for Warp TM/KILO TM is tm.l2_size).
    l2 = {
        size = 128 * 1024, line_size = 128, associativity = 8, -- GPGPU-Sim GTX480 L2: 128 B lines, 8-way
        sectors = 4,             -- 32 B sectors, as GPGPU-Sim's L2
        mshr_entries = 32, mshr_max_merge = 4, -- GPGPU-Sim GTX480 L2 MSHRs
        -- Latency (L2 cycles, two core cycles each), calibrated with
        -- scripts/calibrate against the tables' "Min. L2 Latency 330 compute
        -- cycles" (EA/PG) / "Min DRAM Request Latency 330 compute cycles"
        -- (SI-TM), read as the unloaded load that misses the L2 and hits an
        -- open DRAM row (docs/calibration.md):
        access_latency = 60,     -- GPGPU-Sim GTX480 l2_rop_latency 120 core cycles, hits and misses alike
        miss_latency = 86,       -- GPGPU-Sim's dram_latency 100 and its L2-to-DRAM queues, set so the row hit takes 330
    },

    -- crossbar parameters. Tables: "1 Crossbar per direction", "32B/cycle
    -- = 288GB/s per direction", "5 cycles to traverse".
    crossbar = {
        flit_bytes = 32, flits_per_cycle = 1, latency = 5,
        input_queue_depth = 8, output_queue_depth = 8, -- GPGPU-Sim's icnt buffers
    },

    -- The platform address map. Tables: "Memory Partitions 6"; the 256-byte
    -- chunk is GPGPU-Sim's GTX480 address mapping (dramid@8).
    address_map = { partitions = 6, interleave = 256 },

    -- dram_controller parameters: one partition is two x32 H5GQ1H24AFR chips
    -- in lock step (tables: "DRAM Timing Hynix H5GQ1H24AFR"): an 8-byte bus,
    -- 4 KB rows, 64-byte bursts. Timings are the block's defaults (the
    -- datasheet at 924 MHz; see models/memory/dram_controller).
    dram = {
        bus_bytes = 8, row_bytes = 4096, address_map = "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS",
        queue_depth = 16,        -- tables: "DRAM Scheduler Queue Size 16" (FR-FCFS, out of order)
        return_queue_depth = 116, -- tables: "DRAM Return Queue Size 116"
    },
    -- The fixed-latency stand-in for a partition's DRAM (`memory` block):
    -- GPGPU-Sim's dram_latency 100 and 32 B per DRAM clock.
    simple_dram = { latency = 100, bytes_per_cycle = 32 },

    -- Lazy TM (KILO TM / Warp TM).
    tm = {
        warp_tokens = 2,         -- tables: "2 Warps per core (960 concurrent Txns)"
        l2_size = 256 * 1024,    -- SI-TM: "256KB x 6 partition = 1536KB" for Warp TM/KILO TM
        l1_pending_entries = 512, -- TM requests a core keeps outstanding (tm_lazy.h, "held requests")
        commit_words_per_cycle = 1, -- tables: "Validation/Commit BW 1 Word per cycle per CU"
        conflict_table = 4 * 1024, -- tables: "Intra-Warp CD Resources 4KB Shared memory per warp" (Warp TM)
        lwt_entries = 2048,      -- EA/PG: "TCD Last Written Time Table 16KB (2048 entries in 4 sub arrays)",
        lwt_subarrays = 4,       -- of 128-byte blocks ("TCD Detection Granularity 128 Byte")
    },

    -- SI-TM (Table 2 "SI-TM-Specific", §4.3), read by parts/versioned_memory.lua.
    -- Its L2 is l2.size, 128 KB x 6: the other 768 KB of Warp TM's L2 hold
    -- its tables (WT 15 KB + SRL 740 KB + timestamp table 12 KB + VIT 1 KB).
    si = {
        l2_size = 128 * 1024,    -- Table 2: "L2 Cache for all Cores 128KB x 6 partition = 768KB"
        versions = 8,            -- Table 2: "Concurrently Active Versions 8"
        vit_bytes = 1024,        -- Table 2: "Version Index Table 1KB"
        vit_regions = 42,        -- §4.3: 1024 / (193 / 8) = 42 regions of 193-bit entries
        timestamp_bits = 32,     -- §4.3: "8 x 32-bit creation times"
        row_copy_bytes = 2048,   -- Table 2: "Row Copy Size 2KB Per Subarray" (one chip; a partition's two chips copy 4 KB in lock step)
        row_copy_ns = 68,        -- Table 2: "Row Copy Latency 68 ns" (= 2 tRAS + tRP; the dram_controller's FPM takes 64 cycles = 69.3 ns)
        subarrays = 64,          -- Table 2: "Number of Subarrays 64 per bank" (the dram_controller's default)
        copy_queue_depth = 4,    -- not in the paper: the dram_controller's ROW_COPY queue
        writer_table_entries = 3000, -- §4.3: 3000 x 40 bits = 15 KB (issue 27 part 2)
        reader_list_bytes = 740 * 1024, -- Table 2: "Scalable Reader List 740KB"
        timestamp_table_entries = 1024, -- §4.3: 1024 x 3 x 24 bits ("12KB")
    },
}
