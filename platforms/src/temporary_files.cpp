#include "temporary_files.hpp"

#include <atomic>
#include <csignal>
#include <unistd.h>

namespace simtx {

namespace {

// A fixed table, read by signal handlers: a slot holds a path or nullptr.
constexpr int slot_count = 4096;
std::atomic<const char *> slots[slot_count];

const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP};
const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previous[NSIG];

void on_signal(int number, siginfo_t *info, void *)
{
    remove_temporaries();
    // The signal's earlier disposition (the default: end the process with
    // it, or a sanitizer's report) takes over. A fault the kernel raised for
    // an instruction (si_code > 0) happens again on return; a signal sent
    // (kill, raise, abort) is raised again.
    sigaction(number, &previous[number], nullptr);
    bool fault = (number == SIGSEGV || number == SIGBUS || number == SIGFPE || number == SIGILL) && info->si_code > 0;
    if (!fault) raise(number);
}

void install_handlers()
{
    struct sigaction action = {};
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (int number : ending_signals) {
        sigaction(number, nullptr, &previous[number]);
        // An ignored signal (nohup) stays ignored.
        if (previous[number].sa_handler != SIG_IGN) sigaction(number, &action, nullptr);
    }
    for (int number : crash_signals) sigaction(number, &action, &previous[number]);
}

} // namespace

bool remember_temporary(const char *path)
{
    static bool installed = false;
    if (!installed) install_handlers();
    installed = true;
    for (auto &slot : slots) {
        const char *empty = nullptr;
        if (slot.compare_exchange_strong(empty, path)) return true;
    }
    return false;
}

void forget_temporary(const char *path)
{
    for (auto &slot : slots) {
        const char *expected = path;
        if (slot.compare_exchange_strong(expected, nullptr)) return;
    }
}

void remove_temporaries()
{
    for (auto &slot : slots)
        if (const char *path = slot.load()) unlink(path);
}

} // namespace simtx
