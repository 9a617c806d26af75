-- The AGPM paper's GPU with persistent memory, as data: Table IV
-- ("Configuration parameters of GPGPU-Sim") of "AGPM: durable transactions
-- for GPUs with persistent memory" (../shared/papers/agpm_durable-transactions-gpu-pm.txt),
-- completed from the GTX480 set (specs/gtx480.lua) where the table says
-- nothing. The parts read it (parts/gpu.lua, parts/gpu_memory.lua,
-- parts/persistent_window.lua); platforms/gpu_pm.lua is the platform.
--
-- Each value names its source. Where the model departs from the table:
--   * "8 channels, 2 L2 banks/channel": the memory part ends each L2 slice
--     with its own memories, so each of the 16 slices has half a channel:
--     an nvm_controller with half the banks and half the bus, and a DRAM
--     stand-in with half the bus. The total banks and bandwidth match.
--   * "XOR-indexing" of L1D and L2 is not modelled (set = line index mod sets).
--   * Table IV's "Max 2048 threads" is 64 warps x 32 lanes; registers are
--     not in the table.
--   * The caches' and the crossbar's latencies are not in the table: the
--     GTX480 set's, in each block's own cycles.
return {
    name = "agpm",

    -- The energy figures: the AGPM paper gives none; the GTX480-class 40 nm
    -- technology for the GPU (an approximation: AGPM's GPU is a later,
    -- smaller node) and PCM for the NVM (docs/fidelity.md, Energy).
    technology = { include("../technology/gtx480_40nm.lua"), include("../technology/nvm_pcm.lua") },

    -- MHz. Table IV: cores "1.8GHz", interconnect "1.4GHz", memory
    -- controller "1.2GHz"; L2: not in the table, the interconnect's.
    clocks = { core = 1800, icnt = 1400, l2 = 1400, memory = 1200, nvm = 1200, commit = 700 },

    -- Table IV: "20 SMs".
    cores = 20,

    core = {
        warps = 64,              -- Table IV: "64 warps ... per SM"
        lanes = 32,              -- Table IV: "SIMD width=32", "32 threads per warp"
        schedulers = 4,          -- Table IV: "4 GTO scheduler"
        scheduler = "gto",       -- Table IV: GTO
        ctas = 32,               -- Table IV: "32 CTAs per SM"
        registers = 65536,       -- not in Table IV: 64 K registers, as Pascal/Volta SMs of 2048 threads
        shared_memory = 96 * 1024, -- Table IV: "Per-SM SMEM 96KB"
    },

    ldst = {
        segment_size = 128,      -- the coalescer's segment: the L1 line (Table IV: "128B line")
        sector_size = 32,        -- the L2 sector, as the GTX480 set
    },

    lds = {
        size = 96 * 1024,        -- Table IV: "96KB"
        banks = 32,              -- Table IV: "32 banks"
        latency = 24,            -- not in Table IV: the GTX480 set's
    },

    -- Table IV: "24KB, 128B line, 6-way associativity, 256 MSHRs",
    -- "L1D:WEWN" (write-evict, write-no-allocate: the l1_cache's policy).
    l1 = {
        size = 24 * 1024, line_size = 128, associativity = 6,
        sectors = 1,             -- whole-line fills, as the GTX480 set
        mshr_entries = 256,      -- Table IV: "256 MSHRs"
        mshr_max_merge = 8,      -- not in Table IV: the GTX480 set's
    },

    -- Table IV: "2048KB, 128KB/partition, 128B line, 16-way associativity,
    -- 256 MSHRs", "L2:WBWA" (write-back, write-allocate: the l2_cache's policy).
    l2 = {
        size = 128 * 1024, line_size = 128, associativity = 16,
        sectors = 4,             -- 32 B sectors, as the GTX480 set
        mshr_entries = 256,      -- Table IV: "256 MSHRs"
        mshr_max_merge = 4,      -- not in Table IV: the GTX480 set's
        access_latency = 60,     -- not in Table IV: the GTX480 set's (L2 cycles)
        miss_latency = 86,       -- not in Table IV: the GTX480 set's (L2 cycles)
    },

    -- Table IV: "16*16 crossbar, 32B flit size".
    crossbar = {
        flit_bytes = 32, flits_per_cycle = 1,
        latency = 5,             -- not in Table IV: the GTX480 set's
        input_queue_depth = 8, output_queue_depth = 8, -- not in Table IV: the GTX480 set's
    },

    -- Table IV: "8 channels, 2 L2 banks/channel" = 16 L2 slices ("2048KB,
    -- 128KB/partition"); the 256-byte chunk is not in the table (GPGPU-Sim's
    -- usual mapping, as the GTX480 set).
    address_map = { partitions = 16, interleave = 256 },

    -- nvm_controller parameters, per L2 slice (half a channel). Table IV:
    -- "NVM latency Read: 160ns, Write: 480ns" at the controller's 1.2 GHz;
    -- "BW:307GB/s" over 16 slices at 1.2 GHz = 16 bytes per cycle.
    nvm = {
        read_cycles = 192, write_cycles = 576,
        bus_bytes_per_cycle = 16,
        banks = 8,               -- not in Table IV: 16 per channel (the block's default), halved
    },

    -- The DRAM: Table IV's "DRAM latency Read: 160ns, Write: 160ns" as the
    -- fixed-latency stand-in (`memory`) at 1.2 GHz, half a channel's bus.
    simple_dram = {
        latency = 192, bytes_per_cycle = 16,
        queue_depth = 64,        -- not in Table IV: enough requests in flight for the bus over the 160 ns
    },

    -- AGPM's hardware (parts/agpm.lua). Section IV-C: AGPM buffers of 1024
    -- entries (log way and all way), 5-bit counters, 707-bit entries, about
    -- 89 KB per level; section IV-A: periods of 10000 log updates to start,
    -- the threshold moved by 10% per period on CWPPR. Not in the paper:
    -- the reservation buffer's size, the first period of a kernel (the
    -- paper's "smaller value"), the threshold's bounds, the selector's
    -- table of log updates in flight and BUCL's coalescing-degree threshold.
    agpm = {
        tracker = {
            entries = 1024, counter_bits = 5,          -- section IV-C
            initial_threshold = 10000, step_percent = 10, -- section IV-A
            ratio = 0.25, few_logs = 100,              -- Table III
            first_period = 0,                          -- not in the paper (0: the threshold; a shorter launch is one period)
            reservation_entries = 4096,                -- not in the paper
        },
        selector = {
            in_flight = 64,                            -- not in the paper
            bucl_degree = 2,                           -- not in the paper (Fig. 4: [1, 2] coalesced)
        },
    },

    -- The lazy-TM fields parts/tm_lazy.lua reads (no TM in the paper's
    -- platform: the GTX480 set's, so a TM platform can still be built on it).
    tm = {
        warp_tokens = 2, l2_size = 128 * 1024, l1_pending_entries = 512, commit_words_per_cycle = 1,
        conflict_table = 4 * 1024, lwt_entries = 2048, lwt_subarrays = 4,
    },
}
