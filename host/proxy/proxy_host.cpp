// Host-initiated operations over the proxy: the CPU posts on the host ring, the last ring, with
// the commands a kernel would write, and waits for the proxy thread to complete them; and the
// host's completion of every ring (shmem_quiet, shmem_barrier_all, shmem_finalize).
//
// Host buffers are host memory, which the provider reads and writes in place: a host command
// names them directly (GIO_PROXY_LOCAL_HOST). host_lock keeps one host thread on the ring at a
// time, so its indices are handed out and published in order.
#include <chrono>
#include <cstdio>
#include <cstring>

#include "runtime/host_entry.h"
#include "host/gda/gda_host.h"  // gda_host_wait: the bounded host wait both transports use
#include "host/log.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace gio {
namespace {
uint64_t completed(const gio_proxy_ring_v1& q) { return __atomic_load_n(q.completed, __ATOMIC_ACQUIRE); }
}  // namespace

std::string proxy_activity(const proxy_state& p) {
  const proxy_state::activity& a = p.now;
  const auto rl = std::memory_order_relaxed;
  const int64_t last = a.last_ns.load(rl);
  char since[64] = "no progress yet";
  if (last) {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch()).count();
    snprintf(since, sizeof since, "last progress %lld ms ago", (long long)((now - last) / 1000000));
  }
  const uint32_t ring = a.ring.load(rl);
  char buf[256];
  if (ring == proxy_state::activity::kIdle) {
    snprintf(buf, sizeof buf, "the proxy thread is between commands, %s", since);
    return buf;
  }
  const uint64_t chunks = a.chunks.load(rl);
  char staged[96] = "";
  if (chunks)
    snprintf(staged, sizeof staged, ", %llu of its %llu staged messages answered", (unsigned long long)a.acked.load(rl),
             (unsigned long long)chunks);
  snprintf(buf, sizeof buf, "the proxy thread is on command %llu of ring %u (%s to PE %d, %llu bytes)%s, %s",
           (unsigned long long)a.idx.load(rl), ring, gio_proxy_op_name((uint8_t)a.op.load(rl)), a.pe.load(rl),
           (unsigned long long)a.bytes.load(rl), staged, since);
  return buf;
}

namespace {

void wait_completed(runtime& r, const gio_proxy_ring_v1& q, uint64_t count, const char* routine) {
  if (completed(q) >= count) return;
  const auto t0 = std::chrono::steady_clock::now();
  unsigned spins = 0;
  while (completed(q) < count)
    gda_host_wait(r, &spins, t0, routine, [&] {
      char buf[200];
      snprintf(buf, sizeof buf, "the proxy to complete command %llu of ring %u (completed %llu; ",
               (unsigned long long)(count - 1), q.set, (unsigned long long)completed(q));
      return std::string(buf) + proxy_activity(*r.proxy) + ")";
    });
}

struct host_ring {
  runtime& r;
  proxy_state& p;
  gio_proxy_ring_v1& q;
  const char* routine;
  std::lock_guard<fifo_mutex> hold;
  host_ring(runtime& r_, const char* rt)
      : r(r_), p(*r_.proxy), q(r_.proxy->host_desc.back()), routine(rt), hold(r_.proxy->host_lock) {}

  // Posts `c` and waits for its completion; returns its index.
  uint64_t run(gio_proxy_cmd_v1 c) {
    const uint64_t idx = q.reserved++;
    if (idx >= q.slots) wait_completed(r, q, idx - q.slots + 1, routine);
    gio_proxy_cmd_v1* d = &q.cmds[idx & (q.slots - 1)];
    c.seq = 0;
    memcpy((uint8_t*)d + 8, (const uint8_t*)&c + 8, sizeof c - 8);
    __atomic_store_n(&d->seq, idx + 1, __ATOMIC_RELEASE);
    wait_completed(r, q, idx + 1, routine);
    return idx;
  }
  uint64_t result(uint64_t idx) { return __atomic_load_n(&q.result[idx & (q.slots - 1)], __ATOMIC_RELAXED); }
};

gio_proxy_cmd_v1 cmd(uint8_t op, int pe, uint64_t off, uint64_t len) {
  gio_proxy_cmd_v1 c{};
  c.op = op;
  c.pe = pe;
  c.roff = off;
  c.len = len;
  return c;
}
}  // namespace

void proxy_host_put(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe) {
  host_ring h(r, routine);
  gio_proxy_cmd_v1 c = cmd(GIO_PROXY_OP_PUT, pe, off, n);
  c.local = GIO_PROXY_LOCAL_HOST;
  c.laddr = (uint64_t)(uintptr_t)src;
  h.run(c);
}

void proxy_host_get(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe) {
  host_ring h(r, routine);
  gio_proxy_cmd_v1 c = cmd(GIO_PROXY_OP_GET, pe, off, n);
  c.local = GIO_PROXY_LOCAL_HOST;
  c.laddr = (uint64_t)(uintptr_t)dst;
  h.run(c);
}

uint64_t proxy_host_amo(runtime& r, const char* routine, int op, uint64_t off, uint64_t value, uint64_t compare,
                        size_t size, int pe) {
  host_ring h(r, routine);
  gio_proxy_cmd_v1 c = cmd(GIO_PROXY_OP_AMO, pe, off, 0);
  c.amo_op = (uint8_t)op;
  c.bytes = (uint8_t)size;
  c.value = value;
  c.compare = compare;
  return h.result(h.run(c));
}

// What kernels published and the proxy has not completed: per ring, the run of published slots
// from its completion counter on. Commands published after the scan are not waited for.
void proxy_drain(runtime& r, const char* routine) {
  if (!r.proxy) return;
  proxy_state& p = *r.proxy;
  std::vector<uint64_t> until(p.host_desc.size());
  for (size_t i = 0; i < p.host_desc.size(); ++i) {
    const gio_proxy_ring_v1& q = p.host_desc[i];
    uint64_t f = completed(q);
    for (uint64_t k = 0; k < q.slots; ++k, ++f)
      if (__atomic_load_n(&q.cmds[f & (q.slots - 1)].seq, __ATOMIC_ACQUIRE) != f + 1) break;
    until[i] = f;
  }
  for (size_t i = 0; i < p.host_desc.size(); ++i) wait_completed(r, p.host_desc[i], until[i], routine);
}

}  // namespace gio
