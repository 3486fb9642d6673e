// State shared by the host-platform scheduler (emu_launch.cpp), the in-kernel synchronisation
// (emu.cpp) and the runtime API (emu_runtime.cpp). Not for use outside device/platform/host/.
#pragma once

#include "host/platform/emu/emu_sanitize.h"
#include "runtime/emu_api.h"

#include <boost/context/fiber.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace gio {
namespace host {
namespace detail {

enum class wait_kind : unsigned char { none, block, warp };

// One emulated GPU thread. The scheduler only resumes it when the barrier generation it waits
// for has moved on, so a parked thread costs no context switch per scheduler round.
struct fiber_ctx : thread_slot {
  boost::context::fiber self;   // this thread, held by the scheduler while it is parked
  boost::context::fiber sched;  // the scheduler, held by this thread while it runs
  unsigned lane = 0;
  unsigned warp = 0;
  wait_kind wait = wait_kind::none;
  unsigned wait_gen = 0;
  bool yielded = false;  // parked in gio::host::yield(), not on a barrier
  bool done = false;
  bool step_progress = false;  // yielded by wave_step() outside a wait: doing work, not spinning
  int wait_slot = -1;          // lockstep-wave mode: the warp's wait site this thread is in
  san::fiber_state san;  // sanitizer bookkeeping (empty work without GIO_SANITIZE)
};

// Barrier and exchange slots of one 32-lane warp. Two slot buffers alternate by barrier
// generation: a lane can only write generation g+2's buffer after every lane it exchanges with
// has passed barrier g+1, hence after it has read generation g, so one barrier per shuffle
// suffices.
// One device wait site of a warp in lockstep-wave mode: the lanes of the current round.
struct wave_wait_site {
  const void* site = nullptr;
  unsigned entered = 0;  // lanes that entered the wait this round (0: slot free)
  unsigned exited = 0;   // of those, lanes that left it and are held at its end
  unsigned gen = 0;      // rounds completed
};
constexpr int kWaveWaitSites = 8;

struct warp_ctx {
  unsigned live = 0;     // lanes whose threads have not returned
  unsigned arrived = 0;  // lanes waiting at the current barrier
  unsigned need = 0;     // lanes the arrivals' masks asked for
  unsigned gen = 0;
  unsigned parts[2] = {0, 0};  // who took part in the barrier that filled slot[b]
  unsigned long long slot[2][32];
  wave_wait_site waits[kWaveWaitSites];
};

struct group_ctx {
  unsigned live = 0;
  unsigned arrived = 0;
  unsigned gen = 0;
  std::vector<fiber_ctx> fibers;
  std::vector<warp_ctx> warps;
  san::sched_state san;
};

// The work-group running on this OS thread; constant-initialised, read without a TLS wrapper.
inline thread_local group_ctx* tl_ctx = nullptr;

inline fiber_ctx& current_fiber() {
  return *static_cast<fiber_ctx*>(const_cast<thread_slot*>(tl_thread));
}

// Completes the barrier if everyone it waits for has arrived; threads that returned count as
// arrived, as on GPUs with independent thread scheduling.
inline void block_check(group_ctx& g) {
  if (g.arrived != 0 && g.arrived >= g.live) {
    g.arrived = 0;
    ++g.gen;
  }
}
inline void warp_check(warp_ctx& w) {
  if (w.arrived != 0 && (w.need & w.live & ~w.arrived) == 0) {
    w.parts[w.gen & 1] = w.arrived;
    w.arrived = w.need = 0;
    ++w.gen;
  }
}

void set_last_error(hipError_t err);
[[noreturn]] void fatal(const char* what);

// One launch, shared by the OS threads that run its work-groups.
struct job {
  dim3 grid, block;
  size_t shared_bytes = 0;
  size_t stack_bytes = 0;
  void (*thunk)(const void*) = nullptr;
  const void* closure = nullptr;
  unsigned long long total = 0;
  std::atomic<unsigned long long> next{0};  // next work-group nobody has taken
  std::mutex m;
  std::condition_variable cv;
  unsigned workers_left = 0;             // helpers woken and not yet done, under m
  std::atomic<unsigned> spawn_left{0};  // helpers still allowed to join
};

// Runs work-groups on the calling OS thread, one after another, keeping its fiber stacks.
class group_runner {
 public:
  group_runner() = default;
  group_runner(const group_runner&) = delete;
  group_runner& operator=(const group_runner&) = delete;
  ~group_runner();
  // Takes work-groups of j until none is left.
  void run_job(job& j);

 private:
  char* base_ = nullptr;
  size_t count_ = 0, bytes_ = 0;
  std::vector<unsigned> vg_ids_;
  std::vector<unsigned char> dyn_shared_;
  group_ctx g_;

  void unmap();
  void drop_fibers();
  void ensure_stacks(size_t n, size_t want_bytes);
  void start_fibers(job& j, unsigned n, dim3 b);
  void finish(fiber_ctx& f);
  bool blocked(const fiber_ctx& f) const;
  void schedule();
  void run_group(job& j, unsigned long long wg);
};

}  // namespace detail
}  // namespace host
}  // namespace gio
