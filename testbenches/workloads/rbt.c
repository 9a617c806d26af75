/* RBT: red-black tree insert (every thread) then remove (odd threads), or
 * (removes >= 0) one launch of mixed operations on a tree prefilled with
 * prefill keys (SI-TM's Red-Black Tree 1 and 2, EA/PG's RBT180/RBT450).
 * Oracle: exactly the expected keys remain, in order; the root is
 * black, no red node has a red child, every path has the same number of
 * black nodes, parent pointers match; plus the serializability oracle over
 * both launches. */
#include "host_common.h"
#include "rbt_tree.h"
#include "tm_check.h"

static void shuffle_indices(uint32_t *order, uint32_t count, uint64_t *state)
{
    for (uint32_t i = 0; i < count; i++) order[i] = i;
    for (uint32_t i = count; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(state) % i), t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
}

int rbt_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    /* Keys of a balanced red-black tree built on the host before the launch. */
    uint32_t prefill = (uint32_t)workload_int(context, "prefill", 0, 0, 1 << 20);
    /* removes >= 0: one launch in which that many threads (chosen at random)
     * each remove a distinct prefilled key and the others insert theirs; -1
     * keeps the insert launch then the launch removing odd threads' keys. */
    int64_t removes = workload_int(context, "removes", -1, -1, 1 << 20);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "rbt", path, sizeof path);
    if (context->bad_input) return 1;
    bool mixed = removes >= 0;
    if (mixed && (removes > n || removes > prefill))
        return workload_bad_option(context, "workload.removes: %lld removes need as many threads (n = %u) and prefilled keys "
                                   "(prefill = %u)", (long long)removes, n, prefill);
    if (!mixed && prefill) return workload_bad_option(context, "workload.prefill: needs workload.removes (0 for inserts only)");
    /* Thread keys odd, prefilled keys even, both stretched over one range. */
    uint32_t slots = n + prefill, widest = n > prefill ? n : prefill;
    uint32_t key_step = (widest + n - 1) / n, prefill_step = prefill ? (widest + prefill - 1) / prefill : 1;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    size_t words = 5 * ((size_t)slots + 1) + 1; /* nodes, then the root */
    uint32_t *keys = malloc(4 * (size_t)n), *nodes = calloc(words, 4), *stack = malloc(4 * ((size_t)slots + 1));
    uint32_t *ops = calloc(n, 4), *order = malloc(4 * (size_t)widest);
    uint8_t *gone = calloc((size_t)slots + 1, 1); /* nodes not in the final tree */
    if (!keys || !nodes || !stack || !ops || !order || !gone) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) keys[i] = 1 + 2 * i * key_step;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(&seed) % i), t = keys[i - 1];
        keys[i - 1] = keys[j], keys[j] = t;
    }
    if (prefill) {
        for (uint32_t j = 0; j < prefill; j++) nodes[5 * (n + 1 + j)] = 2 + 2 * j * prefill_step;
        uint32_t root = rbt_tree_build(nodes, n + 1, n + prefill, 0, 0, rbt_tree_height(prefill) - 1);
        nodes[words - 1] = root;
    }
    if (mixed) { /* removes random threads, each given a random distinct prefilled key */
        uint64_t state = seed ^ 0x5EEDull;
        shuffle_indices(order, n, &state);
        for (uint32_t r = 0; r < removes; r++) ops[order[r]] = 1;
        shuffle_indices(order, prefill, &state);
        for (uint32_t t = 0, r = 0; t < n; t++)
            if (ops[t]) {
                uint32_t j = order[r++];
                keys[t] = nodes[5 * (n + 1 + j)];
                gone[n + 1 + j] = gone[t + 1] = 1;
            }
    } else {
        for (uint32_t node = 2; node <= n; node += 2) gone[node] = 1; /* odd threads' keys */
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_keys, d_nodes, d_ops = 0;
    HOST_CHECK(d_keys = gpu_malloc(device, 4 * (size_t)n));
    HOST_CHECK(d_nodes = gpu_malloc(device, 4 * words));
    HOST_CHECK(gpu_copy_to_device(device, d_keys, keys, 4 * (size_t)n));
    HOST_CHECK(gpu_copy_to_device(device, d_nodes, nodes, 4 * words));
    if (mixed) {
        HOST_CHECK(d_ops = gpu_malloc(device, 4 * (size_t)n));
        HOST_CHECK(gpu_copy_to_device(device, d_ops, ops, 4 * (size_t)n));
    }
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_nodes, (uint32_t)(4 * words))) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    for (uint32_t remove = 0; remove < (mixed ? 1u : 2u); remove++) {
        struct rbt_args args = {d_keys, d_nodes, d_nodes + 4 * (uint32_t)(words - 1), n, remove, d_ops};
        HOST_CHECK(gpu_launch(device, module, "rbt", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
        HOST_CHECK(gpu_synchronize(device));
    }
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, nodes, d_nodes, 4 * words));
    uint32_t root = nodes[words - 1];
    char why[200] = "";
    if (root && (nodes[5 * root + 1] || nodes[5 * root + 2])) {
        status = workload_fail(context, "rbt: the root %u is red or has a parent", root);
        goto done;
    }
    if (rbt_tree_check(nodes, slots, root, 0, 0, why, sizeof why) < 0) {
        status = workload_fail(context, "rbt: %s", why);
        goto done;
    }
    /* In-order walk: exactly the keys of even threads, increasing. */
    uint32_t depth = 0, x = root, found = 0, last = 0;
    while (x || depth) {
        while (x) {
            stack[depth++] = x;
            x = nodes[5 * x + 3];
        }
        x = stack[--depth];
        uint32_t key = nodes[5 * x];
        uint32_t expected_key = x > n ? nodes[5 * x] : keys[x - 1]; /* prefilled nodes keep their keys */
        if (key <= last || key != expected_key || gone[x] || (x > n && key != 2 + 2 * (x - n - 1) * prefill_step)) {
            status = workload_fail(context, "rbt: in-order walk finds key %u (node %u) after %u", key, x, last);
            goto done;
        }
        last = key;
        found++;
        x = nodes[5 * x + 4];
    }
    uint32_t expected = mixed ? n + prefill - 2 * (uint32_t)removes : (n + 1) / 2;
    if (found != expected) {
        status = workload_fail(context, "rbt: %u keys remain, expected %u", found, expected);
        goto done;
    }
    if (context->log)
        fprintf(context->log, "rbt: %u prefilled, %u inserted, %u removed; %u keys remain in order, red-black invariants hold\n",
                prefill, mixed ? n - (uint32_t)removes : n, mixed ? (uint32_t)removes : n / 2, found);
    tm_print_statistics(device, context, "rbt");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(keys), free(nodes), free(stack), free(ops), free(order), free(gone);
    return status;
}
