/* vit_table.c: the Version Index Table's rules (see vit_table.h and
 * models/protocols/version.h). */
#include "vit_table.h"

#include "version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool vit_table_init(vit_table *t, unsigned versions, unsigned capacity, uint64_t stride, uint64_t align,
                    unsigned timestamp_bits, char *error, size_t error_size)
{
    memset(t, 0, sizeof *t);
    if (versions < 2 || versions > VIT_MAX_VERSIONS) {
        snprintf(error, error_size, "parameter 'versions' (%u) must be 2..%u: one readable and one to write", versions,
                 VIT_MAX_VERSIONS);
        return false;
    }
    if (timestamp_bits < 2 || timestamp_bits > VERSION_TIMESTAMP_BITS_MAX) {
        snprintf(error, error_size, "parameter 'timestamp_bits' (%u) must be 2..%u", timestamp_bits, VERSION_TIMESTAMP_BITS_MAX);
        return false;
    }
    if (stride == 0 || (align && stride % align)) {
        snprintf(error, error_size, "parameter 'version_stride' (%" PRIu64 ") must be a positive multiple of 'align' (%" PRIu64 ")",
                 stride, align);
        return false;
    }
    t->versions = versions;
    t->capacity = capacity;
    t->stride = stride;
    t->align = align;
    t->timestamp_bits = timestamp_bits;
    t->regions = calloc(capacity ? capacity : 1, sizeof *t->regions);
    if (!t->regions) {
        snprintf(error, error_size, "out of memory for %u regions", capacity);
        return false;
    }
    return true;
}

void vit_table_release(vit_table *t)
{
    free(t->regions);
    t->regions = NULL;
}

static bool overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size) { return a < b + b_size && b < a + a_size; }

/* Whether [address, address + size) meets region r's versions. */
static bool meets_versions(const vit_table *t, const vit_region *r, uint64_t address, uint64_t size)
{
    for (unsigned k = 0; k < t->versions; k++)
        if (overlaps(address, size, r->base + k * t->stride, r->size)) return true;
    return false;
}

/* ... or its relocated area. */
static bool meets_region(const vit_table *t, const vit_region *r, uint64_t address, uint64_t size)
{
    return meets_versions(t, r, address, size) || overlaps(address, size, r->relocated, (t->versions - 1) * r->size);
}

static const char *layout_error(const vit_table *t, uint64_t base, uint64_t size, uint64_t relocated)
{
    if (size == 0) return "its size is 0";
    if (size > t->stride) return "it is larger than the version stride (one DRAM row index)";
    if (t->align && (base % t->align || size % t->align || relocated % t->align))
        return "its base, size or relocated area is not a multiple of the alignment (whole DRAM rows in every partition)";
    if (base > UINT64_MAX - t->versions * t->stride || relocated > UINT64_MAX - t->versions * size) return "it ends past the address space";
    vit_region self = {.base = base, .size = size, .relocated = relocated};
    if (meets_versions(t, &self, relocated, (t->versions - 1) * size)) return "its relocated area meets its own versions";
    for (unsigned i = 0; i < t->count; i++) {
        const vit_region *r = &t->regions[i];
        for (unsigned k = 0; k < t->versions; k++)
            if (meets_region(t, r, base + k * t->stride, size)) return "its versions meet another region";
        if (meets_region(t, r, relocated, (t->versions - 1) * size)) return "its relocated area meets another region";
        if (meets_versions(t, &self, r->relocated, (t->versions - 1) * r->size)) return "another region's relocated area meets its versions";
    }
    return NULL;
}

