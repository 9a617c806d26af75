// `simtx describe`: the block registry as text for people and as the
// Markdown section of each block's README.
#ifndef SIMTX_DESCRIBE_HPP
#define SIMTX_DESCRIBE_HPP

#include <cstdio>

#include "simtx_block.h"

namespace simtx {

void describe_all(FILE *out);
void describe_block(const simtx_block_info *info, FILE *out);
void describe_block_markdown(const simtx_block_info *info, FILE *out);

} // namespace simtx

#endif
