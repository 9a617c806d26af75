#include "dram_address_map.h"

#include "partition_interleave.h"

#include <stdio.h>
#include <string.h>

static bool is_power_of_two(uint64_t value) { return value && !(value & (value - 1)); }

static unsigned log2_exact(uint64_t value)
{
    unsigned bits = 0;
    while ((1ull << bits) < value) bits++;
    return bits;
}

static const char field_letters[] = "RGBCS"; /* in dram_field order */
static const char *const field_names[DRAM_FIELD_COUNT] = {"row", "bank group", "bank", "column", "byte"};

static bool check_geometry(const dram_geometry *g, char *error, size_t error_size)
{
    struct {
        const char *name;
        uint64_t value;
    } powers[] = {{"banks", g->banks}, {"bank_groups", g->bank_groups}, {"rows", g->rows},
                  {"subarrays", g->subarrays}, {"row_bytes", g->row_bytes}, {"burst bytes (bus_bytes * burst_length)", g->burst_bytes}};
    for (size_t i = 0; i < sizeof powers / sizeof powers[0]; i++) {
        if (!is_power_of_two(powers[i].value)) {
            snprintf(error, error_size, "parameter '%s' (%llu) must be a power of two", powers[i].name,
                     (unsigned long long)powers[i].value);
            return false;
        }
    }
    if (g->bank_groups > g->banks) {
        snprintf(error, error_size, "parameter 'bank_groups' (%u) exceeds 'banks' (%u)", g->bank_groups, g->banks);
        return false;
    }
    if (g->subarrays > g->rows) {
        snprintf(error, error_size, "parameter 'subarrays' (%u) exceeds 'rows' (%u)", g->subarrays, g->rows);
        return false;
    }
    if (g->burst_bytes > g->row_bytes) {
        snprintf(error, error_size, "parameter 'row_bytes' (%u) is smaller than one burst (%u bytes)", g->row_bytes,
                 g->burst_bytes);
        return false;
    }
    return true;
}

/* The fields' order in a packed decode, from bit 0 up. */
static const dram_field packed_order[DRAM_FIELD_COUNT] = {DRAM_FIELD_BYTE, DRAM_FIELD_COLUMN, DRAM_FIELD_BANK,
                                                          DRAM_FIELD_GROUP, DRAM_FIELD_ROW};

/* Every field's value packed in one word, from the runs. */
static uint64_t packed_fields(const dram_address_map *map, uint64_t address)
{
    uint64_t packed = 0;
    for (unsigned i = 0; i < map->run_start[DRAM_FIELD_COUNT]; i++) {
        const dram_bit_run *run = &map->runs[i];
        packed |= ((address >> run->address_shift) & run->mask) << (run->value_shift + map->packed_shift[run->field]);
    }
    return packed;
}

/* The byte tables: the fields' widths add up to log2 of the device's bytes,
 * at most 54 bits, so that they pack into one word. */
static void fill_byte_fields(dram_address_map *map)
{
    unsigned shift = 0;
    for (unsigned i = 0; i < DRAM_FIELD_COUNT; i++) {
        dram_field field = packed_order[i];
        map->packed_shift[field] = shift;
        map->packed_mask[field] = (1ull << map->widths[field]) - 1;
        shift += map->widths[field];
    }
    map->packed_bank_mask = (1ull << (map->widths[DRAM_FIELD_BANK] + map->widths[DRAM_FIELD_GROUP])) - 1;
    for (unsigned byte = 0; byte < 8; byte++)
        for (unsigned value = 0; value < 256; value++)
            map->byte_fields[byte][value] = packed_fields(map, (uint64_t)value << (8 * byte));
}

bool dram_address_map_parse(const char *text, const dram_geometry *geometry, unsigned minimum_contiguous_bytes,
                            dram_address_map *map, char *error, size_t error_size)
{
    memset(map, 0, sizeof *map);
    map->geometry = *geometry;
    if (!check_geometry(geometry, error, error_size)) return false;
    char bits[65];
    unsigned length = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '.' || *p == '_') continue;
        char c = *p;
        if (!strchr("RGBCSX0", c)) {
            snprintf(error, error_size,
                     "parameter 'address_map': unexpected character '%c' at position %u (use R, G, B, C, S, X or 0)", c,
                     (unsigned)(p - text));
            return false;
        }
        if (length == 64) {
            snprintf(error, error_size, "parameter 'address_map' has more than 64 bit positions");
            return false;
        }
        bits[length++] = c;
    }
    if (length == 0) {
        snprintf(error, error_size, "parameter 'address_map' is empty");
        return false;
    }
    map->length = length;
    map->decoded_bytes = (length + 7) / 8;
    uint8_t positions[DRAM_FIELD_COUNT][64]; /* each field's address bits, most significant first */
    for (unsigned i = 0; i < length; i++) {
        unsigned position = length - 1 - i; /* leftmost character is the highest bit */
        char c = bits[i];
        if (c == 'X' || c == '0') {
            map->undecoded_mask |= 1ull << position;
            continue;
        }
        dram_field field = (dram_field)(strchr(field_letters, c) - field_letters);
        positions[field][map->widths[field]++] = (uint8_t)position;
    }
    unsigned run_count = 0;
    for (unsigned f = 0; f < DRAM_FIELD_COUNT; f++) {
        unsigned width = map->widths[f];
        map->run_start[f] = run_count;
        for (unsigned first = 0, last; first < width; first = last + 1) {
            for (last = first; last + 1 < width && positions[f][last + 1] + 1 == positions[f][last];) last++;
            map->runs[run_count++] = (dram_bit_run){
                .mask = (2ull << (last - first)) - 1, /* last - first + 1 bits, up to 64 */
                .field = (uint8_t)f, .address_shift = positions[f][last], .value_shift = (uint8_t)(width - 1 - last)};
        }
    }
    map->run_start[DRAM_FIELD_COUNT] = run_count;
    unsigned needed[DRAM_FIELD_COUNT] = {
        log2_exact(geometry->rows), log2_exact(geometry->bank_groups), log2_exact(geometry->banks / geometry->bank_groups),
        log2_exact(geometry->row_bytes / geometry->burst_bytes), log2_exact(geometry->burst_bytes)};
    const char *reason[DRAM_FIELD_COUNT] = {"'rows'", "'bank_groups'", "'banks' / 'bank_groups'",
                                            "'row_bytes' / burst bytes", "burst bytes (bus_bytes * burst_length)"};
    for (unsigned f = 0; f < DRAM_FIELD_COUNT; f++) {
        if (map->widths[f] != needed[f]) {
            snprintf(error, error_size, "parameter 'address_map' has %u %s bits (%c) but %s needs %u", map->widths[f],
                     field_names[f], field_letters[f], reason[f], needed[f]);
            return false;
        }
    }
    unsigned contiguous_bits = log2_exact(minimum_contiguous_bytes);
    for (unsigned position = 0; position < contiguous_bits && position < length; position++) {
        char c = bits[length - 1 - position];
        if (c != 'C' && c != 'S') {
            snprintf(error, error_size,
                     "parameter 'address_map': bit %u is '%c' but the lowest %u bits must be C or S so that a %u-byte "
                     "request stays within one row",
                     position, c, contiguous_bits, minimum_contiguous_bytes);
            return false;
        }
    }
    fill_byte_fields(map);
    map->rows_per_subarray = geometry->rows / geometry->subarrays;
    map->partition_count = 1;
    map->partition_interleave = 1; /* unused with one partition */
    return true;
}

