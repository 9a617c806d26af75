#include "simtx_params.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(params, spec, type) ((type *)((char *)(params) + (spec)->offset))

const simtx_param_spec *simtx_param_find(const simtx_param_table *table, const char *name)
{
    for (size_t i = 0; i < table->count; i++)
        if (strcmp(table->specs[i].name, name) == 0) return &table->specs[i];
    return NULL;
}

const char *simtx_param_type_name(simtx_param_type type)
{
    switch (type) {
    case SIMTX_PARAM_INT: return "int";
    case SIMTX_PARAM_DOUBLE: return "real";
    case SIMTX_PARAM_BOOL: return "bool";
    case SIMTX_PARAM_STRING: return "string";
    case SIMTX_PARAM_ENUM: return "enum";
    case SIMTX_PARAM_PATH: return "path";
    }
    return "?";
}

static bool is_text_type(simtx_param_type type)
{
    return type == SIMTX_PARAM_STRING || type == SIMTX_PARAM_ENUM || type == SIMTX_PARAM_PATH;
}

static const char *value_kind_name(simtx_value_kind kind)
{
    switch (kind) {
    case SIMTX_VALUE_INTEGER: return "an integer";
    case SIMTX_VALUE_REAL: return "a real number";
    case SIMTX_VALUE_BOOL: return "a boolean";
    case SIMTX_VALUE_STRING: return "a string";
    }
    return "?";
}

static bool choice_allowed(const char *choices, const char *value)
{
    size_t length = strlen(value);
    for (const char *p = choices; *p;) {
        const char *end = strchr(p, '|');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == length && strncmp(p, value, n) == 0) return true;
        if (!end) break;
        p = end + 1;
    }
    return false;
}

static bool check_range(const simtx_param_spec *spec, double value, const char *text, char *error,
                        size_t error_size)
{
    if (value < spec->minimum || value > spec->maximum) {
        char low[32] = "", high[32] = "";
        if (spec->minimum > -SIMTX_PARAM_NO_LIMIT) snprintf(low, sizeof low, "%.17g", spec->minimum);
        if (spec->maximum < SIMTX_PARAM_NO_LIMIT) snprintf(high, sizeof high, "%.17g", spec->maximum);
        snprintf(error, error_size, "parameter '%s' = %s is out of range [%s, %s]", spec->name, text,
                 low[0] ? low : "-inf", high[0] ? high : "+inf");
        return false;
    }
    return true;
}

bool simtx_param_assign(const simtx_param_spec *spec, void *params, const simtx_value *value,
                        char *error, size_t error_size)
{
    char text[64];
    switch (spec->type) {
    case SIMTX_PARAM_INT:
        if (value->kind != SIMTX_VALUE_INTEGER) break;
        snprintf(text, sizeof text, "%" PRId64, value->integer);
        if (!check_range(spec, (double)value->integer, text, error, error_size)) return false;
        *FIELD(params, spec, int64_t) = value->integer;
        return true;
    case SIMTX_PARAM_DOUBLE: {
        double real;
        if (value->kind == SIMTX_VALUE_INTEGER) real = (double)value->integer;
        else if (value->kind == SIMTX_VALUE_REAL) real = value->real;
        else break;
        snprintf(text, sizeof text, "%.17g", real);
        if (!isfinite(real) || !check_range(spec, real, text, error, error_size)) {
            if (!isfinite(real)) snprintf(error, error_size, "parameter '%s' must be finite", spec->name);
            return false;
        }
        *FIELD(params, spec, double) = real;
        return true;
    }
    case SIMTX_PARAM_BOOL:
        if (value->kind != SIMTX_VALUE_BOOL) break;
        *FIELD(params, spec, bool) = value->boolean;
        return true;
    case SIMTX_PARAM_STRING:
    case SIMTX_PARAM_ENUM:
    case SIMTX_PARAM_PATH: {
        if (value->kind != SIMTX_VALUE_STRING) break;
        if (spec->type == SIMTX_PARAM_ENUM && !choice_allowed(spec->choices, value->string)) {
            snprintf(error, error_size, "parameter '%s' = \"%s\" is not one of %s", spec->name,
                     value->string, spec->choices);
            return false;
        }
        char *copy = strdup(value->string);
        if (!copy) {
            snprintf(error, error_size, "out of memory");
            return false;
        }
        char **field = FIELD(params, spec, char *);
        free(*field);
        *field = copy;
        return true;
    }
    }
    snprintf(error, error_size, "parameter '%s' expects %s (%s), got %s", spec->name,
             spec->type == SIMTX_PARAM_INT      ? "an integer"
             : spec->type == SIMTX_PARAM_DOUBLE ? "a number"
             : spec->type == SIMTX_PARAM_BOOL   ? "a boolean"
                                                : "a string",
             simtx_param_type_name(spec->type), value_kind_name(value->kind));
    return false;
}

