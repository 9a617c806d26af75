/* The nvm_controller core driven from plain C as the shim drives it (woken
 * only when it asks, refused arrivals offered again after a room call):
 * WPQ acceptance is durability, back-pressure of a full WPQ, forwarding,
 * unloaded timing against the README's formulas, FR-FCFS order, and bad
 * parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_env.h"
#include "nvm_controller.h"
#include "test_support.h"

#define MAX_PENDING 256

/* A controller under test with its environment and a one-message port. */
typedef struct bench {
    fake_env fake;
    simtx_observer *observer;
    nvm_controller_params params;
    nvm_controller *nvm;
    uint64_t now, next_wake;
    bool room_called;
    uint64_t sent_cycle[FAKE_ENV_MAX_SENT];
    size_t cycles_recorded;
} bench;

static void on_room(void *context, unsigned port)
{
    (void)port;
    ((bench *)context)->room_called = true;
}

static bool bench_send(void *context, unsigned port, const simtx_msg *msg);

static bench *bench_create(const char *const *settings)
{
    bench *b = calloc(1, sizeof *b);
    b->observer = simtx_observer_create();
    fake_env_init(&b->fake, b->observer);
    b->fake.env.context = b;
    b->fake.env.send = bench_send;
    b->fake.env.room = on_room;
    fake_params(&nvm_controller_block_info, &b->params, settings);
    char error[256];
    b->nvm = nvm_controller_block_info.create(&b->params, &b->fake.env, error, sizeof error);
    if (!b->nvm) {
        fprintf(stderr, "create: %s\n", error);
        abort();
    }
    b->next_wake = SIMTX_NEVER;
    return b;
}

static bool bench_send(void *context, unsigned port, const simtx_msg *msg)
{
    bench *b = context;
    b->sent_cycle[b->fake.sent_count] = b->now;
    b->fake.sent[b->fake.sent_count] = *msg;
    b->fake.sent_port[b->fake.sent_count++] = port;
    return true;
}

static void bench_destroy(bench *b)
{
    nvm_controller_block_info.destroy(b->nvm);
    simtx_observer_destroy(b->observer);
    free(b);
}

static uint64_t stat(bench *b, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, name);
    if (!e || e->kind != SIMTX_STAT_COUNTER) {
        fprintf(stderr, "no counter %s\n", name);
        abort();
    }
    return *(const uint64_t *)e->value;
}

static const simtx_histogram *histogram(bench *b, const char *name)
{
    const simtx_stat_entry *e = simtx_observer_find_stat(b->observer, name);
    if (!e || e->kind != SIMTX_STAT_HISTOGRAM) abort();
    return e->value;
}

/* Runs the cycles the controller asks for, up to and including `until`. */
static void run_until(bench *b, uint64_t until)
{
    while (b->next_wake != SIMTX_NEVER && b->next_wake <= until) {
        b->now = b->next_wake;
        uint64_t next = nvm_controller_block_info.cycle(b->nvm, b->now);
        CHECK(next > b->now);
        b->next_wake = next;
    }
    if (b->now < until) b->now = until;
}

/* Runs until the controller asks for no more cycles; now stays at its last. */
static void run_all(bench *b)
{
    while (b->next_wake != SIMTX_NEVER) run_until(b, b->next_wake);
}

/* Offers a request at the current cycle; true when taken. */
static bool offer(bench *b, const simtx_msg *msg)
{
    simtx_accept_result r = nvm_controller_block_info.accept(b->nvm, 0, msg, b->now);
    if (r == SIMTX_BUSY) return false;
    if (b->next_wake > b->now + 1) b->next_wake = b->now + 1;
    return true;
}

static simtx_msg make_write(uint64_t id, uint64_t address, uint32_t size, uint8_t fill)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_WRITE, address, size);
    m.id = id;
    memset(m.data, fill, size);
    return m;
}

static simtx_msg make_read(uint64_t id, uint64_t address, uint32_t size)
{
    simtx_msg m;
    simtx_msg_init(&m, SIMTX_OP_READ, address, size);
    m.id = id;
    return m;
}

/* Index of the response to request `id`, or -1. */
static int response_of(const bench *b, uint64_t id)
{
    for (size_t i = 0; i < b->fake.sent_count; i++)
        if (b->fake.sent[i].id == id) return (int)i;
    return -1;
}

