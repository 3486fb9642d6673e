// Synchronisation inside emulated kernels: block and warp barriers, warp exchange, yield.
//
// All GPU threads of a work-group are fibers on one OS thread and only one of them runs at a
// time, so the barrier state below needs no atomics: it is touched only by the fiber that is
// running and by the scheduler between fibers.
#include "host/platform/emu/emu_internal.h"

#include <chrono>
#include <thread>

namespace gio {
namespace host {

emu_settings_t& emu_settings() {
  static emu_settings_t settings;
  return settings;
}

namespace detail {
namespace {

// Hands control back to the scheduler; returns when the scheduler resumes this fiber.
void park(fiber_ctx& f) {
  san::park_begin(tl_ctx->san, f.san);
  f.sched = std::move(f.sched).resume();
  san::park_end(f.san);
}

// Arrives at the warp barrier and returns once it has completed.
void warp_arrive(fiber_ctx& f, unsigned mask) {
  warp_ctx& w = tl_ctx->warps[f.warp];
  unsigned bit = 1u << f.lane;
  unsigned gen = w.gen;
  w.arrived |= bit;
  w.need |= mask | bit;
  warp_check(w);
  if (w.gen != gen) return;  // this lane completed it: the others are released, go on
  f.wait = wait_kind::warp;
  f.wait_gen = gen;
  park(f);
  f.wait = wait_kind::none;
}

}  // namespace

void block_sync() {
  if (!in_kernel()) return;
  fiber_ctx& f = current_fiber();
  group_ctx& g = *tl_ctx;
  unsigned gen = g.gen;
  ++g.arrived;
  block_check(g);
  if (g.gen != gen) return;
  f.wait = wait_kind::block;
  f.wait_gen = gen;
  park(f);
  f.wait = wait_kind::none;
}

void warp_sync(unsigned mask) {
  if (!in_kernel()) return;
  warp_arrive(current_fiber(), mask);
}

unsigned long long warp_shuffle(unsigned mask, unsigned long long mine, unsigned src_lane) {
  if (!in_kernel()) return mine;  // host code is lane 0 of a one-thread warp
  fiber_ctx& f = current_fiber();
  warp_ctx& w = tl_ctx->warps[f.warp];
  unsigned b = w.gen & 1;
  w.slot[b][f.lane] = mine;
  warp_arrive(f, mask);
  // A lane that did not take part has no value for this exchange; the GPU leaves the result
  // undefined, returning the caller's own value is the friendliest choice.
  if (src_lane < 32 && (w.parts[b] >> src_lane & 1u)) return w.slot[b][src_lane];
  return mine;
}

unsigned long long warp_vote(unsigned mask, int pred, unsigned* participants) {
  if (!in_kernel()) {
    *participants = 1;
    return pred ? 1 : 0;
  }
  fiber_ctx& f = current_fiber();
  warp_ctx& w = tl_ctx->warps[f.warp];
  unsigned b = w.gen & 1;
  w.slot[b][f.lane] = pred ? 1 : 0;
  warp_arrive(f, mask);
  unsigned parts = w.parts[b], ballot = 0;
  for (unsigned m = parts; m != 0; m &= m - 1) {
    unsigned lane = unsigned(__builtin_ctz(m));
    if (w.slot[b][lane]) ballot |= 1u << lane;
  }
  *participants = parts;
  return ballot;
}

unsigned warp_active_mask() {
  if (!in_kernel()) return 1;
  return tl_ctx->warps[current_fiber().warp].live;
}

}  // namespace detail

void yield() {
  if (!in_kernel()) {
    std::this_thread::yield();
    return;
  }
  detail::fiber_ctx& f = detail::current_fiber();
  f.yielded = true;
  detail::park(f);
  f.yielded = false;
}

}  // namespace host
}  // namespace gio

long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

long long wall_clock64() { return clock64(); }
