// Who calls a routine: one thread, a whole wave (warp/wavefront), or a whole work-group.
// Cooperative forms split the bytes over the lanes of their scope and synchronize at entry (so data
// other lanes just wrote is visible to the lane that copies it) and at exit (so the source may be
// reused by any lane once the call returns).
#pragma once
#include "device/platform/platform.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

struct scope_thread {
  static constexpr bool one_lane = true;  // known at compile time: only it may take a bulk-copy stage
  static GIO_DEVICE_INLINE unsigned lane() { return 0; }
  static GIO_DEVICE_INLINE unsigned lanes() { return 1; }
  static GIO_DEVICE_INLINE void sync() {}
  // Loads one lane keeps in flight while copying. A lone thread has only its own loads to hide
  // the load latency behind, so it goes deeper (16 x 16 B = 64 registers) than a lane of a group.
  // (An L1 prefetch of the source first gained nothing on H200: 4 KiB stayed at 6.4-6.5 us.)
  static constexpr unsigned copy_batch = 16;
  static constexpr unsigned inline_words = 1;  // (unused: a thread's put has copy_thread_small)
};
struct scope_wave {
  static constexpr bool one_lane = false;
  static GIO_DEVICE_INLINE unsigned lane() { return plat::wave_lane(); }
  static GIO_DEVICE_INLINE unsigned lanes() { return plat::wave_active(); }
  static GIO_DEVICE_INLINE void sync() { plat::wave_sync(); }
  // A cooperative put or get's "done inline?", which every lane computes alike, as a value the
  // compiler knows is uniform (plat::wave_uniform): 8 B wave puts at 132 work-groups went from
  // 3,363 to 4,006-4,010 million/s, one call 355 -> 356 cycles (gio-bench msgrate and callcost; tests/sass/check_call_branch.py checks the branch).
  static GIO_DEVICE_INLINE bool agree(bool p) { return plat::wave_uniform(p); }
  static constexpr unsigned copy_batch = 8;
  // Words per lane a put or get copies inline (copy_lane_words): 2 KiB of 16-byte words at 32
  // lanes. Out of line, a 1-2 KiB wave put cost about twice NVSHMEM's inline loop (results s17).
  static constexpr unsigned inline_words = 4;
};
struct scope_wg {
  static constexpr bool one_lane = false;
  static GIO_DEVICE_INLINE unsigned lane() { return plat::wg_thread(); }
  static GIO_DEVICE_INLINE unsigned lanes() { return plat::wg_size(); }
  static GIO_DEVICE_INLINE void sync() { plat::wg_sync(); }
  // As the wave's, without the vote: with it, 8 B work-group puts at 132 work-groups went from 491
  // to 479 million/s and one call from 328 to 341 cycles (gio-bench msgrate --scope wg, gio-bench callcost --scope wg).
  static GIO_DEVICE_INLINE bool agree(bool p) { return p; }
  static constexpr unsigned copy_batch = 8;
  // One word per lane is already 4 KiB at 256 lanes; more would only add registers to kernels
  // that call work-group puts under a register cap (Jacobi2D's persistent kernel, 64).
  static constexpr unsigned inline_words = 1;
};

}  // namespace dev
}  // namespace gio
#endif
