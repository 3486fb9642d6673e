// Host completion of the gda queues: what host shmem_quiet, shmem_barrier_all and shmem_finalize
// wait for, so that a kernel's _nbi operations left without a device-side quiet (and the host's
// own) are complete when those calls return.
//
// Only the two words both NICs share are read: the doorbell record (what the NIC was told to run)
// and the collapsed CQE. Every WQE is CE-signalled (runtime/gda_tmpl.h), so the CQE's wqe_counter
// names the latest completed WQE of its queue, whether the softnic or a ConnectX wrote it. The
// device's own counters (`completed`) are not used: a kernel that ended without polling left them
// behind, and they live in GPU memory.
#include <sched.h>

#include <chrono>
#include <thread>
#include <vector>

#include "host/gda/gda_host.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {
struct cq_view {
  uint8_t op;  // CQE opcode
  uint16_t ctr;
  uint8_t syndrome, vendor;
};

// The NIC writes the counter first and op_own last. The opcode is read on both sides of the rest,
// so an error CQE that replaces a good one between the reads is seen as the error it is.
cq_view read_cq(const gio_gda_queue_v1& q) {
  for (;;) {
    const uint8_t before = __atomic_load_n(&q.cq->op_own, __ATOMIC_ACQUIRE);
    cq_view v;
    v.ctr = mlx5::be16(__atomic_load_n(&q.cq->wqe_counter, __ATOMIC_ACQUIRE));
    v.syndrome = __atomic_load_n(&q.cq->syndrome, __ATOMIC_ACQUIRE);
    v.vendor = __atomic_load_n(&q.cq->vendor_err_synd, __ATOMIC_ACQUIRE);
    const uint8_t after = __atomic_load_n(&q.cq->op_own, __ATOMIC_ACQUIRE);
    if (before == after) {
      v.op = mlx5::cqe_opcode(after);
      return v;
    }
  }
}

uint16_t producer_index(const gio_gda_queue_v1& q) {
  return (uint16_t)(mlx5::be32(__atomic_load_n(&q.dbrec[mlx5::SND_DBR], __ATOMIC_ACQUIRE)) & 0xffff);
}

bool is_error(uint8_t op) { return op == mlx5::CQE_REQ_ERR || op == mlx5::CQE_RESP_ERR; }

// True once the CQE covers WQE pi - 1 (16-bit indices). At most sq_slots WQEs are in flight on a
// queue, so a counter more than sq_slots behind pi is in fact ahead of it: WQEs posted after pi
// was read have completed too.
bool covers(uint16_t pi, const cq_view& v, uint32_t slots) {
  if (v.op == mlx5::CQE_INVALID) return pi == 0;  // nothing has completed: done only if nothing ran
  const uint16_t behind = (uint16_t)(pi - (uint16_t)(v.ctr + 1));
  return behind == 0 || behind > slots;
}
}  // namespace

std::string gda_queue_name(const gda_state& g, size_t i) {
  const size_t n_pes = g.host_desc.size() / g.nic_sets;
  const uint32_t set = (uint32_t)(i / n_pes);
  return set == g.sets ? std::string("host queue") : "queue of set " + std::to_string(set);
}

[[noreturn]] void gda_completion_fatal(const gda_state& g, size_t i, const char* routine) {
  const gio_gda_queue_v1& q = g.host_desc[i];
  const cq_view v = read_cq(q);
  const mlx5::ctrl_seg* w = (const mlx5::ctrl_seg*)(q.sq + (size_t)(v.ctr & (q.sq_slots - 1)) * mlx5::WQEBB_BYTES);
  fatal(GIO_ERR_TRANSPORT, routine,
        "gda completion error on the %s to PE %d (qpn 0x%x): WQE index %u, opcode 0x%02x, syndrome 0x%02x, "
        "vendor syndrome 0x%02x",
        gda_queue_name(g, i).c_str(), q.peer, q.qpn, (unsigned)v.ctr, (unsigned)mlx5::ctrl_opcode(w),
        (unsigned)v.syndrome, (unsigned)v.vendor);
}

bool gda_queue_covers(const gda_state& g, size_t i, uint16_t pi, const char* routine) {
  const gio_gda_queue_v1& q = g.host_desc[i];
  const cq_view v = read_cq(q);
  if (is_error(v.op)) gda_completion_fatal(g, i, routine);
  return covers(pi, v, q.sq_slots);
}

void gda_host_wait(const runtime& r, unsigned* spins, const std::chrono::steady_clock::time_point& t0,
                   const char* routine, const std::function<std::string()>& what) {
  const unsigned s = ++*spins;
  // Spin briefly, then yield, then sleep: the NIC may be a softnic thread on the same few cores.
  if (s > 4096)
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  else if (s > 64)
    sched_yield();
  if ((s & 63) == 0 && r.cfg.GIO_TIMEOUT_MS) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    if ((uint64_t)ms > r.cfg.GIO_TIMEOUT_MS)
      fatal(GIO_ERR_TIMEOUT, routine, "timed out after %lld ms (GIO_TIMEOUT_MS=%llu) waiting for %s", (long long)ms,
            (unsigned long long)r.cfg.GIO_TIMEOUT_MS, what().c_str());
  }
}

void gda_drain(runtime& r, const char* routine) {
  if (!r.gda) return;
  const gda_state& g = *r.gda;
  const size_t nq = g.host_desc.size();
  // One snapshot first: the drain covers what was posted before it began, on every queue.
  std::vector<uint16_t> pi(nq);
  for (size_t i = 0; i < nq; ++i) pi[i] = producer_index(g.host_desc[i]);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < nq; ++i) {
    unsigned spins = 0;
    while (!gda_queue_covers(g, i, pi[i], routine))
      gda_host_wait(r, &spins, t0, routine, [&] {
        const gio_gda_queue_v1& q = g.host_desc[i];
        const cq_view v = read_cq(q);
        char last[48] = "no WQE has completed yet";
        if (v.op != mlx5::CQE_INVALID) snprintf(last, sizeof last, "the last completed is WQE %u", (unsigned)v.ctr);
        char buf[256];
        snprintf(buf, sizeof buf, "the gda %s to PE %d (qpn 0x%x) to complete WQE %u, the last its doorbell "
                 "record covered (%s)", gda_queue_name(g, i).c_str(), q.peer, q.qpn, (unsigned)(uint16_t)(pi[i] - 1),
                 last);
        return std::string(buf);
      });
  }
}

}  // namespace gio
