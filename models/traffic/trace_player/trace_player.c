#include "trace_player.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sparse_memory.h"

#define PARAM(field) offsetof(trace_player_params, field)

static const simtx_param_spec trace_player_param_specs[] = {
    {"trace", SIMTX_PARAM_PATH, "", "", 0, 0, NULL, "trace file to replay; empty: synthetic traffic", PARAM(trace)},
    {"format", SIMTX_PARAM_ENUM, "auto", "", 0, 0, "auto|dramsim3|ramulator", "trace format; auto decides from the first request line", PARAM(format)},
    {"max_outstanding", SIMTX_PARAM_INT, "16", "requests", 1, 65536, NULL, "requests in flight at once", PARAM(max_outstanding)},
    {"request_size", SIMTX_PARAM_INT, "64", "bytes", 1, SIMTX_MSG_MAX_DATA, NULL, "bytes per request", PARAM(request_size)},
    {"synthetic_requests", SIMTX_PARAM_INT, "1000", "requests", 0, 1e15, NULL, "requests of synthetic traffic", PARAM(synthetic_requests)},
    {"synthetic_pattern", SIMTX_PARAM_ENUM, "random", "", 0, 0, "random|stream", "synthetic addresses: uniformly random or sequential", PARAM(synthetic_pattern)},
    {"read_percent", SIMTX_PARAM_INT, "100", "%", 0, 100, NULL, "share of reads in synthetic traffic", PARAM(read_percent)},
    {"address_base", SIMTX_PARAM_INT, "0", "bytes", 0, 9.2e18, NULL, "first address of synthetic traffic", PARAM(address_base)},
    {"address_range", SIMTX_PARAM_INT, "64MiB", "bytes", 1, 9.2e18, NULL, "bytes spanned by synthetic traffic", PARAM(address_range)},
    {"check_data", SIMTX_PARAM_BOOL, "false", "", 0, 0, NULL, "check every read returns the last data written there (keeps a shadow copy)", PARAM(check_data)},
    /* Idle cycles still cost wall time (a DRAM refreshes through them), and
     * at the slowest clock (1 kHz) 1.8e10 cycles is the last instant
     * SystemC's 64-bit picoseconds can hold. */
    {"max_cycle", SIMTX_PARAM_INT, "10000000000", "cycles", 0, 1.8e10, NULL, "latest request cycle a trace may give; a later one is refused as a corrupt trace", PARAM(max_cycle)},
};

static const simtx_param_table trace_player_param_table = {
    trace_player_param_specs, sizeof trace_player_param_specs / sizeof trace_player_param_specs[0],
    sizeof(trace_player_params)};

static const simtx_socket_spec trace_player_sockets[] = {
    {"memory", SIMTX_SOCKET_INITIATOR, NULL, "requests out, responses in", false},
};

typedef struct slot {
    uint64_t issue_cycle;
    uint64_t sequence; /* issue order, from 1 */
    uint64_t address;
    uint32_t size;
    bool is_write, in_use;
    uint8_t expected[SIMTX_MSG_MAX_DATA];
} slot;

/* check_data, for a write in flight: what the shadow held before it, and per
 * byte the sequence of the next write issued over that byte (0: none yet), so
 * that a write the memory refuses can be taken out of the shadow again. */
typedef struct shadow_undo {
    uint8_t before[SIMTX_MSG_MAX_DATA];
    uint64_t next_writer[SIMTX_MSG_MAX_DATA];
} shadow_undo;

/* A trace file being read: in large chunks, split into lines in place. */
typedef struct trace_reader {
    const char *path;
    FILE *file;
    trace_format format;
    uint64_t max_cycle;
    uint64_t line_number;
    bool line_too_long;
    char *buffer;
    size_t buffer_capacity, buffer_start, buffer_end;
    bool buffer_at_end;
} trace_reader;

/* A trace parsed once at creation, request i being addresses[i], bit i of
 * writes and cycles[i] (NULL for Ramulator traces, whose cycles are all 0):
 * 8 bytes and a bit per request, or 16 with cycles, instead of parsing every
 * line a second time while replaying. */
