/* BinTree operations shared by the bintree kernels. Node 0 is a sentinel
 * whose right child is the root; node k is {key, left, right} (node
 * indices, 0 = none). */
#ifndef SIMTX_BINTREE_OPS_H
#define SIMTX_BINTREE_OPS_H

#include <stdint.h>

/* Unlinks the node holding key (a node with two children is replaced by
 * its successor node, so a key stays in its node); no-op when absent. */
static void delete_key(uint32_t *nodes, uint32_t key)
{
    uint32_t parent = 0, side = 1, z = nodes[2];
    while (z && nodes[3 * z] != key) {
        parent = z;
        side = key > nodes[3 * z];
        z = nodes[3 * z + 1 + side];
    }
    if (!z) return;
    uint32_t replacement = nodes[3 * z + 2];
    if (nodes[3 * z + 1] && nodes[3 * z + 2]) {
        uint32_t successor_parent = z, successor = nodes[3 * z + 2];
        while (nodes[3 * successor + 1]) {
            successor_parent = successor;
            successor = nodes[3 * successor + 1];
        }
        if (successor_parent != z) {
            nodes[3 * successor_parent + 1] = nodes[3 * successor + 2];
            nodes[3 * successor + 2] = nodes[3 * z + 2];
        }
        nodes[3 * successor + 1] = nodes[3 * z + 1];
        replacement = successor;
    } else if (nodes[3 * z + 1]) {
        replacement = nodes[3 * z + 1];
    }
    nodes[3 * parent + 1 + side] = replacement;
}

static void insert_key(uint32_t *nodes, uint32_t key, uint32_t mine)
{
    uint32_t parent = 0, right = 1;
    uint32_t current = nodes[2];
    while (current) {
        parent = current;
        right = key > nodes[3 * current];
        current = nodes[3 * current + 1 + right];
    }
    nodes[3 * mine] = key;
    nodes[3 * mine + 1] = 0;
    nodes[3 * mine + 2] = 0;
    nodes[3 * parent + 1 + right] = mine;
}

#endif