static bool parse_integer(const char *text, int64_t *out)
{
    errno = 0;
    char *end;
    long long number = strtoll(text, &end, 0);
    if (end == text || errno) return false;
    static const struct { const char *suffix; int64_t scale; } suffixes[] = {
        {"", 1}, {"KiB", 1LL << 10}, {"MiB", 1LL << 20}, {"GiB", 1LL << 30}, {"K", 1000},
        {"M", 1000000}, {"G", 1000000000},
    };
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (strcmp(end, suffixes[i].suffix) == 0) {
            if (number > INT64_MAX / suffixes[i].scale || number < INT64_MIN / suffixes[i].scale) return false;
            *out = number * suffixes[i].scale;
            return true;
        }
    }
    return false;
}

bool simtx_param_parse_text(const simtx_param_spec *spec, const char *text, simtx_value *value,
                            char *error, size_t error_size)
{
    memset(value, 0, sizeof *value);
    switch (spec->type) {
    case SIMTX_PARAM_INT:
        value->kind = SIMTX_VALUE_INTEGER;
        if (parse_integer(text, &value->integer)) return true;
        snprintf(error, error_size, "parameter '%s' expects an integer, got \"%s\"", spec->name, text);
        return false;
    case SIMTX_PARAM_DOUBLE: {
        char *end;
        value->kind = SIMTX_VALUE_REAL;
        value->real = strtod(text, &end);
        if (end != text && *end == '\0') return true;
        snprintf(error, error_size, "parameter '%s' expects a number, got \"%s\"", spec->name, text);
        return false;
    }
    case SIMTX_PARAM_BOOL:
        value->kind = SIMTX_VALUE_BOOL;
        if (!strcmp(text, "true") || !strcmp(text, "1")) { value->boolean = true; return true; }
        if (!strcmp(text, "false") || !strcmp(text, "0")) { value->boolean = false; return true; }
        snprintf(error, error_size, "parameter '%s' expects true or false, got \"%s\"", spec->name, text);
        return false;
    case SIMTX_PARAM_STRING:
    case SIMTX_PARAM_ENUM:
    case SIMTX_PARAM_PATH:
        value->kind = SIMTX_VALUE_STRING;
        value->string = text;
        return true;
    }
    return false;
}

bool simtx_params_init(const simtx_param_table *table, void *params, char *error, size_t error_size)
{
    memset(params, 0, table->struct_size);
    for (size_t i = 0; i < table->count; i++) {
        const simtx_param_spec *spec = &table->specs[i];
        simtx_value value;
        if (!simtx_param_parse_text(spec, spec->default_value, &value, error, error_size) ||
            !simtx_param_assign(spec, params, &value, error, error_size))
            return false;
    }
    return true;
}

void simtx_params_release(const simtx_param_table *table, void *params)
{
    for (size_t i = 0; i < table->count; i++) {
        const simtx_param_spec *spec = &table->specs[i];
        if (is_text_type(spec->type)) {
            char **field = FIELD(params, spec, char *);
            free(*field);
            *field = NULL;
        }
    }
}

void simtx_param_format(const simtx_param_spec *spec, const void *params, char *out, size_t out_size)
{
    const void *p = params;
    switch (spec->type) {
    case SIMTX_PARAM_INT: snprintf(out, out_size, "%" PRId64, *FIELD(p, spec, const int64_t)); break;
    case SIMTX_PARAM_DOUBLE: snprintf(out, out_size, "%.17g", *FIELD(p, spec, const double)); break;
    case SIMTX_PARAM_BOOL: snprintf(out, out_size, "%s", *FIELD(p, spec, const bool) ? "true" : "false"); break;
    default: {
        const char *text = *FIELD(p, spec, char *const);
        snprintf(out, out_size, "%s", text ? text : "");
    }
    }
}

int64_t simtx_param_int(const simtx_param_spec *spec, const void *params)
{
    return *FIELD(params, spec, const int64_t);
}

static void format_limit(double limit, char *out, size_t size)
{
    if (limit <= -SIMTX_PARAM_NO_LIMIT || limit >= SIMTX_PARAM_NO_LIMIT) out[0] = '\0';
    else snprintf(out, size, "%.17g", limit);
}

void simtx_param_range(const simtx_param_spec *spec, char *range, size_t size)
{
    range[0] = '\0';
    if (spec->type == SIMTX_PARAM_INT || spec->type == SIMTX_PARAM_DOUBLE) {
        char low[32], high[32];
        format_limit(spec->minimum, low, sizeof low);
        format_limit(spec->maximum, high, sizeof high);
        if (low[0] || high[0]) snprintf(range, size, "%s..%s", low, high);
    } else if (spec->type == SIMTX_PARAM_ENUM) {
        snprintf(range, size, "%s", spec->choices);
        for (char *p = range; *p; p++)
            if (*p == '|') *p = ',';
    }
}

void simtx_params_write_markdown(const simtx_param_table *table, FILE *out)
{
    fprintf(out, "| parameter | type | default | unit | range | description |\n");
    fprintf(out, "| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < table->count; i++) {
        const simtx_param_spec *spec = &table->specs[i];
        char range[96];
        simtx_param_range(spec, range, sizeof range);
        fprintf(out, "| `%s` | %s | `%s` | %s | %s | %s |\n", spec->name, simtx_param_type_name(spec->type),
                spec->default_value, spec->unit, range, spec->doc);
    }
}
