-- Includes the file that included it: an include loop.
include("../include_loop.lua")
