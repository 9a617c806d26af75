-- A commit-ID window smaller than the IDs that may be live at once would
-- deadlock the commit units: an error at the line calling the part.
include("../../../platforms/parts/gpu.lua")(include("../../../platforms/parts/tm_lazy.lua")({ mode = "kilo", params = { window = 512 } }).gpu)
