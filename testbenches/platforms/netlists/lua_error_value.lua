-- A Lua error raised with a table, then with nothing: named with its line.
clock("c", { frequency_mhz = 100 })
if define("nothing", false) then error() end
error({})
