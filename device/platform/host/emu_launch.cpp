// Kernel launch on the host platform: work-groups on OS threads, GPU threads on fibers.
//
// Work-groups get OS threads of their own (not a fixed pool the size of the machine) because
// GPU code may spin on flags that another, concurrently resident work-group sets; only the
// kernel scheduler of the OS can guarantee that the setter eventually runs. Worker threads and
// their fiber stacks outlive a launch, so that repeated launches cost no thread creation and
// no page faults.
#include "device/platform/host/emu_internal.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
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

struct job {
  dim3 grid, block;
  size_t shared_bytes = 0;
  size_t stack_bytes = 0;
  void (*thunk)(const void*) = nullptr;
  const void* closure = nullptr;
  unsigned long long total = 0;
  std::atomic<unsigned long long> next{0};
  std::mutex m;
  std::condition_variable cv;
  unsigned workers_left = 0;
};

// Hands Boost.Context a stack the runner owns; the fiber must not free it when it finishes.
struct borrowed_stack {
  ctx::stack_context sc;
  ctx::stack_context allocate() { return sc; }
  void deallocate(ctx::stack_context&) noexcept {}
};

[[noreturn]] void fatal(const char* what) {
  std::fprintf(stderr, "gio host emulation: %s\n", what);
  std::abort();
}

// Runs work-groups on the calling OS thread, one after another, keeping its fiber stacks.
class group_runner {
 public:
  group_runner() = default;
  group_runner(const group_runner&) = delete;
  group_runner& operator=(const group_runner&) = delete;
  ~group_runner() { unmap(); }

  void run_job(job& j) {
    for (unsigned long long i; (i = j.next.fetch_add(1)) < j.total;) run_group(j, i);
    tl_group = group_slot{};  // host code on this thread sees a 1x1x1 launch again
  }

 private:
  char* base_ = nullptr;
  size_t count_ = 0, bytes_ = 0;
  std::vector<unsigned> vg_ids_;
  std::vector<unsigned char> dyn_shared_;
  group_ctx g_;

  void unmap() {
    if (!base_) return;
#ifdef GIO_HOST_VALGRIND
    for (unsigned id : vg_ids_) VALGRIND_STACK_DEREGISTER(id);
    vg_ids_.clear();
#endif
    munmap(base_, count_ * bytes_);
    base_ = nullptr;
    count_ = 0;
  }

