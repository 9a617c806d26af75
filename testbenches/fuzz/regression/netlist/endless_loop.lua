-- Lua that never ends: stopped by the instruction budget, at the running line.
clock("c", { frequency_mhz = 100 })
local n = 0
while true do
    n = n + 1
end
