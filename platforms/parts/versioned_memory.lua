-- SI-TM's versioned memory (ISCA'17 §3, §5) as a netlist part: in each
-- memory partition a Version Index Table slice (`vit`, prefix .. "vit" .. p)
-- and its bulk copy unit (`bulk_copy`, prefix .. "copy" .. p) between the
-- crossbar side and the L2 slice, through parts/gpu_memory.lua's before_l2
-- hook: crossbar (-> inner before_l2 blocks, e.g. a commit unit) -> vit ->
-- bulk_copy -> l2. Before the L2, because versions are distinct addresses
-- the L2 caches apart, and the copies go through the L2 so that it writes
-- the source rows' dirty lines back and drops the destination rows' lines first
-- (models/protocols/version.h, models/tm/vit, models/tm/bulk_copy).
--
--   local vm = include("parts/versioned_memory.lua")({ regions = { { 0x1000000, 0x18000, 0x4000000 } } })
--   include("parts/gpu_memory.lua")({ cores = 4, before_l2 = vm.before_l2, l2 = vm.l2 })
--
-- The layout comes from the spec's DRAM address map: a version is one row
-- on in the same subarray (version_stride = the row bit's weight in a
-- partition's local address x partitions: gtx480 +0x10000 local = +0x60000),
-- regions are whole rows in every partition (align = the span of the map's
-- column and byte bits x partitions), and the L2 slices act on whole rows
-- (`l2` below: row_copy_column_bits, spec.si.l2_size).
--
-- Options (an unknown one is an error):
--   spec           the parameter set (default specs/gtx480.lua: address_map,
--                  dram, si)
--   regions        versioned allocations { { base, size, relocated }, ... }
--                  registered at every slice before the run
--   versions, timestamp_bits   the define() of the same name when not given
--                  (spec.si's values by default)
--   params         more vit parameters; copy_params more bulk_copy ones
--   clock          the blocks' clock domain ("l2")
--   prefix         of the instance names
--   before_l2      a hook to chain in front of the slice (as gpu_memory.lua's)
-- Returns { before_l2, l2 = L2 parameters to pass to gpu_memory.lua,
-- names = { vit = function(p), copy = function(p) }, version_stride, align }.

local parts = include("options.lua")
local check, merge, passthrough = parts.check, parts.merge, parts.passthrough

-- The weights of an address map's letters (most significant first, as the
-- dram_controller reads it): the mask of its C and S bits and the weight of
-- its lowest R bit.
local function map_layout(map)
    local bits = {}
    for letter in map:gmatch("[RGBCSX0]") do bits[#bits + 1] = letter end
    local columns, row_weight = 0, nil
    for i = #bits, 1, -1 do
        local weight = 1 << (#bits - i)
        if bits[i] == "C" or bits[i] == "S" then columns = columns | weight end
        if bits[i] == "R" and not row_weight then row_weight = weight end
    end
    return columns, row_weight
end

return function(options)
    options = check("versioned_memory", options, {
        spec = true, regions = true, versions = true, timestamp_bits = true, params = true, copy_params = true, clock = true,
        prefix = true, before_l2 = true,
    })
    local spec = options.spec or include("../specs/gtx480.lua")
    local si = spec.si or error("versioned_memory: the spec has no `si` table (SI-TM's parameters)", 2)
    local partitions = spec.address_map.partitions
    local interleave = spec.address_map.interleave
    local columns, row_weight = map_layout(spec.dram.address_map)
    local span = 1
    while span <= columns do span = span * 2 end
    local version_stride = row_weight * partitions
    local align = span * partitions
    local list = {}
    for i, r in ipairs(options.regions or {}) do
        if type(r) ~= "table" or #r ~= 3 then
            error("versioned_memory: regions[" .. i .. "] must be { base, size, relocated }", 2)
        end
        list[#list + 1] = string.format("0x%x:0x%x:0x%x", r[1], r[2], r[3])
    end
    local clock_name = options.clock or "l2"
    local prefix = options.prefix or ""
    local inner = options.before_l2 or passthrough
    local names = {
        vit = function(p) return prefix .. "vit" .. p end,
        copy = function(p) return prefix .. "copy" .. p end,
    }
    local versions = options.versions or define("versions", si.versions)
    local timestamp_bits = options.timestamp_bits or define("timestamp_bits", si.timestamp_bits)

    local function before_l2(partition, socket)
        block(names.vit(partition), "vit", merge({
            clock = clock_name, versions = versions, regions = si.vit_regions, timestamp_bits = timestamp_bits,
            version_stride = version_stride, align = align, region_list = table.concat(list, ","),
        }, options.params or {}))
        block(names.copy(partition), "bulk_copy", merge({
            clock = clock_name, partition = partition, partition_count = partitions, partition_interleave = interleave,
            row_column_bits = columns, row_bytes = spec.dram.row_bytes, copy_queue_depth = si.copy_queue_depth,
        }, options.copy_params or {}))
        connect(inner(partition, socket), names.vit(partition) .. ".upstream")
        connect(names.vit(partition) .. ".downstream", names.copy(partition) .. ".upstream")
        return names.copy(partition) .. ".downstream"
    end

    return {
        before_l2 = before_l2,
        l2 = { size = si.l2_size, row_copy_column_bits = columns },
        names = names,
        version_stride = version_stride,
        align = align,
    }
end
