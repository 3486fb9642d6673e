// host/backoff.h: a waiter spins, then yields, then sleeps, so the thread it waits for gets the CPU.
#include "host/backoff.h"

#include <gtest/gtest.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {

double thread_cpu_ms() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Past the spin and yield phases every pause blocks for at least the shortest sleep.
TEST(Backoff, SleepsAfterBoundedSpin) {
  gio::backoff b;
  for (unsigned i = 0; i < gio::backoff::kYield; ++i) b.pause();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) b.pause();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(us, 50 * (long long)gio::backoff::kSleepMinUs);
}

// The spin phase does not block: its pauses are free.
TEST(Backoff, SpinPhaseDoesNotSleep) {
  gio::backoff b;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < gio::backoff::kSpin; ++i) b.pause();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(us, (long long)gio::backoff::kSleepMinUs * gio::backoff::kSpin / 2);
}

// A waiter on a flag another thread sets after 300 ms uses a small part of that time's CPU (a
// yield-only spinner on a free core uses all of it), and still sees the flag promptly.
TEST(Backoff, LongWaitLeavesTheCpu) {
  std::atomic<bool> flag{false};
  double cpu = 0;
  std::chrono::steady_clock::time_point seen;
  std::thread waiter([&] {
    const double c0 = thread_cpu_ms();
    gio::backoff b;
    while (!flag.load(std::memory_order_acquire)) b.pause();
    seen = std::chrono::steady_clock::now();
    cpu = thread_cpu_ms() - c0;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto set = std::chrono::steady_clock::now();
  flag.store(true, std::memory_order_release);
  waiter.join();
  EXPECT_LT(cpu, 100.0) << "the waiter used " << cpu << " ms of CPU in a 300 ms wait";
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(seen - set).count(), 100);
}

}  // namespace
