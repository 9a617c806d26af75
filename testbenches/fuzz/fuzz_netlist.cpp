// Fuzz target: netlist evaluation and validation in process (Lua with its
// budget, every API function, includes, defines, finalization), without
// instantiating the platform (SystemC cannot restart in one process). The
// input is the netlist file; it may include the shipped parts.
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "netlist.hpp"

static std::string folder;

static void remove_folder()
{
    for (const char *name : {"netlist.lua", "parts", "specs"}) unlink((folder + "/" + name).c_str());
    rmdir(folder.c_str());
}

// The SystemC library refers to the program's sc_main; nothing here simulates.
extern "C" int sc_main(int, char **)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // A folder of its own whose parts/ and specs/ are the shipped ones, so
    // include("parts/gpu.lua") works as in platforms/.
    static const std::string path = [] {
        folder = "/tmp/simtx_fuzz_netlist_" + std::to_string(getpid());
        std::atexit(remove_folder);
        char here[PATH_MAX];
        if (!getcwd(here, sizeof here)) std::abort();
        mkdir(folder.c_str(), 0700);
        for (const char *shared : {"parts", "specs"})
            if (symlink((std::string(here) + "/platforms/" + shared).c_str(), (folder + "/" + shared).c_str()) != 0 && errno != EEXIST)
                std::abort();
        return folder + "/netlist.lua";
    }();
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    simtx::netlist_options options;
    // Smaller bounds than a run's: an endless loop or a runaway table costs
    // a fraction of a second under the sanitizers, not seconds.
    options.lua_instructions = 20000000;
    options.lua_memory_bytes = size_t(32) << 20;
    try {
        simtx::load_netlist(path, options);
    } catch (const simtx::input_error &) {
    }
    return 0;
}
