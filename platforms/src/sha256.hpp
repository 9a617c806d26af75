// SHA-256 (FIPS 180-4) of a byte string or a file, as lowercase hex: the
// content hashes the statistics record for the netlist and its includes.
#ifndef SIMTX_SHA256_HPP
#define SIMTX_SHA256_HPP

#include <string>

namespace simtx {

std::string sha256_hex(const std::string &bytes);

// The hash of a file's content; empty when it cannot be read.
std::string sha256_file_hex(const std::string &path);

} // namespace simtx

#endif
