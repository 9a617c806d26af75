// An output file (statistics, waveforms) that never destroys anything: it is
// written to a temporary file in the requested folder and renamed over the
// requested path only when complete, and only a regular file is replaced.
// A run that fails keeps what it wrote beside the requested path, marked
// partial (stats.json -> stats.json.partial), never over a complete file.
#ifndef SIMTX_OUTPUT_FILE_HPP
#define SIMTX_OUTPUT_FILE_HPP

#include <cstdio>
#include <string>
#include <vector>

namespace simtx {

// Throws input_error, naming the option, when the path (or its partial twin)
// cannot be written without destroying something: a folder, a device, a
// FIFO or a symbolic link in its place, or a folder that is missing or not
// writable. Creates nothing.
void check_output_path(const std::string &option, const std::string &path);

// A file the run reads or writes, and what it is, for messages ("the
// netlist", "--stats").
struct named_file {
    std::string what, path;
};

// Throws input_error, naming the output, when an output is one of the
// files the run uses otherwise (inputs) or another output (compared by device and inode, so links and
// other spellings of a path are found). Creates nothing.
void check_outputs_distinct(const std::vector<named_file> &outputs, const std::vector<named_file> &inputs);

// The partial twin of an output path.
std::string partial_path(const std::string &path);

class output_file {
  public:
    // Creates the temporary file beside path (checked as above); suffix is
    // kept at the end of the temporary name (e.g. ".vcd"). Throws input_error.
    output_file(const std::string &option, const std::string &path, const std::string &suffix = "");
    ~output_file(); // removes the temporary file unless it was kept
    output_file(const output_file &) = delete;
    output_file &operator=(const output_file &) = delete;

    const std::string &temporary_path() const { return temporary_; }
    FILE *stream(); // opened on first use ("w")
    // Closes and renames the temporary file to path (complete) or to its
    // partial twin; throws input_error when that fails.
    void keep(bool complete);

  private:
    std::string option_, path_, temporary_;
    std::string target_; // path_, absolute
    FILE *stream_ = nullptr;
    bool kept_ = false;
};

} // namespace simtx

#endif
