#include "durable_common.h"

#include <stdio.h>

int durable_options(workload_context *context, const char *name, durable_run *run)
{
    memset(run, 0, sizeof *run);
    run->name = name;
    run->path_name = workload_string(context, "persist", "nt");
    run->broken = workload_string(context, "broken", "none");
    run->tx_per_cta = (uint32_t)workload_int(context, "tx_per_cta", 1, 1, 64);
    if (context->bad_input) return 1;
    if (!strcmp(run->path_name, "none")) run->path = GPU_PERSIST_NONE;
    else if (!strcmp(run->path_name, "nt")) run->path = GPU_PERSIST_NT;
    else if (!strcmp(run->path_name, "clwb")) run->path = GPU_PERSIST_CLWB;
    else if (!strcmp(run->path_name, "adaptive")) run->path = GPU_PERSIST_ADAPTIVE;
    else return workload_bad_option(context, "workload.persist must be none, nt, clwb or adaptive, got '%s'", run->path_name);
    if (!strcmp(run->broken, "none")) {
        workload_kernel_path(context, name, run->kernel, sizeof run->kernel);
    } else if (!strcmp(run->broken, "no_sfence") || !strcmp(run->broken, "data_before_log") || !strcmp(run->broken, "reused_log")) {
        if (run->path == GPU_PERSIST_NONE) return workload_bad_option(context, "workload.broken=%s needs persist=nt, clwb or adaptive", run->broken);
        snprintf(run->kernel, sizeof run->kernel, "%s/%s_%s_O2.elf", context->kernel_dir, name, run->broken);
    } else {
        return workload_bad_option(context, "workload.broken must be none, no_sfence, data_before_log or reused_log, got '%s'", run->broken);
    }
    return context->bad_input ? 1 : 0;
}

bool durable_prepare(gpu_device *device, durable_run *run, uint32_t ctas, uint32_t threads, uint32_t entries)
{
    run->ctas = ctas;
    if (run->path == GPU_PERSIST_NONE) return true;
    return gpu_durable_region_create(device, ctas, threads, entries, &run->region);
}

bool durable_synchronize(gpu_device *device, durable_run *run)
{
    if (gpu_synchronize(device)) return true;
    run->crashed = gpu_crashed(device);
    return run->crashed;
}

int durable_recover(gpu_device *device, workload_context *context, durable_run *run, uint8_t *states, gpu_durable_recovery *report)
{
    memset(report, 0, sizeof *report);
    for (uint32_t cta = 0; cta < run->ctas; cta++) states[cta] = GPU_DURABLE_COMPLETE;
    if (run->path == GPU_PERSIST_NONE) return 0;
    if (!gpu_durable_recover(device, &run->region, run->ctas, states, report))
        return workload_fail(context, "%s: recovery: %s", run->name, gpu_last_error(device));
    return 0;
}

void durable_tally_words(durable_tally *tally, const uint32_t *durable, const uint32_t *before, const uint32_t *after,
                         const uint32_t *owner, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        durable_tally *t = &tally[owner[i]];
        t->outputs++;
        t->new_values += durable[i] == after[i];
        t->old_values += durable[i] == before[i];
    }
}

static const char *state_name(uint8_t state)
{
    return state == GPU_DURABLE_IDLE ? "IDLE" : state == GPU_DURABLE_IN_TX ? "IN_TX" : state == GPU_DURABLE_COMPLETE ? "COMPLETE" : "invalid";
}

/* The CTA's units: the first torn one, and the first lost one (its outputs
 * not all new while a later unit has new ones, or the CTA COMPLETE without
 * its first transaction), UINT32_MAX when none. */
static void check_cta(const durable_run *run, uint8_t state, const durable_tally *units, uint32_t *torn, uint32_t *lost)
{
    *torn = *lost = UINT32_MAX;
    uint32_t first_not_new = UINT32_MAX;
    for (uint32_t r = 0; r < run->tx_per_cta; r++) {
        const durable_tally *t = &units[r];
        bool all_new = t->new_values == t->outputs, all_old = t->old_values == t->outputs;
        if (!all_new && !all_old && *torn == UINT32_MAX) *torn = r;
        if (!all_old && first_not_new != UINT32_MAX && *lost == UINT32_MAX) *lost = first_not_new;
        if (!all_new && first_not_new == UINT32_MAX) first_not_new = r;
    }
    if (state == GPU_DURABLE_COMPLETE && units[0].new_values != units[0].outputs) *lost = 0;
}

/* "CTA c" with one transaction per CTA, "CTA c's transaction r of T" with several. */
static const char *unit_name(const durable_run *run, uint32_t cta, uint32_t r, char *out, size_t size)
{
    if (run->tx_per_cta == 1) snprintf(out, size, "CTA %u", cta);
    else snprintf(out, size, "CTA %u's transaction %u of %u", cta, r, run->tx_per_cta);
    return out;
}

