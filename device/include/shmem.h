// GIO: OpenSHMEM 1.5 for GPU kernels. One include gives host code the OpenSHMEM host API and
// kernels the whole device API (standard routines here, GIO extensions from shmemx.h). From C
// (C11), it gives the host API: libgio's C symbols and the _Generic names (device/api/c/).
#pragma once

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "GIO (GPU Initiated OpenSHMEM) 0.1.0"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

// shmem_malloc_with_hints: how the memory will be used. GIO places every block alike, reachable
// by every transport's atomics and signals, so it ignores these; bits outside them (another
// implementation's hints) are ignored too, as the spec allows (GIO_DEBUG=1 says so).
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#ifndef __cplusplus
#include "device/api/c/shmem_c.h"
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
#include "device/api/c/shmem_c_table.h"

#include "device/api/base.h"  // setup, queries and memory routines (C symbols)

extern "C" {
// Names older than 1.4 (start_pes, _my_pe, shmalloc, shmem_TYPE_wait, the cache no-ops): host only.
#define GIO_C_X(RET, NAME, PARAMS, ...) RET NAME PARAMS;
GIO_C_FAMILY_LEGACY
#undef GIO_C_X
}

GIO_HDFN int shmem_my_pe(void) {
  int r = -1;
  GIO_DISPATCH(r = ::gio::dev::state_checked("shmem_my_pe").my_pe, r = gio_host_my_pe());
  return r;
}
GIO_HDFN int shmem_n_pes(void) {
  int r = -1;
  GIO_DISPATCH(r = ::gio::dev::state_checked("shmem_n_pes").n_pes, r = gio_host_n_pes());
  return r;
}

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
// Address of `dest` on `pe` usable by plain loads/stores in a kernel, or nullptr.
GIO_DFN void* ptr(const void* dest, int pe) {
  const gio_device_state_v1& st = state_checked("shmem_ptr");
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
GIO_HDFN void* shmem_ptr(const void* dest, int pe) {
  void* r = nullptr;
  GIO_DISPATCH(r = ::gio::dev::ptr(dest, pe), r = gio_host_ptr(dest, pe));
  return r;
}

// OpenSHMEM 1.6: `dest` on member `pe` of `team`, as shmem_ptr reaches it (nullptr if it does not).
GIO_HDFN void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) {
  const int world = shmem_team_translate_pe(team, pe, SHMEM_TEAM_WORLD);
  return world < 0 ? nullptr : shmem_ptr(dest, world);
}

#endif  // __cplusplus

#include "shmemx.h"
