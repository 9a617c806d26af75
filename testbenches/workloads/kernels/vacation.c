/* Vacation (STAMP, as SI-TM's Vacation 1 and 2): a travel agency's four
 * tables as red-black trees (rbt_ops.h) in one node array per table (slots
 * nodes each, node 0 nil): car, flight and room items keyed by id with a
 * payload {total, free, used, price}; customers keyed by id with payload
 * word 0 the head of a reservation list sorted by (type, id), reservation
 * nodes {type, id, price, next}. Each thread runs per_thread operations
 * (the host draws them as STAMP's client does), each one transaction:
 *  - make a reservation: query each (type, id), keep the priciest item
 *    with a free unit per type, add the customer if absent, reserve each
 *    kept item (free - 1, used + 1, a list entry; undone if the customer
 *    already holds it);
 *  - delete a customer: cancel every reservation of its list (free + 1,
 *    used - 1), remove it;
 *  - update tables: per update add 100 units (a new item if absent, the
 *    price set) or delete: car and room lose 100 units (refused if fewer
 *    are free; removed at total 0), a flight is removed when none is used.
 * New nodes come from the thread's own spares (a counter kept in a
 * register, so a retried attempt reuses them). The outcome words say what
 * happened, for the host's exact accounting. */
#include "gpu.h"
#include "workload_args.h"

#include "rbt_ops.h"

typedef struct vacation {
    uint32_t *nodes, *payload, *roots, *reservations, slots;
} vacation;

static uint32_t *table_nodes(const vacation *v, uint32_t table) { return v->nodes + 5 * v->slots * table; }
static uint32_t *item(const vacation *v, uint32_t table, uint32_t node) { return v->payload + 4 * (v->slots * table + node); }

static uint32_t find(const vacation *v, uint32_t table, uint32_t id)
{
    return rbt_find(table_nodes(v, table), &v->roots[table], id);
}

static void insert(const vacation *v, uint32_t table, uint32_t node, uint32_t id)
{
    uint32_t *nodes = table_nodes(v, table);
    KEY(node) = id;
    rbt_insert(nodes, &v->roots[table], node);
}

/* Adds (type, id, price) to the customer's sorted list; 0 if it is there already. */
static uint32_t add_reservation(const vacation *v, uint32_t customer, uint32_t type, uint32_t id, uint32_t price, uint32_t entry)
{
    uint32_t *link = &item(v, VACATION_CUSTOMER, customer)[0];
    while (*link) {
        uint32_t *r = v->reservations + 4 * *link;
        if (r[0] > type || (r[0] == type && r[1] >= id)) {
            if (r[0] == type && r[1] == id) return 0;
            break;
        }
        link = &r[3];
    }
    uint32_t *r = v->reservations + 4 * entry;
    r[0] = type, r[1] = id, r[2] = price, r[3] = *link;
    *link = entry;
    return 1;
}

