/* Red-black tree operations (CLRS, as in RSTM's RBTree benchmark: parent
 * pointers, rotations, insert and delete fix-ups) shared by the rbt and
 * vacation kernels. A tree lives in a node array: node 0 is nil (black,
 * read but never written: RSTM's tree has null children), node x is {key,
 * red, parent, left, right}; the root's index is one word of its own (0:
 * empty). As in RSTM, the root is blackened only when it is red: no
 * transaction writes a word it does not change on every operation, which
 * would make any two operations conflict under write-write detection
 * (SI-TM's commit units, its Writer Table). */
#ifndef SIMTX_RBT_OPS_H
#define SIMTX_RBT_OPS_H

#include <stdint.h>

#define KEY(x) nodes[5 * (x)]
#define RED(x) nodes[5 * (x) + 1]
#define PARENT(x) nodes[5 * (x) + 2]
#define LEFT(x) nodes[5 * (x) + 3]
#define RIGHT(x) nodes[5 * (x) + 4]

static void rbt_rotate_left(uint32_t *nodes, uint32_t *root, uint32_t x)
{
    uint32_t y = RIGHT(x);
    RIGHT(x) = LEFT(y);
    if (LEFT(y)) PARENT(LEFT(y)) = x;
    PARENT(y) = PARENT(x);
    if (!PARENT(x)) *root = y;
    else if (x == LEFT(PARENT(x))) LEFT(PARENT(x)) = y;
    else RIGHT(PARENT(x)) = y;
    LEFT(y) = x;
    PARENT(x) = y;
}

static void rbt_rotate_right(uint32_t *nodes, uint32_t *root, uint32_t x)
{
    uint32_t y = LEFT(x);
    LEFT(x) = RIGHT(y);
    if (RIGHT(y)) PARENT(RIGHT(y)) = x;
    PARENT(y) = PARENT(x);
    if (!PARENT(x)) *root = y;
    else if (x == RIGHT(PARENT(x))) RIGHT(PARENT(x)) = y;
    else LEFT(PARENT(x)) = y;
    RIGHT(y) = x;
    PARENT(x) = y;
}

static void rbt_insert(uint32_t *nodes, uint32_t *root, uint32_t z)
{
    uint32_t y = 0, x = *root;
    while (x) {
        y = x;
        x = KEY(z) < KEY(x) ? LEFT(x) : RIGHT(x);
    }
    PARENT(z) = y;
    if (!y) *root = z;
    else if (KEY(z) < KEY(y)) LEFT(y) = z;
    else RIGHT(y) = z;
    LEFT(z) = 0;
    RIGHT(z) = 0;
    RED(z) = 1;
    while (RED(PARENT(z))) {
        uint32_t zp = PARENT(z), zpp = PARENT(zp);
        if (zp == LEFT(zpp)) {
            uint32_t uncle = RIGHT(zpp);
            if (RED(uncle)) {
                RED(zp) = 0, RED(uncle) = 0, RED(zpp) = 1;
                z = zpp;
            } else {
                if (z == RIGHT(zp)) {
                    z = zp;
                    rbt_rotate_left(nodes, root, z);
                    zp = PARENT(z), zpp = PARENT(zp);
                }
                RED(zp) = 0, RED(zpp) = 1;
                rbt_rotate_right(nodes, root, zpp);
            }
        } else {
            uint32_t uncle = LEFT(zpp);
            if (RED(uncle)) {
                RED(zp) = 0, RED(uncle) = 0, RED(zpp) = 1;
                z = zpp;
            } else {
                if (z == LEFT(zp)) {
                    z = zp;
                    rbt_rotate_right(nodes, root, z);
                    zp = PARENT(z), zpp = PARENT(zp);
                }
                RED(zp) = 0, RED(zpp) = 1;
                rbt_rotate_left(nodes, root, zpp);
            }
        }
    }
    if (RED(*root)) RED(*root) = 0; /* RSTM's: only a red root is written (else every insert writes the word) */
}