static uint64_t transfer(const bench *b, uint32_t size)
{
    return (size + (uint64_t)b->params.bus_bytes_per_cycle - 1) / (uint64_t)b->params.bus_bytes_per_cycle;
}

static void expect_create_error(const char *const *settings, const char *part)
{
    nvm_controller_params p;
    fake_params(&nvm_controller_block_info, &p, settings);
    fake_env fake;
    fake_env_init(&fake, NULL);
    char error[256] = "";
    void *core = nvm_controller_block_info.create(&p, &fake.env, error, sizeof error);
    CHECK(core == NULL);
    CHECK_CONTAINS(error, part);
    if (core) nvm_controller_block_info.destroy(core);
}

static void expect_range_error(const char *name, const char *text, const char *part)
{
    const simtx_param_spec *spec = simtx_param_find(nvm_controller_block_info.params, name);
    CHECK(spec != NULL);
    if (!spec) return;
    nvm_controller_params p;
    fake_params(&nvm_controller_block_info, &p, NULL);
    simtx_value value;
    char error[256] = "";
    bool ok = simtx_param_parse_text(spec, text, &value, error, sizeof error) &&
              simtx_param_assign(spec, &p, &value, error, sizeof error);
    CHECK(!ok);
    CHECK_CONTAINS(error, part);
}

static void test_bad_parameters(void)
{
    expect_create_error((const char *const[]){"wpq_entries=8", "write_drain_threshold=9", NULL},
                        "'write_drain_threshold' (9) exceeds 'wpq_entries' (8)");
    expect_create_error((const char *const[]){"bank_interleave=384", NULL}, "'bank_interleave' (384) must be a power of two");
    expect_create_error((const char *const[]){"partition_interleave=768", NULL}, "'partition_interleave' (768) must be a power of two");
    expect_create_error((const char *const[]){"partition_count=6", "partition=6", NULL}, "'partition' (6) must be below 'partition_count' (6)");
    expect_range_error("banks", "0", "banks");
    expect_range_error("wpq_entries", "0", "wpq_entries");
    expect_range_error("read_cycles", "0", "read_cycles");
}

/* The write is durable (in the durable image) as soon as it is
 * acknowledged, while the media does not have it yet; the media has it
 * write_cycles later and the WPQ is empty again. */
static void test_acceptance_is_durability(void)
{
    bench *b = bench_create(NULL);
    b->now = 10;
    simtx_msg w = make_write(1, 0x1000, 64, 0xab);
    CHECK(offer(b, &w));
    uint64_t ack = 10 + (uint64_t)b->params.wpq_latency;
    run_until(b, ack);
    int r = response_of(b, 1);
    CHECK(r >= 0);
    if (r >= 0) {
        CHECK_EQUAL(b->sent_cycle[r], ack);
        CHECK(b->fake.sent[r].is_response);
        CHECK_EQUAL(b->fake.sent[r].status, SIMTX_STATUS_OK);
    }
    uint8_t image[64], media[64], expected[64];
    memset(expected, 0xab, sizeof expected);
    nvm_controller_read_durable(b->nvm, 0x1000, image, sizeof image);
    nvm_controller_read_media(b->nvm, 0x1000, media, sizeof media);
    CHECK(memcmp(image, expected, sizeof image) == 0);
    CHECK(media[0] == 0 && media[63] == 0);
    CHECK_EQUAL(nvm_controller_wpq_occupancy(b->nvm), 1);
    /* The durable image is also what debug_access reads. */
    uint8_t debug[64];
    int forward = 0;
    CHECK_EQUAL(nvm_controller_block_info.debug_access(b->nvm, false, 0x1000, debug, sizeof debug, &forward), 64);
    CHECK(forward == -1 && memcmp(debug, expected, sizeof debug) == 0);
    run_all(b);
    nvm_controller_read_media(b->nvm, 0x1000, media, sizeof media);
    CHECK(memcmp(media, expected, sizeof media) == 0);
    CHECK_EQUAL(nvm_controller_wpq_occupancy(b->nvm), 0);
    CHECK_EQUAL(stat(b, "media_writes"), 1);
    CHECK_EQUAL(stat(b, "writes"), 1);
    bench_destroy(b);
}

