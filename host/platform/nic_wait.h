// The softnic's bounded wait for its own copies and atomic kernels (gpu_nic.cpp nic_wait): every
// softnic wait ends within GIO_TIMEOUT_MS, like every other GIO wait. Header-only and free of the
// GPU runtime, so tests/unit/nic_wait_test.cpp drives it with a completion that never comes.
#pragma once
#include <chrono>
#include <cstdint>
#include <thread>

#include "host/backoff.h"

namespace gio {

// Polls done() until it returns true (true) or timeout_ms pass (false; 0 = never). slow() runs
// once, after slow_after, so a stall is named long before the timeout ends the job. *waited_ms gets
// the time spent either way.
template <typename Done, typename Slow>
bool nic_wait_bounded(Done done, Slow slow, uint64_t timeout_ms, uint64_t* waited_ms,
                      std::chrono::milliseconds slow_after = std::chrono::seconds(1)) {
  using clock = std::chrono::steady_clock;
  const clock::time_point t0 = clock::now();
  bool told = false;
  backoff pace;  // the softnic's copies run on this machine's cores too (host/backoff.h)
  for (;;) {
    const bool finished = done();
    const clock::duration dt = clock::now() - t0;
    *waited_ms = (uint64_t)std::chrono::duration_cast<std::chrono::milliseconds>(dt).count();
    if (finished) return true;
    if (!told && dt > slow_after) {
      told = true;
      slow();
    }
    if (timeout_ms && dt > std::chrono::milliseconds(timeout_ms)) return false;
    pace.pause();
  }
}

}  // namespace gio
