// A violation never touches memory: every check runs before the first byte moves, and the
// resulting error CQE carries the syndrome a ConnectX would report.
#include "host/gda/softnic_exec.h"

#include <cstring>

#include "runtime/host_entry.h"
#include "runtime/gda_queue.h"

namespace gio {
namespace {
using namespace mlx5;

softnic_result fail(uint8_t opcode, uint8_t syndrome) { return {CQE_REQ_ERR, syndrome, true, opcode, 0}; }

// Remote range [raddr, raddr+len) under rkey -> local mapping, or nullptr.
uint8_t* remote(const softnic_qp_view& qp, uint32_t rkey, uint64_t raddr, uint64_t len) {
  if (rkey && rkey == qp.remote_seg_rkey && qp.remote_seg_mapped) {
    if (raddr < qp.remote_seg_base || raddr - qp.remote_seg_base > qp.remote_seg_size) return nullptr;
    if (len > qp.remote_seg_size - (raddr - qp.remote_seg_base)) return nullptr;
    return qp.remote_seg_mapped + (raddr - qp.remote_seg_base);
  }
  if (rkey != qp.remote_rkey || !qp.remote_mapped) return nullptr;
  if (raddr < qp.remote_base || raddr - qp.remote_base > qp.remote_size) return nullptr;
  if (len > qp.remote_size - (raddr - qp.remote_base)) return nullptr;
  return qp.remote_mapped + (raddr - qp.remote_base);
}

// [addr, addr+len) inside [base, base+size)? (No sum is formed, so nothing wraps.)
bool within(uint64_t addr, uint64_t len, const uint8_t* base_p, uint64_t size) {
  const uint64_t base = (uint64_t)(uintptr_t)base_p;
  return base_p && addr >= base && addr - base <= size && len <= size - (addr - base);
}

// Local range under lkey -> its address, or nullptr: the heap key covers the heap, the queue key
// the queue block, and nothing covers anything else.
uint8_t* local(const softnic_qp_view& qp, uint32_t lkey, uint64_t addr, uint64_t len) {
  const bool ok = (lkey == qp.local_lkey && within(addr, len, qp.local_base, qp.local_size)) ||
                  (lkey == qp.queue_lkey && within(addr, len, qp.queue_base, qp.queue_size));
  return ok ? (uint8_t*)(uintptr_t)addr : nullptr;
}

uint64_t rd64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return be64(v);
}
uint32_t rd32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return be32(v);
}

// A ConnectX performs a masked atomic as one operation. The io offers the plain atomics of
// gio_amo_op, and the masks GIO posts (runtime/gda_amo4.h) each map onto one of them; any
// other mask runs as a compare-swap loop that starts from a fetch. False: the loop gave up
// (kSoftnicMaskedTries), having changed nothing.
template <class Next>
bool cas_loop(softnic_io& io, uint8_t* p, Next next, uint32_t& old) {
  old = (uint32_t)io.amo(p, GIO_AMO_FETCH, 0, 0, 4);
  for (int tries = 0; tries < kSoftnicMaskedTries; ++tries) {
    const uint32_t want = next(old);
    if (want == old) return true;  // nothing to write: the fetch was the whole operation
    const uint32_t seen = (uint32_t)io.amo(p, GIO_AMO_CSWAP, want, old, 4);
    if (seen == old) return true;
    old = seen;
  }
  return false;
}

bool masked_cs4(softnic_io& io, uint8_t* p, uint32_t swap, uint32_t cmp, uint32_t swap_mask, uint32_t cmp_mask,
                uint32_t& old) {
  auto one = [&](int op, uint32_t v, uint32_t c) {
    old = (uint32_t)io.amo(p, op, v, c, 4);
    return true;
  };
  if (cmp_mask == 0) {  // no compare: always swaps
    if (swap_mask == 0) return one(GIO_AMO_FETCH, 0, 0);
    if (swap_mask == ~0u) return one(GIO_AMO_SWAP, swap, 0);
    if ((swap & swap_mask) == 0) return one(GIO_AMO_FETCH_AND, ~swap_mask, 0);
    if ((swap & swap_mask) == swap_mask) return one(GIO_AMO_FETCH_OR, swap_mask, 0);
  } else if (cmp_mask == ~0u && swap_mask == ~0u) {
    return one(GIO_AMO_CSWAP, swap, cmp);
  }
  return cas_loop(io, p, [&](uint32_t o) { return masked_cs4_result(o, swap, cmp, swap_mask, cmp_mask); }, old);
}

bool masked_fa4(softnic_io& io, uint8_t* p, uint32_t add, uint32_t boundary, uint32_t& old) {
  int op = -1;
  if (add == 0) op = GIO_AMO_FETCH;
  else if (boundary == 0) op = GIO_AMO_FETCH_ADD;
  else if (boundary == ~0u) op = GIO_AMO_FETCH_XOR;
  if (op >= 0) {
    old = (uint32_t)io.amo(p, op, add, 0, 4);
    return true;
  }
  return cas_loop(io, p, [&](uint32_t o) { return masked_fa4_result(o, add, boundary); }, old);
}
}  // namespace

