/* Workload options (--set workload.NAME=VALUE) as the host programs read them. */
#include "workload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int workload_fail(workload_context *context, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(context->error, context->error_size, format, args);
    va_end(args);
    return 1;
}

int workload_bad_option(workload_context *context, const char *format, ...)
{
    if (context->bad_input) return 1; /* the first bad option is the one reported */
    va_list args;
    va_start(args, format);
    vsnprintf(context->error, context->error_size, format, args);
    va_end(args);
    context->bad_input = true;
    return 1;
}

static workload_option *find_option(workload_context *context, const char *name)
{
    for (size_t i = 0; i < context->option_count; i++)
        if (!strcmp(context->options[i].name, name)) return &context->options[i];
    return NULL;
}

int64_t workload_int(workload_context *context, const char *name, int64_t default_value, int64_t minimum, int64_t maximum)
{
    workload_option *option = find_option(context, name);
    if (!option) return default_value;
    char *end;
    errno = 0;
    long long value = strtoll(option->value, &end, 0);
    if (errno || end == option->value || *end || value < minimum || value > maximum) {
        workload_bad_option(context, "workload.%s: expected an integer in [%lld, %lld], got '%s'", name, (long long)minimum,
                            (long long)maximum, option->value);
        return default_value;
    }
    return value;
}

const char *workload_string(workload_context *context, const char *name, const char *default_value)
{
    workload_option *option = find_option(context, name);
    return option ? option->value : default_value;
}

void workload_kernel_path(workload_context *context, const char *base, char *path, size_t path_size)
{
    const char *opt = workload_string(context, "opt", "O2");
    const char *kernel = workload_string(context, "kernel", NULL);
    if (strcmp(opt, "O0") && strcmp(opt, "O1") && strcmp(opt, "O2") && strcmp(opt, "O3") && strcmp(opt, "Os")) {
        workload_bad_option(context, "workload.opt: expected O0, O1, O2, O3 or Os, got '%s'", opt);
        opt = "O2";
    }
    if (kernel) snprintf(path, path_size, "%s", kernel);
    else snprintf(path, path_size, "%s/%s_%s.elf", context->kernel_dir, base, opt);
}

uint64_t workload_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
