-- Middle of the include chain of include_chain.lua.
include("chain_bottom.lua")
