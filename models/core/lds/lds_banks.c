#include "lds_banks.h"

unsigned lds_banks_conflict_degree(const uint32_t *offsets, uint64_t lanes, unsigned banks, unsigned bank_width)
{
    /* At most 64 distinct words: count by comparing banks, which beats
     * clearing a per-bank table for each request. */
    uint32_t words[64], word_banks[64];
    unsigned distinct = 0, worst = 0;
    unsigned width_shift = (unsigned)__builtin_ctz(bank_width);
    /* The usual request first (every lane on a bank of its own, as a
     * unit-stride access): one pass with a bank mask, no comparisons. */
    if (lanes && banks <= 64) {
        uint64_t seen = 0;
        uint64_t m = lanes;
        for (; m; m &= m - 1) {
            uint64_t bit = UINT64_C(1) << ((offsets[__builtin_ctzll(m)] >> width_shift) % banks);
            if (seen & bit) break;
            seen |= bit;
        }
        if (!m) return 1;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t word = offsets[__builtin_ctzll(m)] >> width_shift;
        unsigned k = 0;
        while (k < distinct && words[k] != word) k++;
        if (k < distinct) continue; /* a broadcast: the word is read once */
        uint32_t bank = word % banks;
        unsigned same = 1;
        for (unsigned j = 0; j < distinct; j++) same += word_banks[j] == bank;
        words[distinct] = word;
        word_banks[distinct++] = bank;
        if (same > worst) worst = same;
    }
    return worst;
}