int vit_table_register(vit_table *t, uint64_t base, uint64_t size, uint64_t relocated, char *error, size_t error_size)
{
    if (t->count == t->capacity) {
        snprintf(error, error_size,
                 "versioned allocation 0x%" PRIx64 " (%" PRIu64 " bytes) refused: the Version Index Table holds %u regions, all in use",
                 base, size, t->capacity);
        return -1;
    }
    const char *why = layout_error(t, base, size, relocated);
    if (why) {
        snprintf(error, error_size, "versioned allocation 0x%" PRIx64 " (%" PRIu64 " bytes, relocated to 0x%" PRIx64 ") refused: %s",
                 base, size, relocated, why);
        return -1;
    }
    vit_region *r = &t->regions[t->count];
    *r = (vit_region){.base = base, .size = size, .relocated = relocated, .newest = 0, .open = -1, .copy = VIT_COPY_NONE};
    r->v[0] = (vit_version){.state = VIT_S3, .created = (uint32_t)t->clock, .superseded = UINT64_MAX};
    t->stats.versions_created++;
    return (int)t->count++;
}

int vit_table_region_of(const vit_table *t, uint64_t address)
{
    for (unsigned i = 0; i < t->count; i++) {
        const vit_region *r = &t->regions[i];
        if (address >= r->base && address - r->base < r->size) return (int)i;
    }
    return -1;
}

/* The S3 slot a snapshot at ts reads, or -1. */
static int slot_at(const vit_table *t, const vit_region *r, uint64_t ts)
{
    for (unsigned k = 0; k < t->versions; k++) {
        const vit_version *v = &r->v[k];
        if (v->state == VIT_S3 && v->created <= ts && ts < v->superseded) return (int)k;
    }
    return -1;
}

/* Recycles the region's S3 versions that nobody reads and that are not the
 * newest (S4), then gives a region without an S1/S2 its next slot (S1),
 * or marks it waiting for one. */
static void recycle(vit_table *t, vit_region *r)
{
    for (unsigned k = 0; k < t->versions; k++) {
        vit_version *v = &r->v[k];
        if (v->state == VIT_S3 && (int)k != r->newest && v->refs == 0) {
            v->state = VIT_S4;
            t->stats.versions_recycled++;
        }
    }
    if (r->open >= 0 || r->copy == VIT_COPY_TO_ISSUE || r->copy == VIT_COPY_IN_FLIGHT) return;
    /* Round-robin from the newest, so that versions take the slots in turn
     * (Figure 6's versions 0, 1, 2, 3 of a region). */
    for (unsigned step = 1; step < t->versions; step++) {
        unsigned k = ((unsigned)r->newest + step) % t->versions;
        if (r->v[k].state == VIT_NONE || r->v[k].state == VIT_S4) {
            r->v[k] = (vit_version){.state = VIT_S1};
            r->open = (int)k;
            r->copy = VIT_COPY_TO_ISSUE;
            return;
        }
    }
    if (r->copy != VIT_COPY_WAIT_SLOT) t->stats.wait_slot++;
    r->copy = VIT_COPY_WAIT_SLOT;
}

bool vit_table_next_copy(vit_table *t, int *region, uint64_t *source, uint64_t *target)
{
    for (unsigned i = 0; i < t->count; i++) {
        vit_region *r = &t->regions[i];
        if (r->copy == VIT_COPY_NONE) recycle(t, r); /* a fresh region wants its first S1 */
        if (r->copy != VIT_COPY_TO_ISSUE) continue;
        r->copy = VIT_COPY_IN_FLIGHT;
        *region = (int)i;
        *source = vit_version_address(t, r, r->newest);
        *target = vit_version_address(t, r, r->open);
        t->stats.copies_started++;
        return true;
    }
    return false;
}

void vit_table_copy_done(vit_table *t, int region)
{
    vit_region *r = &t->regions[region];
    if (r->open >= 0 && r->v[r->open].state == VIT_S1) r->v[r->open].state = VIT_S2;
    r->copy = VIT_COPY_NONE;
    t->stats.copies_done++;
}

/* Whether address lies in the footprint of versions 1.. of r; *out: where it goes. */
static bool relocate(const vit_table *t, const vit_region *r, uint64_t address, uint64_t *out)
{
    for (unsigned k = 1; k < t->versions; k++) {
        uint64_t start = r->base + k * t->stride;
        if (address >= start && address - start < r->size) {
            *out = r->relocated + (k - 1) * r->size + (address - start);
            return true;
        }
    }
    return false;
}