/* Unloaded timing (README): a read answers 1 + read_cycles + transfer after
 * arrival; a write is acknowledged wpq_latency after arrival and held by the
 * media 1 + transfer + write_cycles after arrival. */
static void test_unloaded_timing(void)
{
    bench *b = bench_create(NULL);
    b->now = 100;
    simtx_msg rd = make_read(7, 0x2000, 128);
    CHECK(offer(b, &rd));
    run_all(b);
    int r = response_of(b, 7);
    CHECK(r >= 0);
    if (r >= 0) CHECK_EQUAL(b->sent_cycle[r], 100 + 1 + (uint64_t)b->params.read_cycles + transfer(b, 128));
    CHECK_EQUAL(stat(b, "media_reads"), 1);
    CHECK_EQUAL(histogram(b, "read_latency")->maximum, 1 + 192 + 4); /* the defaults: 160 ns at 1.2 GHz, 128 B over 32 B */

    b->now = 1000;
    simtx_msg wr = make_write(8, 0x3000, 32, 0x11);
    CHECK(offer(b, &wr));
    run_all(b);
    r = response_of(b, 8);
    CHECK(r >= 0);
    if (r >= 0) CHECK_EQUAL(b->sent_cycle[r], 1000 + (uint64_t)b->params.wpq_latency);
    const simtx_histogram *h = histogram(b, "write_media_latency");
    CHECK_EQUAL(h->count, 1);
    CHECK_EQUAL(h->maximum, 1 + transfer(b, 32) + (uint64_t)b->params.write_cycles);
    CHECK_EQUAL(h->maximum, 1 + 1 + 576);
    CHECK_EQUAL(histogram(b, "write_accept_latency")->maximum, (uint64_t)b->params.wpq_latency);
    bench_destroy(b);
}

/* A read the WPQ holds entirely is answered from it, without the media; a
 * read it holds partly gets the media's bytes with the WPQ's over them. */
static void test_forwarding(void)
{
    bench *b = bench_create(NULL);
    b->now = 5;
    simtx_msg old = make_write(1, 0x4000, 128, 0x22); /* reaches the media first */
    CHECK(offer(b, &old));
    run_all(b);
    b->now += 10;
    simtx_msg w = make_write(2, 0x4000, 16, 0x33);
    w.byte_enable[0] = 0xff; /* only the first 8 bytes */
    CHECK(offer(b, &w));
    b->now++;
    simtx_msg whole = make_read(3, 0x4000, 8);
    CHECK(offer(b, &whole));
    uint64_t asked = b->now;
    simtx_msg part = make_read(4, 0x4000, 32);
    CHECK(offer(b, &part));
    run_all(b);
    int r3 = response_of(b, 3), r4 = response_of(b, 4);
    CHECK(r3 >= 0 && r4 >= 0);
    CHECK_EQUAL(stat(b, "forwarded_reads"), 1);
    CHECK_EQUAL(stat(b, "media_reads"), 1);
    if (r3 >= 0) {
        CHECK_EQUAL(b->sent_cycle[r3], asked + (uint64_t)b->params.wpq_latency);
        for (int i = 0; i < 8; i++) CHECK_EQUAL(b->fake.sent[r3].data[i], 0x33);
    }
    if (r4 >= 0) {
        for (int i = 0; i < 8; i++) CHECK_EQUAL(b->fake.sent[r4].data[i], 0x33);
        for (int i = 8; i < 32; i++) CHECK_EQUAL(b->fake.sent[r4].data[i], 0x22);
    }
    /* A read that arrived before a write to its bytes does not see it. */
    b->now += 10;
    simtx_msg before = make_read(5, 0x4000, 4);
    CHECK(offer(b, &before));
    simtx_msg after = make_write(6, 0x4000, 4, 0x44);
    CHECK(offer(b, &after));
    run_all(b);
    int r5 = response_of(b, 5);
    CHECK(r5 >= 0);
    if (r5 >= 0) CHECK_EQUAL(b->fake.sent[r5].data[0], 0x33);
    uint8_t media[4];
    nvm_controller_read_media(b->nvm, 0x4000, media, 4);
    CHECK_EQUAL(media[0], 0x44); /* WPQ entries to the same bytes drain oldest first */
    bench_destroy(b);
}

