-- Lazy transactional memory (KILO TM, Warp TM, and the ideal TM upper bound)
-- as a netlist part: one `commit_unit` per memory partition between the
-- crossbar and the L2 slice (through the before_l2 hook), on its own clock
-- domain, a `tm_unit` in line between each core and its ldst_unit (through
-- the core_side hook: sm<i>_tm; its tx_events socket bound to the core's for
-- TX_ABORT), and the TM settings of the cores, L1s, L2s
-- and crossbar. The unit of partition 0 also hands out commit IDs (the
-- allocator, at address 0). See models/tm/commit_unit/README.md,
-- models/tm/tm_unit/README.md, models/protocols/tm_lazy.h and tx.h.
--
--   local tm = include("parts/tm_lazy.lua")({ mode = "warp" })
--   include("parts/gpu.lua")(tm.gpu)
--
-- Options (an unknown one is an error):
--   mode        kilo (per-transaction log messages, no intra-warp conflict
--               detection), warp (Warp TM), ideal (commit units validate
--               without log-transfer or L2 cost, exact conflict detection)
--   spec        the parameter set (default specs/gtx480.lua; its
--               address_map, clocks.commit and tm table)
--   tokens, tcd, ea, pg, broken   the define() of the same name when not given:
--               transactional warps per core (spec.tm.warp_tokens), temporal
--               conflict detection for read-only transactions (true),
--               EA/PG's Early-Abort (false: with it each commit unit keeps a
--               reference count table and broadcasts its changes over a
--               notify network, `notify`, to the cores' conflict address
--               tables, and each tm_unit runs the early_abort check last),
--               EA/PG's Pause-and-Go (false: the same tables and network,
--               and each tm_unit pauses lanes at accesses that hit its
--               table: filter pause_and_go), and
--               TEST ONLY: the commit units skip one validation check, so the
--               serializability oracle must fail (false)
--   params      more commit_unit parameters for every unit ({ lwh_entries = 1024 });
--               `window` defaults to the commit IDs that may be live at once
--               (cores x transactional warps x lanes, rounded up to a power
--               of two) and may not be smaller
--   clock       the commit units' clock domain ("commit")
--   prefix      of the units' instance names (prefix .. "cu" .. p)
--   filters     more tm_unit access filters after pg's, e.g. { "snapshot" }
--               (SI-TM's snapshot reads, models/tm/tm_unit)
--   precommit   more tm_unit pre-commit checks, run before the mode's own,
--               e.g. { "snapshot_ro" } (SI-TM's read-only commit)
--   commit      the tm_units' commit policy instead of the mode's (per_tx
--               for kilo, coalesced for warp), e.g. "write_set" (SI-TM)
--   before_l2   more blocks between each commit unit and its L2 slice (a
--               hook as parts/gpu_memory.lua's, or options.lua's chain of
--               several): e.g. SI-TM's tables, which see the commit units'
--               write-backs
--
-- Returns { gpu = the options of parts/gpu.lua (core, l1, l2, crossbar,
-- before_l2, core_side, clocks: add more before passing it), before_l2
-- (the commit units, then options.before_l2), core_side, names = { cu },
-- partitions }.

local parts = include("options.lua")
local check = parts.check

return function(options)
    options = check("tm_lazy", options, {
        mode = true, spec = true, tokens = true, tcd = true, ea = true, pg = true, broken = true, params = true, clock = true, prefix = true,
        before_l2 = true, filters = true, precommit = true, commit = true,
    })
    local mode = options.mode
    if mode ~= "kilo" and mode ~= "warp" and mode ~= "ideal" then
        error("tm_lazy: mode must be kilo, warp or ideal, got " .. tostring(mode), 2)
    end
    local spec = options.spec or include("../specs/gtx480.lua")
    local partitions = spec.address_map.partitions
    local interleave = spec.address_map.interleave
    local clock_name = options.clock or "commit"
    local prefix = options.prefix or ""
    local broken = options.broken
    if broken == nil then broken = define("broken", false) end
    local tcd = options.tcd
    if tcd == nil then tcd = define("tcd", true) end
    local early_abort = options.ea
    if early_abort == nil then early_abort = define("ea", false) end
    local pause_and_go = options.pg
    if pause_and_go == nil then pause_and_go = define("pg", false) end
    -- the tm_units' access filters: Pause-and-Go's, then options.filters
    local filters = { pause_and_go and "pause_and_go" or nil }
    for _, f in ipairs(options.filters or {}) do filters[#filters + 1] = f end
    local conflict_tables = early_abort or pause_and_go -- the RCTs, the notify network and the CATs
    local function name(p) return prefix .. "cu" .. p end
    local cores = define("cores", spec.cores)
    local tokens = options.tokens or define("tokens", spec.tm.warp_tokens)

    -- Every ID handed out and not yet retired must fit the units' window:
    -- a warp's lanes commit together, so a lane whose ID lies past the
    -- window would hold back the decision of an older lane of its warp for
    -- ever. Likewise each L1 must hold every held request of its core's
    -- transactions (tm_lazy.h): up to one per lane and partition.
    local lanes = define("lanes", spec.core.lanes)
    local tx_warps = tokens > 0 and tokens or spec.core.warps
    local live_ids = cores * tx_warps * lanes
    local window = 1024 -- the ring's smallest size: a few KB per unit
    while window < live_ids do window = window * 2 end
    local l1_pending = math.max(spec.tm.l1_pending_entries, tx_warps * lanes * partitions)
    local given = (options.params or {}).window
    if given and given < live_ids then
        error("tm_lazy: params.window = " .. tostring(given) .. " is below the " .. live_ids ..
              " commit IDs that may be live at once (cores x " .. (tokens > 0 and "tokens" or "warps per core") ..
              " x lanes); the commit units would deadlock", 2)
    end

    -- EA/PG's notify network: the commit units broadcast their reference
    -- count changes to every core's tm_unit (protocols/notify.h).
    local notify = prefix .. "notify"
    if conflict_tables then
        block(notify, "crossbar", {
            clock = "icnt", cores = partitions, partitions = cores, mapping = "core",
            flit_bytes = spec.crossbar.flit_bytes, latency = spec.crossbar.latency,
        })
    end

    local function commit_unit(partition, socket)
        local params = {
            clock = clock_name, partition = partition, partitions = partitions, interleave = interleave,
            cid_allocator = partition == 0, window = window, validation = mode == "ideal" and "ideal" or "values", skip_validation_check = broken,
            words_per_cycle = spec.tm.commit_words_per_cycle,
            lwt_entries = spec.tm.lwt_entries, lwt_subarrays = spec.tm.lwt_subarrays,
        }
        if conflict_tables then params.notify = "rct" end
        for k, v in pairs(options.params or {}) do params[k] = v end
        block(name(partition), "commit_unit", params)
        if conflict_tables then connect(name(partition) .. ".notify", notify .. ".cores[" .. partition .. "]") end
        connect(socket, name(partition) .. ".upstream")
        return name(partition) .. ".downstream"
    end
    local before_l2 = parts.chain(commit_unit, options.before_l2)

    -- The core side: a tm_unit in line between each core and its ldst_unit
    -- (protocols/tx.h). KILO TM commits per transaction, Warp TM coalesced
    -- after its intra-warp check; temporal conflict detection runs first.
    local precommit = {}
    for _, c in ipairs(options.precommit or {}) do precommit[#precommit + 1] = c end
    if tcd then precommit[#precommit + 1] = "tcd" end
    if mode == "warp" then precommit[#precommit + 1] = "intra_warp" end
    if early_abort then precommit[#precommit + 1] = "early_abort" end
    -- A clock's period as the netlist rounds it, to whole picoseconds: the
    -- ratio of the rounded periods (1429 / 714 ps at 700 and 1400 MHz, not 2)
    -- converts cycle numbers without an error growing with them.
    local function period_ps(mhz) return math.floor(1e6 / mhz + 0.5) end
    local function core_side(core, socket)
        local unit = socket:gsub("%.ldst$", "") .. "_tm"
        block(unit, "tm_unit", {
            clock = "core", commit = options.commit or (mode == "warp" and "coalesced" or "per_tx"),
            precommit = #precommit > 0 and table.concat(precommit, ",") or "none",
            partitions = partitions, interleave = interleave, conflict_table = spec.tm.conflict_table,
            filters = table.concat(filters, ",") ~= "" and table.concat(filters, ",") or "none",
            notify_clock_ratio = period_ps(spec.clocks.commit) / period_ps(spec.clocks.core), -- the notifications carry commit-clock cycles
        })
        connect(socket, unit .. ".core")
        connect(unit .. ".tx_events", socket:gsub("%.ldst$", "") .. ".tx_events") -- TX_ABORT (tx.h 6), for filters that abort
        if conflict_tables then connect(notify .. ".partitions[" .. core .. "]", unit .. ".notify") end
        return unit .. ".ldst"
    end

    return {
        names = { cu = name }, partitions = partitions, before_l2 = before_l2, core_side = core_side,
        gpu = {
            spec = spec,
            clocks = { [clock_name] = spec.clocks.commit },
            core = { tm_warp_tokens = tokens },
            core_side = core_side,
            -- Global data is not cached in L1 (the L1s are not coherent);
            -- pending_entries holds the TM requests a core keeps outstanding
            -- (see "held requests" in tm_lazy.h), sized above.
            l1 = { cache_global = false, pending_entries = l1_pending },
            l2 = { size = spec.tm.l2_size },
            -- Log entries cost interconnect flits, except with ideal TM (free log transfer).
            crossbar = { tm_log_data = mode ~= "ideal" },
            before_l2 = before_l2,
        },
    }
end
