/* RBT: red-black tree insert (every thread) then remove (odd threads).
 * Oracle: exactly the even threads' keys remain, in order; the root is
 * black, no red node has a red child, every path has the same number of
 * black nodes, parent pointers match; plus the serializability oracle over
 * both launches. */
#include "host_common.h"
#include "tm_check.h"

#define NODE(x, f) nodes[5 * (x) + (f)]

/* Black height of the subtree at x, or -1 when an invariant fails (message in why). */
static int check_subtree(const uint32_t *nodes, uint32_t n, uint32_t x, uint32_t parent, uint32_t depth, char *why, size_t size)
{
    if (!x) return 1;
    if (x > n || depth > 2 * n + 2) {
        snprintf(why, size, "node %u out of range or a cycle", x);
        return -1;
    }
    if (NODE(x, 2) != parent) {
        snprintf(why, size, "node %u's parent is %u, expected %u", x, NODE(x, 2), parent);
        return -1;
    }
    if (NODE(x, 1) && (NODE(NODE(x, 3), 1) || NODE(NODE(x, 4), 1))) {
        snprintf(why, size, "red node %u has a red child", x);
        return -1;
    }
    int left = check_subtree(nodes, n, NODE(x, 3), x, depth + 1, why, size);
    if (left < 0) return -1;
    int right = check_subtree(nodes, n, NODE(x, 4), x, depth + 1, why, size);
    if (right < 0) return -1;
    if (left != right) {
        snprintf(why, size, "node %u: black heights %d (left) and %d (right) differ", x, left, right);
        return -1;
    }
    return left + !NODE(x, 1);
}

int rbt_main(gpu_device *device, workload_context *context)
{
    uint32_t n = (uint32_t)workload_int(context, "n", 256, 1, 1 << 20);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "rbt", path, sizeof path);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    size_t words = 5 * ((size_t)n + 1) + 1; /* nodes, then the root */
    uint32_t *keys = malloc(4 * (size_t)n), *nodes = malloc(4 * words), *stack = malloc(4 * ((size_t)n + 1));
    if (!keys || !nodes || !stack) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) keys[i] = 1 + 2 * i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(workload_random(&seed) % i), t = keys[i - 1];
        keys[i - 1] = keys[j], keys[j] = t;
    }
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_keys, d_nodes;
    HOST_CHECK(d_keys = gpu_malloc(device, 4 * (size_t)n));
    HOST_CHECK(d_nodes = gpu_malloc(device, 4 * words));
    HOST_CHECK(gpu_copy_to_device(device, d_keys, keys, 4 * (size_t)n));
    HOST_CHECK(gpu_memset(device, d_nodes, 0, 4 * words));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_nodes, (uint32_t)(4 * words))) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    for (uint32_t remove = 0; remove < 2; remove++) {
        struct rbt_args args = {d_keys, d_nodes, d_nodes + 4 * (uint32_t)(words - 1), n, remove};
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
    if (check_subtree(nodes, n, root, 0, 0, why, sizeof why) < 0) {
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
        if (key <= last || key != keys[x - 1] || ((x - 1) & 1)) {
            status = workload_fail(context, "rbt: in-order walk finds key %u (node %u) after %u", key, x, last);
            goto done;
        }
        last = key;
        found++;
        x = nodes[5 * x + 4];
    }
    if (found != (n + 1) / 2) {
        status = workload_fail(context, "rbt: %u keys remain, expected %u", found, (n + 1) / 2);
        goto done;
    }
    if (context->log)
        fprintf(context->log, "rbt: %u inserted, %u removed; %u keys remain in order, red-black invariants hold\n", n, n / 2, found);
    tm_print_statistics(device, context, "rbt");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(keys), free(nodes), free(stack);
    return status;
}
