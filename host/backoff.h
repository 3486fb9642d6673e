// How a host wait gives way while its condition is not met. Many of GIO's waits are made true by
// another thread of this process (the proxy thread serves peers' atomics and puts at the target,
// the softnic moves a gda queue's data) or by another PE on the same cores; a waiter that only
// calls sched_yield stays runnable and, with several PEs' waiters on two cores, takes the CPU
// from the very thread it waits for (func.test_signal.proxy.np4 on an oversubscribed 2-core
// machine). So: spin briefly (latency), then yield a while, then sleep, 20 us growing to 160 us.
// Header-only; tests/unit/backoff_test.cpp checks each phase.
#pragma once
#include <sched.h>
#include <time.h>

namespace gio {

struct backoff {
  static constexpr unsigned kSpin = 64;      // polls with no pause
  static constexpr unsigned kYield = 1024;   // then polls with sched_yield, up to this count
  static constexpr unsigned kSleepMinUs = 20, kSleepMaxUs = 160;
  unsigned polls = 0;

  // The pause after a poll that found the condition unmet.
  void pause() {
    const unsigned n = ++polls;
    if (n <= kSpin) return;
    if (n <= kYield) {
      sched_yield();
      return;
    }
    const unsigned step = (n - kYield) / 256;  // doubling every 256 sleeps
    unsigned us = kSleepMinUs << (step < 3 ? step : 3);
    if (us > kSleepMaxUs) us = kSleepMaxUs;
    timespec ts{0, (long)us * 1000};
    nanosleep(&ts, nullptr);
  }
};

}  // namespace gio
