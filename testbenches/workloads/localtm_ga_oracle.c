#include "localtm_ga_oracle.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernels/localtm_args.h"

uint32_t localtm_ga_written(const localtm_ga_history *h, uint32_t t, uint32_t slot)
{
    uint32_t new_a, new_b;
    localtm_ga_crossover(h->log[2 * t] & 0xffu, h->log[2 * t + 1] & 0xffu, h->cross[t], h->capacity, h->weights_low,
                         h->weights_high, &new_a, &new_b);
    return (slot == h->first[t] ? new_a : new_b) | (t + 1) << 8;
}

static int check(const localtm_ga_history *h, uint32_t *successor, uint32_t *from_initial, uint32_t *indegree,
                 uint32_t *touches, uint32_t *ready, char *error, size_t size)
{
    const uint32_t none = UINT32_MAX, n = h->n;
    for (uint32_t i = 0; i < 2 * n; i++) successor[i] = none;
    for (uint32_t s = 0; s < h->solutions; s++) from_initial[s] = none;
    /* Reads-from: each read names its version's writer (0: initial). */
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t side = 0; side < 2; side++) {
            uint32_t slot = side ? h->second[t] : h->first[t], read = h->log[2 * t + side], writer = read >> 8;
            touches[slot]++;
            uint32_t *claim;
            if (!writer) {
                if (read != h->initial[slot]) {
                    snprintf(error, size, "work-item %u read %#x from solution %u, whose initial word is %#x", t, read, slot,
                             h->initial[slot]);
                    return 1;
                }
                claim = &from_initial[slot];
            } else {
                uint32_t u = writer - 1;
                if (u >= n || u == t || (h->first[u] != slot && h->second[u] != slot) || read != localtm_ga_written(h, u, slot)) {
                    snprintf(error, size, "work-item %u read %#x from solution %u, which work-item %u never wrote", t, read, slot, u);
                    return 1;
                }
                claim = &successor[2 * u + (h->second[u] == slot)];
                indegree[t]++;
            }
            if (*claim != none) {
                snprintf(error, size, "work-items %u and %u both read the same version of solution %u (%#x): a lost update", *claim,
                         t, slot, read);
                return 1;
            }
            *claim = t;
        }
    /* Each solution's chain covers its touchers and ends at its final word. */
    for (uint32_t s = 0; s < h->solutions; s++) {
        uint32_t value = h->initial[s], steps = 0;
        for (uint32_t t = from_initial[s]; t != none && steps <= touches[s]; steps++) {
            value = localtm_ga_written(h, t, s);
            t = successor[2 * t + (h->second[t] == s)];
        }
        if (steps != touches[s] || value != h->final[s]) {
            snprintf(error, size, "solution %u: %u of the %u transactions touching it chain from its initial word, ending at %#x, "
                                  "final word %#x", s, steps, touches[s], value, h->final[s]);
            return 1;
        }
    }
    /* A serial order: Kahn's topological sort of the reads-from edges. */
    uint32_t count = 0, ordered = 0;
    for (uint32_t t = 0; t < n; t++)
        if (!indegree[t]) ready[count++] = t;
    while (ordered < count) {
        uint32_t t = ready[ordered++];
        for (uint32_t side = 0; side < 2; side++)
            if (successor[2 * t + side] != none && !--indegree[successor[2 * t + side]]) ready[count++] = successor[2 * t + side];
    }
    if (ordered != n) {
        snprintf(error, size, "the reads-from order of %u transactions has a cycle: no serial order", n - ordered);
        return 1;
    }
    return 0;
}

int localtm_ga_check(const localtm_ga_history *h, char *error, size_t error_size)
{
    uint32_t *successor = malloc(sizeof(uint32_t) * 2 * (h->n + 1)), *from_initial = malloc(sizeof(uint32_t) * (h->solutions + 1));
    uint32_t *indegree = calloc(h->n + 1, sizeof(uint32_t)), *touches = calloc(h->solutions + 1, sizeof(uint32_t));
    uint32_t *ready = malloc(sizeof(uint32_t) * (h->n + 1));
    int status = -1;
    if (successor && from_initial && indegree && touches && ready)
        status = check(h, successor, from_initial, indegree, touches, ready, error, error_size);
    free(successor), free(from_initial), free(indegree), free(touches), free(ready);
    return status;
}