typedef struct parsed_trace {
    uint64_t *addresses, *cycles, *writes;
    uint64_t count, capacity;
} parsed_trace;

typedef struct trace_player {
    trace_player_params params;
    simtx_env env;
    parsed_trace trace;       /* a replayed trace */
    uint64_t total_requests;  /* in the trace, or synthetic_requests */
    uint64_t issued, completed;
    trace_request next;       /* the request to issue next */
    /* Its message once built: kept while the port refuses it. Initialised
     * once: a request changes only its op, address, data and id. */
    simtx_msg outgoing;
    bool have_next, port_blocked, outgoing_built;
    uint64_t random_state, write_sequence;
    slot *slots;
    unsigned *free_slots;
    unsigned free_count;
    sparse_memory *shadow;    /* check_data only */
    shadow_undo *undo;        /* check_data only: one per slot */
    /* check_data: writes in flight per hashed 64-byte line, so that a write
     * looks for earlier ones over its bytes only when there may be some. */
    uint32_t writes_on_line[256];
    uint64_t sequence;        /* requests issued, numbering them */
    struct {
        uint64_t reads, writes, bytes_read, bytes_written, error_responses, cycles;
        simtx_histogram read_latency, write_latency;
        double bytes_per_cycle;
    } stats;
    struct {
        uint64_t outstanding, completed;
    } probes;
} trace_player;

static int parse_address(const char *token, uint64_t *address)
{
    if (!(token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) || !isxdigit((unsigned char)token[2])) return -1;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(token + 2, &end, 16);
    if (errno || *end) return -1;
    *address = value;
    return 0;
}

/* isspace() in the C locale, which the general parser below relies on. */
static bool is_blank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* A hexadecimal digit's value plus one, by character (0: not a digit): a
 * lookup per character of every address in the trace. */
static const uint8_t hex_digits[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

/* The two shapes nearly every line has, "0xADDR R|W" and "0xADDR READ|WRITE
 * CYCLE", in one pass without copying tokens. Anything else (comments,
 * errors, numbers long enough to overflow) is left to the general parser,
 * which gives the same result for these shapes. */
static bool parse_common_line(const char *p, trace_format *format, trace_request *request)
{
    while (is_blank(*p)) p++;
    if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) return false;
    p += 2;
    uint64_t address = 0;
    const char *digits = p;
    for (unsigned v; (v = hex_digits[(unsigned char)*p]) != 0; p++) address = address << 4 | (v - 1);
    if (p == digits || p - digits > 16 || !is_blank(*p)) return false;
    while (is_blank(*p)) p++;
    /* "R" or "W" ending the line, as on nearly every line of a Ramulator trace. */
    if ((p[0] == 'R' || p[0] == 'W') && p[1] == '\0' && *format != TRACE_FORMAT_DRAMSIM3) {
        request->address = address;
        request->is_write = p[0] == 'W';
        request->cycle = 0;
        *format = TRACE_FORMAT_RAMULATOR;
        return true;
    }
    const char *word = p;
    while (*p && !is_blank(*p)) p++;
    size_t word_length = (size_t)(p - word);
    while (is_blank(*p)) p++;
    trace_format seen = *p ? TRACE_FORMAT_DRAMSIM3 : TRACE_FORMAT_RAMULATOR;
    if (*format != TRACE_FORMAT_AUTO && *format != seen) return false;
    uint64_t cycle = 0;
    if (seen == TRACE_FORMAT_RAMULATOR) {
        if (word_length != 1 || (word[0] != 'R' && word[0] != 'W')) return false;
        request->is_write = word[0] == 'W';
    } else {
        if (word_length == 4 && !memcmp(word, "READ", 4)) request->is_write = false;
        else if (word_length == 5 && !memcmp(word, "WRITE", 5)) request->is_write = true;
        else return false;
        for (digits = p; *p >= '0' && *p <= '9'; p++) cycle = cycle * 10 + (uint64_t)(*p - '0');
        if (p == digits || p - digits > 19) return false; /* 19 digits cannot overflow */
        while (is_blank(*p)) p++;
        if (*p) return false;
    }
    request->address = address;
    request->cycle = cycle;
    *format = seen;
    return true;
}