int durable_verdict(workload_context *context, const durable_run *run, const uint8_t *states, const durable_tally *tally,
                    const gpu_durable_recovery *report)
{
    if (run->path == GPU_PERSIST_NONE) {
        if (context->log) fprintf(context->log, "%s (persist=none): no durable transactions to check%s\n", run->name, run->crashed ? " after the power failure" : "");
        return 0;
    }
    uint32_t torn = 0, lost = 0, first_torn = UINT32_MAX, first_lost = UINT32_MAX, torn_unit = 0, lost_unit = 0;
    for (uint32_t cta = 0; cta < run->ctas; cta++) {
        uint32_t torn_at, lost_at;
        check_cta(run, states[cta], &tally[(size_t)cta * run->tx_per_cta], &torn_at, &lost_at);
        if (torn_at != UINT32_MAX && torn++ == 0) first_torn = cta, torn_unit = torn_at;
        if (lost_at != UINT32_MAX && lost++ == 0) first_lost = cta, lost_unit = lost_at;
    }
    if (context->log) {
        if (run->crashed)
            fprintf(context->log,
                    "%s (persist=%s%s%s): after the power failure: %u CTAs complete, %u rolled back (%u log entries undone), %u not "
                    "begun; %u torn, %u lost\n",
                    run->name, run->path_name, strcmp(run->broken, "none") ? ", broken=" : "", strcmp(run->broken, "none") ? run->broken : "",
                    report->complete, report->rolled_back, report->entries_undone, report->idle, torn, lost);
        else
            fprintf(context->log, "%s (persist=%s): durable image: %u CTAs, %u torn, %u lost\n", run->name, run->path_name, run->ctas, torn, lost);
    }
    if (report->bad_states || report->bad_entries)
        return workload_fail(context, "%s: recovery found %u invalid state words and %u log entries outside the persistent window", run->name,
                             report->bad_states, report->bad_entries);
    char name[96];
    if (first_torn != UINT32_MAX) {
        const durable_tally *t = &tally[(size_t)first_torn * run->tx_per_cta + torn_unit];
        return workload_fail(context, "%s: torn transaction: %s (state %s at the failure) has %u of %u outputs new and %u old after recovery (%u torn CTAs)",
                             run->name, unit_name(run, first_torn, torn_unit, name, sizeof name), state_name(states[first_torn]), t->new_values,
                             t->outputs, t->old_values, torn);
    }
    if (first_lost != UINT32_MAX) {
        const durable_tally *t = &tally[(size_t)first_lost * run->tx_per_cta + lost_unit];
        if (states[first_lost] == GPU_DURABLE_COMPLETE && lost_unit == 0)
            return workload_fail(context, "%s: lost transaction: %s was COMPLETE in the durable image but has %u of %u outputs new (%u lost CTAs)",
                                 run->name, unit_name(run, first_lost, lost_unit, name, sizeof name), t->new_values, t->outputs, lost);
        return workload_fail(context, "%s: lost transaction: %s has %u of %u outputs new after recovery, a later transaction of its CTA new ones (%u lost CTAs)",
                             run->name, unit_name(run, first_lost, lost_unit, name, sizeof name), t->new_values, t->outputs, lost);
    }
    if (!run->crashed)
        for (uint32_t cta = 0; cta < run->ctas; cta++)
            for (uint32_t r = 0; r < run->tx_per_cta; r++) {
                const durable_tally *t = &tally[(size_t)cta * run->tx_per_cta + r];
                if (states[cta] != GPU_DURABLE_COMPLETE || t->new_values != t->outputs)
                    return workload_fail(context, "%s: after the run %s is %s in the durable image with %u of %u outputs new", run->name,
                                         unit_name(run, cta, r, name, sizeof name), state_name(states[cta]), t->new_values, t->outputs);
            }
    return 0;
}

void durable_tally_steps(durable_tally *tally, const uint32_t *durable, const uint32_t *values, uint32_t steps, const uint32_t *owner,
                         size_t count)
{
    for (size_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < steps; k++) {
            durable_tally *t = &tally[(size_t)owner[i] * steps + k];
            bool is_new = false, is_old = false;
            for (uint32_t m = 0; m <= steps; m++)
                if (durable[i] == values[(size_t)m * count + i]) {
                    if (m > k) is_new = true;
                    else is_old = true;
                }
            t->outputs++;
            t->new_values += is_new;
            t->old_values += is_old;
        }
}

/* The words a check compares the durable image with: before/after (one
 * transaction per unit) or values over steps (durable_tally_steps). */
