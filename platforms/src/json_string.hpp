// A text as a JSON string literal (quotes, backslashes and control
// characters escaped), for the hand-written statistics JSON.
#ifndef SIMTX_JSON_STRING_HPP
#define SIMTX_JSON_STRING_HPP

#include <string>

namespace simtx {

std::string json_string(const std::string &text);

} // namespace simtx

#endif
