#include "provenance.hpp"

#include <climits>
#include <unistd.h>

#include "build_info.hpp"
#include "json_string.hpp"
#include "sha256.hpp"

namespace simtx {

provenance::provenance(const run_record &record, const std::vector<std::string> &files) : record_(record)
{
    char directory[PATH_MAX];
    working_directory_ = getcwd(directory, sizeof directory) ? directory : "";
    for (const std::string &file : files) files_.emplace_back(file, sha256_file_hex(file));
    if (!record.host_plugin.empty()) host_plugin_hash_ = sha256_file_hex(record.host_plugin);
}

void provenance::write_json(FILE *out, uint64_t seed) const
{
    std::fprintf(out, "{\n    \"simtx_version\": %s,\n    \"simtx_commit\": %s,\n", json_string(build_version).c_str(), json_string(build_commit).c_str());
    std::fprintf(out, "    \"command_line\": [");
    for (size_t i = 0; i < record_.arguments.size(); i++) std::fprintf(out, "%s%s", i ? ", " : "", json_string(record_.arguments[i]).c_str());
    std::fprintf(out, "],\n    \"working_directory\": %s,\n    \"files\": [", json_string(working_directory_).c_str());
    for (size_t i = 0; i < files_.size(); i++)
        std::fprintf(out, "%s\n      {\"path\": %s, \"sha256\": %s}", i ? "," : "", json_string(files_[i].first).c_str(),
                     files_[i].second.empty() ? "null" : json_string(files_[i].second).c_str());
    std::fprintf(out, "%s],\n    \"defines\": {", files_.empty() ? "" : "\n    ");
    bool first = true;
    for (const auto &[name, value] : record_.defines) {
        std::fprintf(out, "%s%s: %s", first ? "" : ", ", json_string(name).c_str(), json_string(value).c_str());
        first = false;
    }
    std::fprintf(out, "},\n    \"sets\": [");
    for (size_t i = 0; i < record_.sets.size(); i++) std::fprintf(out, "%s%s", i ? ", " : "", json_string(record_.sets[i]).c_str());
    std::fprintf(out, "],\n    \"workload\": ");
    if (record_.workload.empty()) {
        std::fprintf(out, "null");
    } else {
        std::fprintf(out, "{\"name\": %s, \"options\": {", json_string(record_.workload).c_str());
        for (size_t i = 0; i < record_.workload_options.size(); i++)
            std::fprintf(out, "%s%s: %s", i ? ", " : "", json_string(record_.workload_options[i].first).c_str(),
                         json_string(record_.workload_options[i].second).c_str());
        std::fprintf(out, "}}");
    }
    std::fprintf(out, ",\n    \"host_plugin\": ");
    if (record_.host_plugin.empty()) {
        std::fprintf(out, "null");
    } else {
        std::fprintf(out, "{\"path\": %s, \"sha256\": %s, \"arguments\": [", json_string(record_.host_plugin).c_str(),
                     host_plugin_hash_.empty() ? "null" : json_string(host_plugin_hash_).c_str());
        for (size_t i = 0; i < record_.host_arguments.size(); i++)
            std::fprintf(out, "%s%s", i ? ", " : "", json_string(record_.host_arguments[i]).c_str());
        std::fprintf(out, "]}");
    }
    std::fprintf(out, ",\n    \"seed\": %llu\n  }", static_cast<unsigned long long>(seed));
}

} // namespace simtx
