-- What the netlist parts share. A part is a function of one options table.
--   check(part, options, known) returns the table (an empty one for nil) and
--     stops the run at the line that called the part when an option's name
--     is not one of known's keys (a misspelt option would otherwise be
--     ignored).
--   merge(t1, t2, ...) is a new table with the keys of every table, later
--     ones winning: parameters over a spec's defaults.
--   passthrough(_, socket) is the attachment hook that inserts nothing.
--   chain(hook1, hook2, ...) is one attachment hook that runs the given ones
--     in order from the upstream end (hook1 takes the socket, hook2 what
--     hook1 returned, ...); nil ones are skipped. A hook's second return
--     value (before_dram's address range of the connection to memory) may
--     come only from the last hook, since only the last one's socket is
--     connected onwards by the caller; it is returned as the chain's.
local function check(part, options, known)
    options = options or {}
    if type(options) ~= "table" then error(part .. ": options must be a table", 3) end
    for name in pairs(options) do
        if not known[name] then
            local names = {}
            for k in pairs(known) do names[#names + 1] = k end
            table.sort(names)
            error(string.format("%s: unknown option '%s' (options: %s)", part, tostring(name), table.concat(names, ", ")), 3)
        end
    end
    return options
end

local function merge(...)
    local result = {}
    for _, layer in ipairs({ ... }) do
        for k, v in pairs(layer) do result[k] = v end
    end
    return result
end

local function passthrough(_, socket) return socket end

local function chain(...)
    local hooks = {}
    for i = 1, select("#", ...) do
        local hook = select(i, ...)
        if hook ~= nil then
            if type(hook) ~= "function" then error("chain: hook " .. i .. " is not a function", 2) end
            hooks[#hooks + 1] = hook
        end
    end
    return function(index, socket)
        local range
        for i, hook in ipairs(hooks) do
            if range then error("chain: only the last hook may return an address range (hook " .. (i - 1) .. " did)", 2) end
            socket, range = hook(index, socket)
        end
        return socket, range
    end
end

return { check = check, merge = merge, passthrough = passthrough, chain = chain }
