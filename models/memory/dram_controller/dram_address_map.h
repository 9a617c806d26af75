/* DRAM address mapping: splits a physical address into row, bank group,
 * bank, column and byte fields following a bit-field string, in the manner
 * of GPGPU-Sim's dram_addrdec option.
 *
 * The string lists address bits from the most significant (left) to bit 0
 * (right); '.' and '_' are separators and ignored. Each character names the
 * field that bit belongs to:
 *   R  row            G  bank group       B  bank within its group
 *   C  column (burst index within the row) S  byte within a burst
 *   X or 0  not decoded (e.g. channel-select bits consumed by the interconnect)
 * Within a field, the leftmost bit is the most significant. Address bits
 * above the string must be zero (the controller answers an address error).
 * Example (the default, one x32 GDDR5 device, 16 banks in 4 groups, 4096
 * rows of 2 KB, 32-byte bursts):
 *   RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSS
 * 128 contiguous bytes stay in one row; consecutive 128-byte blocks rotate
 * over the bank groups, so a stream can alternate groups at tCCDS.
 *
 * Partitions: a channel behind an interleaving over `count` memory partitions
 * (`interleave` bytes per partition chunk, chunk k going to partition
 * k % count) sees only every count-th chunk. As GPGPU-Sim's addrdec removes
 * the dramid bits, the map first compacts an address into the partition's
 * own address space,
 *   local = (address / (interleave * count)) * interleave + address % interleave,
 * and decodes that; without it a non-power-of-two count scatters a stream
 * over rows (row hits collapse). Every function below takes full addresses
 * and applies the compaction itself; composing goes back to the full address
 * of template_address's partition.
 *
 * Subarrays: a bank's rows are split into `subarrays` groups of consecutive
 * row numbers (row / rows_per_subarray), as in RowClone and SI-TM, so two
 * addresses share a subarray when they decode to the same bank and their
 * row numbers differ only in the low log2(rows_per_subarray) bits. */
#ifndef SIMTX_DRAM_ADDRESS_MAP_H
#define SIMTX_DRAM_ADDRESS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    DRAM_FIELD_ROW,
    DRAM_FIELD_GROUP,
    DRAM_FIELD_BANK,
    DRAM_FIELD_COLUMN,
    DRAM_FIELD_BYTE,
    DRAM_FIELD_COUNT
} dram_field;

/* The device geometry the map must agree with. */
typedef struct dram_geometry {
    unsigned banks, bank_groups, rows, subarrays;
    unsigned row_bytes, burst_bytes;
} dram_geometry;

/* A run of adjacent address bits of one field: the value bits selected by
 * mask << value_shift are the address bits mask << address_shift. Fields
 * are composed, and the decoding tables filled, a run at a time rather
 * than bit by bit (the default map has seven runs for 32 bits). */
typedef struct dram_bit_run {
    uint64_t mask;
    uint8_t field; /* dram_field */
    uint8_t address_shift, value_shift;
} dram_bit_run;

typedef struct dram_address_map {
    dram_geometry geometry;
    /* The runs field by field, in dram_field order: field f's are from
     * runs[run_start[f]] up to runs[run_start[f + 1]]. */
    dram_bit_run runs[64];
    unsigned run_start[DRAM_FIELD_COUNT + 1];
    unsigned widths[DRAM_FIELD_COUNT];
    /* Decoding a byte of the address at a time (one lookup per byte instead
     * of a shift and mask per run): byte i of the address with value v
     * holds the fields' bits byte_fields[i][v] (all zero above the string),
     * packed from bit 0 up as byte, column, bank, bank group and row, so
     * that the bank and its group read together as the bank's number. */
    uint64_t byte_fields[8][256];
    /* The bytes holding bits of the string (a 32-bit string's 4): the
     * others' entries are all zero, so decoding looks them up for nothing,
     * each lookup a host cache line of its own. */
    unsigned decoded_bytes;
    unsigned packed_shift[DRAM_FIELD_COUNT];
    uint64_t packed_mask[DRAM_FIELD_COUNT];
    uint64_t packed_bank_mask; /* the bank's and its group's bits, shifted as the bank's */
    unsigned length;          /* address bits the string covers */
    uint64_t undecoded_mask;  /* X/0 bits inside the string */
    unsigned rows_per_subarray;
    uint64_t partition_count;      /* 1: no compaction */
    uint64_t partition_interleave; /* bytes per partition chunk, a power of two */
    unsigned partition_interleave_shift; /* its log2 */
} dram_address_map;

typedef struct dram_location {
    unsigned bank;   /* group * banks_per_group + bank within group */
    unsigned group;
    unsigned row;
    unsigned column; /* burst index within the row */
    unsigned byte;   /* byte within the burst */
} dram_location;

/* Parses and validates text against the geometry. On failure writes a
 * message naming the parameter ('address_map', 'rows', ...) and returns
 * false. `minimum_contiguous_bytes`: the lowest log2 of it bits must be
 * column or byte bits, so that a request of that size stays in one row. */
