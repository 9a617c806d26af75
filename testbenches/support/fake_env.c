#include "fake_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fake_send(void *context, unsigned port, const simtx_msg *msg)
{
    fake_env *fake = context;
    if ((fake->refuse_ports >> port) & 1u) return false;
    if (fake->sent_count == FAKE_ENV_MAX_SENT) {
        fprintf(stderr, "fake_env: more than %d messages sent\n", FAKE_ENV_MAX_SENT);
        abort();
    }
    fake->sent[fake->sent_count] = *msg;
    fake->sent_port[fake->sent_count++] = port;
    return true;
}

static bool fake_can_send(void *context, unsigned port)
{
    const fake_env *fake = context;
    return !((fake->hold_ports >> port) & 1u);
}

static void fake_fail(void *context, const char *message)
{
    fake_env *fake = context;
    snprintf(fake->failure, sizeof fake->failure, "%s", message);
}

void fake_env_init(fake_env *fake, simtx_observer *observer)
{
    memset(fake, 0, sizeof *fake);
    fake->env.context = fake;
    fake->env.instance_name = "under_test";
    fake->env.seed = 1;
    fake->env.send = fake_send;
    fake->env.fail = fake_fail;
    fake->env.can_send = fake_can_send;
    fake->env.observer = observer;
    fake->env.probes_traced = true; /* tests may read the probes */
}

void fake_params(const simtx_block_info *info, void *params, const char *const *settings)
{
    char error[512];
    if (!simtx_params_init(info->params, params, error, sizeof error)) {
        fprintf(stderr, "fake_params: %s\n", error);
        abort();
    }
    for (const char *const *setting = settings; setting && *setting; setting++) {
        const char *equals = strchr(*setting, '=');
        char name[128];
        size_t n = equals ? (size_t)(equals - *setting) : 0;
        if (!equals || n >= sizeof name) abort();
        memcpy(name, *setting, n);
        name[n] = '\0';
        const simtx_param_spec *spec = simtx_param_find(info->params, name);
        simtx_value value;
        if (!spec || !simtx_param_parse_text(spec, equals + 1, &value, error, sizeof error) ||
            !simtx_param_assign(spec, params, &value, error, sizeof error)) {
            fprintf(stderr, "fake_params: bad setting '%s': %s\n", *setting, spec ? error : "unknown parameter");
            abort();
        }
    }
}
