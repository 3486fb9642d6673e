// The level-ordered renumbering of the sync-free solve: a symmetric permutation P L P^T that puts
// each PE's rows in one contiguous block and, inside it, sorts them by level (ascending original
// index within a level). Every level is split over the PEs in contiguous parts, so every PE has
// work at every level that has at least as many rows as there are PEs; narrower levels go whole
// to one PE, runs of them to each PE in turn (renumber.cpp).
// At one PE the result is lower triangular (a row's dependencies are on lower levels). At several
// it is not, but each PE's own dependencies still come before it in its block, which is what the
// kernels' progress argument needs; dependencies on other PEs arrive from their kernels.
// Plain host C++ (inputs library): every PE computes the same renumbering from the whole L.
#pragma once
#include <cstdint>
#include <vector>

#include "matrix.h"

namespace spts {

struct renumbering {
  csr l;                          // the renumbered L: off-diagonals ascending, the diagonal last
  std::vector<int32_t> bounds;    // npes + 1 boundaries of the PEs' blocks in the new numbering
  std::vector<int32_t> old_of;    // new index -> original row
  int32_t levels = 0;
};

// threads: host threads for the permuted copy (0: std::thread::hardware_concurrency, at most 16).
renumbering renumber_by_level(const csr& l, int npes, int threads = 0);

// Each PE keeps its contiguous block of L's rows (blocks: npes + 1 boundaries in L's order, as
// --balance makes them) and orders it by level, ascending original index within a level. Every
// dependency of a row is then earlier in its own block or in a lower PE's: the renumbered L is lower
// triangular at any PE count, and a chain of dependencies crosses from one PE to another at most
// npes - 1 times. renumber_by_level splits every level over the PEs instead, so every PE has work
// at every wide level, but on a natural-order grid the split's place moves from level to level and
// dependencies cross back and forth on every level.
renumbering renumber_in_blocks(const csr& l, const std::vector<int32_t>& blocks, int threads = 0);

// The one-PE renumbering without the copy (the device makes it, renumber_dev.h): (*new_of)[old] is
// the row's new index (by level, ascending original index within a level). Three sequential passes
// over L. Returns the number of levels.
int32_t level_order(const csr& l, std::vector<int32_t>* new_of);

// Tiles (one PE, the thread kernel): the levels in bands of `depth` consecutive levels, each
// band's rows in tiles of `width` consecutive positions of its levels (a position is a row's place
// in its level, in level order). A tile is one work-group's chunk, its rows by level then position,
// so a chain through a tile's levels stays in the work-group (shared memory). Chunks must be
// taken after every chunk they depend on: a band's tiles go in ascending position where every
// dependency inside the band points to a lower tile, descending where every one points to a
// higher one; a band where both occur, or neither order holds, is cut into one-level chunks of
// width * depth rows (always in order). On a natural-order 2D grid every band but the one at the
// middle level is tiled; on most other inputs tiles degenerate to the one-level chunks.
// Consecutive tiles and pieces share one chunk while they fit in width * depth rows.
struct tiling {
  std::vector<int32_t> new_of;       // per original row, its new index
  std::vector<int32_t> chunk_start;  // chunks + 1 boundaries in the new numbering
  int32_t levels = 0;
  int64_t bands = 0, tiled_bands = 0;
};
tiling tile_order(const csr& l, int32_t width, int32_t depth);

}  // namespace spts
