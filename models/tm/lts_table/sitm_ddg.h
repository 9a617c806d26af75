/* sitm_ddg: SITM_Oracle's loop detection (ISCA'17 section 6: "perfect loop
 * detection (we construct a dynamic dependence graph in the simulator) with
 * no cost"), as plain data and rules without timing or messages: the exact
 * per-word dependency graph of the running and committed transactions, and
 * a loop verdict exactly when an edge would close a cycle.
 *
 * Nodes are transaction attempts; a slot (transaction ID, 0..ids-1) names
 * its running attempt, a committed attempt stays a node after its slot is
 * reused. An attempt is known by its snapshot C (it sees the commits with
 * commit ID below C: version.h) and, once committed with writes, its commit
 * ID. Edges (Adya's DSG, per word):
 *   wr  W -> R   R read w, W committed w with cid < C_R
 *   rw  R -> W   R read w, W wrote w and is running or committed with cid >= C_R
 *   ww  W' -> W  W wrote w, W' committed w with cid < C_W
 * Writers of one word that are concurrent (the later one's snapshot is not
 * above the earlier's commit ID) never both commit (first committer wins at
 * the commit units): the one left running is DOOMED, and doomed attempts
 * are left out of every path (they abort; a cycle through them is not one).
 *
 * A read or write whose new edge would close a cycle is answered
 * SITM_DDG_LOOP and the edge is not added: the accessing transaction aborts
 * (it is doomed at once). Every other edge is added, so no alarm is early.
 *
 * Order races. The model learns a commit (and its ID) at the attempt's end
 * message, which can reach the block after a later transaction already read
 * the version it wrote. An edge R -> W taken while W looked running is
 * turned round to W -> R when W's commit ID turns out below C_R; if that
 * closes a cycle the reader is doomed (a late loop, counted: it may have
 * passed its commit check already).
 *
 * Pruning keeps the graph small, exactly: a committed node is closed once
 * every running attempt's snapshot is above its position (its commit ID, or
 * C - 1 for a read-only one), because every edge into a committed node comes
 * from an attempt whose snapshot is not above that position. A closed node
 * without live in-edges can never be on a cycle and is dropped (cascading).
 * An attempt whose snapshot is still unknown (no access yet) holds pruning.
 * The block sees an attempt only at its first message, and a warp reads
 * the commit clock for its snapshot before that (its SI_BEGIN may wait for
 * its previous SI_END): so the last SITM_DDG_RETAIN commit positions are
 * never pruned, and an attempt whose snapshot is at or below a pruned
 * position is counted (stale_snapshots: the graph may lack its edges to
 * that node; 0 means every verdict of the run was exact). */
#ifndef SIMTX_SITM_DDG_H
#define SIMTX_SITM_DDG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SITM_DDG_RETAIN 256u /* commit positions kept whatever the floor */

typedef enum sitm_ddg_verdict { SITM_DDG_OK, SITM_DDG_LOOP, SITM_DDG_IGNORED } sitm_ddg_verdict;

typedef struct sitm_ddg_stats {
    uint64_t edges;        /* edges added (distinct node pairs) */
    uint64_t loops;        /* edges refused because they closed a cycle (the accessor aborts) */
    uint64_t flips;        /* edges turned round at a commit that reached the block late */
    uint64_t late_loops;   /* of them, ones that closed a cycle (the reader doomed) */
    uint64_t doomed;       /* attempts left out as losers of a write-write conflict */
    uint64_t doom_misses;  /* doomed attempts that committed after all (0 if the rule holds) */
    uint64_t pruned;       /* committed nodes dropped */
    uint64_t stale_snapshots; /* attempts whose snapshot is at or below a pruned node's position */
    uint64_t nodes_peak;   /* most live nodes */
    uint64_t searches, visited; /* cycle searches and the nodes they visited */
} sitm_ddg_stats;

typedef struct sitm_ddg_node sitm_ddg_node;
typedef struct sitm_ddg_word sitm_ddg_word;

typedef struct sitm_ddg {
    unsigned ids;
    uint32_t *slot;        /* slot -> running node (UINT32_MAX: none) */
    sitm_ddg_node *nodes;
    uint32_t node_count, node_capacity, live;
    uint32_t *running, running_count;     /* running nodes */
    uint32_t *committed, committed_count, committed_capacity; /* live committed nodes */
    sitm_ddg_word *words;  /* open addressing on word + 1 */
    uint32_t word_capacity, word_count;
    uint32_t *stack, stack_capacity;
    uint32_t epoch;
    uint32_t key_max, pruned_max; /* the largest committed position; 1 + the largest pruned one (0: none) */
    sitm_ddg_stats stats;
} sitm_ddg;

/* ids transaction slots (1..65536). Returns false with a message. */
bool sitm_ddg_init(sitm_ddg *g, unsigned ids, char *error, size_t error_size);
void sitm_ddg_release(sitm_ddg *g);

/* A new attempt in slot id (an earlier running one there is aborted). */
void sitm_ddg_begin(sitm_ddg *g, unsigned id);
/* Its snapshot C (it sees commit IDs below C); the first one given stays. */
void sitm_ddg_snapshot(sitm_ddg *g, unsigned id, uint32_t c);
/* Accesses of the running attempt in slot id to a word. */
sitm_ddg_verdict sitm_ddg_read(sitm_ddg *g, unsigned id, uint32_t word);
sitm_ddg_verdict sitm_ddg_write(sitm_ddg *g, unsigned id, uint32_t word);
/* An abstract edge between the running attempts of two slots (the paper's
 * Figures 8 and 9): LOOP when it would close a cycle (not added). */
sitm_ddg_verdict sitm_ddg_edge(sitm_ddg *g, unsigned pred, unsigned succ);
/* Whether the slot's running attempt is doomed (a loop, a late loop, a lost
 * write-write race): its accesses are answered at once. */
bool sitm_ddg_doomed(const sitm_ddg *g, unsigned id);
/* The slot's running attempt will abort for another reason (left out of
 * every path; not counted in `doomed`). */
void sitm_ddg_doom(sitm_ddg *g, unsigned id);
/* The attempt ended: committed with commit ID cid (0: read-only or
 * unknown), or aborted. */
void sitm_ddg_commit(sitm_ddg *g, unsigned id, uint32_t cid);
void sitm_ddg_abort(sitm_ddg *g, unsigned id);

#endif
