// The one-PE analysis on the device (--analysis device, the default): every row's level, the order
// by level (ascending original index within a level, the order level_order gives on the host) and,
// for --renumber tiles, tile_order's order and chunks, from L as uploaded. The kernels are in
// analysis_dev.cpp; renumber.h describes the orders themselves.
#pragma once
#include <cstdint>
#include <vector>

namespace spts {

struct device_analysis_params {
  int block = 256;                     // threads per work-group (a multiple of the wave size)
  int grid = 1;                        // work-groups of the grid-stride kernels
  int rows_per_thread = 1;             // the levels kernel's rows a thread: 1, 2, 4 or 8
  bool tiles = false;                  // tile_order's order and chunks instead of level order
  int32_t width = 32, depth = 8;       // tiles: positions by levels (renumber.h)
  unsigned long long timeout_ns = 0;   // bound on every wait for a dependency's level
  unsigned backoff_ns = 0;             // longest sleep between a gated thread's polls (0: none)
  bool inject = false;                 // test only: the last row gets one level more than it has
  bool keep = false;                   // also bring the levels and the order back (host copies below)
};

// Where the analysis's time went, from events between its phases (GPU timestamps, so host work and
// allocations between two events count too; no phase waits for the one before it to be timed).
struct analysis_phases {
  double setup_s = 0;   // the scratch arena (one allocation) and its clearing
  double levels_s = 0;  // the levels kernel, and the largest level brought back
  double sort_s = 0;    // the stable sort of the rows by level
  double order_s = 0;   // the level starts and the level order (new index of each row)
  double tiles_s = 0;   // tiles: the bands' flags, the tiled order, the chunks (on the host) and their upload
};

struct device_analysis {
  int32_t* new_of = nullptr;           // device, n: each original row's new index (in the arena)
  int32_t* chunk_start = nullptr;      // device, tiles: nchunks + 1 chunk boundaries (else null)
  unsigned nchunks = 0;
  int32_t levels = 0;
  int64_t bands = 0, tiled_bands = 0;  // tiles
  analysis_phases phases;
  void* arena = nullptr;               // device scratch holding new_of and, with keep, the levels
  int32_t* level_dev = nullptr;        // keep: the level of each row (in the arena)
  std::vector<int32_t> level, order;   // keep, after fetch_analysis: level per row, new_of per row
  std::vector<int32_t> chunks;         // tiles: the chunk boundaries (on the host in any case)
};

// row_ptr and col: L on the device (n rows, the diagonal last in each row). The caller frees
// chunk_start (hipFree) and the rest with free_analysis once it is done with new_of.
device_analysis analyze_on_device(const int32_t* row_ptr, const int32_t* col, int32_t n,
                                  const device_analysis_params& prm);
// keep: the levels and new_of brought to the host (level, order), apart from the analysis's time.
void fetch_analysis(device_analysis* r, int32_t n);
// The arena (new_of, the levels) freed.
void free_analysis(device_analysis* r);

}  // namespace spts
