// The output files' temporaries (output_file.hpp), removed on every way out
// of the process: their owners remove them on a normal return or an
// exception; a signal that ends the process (SIGINT, SIGTERM, SIGHUP, and a
// crash: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) removes them in its
// handler before the signal takes its usual course. Only SIGKILL leaves
// them behind.
#ifndef SIMTX_TEMPORARY_FILES_HPP
#define SIMTX_TEMPORARY_FILES_HPP

namespace simtx {

// path must stay valid until forget_temporary(path); returns false when the
// registry is full (the file then is removed only by its owner).
bool remember_temporary(const char *path);
void forget_temporary(const char *path);
// Removes every remembered temporary (async-signal-safe).
void remove_temporaries();

} // namespace simtx

#endif