softnic_result softnic_execute(const softnic_qp_view& qp, const uint8_t w[64], uint16_t expect_idx, softnic_io& io) {
  const ctrl_seg* c = (const ctrl_seg*)w;
  const uint8_t opcode = ctrl_opcode(c), opmod = ctrl_opmod(c), ds = ctrl_ds(c);
  const bool signalled = (c->fm_ce_se & CE_CQ_UPDATE) != 0;
  if (ctrl_wqe_idx(c) != expect_idx || ctrl_qpn(c) != qp.qpn) return fail(opcode, SYND_LOCAL_QP_OP);
  // This NIC takes WQEs of one WQEBB (every WQE GIO builds); longer ones are refused, not read.
  if (ds < 1 || ds > 4 || (c->fm_ce_se >> 5) > 4) return fail(opcode, SYND_LOCAL_QP_OP);
  if (opcode == OP_NOP) return {CQE_REQ, 0, signalled, opcode, 0};
  if (ds < 3) return fail(opcode, SYND_LOCAL_LENGTH);
  const uint64_t raddr = rd64(w + 16);
  const uint32_t rkey = rd32(w + 24);

  if (opcode == OP_RDMA_WRITE || opcode == OP_RDMA_READ) {
    const uint32_t bc = rd32(w + 32);
    if (opcode == OP_RDMA_WRITE && (bc & INLINE_SEG)) {
      const uint32_t len = bc & ~INLINE_SEG;
      if (4 + len > (uint32_t)(ds - 2) * DS_BYTES) return fail(opcode, SYND_LOCAL_LENGTH);
      uint8_t* dst = remote(qp, rkey, raddr, len);
      if (!dst) return fail(opcode, SYND_REMOTE_ACCESS);
      if (len) io.copy(dst, w + 36, len);
      return {CQE_REQ, 0, signalled, opcode, len};
    }
    const uint64_t addr = rd64(w + 40);
    const uint32_t lkey = rd32(w + 36);
    uint8_t* loc = local(qp, lkey, addr, bc);
    if (!loc) return fail(opcode, SYND_LOCAL_PROT);
    uint8_t* rem = remote(qp, rkey, raddr, bc);
    if (!rem) return fail(opcode, SYND_REMOTE_ACCESS);
    if (bc) opcode == OP_RDMA_WRITE ? io.copy(rem, loc, bc) : io.copy(loc, rem, bc);
    return {CQE_REQ, 0, signalled, opcode, bc};
  }

  const bool masked = opcode == OP_ATOMIC_MASKED_FA || opcode == OP_ATOMIC_MASKED_CS;
  if (opcode == OP_ATOMIC_FA || opcode == OP_ATOMIC_CS || masked) {
    if (ds < 4) return fail(opcode, SYND_LOCAL_LENGTH);
    const size_t size = masked ? (opmod == OPMOD_ATOMIC_4B ? 4 : 0) : 8;
    const uint32_t bc = rd32(w + 48);
    if (size == 0 || bc != size) return fail(opcode, SYND_LOCAL_LENGTH);
    if (raddr % size) return fail(opcode, SYND_REMOTE_INVAL_REQ);
    uint8_t* loc = local(qp, rd32(w + 52), rd64(w + 56), size);
    if (!loc) return fail(opcode, SYND_LOCAL_PROT);
    uint8_t* rem = remote(qp, rkey, raddr, size);
    if (!rem) return fail(opcode, SYND_REMOTE_ACCESS);
    uint64_t old = 0;
    if (size == 8) {
      old = io.amo(rem, opcode == OP_ATOMIC_FA ? GIO_AMO_FETCH_ADD : GIO_AMO_CSWAP, rd64(w + 32), rd64(w + 40), 8);
    } else {
      // Masked 4-byte forms (runtime/mlx5/wqe.h): swap or addend, compare or field boundary, then
      // compare-swap's swap and compare masks.
      uint32_t old4 = 0;
      const bool done = opcode == OP_ATOMIC_MASKED_FA
                            ? masked_fa4(io, rem, rd32(w + 32), rd32(w + 36), old4)
                            : masked_cs4(io, rem, rd32(w + 32), rd32(w + 36), rd32(w + 40), rd32(w + 44), old4);
      if (!done) return fail(opcode, SYND_REMOTE_OP);
      old = old4;
    }
    // The fetched value lands in host byte order (what GIO's device side reads back).
    io.copy(loc, &old, size);
    return {CQE_REQ, 0, signalled, opcode, (uint32_t)size};
  }
  return fail(opcode, SYND_LOCAL_QP_OP);
}

}  // namespace gio
