/* The host API and the SIMT core linked directly into a test program, with
 * no SystemC: an ldst_unit block on the core's ldst socket coalesces its
 * global accesses for a small in-test memory that answers after a fixed
 * latency, an lds block on the core's lds socket holds shared memory, and
 * the backend steps the core's, the ldst_unit's and the lds's cycles itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_backend.h"
#include "lds.h"
#include "ldst_unit.h"
#include "simt_core.h"
#include "sparse_memory.h"
#include "test_support.h"

#define LATENCY 20
#define MAX_IN_FLIGHT 4096
#define LOG_SIZE 256

static void record_failure(void *context, const char *message);

typedef struct test_system {
    void *core;
    simtx_observer *observer;
    sparse_memory *memory;
    simtx_msg in_flight[MAX_IN_FLIGHT];
    uint64_t due[MAX_IN_FLIGHT];
    size_t count;
    uint64_t now;
    char failure[512];
    uint64_t requests;
    void *lds;                  /* on the core's socket 1 */
    simtx_observer *lds_observer;
    uint64_t lds_next;          /* the lds's next cycle */
    void *ldst;                 /* on the core's socket 0; its memory socket reaches the in-test memory */
    simtx_observer *ldst_observer;
    uint64_t ldst_next;
    /* The memory's log: each request's op, flags, address and arrival (the
     * persistence ordering tests read it); LOG_SIZE first ones. */
    struct {
        uint8_t op, flags;
        uint32_t address;
        uint64_t arrival;
    } log[LOG_SIZE];
    size_t logged;
    uint32_t memory_end; /* when not 0: no memory answers from here up (a smaller device) */
} test_system;

enum { LDST_SOCKET = 0, LDS_SOCKET = 1, LDST_CORE = 0, LDST_MEMORY = 1 };

static bool ldst_deliver(test_system *s, unsigned port, const simtx_msg *msg)
{
    simtx_accept_result result = ldst_unit_block_info.accept(s->ldst, port, msg, s->now);
    if (result == SIMTX_BUSY) return false;
    if (result == SIMTX_ACCEPTED && s->ldst_next > s->now + 1) s->ldst_next = s->now + 1;
    return true;
}

static bool lds_deliver(test_system *s, const simtx_msg *msg)
{
    simtx_accept_result result = lds_block_info.accept(s->lds, 0, msg, s->now);
    if (result == SIMTX_BUSY) return false;
    if (result == SIMTX_ACCEPTED && s->lds_next > s->now + 1) s->lds_next = s->now + 1;
    return true;
}

static void record_failure(void *context, const char *message)
{
    test_system *s = (test_system *)context;
    if (!s->failure[0]) snprintf(s->failure, sizeof s->failure, "%s", message);
}

static bool memory_send(void *context, unsigned port, const simtx_msg *msg)
{
    test_system *s = context;
    if (port == LDS_SOCKET) return lds_deliver(s, msg);
    return ldst_deliver(s, LDST_CORE, msg);
}

/* The ldst_unit's sends: responses to the core, requests to the memory. */
static bool ldst_send(void *context, unsigned port, const simtx_msg *msg)
{
    test_system *s = context;
    if (port == LDST_CORE) {
        simt_core_block_info.accept(s->core, LDST_SOCKET, msg, s->now);
        return true;
    }
    if (s->count == MAX_IN_FLIGHT) return false;
    if (s->logged < LOG_SIZE) {
        s->log[s->logged].op = msg->op;
        s->log[s->logged].flags = msg->flags;
        s->log[s->logged].address = (uint32_t)msg->address;
        s->log[s->logged++].arrival = s->now;
    }
    simtx_msg response = *msg;
    if (msg->op == SIMTX_OP_READ) sparse_memory_read(s->memory, msg->address, response.data, msg->size);
    else if (msg->op == SIMTX_OP_WRITE) sparse_memory_write_masked(s->memory, msg->address, msg->data, msg->size, msg->byte_enable);
    else if (msg->op == SIMTX_OP_ATOMIC) {
        uint32_t old, operand, updated;
        sparse_memory_read(s->memory, msg->address, &old, 4);
        memcpy(&operand, msg->data, 4);
        updated = simtx_atomic_apply((simtx_atomic_op)msg->atomic_op, old, operand, (uint32_t)msg->aux);
        sparse_memory_write(s->memory, msg->address, &updated, 4);
        memcpy(response.data, &old, 4);
    }
    simtx_msg_make_response(&response, SIMTX_STATUS_OK);
    s->in_flight[s->count] = response;
    s->due[s->count++] = s->now + LATENCY;
    s->requests++;
    return true;
}


