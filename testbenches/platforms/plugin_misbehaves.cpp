// A host plugin that misbehaves, for the exit-status and output-file tests;
// argv[1] says how: "exit" calls exit(0), "throw" throws a C++ exception,
// "chdir DIR" changes the working directory and passes, "error TEXT" fails
// with TEXT as its message (bytes as given, UTF-8 or not).
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

#include <simtx/host_api.h>

extern "C" int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    if (argc >= 2 && !std::strcmp(argv[1], "exit")) std::exit(0);
    if (argc >= 2 && !std::strcmp(argv[1], "throw")) throw std::runtime_error("plugin_misbehaves threw on purpose");
    if (argc >= 3 && !std::strcmp(argv[1], "chdir")) return chdir(argv[2]) == 0 ? 0 : 1;
    if (argc >= 3 && !std::strcmp(argv[1], "error")) {
        gpu_set_error(device, "%s", argv[2]);
        return 1;
    }
    gpu_set_error(device, "give exit, throw, chdir DIR or error TEXT");
    return 2;
}