/* With a small WPQ and writes all on one bank, the queue fills: writes are
 * refused (never lost or duplicated), offered again after a room call, and
 * every one reaches the media in order. */
static void test_backpressure(void)
{
    bench *b = bench_create((const char *const[]){"wpq_entries=4", "write_drain_threshold=4", NULL});
    enum { WRITES = 20 };
    unsigned next = 0;
    uint64_t bank_stride = 128 * 16; /* same bank, different blocks */
    while (next < WRITES) {
        simtx_msg w = make_write(100 + next, 0x10000 + next * bank_stride, 128, (uint8_t)(next + 1));
        if (offer(b, &w)) {
            next++;
            b->now++;
            continue;
        }
        /* Refused: as the shim, wait for the room call, then offer again. */
        CHECK_EQUAL(nvm_controller_wpq_occupancy(b->nvm), 4);
        b->room_called = false;
        while (!b->room_called && b->next_wake != SIMTX_NEVER) run_until(b, b->next_wake);
        CHECK(b->room_called);
        if (!b->room_called) break;
    }
    run_all(b);
    CHECK(stat(b, "wpq_full_stalls") > 0);
    CHECK(stat(b, "wpq_full_cycles") > 0);
    CHECK_EQUAL(stat(b, "writes"), WRITES);
    CHECK_EQUAL(stat(b, "media_writes"), WRITES);
    CHECK_EQUAL(b->fake.sent_count, WRITES);
    for (unsigned i = 0; i < WRITES; i++) {
        CHECK(response_of(b, 100 + i) >= 0);
        unsigned seen = 0;
        for (size_t k = 0; k < b->fake.sent_count; k++) seen += b->fake.sent[k].id == 100 + i;
        CHECK_EQUAL(seen, 1);
        uint8_t media[128];
        nvm_controller_read_media(b->nvm, 0x10000 + i * bank_stride, media, sizeof media);
        CHECK_EQUAL(media[0], i + 1);
        CHECK_EQUAL(media[127], i + 1);
    }
    /* One bank drains one write per transfer + write_cycles. */
    const simtx_histogram *h = histogram(b, "write_media_latency");
    CHECK(h->maximum >= 3 * (4 + (uint64_t)b->params.write_cycles));
    bench_destroy(b);
}

/* FR-FCFS: a younger read whose bank is free goes before an older one
 * waiting for its bank; reads go before older writes below the drain
 * threshold; at the threshold, writes first. */
static void test_fr_fcfs(void)
{
    bench *b = bench_create(NULL);
    b->now = 0;
    simtx_msg a = make_read(1, 0x0, 128);      /* bank 0 */
    simtx_msg c = make_read(2, 0x800, 128);    /* bank 0 again (16 banks x 128 B) */
    simtx_msg d = make_read(3, 0x80, 128);     /* bank 1 */
    CHECK(offer(b, &a) && offer(b, &c) && offer(b, &d));
    run_all(b);
    int ra = response_of(b, 1), rc = response_of(b, 2), rd = response_of(b, 3);
    CHECK(ra >= 0 && rc >= 0 && rd >= 0);
    if (ra >= 0 && rc >= 0 && rd >= 0) {
        CHECK(ra < rd && rd < rc);
        CHECK_EQUAL(b->sent_cycle[ra], 1 + 192 + 4);
        CHECK_EQUAL(b->sent_cycle[rd], 1 + 4 + 192 + 4); /* after a's transfer slot */
        CHECK_EQUAL(b->sent_cycle[rc], 1 + 192 + 192 + 4); /* when bank 0 is free again */
    }
    bench_destroy(b);

    /* An older write and a younger read on different banks, arriving
     * together: the read takes the first slot. */
    b = bench_create(NULL);
    simtx_msg w = make_write(10, 0x100, 128, 1); /* bank 2 */
    simtx_msg r = make_read(11, 0x180, 128);     /* bank 3 */
    CHECK(offer(b, &w) && offer(b, &r));
    run_all(b);
    int rr = response_of(b, 11);
    CHECK(rr >= 0);
    if (rr >= 0) CHECK_EQUAL(b->sent_cycle[rr], 1 + 192 + 4);
    CHECK_EQUAL(histogram(b, "write_media_latency")->maximum, 1 + 4 + 4 + 576);
    bench_destroy(b);

    /* With the drain threshold at one write, the write goes first. */
    b = bench_create((const char *const[]){"write_drain_threshold=1", NULL});
    CHECK(offer(b, &w) && offer(b, &r));
    run_all(b);
    rr = response_of(b, 11);
    CHECK(rr >= 0);
    if (rr >= 0) CHECK_EQUAL(b->sent_cycle[rr], 1 + 4 + 192 + 4);
    CHECK_EQUAL(histogram(b, "write_media_latency")->maximum, 1 + 4 + 576);
    bench_destroy(b);
}

