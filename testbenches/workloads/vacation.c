/* Vacation (STAMP; SI-TM's Vacation 1 and 2; kernels/vacation.c): the
 * host draws each thread's operations as STAMP's client does (user percent
 * reservations, else alternately customer deletions and table updates;
 * ids uniform in 1..relations, customers in 1..customers) and fills the
 * four tables (balanced red-black trees of relations items, 100 units
 * each, prices 50..90; customers 1..customers without reservations).
 * Oracle, exact for every serial order: each table is a red-black tree
 * (root black, no red-red, equal black heights, parent pointers, keys
 * strictly increasing) holding exactly the ids the outcomes leave
 * (initial + added - removed, each id at most once); per item the total
 * is the initial 100 plus the outcomes' additions minus their removals,
 * free + used = total, and used = the customers' reservations of it
 * (STAMP's checkTables); each customer's list is sorted, without
 * duplicates, and refers to existing items; reservations made minus
 * cancelled = reservations listed; plus the serializability check. */
#include "host_common.h"
#include "rbt_tree.h"
#include "tm_check.h"

typedef struct layout {
    uint32_t slots, tables_words, payload_words, entries;
} layout;

static uint32_t random_below(uint64_t *seed, uint32_t n) { return (uint32_t)(workload_random(seed) % n); }

/* STAMP's client: an action and its queries or updates. */
static void draw_operation(uint32_t *op, uint32_t queries, uint32_t relations, uint32_t customers, uint32_t user, uint64_t *seed)
{
    uint32_t r = random_below(seed, 100);
    uint32_t action = r < user ? VACATION_MAKE_RESERVATION : (r & 1) ? VACATION_DELETE_CUSTOMER : VACATION_UPDATE_TABLES;
    op[0] = action;
    op[1] = 1 + random_below(seed, customers);
    op[2] = action == VACATION_DELETE_CUSTOMER ? 0 : 1 + random_below(seed, queries);
    for (uint32_t q = 0; q < op[2]; q++) {
        op[3 + 4 * q] = random_below(seed, 3);
        op[4 + 4 * q] = 1 + random_below(seed, relations);
        op[5 + 4 * q] = action == VACATION_UPDATE_TABLES ? random_below(seed, 2) : 0;
        op[6 + 4 * q] = 50 + 10 * random_below(seed, 5);
    }
}

/* Walks table k in order into ids[id] = node; 0 when it holds, else 1 with the message set. */
static int walk_table(workload_context *context, const uint32_t *nodes, uint32_t slots, uint32_t root, uint32_t max_id, uint32_t *ids,
                      uint32_t *stack, const char *name, uint32_t *count)
{
    char why[200] = "";
    if (root >= slots || (root && (nodes[5 * root + 1] || nodes[5 * root + 2])))
        return workload_fail(context, "vacation: the %s table's root %u is red, has a parent or is out of range", name, root);
    if (rbt_tree_check(nodes, slots - 1, root, 0, 0, why, sizeof why) < 0) return workload_fail(context, "vacation: %s table: %s", name, why);
    uint32_t depth = 0, x = root, last = 0;
    *count = 0;
    while (x || depth) {
        while (x) {
            stack[depth++] = x;
            x = nodes[5 * x + 3];
        }
        x = stack[--depth];
        uint32_t id = nodes[5 * x];
        if (id <= last || id > max_id)
            return workload_fail(context, "vacation: %s table: in-order walk finds id %u (node %u) after %u", name, id, x, last);
        ids[id] = x;
        last = id;
        (*count)++;
        x = nodes[5 * x + 4];
    }
    return 0;
}

