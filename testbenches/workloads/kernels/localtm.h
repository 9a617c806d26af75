/* Kernel side of the GPU-LocalTM workloads: one transaction written once,
 * built twice (CMakeLists.txt).
 *
 *   LOCALTM_TRANSACTION(lock, statements);
 *
 * GPU-LocalTM build: gpu_tx_begin(); statements; gpu_tx_commit(); every
 * LDS access inside is transactional on a LocalTM platform
 * (platforms/si_localtm.lua), global ones stay plain (the paper's ISA).
 * TX serialization build (-DLOCALTM_SERIAL, the paper's baseline "each
 * transaction executed by a single work-item at a time, like a
 * coarse-grained lock"): the statements run under a lock word in the LDS,
 * taken with a shared-memory swap, one lane of a warp after the other (a
 * loop over the lanes), so that a lane spinning on the lock never waits
 * for a lane of its own warp to release it: on an IPDOM SIMT stack a
 * warp-wide spin deadlocks, and clang rotates the textbook "acquire and
 * release in one arm of the if" loop into exactly that spin.
 * Runs on every platform with cores. The statements must not leave the
 * block (no return, break or goto). */
#ifndef SIMTX_LOCALTM_KERNEL_H
#define SIMTX_LOCALTM_KERNEL_H

#include "gpu.h"
#include "localtm_args.h"

#ifdef LOCALTM_SERIAL
#define LOCALTM_TRANSACTION(lock, ...)                                   \
    do {                                                                 \
        uint32_t localtm_lanes_ = gpu_warp_size(), localtm_me_ = gpu_lane_id(); \
        for (uint32_t localtm_lane_ = 0; localtm_lane_ < localtm_lanes_; localtm_lane_++) \
            if (localtm_lane_ == localtm_me_) {                          \
                while (gpu_atomic_exchange((lock), 1u) != 0u) {          \
                }                                                        \
                __VA_ARGS__;                                             \
                gpu_atomic_exchange((lock), 0u);                         \
            }                                                            \
    } while (0)
#else
#define LOCALTM_TRANSACTION(lock, ...)                                   \
    do {                                                                 \
        (void)(lock);                                                    \
        gpu_tx_begin();                                                  \
        __VA_ARGS__;                                                     \
        (void)gpu_tx_commit();                                           \
    } while (0)
#endif

/* The data words of the work-group's LocalTM region (dynamic shared memory). */
#define LOCALTM_DATA gpu_localtm_data()
#define LOCALTM_DATA_FLOAT ((volatile float *)GPU_SHARED_BASE)

#endif
