/* An environment for driving a C core without SystemC: it records what the
 * core sends, can refuse sends on a port (backpressure), and records
 * failures. */
#ifndef SIMTX_FAKE_ENV_H
#define SIMTX_FAKE_ENV_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FAKE_ENV_MAX_SENT 4096

typedef struct fake_env {
    simtx_env env;
    simtx_msg sent[FAKE_ENV_MAX_SENT];
    unsigned sent_port[FAKE_ENV_MAX_SENT];
    size_t sent_count;
    uint64_t refuse_ports; /* bit p: sends on port p return false */
    uint64_t hold_ports;   /* bit p: the receiver holds what port p sent (can_send is false) */
    char failure[512];     /* the last env->fail message */
} fake_env;

/* Sets up env; observer may be NULL. The fake_env must not move afterwards. */
void fake_env_init(fake_env *fake, simtx_observer *observer);
/* Fills a params struct with defaults, then applies "name=value" settings
 * (NULL-terminated); aborts the test on a bad setting. */
void fake_params(const simtx_block_info *info, void *params, const char *const *settings);

#ifdef __cplusplus
}
#endif
#endif