vit_route vit_table_route(vit_table *t, uint64_t address, bool snapshot, uint64_t *handle, bool writes, uint64_t *out)
{
    *out = address;
    for (unsigned i = 0; i < t->count; i++) {
        vit_region *r = &t->regions[i];
        if (address >= r->base && address - r->base < r->size) {
            uint64_t offset = address - r->base;
            int slot;
            if (snapshot && version_handle_epoch(*handle) == t->epoch) {
                slot = slot_at(t, r, version_handle_timestamp(*handle));
                if (slot < 0) return VIT_GONE;
            } else if (snapshot) { /* before an overflow: the newest readable version, and says so */
                slot = r->newest;
                *handle = version_handle(t->epoch, r->v[slot].created);
            } else if (r->open >= 0 && r->v[r->open].state == VIT_S2) {
                slot = r->open;
                if (writes) r->v[slot].written = true;
            } else {
                if (writes) return VIT_WAIT;
                slot = r->newest;
            }
            t->stats.translations++;
            *out = vit_version_address(t, r, slot) + offset;
            return VIT_VERSIONED;
        }
        if (relocate(t, r, address, out)) {
            t->stats.relocations++;
            return VIT_RELOCATED;
        }
    }
    return VIT_PLAIN;
}

vit_acquired vit_table_acquire(vit_table *t, int region, uint64_t ts, uint64_t *handle, char *error, size_t error_size)
{
    if (ts == VERSION_NEWEST) {
        ts = t->clock;
    } else {
        uint64_t epoch = vit_table_epoch_of(t, ts);
        if (epoch != t->epoch) {
            snprintf(error, error_size, "snapshot at %" PRIu64 ": its epoch %" PRIu64 " %s the slice's (%" PRIu64 ")", ts, epoch,
                     epoch < t->epoch ? "is over, after an overflow; not" : "has not begun: no CLOSE reached it; after", t->epoch);
            return epoch < t->epoch ? VIT_TOO_OLD : VIT_AHEAD;
        }
        ts = vit_table_time_of(t, ts);
    }
    unsigned first = region < 0 ? 0 : (unsigned)region, end = region < 0 ? t->count : (unsigned)region + 1;
    for (unsigned i = first; i < end; i++)
        if (slot_at(t, &t->regions[i], ts) < 0) {
            snprintf(error, error_size, "snapshot at %" PRIu64 " of region 0x%" PRIx64 ": no version is readable at that time",
                     ts, t->regions[i].base);
            return VIT_TOO_OLD;
        }
    for (unsigned i = first; i < end; i++) t->regions[i].v[slot_at(t, &t->regions[i], ts)].refs++;
    if (ts > t->floor) t->floor = ts;
    t->stats.acquires++;
    *handle = version_handle(t->epoch, ts);
    return VIT_PINNED;
}

void vit_table_release_snapshot(vit_table *t, int region, uint64_t handle)
{
    if (version_handle_epoch(handle) != t->epoch) {
        t->stats.stale_releases++;
        return;
    }
    uint64_t ts = version_handle_timestamp(handle);
    unsigned first = region < 0 ? 0 : (unsigned)region, end = region < 0 ? t->count : (unsigned)region + 1;
    for (unsigned i = first; i < end; i++) {
        vit_region *r = &t->regions[i];
        int slot = slot_at(t, r, ts);
        if (slot < 0 || r->v[slot].refs == 0) {
            t->stats.stale_releases++;
            continue;
        }
        r->v[slot].refs--;
        recycle(t, r);
    }
    t->stats.releases++;
}

/* Timestamp overflow (§4.3) into `epoch`, at creation time `ts` of it:
 * each region keeps its newest readable state as its only S3 version, now
 * created at ts (it holds every commit point up to ts: nothing later closed);
 * every other readable version is invalidated and every count reset. An S2
 * keeps its writes and an S1 its copy: the CLOSE that overflows then closes
 * the written S2s as usual. */
