// Crash injection: a power failure at a chosen simulated time (--crash-at) or
// at a seeded random time within a window (--crash-seed with --crash-window,
// the length of a crash-free run, which scripts/crash_campaign measures
// first). At the failure the run stops: caches, queues and messages in
// flight are lost; what survives is the durable image, chosen by the
// persistence domain (--crash-domain): ADR, the NVM controllers' media and
// write-pending queues; eADR, that plus the caches' dirty lines. The host
// program learns of it through the launch status (runtime/host_api.h:
// gpu_crashed) and may recover from the durable image.
#ifndef SIMTX_CRASH_INJECTION_HPP
#define SIMTX_CRASH_INJECTION_HPP

#include <cstdint>
#include <string>

namespace simtx {

enum class crash_domain { adr, eadr };

struct crash_options {
    uint64_t at_ns = 0;     // --crash-at; 0: none
    bool seeded = false;    // --crash-seed given
    uint64_t seed = 0;      // --crash-seed
    uint64_t window_ns = 0; // --crash-window
    crash_domain domain = crash_domain::adr;

    bool requested() const { return at_ns || seeded; }
    // The failure's time in ns: --crash-at, or uniform over 1..window from the seed.
    uint64_t time_ns() const;
    // The option that chose the time, for messages ("--crash-at 1200" or
    // "--crash-seed 7 --crash-window 50000").
    std::string option_text() const;
};

// Parses --crash-domain's value; throws std::invalid_argument naming the choices.
crash_domain parse_crash_domain(const std::string &text);
const char *crash_domain_name(crash_domain domain);

} // namespace simtx

#endif
