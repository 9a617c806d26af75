/* Checks for plain C unit tests. Each failed check prints file:line and the
 * values; simtx_test_summary() prints "N passed, N failed" and gives the exit
 * status. */
#ifndef SIMTX_TEST_SUPPORT_H
#define SIMTX_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

bool simtx_check(bool ok, const char *expression, const char *file, int line);
bool simtx_check_equal(uint64_t actual, uint64_t expected, const char *actual_text, const char *expected_text,
                       const char *file, int line);
bool simtx_check_string(const char *actual, const char *expected, const char *actual_text, const char *file, int line);
bool simtx_check_contains(const char *text, const char *part, const char *text_expression, const char *file, int line);
int simtx_test_summary(void);

#define CHECK(condition) simtx_check((condition), #condition, __FILE__, __LINE__)
#define CHECK_EQUAL(actual, expected) \
    simtx_check_equal((uint64_t)(actual), (uint64_t)(expected), #actual, #expected, __FILE__, __LINE__)
#define CHECK_STRING(actual, expected) simtx_check_string((actual), (expected), #actual, __FILE__, __LINE__)
#define CHECK_CONTAINS(text, part) simtx_check_contains((text), (part), #text, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
