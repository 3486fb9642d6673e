// Lockstep-wave mode (GIO_HOST_WAVE_LOCKSTEP; see hip_host.h): lanes yield after device atomics,
// and each device wait ends with a reconvergence barrier over the lanes of the wave that entered
// it. Like the rest of a work-group's state this is touched only by the running fiber.
#include "host/platform/emu/emu_internal.h"

#include <cstdio>

namespace gio {
namespace host {
namespace detail {

bool lockstep_on = false;

void wave_step_slow() {
  if (!in_kernel()) return;
  fiber_ctx& f = current_fiber();
  // Outside a wait a step is work in progress: the scheduler must not take the round for an
  // idle one and sleep (inside a wait, the lane spins).
  if (f.wait_slot < 0) f.step_progress = true;
  yield();
}

int wave_wait_enter(const void* site) {
  if (!in_kernel()) return -1;
  fiber_ctx& f = current_fiber();
  if (f.wait_slot >= 0) return -1;  // a wait inside a wait's condition: not tracked
  warp_ctx& w = tl_ctx->warps[f.warp];
  int k = 0, free = -1;
  for (; k < kWaveWaitSites; ++k) {
    const wave_wait_site& s = w.waits[k];
    if (s.entered != 0 && s.site == site) break;  // a round at this site is open: join it
    if (s.entered == 0 && free < 0) free = k;
  }
  if (k == kWaveWaitSites) {
    if (free < 0) fatal("lockstep-wave mode: more than 8 different waits open in one wave");
    k = free;
    w.waits[k].site = site;
  }
  w.waits[k].entered |= 1u << f.lane;
  f.wait_slot = k;
  // Wave-mates on their way to this wait enter it before anyone tests its condition, as the
  // lanes of a lockstep wave do (a condition without an atomic would not let them catch up).
  f.step_progress = true;
  yield();
  return k;
}

void wave_wait_exit(int slot) {
  fiber_ctx& f = current_fiber();
  warp_ctx& w = tl_ctx->warps[f.warp];
  wave_wait_site& s = w.waits[slot];
  s.exited |= 1u << f.lane;
  const unsigned gen = s.gen;
  // Held until every lane that entered this round has left the wait; lanes that returned from
  // the kernel cannot be inside it (every wait ends by returning or by stopping the job).
  while (s.gen == gen) {
    if ((s.entered & ~s.exited & w.live) == 0) {
      s.entered = s.exited = 0;
      s.site = nullptr;
      ++s.gen;
      break;
    }
    yield();
  }
  f.wait_slot = -1;
}

}  // namespace detail

void wave_wait_report() {
  if (!wave_lockstep() || !in_kernel()) return;
  detail::fiber_ctx& f = detail::current_fiber();
  if (f.wait_slot < 0) return;
  const detail::wave_wait_site& s = detail::tl_ctx->warps[f.warp].waits[f.wait_slot];
  const unsigned held = s.entered & s.exited;
  if (held == 0) return;
  std::fprintf(stderr,
               "GIO lockstep: work-group %u, wave %u: lanes 0x%08x left this wait and are held at its "
               "reconvergence point while lane %u is still in it (GIO_HOST_WAVE_LOCKSTEP=1): if it waits for "
               "what they do after the wait, it hangs on GPUs whose waves run in lockstep (AMD)\n",
               linear_block_id(), f.warp, held, f.lane);
}

}  // namespace host
}  // namespace gio
