/* cache_state: the cache engine's state, shared by its files (not part of
 * the engine's interface, cache_engine.h). */
#ifndef SIMTX_CACHE_STATE_H
#define SIMTX_CACHE_STATE_H

#include "cache_engine.h"
#include "msg_queue.h"

/* Messages this cache makes itself carry their kind in the top byte of the
 * id and an index below, so that a response finds its MSHR or entry. */
#define ID_KIND_SHIFT 56
#define ID_INDEX_MASK ((UINT64_C(1) << ID_KIND_SHIFT) - 1)
enum { ID_FILL = 1, ID_EVICTION = 2, ID_FORWARD = 3 };

/* A line's address (address / line_size) lives in the cache's tags array,
 * NO_LINE when the way is empty: a lookup reads one compact array. */
typedef struct cache_line {
    uint32_t valid, dirty; /* sector masks */
    int mshr;              /* the MSHR filling this line, or -1 */
} cache_line;

/* Not a line address (address / line_size reaches it only for the last byte
 * of the address space with 1-byte lines). */
#define NO_LINE UINT64_MAX

/* An access waiting on a line in flight, replayed in arrival order when the
 * fill completes so that each sees exactly the writes that came before it. */
typedef struct mshr_target {
    simtx_msg msg;
    bool respond; /* false: a write-through patch, answered by the next level */
} mshr_target;

typedef struct mshr {
    bool in_use;
    uint64_t line_address;
    unsigned line_index;
    uint32_t requested;    /* sectors asked of the next level */
    uint32_t arrived;      /* sectors received */
    uint32_t full_written; /* sectors a waiting write overwrites completely */
    unsigned fills_outstanding;
    uint8_t status;        /* worst status of the fills */
    uint8_t served_by;     /* farthest simtx_level of the fills (mem.h, LEVELS) */
    unsigned target_count;
    unsigned answers;      /* targets to respond to: the last fill needs room for them (counted
                              here, as the targets' flags lie a message apart in memory) */
    mshr_target *targets;
} mshr;

typedef struct pending_entry {
    simtx_msg request; /* the requester's message, answered when the next level acknowledges */
} pending_entry;

struct cache {
    /* What every cycle reads first, together in the first host cache lines
     * (a platform's caches do not all stay in the host's L1 between their
     * cycles): the queues, the ports' state, the MSHR count, the upcalls. */
    msg_queue input, misses, responses;
    bool upstream_blocked, downstream_blocked;
    /* Per port: an arrival was refused since the port's last room
     * announcement, so the shim may hold one (announcing otherwise only
     * costs the shim a search). */
    bool refused[2];
    bool monitored;                /* the monitor port is bound: emit monitor.h events */
    unsigned mshrs_used;
    unsigned mshrs_noted;          /* the MSHR occupancy average's level */
    simtx_env env;
    cache_config config;
    unsigned sets, sector_size;
    unsigned line_shift;           /* log2(line_size) when a power of two, else 0 (divide) */
    uint64_t lines_per_chunk;      /* partition_interleave / line_size (partitioned L2 slices) */
    bool sets_power_of_two;        /* index sets with a mask */
    cache_line *lines;
    uint64_t *tags;                /* per line: its line address, or NO_LINE */
    /* Per line, its rank as a victim, smallest first: 0 empty, its LRU stamp
     * (from 1), UINT64_MAX while it waits for a fill. A victim search reads
     * this one compact array rather than every way's line state. */
    uint64_t *victim_ranks;
    /* The last lookup's tag search (line address and way, or -1): a request
     * stalled at the head of the input queue searches again on every retry
     * (most of the L2's lookups on vector add). Tags change only in
     * allocate_line and invalidate, which forget it. */
    bool searched;
    uint64_t searched_line;
    int searched_index;
    uint8_t *data;
    mshr *mshrs;
    uint64_t *free_mshrs;          /* bit i: MSHR i is free (the lowest is taken, found without visiting each) */
    pending_entry *pending;
    unsigned *free_pending;
    unsigned free_pending_count;
    uint64_t use_clock;
    cache_stats stats;
    struct {
        uint64_t mshr_occupancy, input_queue, miss_queue, response_queue, pending;
    } probes;
    simtx_msg overflow;            /* scratch for a message queued without room: see queue_tail */
};

/* A step of a tag lookup or a fill, inlined although GCC finds it too big
 * to: the calls' register saves cost more than the code's growth (figures
 * in docs/performance.md, Caches). */
#define LOOKUP_STEP static inline __attribute__((always_inline))

/* A step shared by the engine's files through a header, which the compiler
 * inlines or keeps out of line by its own judgement, as when the engine was
 * one file: `inline` would raise its inlining limits, and the steps it keeps
 * out of line (apply_write, forward, push_fill...) cost more inlined. */
#define CACHE_STEP static __attribute__((unused))

/* The response path's entry (cache_fills.c), out of cache_accept so that a
 * request's arrival does not pay for the fill path's register saves. */
__attribute__((noinline)) simtx_accept_result cache_fills_accept_response(cache *c, const simtx_msg *msg, uint64_t now);

#endif
