/* The recovery of CTA-level durable transactions (runtime/durable_recovery.c)
 * on a fake device whose persistent window is a plain array: a CTA found
 * IN_TX gets its logged words back, oldest value last, and becomes IDLE;
 * COMPLETE and IDLE CTAs are left alone, stale log entries included, and
 * so are an IN_TX CTA's entries past a thread's end mark (address 0); an
 * entry outside the persistent window and an invalid state word are counted,
 * not followed. */
#include <string.h>

#include "durable_recovery.h"
#include "host_backend.h"
#include "simt_core.h"
#include "test_support.h"

typedef struct fake_device {
    uint8_t memory[1 << 16]; /* the persistent window's first 64 KiB */
} fake_device;

static bool fake_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    fake_device *f = context;
    if (address < RV_PERSISTENT_BASE || address - RV_PERSISTENT_BASE + size > sizeof f->memory) return false;
    if (is_write) memcpy(f->memory + (address - RV_PERSISTENT_BASE), data, size);
    else memcpy(data, f->memory + (address - RV_PERSISTENT_BASE), size);
    return true;
}

static bool fake_durable_read(void *context, uint32_t address, void *data, size_t size)
{
    return fake_access(context, false, address, data, size);
}

static bool fake_durable_write(void *context, uint32_t address, const void *data, size_t size)
{
    return fake_access(context, true, address, (void *)(uintptr_t)data, size);
}

static uint32_t *word(fake_device *f, uint32_t address) { return (uint32_t *)(f->memory + (address - RV_PERSISTENT_BASE)); }

static void put_entry(fake_device *f, const gpu_durable_region *r, uint32_t cta, uint32_t k, uint32_t thread, uint32_t address, uint32_t old)
{
    uint32_t *entry = word(f, r->log + ((cta * r->entries + k) * r->threads + thread) * GPU_DURABLE_ENTRY_BYTES);
    entry[0] = address, entry[1] = old;
}

static fake_device fake;

int main(void)
{
    gpu_backend backend = {&fake, fake_access, NULL, NULL, NULL, NULL, NULL, fake_durable_read, fake_durable_write, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_durable_region region;
    CHECK(gpu_durable_region_create(device, 3, 4, 2, &region));
    CHECK_EQUAL(region.threads, 4);
    CHECK_EQUAL(region.entries, 2);
    uint32_t data = gpu_malloc_persistent(device, 64);
    CHECK(data != 0);
    for (uint32_t i = 0; i < 12; i++) *word(&fake, data + 4 * i) = 100 + i;
    /* CTA 0 committed: new data, its log still there. */
    for (uint32_t t = 0; t < 4; t++) {
        put_entry(&fake, &region, 0, 0, t, data + 4 * t, 100 + t);
        *word(&fake, data + 4 * t) = 200 + t;
    }
    *word(&fake, region.flags) = GPU_DURABLE_COMPLETE;
    /* CTA 1 in its transaction: words 4..7 logged and changed; thread 0
     * logged word 4 twice (an intermediate value second), and one entry
     * names an address outside the window. */
    for (uint32_t t = 0; t < 4; t++) {
        put_entry(&fake, &region, 1, 0, t, data + 4 * (4 + t), 104 + t);
        *word(&fake, data + 4 * (4 + t)) = 300 + t;
    }
    put_entry(&fake, &region, 1, 1, 0, data + 16, 555);
    put_entry(&fake, &region, 1, 1, 1, 0x1000, 9);
    *word(&fake, region.flags + GPU_DURABLE_FLAG_STRIDE) = GPU_DURABLE_IN_TX;
    /* CTA 2 never began: a stale entry it wrote must not be applied. */
    put_entry(&fake, &region, 2, 0, 0, data + 32, 777);

    uint8_t states[3];
    gpu_durable_recovery report;
    CHECK(gpu_durable_recover(device, &region, 3, states, &report));
    CHECK_EQUAL(states[0], GPU_DURABLE_COMPLETE);
    CHECK_EQUAL(states[1], GPU_DURABLE_IN_TX);
    CHECK_EQUAL(states[2], GPU_DURABLE_IDLE);
    CHECK_EQUAL(report.complete, 1);
    CHECK_EQUAL(report.rolled_back, 1);
    CHECK_EQUAL(report.idle, 1);
    CHECK_EQUAL(report.entries_undone, 5);
    CHECK_EQUAL(report.bad_entries, 1);
    CHECK_EQUAL(report.bad_states, 0);
    for (uint32_t t = 0; t < 4; t++) CHECK_EQUAL(*word(&fake, data + 4 * t), 200 + t);
    for (uint32_t t = 0; t < 4; t++) CHECK_EQUAL(*word(&fake, data + 4 * (4 + t)), 104 + t);
    CHECK_EQUAL(*word(&fake, data + 32), 108);
    CHECK_EQUAL(*word(&fake, region.flags + GPU_DURABLE_FLAG_STRIDE), GPU_DURABLE_IDLE);

    /* Recovery is idempotent, and a state word holding no state is counted. */
    *word(&fake, region.flags + 2 * GPU_DURABLE_FLAG_STRIDE) = 7;
    CHECK(gpu_durable_recover(device, &region, 3, states, &report));
    CHECK_EQUAL(report.rolled_back, 0);
    CHECK_EQUAL(report.bad_states, 1);
    CHECK_EQUAL(*word(&fake, data + 16), 104);

    /* A CTA running its second transaction on the reused log: thread 0
     * logged one word this time, ended its entries with address 0, and its
     * third entry is the first transaction's (applying it would roll the
     * committed first transaction back). */
    gpu_durable_region reused;
    CHECK(gpu_durable_region_create(device, 1, 2, 3, &reused));
    uint32_t second = gpu_malloc_persistent(device, 16);
    CHECK(second != 0);
    *word(&fake, second) = 20;     /* the first transaction's value, changed again */
    *word(&fake, second + 4) = 21; /* written by the first transaction only */
    put_entry(&fake, &reused, 0, 0, 0, second, 10);
    put_entry(&fake, &reused, 0, 1, 0, 0, 0);
    put_entry(&fake, &reused, 0, 2, 0, second + 4, 1);
    put_entry(&fake, &reused, 0, 0, 1, 0, 0); /* thread 1 logged nothing this time */
    put_entry(&fake, &reused, 0, 1, 1, second + 4, 1);
    *word(&fake, reused.flags) = GPU_DURABLE_IN_TX;
    CHECK(gpu_durable_recover(device, &reused, 1, states, &report));
    CHECK_EQUAL(report.rolled_back, 1);
    CHECK_EQUAL(report.entries_undone, 1);
    CHECK_EQUAL(*word(&fake, second), 10);
    CHECK_EQUAL(*word(&fake, second + 4), 21);

    /* The durable image ends at the persistent window, and without a crash
     * callback the device never reports a power failure. */
    CHECK(!gpu_copy_to_durable(device, 0x1000, &report, 4));
    CHECK_CONTAINS(gpu_last_error(device), "outside the persistent window");
    CHECK(!gpu_crashed(device));
    gpu_device_destroy(device);
    return simtx_test_summary();
}
