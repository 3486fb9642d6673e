// Host half of the distributed locks (device/api/lock.h has the algorithm and the memory
// ordering; runtime/lock.h the queue nodes). Host threads and kernel work-groups of one PE share
// the PE's node pool and the same queue, so a host thread and a kernel contend fairly.
//
// Remote node words and the tail go through the peer's transport (the same atomics kernels use);
// this PE's own nodes are read with the platform's copy (a copy engine on GPUs, which a kernel
// holding every SM cannot stall) and claimed with the platform's atomics.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <vector>

#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"

#include "host/backoff.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"
#include "runtime/lock.h"

namespace gio {
uint64_t host_sym_offset(runtime& r, const char* routine, const void* sym, size_t n, int pe);

namespace {

gio_lock_node_v1* nodes(runtime& r) { return (gio_lock_node_v1*)(r.heap + GIO_HEAP_RSVD_LOCK_NODES); }
uint64_t node_off(uint32_t i, size_t field) { return GIO_HEAP_RSVD_LOCK_NODES + i * sizeof(gio_lock_node_v1) + field; }
uint64_t me_tag() { return (uint64_t)syscall(SYS_gettid) << 8 | GIO_LOCK_HOLDER_HOST; }

uint64_t local_load(const char* rt, uint64_t* w) {
#if defined(GIO_PLATFORM_HOST)
  return gpu::amo(w, GIO_AMO_FETCH, 0, 0, sizeof(uint64_t), rt);
#else
  uint64_t v = 0;
  gpu::copy(&v, w, sizeof v, rt);
  return v;
#endif
}
void local_set(const char* rt, uint64_t* w, uint64_t v) { gpu::amo(w, GIO_AMO_SET, v, 0, sizeof(uint64_t), rt); }

// Zeroes next, granted and holder of a node just claimed, before the swap publishes it. On GPUs in
// one copy (each platform atomic is a kernel launch); on the host platform with atomics, the form
// kernels' plain loads of the node pool (clear's search) race with under ThreadSanitizer otherwise.
void reset(const char* rt, gio_lock_node_v1* n) {
#if defined(GIO_PLATFORM_HOST)
  local_set(rt, &n->next, 0);
  local_set(rt, &n->granted, 0);
  local_set(rt, &n->holder, 0);
#else
  const uint64_t zeros[3] = {0, 0, 0};
  gpu::copy(&n->next, zeros, sizeof zeros, rt);
#endif
}

// This PE's node pool, claim and holder words (the others are left 0): one copy on GPUs, atomic
// loads on the host platform (as above).
void read_pool(const char* rt, gio_lock_node_v1* all, std::vector<gio_lock_node_v1>& out) {
  out.assign(GIO_LOCK_NODES, gio_lock_node_v1{});
#if defined(GIO_PLATFORM_HOST)
  for (uint32_t i = 0; i < GIO_LOCK_NODES; ++i) {
    out[i].claim = local_load(rt, &all[i].claim);
    if (out[i].claim) out[i].holder = local_load(rt, &all[i].holder);
  }
#else
  gpu::copy(out.data(), all, GIO_LOCK_NODES * sizeof(gio_lock_node_v1), rt);
#endif
}

// An atomic on the reserved word at heap offset `off` of `pe`, through the peer's transport (as
// gio_host_amo does for user words, without its check that the word lies in the user's heap).
uint64_t node_amo(runtime& r, const char* rt, int op, uint64_t off, uint64_t v, int pe) {
  return transport_for(r, rt, off, pe).amo(r, rt, op, off, v, 0, sizeof(uint64_t), pe);
}

// Heap offset of the lock word, after the checks every lock routine makes.
uint64_t check_lock(runtime& r, const char* rt, long* lk) {
  const uint64_t off = host_sym_offset(r, rt, lk, sizeof(long), 0);
  if ((uintptr_t)lk % sizeof(long))
    fatal(GIO_ERR_ARG, rt, "lock %p (for PE 0) is not %zu-byte aligned", (void*)lk, sizeof(long));
  return off;
}

void check_entry(runtime& r, const char* rt, long* lk, uint64_t e) {
  const int pe = gio_lock_pe(e);
  if (pe < 0 || pe >= r.n_pes || gio_lock_node(e) >= GIO_LOCK_NODES)
    fatal(GIO_ERR_ARG, rt, "lock %p holds 0x%llx on PE 0, which is no GIO lock queue entry (a lock must be 0 on every "
          "PE before its first use, and only the lock routines may write it)", (void*)lk, (unsigned long long)e);
}

uint32_t claim(runtime& r, const char* rt, long* lk, uint64_t off) {
  gio_lock_node_v1* n = nodes(r);
  const uint32_t start = (uint32_t)(me_tag() >> 8) * 13u % GIO_LOCK_NODES;
  for (uint32_t k = 0; k < GIO_LOCK_NODES; ++k) {
    const uint32_t i = (start + k) % GIO_LOCK_NODES;
    if (gpu::amo(&n[i].claim, GIO_AMO_CSWAP, off, 0, sizeof(uint64_t), rt) != 0) continue;
    reset(rt, n + i);
    return i;
  }
  fatal(GIO_ERR_ARG, rt, "no free lock queue node for lock %p: all %u of this PE are taken (at most %u work-groups and "
        "host threads of one PE may hold or wait for locks at once)", (void*)lk, GIO_LOCK_NODES, GIO_LOCK_NODES);
}
void release(const char* rt, gio_lock_node_v1* n) {
  local_set(rt, &n->holder, 0);
  local_set(rt, &n->claim, 0);
}

// Polls a word of this PE's node until it is nonzero; bounded, with `what` in the report.
template <typename What>
uint64_t wait_word(runtime& r, const char* rt, uint64_t* w, What what) {
  using clk = std::chrono::steady_clock;
  const clk::time_point t0 = clk::now();
  const uint64_t limit_ms = r.cfg.GIO_TIMEOUT_MS;
  backoff pace;  // a peer's write may be this process's proxy thread's to apply (host/backoff.h)
  for (unsigned spins = 0;; ++spins) {
    const uint64_t v = local_load(rt, w);
    if (v) return v;
    pace.pause();
    if (limit_ms && (spins & 63) == 0) {
      const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(clk::now() - t0).count();
      if ((uint64_t)ms > limit_ms) what(ms);
    }
  }
}

void acquire(runtime& r, const char* rt, long* lk, uint32_t i) {
  gio_lock_node_v1* n = nodes(r) + i;
  const uint64_t me = gio_lock_enc(r.my_pe, i);
  const uint64_t prev = gio_host_amo(rt, nullptr, GIO_AMO_SWAP, lk, me, 0, sizeof(uint64_t), 0);
  if (prev) {
    check_entry(r, rt, lk, prev);
    const int ppe = gio_lock_pe(prev);
    const uint32_t pi = gio_lock_node(prev);
    node_amo(r, rt, GIO_AMO_SET, node_off(pi, offsetof(gio_lock_node_v1, next)), me, ppe);
    wait_word(r, rt, &n->granted, [&](long long ms) {
      fatal(GIO_ERR_TIMEOUT, rt, "timed out after %lld ms (GIO_TIMEOUT_MS=%llu) waiting for lock %p: queued (node %u) "
            "behind PE %d's node %u, which never handed the lock on", ms, (unsigned long long)r.cfg.GIO_TIMEOUT_MS,
            (void*)lk, i, ppe, pi);
    });
  }
  local_set(rt, &n->holder, me_tag());
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

}  // namespace
}  // namespace gio

using namespace gio;

extern "C" void gio_host_set_lock(const char* rt, long* lk) {
  runtime& r = rt_checked(rt);
  const uint64_t off = check_lock(r, rt, lk);
  acquire(r, rt, lk, claim(r, rt, lk, off));
}

extern "C" int gio_host_test_lock(const char* rt, long* lk) {
  runtime& r = rt_checked(rt);
  const uint64_t off = check_lock(r, rt, lk);
  const uint32_t i = claim(r, rt, lk, off);
  gio_lock_node_v1* n = nodes(r) + i;
  if (gio_host_amo(rt, nullptr, GIO_AMO_CSWAP, lk, gio_lock_enc(r.my_pe, i), 0, sizeof(uint64_t), 0) != 0) {
    release(rt, n);  // never published: no peer knows this node
    return 1;
  }
  local_set(rt, &n->holder, me_tag());
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return 0;
}

extern "C" void gio_host_clear_lock(const char* rt, long* lk) {
  runtime& r = rt_checked(rt);
  const uint64_t off = check_lock(r, rt, lk), tag = me_tag();
  gio_lock_node_v1* all = nodes(r);
  // One copy of the whole pool finds this thread's node (a copy per node would cost 512 on a GPU).
  std::vector<gio_lock_node_v1> seen;
  read_pool(rt, all, seen);
  uint32_t i = 0;
  while (i < GIO_LOCK_NODES && !(seen[i].claim == off && seen[i].holder == tag)) ++i;
  if (i == GIO_LOCK_NODES)
    fatal(GIO_ERR_ARG, rt, "lock %p is not held by this thread (no queue node of this PE holds it for host thread %ld)",
          (void*)lk, (long)(tag >> 8));
  gio_lock_node_v1* n = all + i;
  const uint64_t me = gio_lock_enc(r.my_pe, i);
  // Release: every host operation is complete when it returns (host/rma.cpp), so the critical
  // section's puts are at their targets already; this fence orders its local stores.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t next = local_load(rt, &n->next);
  if (!next) {
    if (gio_host_amo(rt, nullptr, GIO_AMO_CSWAP, lk, 0, me, sizeof(uint64_t), 0) == me) {
      release(rt, n);
      return;
    }
    next = wait_word(r, rt, &n->next, [&](long long ms) {
      fatal(GIO_ERR_TIMEOUT, rt, "timed out after %lld ms (GIO_TIMEOUT_MS=%llu) releasing lock %p: a successor took the "
            "tail from node %u but never linked itself behind it", ms, (unsigned long long)r.cfg.GIO_TIMEOUT_MS,
            (void*)lk, i);
    });
  }
  check_entry(r, rt, lk, next);
  node_amo(r, rt, GIO_AMO_SET, node_off(gio_lock_node(next), offsetof(gio_lock_node_v1, granted)), 1,
           gio_lock_pe(next));
  release(rt, n);
}
