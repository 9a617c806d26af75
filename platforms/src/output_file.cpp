#include "output_file.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "netlist.hpp"
#include "temporary_files.hpp"

namespace simtx {

namespace {

std::string folder_of(const std::string &path)
{
    size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// An existing path may only be a regular file, which a rename replaces.
void check_replaceable(const std::string &option, const std::string &path)
{
    struct stat info;
    if (lstat(path.c_str(), &info) != 0) return; // nothing there
    const char *what = S_ISREG(info.st_mode)    ? nullptr
                       : S_ISDIR(info.st_mode)  ? "a folder"
                       : S_ISLNK(info.st_mode)  ? "a symbolic link"
                       : S_ISFIFO(info.st_mode) ? "a FIFO"
                       : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                                                                         : "not a regular file";
    if (what) throw input_error(option + " " + path + ": '" + path + "' is " + what + "; simtx replaces only a regular file");
}

} // namespace

std::string partial_path(const std::string &path)
{
    return path + ".partial";
}

void check_output_path(const std::string &option, const std::string &path)
{
    if (path.empty() || path.back() == '/') throw input_error(option + " '" + path + "': expected a file name");
    check_replaceable(option, path);
    check_replaceable(option, partial_path(path));
    std::string folder = folder_of(path);
    struct stat info;
    if (stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw input_error(option + " " + path + ": no folder '" + folder + "'");
    if (access(folder.c_str(), W_OK | X_OK) != 0)
        throw input_error(option + " " + path + ": cannot write in '" + folder + "': " + std::strerror(errno));
}

output_file::output_file(const std::string &option, const std::string &path, const std::string &suffix)
    : option_(option), path_(path), target_(path)
{
    check_output_path(option, path);
    // Absolute from the start: a host plugin that changes directory does
    // not move the output.
    char directory[PATH_MAX];
    if (path[0] != '/' && getcwd(directory, sizeof directory)) target_ = std::string(directory) + "/" + path;
    std::string name = path.substr(path.rfind('/') + 1);
    std::string folder = folder_of(target_);
    std::string pattern = (folder == "/" ? "" : folder) + "/." + name + ".XXXXXX" + suffix;
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    int fd = mkstemps(buffer.data(), static_cast<int>(suffix.size()));
    if (fd < 0) throw input_error(option + " " + path + ": cannot create a file beside it: " + std::strerror(errno));
    // mkstemp gives 0600; the result gets the permissions a new file would.
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    temporary_ = buffer.data();
    remember_temporary(temporary_.c_str());
}

output_file::~output_file()
{
    if (stream_) std::fclose(stream_);
    forget_temporary(temporary_.c_str());
    if (!kept_) unlink(temporary_.c_str());
}

FILE *output_file::stream()
{
    if (!stream_) stream_ = std::fopen(temporary_.c_str(), "w");
    if (!stream_) throw input_error(option_ + " " + path_ + ": cannot write '" + temporary_ + "': " + std::strerror(errno));
    return stream_;
}

void output_file::keep(bool complete)
{
    bool written = true;
    if (stream_) {
        written = !std::ferror(stream_);
        written &= std::fclose(stream_) == 0;
        stream_ = nullptr;
    }
    std::string target = complete ? target_ : partial_path(target_);
    // Checked again: something may have appeared there during the run.
    check_replaceable(option_, target);
    if (!written || std::rename(temporary_.c_str(), target.c_str()) != 0)
        throw input_error(option_ + " " + path_ + ": cannot write '" + target + "': " + std::strerror(errno));
    forget_temporary(temporary_.c_str());
    kept_ = true;
}

namespace {

// A file's identity: its device and inode when it exists, else its folder's
// and its name (two paths naming one file that does not exist yet).
struct file_identity {
    dev_t device = 0;
    ino_t inode = 0;
    std::string name; // empty: the file exists
    bool known = false;
    bool operator==(const file_identity &other) const
    {
        return known && other.known && device == other.device && inode == other.inode && name == other.name;
    }
};

file_identity identity_of(const std::string &path)
{
    file_identity id;
    struct stat info;
    if (stat(path.c_str(), &info) == 0) {
        id = {info.st_dev, info.st_ino, "", true};
    } else if (stat(folder_of(path).c_str(), &info) == 0) {
        id = {info.st_dev, info.st_ino, path.substr(path.rfind('/') + 1), true};
    }
    return id;
}

} // namespace

void check_outputs_distinct(const std::vector<named_file> &outputs, const std::vector<named_file> &inputs)
{
    std::vector<file_identity> output_ids;
    for (const named_file &output : outputs) output_ids.push_back(identity_of(output.path));
    for (size_t i = 0; i < outputs.size(); i++) {
        for (const named_file &input : inputs)
            if (output_ids[i] == identity_of(input.path))
                throw input_error(outputs[i].what + " " + outputs[i].path + ": '" + outputs[i].path + "' is " + input.what + " '" +
                                  input.path + "'; simtx writes no output over a file the run uses");
        for (size_t j = 0; j < i; j++)
            if (output_ids[i] == output_ids[j])
                throw input_error(outputs[i].what + " " + outputs[i].path + ": '" + outputs[i].path + "' is also written as " +
                                  outputs[j].what + " '" + outputs[j].path + "'; give each output its own file");
    }
}

} // namespace simtx
