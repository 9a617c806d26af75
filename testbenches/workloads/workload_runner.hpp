// Runs a workload's host program, built in or a host plugin, on an elaborated
// platform: the host API's
// backend gives zero-time memory access through the first SIMT core's memory
// socket, hands launches to every simt_core block and simulates until idle.
#ifndef SIMTX_WORKLOAD_RUNNER_HPP
#define SIMTX_WORKLOAD_RUNNER_HPP

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "platform.hpp"

namespace simtx {

struct workload_request {
    std::string name;
    std::vector<std::pair<std::string, std::string>> options; // from --set workload.NAME=VALUE
    uint64_t seed = 1; // the run's --seed: the default seed of the workload's inputs
    std::string host_plugin; // --host FILE: a host plugin instead of a built-in workload (docs/sdk.md)
    std::vector<std::string> host_arguments; // its arguments, after --
    bool memcheck = true; // the memory checker (runtime/host_backend.h); --no-memcheck turns it off
};

// Checks the name (throws input_error listing the known workloads), or
// loads the host plugin (throws input_error naming the file or the missing
// entry point), and returns the host program for run_options::host_program.
std::function<std::string(platform &)> workload_host_program(const workload_request &request);

// <prefix>/share/simtx when this simtx is an installed one (its platforms/
// and the built-in kernels/ are there), else "".
std::string installed_data_directory();

} // namespace simtx

#endif