GPU_KERNEL void vacation_kernel(const struct vacation_args *args)
{
    uint32_t t = gpu_global_id_x();
    if (t >= args->threads) return;
    vacation v = {(uint32_t *)args->nodes, (uint32_t *)args->payload, (uint32_t *)args->roots, (uint32_t *)args->reservations, args->slots};
    uint32_t queries = args->queries, words = VACATION_OP_WORDS(queries);
    uint32_t next_node = args->spare_nodes * t, next_entry = args->reservation_spares * t; /* this thread's spares */
    for (uint32_t k = 0; k < args->per_thread; k++) {
        uint32_t index = t * args->per_thread + k;
        const uint32_t *op = (const uint32_t *)args->ops + words * index;
        uint32_t *out = (uint32_t *)args->outcomes + queries * index;
        uint32_t action = op[0], customer_id = op[1], count = op[2];
        gpu_tx_begin();
        uint32_t node = next_node, entry = next_entry; /* restored with the registers when the attempt reruns */
        for (uint32_t q = 0; q < queries; q++) out[q] = VACATION_OUT_NONE;
        if (action == VACATION_MAKE_RESERVATION) {
            uint32_t best[3] = {0, 0, 0}, best_price[3] = {0, 0, 0}, best_slot[3] = {0, 0, 0};
            for (uint32_t q = 0; q < count; q++) { /* STAMP: the priciest existing item per type */
                uint32_t type = op[3 + 4 * q], id = op[4 + 4 * q];
                uint32_t x = find(&v, type, id);
                if (x && (!best[type] || item(&v, type, x)[3] > best_price[type]))
                    best[type] = id, best_price[type] = item(&v, type, x)[3], best_slot[type] = q;
            }
            if (best[0] || best[1] || best[2]) {
                uint32_t customer = find(&v, VACATION_CUSTOMER, customer_id), added = 0;
                if (!customer) {
                    customer = args->slots - args->spare_nodes * args->threads + node++;
                    item(&v, VACATION_CUSTOMER, customer)[0] = 0;
                    insert(&v, VACATION_CUSTOMER, customer, customer_id);
                    added = VACATION_OUT_CUSTOMER_ADDED;
                }
                for (uint32_t type = 0; type < 3; type++) {
                    if (!best[type]) continue;
                    uint32_t *it = item(&v, type, find(&v, type, best[type]));
                    uint32_t code = VACATION_OUT_REFUSED;
                    if (it[1] && add_reservation(&v, customer, type, best[type], it[3], entry + 1)) {
                        entry++;
                        it[1]--, it[2]++;
                        code = VACATION_OUT_RESERVED;
                    }
                    out[best_slot[type]] = code;
                }
                out[0] |= added;
            }
        } else if (action == VACATION_DELETE_CUSTOMER) {
            uint32_t customer = find(&v, VACATION_CUSTOMER, customer_id);
            if (customer) {
                uint32_t cancelled = 0;
                for (uint32_t e = item(&v, VACATION_CUSTOMER, customer)[0]; e; e = v.reservations[4 * e + 3]) {
                    uint32_t type = v.reservations[4 * e], x = find(&v, type, v.reservations[4 * e + 1]);
                    uint32_t *it = item(&v, type, x);
                    it[1]++, it[2]--;
                    cancelled++;
                }
                rbt_remove(table_nodes(&v, VACATION_CUSTOMER), &v.roots[VACATION_CUSTOMER], customer);
                out[0] = VACATION_OUT_CUSTOMER_DELETED | cancelled << 4;
            }
        } else {
            for (uint32_t q = 0; q < count; q++) {
                uint32_t type = op[3 + 4 * q], id = op[4 + 4 * q], add = op[5 + 4 * q], price = op[6 + 4 * q];
                uint32_t x = find(&v, type, id);
                if (add) {
                    if (!x) {
                        x = args->slots - args->spare_nodes * args->threads + node++;
                        uint32_t *it = item(&v, type, x);
                        it[0] = 100, it[1] = 100, it[2] = 0, it[3] = price;
                        insert(&v, type, x, id);
                        out[q] = VACATION_OUT_ADDED_ITEM;
                    } else {
                        uint32_t *it = item(&v, type, x);
                        it[0] += 100, it[1] += 100, it[3] = price;
                        out[q] = VACATION_OUT_ADDED_UNITS;
                    }
                } else if (x) {
                    uint32_t *it = item(&v, type, x);
                    uint32_t removed = type == VACATION_FLIGHT ? (it[2] ? 0 : it[0]) : (it[1] >= 100 ? 100 : 0);
                    out[q] = VACATION_OUT_REFUSED;
                    if (removed) {
                        it[0] -= removed, it[1] -= removed;
                        out[q] = VACATION_OUT_REMOVED_UNITS | removed << 4;
                        if (!it[0]) {
                            rbt_remove(table_nodes(&v, type), &v.roots[type], x);
                            out[q] = VACATION_OUT_REMOVED_ITEM | removed << 4;
                        }
                    }
                }
            }
        }
        gpu_tx_commit();
        next_node = node, next_entry = entry;
    }
}