  // One mapping for all stacks: untouched stack pages cost nothing (MAP_NORESERVE), and a
  // guard page per stack would cost two memory mappings each, which exhausts the kernel's
  // per-process limit at a few hundred work-groups of 256 threads. A canary at the bottom of
  // each stack catches most overflows instead.
  void ensure_stacks(size_t n, size_t want_bytes) {
    long page = sysconf(_SC_PAGESIZE);
    size_t bytes = std::max<size_t>(want_bytes, 16 * 1024);
    bytes = (bytes + size_t(page) - 1) / size_t(page) * size_t(page);
    if (n <= count_ && bytes == bytes_) return;
    unmap();
    void* p = mmap(nullptr, n * bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fatal("cannot map fiber stacks (lower GIO_HOST_FIBER_STACK or block size)");
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

  void start_fibers(job& j, unsigned n, dim3 b) {
    if (g_.fibers.size() != n) g_.fibers = std::vector<fiber_ctx>(n);
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
      ctx::stack_context sc;
      sc.size = bytes_;
      sc.sp = base_ + (i + 1) * bytes_;
      fiber_ctx* fp = &f;
      const job* jp = &j;
      f.self = ctx::fiber(std::allocator_arg, borrowed_stack{sc}, [fp, jp](ctx::fiber&& sched) {
        fp->sched = std::move(sched);
        jp->thunk(jp->closure);
        return std::move(fp->sched);
      });
    }
  }

  void finish(fiber_ctx& f) {
    f.done = true;
    --g_.live;
    warp_ctx& w = g_.warps[f.warp];
    w.live &= ~(1u << f.lane);
    warp_check(w);
    block_check(g_);
  }

  bool blocked(const fiber_ctx& f) const {
    if (f.wait == wait_kind::block) return g_.gen == f.wait_gen;
    if (f.wait == wait_kind::warp) return g_.warps[f.warp].gen == f.wait_gen;
    return false;
  }

  // Round-robin over the live threads. A round in which every thread resumed came straight
  // back from yield() did no work that could release a barrier, so the OS thread gives way to
  // the other work-groups (who may hold what these threads spin on).
  void schedule() {
    unsigned idle_rounds = 0;
    while (g_.live != 0) {
      bool ran = false, progress = false;
      for (fiber_ctx& f : g_.fibers) {
        if (f.done || blocked(f)) continue;
        ran = true;
        bool was_yielded = f.yielded;
        tl_thread = &f;
        f.self = std::move(f.self).resume();
        tl_thread = &host_thread_slot;
        if (!f.self)
          finish(f), progress = true;
        else if (!(was_yielded && f.yielded))
          progress = true;
      }
      if (!ran) fatal("deadlock: every live GPU thread of a work-group waits on a barrier");
      if (progress) {
        idle_rounds = 0;
      } else if (++idle_rounds < 256) {
        std::this_thread::yield();
      } else {
        // A long wait (another PE, or a work-group that is not running): sched_yield alone
        // lets hundreds of spinning threads starve the one they wait for on a small machine.
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    }
  }

  void run_group(job& j, unsigned long long wg) {
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
};

// A parked OS thread that runs work-groups of whichever launch hands it a job.
struct worker {
  std::mutex m;
  std::condition_variable cv;
  std::shared_ptr<job> pending;
  group_runner runner;
  void loop();
};

// Never destroyed: idle workers block on it until the process exits.
struct worker_pool {
  std::mutex m;
  std::vector<worker*> idle;

  worker* acquire() {
    {
      std::lock_guard<std::mutex> lock(m);
      if (!idle.empty()) {
        worker* w = idle.back();
        idle.pop_back();
        return w;
      }
    }
    auto* w = new worker;
    try {
      std::thread(&worker::loop, w).detach();
    } catch (const std::system_error&) {
      delete w;
      return nullptr;
    }
    return w;
  }
  void release(worker* w) {
    std::lock_guard<std::mutex> lock(m);
    idle.push_back(w);
  }
};

worker_pool& pool() {
  static worker_pool* p = new worker_pool;
  return *p;
}

void worker::loop() {
  for (;;) {
    std::shared_ptr<job> j;
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [this] { return pending != nullptr; });
      j = std::move(pending);
    }
    runner.run_job(*j);
    pool().release(this);
    std::lock_guard<std::mutex> lock(j->m);
    if (--j->workers_left == 0) j->cv.notify_all();
  }
}

}  // namespace
}  // namespace detail

void launch(dim3 grid, dim3 block, size_t shared_bytes, void (*thunk)(const void*),
            const void* closure) {
  using namespace detail;
  if (in_kernel()) fatal("kernels cannot launch kernels on the host platform");
  unsigned long long total = 1ull * grid.x * grid.y * grid.z;
  unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (total == 0 || threads == 0 || threads > 65536) {
    set_last_error(hipErrorInvalidConfiguration);
    return;
  }
  const emu_settings_t& s = emu_settings();
  auto j = std::make_shared<job>();
  j->grid = grid;
  j->block = block;
  j->shared_bytes = shared_bytes;
  j->stack_bytes = s.fiber_stack_bytes;
  j->thunk = thunk;
  j->closure = closure;
  j->total = total;
  // The calling thread runs work-groups too: a one-group launch then needs no other thread.
  unsigned long long want = std::min<unsigned long long>(total, std::max(1u, s.max_concurrent_wg));
  std::vector<worker*> helpers;
  for (unsigned long long i = 1; i < want; ++i) {
    worker* w = pool().acquire();
    if (!w) {
      std::fprintf(stderr, "gio host emulation: out of OS threads; running %zu work-groups at once\n",
                   helpers.size() + 1);
      break;
    }
    helpers.push_back(w);
  }
  j->workers_left = unsigned(helpers.size());
  for (worker* w : helpers) {
    std::lock_guard<std::mutex> lock(w->m);
    w->pending = j;
    w->cv.notify_one();
  }
  static thread_local group_runner caller_runner;
  caller_runner.run_job(*j);
  std::unique_lock<std::mutex> lock(j->m);
  j->cv.wait(lock, [&] { return j->workers_left == 0; });
}

}  // namespace host
}  // namespace gio