/* Any line, token by token, naming what is wrong. */
__attribute__((noinline)) /* keeps trace_parse_line's frame small for the common shapes */
static int parse_any_line(const char *line, trace_format *format, trace_request *request, char *reason,
                          size_t reason_size)
{
    char tokens[4][64];
    int count = 0;
    const char *p = line;
    while (*p) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') break;
        if (count == 4) {
            snprintf(reason, reason_size, "too many fields");
            return -1;
        }
        size_t n = 0;
        while (*p && !isspace((unsigned char)*p)) {
            if (n + 1 >= sizeof tokens[0]) {
                snprintf(reason, reason_size, "field too long");
                return -1;
            }
            tokens[count][n++] = *p++;
        }
        tokens[count++][n] = '\0';
    }
    if (count == 0) return 0;
    trace_format seen = count == 3 ? TRACE_FORMAT_DRAMSIM3 : count == 2 ? TRACE_FORMAT_RAMULATOR : TRACE_FORMAT_AUTO;
    if (seen == TRACE_FORMAT_AUTO || (*format != TRACE_FORMAT_AUTO && *format != seen)) {
        snprintf(reason, reason_size, "expected %s",
                 *format == TRACE_FORMAT_RAMULATOR ? "'0xADDR R|W' (Ramulator format)"
                 : *format == TRACE_FORMAT_DRAMSIM3 ? "'0xADDR READ|WRITE CYCLE' (DRAMsim3 format)"
                                                    : "'0xADDR READ|WRITE CYCLE' or '0xADDR R|W'");
        return -1;
    }
    if (parse_address(tokens[0], &request->address)) {
        snprintf(reason, reason_size, "bad address '%s' (expected hexadecimal 0x...)", tokens[0]);
        return -1;
    }
    const char *read_word = seen == TRACE_FORMAT_DRAMSIM3 ? "READ" : "R";
    const char *write_word = seen == TRACE_FORMAT_DRAMSIM3 ? "WRITE" : "W";
    if (strcmp(tokens[1], read_word) == 0) request->is_write = false;
    else if (strcmp(tokens[1], write_word) == 0) request->is_write = true;
    else {
        snprintf(reason, reason_size, "bad command '%s' (expected %s or %s)", tokens[1], read_word, write_word);
        return -1;
    }
    request->cycle = 0;
    if (seen == TRACE_FORMAT_DRAMSIM3) {
        errno = 0;
        char *end;
        unsigned long long cycle = strtoull(tokens[2], &end, 10);
        if (errno || *end || !isdigit((unsigned char)tokens[2][0])) {
            snprintf(reason, reason_size, "bad cycle '%s' (expected a decimal number)", tokens[2]);
            return -1;
        }
        request->cycle = cycle;
    }
    *format = seen;
    return 1;
}

int trace_parse_line(const char *line, trace_format *format, trace_request *request, char *reason, size_t reason_size)
{
    if (parse_common_line(line, format, request)) return 1;
    return parse_any_line(line, format, request, reason, reason_size);
}

#define TRACE_CHUNK (1u << 20)
/* Far beyond any request line or comment; a longer one is not a trace (a
 * binary file, /dev/zero), refused before memory runs out. */
#define TRACE_MAX_LINE (64u << 10)

/* The next line of the trace, its newline replaced by the end of the string;
 * NULL at the end of the file, on a read error or on a line longer than
 * TRACE_MAX_LINE (line_too_long). */
