#include "platform_list.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sys/stat.h>

#include "did_you_mean.hpp"
#include "netlist.hpp"
#include "workload_runner.hpp"

#ifndef SIMTX_SOURCE_PLATFORM_DIR
#error "SIMTX_SOURCE_PLATFORM_DIR must name the source tree's platforms folder"
#endif

namespace simtx {

namespace {

bool is_directory(const std::string &path)
{
    struct stat status;
    return stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

// The first sentence of the netlist's leading comment, at most 100 characters.
std::string first_sentence(const std::string &path)
{
    std::ifstream in(path);
    std::string line, text;
    while (std::getline(in, line) && line.rfind("--", 0) == 0) {
        size_t start = line.find_first_not_of("- ");
        if (start == std::string::npos) break;
        text += (text.empty() ? "" : " ") + line.substr(start);
        size_t stop = text.find(". ");
        if (stop != std::string::npos || text.back() == '.') {
            text = text.substr(0, stop == std::string::npos ? text.size() - 1 : stop);
            break;
        }
        if (text.size() > 100) break;
    }
    return text.size() > 100 ? text.substr(0, 97) + "..." : text;
}

} // namespace

std::string platform_directory()
{
    std::string installed = installed_data_directory();
    if (!installed.empty() && is_directory(installed + "/platforms")) return installed + "/platforms";
    return is_directory(SIMTX_SOURCE_PLATFORM_DIR) ? SIMTX_SOURCE_PLATFORM_DIR : "";
}

std::vector<platform_entry> platform_list()
{
    std::vector<platform_entry> list;
    std::string folder = platform_directory();
    DIR *dir = folder.empty() ? nullptr : opendir(folder.c_str());
    if (!dir) return list;
    while (const dirent *entry = readdir(dir)) {
        std::string name = entry->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".lua") == 0)
            list.push_back({name, first_sentence(folder + "/" + name)});
    }
    closedir(dir);
    std::sort(list.begin(), list.end(), [](const platform_entry &a, const platform_entry &b) { return a.file < b.file; });
    return list;
}

std::string resolve_netlist(const std::string &name)
{
    struct stat status;
    if (name.find('/') != std::string::npos || stat(name.c_str(), &status) == 0) return name;
    std::string folder = platform_directory();
    std::set<std::string> known;
    for (const platform_entry &p : platform_list()) {
        if (p.file == name) return folder + "/" + p.file;
        known.insert(p.file);
    }
    if (!known.empty() && name.find('.') == std::string::npos && known.count(name + ".lua")) return folder + "/" + name + ".lua";
    throw input_error("netlist '" + name + "': no such file here, and no platform of that name" +
                      (folder.empty() ? "" : " in " + folder) + did_you_mean(name, known) + " (simtx platforms lists them)");
}

std::string recorded_netlist_name(const std::string &file)
{
    std::string folder = platform_directory();
    char real_file[PATH_MAX], real_folder[PATH_MAX];
    if (folder.empty() || !realpath(file.c_str(), real_file) || !realpath(folder.c_str(), real_folder)) return file;
    std::string path = real_file, prefix = std::string(real_folder) + "/";
    if (path.compare(0, prefix.size(), prefix) || path.find('/', prefix.size()) != std::string::npos) return file;
    return "platforms/" + path.substr(prefix.size());
}

void print_platforms(FILE *out)
{
    std::string folder = platform_directory();
    if (folder.empty()) {
        std::fprintf(out, "no platform folder found (neither installed nor a source tree)\n");
        return;
    }
    std::fprintf(out, "platforms in %s (simtx run NAME.lua ...):\n", folder.c_str());
    for (const platform_entry &p : platform_list()) std::fprintf(out, "  %-28s %s\n", p.file.c_str(), p.summary.c_str());
}

} // namespace simtx