/* u's place goes to v. Nil's fields are never written (RSTM's tree has
 * no sentinel: a write to nil's parent, CLRS's trick, would be a word
 * every remove writes, a write-write conflict between any two of them). */
static void rbt_transplant(uint32_t *nodes, uint32_t *root, uint32_t u, uint32_t v)
{
    if (!PARENT(u)) *root = v;
    else if (u == LEFT(PARENT(u))) LEFT(PARENT(u)) = v;
    else RIGHT(PARENT(u)) = v;
    if (v) PARENT(v) = PARENT(u);
}

/* CLRS's delete fix-up with x's parent carried in xp (x may be nil). */
static void rbt_remove_fixup(uint32_t *nodes, uint32_t *root, uint32_t x, uint32_t xp)
{
    while (x != *root && !RED(x)) {
        if (x == LEFT(xp)) {
            uint32_t w = RIGHT(xp);
            if (RED(w)) {
                RED(w) = 0, RED(xp) = 1;
                rbt_rotate_left(nodes, root, xp);
                w = RIGHT(xp);
            }
            if (!RED(LEFT(w)) && !RED(RIGHT(w))) {
                RED(w) = 1;
                x = xp;
                xp = PARENT(x);
            } else {
                if (!RED(RIGHT(w))) {
                    RED(LEFT(w)) = 0, RED(w) = 1;
                    rbt_rotate_right(nodes, root, w);
                    w = RIGHT(xp);
                }
                RED(w) = RED(xp), RED(xp) = 0, RED(RIGHT(w)) = 0;
                rbt_rotate_left(nodes, root, xp);
                x = *root;
            }
        } else {
            uint32_t w = LEFT(xp);
            if (RED(w)) {
                RED(w) = 0, RED(xp) = 1;
                rbt_rotate_right(nodes, root, xp);
                w = LEFT(xp);
            }
            if (!RED(RIGHT(w)) && !RED(LEFT(w))) {
                RED(w) = 1;
                x = xp;
                xp = PARENT(x);
            } else {
                if (!RED(LEFT(w))) {
                    RED(RIGHT(w)) = 0, RED(w) = 1;
                    rbt_rotate_left(nodes, root, w);
                    w = LEFT(xp);
                }
                RED(w) = RED(xp), RED(xp) = 0, RED(LEFT(w)) = 0;
                rbt_rotate_right(nodes, root, xp);
                x = *root;
            }
        }
    }
    if (RED(x)) RED(x) = 0; /* nil and a black root are not written (RSTM writes only what changes there) */
}

static void rbt_remove(uint32_t *nodes, uint32_t *root, uint32_t z)
{
    uint32_t y = z, x, xp, y_was_red = RED(y);
    if (!LEFT(z)) {
        x = RIGHT(z);
        xp = PARENT(z);
        rbt_transplant(nodes, root, z, RIGHT(z));
    } else if (!RIGHT(z)) {
        x = LEFT(z);
        xp = PARENT(z);
        rbt_transplant(nodes, root, z, LEFT(z));
    } else {
        y = RIGHT(z);
        while (LEFT(y)) y = LEFT(y);
        y_was_red = RED(y);
        x = RIGHT(y);
        if (PARENT(y) == z) {
            xp = y; /* x, if not nil, is y's child already */
        } else {
            xp = PARENT(y);
            rbt_transplant(nodes, root, y, RIGHT(y));
            RIGHT(y) = RIGHT(z);
            PARENT(RIGHT(y)) = y;
        }
        rbt_transplant(nodes, root, z, y);
        LEFT(y) = LEFT(z);
        PARENT(LEFT(y)) = y;
        RED(y) = RED(z);
    }
    if (!y_was_red) rbt_remove_fixup(nodes, root, x, xp);
}

/* The node holding key, or 0. */
static inline uint32_t rbt_find(const uint32_t *nodes, const uint32_t *root, uint32_t key)
{
    uint32_t z = *root;
    while (z && KEY(z) != key) z = key < KEY(z) ? LEFT(z) : RIGHT(z);
    return z;
}

#endif