static char *next_line(trace_reader *t)
{
    for (;;) {
        char *start = t->buffer + t->buffer_start;
        size_t left = t->buffer_end - t->buffer_start;
        char *newline = memchr(start, '\n', left);
        if (newline) {
            *newline = '\0';
            t->buffer_start = (size_t)(newline + 1 - t->buffer);
            return start;
        }
        if (t->buffer_at_end) { /* a last line without a newline */
            if (!left) return NULL;
            t->buffer[t->buffer_end] = '\0';
            t->buffer_start = t->buffer_end;
            return start;
        }
        if (left > TRACE_MAX_LINE) {
            t->line_too_long = true;
            return NULL;
        }
        memmove(t->buffer, start, left); /* keep the partial line, read more after it */
        t->buffer_start = 0;
        t->buffer_end = left;
        if (t->buffer_capacity - 1 - left == 0) { /* sized to the file, which grew since */
            char *grown = realloc(t->buffer, TRACE_CHUNK);
            if (!grown) return NULL;
            t->buffer = grown;
            t->buffer_capacity = TRACE_CHUNK;
        }
        size_t n = fread(t->buffer + left, 1, t->buffer_capacity - 1 - left, t->file);
        t->buffer_end += n;
        if (!n) {
            if (ferror(t->file)) return NULL;
            t->buffer_at_end = true;
        }
    }
}

/* Reads the next request line; returns 1, 0 at end of file, -1 on error
 * (reported through error). */
static int read_request(trace_reader *t, trace_request *request, char *error, size_t error_size)
{
    for (;;) {
        const char *line = next_line(t);
        if (!line) {
            if (t->line_too_long) {
                snprintf(error, error_size, "%s:%" PRIu64 ": line longer than %u bytes (not a trace file?)", t->path,
                         t->line_number + 1, TRACE_MAX_LINE);
                return -1;
            }
            if (ferror(t->file) || !t->buffer_at_end) {
                snprintf(error, error_size, "%s: read error: %s", t->path, strerror(errno));
                return -1;
            }
            return 0;
        }
        t->line_number++;
        char reason[160];
        int result = trace_parse_line(line, &t->format, request, reason, sizeof reason);
        if (result < 0) {
            snprintf(error, error_size, "%s:%" PRIu64 ": %s", t->path, t->line_number, reason);
            return -1;
        }
        if (result > 0 && request->cycle > t->max_cycle) {
            snprintf(error, error_size, "%s:%" PRIu64 ": cycle %" PRIu64 " is beyond max_cycle %" PRIu64
                     " (a corrupt trace? a later cycle would overflow the clock or idle for hours)",
                     t->path, t->line_number, request->cycle, t->max_cycle);
            return -1;
        }
        if (result > 0) return 1;
    }
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Makes the next synthetic request. */
__attribute__((noinline)) /* keeps advance, inline once per replayed request, small */
static void advance_synthetic(trace_player *t)
{
    uint64_t size = (uint64_t)t->params.request_size;
    uint64_t lines = (uint64_t)t->params.address_range / size;
    if (!lines) lines = 1;
    uint64_t line = !strcmp(t->params.synthetic_pattern, "stream") ? t->issued % lines : next_random(&t->random_state) % lines;
    t->next.address = (uint64_t)t->params.address_base + line * size;
    t->next.is_write = next_random(&t->random_state) % 100 >= (uint64_t)t->params.read_percent;
    t->next.cycle = 0;
}

/* Loads the next request into t->next; false when there is none. */
static inline bool advance(trace_player *t)
{
    t->have_next = false;
    if (t->issued >= t->total_requests) return false;
    if (t->params.trace[0]) {
        uint64_t i = t->issued;
        t->next = (trace_request){.address = t->trace.addresses[i], .is_write = (t->trace.writes[i / 64] >> (i % 64)) & 1,
                                  .cycle = t->trace.cycles ? t->trace.cycles[i] : 0};
    } else {
        advance_synthetic(t);
    }
    return t->have_next = true;
}

static void trace_player_destroy(void *core)
{
    trace_player *t = core;
    sparse_memory_destroy(t->shadow);
    free(t->undo);
    free(t->slots);
    free(t->free_slots);
    free(t->trace.addresses);
    free(t->trace.cycles);
    free(t->trace.writes);
    free(t->params.trace);
    free(t->params.format);
    free(t->params.synthetic_pattern);
    free(t);
}

/* Appends a request; false when out of memory. The format is fixed by the
 * first request, so cycles are kept for all requests or for none. */
static bool append_request(parsed_trace *trace, const trace_request *request, trace_format format)
{
    if (trace->count == trace->capacity) {
        uint64_t capacity = trace->capacity ? trace->capacity * 2 : 4096; /* a multiple of 64 */
        uint64_t *addresses = realloc(trace->addresses, capacity * sizeof *addresses);
        if (addresses) trace->addresses = addresses;
        uint64_t *writes = realloc(trace->writes, capacity / 64 * sizeof *writes);
        if (writes) trace->writes = writes;
        uint64_t *cycles = format == TRACE_FORMAT_DRAMSIM3 ? realloc(trace->cycles, capacity * sizeof *cycles) : NULL;
        if (cycles) trace->cycles = cycles;
        if (!addresses || !writes || (format == TRACE_FORMAT_DRAMSIM3 && !cycles)) return false;
        trace->capacity = capacity;
    }
    uint64_t i = trace->count++;
    trace->addresses[i] = request->address;
    uint64_t bit = 1ull << (i % 64);
    if (i % 64 == 0) trace->writes[i / 64] = 0;
    if (request->is_write) trace->writes[i / 64] |= bit;
    if (trace->cycles) trace->cycles[i] = request->cycle;
    return true;
}

/* Reads and parses the whole trace at creation, so that a malformed line is
 * reported before the run starts and the replay parses nothing. */
static bool load_trace(trace_player *t, trace_format format, char *error, size_t error_size)
{
    trace_reader reader = {.path = t->params.trace, .format = format, .max_cycle = (uint64_t)t->params.max_cycle,
                           .buffer_capacity = TRACE_CHUNK};
    /* Opened without blocking: a FIFO that nobody writes would otherwise hang
     * the run before it starts; it now reads as empty. Reads block again after. */
    int fd = open(reader.path, O_RDONLY | O_NONBLOCK);
    if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        close(fd);
        fd = -1;
    }
    reader.file = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!reader.file && fd >= 0) close(fd);
    if (!reader.file) {
        snprintf(error, error_size, "parameter 'trace': cannot open '%s': %s", reader.path, strerror(errno));
        return false;
    }
    /* A small trace (most test traces) needs no more than itself and a byte. */
    struct stat info;
    if (fstat(fileno(reader.file), &info) == 0 && S_ISREG(info.st_mode) && (uint64_t)info.st_size + 2 < reader.buffer_capacity)
        reader.buffer_capacity = (size_t)info.st_size + 2;
    reader.buffer = malloc(reader.buffer_capacity);
    bool ok = reader.buffer != NULL;
    if (!ok) snprintf(error, error_size, "out of memory for the trace buffer");
    trace_request request;
    int result = 0;
    while (ok && (result = read_request(&reader, &request, error, error_size)) > 0) {
        ok = append_request(&t->trace, &request, reader.format);
        if (!ok) snprintf(error, error_size, "out of memory for the trace (%" PRIu64 " requests read)", t->trace.count);
    }
    fclose(reader.file);
    free(reader.buffer);
    t->total_requests = t->trace.count;
    return ok && result == 0;
}

