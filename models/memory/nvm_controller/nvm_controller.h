/* nvm_controller: one channel of byte-addressable persistent memory (PCM /
 * Optane-like media) behind a controller in the persistent domain (ADR): a
 * write is durable, and acknowledged, once the write-pending queue (WPQ)
 * takes it; the WPQ drains to the media later. Reads are scheduled FR-FCFS
 * over the media banks and served from the WPQ when it holds all their
 * bytes. See README.md for the timing formulas. */
#ifndef SIMTX_NVM_CONTROLLER_H
#define SIMTX_NVM_CONTROLLER_H

#include "simtx_block.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nvm_controller_params {
    int64_t banks;                 /* media banks, each serving one access at a time */
    int64_t bank_interleave;       /* bytes of consecutive local addresses per bank */
    int64_t partition;             /* the partition this channel serves */
    int64_t partition_count;       /* partitions the interconnect interleaves over */
    int64_t partition_interleave;  /* bytes per partition chunk */
    int64_t read_cycles;           /* media read, bank busy */
    int64_t write_cycles;          /* media write, bank busy */
    int64_t bus_bytes_per_cycle;   /* channel data bus */
    int64_t wpq_latency;           /* arrival to acknowledgement of a write or forwarded read */
    int64_t read_queue_depth;      /* reads held until answered */
    int64_t wpq_entries;           /* writes held until written to the media */
    int64_t write_drain_threshold; /* WPQ occupancy from which writes go before reads */
} nvm_controller_params;

extern const simtx_block_info nvm_controller_block_info;

typedef struct nvm_controller nvm_controller;

/* The durable image (what survives a power failure under ADR): the media
 * overlaid with every write the WPQ holds, newest last. Reads `size` bytes
 * at `address` in zero time, changing nothing. The block's debug_access
 * reads the same image, so a host reaches it by asking the NVM controllers
 * directly, bypassing the caches (whose dirty lines are not durable). */
void nvm_controller_read_durable(nvm_controller *controller, uint64_t address, void *data, size_t size);
/* Writes the media itself in zero time (host initialisation), and the same
 * bytes of every WPQ entry that overlaps them, so that a later drain does
 * not bring older data back. */
void nvm_controller_write_durable(nvm_controller *controller, uint64_t address, const void *data, size_t size);
/* The media alone, without the WPQ (tests: a write is durable before it
 * reaches the media). */
void nvm_controller_read_media(nvm_controller *controller, uint64_t address, void *data, size_t size);
/* Whether the address lies in this channel's partition (the host asks the
 * controller that holds an address for its durable bytes). */
bool nvm_controller_holds(const nvm_controller *controller, uint64_t address);
/* Writes the WPQ holds now. */
unsigned nvm_controller_wpq_occupancy(const nvm_controller *controller);

#ifdef __cplusplus
}
#endif
#endif
