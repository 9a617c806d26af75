#include "json_string.hpp"

#include <cstdio>

namespace simtx {

namespace {

// The length of the well-formed UTF-8 sequence at text[at] (RFC 3629: no
// overlong forms, surrogates or code points past U+10FFFF), 0 if none.
size_t utf8_sequence(const std::string &text, size_t at)
{
    auto byte = [&](size_t i) { return at + i < text.size() ? static_cast<unsigned char>(text[at + i]) : 0u; };
    unsigned lead = byte(0);
    size_t length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length <= 1) return length;
    // The second byte's range narrows for E0, ED, F0 and F4.
    unsigned low = lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
    unsigned high = lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
    if (byte(1) < low || byte(1) > high) return 0;
    for (size_t i = 2; i < length; i++)
        if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
    return length;
}

} // namespace

std::string json_string(const std::string &text)
{
    std::string quoted = "\"";
    for (size_t at = 0; at < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[at]);
        size_t length = utf8_sequence(text, at);
        if (!length) {
            quoted += "\\ufffd"; // a byte of no UTF-8 character: the replacement character
            at++;
            continue;
        }
        if (c == '"' || c == '\\') quoted += '\\';
        if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c);
            quoted += escape;
        } else {
            quoted.append(text, at, length);
        }
        at += length;
    }
    return quoted + "\"";
}

} // namespace simtx
