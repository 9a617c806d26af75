/* The freestanding runtime of simtx kernels: what clang emits calls to
 * (memset/memcpy for struct copies, 64-bit division helpers; Debian's clang
 * ships no riscv32 compiler-rt). Kept simple: per-thread, byte loops. */
#include <stddef.h>
#include <stdint.h>

void *memset(void *destination, int value, size_t count)
{
    unsigned char *d = destination;
    for (size_t i = 0; i < count; i++) d[i] = (unsigned char)value;
    return destination;
}

void *memcpy(void *destination, const void *source, size_t count)
{
    unsigned char *d = destination;
    const unsigned char *s = source;
    for (size_t i = 0; i < count; i++) d[i] = s[i];
    return destination;
}

void *memmove(void *destination, const void *source, size_t count)
{
    unsigned char *d = destination;
    const unsigned char *s = source;
    if (d < s)
        for (size_t i = 0; i < count; i++) d[i] = s[i];
    else
        for (size_t i = count; i > 0; i--) d[i - 1] = s[i - 1];
    return destination;
}

/* Shift-and-subtract; the quotient goes to *remainder's partner. */
static uint64_t divide_unsigned(uint64_t numerator, uint64_t denominator, uint64_t *remainder)
{
    uint64_t quotient = 0, rest = 0;
    if (denominator == 0) { /* RISC-V semantics: all ones, remainder = numerator */
        *remainder = numerator;
        return UINT64_MAX;
    }
    for (int bit = 63; bit >= 0; bit--) {
        rest = (rest << 1) | ((numerator >> bit) & 1);
        if (rest >= denominator) {
            rest -= denominator;
            quotient |= (uint64_t)1 << bit;
        }
    }
    *remainder = rest;
    return quotient;
}

uint64_t __udivdi3(uint64_t a, uint64_t b)
{
    uint64_t r;
    return divide_unsigned(a, b, &r);
}

uint64_t __umoddi3(uint64_t a, uint64_t b)
{
    uint64_t r;
    divide_unsigned(a, b, &r);
    return r;
}

int64_t __divdi3(int64_t a, int64_t b)
{
    uint64_t r;
    uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a, ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
    uint64_t q = divide_unsigned(ua, ub, &r);
    return (a < 0) != (b < 0) ? -(int64_t)q : (int64_t)q;
}

int64_t __moddi3(int64_t a, int64_t b)
{
    uint64_t r;
    uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a, ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
    divide_unsigned(ua, ub, &r);
    return a < 0 ? -(int64_t)r : (int64_t)r;
}