static void *trace_player_create(const void *params, const simtx_env *env, char *error, size_t error_size)
{
    const trace_player_params *p = params;
    trace_player *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->params = *p;
    t->params.trace = strdup(p->trace);
    t->params.format = strdup(p->format);
    t->params.synthetic_pattern = strdup(p->synthetic_pattern);
    t->env = *env;
    t->random_state = env->seed;
    trace_format format = !strcmp(p->format, "dramsim3") ? TRACE_FORMAT_DRAMSIM3
                          : !strcmp(p->format, "ramulator") ? TRACE_FORMAT_RAMULATOR
                                                            : TRACE_FORMAT_AUTO;
    t->slots = calloc((size_t)p->max_outstanding, sizeof *t->slots);
    t->free_slots = calloc((size_t)p->max_outstanding, sizeof *t->free_slots);
    if (!t->slots || !t->free_slots) {
        snprintf(error, error_size, "out of memory for max_outstanding %" PRId64, p->max_outstanding);
        trace_player_destroy(t);
        return NULL;
    }
    for (unsigned i = 0; i < (unsigned)p->max_outstanding; i++) t->free_slots[t->free_count++] = (unsigned)p->max_outstanding - 1 - i;
    if (p->trace[0]) {
        if (!load_trace(t, format, error, error_size)) {
            trace_player_destroy(t);
            return NULL;
        }
    } else {
        t->total_requests = (uint64_t)p->synthetic_requests;
    }
    if (p->check_data) {
        t->shadow = sparse_memory_create();
        t->undo = calloc((size_t)p->max_outstanding, sizeof *t->undo);
        if (!t->shadow || !t->undo) {
            snprintf(error, error_size, "out of memory for check_data");
            trace_player_destroy(t);
            return NULL;
        }
    }
    simtx_msg_init(&t->outgoing, SIMTX_OP_READ, 0, (uint32_t)p->request_size);
    simtx_observer *o = env->observer;
    simtx_observe_counter(o, "reads", &t->stats.reads, "requests", "read requests completed");
    simtx_observe_counter(o, "writes", &t->stats.writes, "requests", "write requests completed");
    simtx_observe_counter(o, "bytes_read", &t->stats.bytes_read, "bytes", "bytes read");
    simtx_observe_counter(o, "bytes_written", &t->stats.bytes_written, "bytes", "bytes written");
    simtx_observe_counter(o, "error_responses", &t->stats.error_responses, "requests", "responses with an error status");
    simtx_observe_histogram(o, "read_latency", &t->stats.read_latency, "cycles", "issue to response of reads");
    simtx_observe_histogram(o, "write_latency", &t->stats.write_latency, "cycles", "issue to response of writes");
    simtx_observe_counter(o, "cycles", &t->stats.cycles, "cycles", "cycles from start to the last response");
    simtx_observe_real(o, "bytes_per_cycle", &t->stats.bytes_per_cycle, "bytes/cycle", "bandwidth achieved over the run");
    simtx_observe_level_probe(o, "outstanding", &t->probes.outstanding, 17, 0, "requests in flight");
    simtx_observe_probe(o, "completed", &t->probes.completed, 48, "requests completed so far");
    advance(t);
    return t;
}

