#include "tm_oracle.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sparse_memory.h"

struct tm_oracle {
    tm_oracle_memory_reader read_initial;
    void *context;
    sparse_memory *shadow; /* replayed values */
    sparse_memory *known;  /* 1 where shadow holds a byte (seeded or written) */
    tm_oracle_access *written; /* every committed write, for the final check */
    size_t written_count, written_capacity;
    uint64_t commits;
    bool failed;
    char error[256];
};

tm_oracle *tm_oracle_create(tm_oracle_memory_reader read_initial, void *context)
{
    tm_oracle *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->read_initial = read_initial;
    o->context = context;
    o->shadow = sparse_memory_create();
    o->known = sparse_memory_create();
    if (!o->shadow || !o->known) {
        tm_oracle_destroy(o);
        return NULL;
    }
    return o;
}

void tm_oracle_destroy(tm_oracle *o)
{
    if (!o) return;
    if (o->shadow) sparse_memory_destroy(o->shadow);
    if (o->known) sparse_memory_destroy(o->known);
    free(o->written);
    free(o);
}

/* The replay's value of one byte, seeding it from the initial image. */
static bool shadow_byte(tm_oracle *o, uint64_t address, uint8_t *value)
{
    uint8_t known = 0;
    sparse_memory_read(o->known, address, &known, 1);
    if (!known) {
        if (!o->read_initial || !o->read_initial(o->context, address, value, 1)) return false;
        sparse_memory_write(o->shadow, address, value, 1);
        known = 1;
        sparse_memory_write(o->known, address, &known, 1);
        return true;
    }
    sparse_memory_read(o->shadow, address, value, 1);
    return true;
}

static void violation(tm_oracle *o, const char *text)
{
    if (o->failed) return;
    o->failed = true;
    snprintf(o->error, sizeof o->error, "%s", text);
}

static bool valid_size(uint32_t size) { return size >= 1 && size <= 8; }

bool tm_oracle_commit(tm_oracle *o, uint64_t tx_id, const tm_oracle_access *reads, size_t read_count,
                      const tm_oracle_access *writes, size_t write_count)
{
    char text[256];
    o->commits++;
    for (size_t i = 0; i < read_count && !o->failed; i++) {
        const tm_oracle_access *r = &reads[i];
        if (!valid_size(r->size)) {
            snprintf(text, sizeof text, "transaction %" PRIu64 " (#%" PRIu64 " in commit order) read %u bytes at 0x%" PRIx64 ": sizes are 1 to 8",
                     tx_id, o->commits, r->size, r->address);
            violation(o, text);
            break;
        }
        uint64_t replayed = 0;
        for (uint32_t b = 0; b < r->size; b++) {
            uint8_t byte;
            if (!shadow_byte(o, r->address + b, &byte)) {
                snprintf(text, sizeof text, "transaction %" PRIu64 " read 0x%" PRIx64 ", which the initial image cannot supply",
                         tx_id, r->address + b);
                violation(o, text);
                return false;
            }
            replayed |= (uint64_t)byte << (8 * b);
        }
        uint64_t mask = r->size == 8 ? UINT64_MAX : ((UINT64_C(1) << (8 * r->size)) - 1);
        if ((r->value & mask) != replayed) {
            snprintf(text, sizeof text,
                     "transaction %" PRIu64 " (#%" PRIu64 " in commit order) read 0x%" PRIx64 " = 0x%" PRIx64
                     " but the serial replay has 0x%" PRIx64 " (a stale read: not serializable in commit order)",
                     tx_id, o->commits, r->address, r->value & mask, replayed);
            violation(o, text);
        }
    }
    for (size_t i = 0; i < write_count; i++) {
        const tm_oracle_access *w = &writes[i];
        if (!valid_size(w->size)) {
            snprintf(text, sizeof text, "transaction %" PRIu64 " wrote %u bytes at 0x%" PRIx64 ": sizes are 1 to 8", tx_id,
                     w->size, w->address);
            violation(o, text);
            continue;
        }
        uint8_t bytes[8], ones[8];
        for (uint32_t b = 0; b < w->size; b++) {
            bytes[b] = (uint8_t)(w->value >> (8 * b));
            ones[b] = 1;
        }
        sparse_memory_write(o->shadow, w->address, bytes, w->size);
        sparse_memory_write(o->known, w->address, ones, w->size);
        if (o->written_count == o->written_capacity) {
            size_t capacity = o->written_capacity ? o->written_capacity * 2 : 256;
            tm_oracle_access *grown = realloc(o->written, capacity * sizeof *grown);
            if (!grown) {
                violation(o, "out of memory recording writes");
                return false;
            }
            o->written = grown;
            o->written_capacity = capacity;
        }
        o->written[o->written_count++] = *w;
    }
    return !o->failed;
}

const char *tm_oracle_check_final(tm_oracle *o, tm_oracle_memory_reader read_final, void *context)
{
    for (size_t i = 0; i < o->written_count && !o->failed; i++) {
        const tm_oracle_access *w = &o->written[i];
        for (uint32_t b = 0; b < w->size; b++) {
            uint8_t expected, actual;
            sparse_memory_read(o->shadow, w->address + b, &expected, 1);
            if (!read_final(context, w->address + b, &actual, 1)) {
                char text[128];
                snprintf(text, sizeof text, "final memory at 0x%" PRIx64 " cannot be read", w->address + b);
                violation(o, text);
                break;
            }
            if (actual != expected) {
                char text[256];
                snprintf(text, sizeof text,
                         "final memory at 0x%" PRIx64 " holds 0x%02x but the serial replay of %" PRIu64
                         " transactions leaves 0x%02x (a lost or misordered write)",
                         w->address + b, actual, o->commits, expected);
                violation(o, text);
                break;
            }
        }
    }
    return o->failed ? o->error : NULL;
}

const char *tm_oracle_error(const tm_oracle *o) { return o->failed ? o->error : NULL; }

uint64_t tm_oracle_commit_count(const tm_oracle *o) { return o->commits; }
