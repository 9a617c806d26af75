#include "tm_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tm_list_push(tm_msg_list *list, const simtx_msg *msg, uint64_t ready)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        tm_timed_msg *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) abort();
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count].msg = *msg;
    list->items[list->count++].ready = ready;
    return true;
}

void tm_list_remove(tm_msg_list *list, size_t index)
{
    memmove(&list->items[index], &list->items[index + 1], (list->count - index - 1) * sizeof *list->items);
    list->count--;
}

void tm_system_init(tm_system *sys, unsigned partitions, uint64_t l2_latency, const char *const *settings)
{
    memset(sys, 0, sizeof *sys);
    sys->partitions = partitions;
    sys->interleave = 256;
    sys->l2_latency = l2_latency;
    sys->nodes = calloc(partitions, sizeof *sys->nodes);
    if (!sys->nodes || partitions > TM_HARNESS_MAX_PARTITIONS) abort();
    sys->memory = sparse_memory_create();
    sys->observer = simtx_observer_create();
    for (unsigned p = 0; p < partitions; p++) {
        tm_node *n = &sys->nodes[p];
        const char *base[32];
        char partition[32], count[32];
        snprintf(partition, sizeof partition, "partition=%u", p);
        snprintf(count, sizeof count, "partitions=%u", partitions);
        size_t k = 0;
        base[k++] = partition;
        base[k++] = count;
        base[k++] = p == 0 ? "cid_allocator=true" : "cid_allocator=false";
        for (const char *const *s = settings; s && *s && k < 31; s++) base[k++] = *s;
        base[k] = NULL;
        fake_params(&commit_unit_block_info, &n->params, base);
        fake_env_init(&n->fake, NULL);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "cu%u", p);
        simtx_observer_set_prefix(sys->observer, prefix);
        n->fake.env.observer = sys->observer;
        n->fake.env.instance_name = p == 0 ? "cu0" : "cu";
        char error[256] = "";
        n->unit = commit_unit_block_info.create(&n->params, &n->fake.env, error, sizeof error);
        if (!n->unit) {
            fprintf(stderr, "tm_harness: %s\n", error);
            abort();
        }
    }
}

void tm_system_release(tm_system *sys)
{
    for (unsigned p = 0; p < sys->partitions; p++) {
        commit_unit_block_info.destroy(sys->nodes[p].unit);
        simtx_params_release(commit_unit_block_info.params, &sys->nodes[p].params);
        free(sys->nodes[p].inbound.items);
        free(sys->nodes[p].l2_responses.items);
    }
    free(sys->nodes);
    free(sys->responses.items);
    free(sys->l2_log.items);
    sparse_memory_destroy(sys->memory);
    simtx_observer_destroy(sys->observer);
}

void tm_system_send(tm_system *sys, const simtx_msg *msg)
{
    unsigned p = tm_partition_of(msg->address, sys->interleave, sys->partitions);
    tm_list_push(&sys->nodes[p].inbound, msg, sys->now);
}

/* The L2: does the access when it arrives (in order), answers after the latency. */
static void serve_l2(tm_system *sys, tm_node *n, simtx_msg msg)
{
    tm_list_push(&sys->l2_log, &msg, sys->now);
    n->l2_requests++;
    if (msg.op == SIMTX_OP_READ) sparse_memory_read(sys->memory, msg.address, msg.data, msg.size);
    else if (msg.op == SIMTX_OP_WRITE) sparse_memory_write_masked(sys->memory, msg.address, msg.data, msg.size, msg.byte_enable);
    simtx_msg_make_response(&msg, SIMTX_STATUS_OK);
    msg.handle = NULL;
    tm_list_push(&n->l2_responses, &msg, sys->now + sys->l2_latency);
}

void tm_system_step(tm_system *sys)
{
    for (unsigned p = 0; p < sys->partitions; p++) {
        tm_node *n = &sys->nodes[p];
        /* Arrivals first (the shim delivers between clock edges). */
        while (n->inbound.count) {
            if (commit_unit_block_info.accept(n->unit, COMMIT_UNIT_UPSTREAM, &n->inbound.items[0].msg, sys->now) != SIMTX_ACCEPTED) {
                n->refusals++;
                break;
            }
            tm_list_remove(&n->inbound, 0);
        }
        while (n->l2_responses.count && n->l2_responses.items[0].ready <= sys->now) {
            if (commit_unit_block_info.accept(n->unit, COMMIT_UNIT_DOWNSTREAM, &n->l2_responses.items[0].msg, sys->now) != SIMTX_ACCEPTED)
                break;
            tm_list_remove(&n->l2_responses, 0);
        }
        n->next_cycle = commit_unit_block_info.cycle(n->unit, sys->now);
        for (size_t i = 0; i < n->fake.sent_count; i++) {
            if (n->fake.sent_port[i] == COMMIT_UNIT_DOWNSTREAM) serve_l2(sys, n, n->fake.sent[i]);
            else tm_list_push(&sys->responses, &n->fake.sent[i], sys->now);
        }
        n->fake.sent_count = 0;
    }
    sys->now++;
}

static bool busy(const tm_system *sys)
{
    for (unsigned p = 0; p < sys->partitions; p++)
        if (sys->nodes[p].inbound.count || sys->nodes[p].l2_responses.count || sys->nodes[p].next_cycle != SIMTX_NEVER)
            return true;
    return false;
}

void tm_system_run(tm_system *sys, uint64_t max_cycles)
{
    uint64_t end = sys->now + max_cycles;
    do tm_system_step(sys);
    while (sys->now < end && busy(sys));
}

const char *tm_system_failure(const tm_system *sys)
{
    for (unsigned p = 0; p < sys->partitions; p++)
        if (sys->nodes[p].fake.failure[0]) return sys->nodes[p].fake.failure;
    return NULL;
}

const simtx_msg *tm_system_response(const tm_system *sys, uint64_t id)
{
    for (size_t i = 0; i < sys->responses.count; i++)
        if (sys->responses.items[i].msg.id == id) return &sys->responses.items[i].msg;
    return NULL;
}

uint64_t tm_system_response_cycle(const tm_system *sys, uint64_t id)
{
    for (size_t i = 0; i < sys->responses.count; i++)
        if (sys->responses.items[i].msg.id == id) return sys->responses.items[i].ready;
    return UINT64_MAX;
}

uint32_t tm_system_read_word(tm_system *sys, uint64_t address)
{
    uint32_t value;
    sparse_memory_read(sys->memory, address, &value, 4);
    return value;
}

void tm_system_write_word(tm_system *sys, uint64_t address, uint32_t value)
{
    sparse_memory_write(sys->memory, address, &value, 4);
}

simtx_msg tm_make(simtx_op op, uint64_t address, uint32_t cid, uint64_t aux, uint64_t id)
{
    simtx_msg msg;
    simtx_msg_init(&msg, op, address, 0);
    msg.transaction_id = cid;
    msg.aux = aux;
    msg.id = id;
    return msg;
}

simtx_msg tm_make_log(simtx_op op, uint32_t cid, const tm_entry *entries, unsigned count, uint64_t id)
{
    simtx_msg msg;
    tm_log_init(&msg, op, cid, 0, 0);
    for (unsigned k = 0; k < count; k++) tm_log_append(&msg, cid, entries[k].address, entries[k].value);
    msg.id = id;
    return msg;
}
