// How a run was made, recorded in the statistics JSON's "run" section so a
// result can be reproduced from its file (scripts/rerun): the command line
// and working directory, the netlist and every file it included with their
// SHA-256 content hashes, the defines, --set values, workload and its
// options, the seed, and simtx's version and commit.
#ifndef SIMTX_PROVENANCE_HPP
#define SIMTX_PROVENANCE_HPP

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace simtx {

// What the command line asked for (filled by parse_run_command).
struct run_record {
    std::vector<std::string> arguments; // argv, from the program name on
    std::string workload;               // empty: none
    std::vector<std::pair<std::string, std::string>> workload_options;
    std::map<std::string, std::string> defines;
    std::vector<std::string> sets;
    std::string host_plugin; // empty: none
    std::vector<std::string> host_arguments;
};

class provenance {
  public:
    // Hashes the files now (at the start of the run: what was simulated).
    provenance(const run_record &record, const std::vector<std::string> &files);

    // The "run" member's value, at indent 2 (no trailing newline).
    void write_json(FILE *out, uint64_t seed) const;

  private:
    run_record record_;
    std::string working_directory_;
    std::vector<std::pair<std::string, std::string>> files_; // path, SHA-256 (empty: unreadable)
    std::string host_plugin_hash_;                            // empty: none, or unreadable
};

} // namespace simtx

#endif