/* Host writes reach the media and patch pending WPQ entries, so a drain
 * after them keeps the host's bytes; fences and line cleans are answered
 * at once; bad requests are answered with errors. */
static void test_host_access_and_errors(void)
{
    bench *b = bench_create(NULL);
    simtx_msg w = make_write(1, 0x5000, 8, 0x55);
    CHECK(offer(b, &w));
    uint8_t host[4] = {1, 2, 3, 4};
    nvm_controller_write_durable(b->nvm, 0x5002, host, sizeof host);
    uint8_t image[8];
    nvm_controller_read_durable(b->nvm, 0x5000, image, sizeof image);
    CHECK(image[0] == 0x55 && image[2] == 1 && image[5] == 4 && image[6] == 0x55);
    run_all(b);
    uint8_t media[8];
    nvm_controller_read_media(b->nvm, 0x5000, media, sizeof media);
    CHECK(memcmp(media, image, sizeof media) == 0);

    simtx_msg fence;
    simtx_msg_init(&fence, SIMTX_OP_FENCE, 0, 0);
    fence.id = 2;
    simtx_msg cross = make_read(3, 0x5078, 16); /* crosses a 128-byte block */
    simtx_msg atomic;
    simtx_msg_init(&atomic, SIMTX_OP_ATOMIC, 0x5000, 4);
    atomic.id = 4;
    simtx_msg clean;
    simtx_msg_init(&clean, SIMTX_OP_CLEAN_LINE, 0x5000, 0);
    clean.id = 5;
    uint64_t at = b->now;
    CHECK(offer(b, &fence) && offer(b, &cross) && offer(b, &atomic) && offer(b, &clean));
    run_all(b);
    int rf = response_of(b, 2), rx = response_of(b, 3), ra = response_of(b, 4);
    CHECK(rf >= 0 && rx >= 0 && ra >= 0);
    if (rf >= 0) CHECK_EQUAL(b->sent_cycle[rf], at + (uint64_t)b->params.wpq_latency);
    if (rx >= 0) CHECK_EQUAL(b->fake.sent[rx].status, SIMTX_STATUS_ADDRESS_ERROR);
    if (ra >= 0) CHECK_EQUAL(b->fake.sent[ra].status, SIMTX_STATUS_COMMAND_ERROR);
    CHECK_EQUAL(stat(b, "fences"), 1);
    CHECK_EQUAL(stat(b, "line_requests"), 1);
    int rl = response_of(b, 5);
    CHECK(rl >= 0);
    if (rl >= 0) CHECK(b->sent_cycle[rl] == at + (uint64_t)b->params.wpq_latency && b->fake.sent[rl].status == SIMTX_STATUS_OK);
    CHECK_EQUAL(stat(b, "address_errors"), 1);
    CHECK_EQUAL(stat(b, "command_errors"), 1);
    bench_destroy(b);
}

/* Behind an interleave over partitions, a channel holds its partition's
 * chunks and chooses banks from the partition-local address. */
static void test_partitions(void)
{
    bench *b = bench_create((const char *const[]){"partition_count=6", "partition=2", "partition_interleave=256", NULL});
    CHECK(nvm_controller_holds(b->nvm, 2 * 256));
    CHECK(nvm_controller_holds(b->nvm, 8 * 256 + 255));
    CHECK(!nvm_controller_holds(b->nvm, 3 * 256));
    /* Chunks 2 and 26 are this channel's local bytes 0 and 1024: banks 0
     * and 8, so two reads overlap, one transfer apart. Undecoded, both
     * addresses (512 and 6656) would fall on bank 4, a read time apart. */
    uint64_t base = 0;
    simtx_msg r1 = make_read(1, base + 2 * 256, 128), r2 = make_read(2, base + 26 * 256, 128);
    CHECK(offer(b, &r1) && offer(b, &r2));
    run_all(b);
    int i1 = response_of(b, 1), i2 = response_of(b, 2);
    CHECK(i1 >= 0 && i2 >= 0);
    if (i1 >= 0 && i2 >= 0) CHECK_EQUAL(b->sent_cycle[i2] - b->sent_cycle[i1], 4); /* one transfer apart, not a bank apart */
    bench_destroy(b);
}

