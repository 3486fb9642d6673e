// One work-group at a time on one OS thread: fiber stacks, fiber start-up and the round-robin
// scheduler that parks and resumes the emulated GPU threads.
#include "host/platform/emu/emu_internal.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
// Without being told where the fiber stacks are, valgrind takes every switch between stacks
// 64 KiB apart for a stack that grew or shrank and reports reads of live data as errors.
#include <valgrind/valgrind.h>
#define GIO_HOST_VALGRIND 1
#endif
#endif

namespace gio {
namespace host {
namespace detail {
namespace {

namespace ctx = boost::context;

constexpr unsigned long long kStackCanary = 0x6e6f2d6f766572ull;

// Hands Boost.Context a stack the runner owns; the fiber must not free it when it finishes.
struct borrowed_stack {
  ctx::stack_context sc;
  ctx::stack_context allocate() { return sc; }
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

void fatal(const char* what) {
  std::fprintf(stderr, "gio host emulation: %s\n", what);
  std::abort();
}

group_runner::~group_runner() {
  drop_fibers();
  unmap();
}

void group_runner::drop_fibers() {
  for (fiber_ctx& f : g_.fibers) san::destroy(f.san);
  g_.fibers.clear();
}

void group_runner::run_job(job& j) {
  for (unsigned long long i; (i = j.next.fetch_add(1)) < j.total;) run_group(j, i);
  tl_group = group_slot{};  // host code on this thread sees a 1x1x1 launch again
}

void group_runner::unmap() {
  if (!base_) return;
#ifdef GIO_HOST_VALGRIND
  for (unsigned id : vg_ids_) VALGRIND_STACK_DEREGISTER(id);
  vg_ids_.clear();
#endif
  munmap(base_, count_ * bytes_);
  base_ = nullptr;
  count_ = 0;
}

// One mapping for all stacks: untouched stack pages cost nothing (MAP_NORESERVE), and a guard
// page per stack would cost two memory mappings each, which exhausts the kernel's per-process
// limit at a few hundred work-groups of 256 threads. A canary at the bottom of each stack
// catches most overflows instead.
void group_runner::ensure_stacks(size_t n, size_t want_bytes) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t bytes = std::max<size_t>(want_bytes, 16 * 1024) * san::kStackFactor;
  bytes = (bytes + page - 1) / page * page;
  if (n <= count_ && bytes == bytes_) return;
  unmap();
  void* p = mmap(nullptr, n * bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fatal("cannot map fiber stacks (lower GIO_HOST_FIBER_STACK or the block size)");
  base_ = static_cast<char*>(p);
  count_ = n;
  bytes_ = bytes;
  for (size_t i = 0; i < n; ++i) {
    char* lo = base_ + i * bytes;
    *reinterpret_cast<unsigned long long*>(lo) = kStackCanary;
#ifdef GIO_HOST_VALGRIND
    vg_ids_.push_back(VALGRIND_STACK_REGISTER(lo, lo + bytes));
#endif
  }
}

void group_runner::start_fibers(job& j, unsigned n, dim3 b) {
  if (g_.fibers.size() != n) {
    drop_fibers();
    g_.fibers = std::vector<fiber_ctx>(n);
  }
  g_.warps.assign((n + 31) / 32, warp_ctx{});
  for (unsigned w = 0; w < g_.warps.size(); ++w) {
    unsigned lanes = std::min(32u, n - w * 32);
    g_.warps[w].live = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  }
  g_.live = n;
  g_.arrived = 0;
  g_.gen = 0;
  for (unsigned i = 0; i < n; ++i) {
    fiber_ctx& f = g_.fibers[i];
    f.thread_idx = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    f.linear = i;
    f.lane = i % 32;
    f.warp = i / 32;
    f.wait = wait_kind::none;
    f.yielded = false;
    f.done = false;
    f.step_progress = false;
    f.wait_slot = -1;
    ctx::stack_context sc;
    sc.size = bytes_;
    sc.sp = base_ + (i + 1) * bytes_;
    san::stack_reuse(f.san, base_ + i * bytes_, bytes_);
    fiber_ctx* fp = &f;
    const job* jp = &j;
    group_ctx* gp = &g_;
    san::create_begin(g_.san, f.san);
    f.self = ctx::fiber(std::allocator_arg, borrowed_stack{sc}, [fp, jp, gp](ctx::fiber&& sched) {
      san::fiber_start(gp->san);
      fp->sched = std::move(sched);
      jp->thunk(jp->closure);
      san::fiber_exit(gp->san);
      return std::move(fp->sched);
    });
    san::create_end(g_.san);
  }
}

void group_runner::finish(fiber_ctx& f) {
  f.done = true;
  --g_.live;
  warp_ctx& w = g_.warps[f.warp];
  w.live &= ~(1u << f.lane);
  warp_check(w);
  block_check(g_);
}

bool group_runner::blocked(const fiber_ctx& f) const {
  if (f.wait == wait_kind::block) return g_.gen == f.wait_gen;
  if (f.wait == wait_kind::warp) return g_.warps[f.warp].gen == f.wait_gen;
  return false;
}

// Round-robin over the live threads. A round in which every thread resumed came straight back
// from yield() did no work that could release a barrier, so the OS thread gives way to the
// other work-groups (who may hold what these threads spin on).
void group_runner::schedule() {
  unsigned idle_rounds = 0;
  while (g_.live != 0) {
    bool ran = false, progress = false;
    for (fiber_ctx& f : g_.fibers) {
      if (f.done || blocked(f)) continue;
      ran = true;
      bool was_yielded = f.yielded;
      tl_thread = &f;
      san::resume_begin(g_.san, f.san);
      f.self = std::move(f.self).resume();
      san::resume_end(g_.san);
      tl_thread = &host_thread_slot;
      if (!f.self) {
        finish(f);
        progress = true;
      } else if (!(was_yielded && f.yielded) || f.step_progress) {
        progress = true;
      }
      f.step_progress = false;
    }
    if (!ran) {
      const uint3 b = tl_group.block_idx;
      std::fprintf(stderr, "gio host emulation: deadlock in work-group (%u,%u,%u): ", b.x, b.y, b.z);
      fatal("every live GPU thread waits on a barrier that cannot complete");
    }
    if (progress) {
      idle_rounds = 0;
    } else if (++idle_rounds < 256) {
      std::this_thread::yield();
    } else {
      // A long wait (another PE, or a work-group that is not running): on a small machine
      // sched_yield alone lets hundreds of spinning threads starve the one they wait for. The
      // sleep grows (20 us, doubling every 64 idle rounds, up to 320 us): 128 work-group threads
      // waking every 20 us took the CPU from the proxy threads they waited for (a proxy stress
      // run went from 0.9 s at 16 work-groups to 38 s at 64).
      const unsigned step = (idle_rounds - 256) / 64;
      std::this_thread::sleep_for(std::chrono::microseconds(20u << (step < 4 ? step : 4)));
    }
  }
}

void group_runner::run_group(job& j, unsigned long long wg) {
  const dim3 gd = j.grid, bd = j.block;
  unsigned n = bd.x * bd.y * bd.z;
  ensure_stacks(n, j.stack_bytes);
  if (dyn_shared_.size() < j.shared_bytes) dyn_shared_.resize(j.shared_bytes);
  tl_group.grid_dim = gd;
  tl_group.block_dim = bd;
  tl_group.block_idx = uint3{unsigned(wg % gd.x), unsigned(wg / gd.x % gd.y),
                             unsigned(wg / (1ull * gd.x * gd.y))};
  tl_group.linear = unsigned(wg);
  tl_group.dynamic_shared = j.shared_bytes ? dyn_shared_.data() : nullptr;
  tl_ctx = &g_;
  start_fibers(j, n, bd);
  schedule();
  tl_ctx = nullptr;
  for (size_t i = 0; i < n; ++i)
    if (*reinterpret_cast<unsigned long long*>(base_ + i * bytes_) != kStackCanary)
      fatal("an emulated GPU thread overflowed its stack (raise GIO_HOST_FIBER_STACK)");
}

}  // namespace detail
}  // namespace host
}  // namespace gio
