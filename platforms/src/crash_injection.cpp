#include "crash_injection.hpp"

#include <stdexcept>

namespace simtx {

uint64_t crash_options::time_ns() const
{
    if (!seeded) return at_ns;
    // splitmix64: the same seed gives the same time on every host.
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return 1 + z % window_ns;
}

std::string crash_options::option_text() const
{
    if (seeded) return "--crash-seed " + std::to_string(seed) + " --crash-window " + std::to_string(window_ns);
    return "--crash-at " + std::to_string(at_ns);
}

crash_domain parse_crash_domain(const std::string &text)
{
    if (text == "adr") return crash_domain::adr;
    if (text == "eadr") return crash_domain::eadr;
    throw std::invalid_argument("--crash-domain: expected adr or eadr, got '" + text + "'");
}

const char *crash_domain_name(crash_domain domain) { return domain == crash_domain::adr ? "ADR" : "eADR"; }

} // namespace simtx
