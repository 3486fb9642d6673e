// The softnic: a CPU thread per PE acting as that PE's ConnectX. It watches every send queue's
// doorbell record (not the doorbell value: hardware accepts two payload conventions for that),
// executes new WQEs in order per QP, and writes the collapsed CQE the device polls.
#include <sched.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "host/gda/gda_state.h"
#include "host/gda/softnic_exec.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {
// Most WQEs, and bytes (the turn ends after the WQE that reaches it), one queue gets per pass.
constexpr unsigned kTurnWqes = 16;
constexpr uint64_t kTurnBytes = 64 * 1024;

struct platform_io final : softnic_io {
  const runtime& r;
  explicit platform_io(const runtime& rt) : r(rt) {}
  void copy(void* dst, const void* src, size_t n) override { gpu::nic_copy(dst, src, n); }
  // A global is host memory on every platform, out of the GPU atomic kernel's reach.
  uint64_t amo(void* p, int op, uint64_t v, uint64_t c, size_t size) override {
    return in_host_regions(r, p) ? cpu_amo(p, op, v, c, size, "softnic") : gpu::nic_amo(p, op, v, c, size);
  }
};

// The CQ is collapsed: one CQE, overwritten by every completion while the device and the host's
// drain (gda_drain.cpp read_cq) may be reading the previous one, so every field is stored
// atomically (relaxed; op_own's release store publishes them); plain stores raced with those reads.
void write_cqe(gio_gda_queue_v1& q, const softnic_result& res, uint16_t idx) {
  mlx5::cqe64* c = q.cq;
  __atomic_store_n(&c->byte_cnt, mlx5::be32(res.byte_cnt), __ATOMIC_RELAXED);
  __atomic_store_n(&c->syndrome, res.syndrome, __ATOMIC_RELAXED);
  __atomic_store_n(&c->vendor_err_synd, (uint8_t)(res.cqe_opcode == mlx5::CQE_REQ_ERR ? 0x42 : 0), __ATOMIC_RELAXED);
  __atomic_store_n(&c->sop_drop_qpn, mlx5::be32(((uint32_t)res.opcode << 24) | q.qpn), __ATOMIC_RELAXED);
  __atomic_store_n(&c->wqe_counter, mlx5::be16(idx), __ATOMIC_RELEASE);
  // op_own last: the device reads the rest only after seeing a valid opcode.
  __atomic_store_n(&c->op_own, mlx5::make_op_own(res.cqe_opcode, 0), __ATOMIC_RELEASE);
}
}  // namespace

void softnic_run(runtime& r, gda_state& g) {
  gpu::bind_thread(r.device);  // its copies and atomic kernels run on this PE's GPU
  platform_io io(r);
  const size_t nq = g.host_desc.size();  // every set in the block, the host's included
  std::vector<uint64_t> consumed(nq, 0);
  std::vector<bool> failed(nq, false);
  std::vector<softnic_qp_view> views(nq);
  for (size_t i = 0; i < nq; ++i) {
    const gio_gda_queue_v1& q = g.host_desc[i];
    const int pe = q.peer;
    views[i] = softnic_qp_view{q.qpn,       g.local_lkey, r.heap,           r.heap_size,        g.scratch_lkey, g.mem,
                               g.mem_bytes, g.rkeys[pe],  g.remote_base[pe], r.peers[pe].mapped, r.heap_size,
                               g.seg_rkeys[pe], r.seg.peer_base.empty() ? 0 : r.seg.peer_base[pe],
                               r.seg.peer_mapped.empty() ? nullptr : r.seg.peer_mapped[pe], r.seg.size};
  }
  unsigned idle = 0;
  alignas(64) uint8_t wqe[64];
  while (!g.stop.load(std::memory_order_relaxed)) {
    bool progress = false;
    for (size_t i = 0; i < nq; ++i) {
      gio_gda_queue_v1& q = g.host_desc[i];
      const uint16_t pi = (uint16_t)mlx5::be32(__atomic_load_n(&q.dbrec[mlx5::SND_DBR], __ATOMIC_ACQUIRE));
      // A turn per queue: as a ConnectX schedules its send queues, one queue's burst of large
      // WQEs must not hold back the others (a private context's quiet would wait for it).
      uint64_t turn_bytes = 0;
      for (unsigned turn = 0; turn < kTurnWqes && turn_bytes < kTurnBytes; ++turn) {
        if ((uint16_t)(pi - (uint16_t)consumed[i]) == 0 || failed[i]) break;
        const uint16_t idx = (uint16_t)consumed[i];
        // Private copy: the executor validates exactly the bytes it then acts on.
        memcpy(wqe, q.sq + (size_t)(consumed[i] & (q.sq_slots - 1)) * mlx5::WQEBB_BYTES, sizeof wqe);
        const softnic_result res = softnic_execute(views[i], wqe, idx, io);
        if (res.cqe_opcode == mlx5::CQE_REQ_ERR) {
          failed[i] = true;  // an errored QP stops executing, as hardware moves it to the error state
          info(1, "softnic: QP 0x%x to PE %d: WQE %u opcode 0x%02x failed, syndrome 0x%02x", q.qpn, q.peer, idx,
               res.opcode, res.syndrome);
        }
        if (res.signalled || res.cqe_opcode == mlx5::CQE_REQ_ERR) write_cqe(q, res, idx);
        turn_bytes += res.byte_cnt;
        ++consumed[i];
        progress = true;
      }
    }
    // Spin while busy; back off when idle so PEs sharing a few cores still run their kernels.
    if (progress) {
      idle = 0;
    } else if (++idle > 2000) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    } else if (idle > 64) {
      sched_yield();
    }
  }
}

}  // namespace gio
