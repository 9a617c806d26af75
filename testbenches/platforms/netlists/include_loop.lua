-- include/loop_b.lua includes this file again.
include("include/loop_b.lua")