/* The lds's responses go straight to the core. */
static bool lds_respond(void *context, unsigned port, const simtx_msg *msg)
{
    test_system *s = context;
    (void)port;
    simt_core_block_info.accept(s->core, LDS_SOCKET, msg, s->now);
    return true;
}

static void attach_ldst(test_system *s)
{
    ldst_unit_params params;
    char error[512] = "";
    CHECK(simtx_params_init(ldst_unit_block_info.params, &params, error, sizeof error));
    s->ldst_observer = simtx_observer_create();
    simtx_env env = {.context = s, .instance_name = "sm0_ldst", .send = ldst_send, .fail = record_failure, .observer = s->ldst_observer};
    s->ldst = ldst_unit_block_info.create(&params, &env, error, sizeof error);
    simtx_params_release(ldst_unit_block_info.params, &params);
    CHECK(s->ldst != NULL);
    s->ldst_next = SIMTX_NEVER;
}

static void attach_lds(test_system *s)
{
    lds_params params;
    char error[512] = "";
    CHECK(simtx_params_init(lds_block_info.params, &params, error, sizeof error));
    s->lds_observer = simtx_observer_create();
    simtx_env env = {.context = s, .instance_name = "sm0_lds", .send = lds_respond, .fail = record_failure, .observer = s->lds_observer};
    s->lds = lds_block_info.create(&params, &env, error, sizeof error);
    simtx_params_release(lds_block_info.params, &params);
    CHECK(s->lds != NULL);
    s->lds_next = SIMTX_NEVER;
    attach_ldst(s);
}

static void detach_lds(test_system *s)
{
    lds_block_info.destroy(s->lds);
    simtx_observer_destroy(s->lds_observer);
    ldst_unit_block_info.destroy(s->ldst);
    simtx_observer_destroy(s->ldst_observer);
}

static bool backend_access(void *context, bool is_write, uint32_t address, void *data, size_t size)
{
    test_system *s = context;
    if (s->memory_end && address + (uint64_t)size > s->memory_end) return false;
    if (is_write) sparse_memory_write(s->memory, address, data, size);
    else sparse_memory_read(s->memory, address, data, size);
    return true;
}

static bool backend_launch(void *context, simt_launch *launch, char *error, size_t error_size)
{
    test_system *s = context;
    return simt_core_start_launch(s->core, launch, error, error_size);
}

static bool backend_run(void *context, char *error, size_t error_size)
{
    test_system *s = context;
    const simtx_block_info *info = &simt_core_block_info;
    uint64_t next = s->now;
    for (uint64_t steps = 0; !s->failure[0]; steps++) {
        if (steps > 10000000) {
            snprintf(error, error_size, "no progress");
            return false;
        }
        /* Deliver due responses, then tick when the core or a response needs it. */
        for (size_t i = 0; i < s->count;)
            if (s->due[i] <= s->now) {
                if (!ldst_deliver(s, LDST_MEMORY, &s->in_flight[i])) {
                    i++;
                    continue;
                }
                s->in_flight[i] = s->in_flight[--s->count];
                s->due[i] = s->due[s->count];
                next = s->now + 1;
            } else i++;
        if (s->lds_next <= s->now) { /* its responses reach the core now: tick it, and it may send again */
            s->lds_next = lds_block_info.cycle(s->lds, s->now);
            info->port_free(s->core, LDS_SOCKET);
            next = s->now;
        }
        if (s->ldst_next <= s->now) { /* likewise: it may take a refused beat again */
            s->ldst_next = ldst_unit_block_info.cycle(s->ldst, s->now);
            ldst_unit_block_info.port_free(s->ldst, LDST_MEMORY);
            info->port_free(s->core, LDST_SOCKET);
            next = s->now;
        }
        if (next <= s->now) next = info->cycle(s->core, s->now);
        uint64_t earliest = next < s->lds_next ? next : s->lds_next;
        if (s->ldst_next < earliest) earliest = s->ldst_next;
        for (size_t i = 0; i < s->count; i++)
            if (s->due[i] < earliest) earliest = s->due[i];
        if (earliest == SIMTX_NEVER) break;
        s->now = earliest > s->now ? earliest : s->now + 1;
    }
    if (s->failure[0]) {
        snprintf(error, error_size, "%s", s->failure);
        return false;
    }
    return info->finished(s->core);
}

