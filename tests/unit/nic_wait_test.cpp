// The softnic's wait for its own copies and atomic kernels (host/platform/nic_wait.h): a completion
// that never comes ends the wait after the timeout (the GPU platforms then stop the job with what was
// waited for), the stall is named once before that, and 0 still means "wait forever".
#include <gtest/gtest.h>

#include <chrono>

#include "host/platform/nic_wait.h"

using namespace std::chrono;

TEST(NicWait, CompletionEndsTheWait) {
  int polls = 0, slow = 0;
  uint64_t waited = 99;
  EXPECT_TRUE(gio::nic_wait_bounded([&] { return ++polls == 3; }, [&] { ++slow; }, 1000, &waited));
  EXPECT_EQ(polls, 3);
  EXPECT_EQ(slow, 0);
  EXPECT_LT(waited, 1000u);
}

TEST(NicWait, NeverCompletingIsBoundedByTheTimeout) {
  int slow = 0;
  uint64_t waited = 0;
  const auto t0 = steady_clock::now();
  EXPECT_FALSE(gio::nic_wait_bounded([] { return false; }, [&] { ++slow; }, 60, &waited, milliseconds(10)));
  const auto ms = duration_cast<milliseconds>(steady_clock::now() - t0).count();
  EXPECT_GE(ms, 60);
  EXPECT_LT(ms, 5000);  // bounded, not forever (generous for a loaded CI machine)
  EXPECT_GE(waited, 60u);
  EXPECT_EQ(slow, 1);  // the stall is named exactly once
}

TEST(NicWait, ZeroTimeoutWaitsForever) {
  uint64_t waited = 0;
  int slow = 0;
  // Completes 80 ms after its first poll: longer than the slow notice, and never given up on.
  // Timed from the first poll, which the wait's own clock precedes, so `waited` is at least 80
  // (timed from before the call, it could end when the wait had counted 79).
  steady_clock::time_point first{};
  auto done = [&] {
    const auto now = steady_clock::now();
    if (first == steady_clock::time_point{}) first = now;
    return now - first > milliseconds(80);
  };
  EXPECT_TRUE(gio::nic_wait_bounded(done, [&] { ++slow; }, 0, &waited, milliseconds(20)));
  EXPECT_GE(waited, 80u);
  EXPECT_EQ(slow, 1);
}
