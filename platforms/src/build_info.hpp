// simtx's version and the git commit it was built from (build_info.cpp is
// generated at each build by cmake/simtx_build_info.cmake).
#ifndef SIMTX_BUILD_INFO_HPP
#define SIMTX_BUILD_INFO_HPP

namespace simtx {

extern const char build_version[]; // the CMake project version
extern const char build_commit[];  // a commit hash, with "+modified" for local changes; "unknown" outside git

} // namespace simtx

#endif
