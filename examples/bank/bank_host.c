/* The bank host plugin:
 *   simtx run NETLIST_WITH_TM --host libbank.so [--set workload.threads=N] [--set workload.accounts=M] [-- KERNEL.elf]
 * Two oracles: every final balance equals the initial one plus what the
 * schedule moves in and out (the transfers commute), and the serializability
 * oracle replays every committed transaction in commit order. */
#include <stdio.h>
#include <stdlib.h>

#include <simtx/host_api.h>

#include "bank.h"

#define BLOCK 128
#define PER_THREAD 2
#define INITIAL_BALANCE 1000

/* simtx checks --set workload.NAME=VALUE against these before the run (exit 2). */
const simtx_host_option simtx_host_options[] = {
    {"threads", 512, 1, 1 << 20, "threads, each making PER_THREAD transfers"},
    {"accounts", 64, 2, 1 << 20, "accounts the transfers move money between"},
    {NULL, 0, 0, 0, NULL},
};

int simtx_host_main(gpu_device *device, int argc, char **argv)
{
    /* The kernel the project built: found beside this plugin (build tree or
     * install, simtx_add_host_plugin's KERNELS), unless an argument names one. */
    const char *kernel = argc > 1 ? argv[1] : "bank_O2.elf";
    if (argc > 2) {
        gpu_set_error(device, "bank: at most one argument (the kernel ELF), got %d", argc - 1);
        return 2; /* bad input */
    }
    int64_t thread_option, account_option;
    if (!gpu_option(device, "threads", &thread_option) || !gpu_option(device, "accounts", &account_option)) return 1;
    unsigned long threads = (unsigned long)thread_option, account_count = (unsigned long)account_option;
    int status = 1;
    gpu_module *module = NULL;
    gpu_serializability *check = NULL;
    int32_t *expected = malloc(account_count * sizeof *expected), *balances = malloc(account_count * sizeof *balances);
    if (!expected || !balances) {
        gpu_set_error(device, "out of host memory");
        goto done;
    }
    for (uint32_t k = 0; k < account_count; k++) expected[k] = balances[k] = INITIAL_BALANCE;
    for (uint32_t i = 0; i < threads * PER_THREAD; i++) {
        expected[bank_from(i, (uint32_t)account_count)] -= bank_amount(i);
        expected[bank_to(i, (uint32_t)account_count)] += bank_amount(i);
    }
    module = gpu_module_load(device, kernel);
    if (!module) {
        status = gpu_last_error_is_input(device) ? 2 : 1;
        goto done;
    }
    uint32_t d_accounts = gpu_malloc(device, account_count * sizeof *balances);
    if (!d_accounts || !gpu_copy_to_device(device, d_accounts, balances, account_count * sizeof *balances)) goto done;
    /* The oracle snapshots every region a transaction reads: here the balances. */
    check = gpu_serializability_begin(device);
    if (!check || !gpu_serializability_region(check, d_accounts, (uint32_t)(account_count * sizeof *balances))) goto done;
    struct bank_args args = {d_accounts, (uint32_t)account_count, (uint32_t)threads, PER_THREAD};
    if (!gpu_launch(device, module, "bank", (gpu_dim3){(uint32_t)(threads + BLOCK - 1) / BLOCK, 1, 1}, (gpu_dim3){BLOCK, 1, 1}, &args,
                    sizeof args, 0) ||
        !gpu_synchronize(device))
        goto done;
    size_t commits;
    bool serializable = gpu_serializability_end(check, &commits);
    check = NULL;
    if (!serializable) goto done;
    if (!gpu_copy_from_device(device, balances, d_accounts, account_count * sizeof *balances)) goto done;
    for (uint32_t k = 0; k < account_count; k++)
        if (balances[k] != expected[k]) {
            gpu_set_error(device, "bank: account %u holds %d, expected %d", k, balances[k], expected[k]);
            goto done;
        }
    /* Transactions committed as the cores' tm_units count them (the commit
     * units count their per-partition pieces as commit_unit:tm_n_commits). */
    double transactions = 0, aborts = 0;
    if (!gpu_statistic(device, "tm_unit:commits", &transactions) || !gpu_statistic(device, "tm_unit:aborts_validation", &aborts))
        goto done;
    printf("bank: %lu accounts exact after %lu transfers; serializability oracle: %zu commits replayed, consistent; "
           "%.0f transactions committed, %.0f aborted by validation\n",
           account_count, threads * PER_THREAD, commits, transactions, aborts);
    status = 0;
done:
    gpu_serializability_discard(check);
    gpu_module_unload(module);
    free(expected), free(balances);
    return status;
}
