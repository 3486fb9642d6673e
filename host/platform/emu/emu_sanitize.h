// Fiber switches told to ASan and TSan (builds with GIO_SANITIZE; nothing otherwise).
// Not for use outside host/platform/emu/.
//
// Every emulated GPU thread is a Boost.Context fiber on a stack of the runner's own mapping, and
// neither sanitizer can see a stack switch made in assembly:
//  - ASan keeps one stack range per OS thread; on a noreturn call or an exception it clears the
//    shadow of "the rest of the stack" and with a wrong range it warns and reports false errors.
//    __sanitizer_start/finish_switch_fiber move the range with each switch. Redzones of frames
//    that never return (Boost's fiber_entry, which leaves by jumping away) stay poisoned, so the
//    top of a stack is unpoisoned before the stack is reused.
//  - TSan keeps one shadow call stack and one vector clock per thread; each emulated thread gets
//    a TSan fiber (__tsan_create_fiber) and the scheduler switches to it before resuming it and
//    back after. Switches synchronise (flags 0): fibers of a work-group take turns on one OS
//    thread, like the threads of a GPU work-group under the scheduler's barrier bookkeeping, so
//    only races between OS threads (work-groups, the softnic, host threads) are reported.
//    Only the scheduler switches TSan's context: then every shadow-stack push made before a jump
//    and the pop made after it land on the same TSan fiber (Boost's frames on both sides).
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define GIO_HOST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GIO_HOST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define GIO_HOST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GIO_HOST_TSAN 1
#endif
#endif

#if defined(GIO_HOST_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(GIO_HOST_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace gio {
namespace host {
namespace detail {
namespace san {

#if defined(GIO_HOST_ASAN)
// Instrumented frames are two to three times larger (redzones around every addressable local).
constexpr size_t kStackFactor = 4;
#else
constexpr size_t kStackFactor = 1;
#endif

// Per OS thread (one scheduler): where its own stack is, for switches back to it.
struct sched_state {
  void* asan_fake = nullptr;
  const void* asan_bottom = nullptr;
  size_t asan_size = 0;
  void* tsan = nullptr;
};

// Per emulated thread.
struct fiber_state {
  void* asan_fake = nullptr;
  const void* stack_lo = nullptr;
  size_t stack_bytes = 0;
  void* tsan = nullptr;
  unsigned tsan_uses = 0;
};

// A fresh stack for a new emulated thread on memory an earlier one used.
inline void stack_reuse(fiber_state& f, void* lo, size_t bytes) {
  f.stack_lo = lo;
  f.stack_bytes = bytes;
#if defined(GIO_HOST_ASAN)
  // Frames that never returned sit at the top (Boost's entry frame): clear their redzones.
  const size_t top = bytes < 16384 ? bytes : 16384;
  __asan_unpoison_memory_region(static_cast<char*>(lo) + bytes - top, top);
#endif
}

// Around the construction of the Boost fiber: its first jump runs Boost's entry frame on the new
// stack, whose shadow-stack entry must land on the fiber's TSan context, not the scheduler's.
inline void create_begin(sched_state& s, fiber_state& f) {
#if defined(GIO_HOST_TSAN)
  s.tsan = __tsan_get_current_fiber();
  // Boost's entry frame never returns, so each use leaves one entry on the TSan fiber's shadow
  // stack: start a new TSan fiber now and then rather than let it fill.
  if (f.tsan && ++f.tsan_uses >= 1024) {
    __tsan_destroy_fiber(f.tsan);
    f.tsan = nullptr;
  }
  if (!f.tsan) {
    f.tsan = __tsan_create_fiber(0);
    f.tsan_uses = 0;
  }
  __tsan_switch_to_fiber(f.tsan, 0);
#else
  (void)s;
  (void)f;
#endif
}
inline void create_end(sched_state& s) {
#if defined(GIO_HOST_TSAN)
  __tsan_switch_to_fiber(s.tsan, 0);
#else
  (void)s;
#endif
}

inline void destroy(fiber_state& f) {
#if defined(GIO_HOST_TSAN)
  if (f.tsan) __tsan_destroy_fiber(f.tsan);
  f.tsan = nullptr;
#else
  (void)f;
#endif
}

// Scheduler side of a resume: before the jump into the fiber and after it came back.
inline void resume_begin(sched_state& s, fiber_state& f) {
#if defined(GIO_HOST_TSAN)
  s.tsan = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(f.tsan, 0);
#endif
#if defined(GIO_HOST_ASAN)
  __sanitizer_start_switch_fiber(&s.asan_fake, f.stack_lo, f.stack_bytes);
#endif
  (void)s;
  (void)f;
}
inline void resume_end(sched_state& s) {
#if defined(GIO_HOST_ASAN)
  __sanitizer_finish_switch_fiber(s.asan_fake, nullptr, nullptr);
#endif
#if defined(GIO_HOST_TSAN)
  __tsan_switch_to_fiber(s.tsan, 0);
#endif
  (void)s;
}

// Fiber side: first instruction of a new emulated thread (learns the scheduler's stack).
inline void fiber_start(sched_state& s) {
#if defined(GIO_HOST_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &s.asan_bottom, &s.asan_size);
#endif
  (void)s;
}
// Fiber side of a park: before the jump to the scheduler and after it resumed this fiber.
inline void park_begin(sched_state& s, fiber_state& f) {
#if defined(GIO_HOST_ASAN)
  __sanitizer_start_switch_fiber(&f.asan_fake, s.asan_bottom, s.asan_size);
#endif
  (void)s;
  (void)f;
}
inline void park_end(fiber_state& f) {
#if defined(GIO_HOST_ASAN)
  __sanitizer_finish_switch_fiber(f.asan_fake, nullptr, nullptr);
#endif
  (void)f;
}
// Last thing a fiber does: its stack (and fake stack) dies with this switch.
inline void fiber_exit(sched_state& s) {
#if defined(GIO_HOST_ASAN)
  __sanitizer_start_switch_fiber(nullptr, s.asan_bottom, s.asan_size);
#endif
  (void)s;
}

}  // namespace san
}  // namespace detail
}  // namespace host
}  // namespace gio