static void overflow(vit_table *t, uint64_t epoch, uint64_t ts)
{
    for (unsigned i = 0; i < t->count; i++) {
        vit_region *r = &t->regions[i];
        for (unsigned k = 0; k < t->versions; k++) {
            vit_version *v = &r->v[k];
            v->refs = 0;
            if ((int)k == r->newest || v->state != VIT_S3) continue;
            v->state = VIT_S4;
            t->stats.versions_recycled++;
        }
        r->v[r->newest].created = (uint32_t)ts;
        r->v[r->newest].superseded = UINT64_MAX;
        if (r->copy == VIT_COPY_WAIT_SLOT) r->copy = VIT_COPY_NONE;
        recycle(t, r);
    }
    t->epoch = epoch;
    t->clock = t->floor = ts;
    t->stats.overflows++;
}

bool vit_table_close(vit_table *t, int region, uint64_t point, bool *overflowed, uint64_t *handle, char *error, size_t error_size)
{
    uint64_t epoch = vit_table_epoch_of(t, point), ts = vit_table_time_of(t, point);
    *overflowed = epoch > t->epoch;
    if (epoch < t->epoch || (epoch == t->epoch && ts <= t->floor)) {
        snprintf(error, error_size,
                 "CLOSE at %" PRIu64 " (epoch %" PRIu64 ", time %" PRIu64 ") does not exceed the latest CLOSE or ACQUIRE (epoch %" PRIu64
                 ", time %" PRIu64 ")",
                 point, epoch, ts, t->epoch, t->floor);
        return false;
    }
    if (*overflowed) overflow(t, epoch, ts);
    unsigned first = region < 0 ? 0 : (unsigned)region, end = region < 0 ? t->count : (unsigned)region + 1;
    for (unsigned i = first; i < end; i++) {
        vit_region *r = &t->regions[i];
        if (r->open < 0 || r->v[r->open].state != VIT_S2 || !r->v[r->open].written) continue;
        r->v[r->newest].superseded = ts; /* after an overflow, created at ts too: recycled below (its counts were reset) */
        r->v[r->open] = (vit_version){.state = VIT_S3, .created = (uint32_t)ts, .superseded = UINT64_MAX};
        r->newest = r->open;
        r->open = -1;
        r->copy = VIT_COPY_NONE;
        t->stats.versions_created++;
        recycle(t, r);
    }
    t->clock = t->floor = ts;
    t->closes[t->close_count++ % VIT_CLOSE_HISTORY] = point;
    *handle = version_handle(t->epoch, ts);
    return true;
}

bool vit_table_boundary(const vit_table *t, uint64_t point, uint64_t *boundary)
{
    uint64_t kept = t->close_count < VIT_CLOSE_HISTORY ? t->close_count : VIT_CLOSE_HISTORY;
    for (uint64_t i = 1; i <= kept; i++) { /* newest first: CLOSE points rise */
        uint64_t close = t->closes[(t->close_count - i) % VIT_CLOSE_HISTORY];
        if (close <= point) {
            *boundary = close;
            return true;
        }
    }
    *boundary = 0;
    return kept == t->close_count; /* every CLOSE so far lies above it: nothing closed up to it */
}

unsigned vit_table_host_addresses(const vit_table *t, uint64_t address, bool write, uint64_t to[2])
{
    for (unsigned i = 0; i < t->count; i++) {
        const vit_region *r = &t->regions[i];
        if (address >= r->base && address - r->base < r->size) {
            uint64_t offset = address - r->base;
            bool open = r->open >= 0;
            if (!write) {
                int slot = open && r->v[r->open].state == VIT_S2 ? r->open : r->newest;
                to[0] = vit_version_address(t, r, slot) + offset;
                return 1;
            }
            to[0] = vit_version_address(t, r, r->newest) + offset;
            if (!open) return 1;
            to[1] = vit_version_address(t, r, r->open) + offset;
            return 2;
        }
        if (relocate(t, r, address, &to[0])) return 1;
    }
    return 0;
}
