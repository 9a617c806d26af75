-- A part for the include tests: a memory whose latency is a define, behind
-- a part function that takes { name = ... }.
return function(options)
    block(options.name, "memory", { latency = define("latency", 20) })
end
