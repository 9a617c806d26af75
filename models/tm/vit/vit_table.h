/* vit_table: the Version Index Table of one partition as plain data and
 * rules, without timing or messages (the block, vit.c, drives it): regions,
 * the states of their versions (Figure 4), creation times, reference counts,
 * translation, relocation, recycling and timestamp overflow
 * (models/protocols/version.h). */
#ifndef SIMTX_VIT_TABLE_H
#define SIMTX_VIT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VIT_MAX_VERSIONS 32
/* CLOSE points kept for vit_table_boundary (a snapshot's point is the clock
 * just read: far fewer CLOSEs than this pass before its ACQUIRE arrives). */
#define VIT_CLOSE_HISTORY 1024

/* Figure 4's states; VIT_NONE: a slot never used (free, as S4). The values
 * are the version_state probe's. */
typedef enum vit_state { VIT_NONE, VIT_S1, VIT_S2, VIT_S3, VIT_S4, VIT_STATE_COUNT } vit_state;

typedef struct vit_version {
    uint8_t state;       /* vit_state */
    bool written;        /* S2: a write reached it since it opened */
    uint32_t created;    /* S3 (kept in S4 until the slot is reused) */
    uint64_t superseded; /* S3: the next version's creation time (UINT64_MAX: the newest) */
    uint64_t refs;       /* transactions reading it */
} vit_version;

/* A region's copy into its open slot. */
typedef enum vit_copy { VIT_COPY_NONE, VIT_COPY_TO_ISSUE, VIT_COPY_IN_FLIGHT, VIT_COPY_WAIT_SLOT } vit_copy;

typedef struct vit_region {
    uint64_t base, size, relocated;
    int newest;    /* the S3 slot with the latest creation time */
    int open;      /* the S1/S2 slot, or -1 */
    uint8_t copy;  /* vit_copy */
    vit_version v[VIT_MAX_VERSIONS];
} vit_region;

typedef struct vit_table_stats {
    uint64_t versions_created, versions_recycled, copies_started, copies_done;
    uint64_t translations, relocations, acquires, stale_acquires, releases, stale_releases, overflows, wait_slot;
} vit_table_stats;

typedef struct vit_table {
    unsigned versions, capacity, timestamp_bits;
    uint64_t stride, align;
    unsigned count;
    vit_region *regions;
    uint64_t epoch; /* overflows so far: the epoch of the timestamps below */
    uint64_t clock; /* the latest creation time given (in the epoch) */
    uint64_t floor; /* a CLOSE must exceed it: the latest CLOSE or ACQUIRE timestamp (in the epoch) */
    uint64_t closes[VIT_CLOSE_HISTORY]; /* the latest CLOSE points (commit points), a ring */
    uint64_t close_count;               /* CLOSEs so far (the ring holds the last VIT_CLOSE_HISTORY) */
    vit_table_stats stats;
} vit_table;

/* The epoch rule (version.h, OVERFLOW): a commit point P (the timestamp a
 * CLOSE or ACQUIRE carries) lies in epoch P >> timestamp_bits at creation
 * time P mod 2^timestamp_bits, the same in every slice. */
static inline uint64_t vit_table_epoch_of(const vit_table *t, uint64_t point)
{
    return point >> t->timestamp_bits;
}
static inline uint64_t vit_table_time_of(const vit_table *t, uint64_t point)
{
    return point & ((UINT64_C(1) << t->timestamp_bits) - 1);
}

/* Where an access goes. */
typedef enum vit_route {
    VIT_PLAIN,     /* not versioned, not relocated: unchanged */
    VIT_RELOCATED, /* a versions' footprint address, sent to the relocated area */
    VIT_VERSIONED, /* in a region: the version's address */
    VIT_WAIT,      /* a write to a region without an S2: hold it */
    VIT_GONE,      /* a snapshot no version serves */
} vit_route;

