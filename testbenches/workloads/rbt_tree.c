/* Host-side red-black tree helpers of the rbt and vacation workloads
 * (kernels/rbt_ops.h's layout: node x is {key, red, parent, left, right},
 * node 0 nil). */
#include "rbt_tree.h"

#include <stdio.h>

#define NODE(x, f) nodes[5 * (x) + (f)]

/* Black height of the subtree at x, or -1 when an invariant fails (message in why). */
int rbt_tree_check(const uint32_t *nodes, uint32_t n, uint32_t x, uint32_t parent, uint32_t depth, char *why, size_t size)
{
    if (!x) return 1;
    if (x > n || depth > 2 * n + 2) {
        snprintf(why, size, "node %u out of range or a cycle", x);
        return -1;
    }
    if (NODE(x, 2) != parent) {
        snprintf(why, size, "node %u's parent is %u, expected %u", x, NODE(x, 2), parent);
        return -1;
    }
    if (NODE(x, 1) && (NODE(NODE(x, 3), 1) || NODE(NODE(x, 4), 1))) {
        snprintf(why, size, "red node %u has a red child", x);
        return -1;
    }
    int left = rbt_tree_check(nodes, n, NODE(x, 3), x, depth + 1, why, size);
    if (left < 0) return -1;
    int right = rbt_tree_check(nodes, n, NODE(x, 4), x, depth + 1, why, size);
    if (right < 0) return -1;
    if (left != right) {
        snprintf(why, size, "node %u: black heights %d (left) and %d (right) differ", x, left, right);
        return -1;
    }
    return left + !NODE(x, 1);
}

/* Height (levels) of a balanced tree of count nodes. */
uint32_t rbt_tree_height(uint32_t count)
{
    uint32_t height = 0;
    while (count >> height) height++;
    return height;
}

/* A balanced red-black subtree of nodes first..last (node order is key
 * order): every level but the deepest is full, so black nodes above it and
 * red nodes on it keep every path's black count equal. Returns its root. */
uint32_t rbt_tree_build(uint32_t *nodes, uint32_t first, uint32_t last, uint32_t parent, uint32_t depth, uint32_t deepest)
{
    if (first > last) return 0;
    uint32_t middle = first + (last - first) / 2;
    NODE(middle, 1) = depth == deepest && depth > 0;
    NODE(middle, 2) = parent;
    NODE(middle, 3) = middle > first ? rbt_tree_build(nodes, first, middle - 1, middle, depth + 1, deepest) : 0;
    NODE(middle, 4) = rbt_tree_build(nodes, middle + 1, last, middle, depth + 1, deepest);
    return middle;
}

