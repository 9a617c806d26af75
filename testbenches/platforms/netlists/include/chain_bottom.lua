-- Bottom of the include chain: a misspelt parameter.
clock("core", { frequency_mhz = 1000 })
block("mem", "memory", { lantecy = 20 })
