-- The memory side of a GPU, as a netlist part:
--   one L1 data cache per core -> crossbar -> a memory partition per
--   address-map partition, each an L2 slice (executing global atomics as
--   Fermi's ROP units do) in front of one DRAM channel (a `dram_controller`).
--
--   local mem = include("parts/gpu_memory.lua")({ cores = 15 })
--   for i = 0, 14 do connect("sm" .. i .. ".memory", mem.l1_upstream(i)) end
--
-- The sizes, latencies and the address map come from `spec` (default
-- specs/gtx480.lua); the part declares the address map. The includer
-- declares the clock domains (names: `clocks`, default "core" for the L1s,
-- "icnt" for the crossbar, "l2" for the L2 slices, "memory" for DRAM) and
-- binds every L1's upstream (target) socket. parts/gpu.lua adds the cores.
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
--                                    router sending the persistent window to
--                                    an NVM controller (parts/persistent_window.lua);
--                                    a second return value, { base, size },
--                                    is the address range of the DRAM's
--                                    connection (the hook's socket routes by range)
--
-- Options: cores (required), spec, clocks, prefix (of every instance name),
-- the three hooks, l1 / l2 / crossbar (parameters over the spec's),
-- dram_block, dram_socket and dram_params(partition) (what ends each
-- partition: an NVM controller for persistent-memory platforms, for example;
-- `dram_block = "memory"` is the fixed-latency stand-in). An unknown option
-- is an error.

local parts = include("options.lua")
local check, merge, passthrough = parts.check, parts.merge, parts.passthrough

return function(options)
    options = check("gpu_memory", options, {
        cores = true, spec = true, clocks = true, prefix = true, after_l1 = true, before_l2 = true, before_dram = true,
        l1 = true, l2 = true, crossbar = true, dram_block = true, dram_socket = true, dram_params = true,
    })
    if type(options.cores) ~= "number" or options.cores < 1 then
        error("gpu_memory: cores must be a number of at least 1, got " .. tostring(options.cores), 2)
    end
    local spec = options.spec or include("../specs/gtx480.lua")
    -- The spec's energy figures (a technology already declared is not declared again).
    for _, t in ipairs(spec.technology or {}) do technology(t) end
    local cores = options.cores
    local partitions = spec.address_map.partitions
    local interleave = spec.address_map.interleave
    address_map(spec.address_map)
    local clocks = merge({ l1 = "core", icnt = "icnt", l2 = "l2", dram = "memory" }, options.clocks or {})
    local prefix = options.prefix or ""
    local after_l1 = options.after_l1 or passthrough
    local before_l2 = options.before_l2 or passthrough
    local before_dram = options.before_dram or passthrough
    local dram_block = options.dram_block or "dram_controller"
    local dram_socket = options.dram_socket or "port"
    -- The dram_controller sees full addresses and removes the crossbar's
    -- partition chunks before decoding (as the L2 indexes its sets). The
    -- `memory` stand-in holds 64 requests (it counts requests in their
    -- latency too, so 16 would cap a partition at 16 per 100 cycles, a third
    -- of its bandwidth); other blocks take their own defaults unless
    -- dram_params says more.
    local dram_params = options.dram_params or function(_)
        if dram_block == "dram_controller" then
            return merge(spec.dram, { partition_count = partitions, partition_interleave = interleave })
        end
        if dram_block == "memory" then return merge(spec.simple_dram, { queue_depth = 64 }) end
        return {}
    end

    local names = {
        crossbar = prefix .. "icnt",
        l1 = function(i) return prefix .. "l1_" .. i end,
        l2 = function(p) return prefix .. "l2_" .. p end,
        dram = function(p) return prefix .. "dram" .. p end,
    }

    block(names.crossbar, "crossbar", merge(spec.crossbar, {
        clock = clocks.icnt, cores = cores, partitions = partitions, mapping = "interleave", interleave = interleave,
    }, options.crossbar or {}))

    for i = 0, cores - 1 do
        block(names.l1(i), "l1_cache", merge(spec.l1, { clock = clocks.l1 }, options.l1 or {}))
        local tail = after_l1(i, names.l1(i) .. ".downstream")
        connect(tail, names.crossbar .. ".cores[" .. i .. "]")
    end

    for p = 0, partitions - 1 do
        block(names.l2(p), "l2_cache", merge(spec.l2, {
            clock = clocks.l2, partition_count = partitions, partition_interleave = interleave,
        }, options.l2 or {}))
        local front = before_l2(p, names.crossbar .. ".partitions[" .. p .. "]")
        connect(front, names.l2(p) .. ".upstream")

        block(names.dram(p), dram_block, merge(dram_params(p), { clock = clocks.dram }))
        local back, range = before_dram(p, names.l2(p) .. ".downstream")
        if range then
            connect(back, names.dram(p) .. "." .. dram_socket, range)
        else
            connect(back, names.dram(p) .. "." .. dram_socket)
        end
    end

    return {
        names = names,
        cores = cores,
        partitions = partitions,
        -- The target socket a core's load/store unit connects to.
        l1_upstream = function(i) return names.l1(i) .. ".upstream" end,
    }
end
