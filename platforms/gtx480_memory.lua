-- The memory side of a GTX480-like GPU, as a netlist fragment:
--   one L1 data cache per core -> crossbar -> 6 memory partitions, each an
--   L2 slice (128 KB, executing global atomics as Fermi's ROP units do) in
--   front of one GDDR5 channel (a `dram_controller`).
--
-- Use it from a platform with
--
--   local gtx480_memory = include("gtx480_memory.lua")
--   local mem = gtx480_memory({ cores = 15 })
--   for i = 0, 14 do connect("sm" .. i .. ".memory", mem.l1_upstream(i)) end
--
-- The includer declares the clock domains (defaults: "core" for the L1s,
-- "icnt" for the crossbar, "l2" for the L2 slices, "memory" for DRAM; see
-- memory_system_trace.lua) and binds every L1's upstream (target) socket.
--
-- Attachment points: later blocks sit between the stages below without
-- editing this file. Each hook receives the index and the initiator socket at
-- the end of the chain so far (a string such as "icnt.partitions[2]"), may
-- declare blocks and connect that socket to one of them, and returns the
-- initiator socket the chain continues from:
--   after_l1(core, socket)           e.g. an AGPM buffer at the L1
--   before_l2(partition, socket)     e.g. a commit unit, Writer Table, Version
--                                    Index Table between crossbar and L2
--   before_dram(partition, socket)   e.g. an AGPM buffer at the L2, or a
--                                    write-pending queue in front of NVM
-- `dram_block`, `dram_socket` and `dram_params(partition)` choose what ends
-- each partition (an NVM controller for persistent-memory platforms, for
-- example; `dram_block = "memory"` the fixed-latency stand-in used before the
-- DRAM controller).
--
-- GTX480 figures (DESIGN.md; GPGPU-Sim's GTX480 config): L1D 48 KB, 128 B
-- lines, 6-way, global not cached in the TM configurations; L2 128 KB per
-- partition (768 KB); crossbar 32 B/cycle per port, 5 cycles; GDDR5 at
-- 924 MHz, 6 partitions x 64 bits (two x32 Hynix H5GQ1H24AFR chips in lock
-- step per partition: 8 B x 4 transfers = 32 B per DRAM clock each). Latencies
-- are knobs to calibrate: GPGPU-Sim delays every L2 access by its ROP
-- latency (120), which `l2 = { access_latency = ... }` models.

local function merge(defaults, overrides)
    local result = {}
    for k, v in pairs(defaults) do result[k] = v end
    for k, v in pairs(overrides or {}) do result[k] = v end
    return result
end

local function passthrough(_, socket) return socket end

return function(options)
    assert(type(options) == "table" and type(options.cores) == "number" and options.cores >= 1,
           "gtx480_memory: pass { cores = N }")
    local cores = options.cores
    local partitions = options.partitions or 6
    local interleave = options.interleave or 256
    local clocks = merge({ l1 = "core", icnt = "icnt", l2 = "l2", dram = "memory" }, options.clocks)
    local prefix = options.prefix or ""
    local after_l1 = options.after_l1 or passthrough
    local before_l2 = options.before_l2 or passthrough
    local before_dram = options.before_dram or passthrough
    local dram_block = options.dram_block or "dram_controller"
    local dram_socket = options.dram_socket or "port"
    -- The dram_controller is one GTX480 partition: two x32 chips in lock step
    -- (an 8-byte bus, 4 KB rows, a sixth S bit: 64-byte bursts); it sees
    -- full addresses and removes the crossbar's partition chunks before
    -- decoding (partition_count/partition_interleave, as the L2 indexes its
    -- sets). A `memory` stands in for GDDR5 with a fixed latency (GPGPU-Sim's
    -- dram_latency 100) and 32 B per DRAM clock, holding 64 requests (it
    -- counts requests in their latency too, so 16 would cap a partition at
    -- 16 per 100 cycles, a third of its bandwidth); other blocks take their
    -- own defaults unless dram_params says more.
    local dram_params = options.dram_params or function(_)
        if dram_block == "dram_controller" then
            return { bus_bytes = 8, row_bytes = 4096, address_map = "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS",
                     partition_count = partitions, partition_interleave = interleave }
        end
        if dram_block == "memory" then return { latency = 100, bytes_per_cycle = 32, queue_depth = 64 } end
        return {}
    end

    local names = {
        crossbar = prefix .. "icnt",
        l1 = function(i) return prefix .. "l1_" .. i end,
        l2 = function(p) return prefix .. "l2_" .. p end,
        dram = function(p) return prefix .. "dram" .. p end,
    }

    block(names.crossbar, "crossbar", merge({
        clock = clocks.icnt, cores = cores, partitions = partitions,
        flit_bytes = 32, flits_per_cycle = 1, latency = 5,
        input_queue_depth = 8, output_queue_depth = 8,
        mapping = "interleave", interleave = interleave,
    }, options.crossbar))

    for i = 0, cores - 1 do
        block(names.l1(i), "l1_cache", merge({
            clock = clocks.l1, size = 48 * 1024, line_size = 128, associativity = 6,
            sectors = 1, mshr_entries = 32, mshr_max_merge = 8, -- Fermi L1: whole-line fills
        }, options.l1))
        local tail = after_l1(i, names.l1(i) .. ".downstream")
        connect(tail, names.crossbar .. ".cores[" .. i .. "]")
    end

    for p = 0, partitions - 1 do
        block(names.l2(p), "l2_cache", merge({
            clock = clocks.l2, size = 128 * 1024, line_size = 128, associativity = 8,
            sectors = 4, mshr_entries = 32, mshr_max_merge = 4, -- Fermi L2: 32 B sectors
            partition_count = partitions, partition_interleave = interleave,
        }, options.l2))
        local front = before_l2(p, names.crossbar .. ".partitions[" .. p .. "]")
        connect(front, names.l2(p) .. ".upstream")

        local params = merge(dram_params(p), { clock = clocks.dram })
        block(names.dram(p), dram_block, params)
        local back = before_dram(p, names.l2(p) .. ".downstream")
        connect(back, names.dram(p) .. "." .. dram_socket)
    end

    return {
        names = names,
        cores = cores,
        partitions = partitions,
        -- The target socket a core's load/store unit connects to.
        l1_upstream = function(i) return names.l1(i) .. ".upstream" end,
    }
end