static bool backend_statistic(void *context, size_t index, gpu_statistic_entry *entry)
{
    (void)context, (void)index, (void)entry;
    return false;
}

static uint64_t statistic(test_system *s, const char *name);
static void destroy_system(test_system *s);

/* The core's parameters at their defaults (release them with the system). */
static simt_core_params default_params(void)
{
    simt_core_params params;
    char error[512] = "";
    CHECK(simtx_params_init(simt_core_block_info.params, &params, error, sizeof error));
    return params;
}

/* A core made from params (released here), its memory and its lds. */
static test_system *system_from(simt_core_params *params)
{
    test_system *s = calloc(1, sizeof *s);
    s->memory = sparse_memory_create();
    s->observer = simtx_observer_create();
    char error[512] = "";
    simtx_env env = {.context = s, .instance_name = "sm0", .send = memory_send, .fail = record_failure, .observer = s->observer};
    s->core = simt_core_block_info.create(params, &env, error, sizeof error);
    simtx_params_release(simt_core_block_info.params, params);
    CHECK(s->core != NULL);
    attach_lds(s);
    return s;
}

static test_system *create_system_with(int lanes, int warps, const char *scheduler, int schedulers, const char *trace_file)
{
    simt_core_params params = default_params();
    params.lanes = lanes;
    params.warps = warps;
    params.schedulers = schedulers;
    free(params.scheduler);
    params.scheduler = strdup(scheduler);
    free(params.trace_file);
    params.trace_file = strdup(trace_file);
    return system_from(&params);
}

static test_system *create_system(int lanes, int warps)
{
    return create_system_with(lanes, warps, "gto", 2, "");
}

/* Busy cycles of one warp running the multiply chain with a given
 * multiply latency. */
