-- An error inside an included file names every including line.
include("include/chain_middle.lua")
