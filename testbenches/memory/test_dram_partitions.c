/* Partition-address compaction of the dram_controller (partition_count,
 * partition_interleave): the local address formula, decoding and composing
 * full addresses, range, subarrays, configuration errors, and a stream of one
 * partition staying in few rows, with the timing checker on. */
#include "dram_test_env.h"
#include "test_support.h"

/* A GTX480 partition: two x32 chips in lock step, 6 partitions x 256 B. */
static const char *const gtx480_partition[] = {
    "bus_bytes", "8", "row_bytes", "4096", "address_map", "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS",
    "partition_count", "6", "partition_interleave", "256", "check_timing", "true", NULL};

enum { PARTITIONS = 6, INTERLEAVE = 256 };

/* The full address of byte `local` of partition `partition`. */
static uint64_t full_address(uint64_t local, unsigned partition)
{
    return local / INTERLEAVE * INTERLEAVE * PARTITIONS + partition * INTERLEAVE + local % INTERLEAVE;
}

static void test_local_addresses(void)
{
    test_env t;
    char error[256];
    if (!CHECK(test_create(&t, &dram_controller_block_info, gtx480_partition, error, sizeof error))) return;
    const dram_address_map *map = dram_controller_address_map(t.core);
    CHECK_EQUAL(dram_partition_local_address(map, 0x0), 0x0);
    CHECK_EQUAL(dram_partition_local_address(map, 3 * 256 + 0x45), 0x45);
    CHECK_EQUAL(dram_partition_local_address(map, 6 * 256 + 5 * 256 + 0xff), 0x1ff);
    CHECK_EQUAL(dram_partition_local_address(map, 0x10100000), 0x10100000 / 1536 * 256 + 0x10100000 % 256);
    /* Decoding a full address is decoding its local address; composing a
     * location goes back to the full address in the template's partition. */
    dram_address_map plain; /* the same map without compaction */
    CHECK(dram_address_map_parse("RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS", &map->geometry, 128, &plain, error, sizeof error));
    uint64_t state = 99;
    bool round_trip = true, same_as_local = true;
    for (unsigned i = 0; i < 2000; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t local = (state >> 20) & ((1ull << 28) - 1);
        unsigned partition = (unsigned)(state >> 50) % PARTITIONS;
        uint64_t address = full_address(local, partition);
        dram_location l = dram_address_decode(map, address);
        round_trip &= dram_address_compose(map, &l, full_address(0, partition)) == address &&
                      dram_address_in_range(map, address);
        dram_location direct = dram_address_decode(&plain, local);
        same_as_local &= direct.bank == l.bank && direct.row == l.row && direct.column == l.column && direct.byte == l.byte;
    }
    CHECK(round_trip);
    CHECK(same_as_local);
    /* Consecutive chunks of one partition are consecutive local bytes: the
     * map puts the next 256 bytes in the next bank group, same row. */
    dram_location first = dram_address_decode(map, full_address(0x00, 2));
    dram_location next = dram_address_decode(map, full_address(0x100, 2));
    CHECK_EQUAL(first.row, next.row);
    CHECK_EQUAL(next.group, first.group + 1);
    CHECK_EQUAL(next.column, first.column);
    /* 256 MiB per partition: the map covers 28 local bits. */
    CHECK(dram_address_in_range(map, full_address((1ull << 28) - 1, 5)));
    CHECK(!dram_address_in_range(map, full_address(1ull << 28, 0)));
    /* RowClone FPM needs both rows in one partition. */
    uint64_t row = full_address(0, 1);
    CHECK(dram_same_subarray(map, row, dram_subarray_row_address(map, row, 5)));
    CHECK(!dram_same_subarray(map, row, full_address(0, 2)));
    test_destroy(&t);
}

static void expect_error(const char *count, const char *interleave, const char *part)
{
    test_env t;
    char error[512] = "";
    const char *const overrides[] = {"bus_bytes", "8", "row_bytes", "4096", "address_map", "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS",
                                     "partition_count", count, "partition_interleave", interleave, NULL};
    void *core = test_create(&t, &dram_controller_block_info, overrides, error, sizeof error);
    CHECK(core == NULL);
    if (!CHECK_CONTAINS(error, part)) fprintf(stderr, "  for count %s, interleave %s\n", count, interleave);
    if (core) test_destroy(&t);
}

static void test_configuration_errors(void)
{
    expect_error("6", "384", "'partition_interleave' (384) must be a power of two of at least 128 bytes");
    expect_error("6", "64", "'partition_interleave' (64) must be a power of two");
    expect_error("0", "256", "partition_count");
    /* An interleave below a 256-byte burst (a 32-byte bus). */
    test_env t;
    char error[512] = "";
    const char *const wide_bus[] = {"bus_bytes", "32", "address_map", "RRRRRRRRRRRR.BB.CC.GG.C.SSSSSSSS",
                                    "partition_count", "2", "partition_interleave", "128", NULL};
    CHECK(test_create(&t, &dram_controller_block_info, wide_bus, error, sizeof error) == NULL);
    CHECK_CONTAINS(error, "'partition_interleave' (128) must be a power of two of at least 256 bytes");
}

static void count_activate(void *context, const dram_command *command)
{
    if (command->kind == DRAM_CMD_ACT) ++*(unsigned *)context;
}

/* Streams 32 KB of one partition (192 KB of full addresses, 128-byte reads)
 * and returns the activates it took. */
enum { STREAM_READS = 256 };

static unsigned stream_activates(const char *partition_count)
{
    test_env t;
    char error[512] = "";
    const char *const overrides[] = {"bus_bytes", "8", "row_bytes", "4096", "address_map", "RRRRRRRRRRRR.BB.CCCC.GG.CC.SSSSSS",
                                     "partition_count", partition_count, "check_timing", "true", "refresh", "false", NULL};
    if (!CHECK(test_create(&t, &dram_controller_block_info, overrides, error, sizeof error))) return 0;
    unsigned activates = 0;
    dram_controller_set_command_listener(t.core, count_activate, &activates);
    unsigned sent = 0;
    while (sent < STREAM_READS) {
        simtx_msg read;
        simtx_msg_init(&read, SIMTX_OP_READ, full_address(sent * 128, 3), 128);
        read.id = sent;
        if (test_offer(&t, &read)) sent++;
        else test_run_until(&t, t.now + 1);
    }
    CHECK(test_run_for_responses(&t, STREAM_READS, 1000000));
    CHECK_EQUAL(t.failures, 0);
    for (unsigned i = 0; i < t.response_count; i++) CHECK_EQUAL(t.responses[i].status, SIMTX_STATUS_OK);
    test_destroy(&t);
    return activates;
}

static void test_partition_stream_rows(void)
{
    unsigned compacted = stream_activates("6"), full = stream_activates("1");
    /* 32 KB local: row 0 of 8 banks (4 groups x 2), one activate each.
     * Uncompacted, the partition's chunks spread over 3 rows (and use only
     * two of the four bank groups). */
    CHECK_EQUAL(compacted, 8);
    CHECK(full >= 3 * compacted);
}

int main(void)
{
    test_local_addresses();
    test_configuration_errors();
    test_partition_stream_rows();
    return simtx_test_summary();
}
