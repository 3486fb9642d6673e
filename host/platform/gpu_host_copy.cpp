// Host platform: the proxy's asynchronous staging copies (gpu.h nic_copy_start, nic_copy_done). A
// GPU's copy engine finishes them while the proxy thread goes on; here a copy is queued and done,
// in issue order, by the poll of nic_copy_done that first finds it due, never by nic_copy_start. So
// the staged pipeline takes the paths it takes on a GPU: it waits for a chunk's copy while others
// are on their way, acknowledges a landed chunk only once a later poll finds its copy done, and
// serves peers' requests meanwhile (a copy done on return would leave all of that untested). The
// proxy thread does the copies itself, so a copy's bytes are written before anything the thread does
// after the poll that found it done, such as its acknowledgement. GIO_HOST_COPY_US keeps each copy
// from being due before that many microseconds after the previous one (or its start), as a small
// copy into GPU memory waits for its process's time slice where PEs share a GPU
// (docs/transports.md, proxy): the proxy then moves that slowly, and CI sees it.
#include <chrono>
#include <cstdint>
#include <deque>

#include "host/platform/gpu.h"
#include "host/runtime.h"

namespace gio {
namespace gpu {
namespace {

using clk = std::chrono::steady_clock;

struct pending_copy {
  void* dst;
  const void* src;
  size_t n;
  clk::time_point due;
};

// Only the proxy thread calls these (gpu.h), so the queue needs no lock.
struct copy_queue {
  std::deque<pending_copy> q;
  uint64_t issued = 0, done = 0;
  clk::time_point last_due{};
};

copy_queue& queue() {
  static copy_queue c;
  return c;
}

}  // namespace

uint64_t nic_copy_start(void* dst, const void* src, size_t n) {
  copy_queue& c = queue();
  const auto now = clk::now();
  const auto after = c.last_due > now ? c.last_due : now;
  c.last_due = after + std::chrono::microseconds(rt().cfg.GIO_HOST_COPY_US);
  c.q.push_back({dst, src, n, c.last_due});
  return ++c.issued;
}

bool nic_copy_done(uint64_t ticket) {
  copy_queue& c = queue();
  if (c.done >= ticket) return true;
  const auto now = clk::now();
  while (c.done < ticket && !c.q.empty() && c.q.front().due <= now) {
    const pending_copy p = c.q.front();
    c.q.pop_front();
    nic_copy(p.dst, p.src, p.n);
    ++c.done;
  }
  return c.done >= ticket;
}

}  // namespace gpu
}  // namespace gio
