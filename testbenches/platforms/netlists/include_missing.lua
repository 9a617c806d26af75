-- Including a missing file names this line.
include("include/nowhere.lua")
