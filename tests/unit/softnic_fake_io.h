// WQE builders and fake memory for the softnic's WQE executor (host/gda/softnic_exec.h), shared by the unit test
// and the libFuzzer target: two heaps and a queue block as plain byte vectors, and an io that performs copies and
// atomics only inside them, recording every write and flagging any that would land elsewhere.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/host_entry.h"
#include "host/gda/softnic_exec.h"
#include "runtime/gda_queue.h"

namespace gio_test {

// The local heap, the queue block (scratch words, bounce buffers) and the peer's heap.
struct fake_heaps {
  std::vector<uint8_t> local, queue, remote;
  uint64_t remote_base;  // raddr of remote[0] as the peer's NIC sees it
  fake_heaps(size_t local_bytes, size_t remote_bytes, uint64_t rbase, size_t queue_bytes = 256)
      : local(local_bytes), queue(queue_bytes), remote(remote_bytes), remote_base(rbase) {
    for (size_t i = 0; i < local.size(); ++i) local[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < queue.size(); ++i) queue[i] = (uint8_t)(i * 11 + 3);
    for (size_t i = 0; i < remote.size(); ++i) remote[i] = (uint8_t)(i * 13 + 5);
  }
  gio::softnic_qp_view view(uint32_t qpn, uint32_t lkey, uint32_t rkey, uint32_t qkey = 0x3333) {
    return gio::softnic_qp_view{qpn,  lkey,        local.data(),  local.size(), qkey, queue.data(), queue.size(),
                                rkey, remote_base, remote.data(), remote.size()};
  }
  uint64_t laddr(size_t off) const { return (uint64_t)(uintptr_t)local.data() + off; }
  uint64_t qaddr(size_t off) const { return (uint64_t)(uintptr_t)queue.data() + off; }
  uint64_t raddr(size_t off) const { return remote_base + off; }
};

struct write_range {
  uintptr_t at;
  size_t n;
};

struct fake_io final : gio::softnic_io {
  explicit fake_io(fake_heaps& h) : heaps(h) {}
  fake_heaps& heaps;
  std::vector<write_range> writes;
  bool stray = false;      // a write outside both heaps was attempted (and suppressed)
  bool stray_read = false; // a copy from outside the heaps and `readable` (other than an 8-byte value)
  bool bad_amo = false;    // an atomic with an unknown op, size or alignment
  bool mixed_amo = false;  // atomics on more than one address
  int amos = 0;
  uintptr_t amo_at = 0;
  std::vector<int> ops;    // each atomic's gio_amo_op, in order
  int interfere_left = 0;  // the next this many atomics find the word just incremented by another agent

  write_range readable{0, 0};  // one more readable range (the WQE, for inline payloads)

