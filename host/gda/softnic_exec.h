// The softnic's WQE executor: parses one byte-exact mlx5 send WQE, validates it against the QP's
// registrations and performs it through `softnic_io`. Pure (no threads, no globals) so the same
// code runs in the softnic thread and under libFuzzer (tests/fuzz/).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gio {

// What one QP may touch, as a ConnectX's memory registrations would allow: the local heap
// (local_lkey), the queue block with its scratch words and bounce buffers (queue_lkey), and the
// peer's heap (remote_rkey) and data segment (remote_seg_rkey: its globals, host/heap/globals.h)
// as mapped in this process. Each key covers its own region only; any other local address is a
// local protection error.
struct softnic_qp_view {
  uint32_t qpn;
  uint32_t local_lkey;
  uint8_t* local_base;
  uint64_t local_size;
  uint32_t queue_lkey;
  uint8_t* queue_base;
  uint64_t queue_size;
  uint32_t remote_rkey;
  uint64_t remote_base;      // raddr of the peer heap's first byte
  uint8_t* remote_mapped;    // the same bytes as mapped here
  uint64_t remote_size;
  uint32_t remote_seg_rkey;  // 0: the peer has no symmetric data segment
  uint64_t remote_seg_base;
  uint8_t* remote_seg_mapped;
  uint64_t remote_seg_size;
};

// How bytes move (platform copy engines, GPU atomics); tests substitute fakes.
struct softnic_io {
  virtual void copy(void* dst, const void* src, size_t n) = 0;
  // Atomic gio_amo_op on `size` (4 or 8) bytes at `p`; returns the old bits.
  virtual uint64_t amo(void* p, int op, uint64_t value, uint64_t compare, size_t size) = 0;
  virtual ~softnic_io() = default;
};

struct softnic_result {
  uint8_t cqe_opcode;  // mlx5::CQE_REQ or CQE_REQ_ERR
  uint8_t syndrome;    // for errors
  bool signalled;      // CE bit: write a CQE
  uint8_t opcode;      // the WQE's opcode
  uint32_t byte_cnt;
};

// What a ConnectX leaves in a 4-byte word `old` for a masked compare-swap and a masked fetch-add
// (runtime/mlx5/wqe.h masked_cs4_seg, masked_fa4_seg). The fetch-add adds field by field: a bit
// set in `boundary` drops the carry out of that bit.
inline uint32_t masked_cs4_result(uint32_t old, uint32_t swap, uint32_t compare, uint32_t swap_mask,
                                  uint32_t compare_mask) {
  return ((old ^ compare) & compare_mask) ? old : (old & ~swap_mask) | (swap & swap_mask);
}
inline uint32_t masked_fa4_result(uint32_t old, uint32_t add, uint32_t boundary) {
  // With the boundary bits cleared in both operands, no carry can leave a boundary bit (0 + 0 +
  // carry in < 2); each boundary bit then gets its own x ^ a ^ carry-in back from the XOR.
  return ((old & ~boundary) + (add & ~boundary)) ^ ((old ^ add) & boundary);
}

// A masked atomic whose masks match no single atomic of the io runs as a compare-swap loop on the
// word; this many failed compare-swaps in a row (each one means another agent changed the word in
// between) end it with a completion error (SYND_REMOTE_OP) rather than an endless retry.
constexpr int kSoftnicMaskedTries = 4096;

// `wqe` is a private 64-byte copy of the slot; `expect_idx` the index the QP expects next.
softnic_result softnic_execute(const softnic_qp_view& qp, const uint8_t wqe[64], uint16_t expect_idx, softnic_io& io);

}  // namespace gio
