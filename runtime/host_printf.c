/* host_printf: device printf's records (gpu_printf.h) formatted on the host,
 * one conversion per argument word, as CUDA's runtime does after a launch. */
#include "host_printf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_WORDS_MAX 9 /* the format and 8 arguments */
#define STRING_MAX 1024

bool host_printf_clear(gpu_device *d, const kernel_image *image)
{
    uint32_t zero = 0;
    return !image->printf_buffer || gpu_copy_to_device(d, image->printf_buffer, &zero, sizeof zero);
}

/* A NUL-terminated string of the kernel: read-only data in the code window,
 * or global memory. Cut at STRING_MAX - 1 bytes or where it cannot be read. */
static void read_string(gpu_device *d, const kernel_image *image, uint32_t address, char *out)
{
    size_t n = 0;
    for (; n + 1 < STRING_MAX; n++) {
        char c = 0;
        bool read = rv_window_of(address + (uint32_t)n) == RV_WINDOW_CODE
                        ? kernel_image_read_code(image, address + (uint32_t)n, &c, 1)
                        : rv_window_of(address + (uint32_t)n) == RV_WINDOW_GLOBAL && gpu_copy_from_device(d, &c, address + (uint32_t)n, 1);
        if (!read || !c) break;
        out[n] = c;
    }
    out[n] = 0;
}

/* One record: the format (words[0]) with its conversions fed from words[1..]. */
static void print_record(gpu_device *d, const kernel_image *image, const uint32_t *words, uint32_t count, FILE *out)
{
    char format[STRING_MAX], text[STRING_MAX];
    read_string(d, image, words[0], format);
    uint32_t next = 1;
    for (const char *p = format; *p;) {
        if (*p != '%') {
            fputc(*p++, out);
            continue;
        }
        /* The specification: flags, width, precision; length modifiers dropped (every argument is a word). */
        char spec[32] = "%";
        size_t length = 1;
        const char *q = p + 1;
        while (*q && strchr("-+ #0123456789.", *q) && length < sizeof spec - 3) spec[length++] = *q++;
        while (*q && strchr("hljzt", *q)) q++;
        char conversion = *q;
        if (!conversion) {
            fputs(p, out);
            break;
        }
        p = q + 1;
        if (conversion == '%') {
            fputc('%', out);
            continue;
        }
        if (!strchr("diuxXocsfFeEgGaAp", conversion)) { /* not a conversion gpu_printf knows: as written */
            fwrite(spec, 1, length, out);
            fputc(conversion, out);
            continue;
        }
        if (next >= count) {
            fputs("<missing argument>", out);
            continue;
        }
        uint32_t word = words[next++];
        spec[length++] = conversion == 'p' ? 'x' : conversion;
        spec[length] = 0;
        if (conversion == 'p') fputs("0x", out);
        if (strchr("di", conversion)) {
            fprintf(out, spec, (int)(int32_t)word);
        } else if (strchr("uxXo", conversion) || conversion == 'p') {
            fprintf(out, spec, (unsigned)word);
        } else if (conversion == 'c') {
            fprintf(out, spec, (int)(unsigned char)word);
        } else if (conversion == 's') {
            read_string(d, image, word, text);
            fprintf(out, spec, text);
        } else {
            float value;
            memcpy(&value, &word, sizeof value);
            fprintf(out, spec, (double)value);
        }
    }
}

bool host_printf_flush(gpu_device *d, const kernel_image *image, FILE *out)
{
    if (!image->printf_buffer) return true;
    uint32_t capacity = (image->printf_buffer_size - 8) / 4, next;
    if (!gpu_copy_from_device(d, &next, image->printf_buffer, sizeof next)) return false;
    uint32_t used = next < capacity ? next : capacity;
    uint32_t *words = malloc(sizeof(uint32_t) * (used + 1));
    if (!words) return gpu_set_error(d, "out of host memory for gpu_printf's records");
    bool ok = gpu_copy_from_device(d, words, image->printf_buffer + 8, sizeof(uint32_t) * used);
    uint32_t at = 0, printed = 0;
    while (ok && at < used) {
        uint32_t count = words[at];
        if (count < 1 || count > RECORD_WORDS_MAX || at + 1 + count > used) break; /* a record cut off by the full buffer */
        print_record(d, image, words + at + 1, count, out);
        at += 1 + count;
        printed++;
    }
    free(words);
    if (ok) fflush(out);
    if (ok && next > at)
        fprintf(stderr, "simtx: gpu_printf: the buffer (%u words) was full: records after the first %u dropped\n", capacity, printed);
    return ok;
}
