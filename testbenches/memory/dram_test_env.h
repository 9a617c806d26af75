/* A plain C environment for driving a dram_controller core without SystemC:
 * records sent responses and failures, and runs the core's cycle loop. */
#ifndef DRAM_TEST_ENV_H
#define DRAM_TEST_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_controller.h"

#define TEST_MAX_RESPONSES 8192

typedef struct test_env {
    simtx_env env;
    simtx_msg responses[TEST_MAX_RESPONSES];
    uint64_t response_cycles[TEST_MAX_RESPONSES];
    unsigned response_count;
    unsigned failures;
    char last_failure[512];
    bool refuse_responses;
    uint64_t now;
    const simtx_block_info *info;
    void *core;
    uint64_t next_wake;
} test_env;

static bool test_send(void *context, unsigned port, const simtx_msg *msg)
{
    test_env *t = context;
    (void)port;
    if (t->refuse_responses || t->response_count == TEST_MAX_RESPONSES) return false;
    t->response_cycles[t->response_count] = t->now;
    t->responses[t->response_count++] = *msg;
    return true;
}

static void test_fail(void *context, const char *message)
{
    test_env *t = context;
    t->failures++;
    snprintf(t->last_failure, sizeof t->last_failure, "%s", message);
}

/* Creates the core with the defaults overridden by name=value pairs
 * (NULL-terminated), or returns NULL with the error in error. */
static void *test_create(test_env *t, const simtx_block_info *info, const char *const *overrides, char *error,
                         size_t error_size)
{
    memset(t, 0, sizeof *t);
    t->env.context = t;
    t->env.instance_name = "dram";
    t->env.seed = 1;
    t->env.send = test_send;
    t->env.fail = test_fail;
    t->info = info;
    void *params = calloc(1, info->params->struct_size);
    if (!simtx_params_init(info->params, params, error, error_size)) return NULL;
    for (unsigned i = 0; overrides && overrides[i]; i += 2) {
        const simtx_param_spec *spec = simtx_param_find(info->params, overrides[i]);
        simtx_value value;
        if (!spec || !simtx_param_parse_text(spec, overrides[i + 1], &value, error, error_size) ||
            !simtx_param_assign(spec, params, &value, error, error_size)) {
            if (!spec) snprintf(error, error_size, "no parameter %s", overrides[i]);
            simtx_params_release(info->params, params);
            free(params);
            return NULL;
        }
    }
    t->core = info->create(params, &t->env, error, error_size);
    simtx_params_release(info->params, params);
    free(params);
    t->next_wake = 0;
    return t->core;
}

static void test_destroy(test_env *t)
{
    if (t->core) t->info->destroy(t->core);
    t->core = NULL;
}

/* Offers a message at cycle now; true when accepted. */
static bool test_offer(test_env *t, const simtx_msg *msg)
{
    if (t->info->accept(t->core, 0, msg, t->now) != SIMTX_ACCEPTED) return false;
    if (t->next_wake > t->now + 1) t->next_wake = t->now + 1;
    return true;
}

/* Runs cycles as the shim would (only when the core asked) up to `until`. */
static void test_run_until(test_env *t, uint64_t until)
{
    while (t->next_wake != SIMTX_NEVER && t->next_wake <= until) {
        if (t->next_wake > t->now) t->now = t->next_wake;
        t->next_wake = t->info->cycle(t->core, t->now);
        if (t->next_wake <= t->now) {
            t->failures++;
            snprintf(t->last_failure, sizeof t->last_failure, "cycle() returned %llu at %llu",
                     (unsigned long long)t->next_wake, (unsigned long long)t->now);
            return;
        }
    }
    if (t->now < until) t->now = until;
}

/* Runs until `count` responses have arrived or the limit passes. */
static bool test_run_for_responses(test_env *t, unsigned count, uint64_t limit)
{
    while (t->response_count < count && t->next_wake != SIMTX_NEVER && t->next_wake <= limit) test_run_until(t, t->next_wake);
    return t->response_count >= count;
}

#endif