/* Write data depends on the address and a running count, so that a read
 * returning stale or misplaced data is caught. */
static void fill_write_data(trace_player *t, simtx_msg *msg)
{
    uint64_t state = msg->address ^ (++t->write_sequence << 20) ^ t->env.seed;
    uint64_t words[SIMTX_MSG_MAX_DATA / 8];
    for (uint32_t i = 0; i < (msg->size + 7) / 8; i++) words[i] = next_random(&state);
    memcpy(msg->data, words, msg->size);
}

/* The byte range two requests share, as offsets into a; false when none. */
static bool overlap(const slot *a, const slot *b, uint32_t *first, uint32_t *end)
{
    uint64_t low = a->address > b->address ? a->address : b->address;
    uint64_t high_a = a->address + a->size, high_b = b->address + b->size;
    uint64_t high = high_a < high_b ? high_a : high_b;
    if (low >= high) return false;
    *first = (uint32_t)(low - a->address);
    *end = (uint32_t)(high - a->address);
    return true;
}

/* Adds delta to the in-flight write count of every line a write touches;
 * returns whether any of them had one before. */
static bool count_write_lines(trace_player *t, const slot *w, int delta)
{
    bool any = false;
    for (uint64_t line = w->address >> 6; line <= (w->address + w->size - 1) >> 6; line++) {
        uint32_t *count = &t->writes_on_line[line & 255];
        any |= *count != 0;
        *count = (uint32_t)((int64_t)*count + delta);
    }
    return any;
}

/* check_data: the shadow takes a write when it is issued (a later read sees
 * it, as the memory's will); what it held before is kept until the response. */
