// GIO: OpenSHMEM 1.6 for GPU kernels. One include gives host code the OpenSHMEM host API and
// kernels the whole device API (standard routines here, GIO extensions from shmemx.h). From C
// (C11), it gives the host API: libgio's C symbols and the _Generic names (runtime/api/c/).
#pragma once

#include "runtime/api/base.h"  // constants, setup, queries and memory routines (C symbols)

#ifndef __cplusplus
#include "runtime/api/c/shmem_c.h"
#else

#include "device/api/amo.h"
#include "device/api/amo_nbi.h"
#include "device/api/coll.h"
#include "device/api/coll_generic.h"
#include "device/api/ctx.h"
#include "device/api/rma.h"
#include "device/api/strided.h"
#include "device/api/signal.h"
#include "device/api/sync.h"
#include "device/api/wait.h"
#include "device/api/amo_deprecated.h"
#include "device/api/rma_generic.h"
#include "device/api/lock.h"
#include "runtime/api/c/shmem_c_table.h"

extern "C" {
// Names older than 1.4 (start_pes, _my_pe, shmalloc, shmem_TYPE_wait, the cache no-ops): host only.
#define GIO_C_X(RET, NAME, PARAMS, ...) RET NAME PARAMS;
GIO_C_FAMILY_LEGACY
#undef GIO_C_X
}

GIO_HOST_DEVICE_INLINE int shmem_my_pe(void) {
  int r = -1;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::state_checked("shmem_my_pe").my_pe, r = gio_host_my_pe());
  return r;
}
GIO_HOST_DEVICE_INLINE int shmem_n_pes(void) {
  int r = -1;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::state_checked("shmem_n_pes").n_pes, r = gio_host_n_pes());
  return r;
}

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
// Address of `dest` on `pe` usable by plain loads/stores in a kernel, or nullptr.
GIO_DEVICE_INLINE void* ptr(const void* dest, int pe, const char* routine = "shmem_ptr") {
  const gio_device_state_v1& st = state_checked(routine);
  const uint8_t* a = (const uint8_t*)dest;
  if ((unsigned)pe >= (unsigned)st.n_pes) return nullptr;
  if (a < st.heap_base + GIO_HEAP_RESERVED || a >= st.heap_base + st.heap_size) return nullptr;
  if (pe == st.my_pe) return (void*)dest;  // a PE's own heap is always load/store reachable
  return st.peer_transport[pe] == GIO_TRANSPORT_P2P ? p2p::remote(st, dest, pe) : nullptr;
}
}  // namespace dev
}  // namespace gio
#endif

// In a kernel: a pointer the kernel can load/store through. In host code: the same device address
// (pass it to kernels), or nullptr when `pe` is not reachable by loads and stores.
GIO_HOST_DEVICE_INLINE void* shmem_ptr(const void* dest, int pe) {
  void* r = nullptr;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::ptr(dest, pe), r = gio_host_ptr(dest, pe));
  return r;
}

// OpenSHMEM 1.6: `dest` on member `pe` of `team`, as shmem_ptr reaches it (nullptr if it does not).
GIO_HOST_DEVICE_INLINE void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) {
  const int world = shmem_team_translate_pe(team, pe, SHMEM_TEAM_WORLD);
  return world < 0 ? nullptr : shmem_ptr(dest, world);
}

#endif  // __cplusplus

#include "shmemx.h"
