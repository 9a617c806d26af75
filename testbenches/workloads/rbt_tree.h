/* Host-side red-black tree helpers of the rbt and vacation workloads
 * (kernels/rbt_ops.h's layout: node x is {key, red, parent, left, right},
 * node 0 nil). */
#ifndef SIMTX_WORKLOAD_RBT_TREE_H
#define SIMTX_WORKLOAD_RBT_TREE_H

#include <stddef.h>
#include <stdint.h>

/* Black height of the subtree at x (nodes 1..n), or -1 when an invariant
 * fails (parent pointer, red-red, black heights, range or a cycle; the
 * message in why). Keys are not compared: walk the tree in order for that. */
int rbt_tree_check(const uint32_t *nodes, uint32_t n, uint32_t x, uint32_t parent, uint32_t depth, char *why, size_t size);
/* Height (levels) of a balanced tree of count nodes. */
uint32_t rbt_tree_height(uint32_t count);
/* A balanced red-black subtree of nodes first..last (node order is key
 * order): every level but the deepest is full, so black nodes above it and
 * red nodes on it keep every path's black count equal. Returns its root. */
uint32_t rbt_tree_build(uint32_t *nodes, uint32_t first, uint32_t last, uint32_t parent, uint32_t depth, uint32_t deepest);

#endif
