/* gpu_statistic's three query forms (host_api.h) on a fake platform whose
 * cores and commit units both report tm_n_commits: a bare name that two
 * block types report is refused with both named; TYPE:NAME and
 * INSTANCE_GLOB.NAME pick exactly their blocks. */
#include "host_backend.h"
#include "test_support.h"

static const gpu_statistic_entry entries[] = {
    {"sm0", "simt_core", "tm_n_commits", 3},  {"sm1", "simt_core", "tm_n_commits", 4},
    {"cu0", "commit_unit", "tm_n_commits", 10}, {"cu1", "commit_unit", "tm_n_commits", 20},
    {"sm0", "simt_core", "thread_instructions", 100}, {"sm10", "simt_core", "thread_instructions", 1000},
};

static bool fake_statistic_at(void *context, size_t index, gpu_statistic_entry *entry)
{
    if (index >= sizeof entries / sizeof entries[0]) return false;
    *entry = entries[index];
    return true;
}

static double query(gpu_device *device, const char *text, bool expect_found)
{
    double value = -1;
    CHECK_EQUAL(gpu_statistic(device, text, &value), expect_found);
    return value;
}

int main(void)
{
    gpu_backend backend = {NULL, NULL, NULL, NULL, fake_statistic_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    CHECK(device != NULL);
    CHECK_EQUAL(query(device, "thread_instructions", true), 1100);
    CHECK_EQUAL(query(device, "tm_n_commits", false), 0);
    CHECK_CONTAINS(gpu_last_error(device), "statistic 'tm_n_commits' is reported by blocks of types simt_core and commit_unit");
    CHECK_EQUAL(query(device, "simt_core:tm_n_commits", true), 7);
    CHECK_EQUAL(query(device, "commit_unit:tm_n_commits", true), 30);
    CHECK_EQUAL(query(device, "sm*.tm_n_commits", true), 7);
    CHECK_EQUAL(query(device, "cu1.tm_n_commits", true), 20);
    CHECK_EQUAL(query(device, "sm?.thread_instructions", true), 100); /* sm10 does not match sm? */
    query(device, "tm_unit:tm_n_commits", false);
    CHECK_CONTAINS(gpu_last_error(device), "no statistic matches 'tm_unit:tm_n_commits'");
    query(device, "gpu*.tm_n_commits", false);
    query(device, "commits", false);
    gpu_device_destroy(device);

    gpu_backend none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    device = gpu_device_create(&none);
    query(device, "thread_instructions", false);
    CHECK_CONTAINS(gpu_last_error(device), "reports none");
    gpu_device_destroy(device);
    return simtx_test_summary();
}
