-- Lua that allocates without end: stopped by the memory cap, naming the netlist.
clock("c", { frequency_mhz = 100 })
local t = {}
for i = 1, 1e12 do
    t[i] = i
end