typedef struct durable_expected {
    const uint32_t *before, *after, *values, *owner;
    uint32_t steps;
    size_t count;
} durable_expected;

typedef void durable_tally_fn(durable_tally *tally, const uint32_t *durable, const durable_expected *expected);

static void tally_words(durable_tally *tally, const uint32_t *durable, const durable_expected *e)
{
    durable_tally_words(tally, durable, e->before, e->after, e->owner, e->count);
}

static void tally_steps(durable_tally *tally, const uint32_t *durable, const durable_expected *e)
{
    durable_tally_steps(tally, durable, e->values, e->steps, e->owner, e->count);
}

/* The frame both checks share: recovery, the image's count words at address
 * tallied by tally_fn into units_per_cta units per CTA, the verdict. */
static int check_image(gpu_device *device, workload_context *context, durable_run *run, uint32_t units_per_cta, uint32_t address,
                       const durable_expected *expected, durable_tally_fn *tally_fn)
{
    if (!gpu_has_durable_image(device)) return 0;
    int status = 0;
    durable_run units = *run; /* the verdict's units: each step one of its own */
    units.tx_per_cta = units_per_cta;
    size_t count = expected->count;
    uint8_t *states = calloc(run->ctas, 1);
    durable_tally *tally = calloc((size_t)units.ctas * units.tx_per_cta, sizeof *tally);
    uint32_t *durable = malloc(count * sizeof *durable);
    gpu_durable_recovery report;
    if (!states || !tally || !durable) status = workload_fail(context, "out of host memory");
    else if (!(status = durable_recover(device, context, run, states, &report))) {
        if (!gpu_copy_from_durable(device, durable, address, count * sizeof *durable)) {
            status = workload_fail(context, "%s", gpu_last_error(device));
        } else {
            tally_fn(tally, durable, expected);
            status = durable_verdict(context, &units, states, tally, &report);
        }
    }
    free(states), free(tally), free(durable);
    return status;
}

int durable_check_steps(gpu_device *device, workload_context *context, durable_run *run, uint32_t address, const uint32_t *values,
                        uint32_t steps, const uint32_t *owner, size_t count)
{
    if (steps == 1) return durable_check_words(device, context, run, address, values, values + count, owner, count);
    durable_expected expected = {.values = values, .owner = owner, .steps = steps, .count = count};
    return check_image(device, context, run, run->tx_per_cta * steps, address, &expected, tally_steps);
}

int durable_check_words(gpu_device *device, workload_context *context, durable_run *run, uint32_t address, const uint32_t *before,
                        const uint32_t *after, const uint32_t *owner, size_t count)
{
    durable_expected expected = {.before = before, .after = after, .owner = owner, .count = count};
    return check_image(device, context, run, run->tx_per_cta, address, &expected, tally_words);
}

int durable_launch_run(gpu_device *device, workload_context *context, const durable_run *run, gpu_module *module,
                       durable_launch *launch, bool *crashed)
{
    int status = 0;
    durable_run stage = *run; /* a region of its own: no state word or log entry left from an earlier launch */
    uint32_t ctas = launch->grid.x * launch->grid.y * launch->grid.z, threads = launch->block.x * launch->block.y * launch->block.z;
    uint32_t *result = NULL;
    *crashed = false;
    HOST_CHECK(durable_prepare(device, &stage, ctas, threads, launch->entries));
    durable_args_head head = {stage.region, stage.path};
    memcpy(launch->args, &head, sizeof head);
    HOST_CHECK(gpu_launch(device, module, launch->kernel, launch->grid, launch->block, launch->args, launch->args_size, launch->shared_bytes));
    HOST_CHECK(durable_synchronize(device, &stage));
    *crashed = stage.crashed;
    if (!stage.crashed) {
        if (!(result = malloc(launch->count * sizeof *result))) {
            status = workload_fail(context, "out of host memory");
            goto done;
        }
        HOST_CHECK(gpu_copy_from_device(device, result, launch->output, launch->count * sizeof *result));
        for (size_t i = 0; i < launch->count; i++)
            if (result[i] != launch->after[i]) {
                status = workload_fail(context, "%s: %s[%zu] = %u, expected %u (kernel %s)", run->name, launch->what, i, result[i],
                                       launch->after[i], launch->kernel);
                goto done;
            }
    }
    /* One durable-image line per workload, not per launch (a BFS runs dozens). */
    FILE *log = context->log;
    if (!launch->last && !stage.crashed) context->log = NULL;
    status = launch->steps > 1 ? durable_check_steps(device, context, &stage, launch->output, launch->before, launch->steps, launch->owner, launch->count)
                               : durable_check_words(device, context, &stage, launch->output, launch->before, launch->after, launch->owner,
                                                     launch->count);
    context->log = log;
done:
    free(result);
    return status;
}
