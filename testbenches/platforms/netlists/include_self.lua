-- A file that includes itself: an include loop, named with its line.
include("include_self.lua")
