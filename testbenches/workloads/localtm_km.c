/* localtm_km: GPU-LocalTM's K-Means, one iteration (KM2..KM256). Points
 * and initial centers: integer coordinates in [0, 1024) held in floats,
 * so every squared distance (< 2^22) and every sum (< 2^18) is exact and
 * the result is the same bits in any serial order of the transactions.
 * Oracle: each point's nearest center (ties to the lower index), each
 * center's three sums and count, and its new position sum / count (the
 * old one without points), all bit-exact against the host's float. */
#include "localtm_common.h"

#define KM_COORDINATE_RANGE 1024u

int localtm_km_main(gpu_device *device, workload_context *context)
{
    localtm_setup setup;
    if (localtm_setup_read(context, "localtm_km", &setup)) return 1;
    uint32_t k = (uint32_t)workload_int(context, "centers", 8, 1, LOCALTM_MAX_WORK_ITEMS);
    if (context->bad_input) return 1;
    int status = 0;
    gpu_module *module = NULL;
    uint32_t n = setup.n;
    float *points = malloc(sizeof(float) * 3 * n), *centers = malloc(sizeof(float) * 3 * k);
    float *result = malloc(sizeof(float) * 7 * k), *expected = calloc(7 * (size_t)k, sizeof(float));
    uint32_t *assigned = malloc(sizeof(uint32_t) * n);
    if (!points || !centers || !result || !expected || !assigned) {
        status = workload_fail(context, "out of host memory");
        goto done;
    }
    uint64_t seed = setup.seed;
    for (uint32_t i = 0; i < 3 * n; i++) points[i] = (float)(workload_random(&seed) % KM_COORDINATE_RANGE);
    for (uint32_t i = 0; i < 3 * k; i++) centers[i] = (float)(workload_random(&seed) % KM_COORDINATE_RANGE);
    HOST_CHECK(module = gpu_module_load(device, setup.path));
    uint32_t d_points, d_centers, d_result, d_assigned;
    HOST_CHECK(d_points = gpu_malloc(device, sizeof(float) * 3 * n));
    HOST_CHECK(d_centers = gpu_malloc(device, sizeof(float) * 3 * k));
    HOST_CHECK(d_result = gpu_malloc(device, sizeof(float) * 7 * k));
    HOST_CHECK(d_assigned = gpu_malloc(device, sizeof(uint32_t) * n));
    HOST_CHECK(gpu_copy_to_device(device, d_points, points, sizeof(float) * 3 * n));
    HOST_CHECK(gpu_copy_to_device(device, d_centers, centers, sizeof(float) * 3 * k));
    struct localtm_km_args args = {d_points, d_centers, d_result, d_assigned, n, k, LOCALTM_KM_COORDINATES_WORD(k),
                                   LOCALTM_KM_WORDS(k) - 1};
    if ((status = localtm_launch(device, context, module, "localtm_km", &setup, &args, sizeof args, LOCALTM_KM_WORDS(k)))) goto done;
    HOST_CHECK(gpu_copy_from_device(device, result, d_result, sizeof(float) * 7 * k));
    HOST_CHECK(gpu_copy_from_device(device, assigned, d_assigned, sizeof(uint32_t) * n));
    for (uint32_t t = 0; t < n; t++) {
        const float *p = points + 3 * t;
        uint32_t best = 0;
        float best_distance = 0;
        for (uint32_t c = 0; c < k; c++) {
            float dx = p[0] - centers[3 * c], dy = p[1] - centers[3 * c + 1], dz = p[2] - centers[3 * c + 2];
            float distance = dx * dx + dy * dy + dz * dz;
            if (c == 0 || distance < best_distance) best_distance = distance, best = c;
        }
        if (assigned[t] != best) {
            status = workload_fail(context, "localtm_km: point %u went to center %u, its nearest is %u", t, assigned[t], best);
            goto done;
        }
        for (uint32_t d = 0; d < 3; d++) expected[7 * best + d] += p[d];
        expected[7 * best + 3] += 1;
    }
    for (uint32_t c = 0; c < k; c++) {
        float *e = expected + 7 * c;
        uint32_t count = (uint32_t)e[3], got_count;
        memcpy(&got_count, &result[7 * c + 3], sizeof got_count);
        for (uint32_t d = 0; d < 3; d++) e[4 + d] = count ? e[d] / (float)count : centers[3 * c + d];
        bool same = got_count == count;
        for (uint32_t d = 0; d < 7; d++) same &= d == 3 || !memcmp(&e[d], &result[7 * c + d], sizeof(float));
        if (!same) {
            status = workload_fail(context, "localtm_km: center %u has sums (%.1f %.1f %.1f) count %u, new (%.4f %.4f %.4f); expected "
                                            "(%.1f %.1f %.1f) count %u, new (%.4f %.4f %.4f)", c, (double)result[7 * c],
                                   (double)result[7 * c + 1], (double)result[7 * c + 2], got_count, (double)result[7 * c + 4],
                                   (double)result[7 * c + 5], (double)result[7 * c + 6], (double)e[0], (double)e[1], (double)e[2],
                                   count, (double)e[4], (double)e[5], (double)e[6]);
            goto done;
        }
    }
    if (context->log)
        fprintf(context->log, "localtm_km: %u points on %u centers, every assignment, sum, count and new center exact (mode %s)\n", n,
                k, setup.serial ? "serial" : "tm");
    localtm_print_statistics(device, context, "localtm_km");
done:
    gpu_module_unload(module);
    free(points), free(centers), free(result), free(expected), free(assigned);
    return status;
}
