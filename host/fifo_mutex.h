// A mutex that hands itself on in arrival order (a ticket lock whose waiters sleep on a futex).
//
// Why not std::mutex: the host queues (gda, proxy) and the host API's copy lanes are held for a
// whole operation, tens of microseconds to milliseconds, and the usual holder is a thread polling a
// word in a loop (a lock's holder, a waiter on a flag). std::mutex makes no promise of order: the
// poller unlocks, wakes a sleeper, and locks again before the sleeper runs, so on a machine with a
// core per thread another host thread of the PE can wait without end (seen on an H100 host: the
// lock test's host contenders never reached the queue, tests/func/test_host_threads.cpp
// PollingThreadsDoNotStarveAnother). Here each locker takes a ticket and the holder's unlock
// serves the next ticket.
//
// Bounded: every holder's operation is bounded by GIO_TIMEOUT_MS (it stops the job past it), so a
// waiter here waits at most for the operations queued ahead of it.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>

namespace gio {

class fifo_mutex {
 public:
  fifo_mutex() = default;
  fifo_mutex(const fifo_mutex&) = delete;
  fifo_mutex& operator=(const fifo_mutex&) = delete;

  void lock() {
    const uint32_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
    for (unsigned spins = 0;; ++spins) {
      uint32_t now = serving_.load(std::memory_order_acquire);
      if (now == ticket) return;
      if (spins < kSpins) continue;
      // Announce the sleep before checking once more: unlock either sees the count and wakes
      // us, or its increment is what this load (or the futex's own compare) sees.
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      now = serving_.load(std::memory_order_seq_cst);
      if (now != ticket) syscall(SYS_futex, &serving_, FUTEX_WAIT_PRIVATE, now, nullptr, nullptr, 0);
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  void unlock() {
    serving_.fetch_add(1, std::memory_order_seq_cst);  // release: the critical section before the handoff
    // Every sleeper wakes and the one whose ticket is served takes it; waiters are few (host
    // threads of one PE), so waking them all costs less than a queue of per-ticket words.
    if (sleepers_.load(std::memory_order_seq_cst)) syscall(SYS_futex, &serving_, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
  }

 private:
  static constexpr unsigned kSpins = 256;
  std::atomic<uint32_t> next_{0};
  std::atomic<uint32_t> serving_{0};  // the futex word: the ticket that may hold the mutex
  std::atomic<uint32_t> sleepers_{0};
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the futex word is a plain 32-bit int");
};

}  // namespace gio
