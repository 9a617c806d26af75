/* Parameter tables: one per block type, the single source for defaults,
 * netlist validation, `simtx describe` and the block README. Each entry
 * names a field of the block's params struct by offset. */
#ifndef SIMTX_PARAMS_H
#define SIMTX_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum simtx_param_type {
    SIMTX_PARAM_INT,    /* int64_t; text may use 0x.. and KiB/MiB/GiB suffixes */
    SIMTX_PARAM_DOUBLE, /* double */
    SIMTX_PARAM_BOOL,   /* bool */
    SIMTX_PARAM_STRING, /* char * (owned by the params struct) */
    SIMTX_PARAM_ENUM,   /* char *, one of the '|'-separated choices */
    SIMTX_PARAM_PATH    /* char *, a file path; netlist values are relative to the netlist */
} simtx_param_type;

typedef struct simtx_param_spec {
    const char *name;
    simtx_param_type type;
    const char *default_value; /* text, parsed like a --set value */
    const char *unit;          /* "" when none */
    double minimum, maximum;   /* inclusive range for INT and DOUBLE */
    const char *choices;       /* ENUM: "a|b|c" */
    const char *doc;
    size_t offset;
} simtx_param_spec;

typedef struct simtx_param_table {
    const simtx_param_spec *specs;
    size_t count;
    size_t struct_size;
} simtx_param_table;

/* A value from a netlist or the command line, before it is checked. */
typedef enum { SIMTX_VALUE_INTEGER, SIMTX_VALUE_REAL, SIMTX_VALUE_BOOL, SIMTX_VALUE_STRING } simtx_value_kind;
typedef struct simtx_value {
    simtx_value_kind kind;
    int64_t integer;
    double real;
    bool boolean;
    const char *string;
} simtx_value;

#define SIMTX_PARAM_NO_LIMIT 1e300

const simtx_param_spec *simtx_param_find(const simtx_param_table *table, const char *name);
const char *simtx_param_type_name(simtx_param_type type);

/* Fills every field with its default. Returns false (with a message) only if
 * a default is itself invalid, which a unit test rules out. */
bool simtx_params_init(const simtx_param_table *table, void *params, char *error, size_t error_size);
void simtx_params_release(const simtx_param_table *table, void *params);

/* Checks a value's type and range against a spec and stores it. */
bool simtx_param_assign(const simtx_param_spec *spec, void *params, const simtx_value *value,
                        char *error, size_t error_size);
/* Turns command-line text into a value of the spec's type. */
bool simtx_param_parse_text(const simtx_param_spec *spec, const char *text, simtx_value *value,
                            char *error, size_t error_size);

/* Writes the current value as text (for describe, stats, READMEs). */
void simtx_param_format(const simtx_param_spec *spec, const void *params, char *out, size_t out_size);

/* Typed access to a field, for the elaborator (socket counts) and cores. */
int64_t simtx_param_int(const simtx_param_spec *spec, const void *params);

/* A parameter's allowed values as text: "1..64" (INT, DOUBLE; an open end
 * left blank), "a,b,c" (ENUM), "" otherwise. */
void simtx_param_range(const simtx_param_spec *spec, char *range, size_t size);

/* Writes a Markdown table of a parameter table (the block README). */
void simtx_params_write_markdown(const simtx_param_table *table, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