static void shadow_apply_write(trace_player *t, unsigned index, const uint8_t *data)
{
    const slot *w = &t->slots[index];
    shadow_undo *undo = &t->undo[index];
    sparse_memory_read(t->shadow, w->address, undo->before, w->size);
    memset(undo->next_writer, 0, w->size * sizeof undo->next_writer[0]);
    bool earlier_writes = count_write_lines(t, w, 1);
    for (unsigned i = 0; earlier_writes && i < (unsigned)t->params.max_outstanding; i++) {
        const slot *earlier = &t->slots[i];
        uint32_t first, end;
        if (i == index || !earlier->in_use || !earlier->is_write || !overlap(earlier, w, &first, &end)) continue;
        for (uint32_t b = first; b < end; b++)
            if (!t->undo[i].next_writer[b]) t->undo[i].next_writer[b] = w->sequence;
    }
    sparse_memory_write(t->shadow, w->address, data, w->size);
}

static slot *slot_of_write(trace_player *t, uint64_t sequence)
{
    for (unsigned i = 0; i < (unsigned)t->params.max_outstanding; i++)
        if (t->slots[i].in_use && t->slots[i].is_write && t->slots[i].sequence == sequence) return &t->slots[i];
    return NULL;
}

/* check_data: the memory refused a write, so it never happened. Each of its
 * bytes reverts to what it held before, in the shadow when no later write
 * covers it, else in what the next write over it recorded as before; reads
 * issued in between expect the old value too. */
static void shadow_undo_write(trace_player *t, unsigned index)
{
    const slot *w = &t->slots[index];
    const shadow_undo *undo = &t->undo[index];
    uint8_t current[SIMTX_MSG_MAX_DATA];
    sparse_memory_read(t->shadow, w->address, current, w->size);
    for (uint32_t b = 0; b < w->size; b++) {
        uint64_t next = undo->next_writer[b];
        uint64_t address = w->address + b;
        for (unsigned i = 0; i < (unsigned)t->params.max_outstanding; i++) {
            slot *other = &t->slots[i];
            if (i == index || !other->in_use || address < other->address || address >= other->address + other->size) continue;
            uint32_t offset = (uint32_t)(address - other->address);
            if (other->is_write && t->undo[i].next_writer[offset] == w->sequence) t->undo[i].next_writer[offset] = next;
            if (!other->is_write && other->sequence > w->sequence && (!next || other->sequence < next))
                other->expected[offset] = undo->before[b];
        }
        if (!next) current[b] = undo->before[b];
        else {
            slot *successor = slot_of_write(t, next);
            if (successor) t->undo[successor - t->slots].before[address - successor->address] = undo->before[b];
        }
    }
    sparse_memory_write(t->shadow, w->address, current, w->size);
}

static bool issue(trace_player *t, uint64_t now)
{
    simtx_msg *msg = &t->outgoing;
    if (!t->outgoing_built) {
        msg->op = t->next.is_write ? SIMTX_OP_WRITE : SIMTX_OP_READ;
        msg->address = t->next.address;
        if (t->next.is_write) fill_write_data(t, msg);
        t->outgoing_built = true;
    }
    unsigned index = t->free_slots[t->free_count - 1]; /* responses since a refusal may have pushed others */
    msg->id = index;
    if (!t->env.send(t->env.context, 0, msg)) return false;
    t->outgoing_built = false;
    t->free_count--;
    slot *s = &t->slots[index];
    s->in_use = true;
    s->is_write = t->next.is_write;
    s->issue_cycle = now;
    s->sequence = ++t->sequence;
    s->address = msg->address;
    s->size = msg->size;
    if (t->shadow) {
        if (s->is_write) shadow_apply_write(t, index, msg->data);
        else sparse_memory_read(t->shadow, msg->address, s->expected, msg->size);
    }
    t->issued++;
    t->probes.outstanding++;
    return true;
}

static uint64_t trace_player_cycle(void *core, uint64_t now)
{
    trace_player *t = core;
    if (t->have_next && !t->port_blocked && t->free_count && t->next.cycle <= now) {
        if (issue(t, now)) {
            advance(t);
            /* Held by the receiver: port_free() follows when it takes it. */
            if (t->env.can_send && !t->env.can_send(t->env.context, 0)) t->port_blocked = true;
        } else {
            t->port_blocked = true;
        }
    }
    if (!t->have_next || t->port_blocked || !t->free_count) return SIMTX_NEVER;
    return t->next.cycle > now ? t->next.cycle : now + 1;
}

