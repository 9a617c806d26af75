-- A misspelt option of a part is an error at the line calling the part.
include("../../../platforms/parts/gpu.lua")({ corse = 4 })
