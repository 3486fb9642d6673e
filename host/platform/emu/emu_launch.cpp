// Kernel launch on the host platform: hands work-groups to OS threads.
//
// Work-groups get OS threads of their own (not a fixed pool the size of the machine) because
// GPU code may spin on flags that another, concurrently resident work-group sets; only the
// kernel scheduler of the OS can guarantee that the setter eventually runs. Worker threads and
// their fiber stacks outlive a launch, so that repeated launches cost no thread creation and
// no page faults.
#include "host/platform/emu/emu_internal.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace gio {
namespace host {
namespace detail {
namespace {

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

// Wakes up to two more helpers for the launch, while there are work-groups nobody has taken.
// Every woken helper does the same before running work-groups, so the wake-ups fan out as a
// tree: a single launcher waking hundreds of threads one by one is itself starved of the CPU
// by the threads it has already woken, and a big launch took a second to get going.
void spread(const std::shared_ptr<job>& j) {
  for (int k = 0; k < 2; ++k) {
    if (j->next.load(std::memory_order_relaxed) >= j->total) return;
    unsigned left = j->spawn_left.load();
    do {
      if (left == 0) return;
    } while (!j->spawn_left.compare_exchange_weak(left, left - 1));
    worker* w = pool().acquire();
    if (!w) {
      static std::atomic<bool> warned{false};
      if (!warned.exchange(true))
        std::fprintf(stderr, "gio host emulation: out of OS threads; fewer work-groups run at once\n");
      j->spawn_left = 0;
      return;
    }
    {
      std::lock_guard<std::mutex> lock(j->m);
      ++j->workers_left;
    }
    {
      std::lock_guard<std::mutex> lock(w->m);
      w->pending = j;
    }
    w->cv.notify_one();
  }
}

// Worker threads run at a lower priority than the process's other threads. A GPU's threads never
// take the CPU from the host threads that serve them (the proxy, the softnic); emulated ones do,
// and at 4 PEs of 64 work-groups on 2 cores the proxies, which every waiting work-group depends
// on, got so little of it that a command took seconds. Raising one's own nice value needs no
// privilege; failing to is harmless.
constexpr int kWorkerNice = 10;

void worker::loop() {
  (void)setpriority(PRIO_PROCESS, (id_t)gettid(), kWorkerNice);
  for (;;) {
    std::shared_ptr<job> j;
    {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [this] { return pending != nullptr; });
      j = std::move(pending);
    }
    spread(j);
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
  if (wave_lockstep() != s.wave_lockstep) __atomic_store_n(&lockstep_on, s.wave_lockstep, __ATOMIC_RELAXED);
  auto j = std::make_shared<job>();
  j->grid = grid;
  j->block = block;
  j->shared_bytes = shared_bytes;
  j->stack_bytes = s.fiber_stack_bytes;
  j->thunk = thunk;
  j->closure = closure;
  j->total = total;
  // The calling thread runs work-groups too: a one-group launch then needs no other thread.
  // A helper that is counted in workers_left is the only one who can wake further helpers, so
  // workers_left cannot reach zero while more may still join.
  unsigned long long want = std::min<unsigned long long>(total, std::max(1u, s.max_concurrent_wg));
  j->spawn_left = unsigned(want - 1);
  spread(j);
  static thread_local group_runner caller_runner;
  caller_runner.run_job(*j);
  std::unique_lock<std::mutex> lock(j->m);
  j->cv.wait(lock, [&] { return j->workers_left == 0; });
}

}  // namespace host
}  // namespace gio
