-- SI-TM (Chen, Peng, Irving, ISCA'17; issues 27 and 28) on the GTX480: the
-- versioned memory of parts/versioned_memory.lua (snapshot reads, read-only
-- transactions committing on their snapshot), write sets only to KILO TM's
-- commit units (per-transaction messages, no intra-warp check: SI-TM has
-- none, section 5), which check write-write conflicts only (first committer
-- wins: tm_unit commit write_set, commit_unit validation write_write), and
-- the concurrency control chosen by --define cc:
--   ts      SITM_TS: post-dated logical timestamps and the single-writer rule
--           (parts/sitm.lua: the sitm_cc block and the tm_units' sitm filter)
--   si      plain snapshot isolation, no loop detection: correct SI, not
--           serializable (write skew passes: the negative case)
--   values  the same versioned memory with value-based validation of the
--           read logs and the ts tables (serializable whatever the tables
--           decide: a check of the tables' costs alone)
--   oracle  SITM_Oracle (section 6): the sitm_cc block's exact dependency
--           graph (loops = exact: no single-writer rule, no table limits,
--           served in no time, latency 0); the tm_units as under ts
--   simtx run platforms/gtx480_sitm.lua --workload list --define cc=ts
-- Defines: cc (ts), and those of parts/tm_lazy.lua, parts/versioned_memory.lua
-- and parts/sitm.lua (delta, lts_bits).
local parts = include("parts/options.lua")
local cc = define("cc", "ts")
if cc ~= "ts" and cc ~= "si" and cc ~= "values" and cc ~= "oracle" then
    error("gtx480_sitm.lua: --define cc=" .. tostring(cc) .. " is not one of ts, si, values, oracle", 0)
end
local heap = 0x10100000 -- runtime/host_api.h GPU_HEAP_BASE
local probe = include("parts/versioned_memory.lua")({})
local base = heap // probe.align * probe.align
-- A commit unit keeps at most a slice's hold buffer of write-backs in flight,
-- so that writes waiting for a version slot never stop the slice's input,
-- where the releases and snapshot reads that free the slot pass
-- (protocols/version.h, DEADLOCK RULES). 32, not the vit's default 16: a
-- window of 16 slowed RBT2 by 4-14% at 8 versions (docs/fidelity.md).
local hold_depth = 32
local vm = include("parts/versioned_memory.lua")({ regions = { { base, probe.version_stride, 0x4800000 } }, params = { hold_depth = hold_depth } })
local exact = cc == "oracle" and { params = { loops = "exact", latency = 0 } } or {}
local si = cc ~= "si" and include("parts/sitm.lua")(exact) or { filters = { "snapshot" }, precommit = { "snapshot_ro" } }
local tm = include("parts/tm_lazy.lua")({
    mode = "kilo", tcd = false, filters = si.filters, precommit = si.precommit,
    commit = cc ~= "values" and "write_set" or nil,
    params = { version_close = true, writeback_window = hold_depth, validation = cc ~= "values" and "write_write" or nil },
    before_l2 = parts.chain(si.before_l2, vm.before_l2),
})
tm.gpu.l2 = parts.merge(tm.gpu.l2, vm.l2)
include("parts/gpu.lua")(tm.gpu)
