// The SystemC shim shared by every block, in three parts with their own
// invariants: the payloads that carry messages (payload_pool.hpp), the tick
// scheduler (tick_scheduler.hpp) and the module that wraps a block's C core
// (block_module.hpp). For code that uses the whole shim: a platform, a
// testbench.
#ifndef SIMTX_BLOCK_SC_HPP
#define SIMTX_BLOCK_SC_HPP

#include "block_module.hpp"
#include "payload_pool.hpp"
#include "tick_scheduler.hpp"

#endif
