/* The serializability check's glue (tm_check.c, host_serializability.c) on a fake device: a launch
 * that commits nothing is consistent; one committed write must be found in
 * the final memory. Built with UBSan on the glue itself, so an undefined
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
    const tm_unit_record record = {1, 0, 0, 1, 0};
    visit(visit_context, &record, words);
    return true;
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
    return simtx_test_summary();
}
