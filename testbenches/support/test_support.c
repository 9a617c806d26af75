#include "test_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned passed, failed;

bool simtx_check(bool ok, const char *expression, const char *file, int line)
{
    if (ok) passed++;
    else {
        failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expression);
    }
    return ok;
}

bool simtx_check_equal(uint64_t actual, uint64_t expected, const char *actual_text, const char *expected_text,
                       const char *file, int line)
{
    if (actual == expected) {
        passed++;
        return true;
    }
    failed++;
    fprintf(stderr, "%s:%d: check failed: %s == %s (got %" PRIu64 " = 0x%" PRIx64 ", expected %" PRIu64 ")\n", file,
            line, actual_text, expected_text, actual, actual, expected);
    return false;
}

bool simtx_check_string(const char *actual, const char *expected, const char *actual_text, const char *file, int line)
{
    if (actual && strcmp(actual, expected) == 0) {
        passed++;
        return true;
    }
    failed++;
    fprintf(stderr, "%s:%d: check failed: %s is \"%s\", expected \"%s\"\n", file, line, actual_text,
            actual ? actual : "(null)", expected);
    return false;
}

bool simtx_check_contains(const char *text, const char *part, const char *text_expression, const char *file, int line)
{
    if (text && strstr(text, part)) {
        passed++;
        return true;
    }
    failed++;
    fprintf(stderr, "%s:%d: check failed: %s (\"%s\") does not contain \"%s\"\n", file, line, text_expression,
            text ? text : "(null)", part);
    return false;
}

int simtx_test_summary(void)
{
    printf("%u passed, %u failed\n", passed, failed);
    return failed || !passed ? 1 : 0;
}
