-- SI-TM's concurrency control (ISCA'17 §4-5, issue 28; models/protocols/sitm.h)
-- as a netlist part: one `sitm_cc` block (Writer Table, Scalable Reader List,
-- logical timestamp table) in line in partition 0's before_l2 chain, where
-- the tm_units' sitm.h messages to SITM_CC_ADDRESS (0) arrive after the
-- commit unit passed them on; the other partitions get nothing. Chain it in
-- front of parts/versioned_memory.lua's hook (parts/options.lua chain):
--
--   local cc = include("parts/sitm.lua")({})
--   local tm = include("parts/tm_lazy.lua")({ ..., filters = cc.filters, precommit = cc.precommit,
--                                             before_l2 = parts.chain(cc.before_l2, vm.before_l2) })
--
-- Options (an unknown one is an error):
--   spec     the parameter set (default specs/gtx480.lua: its si table)
--   params   more sitm_cc parameters ({ wt_entries = 64 })
--   delta, timestamp_bits   the define() of the same name when not given
--            (10, 24: Figure 7, section 4.3)
--   clock    the block's clock domain ("l2")
--   prefix   of the instance name (prefix .. "sitm_cc")
-- Returns { before_l2, filters = the tm_unit filters it needs (snapshot,
-- sitm), precommit = the checks, in order (sitm_wait before snapshot_ro: a
-- read-only transaction can close a loop too), names = { cc } }.
local parts = include("options.lua")

return function(options)
    options = parts.check("sitm", options, { spec = true, params = true, delta = true, timestamp_bits = true, clock = true, prefix = true })
    local spec = options.spec or include("../specs/gtx480.lua")
    local si = spec.si or error("sitm: the spec has no `si` table (SI-TM's parameters)", 2)
    local name = (options.prefix or "") .. "sitm_cc"
    local delta = options.delta or define("delta", 10)
    local timestamp_bits = options.timestamp_bits or define("lts_bits", 24)

    local function before_l2(partition, socket)
        if partition ~= 0 then return socket end
        block(name, "sitm_cc", parts.merge({
            clock = options.clock or "l2", wt_entries = si.writer_table_entries, srl_bytes = si.reader_list_bytes,
            ids = si.timestamp_table_entries, delta = delta, timestamp_bits = timestamp_bits,
        }, options.params or {}))
        connect(socket, name .. ".upstream")
        return name .. ".downstream"
    end

    return {
        before_l2 = before_l2,
        filters = { "snapshot", "sitm" },
        precommit = { "sitm_wait", "snapshot_ro" },
        names = { cc = name },
    }
end
