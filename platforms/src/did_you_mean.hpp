// Suggestions for a misspelt name: the nearest known name by edit distance.
#ifndef SIMTX_DID_YOU_MEAN_HPP
#define SIMTX_DID_YOU_MEAN_HPP

#include <set>
#include <string>

namespace simtx {

// " (did you mean 'NAME'?)" for the nearest of known within about a third of
// the name's length, else "".
std::string did_you_mean(const std::string &name, const std::set<std::string> &known);

} // namespace simtx

#endif
