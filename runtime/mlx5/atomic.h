// Byte order of the result a ConnectX writes for a fetched atomic (fetch-add, compare-swap).
//
// Operands in the WQE are always big-endian, but the old value the NIC lands in the local buffer
// is not: standard 8-byte atomics follow the HCA capability atomic_req_8B_endianness_mode (0:
// big-endian, 1: host order; the Linux driver switches to host order where the firmware offers it),
// and the masked (extended) atomics GIO uses for 4 bytes answer big-endian (UCX records the same
// rule as atomic_arg_sizes_be / ext_atomic_arg_sizes_be and checks uct_ib_atomic_is_be_reply).
// The softnic writes host order. The host learns the mode per NIC and records it in each atomic
// template of the queue (gio_gda_tmpl_v1::reply_order); the device decodes with atomic_reply().
// GIO runs on little-endian hosts only (x86-64, AArch64), where host order is little-endian.
#pragma once
#include "runtime/mlx5/wqe.h"

namespace gio {
namespace mlx5 {

enum : uint8_t {
  REPLY_HOST_ORDER = 0,  // the result word holds the value as the host stores it
  REPLY_BIG_ENDIAN = 1,  // the NIC wrote the value's bytes most significant first
};

// The old value of a `bytes`-wide (4 or 8) atomic from the 8-byte landing word as loaded. A 4-byte
// result occupies the word's first 4 bytes; the other 4 are left over from earlier use.
GIO_HOST_DEVICE inline uint64_t atomic_reply(uint64_t word, uint32_t bytes, uint8_t order) {
  if (bytes == 4) {
    const uint32_t v = (uint32_t)word;
    return order == REPLY_BIG_ENDIAN ? be32(v) : v;
  }
  return order == REPLY_BIG_ENDIAN ? be64(word) : word;
}

// What a ConnectX answers for a `bytes`-wide atomic, given the HCA's current
// atomic_req_8B_endianness_mode: host order only for 8-byte atomics in mode 1 (any non-zero mode,
// as the Linux driver reads it), big-endian otherwise.
GIO_HOST_DEVICE inline uint8_t connectx_reply_order(uint32_t bytes, uint32_t atomic_req_8B_endianness_mode) {
  return bytes == 8 && atomic_req_8B_endianness_mode != 0 ? REPLY_HOST_ORDER : REPLY_BIG_ENDIAN;
}

}  // namespace mlx5
}  // namespace gio