/* Returns false with a message naming the parameter. */
bool vit_table_init(vit_table *t, unsigned versions, unsigned capacity, uint64_t stride, uint64_t align,
                    unsigned timestamp_bits, char *error, size_t error_size);
void vit_table_release(vit_table *t);

/* Adds a region; slot 0 is S3 at the current creation time and slot 1's
 * copy is wanted. Returns its index, or -1 with a message naming the
 * allocation (base, size) and why. */
int vit_table_register(vit_table *t, uint64_t base, uint64_t size, uint64_t relocated, char *error, size_t error_size);

/* The region holding address, or -1. */
int vit_table_region_of(const vit_table *t, uint64_t address);

/* Translates an access (snapshot: with *handle). *out is the address to
 * use. A snapshot handle of an earlier epoch (before an overflow) reads the
 * newest readable version, and *handle becomes that version's (the reader
 * learns that its snapshot is gone). */
vit_route vit_table_route(vit_table *t, uint64_t address, bool snapshot, uint64_t *handle, bool writes, uint64_t *out);

/* What an ACQUIRE found. */
typedef enum vit_acquired {
    VIT_PINNED,  /* *handle pins the versions */
    VIT_TOO_OLD, /* some region has no version readable at ts any more (recycled, or its epoch is over) */
    VIT_AHEAD,   /* ts lies in a later epoch than every CLOSE so far (the TM side broke version.h) */
} vit_acquired;

/* The handle of a snapshot at commit point ts (VERSION_NEWEST: the clock),
 * pinning in region `region` (-1: every region) the version it reads; a
 * message in error when not pinned. */
vit_acquired vit_table_acquire(vit_table *t, int region, uint64_t ts, uint64_t *handle, char *error, size_t error_size);
void vit_table_release_snapshot(vit_table *t, int region, uint64_t handle);

/* The snapshot boundary at commit point `point` (version.h, ACQUIRE): the
 * latest CLOSE point at or below it, 0 when no CLOSE reached it. The version
 * a snapshot at `point` reads holds exactly the IDs up to that boundary
 * here (an ID between them retired in the same CLOSE as a later one), so a
 * snapshot is the same prefix at every slice only at a point that is a
 * boundary at each. False when the ring no longer reaches back to `point`. */
bool vit_table_boundary(const vit_table *t, uint64_t point, uint64_t *boundary);

/* Closes the written S2 of `region` (-1: every region) at commit point ts
 * (its creation time: ts mod 2^timestamp_bits). Returns false with a
 * message when ts does not exceed the latest CLOSE or ACQUIRE point.
 * *overflow tells whether ts lies in a later epoch (§4.3: every version but
 * each region's newest state is invalidated, every count reset, and
 * creation times restart from the epoch's base; the CLOSE then closes as
 * usual). *handle: the closed version's (epoch, creation time). */
bool vit_table_close(vit_table *t, int region, uint64_t ts, bool *overflow, uint64_t *handle, char *error, size_t error_size);

/* The next copy to issue: returns false when none; else the region, and the
 * source and destination version bases; its state becomes IN_FLIGHT. */
bool vit_table_next_copy(vit_table *t, int *region, uint64_t *source, uint64_t *target);
/* The copy of `region` finished: its S1 becomes S2. */
void vit_table_copy_done(vit_table *t, int region);

/* The address of version slot k of a region. */
static inline uint64_t vit_version_address(const vit_table *t, const vit_region *r, int slot)
{
    return r->base + (uint64_t)slot * t->stride;
}

/* Host (zero-time) accesses, which see the newest state: where one to
 * address goes. A read: the S2 or else the newest S3 (one address); a write:
 * the newest S3 and the S1/S2 (two), so that a copy under way keeps it; a
 * versions' footprint address: its relocated one. Returns the count of
 * addresses written to to[] (0: unchanged). */
unsigned vit_table_host_addresses(const vit_table *t, uint64_t address, bool write, uint64_t to[2]);

#endif