/* Random traffic, driven twice: once woken only when the controller asks
 * (the shim), once at every cycle. A refused request is offered again
 * after each later cycle, a new one at its own cycle. The responses (which,
 * when, what data) must be the same: decisions never depend on when the
 * controller runs. */
enum { RANDOM_REQUESTS = 600 };

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The next random request, due at *arrival. */
static simtx_msg random_request(uint64_t *seed, unsigned index, uint64_t *arrival)
{
    uint64_t r = next_random(seed);
    uint64_t address = (r % 64) * 128 + ((r >> 8) % 4) * 32;
    uint32_t size = 32 * (uint32_t)(1 + (r >> 12) % (uint32_t)((128 - address % 128) / 32));
    *arrival += (r >> 24) % 40;
    return (r >> 20) % 3 ? make_write(1000 + index, address, size, (uint8_t)(index + 1)) : make_read(1000 + index, address, size);
}

/* every_cycle also delivers new requests before the cycle's tick (the shim
 * may run either first); a refused request is offered again after ticks. */
static bench *run_random(bool every_cycle)
{
    bench *b = bench_create((const char *const[]){"wpq_entries=8", "write_drain_threshold=6", "read_queue_depth=4", "banks=4", NULL});
    uint64_t seed = 42, arrival = 0;
    unsigned next = 0;
    simtx_msg request;
    bool holding = false;
    for (uint64_t now = 0; next < RANDOM_REQUESTS || holding || b->next_wake != SIMTX_NEVER; now++) {
        b->now = now;
        if (every_cycle)
            while (!holding && next < RANDOM_REQUESTS && arrival <= now) {
                request = random_request(&seed, next, &arrival);
                next++;
                holding = !offer(b, &request);
            }
        if (every_cycle || b->next_wake == now) {
            uint64_t wake = nvm_controller_block_info.cycle(b->nvm, now);
            if (wake <= now) CHECK(wake > now);
            b->next_wake = wake;
        }
        if (holding && offer(b, &request)) holding = false;
        while (!holding && next < RANDOM_REQUESTS && arrival <= now) {
            request = random_request(&seed, next, &arrival);
            next++;
            holding = !offer(b, &request);
        }
        if (now > 10000000) break;
    }
    return b;
}

static void test_wake_independence(void)
{
    bench *asked = run_random(false), *every = run_random(true);
    CHECK_EQUAL(asked->fake.sent_count, RANDOM_REQUESTS);
    CHECK_EQUAL(every->fake.sent_count, RANDOM_REQUESTS);
    size_t n = asked->fake.sent_count < every->fake.sent_count ? asked->fake.sent_count : every->fake.sent_count;
    size_t differences = 0;
    for (size_t i = 0; i < n; i++) {
        const simtx_msg *x = &asked->fake.sent[i], *y = &every->fake.sent[i];
        differences += x->id != y->id || asked->sent_cycle[i] != every->sent_cycle[i] ||
                       (x->op == SIMTX_OP_READ && memcmp(x->data, y->data, x->size) != 0);
    }
    CHECK_EQUAL(differences, 0);
    CHECK(stat(asked, "wpq_full_stalls") > 0);  /* the traffic exercised back-pressure, */
    CHECK(stat(asked, "forwarded_reads") > 0);  /* forwarding */
    CHECK(stat(asked, "media_reads") > 0);      /* and the media */
    bench_destroy(asked);
    bench_destroy(every);
}

int main(void)
{
    test_wake_independence();
    test_partitions();
    test_bad_parameters();
    test_acceptance_is_durability();
    test_unloaded_timing();
    test_forwarding();
    test_backpressure();
    test_fr_fcfs();
    test_host_access_and_errors();
    return simtx_test_summary();
}
