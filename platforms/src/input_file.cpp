#include "input_file.hpp"

#include <sys/stat.h>

#include "netlist.hpp"

namespace simtx {

void check_input_file(const std::string &what, const std::string &path)
{
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return;
    const char *kind = S_ISDIR(info.st_mode)                               ? "a folder"
                       : S_ISFIFO(info.st_mode)                            ? "a FIFO"
                       : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                                                         : "not a regular file";
    throw input_error(what + " " + path + ": '" + path + "' is " + kind + ", not a file simtx can read");
}

} // namespace simtx