static bool trace_player_finished(void *core)
{
    const trace_player *t = core;
    return !t->have_next && t->completed == t->issued;
}

static simtx_accept_result trace_player_accept(void *core, unsigned port, const simtx_msg *msg, uint64_t now)
{
    trace_player *t = core;
    (void)port;
    if (msg->id >= (uint64_t)t->params.max_outstanding || !t->slots[msg->id].in_use) {
        t->env.fail(t->env.context, "a response arrived for no request in flight");
        return SIMTX_ACCEPTED;
    }
    /* A response only matters to cycle() when it frees the first slot; the
     * last one still ticks the player, whose tick ends the run. */
    bool needs_tick = t->free_count == 0;
    slot *s = &t->slots[msg->id];
    uint64_t latency = now - s->issue_cycle;
    if (msg->status != SIMTX_STATUS_OK) t->stats.error_responses++;
    if (s->is_write && t->shadow) {
        if (msg->status != SIMTX_STATUS_OK) shadow_undo_write(t, (unsigned)msg->id);
        count_write_lines(t, s, -1);
    }
    if (s->is_write) {
        t->stats.writes++;
        t->stats.bytes_written += msg->size;
        simtx_histogram_add(&t->stats.write_latency, latency);
    } else {
        t->stats.reads++;
        t->stats.bytes_read += msg->size;
        simtx_histogram_add(&t->stats.read_latency, latency);
        if (t->shadow && msg->status == SIMTX_STATUS_OK && memcmp(s->expected, msg->data, msg->size) != 0) {
            char error[160];
            snprintf(error, sizeof error, "read of 0x%" PRIx64 " returned data other than the last written", msg->address);
            t->env.fail(t->env.context, error);
        }
    }
    s->in_use = false;
    t->free_slots[t->free_count++] = (unsigned)msg->id;
    t->completed++;
    t->probes.outstanding--;
    t->probes.completed = t->completed;
    t->stats.cycles = now;
    needs_tick |= trace_player_finished(t);
    return needs_tick ? SIMTX_ACCEPTED : SIMTX_ACCEPTED_NO_TICK;
}

static void trace_player_port_free(void *core, unsigned port)
{
    (void)port;
    ((trace_player *)core)->port_blocked = false;
}

static double trace_player_progress(void *core)
{
    const trace_player *t = core;
    return t->total_requests ? (double)t->completed / (double)t->total_requests : 1.0;
}

static void trace_player_describe_pending(void *core, char *text, size_t size)
{
    const trace_player *t = core;
    uint64_t in_flight = t->issued - t->completed;
    if (!in_flight && !t->have_next) return;
    int length = snprintf(text, size, "%llu of %llu requests in flight", (unsigned long long)in_flight,
                          (unsigned long long)t->total_requests);
    if (t->have_next && length >= 0 && (size_t)length < size)
        snprintf(text + length, size - (size_t)length, "; next a %s of 0x%llx at cycle %llu or later%s", t->next.is_write ? "write" : "read",
                 (unsigned long long)t->next.address, (unsigned long long)t->next.cycle, t->port_blocked ? " (its port is busy)" : "");
}

static void trace_player_finish(void *core, uint64_t now)
{
    trace_player *t = core;
    (void)now;
    t->stats.bytes_per_cycle =
        t->stats.cycles ? (double)(t->stats.bytes_read + t->stats.bytes_written) / (double)t->stats.cycles : 0.0;
}

const simtx_block_info trace_player_block_info = {
    .name = "trace_player",
    .summary = "replays DRAMsim3 or Ramulator memory traces, or synthetic traffic, with bounded outstanding requests",
    .params = &trace_player_param_table,
    .sockets = trace_player_sockets,
    .socket_count = 1,
    .create = trace_player_create,
    .destroy = trace_player_destroy,
    .accept = trace_player_accept,
    .cycle = trace_player_cycle,
    .port_free = trace_player_port_free,
    .progress = trace_player_progress,
    .finished = trace_player_finished,
    .finish = trace_player_finish,
    .describe_pending = trace_player_describe_pending,
};
