// A text as a JSON string literal (quotes, backslashes and control
// characters escaped), for the hand-written statistics JSON. A byte that
// is not part of a well-formed UTF-8 character (a plugin argument or error
// text in another encoding) becomes U+FFFD, so the file stays valid JSON.
#ifndef SIMTX_JSON_STRING_HPP
#define SIMTX_JSON_STRING_HPP

#include <string>

namespace simtx {

std::string json_string(const std::string &text);

} // namespace simtx

#endif
