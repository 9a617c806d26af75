// An input file (netlist, host plugin) is a regular file: a FIFO, device or
// folder is refused before it is opened, since opening a FIFO waits for a
// writer and would hang the run before it starts.
#ifndef SIMTX_INPUT_FILE_HPP
#define SIMTX_INPUT_FILE_HPP

#include <string>

namespace simtx {

// Throws input_error "<what> <path>: ..." when path names something other
// than a regular file; a missing path passes (its opener says so).
void check_input_file(const std::string &what, const std::string &path);

} // namespace simtx

#endif
