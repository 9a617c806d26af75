/* simtx_assert: internal consistency checks, in the manner of Lua's
 * lua_assert (on in its test build, LUAI_ASSERT; nothing in a release).
 * Compiled in when SIMTX_ASSERTIONS is defined -- the build defines it in
 * Debug and sanitizer builds (models/CMakeLists.txt) -- and to nothing otherwise,
 * its condition not even evaluated, so a release simulator pays nothing.
 *
 * Use it where a broken invariant of the simulator itself (not bad input,
 * which gets an error naming the input) would otherwise index past a table
 * or a message and crash far from the cause: a failed check prints
 *   simtx: internal error: BLOCK: invariant 'CONDITION' broken (FILE:LINE, FUNCTION)
 * and aborts, BLOCK being the instance name where the code knows it, else
 * the module. */
#ifndef SIMTX_ASSERT_H
#define SIMTX_ASSERT_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef SIMTX_ASSERTIONS
#define simtx_assert(block, condition) \
    ((condition) ? (void)0 : simtx_assert_failed((block), #condition, __FILE__, __LINE__, __func__))
#else
#define simtx_assert(block, condition) ((void)0)
#endif

/* Reports the broken invariant on stderr and aborts. */
__attribute__((noreturn)) void simtx_assert_failed(const char *block, const char *condition, const char *file, int line, const char *function);

#ifdef __cplusplus
}
#endif
#endif
