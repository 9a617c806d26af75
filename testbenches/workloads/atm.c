/* ATM: transactional transfers between accounts. The balances start high
 * enough that every transfer goes through, so the sequential replay's final
 * balances do not depend on the order: oracle = every balance equal to the
 * replay's, the total conserved, plus the serializability oracle. */
#include "host_common.h"
#include "tm_check.h"

int atm_main(gpu_device *device, workload_context *context)
{
    uint32_t threads = (uint32_t)workload_int(context, "n", 2048, 1, 1 << 24);
    uint32_t account_count = (uint32_t)workload_int(context, "accounts", 1000, 2, 1 << 24);
    uint32_t per_thread = (uint32_t)workload_int(context, "per_thread", 1, 1, 1024);
    uint32_t block = (uint32_t)workload_int(context, "block", 256, 1, 1024);
    uint32_t query_percent = (uint32_t)workload_int(context, "queries", 0, 0, 100); /* read-only balance queries */
    /* 1: the accounts in versioned memory (gpu_malloc_versioned; SI-TM's snapshot reads) */
    bool versioned = workload_int(context, "versioned", 0, 0, 1);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "atm", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint64_t transfers = (uint64_t)threads * per_thread;
    if (transfers > (1u << 26)) return workload_bad_option(context, "atm: n x per_thread must be at most 2^26");
    uint32_t *accounts = malloc(sizeof(uint32_t) * account_count), *expected = malloc(sizeof(uint32_t) * account_count);
    uint32_t *sources = malloc(sizeof(uint32_t) * transfers), *destinations = malloc(sizeof(uint32_t) * transfers);
    uint32_t *amounts = malloc(sizeof(uint32_t) * transfers);
    if (!accounts || !expected || !sources || !destinations || !amounts) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint64_t total = 0;
    for (uint32_t a = 0; a < account_count; a++) {
        accounts[a] = expected[a] = 1000000 + (uint32_t)(workload_random(&seed) % 1000);
        total += accounts[a];
    }
    for (uint64_t i = 0; i < transfers; i++) {
        sources[i] = (uint32_t)(workload_random(&seed) % account_count);
        destinations[i] = (sources[i] + 1 + (uint32_t)(workload_random(&seed) % (account_count - 1))) % account_count;
        amounts[i] = workload_random(&seed) % 100 < query_percent ? 0 : 1 + (uint32_t)(workload_random(&seed) % 100);
        expected[sources[i]] -= amounts[i];
        expected[destinations[i]] += amounts[i];
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_accounts, d_sources, d_destinations, d_amounts;
    HOST_CHECK(d_accounts = versioned ? gpu_malloc_versioned(device, sizeof(uint32_t) * account_count)
                                      : gpu_malloc(device, sizeof(uint32_t) * account_count));
    HOST_CHECK(d_sources = gpu_malloc(device, sizeof(uint32_t) * transfers));
    HOST_CHECK(d_destinations = gpu_malloc(device, sizeof(uint32_t) * transfers));
    HOST_CHECK(d_amounts = gpu_malloc(device, sizeof(uint32_t) * transfers));
    HOST_CHECK(gpu_copy_to_device(device, d_accounts, accounts, sizeof(uint32_t) * account_count));
    HOST_CHECK(gpu_copy_to_device(device, d_sources, sources, sizeof(uint32_t) * transfers));
    HOST_CHECK(gpu_copy_to_device(device, d_destinations, destinations, sizeof(uint32_t) * transfers));
    HOST_CHECK(gpu_copy_to_device(device, d_amounts, amounts, sizeof(uint32_t) * transfers));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_accounts, sizeof(uint32_t) * account_count)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct atm_args args = {d_accounts, d_sources, d_destinations, d_amounts, threads, per_thread};
    HOST_CHECK(gpu_launch(device, module, "atm", dim3_1d((threads + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, accounts, d_accounts, sizeof(uint32_t) * account_count));
    uint64_t final_total = 0;
    for (uint32_t a = 0; a < account_count; a++) final_total += accounts[a];
    if (final_total != total) {
        status = workload_fail(context, "atm: the total is %llu, expected %llu (money created or lost)",
                               (unsigned long long)final_total, (unsigned long long)total);
        goto done;
    }
    for (uint32_t a = 0; a < account_count; a++)
        if (accounts[a] != expected[a]) {
            status = workload_fail(context, "atm: account %u holds %u, the sequential replay %u", a, accounts[a], expected[a]);
            goto done;
        }
    if (context->log)
        fprintf(context->log, "atm: %llu transfers over %u accounts, every balance as replayed, total conserved\n",
                (unsigned long long)transfers, account_count);
    tm_print_statistics(device, context, "atm");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(accounts), free(expected), free(sources), free(destinations), free(amounts);
    return status;
}
