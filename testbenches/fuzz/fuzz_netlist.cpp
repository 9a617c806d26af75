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
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

#include "netlist.hpp"

// The fuzz folder's root, and the links made in it (removed at exit).
static std::string root;
static std::vector<std::string> made;
// SIMTX_FUZZ_VERBOSE=1: print why each input was refused (to check that
// the shipped netlists fit the bounds).
static const bool verbose = std::getenv("SIMTX_FUZZ_VERBOSE") != nullptr;

static void remove_folder()
{
    for (auto name = made.rbegin(); name != made.rend(); ++name)
        if (unlink(name->c_str()) != 0) rmdir(name->c_str());
}

static void make(const std::string &path, const std::string &link_to = "")
{
    int status = link_to.empty() ? mkdir(path.c_str(), 0700) : symlink(link_to.c_str(), path.c_str());
    if (status != 0 && errno != EEXIST) std::abort();
    made.push_back(path);
}

// The SystemC library refers to the program's sc_main; nothing here simulates.
extern "C" int sc_main(int, char **)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The input is ROOT/a/b/c/netlist.lua, beside links to what the seeds
    // include: the shipped parts/ and specs/ (as from platforms/), the
    // testbench netlists' include/ and options.lua (as from parts/), and
    // ROOT/platforms three folders up (as from testbenches/platforms/netlists/).
    static const std::string path = [] {
        // tmpfs when there is one: rewriting a file on a disk cost a fifth
        // of the run (truncation, discards).
        root = std::string(access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm") + "/simtx_fuzz_netlist_" + std::to_string(getpid());
        std::atexit(remove_folder);
        char here[PATH_MAX];
        if (!getcwd(here, sizeof here)) std::abort();
        const std::string project = here, folder = root + "/a/b/c";
        make(root);
        make(root + "/a");
        make(root + "/a/b");
        make(folder);
        make(root + "/platforms", project + "/platforms");
        make(folder + "/parts", project + "/platforms/parts");
        make(folder + "/specs", project + "/platforms/specs");
        make(folder + "/options.lua", project + "/platforms/parts/options.lua");
        make(folder + "/include", project + "/testbenches/platforms/netlists/include");
        made.push_back(folder + "/netlist.lua");
        return folder + "/netlist.lua";
    }();
    FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    simtx::netlist_options options;
    // Smaller bounds than a run's, still above what the shipped netlists
    // need (each fits in half of them): an endless loop or a runaway table
    // is cut short in a few hundredths of a second under the sanitizers, not
    // seconds, at the price of cutting short a mutant that builds a larger
    // platform.
    options.lua_instructions = 2000000;
    options.lua_memory_bytes = size_t(4) << 20;
    // Likewise for the blocks: a loop declaring the run's limit of 65536
    // takes seconds under the sanitizers.
    options.max_blocks = 4096;
    try {
        simtx::load_netlist(path, options);
    } catch (const simtx::input_error &error) {
        if (verbose) std::fprintf(stderr, "%s\n", error.what());
    }
    return 0;
}