bool dram_address_map_parse(const char *text, const dram_geometry *geometry, unsigned minimum_contiguous_bytes,
                            dram_address_map *map, char *error, size_t error_size);

/* Sets the partition compaction (parse leaves count 1: none). Refuses, with
 * a message naming 'partition_count' or 'partition_interleave', an
 * interleave that is not a power of two or is smaller than a burst or than
 * minimum_contiguous_bytes (a request of that size must stay in one chunk). */
bool dram_address_map_set_partitions(dram_address_map *map, uint64_t count, uint64_t interleave,
                                     unsigned minimum_contiguous_bytes, char *error, size_t error_size);
/* The address within its partition's own address space (the address itself
 * with one partition). Inline, as are the range test and decoding: they run
 * at every request's arrival. The interleave being a power of two, only the
 * chunk number is divided (by the count): partition_local_address's two
 * divisions by numbers unknown at compile time are one. */
static inline uint64_t dram_partition_local_address(const dram_address_map *map, uint64_t address)
{
    if (map->partition_count == 1) return address;
    unsigned shift = map->partition_interleave_shift;
    return (address >> shift) / map->partition_count << shift | (address & (map->partition_interleave - 1));
}

/* True when a partition-local address has no bits set above the string. */
static inline bool dram_local_address_in_range(const dram_address_map *map, uint64_t local)
{
    return map->length >= 64 || (local >> map->length) == 0;
}

/* True when the (partition-local) address has no bits set above the string. */
static inline bool dram_address_in_range(const dram_address_map *map, uint64_t address)
{
    return dram_local_address_in_range(map, dram_partition_local_address(map, address));
}

static inline unsigned dram_packed_field(const dram_address_map *map, uint64_t packed, dram_field field, uint64_t mask)
{
    return (unsigned)((packed >> map->packed_shift[field]) & mask);
}

/* Decodes a partition-local address (a caller testing its range too makes
 * it once). */
static inline dram_location dram_local_address_decode(const dram_address_map *map, uint64_t local)
{
    uint64_t packed = 0;
    /* From the highest decoded byte down, without a loop's count and test. */
    switch (map->decoded_bytes) {
    case 8: packed |= map->byte_fields[7][local >> 56]; __attribute__((fallthrough));
    case 7: packed |= map->byte_fields[6][(local >> 48) & 255]; __attribute__((fallthrough));
    case 6: packed |= map->byte_fields[5][(local >> 40) & 255]; __attribute__((fallthrough));
    case 5: packed |= map->byte_fields[4][(local >> 32) & 255]; __attribute__((fallthrough));
    case 4: packed |= map->byte_fields[3][(local >> 24) & 255]; __attribute__((fallthrough));
    case 3: packed |= map->byte_fields[2][(local >> 16) & 255]; __attribute__((fallthrough));
    case 2: packed |= map->byte_fields[1][(local >> 8) & 255]; __attribute__((fallthrough));
    default: packed |= map->byte_fields[0][local & 255]; /* a string has at least one bit */
    }
    const uint64_t *masks = map->packed_mask;
    dram_location l;
    l.group = dram_packed_field(map, packed, DRAM_FIELD_GROUP, masks[DRAM_FIELD_GROUP]);
    l.bank = dram_packed_field(map, packed, DRAM_FIELD_BANK, map->packed_bank_mask);
    l.row = dram_packed_field(map, packed, DRAM_FIELD_ROW, masks[DRAM_FIELD_ROW]);
    l.column = dram_packed_field(map, packed, DRAM_FIELD_COLUMN, masks[DRAM_FIELD_COLUMN]);
    l.byte = dram_packed_field(map, packed, DRAM_FIELD_BYTE, masks[DRAM_FIELD_BYTE]);
    return l;
}

static inline dram_location dram_address_decode(const dram_address_map *map, uint64_t address)
{
    return dram_local_address_decode(map, dram_partition_local_address(map, address));
}
/* The address of a location; undecoded (X) bits are taken from template_address. */
uint64_t dram_address_compose(const dram_address_map *map, const dram_location *location, uint64_t template_address);

unsigned dram_subarray_of_row(const dram_address_map *map, unsigned row);
/* True when both addresses decode to the same bank (and the same partition
 * and undecoded bits, i.e. the same channel) and to rows of the same subarray: a RowClone
 * Fast Parallel Mode copy between their rows is possible. */
bool dram_same_subarray(const dram_address_map *map, uint64_t address_a, uint64_t address_b);
/* The address of column 0 of the index-th row (0..rows_per_subarray-1) of
 * the subarray holding address: where to lay out versions of a row so that
 * they can be copied with FPM. */
uint64_t dram_subarray_row_address(const dram_address_map *map, uint64_t address, unsigned index);

#ifdef __cplusplus
}
#endif
#endif
