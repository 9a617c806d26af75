/* List (sorted linked-list insert, SI-TM and EA/PG variants) and BinTree
 * (BST insert then delete, or one launch of mixed inserts and removes on a
 * prefilled tree: SI-TM's Binary Tree 1 and 2). Oracles: the structure holds every key exactly once in
 * order (list: strictly increasing from the head; tree: an in-order walk
 * strictly increasing, every key where the BST property puts it), plus
 * the serializability oracle. */
#include "host_common.h"
#include "tm_check.h"

/* Thread keys are 3i+1 and prefilled keys 3j+2, so they never collide; with
 * spread both are stretched over the same range (a step per key). */
static void make_keys(uint32_t *keys, uint32_t n, uint32_t step, uint64_t seed)
{
    for (uint32_t i = 0; i < n; i++) keys[i] = 1 + i * 3 * step;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(&seed) % i), t = keys[i - 1];
        keys[i - 1] = keys[j], keys[j] = t;
    }
}

/* A balanced subtree of the prefilled tree nodes first..last (node n+1+j
 * holds the j-th prefilled key, so node order is key order); returns its root. */
static uint32_t build_prefilled_tree(uint32_t *nodes, uint32_t first, uint32_t last)
{
    if (first > last) return 0;
    uint32_t middle = first + (last - first) / 2;
    nodes[3 * middle + 1] = build_prefilled_tree(nodes, first, middle - 1); /* middle >= first >= 1 */
    nodes[3 * middle + 2] = build_prefilled_tree(nodes, middle + 1, last);
    return middle;
}

