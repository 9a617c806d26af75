-- Shared body of the GTX480 transactional-memory platforms (SI-TM, ISCA'17,
-- Table 2): 15 SIMT cores (48 warps x 32 lanes, 2 GTO schedulers, 16 KB
-- shared memory), 2 transactional warps per core (960 concurrent
-- transactions), L1 not caching global data, 6 partitions of a 256 KB L2
-- slice (1536 KB: the Warp TM/KILO TM configuration) with a commit unit
-- each at 700 MHz (platforms/tm_memory.lua) and a GDDR5 dram_controller,
-- core/icnt 1400 MHz, memory 924 MHz. Used by gtx480_kilotm.lua, gtx480_warptm.lua, gtx480_idealtm.lua:
--   return include("gtx480_tm.lua")({ mode = "kilo" | "warp" | "ideal" })
-- Defines: cores (15), lanes (32), tokens (2), tcd (true: temporal conflict
-- detection for read-only transactions), dram (dram_controller|memory: the
-- fixed-latency stand-in ending each partition), broken (TEST ONLY: the commit
-- units skip one validation check, so the serializability oracle must fail).
return function(options)
    local mode = options.mode
    assert(mode == "kilo" or mode == "warp" or mode == "ideal", "mode must be kilo, warp or ideal")
    local cores = define("cores", 15)
    local lanes = define("lanes", 32)

    clock("core", { frequency_mhz = 1400 })
    clock("icnt", { frequency_mhz = 1400 })
    clock("l2", { frequency_mhz = 700 })
    clock("commit", { frequency_mhz = 700 })
    clock("memory", { frequency_mhz = 924 })

    local tm = include("tm_memory.lua")({
        ideal = mode == "ideal",
        params = { skip_validation_check = define("broken", false) },
    })
    local dram = define("dram", "dram_controller")
    local mem = include("gtx480_memory.lua")({
        cores = cores, l1 = tm.l1_params, before_l2 = tm.before_l2, l2 = { size = 256 * 1024 },
        -- Log entries cost interconnect flits, except with ideal TM (free log transfer).
        crossbar = { tm_log_data = mode ~= "ideal" },
        dram_block = dram,
        dram_params = dram == "memory" and function(_)
            return { latency = 100, bytes_per_cycle = 32, queue_depth = 16, base = 0, size = 0xc0000000 }
        end or nil,
    })
    for i = 0, cores - 1 do
        block("sm" .. i, "simt_core", {
            clock = "core", core_id = i, lanes = lanes, warps = 48, ctas = 8, registers = 32768,
            shared_memory = 16 * 1024, shared_banks = 32, schedulers = 2, scheduler = "gto",
            segment_size = 128, sector_size = 32,
            tm_warp_tokens = define("tokens", 2), tm_partitions = tm.partitions, tm_interleave = 256,
            tm_mode = mode == "warp" and "warp" or "kilo", tm_tcd = define("tcd", true),
        })
        connect("sm" .. i .. ".memory", mem.l1_upstream(i))
    end
end
