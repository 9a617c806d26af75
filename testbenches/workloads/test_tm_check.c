/* The serializability check's glue (tm_check.c, host_serializability.c) on a fake device: a launch
 * that commits nothing is consistent; one committed write must be found in
 * the final memory; on snapshots, the SI checker names a write skew's cycle. Built with UBSan on the glue itself, so an undefined
 * operation (qsort of an empty history) fails the test in any build. */
#include <string.h>

#include "test_support.h"
#include "tm_check.h"

typedef struct fake_device {
    uint8_t memory[256]; /* device addresses GPU_HEAP_BASE.. + 0xff: the first allocation */
} fake_device;

static bool fake_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    fake_device *f = context;
    if (address < GPU_HEAP_BASE || address - GPU_HEAP_BASE + size > sizeof f->memory) return false;
    if (is_write) memcpy(f->memory + (address - GPU_HEAP_BASE), data, size);
    else memcpy(data, f->memory + (address - GPU_HEAP_BASE), size);
    return true;
}

static bool fake_tm_record(void *context, bool on) { return true; }

static bool no_commits(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    return true;
}

/* One transaction: writes 7 to GPU_HEAP_BASE + 8. */
static bool one_commit(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    static const uint32_t words[] = {GPU_HEAP_BASE + 8, 7};
    const tm_unit_record record = {.cid = 1, .write_count = 1};
    visit(visit_context, &record, words);
    return true;
}

/* Write skew on snapshots (plain SI: reads not validated): both read the
 * words at +0 and +4 on snapshot 0 (both 1) and each clears one. */
static bool skew_commits(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    static const uint32_t words[] = {GPU_HEAP_BASE, 1, GPU_HEAP_BASE + 4, 1, GPU_HEAP_BASE, 0,
                                     GPU_HEAP_BASE, 1, GPU_HEAP_BASE + 4, 1, GPU_HEAP_BASE + 4, 0};
    const uint32_t flags = TM_UNIT_RECORD_SNAPSHOT | TM_UNIT_RECORD_UNVALIDATED;
    const tm_unit_record records[] = {{.cid = 1, .read_count = 2, .write_count = 1, .first_word = 0, .snapshot = 0, .flags = flags},
                                      {.cid = 2, .read_count = 2, .write_count = 1, .first_word = 6, .snapshot = 0, .flags = flags}};
    visit(visit_context, &records[1], words); /* any order: the check sorts by commit ID */
    visit(visit_context, &records[0], words);
    return true;
}

/* The same transactions serialized (the second saw the first: snapshot 1, it reads 0 and writes nothing). */
static bool serial_commits(void *context, void (*visit)(void *, const tm_unit_record *, const uint32_t *), void *visit_context)
{
    static const uint32_t words[] = {GPU_HEAP_BASE, 1, GPU_HEAP_BASE + 4, 1, GPU_HEAP_BASE, 0, GPU_HEAP_BASE, 0, GPU_HEAP_BASE + 4, 1};
    const uint32_t flags = TM_UNIT_RECORD_SNAPSHOT | TM_UNIT_RECORD_UNVALIDATED;
    const tm_unit_record records[] = {{.cid = 1, .read_count = 2, .write_count = 1, .first_word = 0, .snapshot = 0, .flags = flags},
                                      {.cid = 1, .after = 1, .read_count = 2, .first_word = 6, .snapshot = 1, .flags = TM_UNIT_RECORD_SNAPSHOT}};
    visit(visit_context, &records[0], words);
    visit(visit_context, &records[1], words);
    return true;
}

/* The SI checker's verdict through the glue, memory starting (1, 1) and ending (final0, final1). */
static int check_snapshots(bool skew, uint8_t final0, uint8_t final1, char *error, size_t error_size)
{
    fake_device fake = {{1, 0, 0, 0, 1}};
    gpu_backend backend = {&fake, fake_access, NULL, NULL, NULL, fake_tm_record, skew ? skew_commits : serial_commits, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    workload_context context = {NULL, 0, "", NULL, error, error_size, false, 1};
    int status = 0;
    tm_check *check = tm_check_begin(device, &context, &status);
    CHECK(check != NULL);
    uint32_t region = gpu_malloc(device, 64);
    CHECK(tm_check_region(check, device, region, 64));
    fake.memory[0] = final0;
    fake.memory[4] = final1;
    status = tm_check_end(check, device, &context);
    gpu_device_destroy(device);
    return status;
}

/* The check's verdict on a history, the final memory holding `final_word` at GPU_HEAP_BASE + 8. */
static int check_history(bool commits, uint8_t final_word, char *error, size_t error_size)
{
    fake_device fake = {{0}};
    gpu_backend backend = {&fake, fake_access, NULL, NULL, NULL, fake_tm_record, commits ? one_commit : no_commits, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    workload_context context = {NULL, 0, "", NULL, error, error_size, false, 1};
    int status = 0;
    tm_check *check = tm_check_begin(device, &context, &status);
    CHECK(check != NULL);
    uint32_t region = gpu_malloc(device, 64);
    CHECK_EQUAL(region, GPU_HEAP_BASE);
    CHECK(tm_check_region(check, device, region, 64));
    fake.memory[8] = final_word;
    status = tm_check_end(check, device, &context);
    gpu_device_destroy(device);
    return status;
}

int main(void)
{
    char error[256] = "";
    CHECK_EQUAL(check_history(false, 0, error, sizeof error), 0);
    CHECK_STRING(error, "");
    CHECK_EQUAL(check_history(true, 7, error, sizeof error), 0);
    CHECK_STRING(error, "");
    CHECK_EQUAL(check_history(true, 0, error, sizeof error), 1);
    CHECK_CONTAINS(error, "final memory at 0x10100008 holds 0x00");
    /* Snapshots: the SI checker names plain SI's write skew, and passes the serial history. */
    error[0] = '\0';
    CHECK_EQUAL(check_snapshots(true, 0, 0, error, sizeof error), 1);
    CHECK_STRING(error, "snapshot-isolation checker: dependency cycle (write skew, 2 transactions): commit 1 -rw 0x10100004-> commit 2 "
                        "-rw 0x10100000-> commit 1");
    error[0] = '\0';
    CHECK_EQUAL(check_snapshots(false, 0, 1, error, sizeof error), 0);
    CHECK_STRING(error, "");
    return simtx_test_summary();
}