static int run_structure(gpu_device *device, workload_context *context, bool tree)
{
    const char *name = tree ? "bintree" : "list";
    uint32_t n = (uint32_t)workload_int(context, "n", 100, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    const char *variant = tree ? "inside" : workload_string(context, "variant", "inside");
    int64_t with_remove = tree ? workload_int(context, "remove", 1, 0, 1) : 0; /* bintree: then delete odd threads' keys */
    bool spread = workload_int(context, "spread", 0, 0, 1);
    /* bintree: removes >= 0 runs one launch in which that many threads
     * (chosen at random) each remove a distinct prefilled key and the others
     * insert theirs; -1 keeps the insert launch then the remove launch. */
    int64_t removes = tree ? workload_int(context, "removes", -1, -1, 1 << 20) : -1;
    /* Keys 3j+2 (never an inserted key) in the structure before the launch,
     * in nodes n+1..: list: a search outside the transaction has something
     * to skip; tree: a balanced tree, so the threads' operations spread
     * over its leaves (SI-TM's prefilled trees). */
    uint32_t prefill = (uint32_t)workload_int(context, "prefill", 0, 0, 1 << 20);
    uint32_t slots = n + 1 + prefill;
    uint32_t widest = n > prefill ? n : prefill;
    uint32_t key_step = spread ? (widest + n - 1) / n : 1;
    uint32_t prefill_step = spread && prefill ? (widest + prefill - 1) / prefill : 1;
    bool mixed = removes >= 0;
    char path[1024];
    workload_kernel_path(context, mixed ? "bintree_mixed" : name, path, sizeof path);
    if (context->bad_input) return 1;
    if (mixed && (removes > n || removes > prefill))
        return workload_bad_option(context, "workload.removes: %lld removes need as many threads (n = %u) and prefilled keys "
                                   "(prefill = %u)", (long long)removes, n, prefill);
    if (mixed && workload_string(context, "remove", NULL))
        return workload_bad_option(context, "workload.remove: not with workload.removes (one launch of mixed operations)");
    if (strcmp(variant, "inside") && strcmp(variant, "outside"))
        return workload_bad_option(context, "workload.variant: expected inside (SI-TM) or outside (EA/PG)");
    uint32_t words = tree ? 3 : 2;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *keys = malloc(sizeof(uint32_t) * n), *nodes = calloc((size_t)words * slots, sizeof(uint32_t));
    uint8_t *seen = calloc(slots, 1);
    uint32_t *stack = malloc(sizeof(uint32_t) * slots);
    uint32_t *ops = calloc(n, sizeof(uint32_t)), *order = malloc(sizeof(uint32_t) * (n > prefill ? n : prefill) + 4);
    uint8_t *gone = calloc(slots, 1); /* nodes a remove unlinks */
    if (!keys || !nodes || !seen || !stack || !ops || !order || !gone) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    make_keys(keys, n, key_step, seed);
    for (uint32_t j = prefill; j-- > 0;) {
        uint32_t node = n + 1 + j;
        nodes[words * node] = 3 * j * prefill_step + 2;
        if (!tree) { /* linked in order from the head */
            nodes[2 * node + 1] = nodes[1];
            nodes[1] = node;
        }
    }
    if (tree && prefill) nodes[2] = build_prefilled_tree(nodes, n + 1, n + prefill); /* the sentinel's right child */
    if (mixed) { /* removes random threads, each given a random distinct prefilled key */
        uint64_t state = seed ^ 0x5EEDull;
        for (uint32_t i = 0; i < n; i++) order[i] = i;
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = (uint32_t)(workload_random(&state) % i), t = order[i - 1];
            order[i - 1] = order[j], order[j] = t;
        }
        for (uint32_t r = 0; r < removes; r++) ops[order[r]] = 1;
        for (uint32_t j = 0; j < prefill; j++) order[j] = j;
        for (uint32_t j = prefill; j > 1; j--) {
            uint32_t k = (uint32_t)(workload_random(&state) % j), t = order[j - 1];
            order[j - 1] = order[k], order[k] = t;
        }
        for (uint32_t t = 0, r = 0; t < n; t++)
            if (ops[t]) {
                uint32_t j = order[r++];
                keys[t] = nodes[words * (n + 1 + j)];
                gone[n + 1 + j] = gone[t + 1] = 1; /* the prefilled node leaves; the thread's node never enters */
            }
    } else if (with_remove) {
        for (uint32_t node = 2; node <= n; node += 2) gone[node] = 1; /* odd threads' keys */
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_keys, d_nodes, d_ops = 0;
    HOST_CHECK(d_keys = gpu_malloc(device, sizeof(uint32_t) * n));
    if (mixed) {
        HOST_CHECK(d_ops = gpu_malloc(device, sizeof(uint32_t) * n));
        HOST_CHECK(gpu_copy_to_device(device, d_ops, ops, sizeof(uint32_t) * n));
    }
    HOST_CHECK(d_nodes = gpu_malloc(device, sizeof(uint32_t) * words * slots));
    HOST_CHECK(gpu_copy_to_device(device, d_keys, keys, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_copy_to_device(device, d_nodes, nodes, sizeof(uint32_t) * words * slots));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_nodes, sizeof(uint32_t) * words * slots)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    if (mixed) {
        struct bintree_mixed_args args = {d_keys, d_ops, d_nodes, n};
        HOST_CHECK(gpu_launch(device, module, "bintree_mixed", dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    } else if (tree) {
        for (uint32_t remove = 0; remove <= (uint32_t)with_remove; remove++) {
            struct bintree_args args = {d_keys, d_nodes, n, remove};
            HOST_CHECK(gpu_launch(device, module, name, dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
            if (!remove && with_remove) HOST_CHECK(gpu_synchronize(device));
        }
    } else {
        struct list_args args = {d_keys, d_nodes, n, !strcmp(variant, "outside")};
        HOST_CHECK(gpu_launch(device, module, name, dim3_1d((n + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    }
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, nodes, d_nodes, sizeof(uint32_t) * words * slots));
    uint32_t found = 0, last = 0;
    if (!tree) {
        for (uint32_t node = nodes[1]; node; node = nodes[2 * node + 1]) {
            uint32_t expected_key = node > n ? 3 * (node - n - 1) * prefill_step + 2 : keys[node - 1];
            if (node >= slots || seen[node]++ || nodes[2 * node] != expected_key || nodes[2 * node] <= last) {
                status = workload_fail(context, "list: node %u (key %u) breaks the sorted list after key %u", node,
                                       node < slots ? nodes[2 * node] : 0, last);
                goto done;
            }
            last = nodes[2 * node];
            found++;
        }
    } else { /* iterative in-order walk with an explicit stack */
        uint32_t depth = 0, node = nodes[2];
        while (node || depth) {
            while (node) {
                if (node >= slots || seen[node]++ || depth >= slots) {
                    status = workload_fail(context, "bintree: node %u reached twice or out of range", node);
                    goto done;
                }
                stack[depth++] = node;
                node = nodes[3 * node + 1];
            }
            node = stack[--depth];
            uint32_t expected_key = node > n ? 3 * (node - n - 1) * prefill_step + 2 : keys[node - 1];
            if (nodes[3 * node] != expected_key || nodes[3 * node] <= last || gone[node]) {
                status = workload_fail(context, "bintree: in-order walk finds key %u after %u (node %u)", nodes[3 * node], last, node);
                goto done;
            }
            last = nodes[3 * node];
            found++;
            node = nodes[3 * node + 2];
        }
    }
    uint32_t expected = mixed ? n + prefill - 2 * (uint32_t)removes : (with_remove ? (n + 1) / 2 : n) + prefill;
    if (found != expected) {
        status = workload_fail(context, "%s: %u keys reachable, expected %u", name, found, expected);
        goto done;
    }
    if (context->log)
        fprintf(context->log, "%s: %u keys inserted%s, each remaining key present exactly once, in order\n", name,
                mixed ? n - (uint32_t)removes : n,
                tree ? (mixed ? ", prefilled keys removed in the same launch" : with_remove ? ", odd threads' keys deleted" : "")
                     : (strcmp(variant, "outside") ? " (traversal in the transaction)" : " (search outside the transaction)"));
    tm_print_statistics(device, context, name);
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(keys), free(nodes), free(seen), free(stack), free(ops), free(order), free(gone);
    return status;
}

int list_main(gpu_device *device, workload_context *context) { return run_structure(device, context, false); }
int bintree_main(gpu_device *device, workload_context *context) { return run_structure(device, context, true); }