int vacation_main(gpu_device *device, workload_context *context)
{
    uint32_t threads = (uint32_t)workload_int(context, "n", 150, 1, 1 << 16);
    uint32_t relations = (uint32_t)workload_int(context, "relations", 500, 1, 1 << 16);
    uint32_t customers = (uint32_t)workload_int(context, "customers", relations, 1, 1 << 16);
    uint32_t queries = (uint32_t)workload_int(context, "queries", 2, 1, 64);
    uint32_t user = (uint32_t)workload_int(context, "user", 0, 0, 100);
    uint32_t per_thread = (uint32_t)workload_int(context, "per_thread", 1, 1, 64);
    uint32_t block = (uint32_t)workload_int(context, "block", 64, 1, 1024);
    uint64_t seed = (uint64_t)workload_int(context, "seed", (int64_t)(context->seed & INT64_MAX), 0, INT64_MAX);
    char path[1024];
    workload_kernel_path(context, "vacation", path, sizeof path);
    if (context->bad_input) return 1;
    uint32_t operations = threads * per_thread, op_words = VACATION_OP_WORDS(queries);
    uint32_t spare_nodes = per_thread * (queries + 1), reservation_spares = per_thread * 3;
    uint32_t widest = relations > customers ? relations : customers;
    if ((uint64_t)spare_nodes * threads + widest + 1 > (1u << 22) || (uint64_t)operations * op_words > (1u << 24))
        return workload_bad_option(context, "vacation: n x per_thread x queries too large");
    uint32_t slots = widest + 1 + spare_nodes * threads, entries = reservation_spares * threads + 1;
    size_t node_words = (size_t)VACATION_TABLES * slots * 5, payload_words = (size_t)VACATION_TABLES * slots * 4;
    int status = 0;
    gpu_module *module = NULL;
    tm_check *check = NULL;
    uint32_t *nodes = calloc(node_words, 4), *payload = calloc(payload_words, 4), roots[VACATION_TABLES] = {0, 0, 0, 0};
    uint32_t *reservations = calloc((size_t)entries * 4, 4), *ops = calloc((size_t)operations * op_words, 4);
    uint32_t *outcomes = calloc((size_t)operations * queries, 4), *stack = malloc(4 * (size_t)slots);
    uint32_t *ids = calloc((size_t)VACATION_TABLES * (widest + 1), 4); /* id -> node per table */
    int64_t *expected_total = calloc((size_t)3 * (relations + 1), sizeof(int64_t)), *customer_count = calloc(customers + 1, sizeof(int64_t));
    uint32_t *referenced = calloc((size_t)3 * (relations + 1), 4);
    if (!nodes || !payload || !reservations || !ops || !outcomes || !stack || !ids || !expected_total || !customer_count || !referenced) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    for (uint32_t k = 0; k < VACATION_TABLES; k++) {
        uint32_t *table = nodes + (size_t)5 * slots * k, count = k == VACATION_CUSTOMER ? customers : relations;
        for (uint32_t id = 1; id <= count; id++) {
            table[5 * id] = id;
            uint32_t *item = payload + 4 * ((size_t)slots * k + id);
            if (k != VACATION_CUSTOMER) item[0] = item[1] = 100, item[3] = 50 + 10 * random_below(&seed, 5);
        }
        roots[k] = rbt_tree_build(table, 1, count, 0, 0, rbt_tree_height(count) - 1);
    }
    for (uint32_t i = 0; i < operations; i++) draw_operation(ops + (size_t)op_words * i, queries, relations, customers, user, &seed);
    HOST_CHECK(module = gpu_module_load(device, path));
    uint32_t d_nodes, d_payload, d_roots, d_reservations, d_ops, d_outcomes;
    HOST_CHECK(d_nodes = gpu_malloc(device, 4 * node_words));
    HOST_CHECK(d_payload = gpu_malloc(device, 4 * payload_words));
    HOST_CHECK(d_roots = gpu_malloc(device, sizeof roots));
    HOST_CHECK(d_reservations = gpu_malloc(device, 16 * (size_t)entries));
    HOST_CHECK(d_ops = gpu_malloc(device, 4 * (size_t)operations * op_words));
    HOST_CHECK(d_outcomes = gpu_malloc(device, 4 * (size_t)operations * queries));
    HOST_CHECK(gpu_copy_to_device(device, d_nodes, nodes, 4 * node_words));
    HOST_CHECK(gpu_copy_to_device(device, d_payload, payload, 4 * payload_words));
    HOST_CHECK(gpu_copy_to_device(device, d_roots, roots, sizeof roots));
    HOST_CHECK(gpu_copy_to_device(device, d_reservations, reservations, 16 * (size_t)entries));
    HOST_CHECK(gpu_copy_to_device(device, d_ops, ops, 4 * (size_t)operations * op_words));
    HOST_CHECK(gpu_copy_to_device(device, d_outcomes, outcomes, 4 * (size_t)operations * queries));
    check = tm_check_begin(device, context, &status);
    if (status) goto done;
    if (!tm_check_region(check, device, d_nodes, (uint32_t)(4 * node_words)) ||
        !tm_check_region(check, device, d_payload, (uint32_t)(4 * payload_words)) ||
        !tm_check_region(check, device, d_roots, sizeof roots) ||
        !tm_check_region(check, device, d_reservations, 16 * entries) ||
        !tm_check_region(check, device, d_ops, 4 * operations * op_words) ||
        !tm_check_region(check, device, d_outcomes, 4 * operations * queries)) {
        status = workload_fail(context, "serializability oracle: cannot snapshot memory");
        goto done;
    }
    struct vacation_args args = {d_nodes,  d_payload,  d_roots,   d_reservations, d_ops,       d_outcomes,
                                 threads, per_thread, queries, slots,          spare_nodes, reservation_spares};
    HOST_CHECK(gpu_launch(device, module, "vacation_kernel", dim3_1d((threads + block - 1) / block), dim3_1d(block), &args, sizeof args, 0));
    HOST_CHECK(gpu_synchronize(device));
    status = tm_check_end(check, device, context);
    check = NULL;
    if (status) goto done;
    HOST_CHECK(gpu_copy_from_device(device, nodes, d_nodes, 4 * node_words));
    HOST_CHECK(gpu_copy_from_device(device, payload, d_payload, 4 * payload_words));
    HOST_CHECK(gpu_copy_from_device(device, roots, d_roots, sizeof roots));
    HOST_CHECK(gpu_copy_from_device(device, reservations, d_reservations, 16 * (size_t)entries));
    HOST_CHECK(gpu_copy_from_device(device, outcomes, d_outcomes, 4 * (size_t)operations * queries));

    /* What the outcomes say: item totals, customers added and deleted, reservations made and cancelled. */
    uint64_t made = 0, cancelled = 0, tally[8] = {0};
    for (uint32_t type = 0; type < 3; type++)
        for (uint32_t id = 1; id <= relations; id++) expected_total[type * (relations + 1) + id] = 100;
    for (uint32_t id = 1; id <= customers; id++) customer_count[id] = 1;
    for (uint32_t i = 0; i < operations; i++) {
        const uint32_t *op = ops + (size_t)op_words * i, *out = outcomes + (size_t)queries * i;
        if (op[0] == VACATION_MAKE_RESERVATION && out[0] & VACATION_OUT_CUSTOMER_ADDED) customer_count[op[1]]++;
        for (uint32_t q = 0; q < queries; q++) {
            uint32_t code = out[q] & 0xF, amount = (out[q] & ~VACATION_OUT_CUSTOMER_ADDED) >> 4;
            int64_t *total = q < op[2] ? &expected_total[op[3 + 4 * q] * (relations + 1) + op[4 + 4 * q]] : NULL;
            bool fits = op[0] == VACATION_DELETE_CUSTOMER ? (code == VACATION_OUT_CUSTOMER_DELETED && !q) || code == VACATION_OUT_NONE
                        : op[0] == VACATION_MAKE_RESERVATION
                            ? code == VACATION_OUT_NONE || ((code == VACATION_OUT_RESERVED || code == VACATION_OUT_REFUSED) && total)
                            : code == VACATION_OUT_NONE || (code >= VACATION_OUT_REFUSED && code <= VACATION_OUT_REMOVED_ITEM && total);
            if (!fits || (amount && code != VACATION_OUT_REMOVED_UNITS && code != VACATION_OUT_REMOVED_ITEM &&
                          code != VACATION_OUT_CUSTOMER_DELETED)) {
                status = workload_fail(context, "vacation: operation %u (action %u) slot %u has outcome 0x%x", i, op[0], q, out[q]);
                goto done;
            }
            tally[code]++;
            if (code == VACATION_OUT_RESERVED) made++;
            if (code == VACATION_OUT_CUSTOMER_DELETED) customer_count[op[1]]--, cancelled += amount;
            if (code == VACATION_OUT_ADDED_ITEM || code == VACATION_OUT_ADDED_UNITS) *total += 100;
            if (code == VACATION_OUT_REMOVED_UNITS || code == VACATION_OUT_REMOVED_ITEM) *total -= amount;
        }
    }
    /* The tables: red-black trees of exactly the expected ids. */
    static const char *const names[] = {"car", "flight", "room", "customer"};
    uint64_t items_left = 0, customers_left = 0;
    for (uint32_t k = 0; k < VACATION_TABLES; k++) {
        uint32_t max_id = k == VACATION_CUSTOMER ? customers : relations, count = 0;
        uint32_t *table_ids = ids + (size_t)k * (widest + 1);
        status = walk_table(context, nodes + (size_t)5 * slots * k, slots, roots[k], max_id, table_ids, stack, names[k], &count);
        if (status) goto done;
        for (uint32_t id = 1; id <= max_id; id++) {
            int64_t expected = k == VACATION_CUSTOMER ? customer_count[id] : expected_total[k * (relations + 1) + id];
            bool present = table_ids[id] != 0;
            if (expected < 0 || (k == VACATION_CUSTOMER && expected > 1) || present != (expected > 0)) {
                status = workload_fail(context, "vacation: %s %u is %s, but the outcomes leave %s %lld", names[k], id,
                                       present ? "present" : "absent", k == VACATION_CUSTOMER ? "a count of" : "a total of",
                                       (long long)expected);
                goto done;
            }
        }
        if (k == VACATION_CUSTOMER) customers_left = count;
        else items_left += count;
    }
    /* The customers' lists: sorted, no duplicates, existing items; count the references. */
    uint64_t listed = 0;
    for (uint32_t id = 1; id <= customers; id++) {
        uint32_t customer = ids[(size_t)VACATION_CUSTOMER * (widest + 1) + id];
        if (!customer) continue;
        uint32_t last_type = 0, last_id = 0, steps = 0;
        for (uint32_t e = payload[4 * ((size_t)slots * VACATION_CUSTOMER + customer)]; e; e = reservations[4 * e + 3]) {
            uint32_t type = e < entries ? reservations[4 * e] : 3, item_id = e < entries ? reservations[4 * e + 1] : 0;
            if (e >= entries || ++steps > entries || type > 2 || !item_id || item_id > relations ||
                (steps > 1 && (type < last_type || (type == last_type && item_id <= last_id))) ||
                !ids[(size_t)type * (widest + 1) + item_id]) {
                status = workload_fail(context, "vacation: customer %u's reservation list is broken at entry %u (type %u, id %u)", id, e,
                                       type, item_id);
                goto done;
            }
            referenced[type * (relations + 1) + item_id]++;
            last_type = type, last_id = item_id;
            listed++;
        }
    }
    /* STAMP's checkTables: per item free + used = total, used = its reservations, total as the outcomes say. */
    for (uint32_t type = 0; type < 3; type++)
        for (uint32_t id = 1; id <= relations; id++) {
            uint32_t x = ids[(size_t)type * (widest + 1) + id];
            if (!x) continue;
            const uint32_t *item = payload + 4 * ((size_t)slots * type + x);
            int64_t expected = expected_total[type * (relations + 1) + id];
            if (item[0] != expected || item[1] + item[2] != item[0] || item[2] != referenced[type * (relations + 1) + id]) {
                status = workload_fail(context,
                                       "vacation: %s %u holds total %u, free %u, used %u; expected total %lld, free + used = total, used "
                                       "= its %u reservations",
                                       names[type], id, item[0], item[1], item[2], (long long)expected, referenced[type * (relations + 1) + id]);
                goto done;
            }
        }
    if (made - cancelled != listed) {
        status = workload_fail(context, "vacation: %llu reservations made, %llu cancelled, but %llu listed", (unsigned long long)made,
                               (unsigned long long)cancelled, (unsigned long long)listed);
        goto done;
    }
    if (context->log)
        fprintf(context->log,
                "vacation: %u operations (%u%% reservations): %llu reserved, %llu refused, %llu cancelled; items %llu added, %llu "
                "removed, %llu restocked, %llu reduced; %llu customers deleted; %llu items and %llu customers left, %llu reservations "
                "listed; tables and red-black trees consistent\n",
                operations, user, (unsigned long long)made, (unsigned long long)tally[VACATION_OUT_REFUSED], (unsigned long long)cancelled,
                (unsigned long long)tally[VACATION_OUT_ADDED_ITEM], (unsigned long long)tally[VACATION_OUT_REMOVED_ITEM],
                (unsigned long long)tally[VACATION_OUT_ADDED_UNITS], (unsigned long long)tally[VACATION_OUT_REMOVED_UNITS],
                (unsigned long long)tally[VACATION_OUT_CUSTOMER_DELETED], (unsigned long long)items_left,
                (unsigned long long)customers_left, (unsigned long long)listed);
    tm_print_statistics(device, context, "vacation");
done:
    tm_check_discard(check, device);
    gpu_module_unload(module);
    free(nodes), free(payload), free(reservations), free(ops), free(outcomes), free(stack), free(ids), free(expected_total);
    free(customer_count), free(referenced);
    return status;
}