bool dram_address_map_set_partitions(dram_address_map *map, uint64_t count, uint64_t interleave,
                                     unsigned minimum_contiguous_bytes, char *error, size_t error_size)
{
    uint64_t smallest = map->geometry.burst_bytes > minimum_contiguous_bytes ? map->geometry.burst_bytes : minimum_contiguous_bytes;
    if (!count) {
        snprintf(error, error_size, "parameter 'partition_count' must be at least 1");
        return false;
    }
    if (!is_power_of_two(interleave) || interleave < smallest) {
        snprintf(error, error_size,
                 "parameter 'partition_interleave' (%llu) must be a power of two of at least %llu bytes (a burst and "
                 "a %u-byte request must stay within one partition chunk)",
                 (unsigned long long)interleave, (unsigned long long)smallest, minimum_contiguous_bytes);
        return false;
    }
    if (count > UINT64_MAX / interleave) {
        snprintf(error, error_size, "parameters 'partition_count' x 'partition_interleave' overflow 64 bits");
        return false;
    }
    map->partition_count = count;
    map->partition_interleave = interleave;
    map->partition_interleave_shift = log2_exact(interleave);
    return true;
}

static uint64_t partition_of(const dram_address_map *map, uint64_t address)
{
    return partition_of_address(address, map->partition_interleave, map->partition_count);
}

/* The full address of a local one in the partition of template_address. */
static uint64_t full_address(const dram_address_map *map, uint64_t local, uint64_t template_address)
{
    if (map->partition_count == 1) return local;
    return partition_full_address(local, partition_of(map, template_address), map->partition_interleave,
                                  map->partition_count);
}

static uint64_t scatter(const dram_address_map *map, dram_field field, unsigned value)
{
    uint64_t address = 0;
    for (unsigned i = map->run_start[field]; i < map->run_start[field + 1]; i++) {
        const dram_bit_run *run = &map->runs[i];
        address |= (((uint64_t)value >> run->value_shift) & run->mask) << run->address_shift;
    }
    return address;
}

uint64_t dram_address_compose(const dram_address_map *map, const dram_location *location, uint64_t template_address)
{
    unsigned banks_per_group = map->geometry.banks / map->geometry.bank_groups;
    uint64_t local = (dram_partition_local_address(map, template_address) & map->undecoded_mask) |
                     scatter(map, DRAM_FIELD_ROW, location->row) |
                     scatter(map, DRAM_FIELD_GROUP, location->bank / banks_per_group) |
                     scatter(map, DRAM_FIELD_BANK, location->bank % banks_per_group) |
                     scatter(map, DRAM_FIELD_COLUMN, location->column) | scatter(map, DRAM_FIELD_BYTE, location->byte);
    return full_address(map, local, template_address);
}

unsigned dram_subarray_of_row(const dram_address_map *map, unsigned row) { return row / map->rows_per_subarray; }

bool dram_same_subarray(const dram_address_map *map, uint64_t address_a, uint64_t address_b)
{
    if (!dram_address_in_range(map, address_a) || !dram_address_in_range(map, address_b)) return false;
    if (partition_of(map, address_a) != partition_of(map, address_b) ||
        (dram_partition_local_address(map, address_a) & map->undecoded_mask) !=
            (dram_partition_local_address(map, address_b) & map->undecoded_mask))
        return false;
    dram_location a = dram_address_decode(map, address_a), b = dram_address_decode(map, address_b);
    return a.bank == b.bank && dram_subarray_of_row(map, a.row) == dram_subarray_of_row(map, b.row);
}

uint64_t dram_subarray_row_address(const dram_address_map *map, uint64_t address, unsigned index)
{
    dram_location l = dram_address_decode(map, address);
    l.row = dram_subarray_of_row(map, l.row) * map->rows_per_subarray + index % map->rows_per_subarray;
    l.column = 0;
    l.byte = 0;
    return dram_address_compose(map, &l, address);
}