  static bool in(uintptr_t a, size_t n, uintptr_t b, size_t size) { return a >= b && a - b <= size && n <= size - (a - b); }
  bool inside(const void* p, size_t n) const {
    const uintptr_t a = (uintptr_t)p;
    return in(a, n, (uintptr_t)heaps.local.data(), heaps.local.size()) ||
           in(a, n, (uintptr_t)heaps.queue.data(), heaps.queue.size()) ||
           in(a, n, (uintptr_t)heaps.remote.data(), heaps.remote.size());
  }
  void copy(void* dst, const void* src, size_t n) override {
    writes.push_back({(uintptr_t)dst, n});
    // Small copies may come from the executor's own stack (an atomic's fetched value).
    if (n > 8 && !inside(src, n) && !(readable.n && in((uintptr_t)src, n, readable.at, readable.n))) stray_read = true;
    if (!inside(dst, n)) {
      stray = true;
      return;
    }
    memmove(dst, src, n);
  }
  uint64_t amo(void* p, int op, uint64_t value, uint64_t compare, size_t size) override {
    ++amos;
    writes.push_back({(uintptr_t)p, size});
    if (!inside(p, size)) {
      stray = true;
      return 0;
    }
    if ((size != 4 && size != 8) || (uintptr_t)p % size) {
      bad_amo = true;
      return 0;
    }
    if (amo_at && amo_at != (uintptr_t)p) mixed_amo = true;
    amo_at = (uintptr_t)p;
    const uint64_t mask = size == 8 ? ~0ull : 0xffffffffull;
    uint64_t old = 0;
    memcpy(&old, p, size);  // little-endian host: the low `size` bytes
    if (interfere_left > 0) {  // another agent updates the word just before this atomic
      --interfere_left;
      old = (old + 1) & mask;
      memcpy(p, &old, size);
    }
    uint64_t next = old;
    switch (op) {
      case GIO_AMO_FETCH: break;
      case GIO_AMO_SWAP: next = value; break;
      case GIO_AMO_CSWAP: next = old == (compare & mask) ? value : old; break;
      case GIO_AMO_FETCH_ADD: next = old + value; break;
      case GIO_AMO_FETCH_AND: next = old & value; break;
      case GIO_AMO_FETCH_OR: next = old | value; break;
      case GIO_AMO_FETCH_XOR: next = old ^ value; break;
      default: bad_amo = true; return 0;  // SET returns no old value: never for a fetching NIC atomic
    }
    ops.push_back(op);
    next &= mask;
    memcpy(p, &next, size);
    return old;
  }
  size_t bytes_written() const {
    size_t n = 0;
    for (const auto& w : writes) n += w.n;
    return n;
  }
};

// WQEs as the device builds them, for the QP `fake_heaps::view(kQpn, kLkey, kRkey)`.
namespace mlx5 = gio::mlx5;
constexpr uint32_t kQpn = 0x4242, kLkey = 0x1111, kRkey = 0x2222, kQkey = 0x3333;

struct wqe {
  alignas(64) uint8_t b[64] = {};  // aligned like the softnic's private copy
  mlx5::ctrl_seg* ctrl() { return (mlx5::ctrl_seg*)b; }
};

// ctrl + raddr + data (WRITE/READ).
inline wqe rw(uint8_t opcode, uint16_t idx, uint64_t raddr, uint32_t len, uint64_t laddr, uint32_t rkey = kRkey,
              uint32_t lkey = kLkey, uint8_t ds = 3, uint8_t flags = mlx5::CE_CQ_UPDATE) {
  wqe w;
  mlx5::set_ctrl(w.ctrl(), idx, opcode, 0, kQpn, ds, flags, 0);
  mlx5::set_raddr((mlx5::raddr_seg*)(w.b + 16), raddr, rkey);
  mlx5::set_data((mlx5::data_seg*)(w.b + 32), len, lkey, laddr);
  return w;
}
// ctrl + raddr + atomic + data: 8-byte, or masked 4-byte (runtime/mlx5/wqe.h: operand, compare or
// field boundary, then compare-swap's masks, all ones by default: a plain compare-swap).
inline wqe amo(uint8_t opcode, uint16_t idx, uint64_t raddr, uint64_t swap_add, uint64_t compare, uint64_t laddr,
               size_t size = 8, uint32_t rkey = kRkey, uint32_t lkey = kLkey, uint8_t ds = 4,
               uint32_t swap_mask = ~0u, uint32_t compare_mask = ~0u) {
  wqe w;
  mlx5::set_ctrl(w.ctrl(), idx, opcode, size == 4 ? mlx5::OPMOD_ATOMIC_4B : 0, kQpn, ds, mlx5::CE_CQ_UPDATE, 0);
  mlx5::set_raddr((mlx5::raddr_seg*)(w.b + 16), raddr, rkey);
  if (size == 8) {
    mlx5::set_atomic((mlx5::atomic_seg*)(w.b + 32), swap_add, compare);
  } else {
    mlx5::masked4_words((uint32_t*)(w.b + 32), opcode == mlx5::OP_ATOMIC_MASKED_CS, (uint32_t)swap_add,
                        (uint32_t)compare, swap_mask, compare_mask);
  }
  mlx5::set_data((mlx5::data_seg*)(w.b + 48), (uint32_t)size, lkey, laddr);
  return w;
}
// ctrl + raddr + inline header and payload (the header claims `len`; at most 28 B are copied).
inline wqe inl(uint16_t idx, uint64_t raddr, const void* src, uint32_t len, uint8_t ds, uint32_t rkey = kRkey) {
  wqe w;
  mlx5::set_ctrl(w.ctrl(), idx, mlx5::OP_RDMA_WRITE, 0, kQpn, ds, mlx5::CE_CQ_UPDATE, 0);
  mlx5::set_raddr((mlx5::raddr_seg*)(w.b + 16), raddr, rkey);
  const uint32_t hdr = mlx5::be32(len | mlx5::INLINE_SEG);
  memcpy(w.b + 32, &hdr, 4);
  if (src) memcpy(w.b + 36, src, len < 28 ? len : 28);
  return w;
}

}  // namespace gio_test
