/* Registers the testbenches' tm_unit filters when the program loads, so that
 * simtx_test_filters (simtx's own main, built with them) can name them in a
 * netlist: `--set 'sm*_tm.filters=test_abort_first'`. */
#include "test_abort_filter.h"

__attribute__((constructor)) static void register_test_filters(void) { test_abort_filter_register(); }
