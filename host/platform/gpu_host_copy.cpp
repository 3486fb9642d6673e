// Host platform: the proxy's asynchronous staging copies (gpu.h nic_copy_start, nic_copy_done) run
// on a thread of their own, as a GPU's run on a copy engine, so the proxy's pipeline is exercised as
// it runs on a GPU: a chunk copied in while others are on their way, a landed chunk acknowledged only
// once its copy is done, and peers' requests served while copies are pending (a copy done on
// return would leave every one of those waits untested). GIO_HOST_COPY_US makes each
// copy take at least that long, as a small copy into GPU memory waits milliseconds for its process's
// time slice where PEs share a GPU (docs/transports.md, proxy), so CI sees the proxy move that slowly.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "host/platform/gpu.h"
#include "host/runtime.h"

namespace gio {
namespace gpu {
namespace {

// Copies run in issue order, so a ticket is done once `done` has reached it (tickets complete in
// order on a GPU's stream too).
class copy_engine {
 public:
  explicit copy_engine(uint64_t min_us) : min_us_(min_us), worker_([this] { run(); }) { worker_.detach(); }

  uint64_t start(void* dst, const void* src, size_t n) {
    std::lock_guard<std::mutex> g(lock_);
    queue_.push_back({dst, src, n});
    wake_.notify_one();
    return ++issued_;
  }
  // Acquire: the copy's bytes are visible to the caller once it sees the ticket done.
  bool done(uint64_t ticket) const { return done_.load(std::memory_order_acquire) >= ticket; }

 private:
  struct copy {
    void* dst;
    const void* src;
    size_t n;
  };
  void run() {
    for (;;) {
      copy c;
      {
        std::unique_lock<std::mutex> g(lock_);
        wake_.wait(g, [this] { return !queue_.empty(); });
        c = queue_.front();
        queue_.pop_front();
      }
      const auto t0 = std::chrono::steady_clock::now();
      nic_copy(c.dst, c.src, c.n);
      if (min_us_) std::this_thread::sleep_until(t0 + std::chrono::microseconds(min_us_));
      done_.fetch_add(1, std::memory_order_release);
    }
  }

  const uint64_t min_us_;
  std::mutex lock_;
  std::condition_variable wake_;
  std::deque<copy> queue_;
  uint64_t issued_ = 0;
  std::atomic<uint64_t> done_{0};
  std::thread worker_;
};

// Never destroyed: its thread may still wait on the queue when the process exits.
copy_engine& engine() {
  static copy_engine* e = new copy_engine(rt().cfg.GIO_HOST_COPY_US);
  return *e;
}

}  // namespace

uint64_t nic_copy_start(void* dst, const void* src, size_t n) { return engine().start(dst, src, n); }
bool nic_copy_done(uint64_t ticket) { return engine().done(ticket); }

}  // namespace gpu
}  // namespace gio