static uint64_t mul_chain_cycles(int64_t mul_latency, uint32_t iterations)
{
    simt_core_params params = default_params();
    params.mul_latency = mul_latency;
    test_system *s = system_from(&params);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/ldst_patterns_O2.elf");
    uint32_t out = gpu_malloc(device, 32 * 4);
    uint32_t args[3] = {0, out, iterations};
    CHECK(module && gpu_launch(device, module, "mul_chain", (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    uint64_t cycles = statistic(s, "busy_cycles");
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s);
    return cycles;
}

static void destroy_system(test_system *s)
{
    detach_lds(s);
    simt_core_block_info.destroy(s->core);
    sparse_memory_destroy(s->memory);
    simtx_observer_destroy(s->observer);
    free(s);
}

static uint64_t statistic(test_system *s, const char *name)
{
    const simtx_stat_entry *entry = simtx_observer_find_stat(s->observer, name);
    return entry ? *(const uint64_t *)entry->value : UINT64_MAX;
}

/* One warp: requests after coalescing and the lds's bank-conflict cycles are exact. */
static void run_pattern(const char *kernel, int lanes, uint32_t stride, uint64_t expected_requests, uint64_t expected_conflict_cycles)
{
    test_system *s = create_system(lanes, 4);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/ldst_patterns_O2.elf");
    if (!CHECK(module != NULL)) {
        fprintf(stderr, "  %s\n", gpu_last_error(device));
        return;
    }
    uint32_t data = gpu_malloc(device, 64 * 64 * 4 + 256), out = gpu_malloc(device, 64 * 4);
    uint32_t args[3] = {data, out, stride};
    CHECK(gpu_launch(device, module, kernel, (gpu_dim3){1, 1, 1}, (gpu_dim3){(uint32_t)lanes, 1, 1}, args, sizeof args,
                     (uint32_t)lanes * stride * 4));
    CHECK(gpu_synchronize(device));
    /* The launch's invalidating fence (ldst.h) is one more memory request. */
    const simtx_stat_entry *requests = simtx_observer_find_stat(s->ldst_observer, "memory_requests");
    const simtx_stat_entry *fences = simtx_observer_find_stat(s->ldst_observer, "fences");
    CHECK(fences != NULL && *(const uint64_t *)fences->value == 1);
    CHECK_EQUAL(requests ? *(const uint64_t *)requests->value : UINT64_MAX, expected_requests + 1);
    const simtx_stat_entry *conflicts = simtx_observer_find_stat(s->lds_observer, "bank_conflict_cycles");
    CHECK(conflicts != NULL);
    CHECK_EQUAL(conflicts ? *(const uint64_t *)conflicts->value : UINT64_MAX, expected_conflict_cycles);
    /* Every shared instruction was one request to the lds. */
    const simtx_stat_entry *lds_requests = simtx_observer_find_stat(s->lds_observer, "requests");
    CHECK(lds_requests != NULL);
    CHECK_EQUAL(lds_requests ? *(const uint64_t *)lds_requests->value : UINT64_MAX, statistic(s, "shared_accesses"));
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s);
}

/* Eight warps of a multiply chain on one scheduler: the spread between the
 * first and the last warp to finish. GTO keeps going back to the oldest
 * warps (the youngest starve until they finish); LRR rotates through all. */
static uint64_t finish_spread(const char *scheduler)
{
    char trace_file[] = "/tmp/simtx_scheduler_trace_XXXXXX";
    int fd = mkstemp(trace_file);
    if (!CHECK(fd >= 0)) return 0;
    close(fd);
    test_system *s = create_system_with(32, 8, scheduler, 1, trace_file);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/ldst_patterns_O2.elf");
    uint32_t out = gpu_malloc(device, 256 * 4);
    uint32_t args[3] = {0, out, 40};
    CHECK(module && gpu_launch(device, module, "mul_chain", (gpu_dim3){1, 1, 1}, (gpu_dim3){256, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s); /* closes the trace */
    uint64_t last[8] = {0};
    FILE *trace = fopen(trace_file, "r");
    char line[512];
    while (trace && fgets(line, sizeof line, trace)) {
        unsigned long long cycle;
        unsigned warp;
        if (sscanf(line, "%llu core 0 warp %u", &cycle, &warp) == 2 && warp < 8) last[warp] = cycle;
    }
    if (trace) fclose(trace);
    remove(trace_file);
    uint64_t first_done = UINT64_MAX, last_done = 0;
    for (int w = 0; w < 8; w++) {
        CHECK(last[w] > 0);
        if (last[w] < first_done) first_done = last[w];
        if (last[w] > last_done) last_done = last[w];
    }
    return last_done - first_done;
}

/* .data arrives initialised, .bss zeroed, and both live in global memory. */
static void run_globals(void)
{
    test_system *s = create_system(32, 8);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    uint32_t junk = 0xdeadbeef;
    sparse_memory_write(s->memory, 0x10000000, &junk, 4); /* the loader must overwrite what was there */
    sparse_memory_write(s->memory, 0x10000010, &junk, 4);
    CHECK(!gpu_copy_to_device(device, 0x10000000, &junk, 4)); /* no module loaded yet: nothing lives there */
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/ldst_patterns_O2.elf");
    if (!CHECK(module != NULL)) return;
    CHECK(gpu_module_image(module)->data_segment_count > 0);
    uint32_t out = gpu_malloc(device, 64 * 4);
    uint32_t args[3] = {0, out, 0};
    CHECK(gpu_launch(device, module, "globals", (gpu_dim3){1, 1, 1}, (gpu_dim3){64, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    uint32_t results[64];
    CHECK(gpu_copy_from_device(device, results, out, sizeof results));
    int wrong = 0;
    for (int t = 0; t < 64; t++) wrong += results[t] != 11u * (uint32_t)((t & 3) + 1);
    CHECK_EQUAL(wrong, 0);
    /* Find the globals through the data segments: 99 was stored over 11, the counter reached 64. */
    bool saw_99 = false, saw_64 = false;
    for (size_t i = 0; i < gpu_module_image(module)->data_segment_count; i++) {
        const kernel_segment *segment = &gpu_module_image(module)->data_segments[i];
        for (uint32_t a = segment->address; a + 4 <= segment->address + segment->memory_size; a += 4) {
            uint32_t value = 0;
            gpu_copy_from_device(device, &value, a, 4);
            saw_99 |= value == 99;
            saw_64 |= value == 64;
        }
    }
    CHECK(saw_99);
    CHECK(saw_64);
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s);
}

/* The first logged request of op to [from, from + bytes), or -1. */
static int find_logged(const test_system *s, simtx_op op, uint32_t from, uint32_t bytes)
{
    for (size_t i = 0; i < s->logged; i++)
        if (s->log[i].op == op && s->log[i].address - from < bytes) return (int)i;
    return -1;
}

/* One warp stores p[t], cleans its line (clwb) and stores q[t]. With an
 * sfence between, q's write reaches memory only after the clean has been
 * answered (LATENCY after it arrived) and the warp counts the wait; without
 * one, q's write follows at once. */
static void run_persist_order(bool fenced)
{
    test_system *s = create_system(32, 4);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/pm_order_O2.elf");
    if (!CHECK(module != NULL)) return;
    uint32_t p = gpu_malloc_persistent(device, 128), q = gpu_malloc_persistent(device, 128);
    uint32_t args[3] = {p, q, fenced};
    CHECK(gpu_launch(device, module, "pm_order", (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    CHECK_STRING(gpu_last_error(device), "");
    int store_p = find_logged(s, SIMTX_OP_WRITE, p, 128), clean = find_logged(s, SIMTX_OP_CLEAN_LINE, p, 128);
    int store_q = find_logged(s, SIMTX_OP_WRITE, q, 128);
    if (CHECK(store_p >= 0 && clean > store_p && store_q >= 0)) {
        CHECK_EQUAL(s->log[clean].address, p); /* the line of p (128-byte aligned allocation) */
        uint64_t clean_answered = s->log[clean].arrival + LATENCY;
        if (fenced) CHECK(s->log[store_q].arrival > clean_answered);
        else CHECK(s->log[store_q].arrival < clean_answered);
    }
    CHECK_EQUAL(statistic(s, "sfences"), fenced ? 1u : 0u);
    /* The sfence is decoded after the argument load and branch that follow
     * the clwb, and waits the rest of the clean's LATENCY. */
    uint64_t stalled = statistic(s, "sfence_stall_cycles");
    if (fenced) CHECK(stalled > 0 && stalled < LATENCY);
    else CHECK_EQUAL(statistic(s, "sfence_stall_cycles"), 0);
    const simtx_stat_entry *cleans = simtx_observer_find_stat(s->ldst_observer, "clean_lines");
    CHECK_EQUAL(cleans ? *(const uint64_t *)cleans->value : 0, 1);
    uint32_t values[32];
    CHECK(gpu_copy_from_device(device, values, q, sizeof values));
    CHECK_EQUAL(values[31], 33);
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s);
}

/* A non-temporal store: one write per segment, flagged non-temporal. */
static void run_non_temporal_store(void)
{
    test_system *s = create_system(32, 4);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/pm_order_O2.elf");
    if (!CHECK(module != NULL)) return;
    uint32_t p = gpu_malloc_persistent(device, 128);
    uint32_t args[3] = {p, 0, 0};
    CHECK(gpu_launch(device, module, "pm_nt", (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    int store = find_logged(s, SIMTX_OP_WRITE, p, 128);
    if (CHECK(store >= 0)) CHECK(s->log[store].flags & SIMTX_FLAG_NON_TEMPORAL);
    size_t writes = 0;
    for (size_t i = 0; i < s->logged; i++) writes += s->log[i].op == SIMTX_OP_WRITE;
    CHECK_EQUAL(writes, 1); /* one write for the warp's segment */
    uint32_t values[32];
    CHECK(gpu_copy_from_device(device, values, p, sizeof values));
    CHECK_EQUAL(values[0], 3);
    CHECK_EQUAL(values[31], 34);
    gpu_module_unload(module);
    gpu_device_destroy(device);
    destroy_system(s);
}

static void run_vector_add(const char *opt, int lanes)
{
    test_system *s = calloc(1, sizeof *s);
    s->memory = sparse_memory_create();
    simt_core_params params;
    char error[512] = "";
    CHECK(simtx_params_init(simt_core_block_info.params, &params, error, sizeof error));
    params.lanes = lanes;
    params.warps = 16;
    simtx_env env = {.context = s, .instance_name = "sm0", .send = memory_send, .fail = record_failure};
    s->core = simt_core_block_info.create(&params, &env, error, sizeof error);
    simtx_params_release(simt_core_block_info.params, &params);
    if (!CHECK(s->core != NULL)) return;
    attach_lds(s);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    char path[1024];
    snprintf(path, sizeof path, "%s/vector_add_%s.elf", SIMTX_KERNEL_DIR, opt);
    gpu_module *module = gpu_module_load(device, path);
    CHECK(module != NULL);
    enum { N = 777 };
    int32_t a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = i * 7 - 100, b[i] = 3 * i * i;
    uint32_t da = gpu_malloc(device, sizeof a), db = gpu_malloc(device, sizeof b), dc = gpu_malloc(device, sizeof c);
    CHECK(da && db && dc && da != db);
    CHECK(gpu_copy_to_device(device, da, a, sizeof a));
    CHECK(gpu_copy_to_device(device, db, b, sizeof b));
    uint32_t args[4] = {da, db, dc, N};
    CHECK(gpu_launch(device, module, "vector_add", (gpu_dim3){(N + 127) / 128, 1, 1}, (gpu_dim3){128, 1, 1}, args, sizeof args, 0));
    CHECK(gpu_synchronize(device));
    CHECK_STRING(gpu_last_error(device), "");
    CHECK(gpu_copy_from_device(device, c, dc, sizeof c));
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += c[i] != a[i] + b[i];
    CHECK_EQUAL(wrong, 0);
    CHECK_EQUAL(gpu_launch_count(device), 1);
    CHECK(s->requests > 0);
    /* Errors the API reports itself. */
    CHECK(!gpu_launch(device, module, "no_such_kernel", (gpu_dim3){1, 1, 1}, (gpu_dim3){1, 1, 1}, NULL, 0, 0));
    CHECK_CONTAINS(gpu_last_error(device), "no kernel 'no_such_kernel'");
    CHECK(!gpu_launch(device, module, "vector_add", (gpu_dim3){0, 1, 1}, (gpu_dim3){1, 1, 1}, NULL, 0, 0));
    CHECK(!gpu_launch(device, module, "vector_add", (gpu_dim3){1, 1, 1}, (gpu_dim3){2048, 1, 1}, args, sizeof args, 0));
    CHECK_CONTAINS(gpu_last_error(device), "does not fit core");
    CHECK(!gpu_free(device, 0x12345));
    CHECK(gpu_free(device, db));
    CHECK_EQUAL(gpu_malloc(device, 16), db); /* reused */
    uint32_t persistent = gpu_malloc_persistent(device, 64);
    CHECK(persistent >= 0xa0000000u);
    uint8_t durable[64];
    CHECK(!gpu_has_durable_image(device));
    CHECK(!gpu_copy_from_durable(device, durable, persistent, sizeof durable));
    CHECK_CONTAINS(gpu_last_error(device), "no NVM controllers");
    CHECK(!gpu_copy_from_durable(device, durable, db, sizeof durable));
    CHECK_CONTAINS(gpu_last_error(device), "outside the persistent window");
    CHECK(gpu_malloc(device, (size_t)3 << 30) == 0);
    CHECK_CONTAINS(gpu_last_error(device), "out of global memory");
    CHECK(gpu_module_load(device, "/nonexistent.elf") == NULL);
    gpu_module_unload(module);
    gpu_device_destroy(device);
    detach_lds(s);
    simt_core_block_info.destroy(s->core);
    sparse_memory_destroy(s->memory);
    free(s);
}

/* The durable image of the bounds tests: the in-test memory itself. */
static bool backend_durable_read(void *context, uint32_t address, void *data, size_t size)
{
    return backend_access(context, false, address, data, size);
}

static bool backend_durable_write(void *context, uint32_t address, const void *data, size_t size)
{
    return backend_access(context, true, address, (void *)(uintptr_t)data, size);
}

/* Issue 26 defect 7: every host API call checks its arguments against the
 * live allocations and the device (each of these passed unchecked before). */
static void run_bounds(void)
{
    test_system *s = create_system(32, 4);
    gpu_backend backend = {s, backend_access, backend_launch, backend_run, backend_statistic, NULL, NULL, backend_durable_read,
                           backend_durable_write, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    /* SIZE_MAX rounded up to 0 bytes: it took the address the next allocation then got too. */
    CHECK_EQUAL(gpu_malloc(device, SIZE_MAX), 0);
    CHECK_CONTAINS(gpu_last_error(device), "gpu_malloc(18446744073709551615 bytes): out of global memory");
    CHECK_EQUAL(gpu_malloc_persistent(device, SIZE_MAX - 100), 0);
    uint32_t small = gpu_malloc(device, 256), next = gpu_malloc(device, 256);
    CHECK(small != 0 && next == small + 256);
    /* Copies: 4 KiB into 256 bytes overwrote the next allocation. */
    uint8_t page[4096], back[256];
    memset(page, 0xab, sizeof page);
    CHECK(gpu_memset(device, next, 0x11, 256));
    CHECK(!gpu_copy_to_device(device, small, page, sizeof page));
    CHECK_CONTAINS(gpu_last_error(device), "gpu_copy_to_device(0x10100000, 4096 bytes): the range is larger than the rest of its allocation "
                                           "(nearest: allocation 0x10100000 of 256 bytes)");
    CHECK(gpu_copy_from_device(device, back, next, sizeof back));
    CHECK_EQUAL(back[0], 0x11);
    CHECK(!gpu_copy_to_device(device, small + 255, page, 2)); /* one byte over */
    CHECK(gpu_copy_to_device(device, small + 255, page, 1));
    CHECK(!gpu_copy_from_device(device, back, next + 256, 4)); /* past the last allocation */
    CHECK_CONTAINS(gpu_last_error(device), "outside every live allocation (nearest: allocation 0x10100100 of 256 bytes)");
    CHECK(!gpu_memset(device, small, 0, 257));
    CHECK(!gpu_copy_to_device(device, small, NULL, 4));
    CHECK(gpu_copy_to_device(device, 0, NULL, 0)); /* nothing copied */
    /* A freed allocation is no longer live, and is freed once. */
    CHECK(gpu_free(device, next));
    CHECK(!gpu_copy_from_device(device, back, next, 4));
    CHECK(!gpu_free(device, next));
    CHECK(!gpu_free(device, small + 4));
    /* A reused block is live for its new size only. */
    CHECK_EQUAL(gpu_malloc(device, 16), next);
    CHECK(!gpu_copy_to_device(device, next, page, 17));
    /* The durable image: a range wrapping past 2^32 was taken as inside the window. */
    uint32_t persistent = gpu_malloc_persistent(device, 256);
    CHECK(gpu_copy_to_durable(device, persistent, page, 256));
    CHECK(!gpu_copy_from_durable(device, back, 0xfffffff0u, 0x20));
    CHECK_CONTAINS(gpu_last_error(device), "outside the persistent window");
    CHECK(!gpu_copy_from_durable(device, back, persistent + 128, 256));
    CHECK(!gpu_copy_to_durable(device, small, page, 4)); /* global memory has no durable image */
    /* Memory ends before the window does: the allocation is refused, not the first kernel access. */
    s->memory_end = GPU_HEAP_BASE + (8u << 20);
    CHECK_EQUAL(gpu_malloc(device, 16u << 20), 0);
    CHECK_CONTAINS(gpu_last_error(device), "out of global memory: the device's memory ends before 0x10");
    CHECK(gpu_malloc(device, 1u << 20) != 0); /* what fits still does */
    /* Launch arguments: a module of this device, still loaded; arguments from somewhere. */
    gpu_module *module = gpu_module_load(device, SIMTX_TEST_KERNEL_DIR "/ldst_patterns_O2.elf");
    if (CHECK(module != NULL)) {
        CHECK(!gpu_launch(device, NULL, "mul_chain", (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, NULL, 0, 0));
        CHECK_CONTAINS(gpu_last_error(device), "the module is not one loaded on this device");
        CHECK(!gpu_launch(device, module, "mul_chain", (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, NULL, 12, 0));
        CHECK(!gpu_launch(device, module, NULL, (gpu_dim3){1, 1, 1}, (gpu_dim3){32, 1, 1}, NULL, 0, 0));
        gpu_module_unload(module);
    }
    /* Transactional memory: no tm_units, no check (it passed with 0 commits). */
    CHECK(gpu_serializability_begin(device) == NULL);
    CHECK_CONTAINS(gpu_last_error(device), "cannot record transactions");
    size_t commits = 1;
    CHECK(!gpu_serializability_end(NULL, &commits));
    CHECK_EQUAL(commits, 0);
    CHECK(!gpu_serializability_region(NULL, small, 4));
    double value;
    CHECK(!gpu_statistic(device, NULL, &value));
    CHECK(!gpu_statistic(device, "busy_cycles", NULL));
    CHECK_CONTAINS(gpu_last_error(device), "gpu_statistic: the value pointer is NULL");
    gpu_device_destroy(device);
    destroy_system(s);
}

/* A device recording for the oracle: a second check at once would take the first's history. */
static bool recording_on(void *context, bool on) { return (void)context, (void)on, true; }
static void run_second_check(void)
{
    gpu_backend backend = {NULL, backend_access, NULL, NULL, NULL, recording_on, NULL, NULL, NULL, NULL, NULL, NULL};
    gpu_device *device = gpu_device_create(&backend);
    gpu_serializability *first = gpu_serializability_begin(device);
    CHECK(first != NULL);
    CHECK(gpu_serializability_begin(device) == NULL);
    CHECK_CONTAINS(gpu_last_error(device), "already running");
    gpu_serializability_discard(first);
    gpu_serializability *again = gpu_serializability_begin(device);
    CHECK(again != NULL);
    gpu_serializability_discard(again);
    gpu_device_destroy(device);
}

int main(void)
{
    run_bounds();
    run_second_check();
    run_vector_add("O0", 32);
    run_vector_add("O2", 64);
    run_vector_add("Os", 8);
    /* Coalescing: 32 lanes reading words `stride` apart, then one store. */
    run_pattern("global_stride", 32, 1, 1 + 1, 0);   /* one 128-byte segment */
    run_pattern("global_stride", 32, 2, 2 + 1, 0);   /* 256 bytes: two segments */
    run_pattern("global_stride", 32, 32, 32 + 1, 0); /* a segment per lane */
    run_pattern("global_stride", 64, 1, 2 + 2, 0);   /* 64 lanes: two segments each way */
    /* Banks: 32 banks of 4 bytes; distinct words on one bank serialise. */
    run_pattern("shared_stride", 32, 1, 0, 0);
    run_pattern("shared_stride", 32, 2, 0, 1);   /* 2-way conflict */
    run_pattern("shared_stride", 32, 32, 0, 31); /* every lane on bank 0 */
    run_pattern("shared_stride", 32, 33, 0, 0);  /* odd stride: conflict-free */
    run_globals();
    run_persist_order(true);
    run_persist_order(false);
    run_non_temporal_store();
    /* One iteration of the loop (mul a4,a1,a1; add a1,a3,a4; addi a3,a3,1;
     * bne a2,a3) is a chain: mul latency, one issue cycle, the ALU latency
     * of addi before bne, the branch latency: 20 + 1 + 4 + 2 = 27 cycles
     * with a multiply latency of 20, 14 fewer with 6. */
    uint64_t fast = mul_chain_cycles(6, 40), slow = mul_chain_cycles(20, 40), slower = mul_chain_cycles(20, 80);
    CHECK(fast > 0);
    CHECK_EQUAL(slow - fast, 40 * 14);
    CHECK_EQUAL(slower - slow, 40 * (20 + 1 + 4 + 2));
    fprintf(stderr, "mul chain: %llu cycles at mul latency 6, %llu at 20 (40 iterations), %llu at 20 (80)\n",
            (unsigned long long)fast, (unsigned long long)slow, (unsigned long long)slower);
    uint64_t gto = finish_spread("gto"), lrr = finish_spread("lrr");
    fprintf(stderr, "finish spread: gto %llu cycles, lrr %llu cycles\n", (unsigned long long)gto, (unsigned long long)lrr);
    CHECK(gto > 4 * lrr + 20);
    return simtx_test_summary();
}
