// What a PE of the distributed solve needs besides its rows: which PEs need each of its solved
// components, and where its components land in their receive queues (exchange::queue).
// Host C++; every PE computes the same plan from the whole L, so no exchange is needed to agree.
#pragma once
#include <cstdint>
#include <vector>

#include "matrix.h"

namespace spts {

// Bit q of a component's mask: PE q owns a row that depends on it (never the owner's own bit).
// 32 bits: at most 32 PEs (a larger job is refused with a message).
constexpr int kMaxPes = 32;

struct exchange_plan {
  std::vector<uint32_t> send_mask;   // per row of this PE's block
  // Queue layout, in entries. Every PE's receive area holds one region per source PE, in PE order;
  // recv_off/recv_cnt: this PE's regions (from each source), send_off: this PE's region in each
  // destination's area, area: the largest receive area of any PE (the symmetric allocation).
  std::vector<int64_t> recv_off, recv_cnt, send_off;
  int64_t area = 0;
  int64_t sends = 0;                 // (component, PE) pairs this PE sends
};

// Every component's mask (bit q: PE q owns a row that depends on it), over all n rows: the
// exchange plan and the level-set plan both count from it. L need not be lower triangular (a
// renumbered L, renumber.h): a column outside PE q's block [bounds[q], bounds[q+1]) is another PE's.
std::vector<uint32_t> component_masks(const csr& l, const std::vector<int32_t>& bounds);

exchange_plan make_exchange_plan(const csr& l, const std::vector<int32_t>& bounds, int me);

}  // namespace spts
