// Communication contexts. SHMEM_CTX_DEFAULT is the calling work-group's default context; a
// work-group may claim its own with shmemx_wg_ctx_create so a transport with per-context queues
// (gda) gives it private queues. quiet/fence act on one context.
#pragma once
#include "device/dispatch/dispatch.h"

// Host-side contexts (shmem_ctx_create / shmem_ctx_destroy), for host-initiated operations.
inline int shmem_ctx_create(long options, shmem_ctx_t* ctx) { return gio_host_ctx_create(options, ctx); }
inline void shmem_ctx_destroy(shmem_ctx_t ctx) { gio_host_ctx_destroy(ctx); }

GIO_HOST_DEVICE_INLINE void shmem_ctx_quiet(shmem_ctx_t ctx) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::quiet("shmem_ctx_quiet", ctx), gio_host_quiet(ctx));
}
GIO_HOST_DEVICE_INLINE void shmem_ctx_fence(shmem_ctx_t ctx) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::fence("shmem_ctx_fence", ctx), gio_host_fence(ctx));
}
GIO_HOST_DEVICE_INLINE void shmem_quiet(void) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::quiet("shmem_quiet", nullptr), gio_host_quiet(nullptr));
}
GIO_HOST_DEVICE_INLINE void shmem_fence(void) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::fence("shmem_fence", nullptr), gio_host_fence(nullptr));
}

#if GIO_KERNEL_COMPILER
// Work-group collective: every thread of the work-group calls it and gets the same context.
// Returns 0 on success, nonzero (and *ctx = SHMEM_CTX_INVALID) when every context is taken.
GIO_DEVICE_INLINE int shmemx_wg_ctx_create(long options, shmem_ctx_t* ctx) {
  const gio_device_state_v1& st = ::gio::dev::state_checked("shmemx_wg_ctx_create");
  __shared__ shmem_ctx_t claimed;
  ::gio::plat::wg_sync();
  if (::gio::plat::wg_thread() == 0) {
    claimed = nullptr;
    // Slot 0 backs SHMEM_CTX_DEFAULT and is never handed out. Each work-group starts its scan at
    // its own slot: when every work-group of a launch creates one at once, a scan from slot 1
    // made the k-th creator fail k-1 contended CASes, and on H200 the last of 132 work-groups
    // started its real work long after the first.
    const uint32_t slots = st.num_ctx > 1 ? st.num_ctx - 1 : 0;
    const uint32_t first = slots ? ::gio::plat::wg_id() % slots : 0;
    for (uint32_t k = 0; k < slots && !claimed; ++k) {
      const uint32_t i = 1 + (first + k) % slots;
      if (::gio::plat::atomic_cas(&st.ctx_table[i].in_use, 0u, 1u) == 0u) {
        claimed = &st.ctx_table[i];
        claimed->options = (uint32_t)options;
        claimed->owner = ::gio::plat::wg_id() + 1ull;
        ::gio::plat::fence_device();
      }
    }
  }
  ::gio::plat::wg_sync();
  *ctx = claimed ? claimed : SHMEM_CTX_INVALID;
  ::gio::plat::wg_sync();
  return claimed ? 0 : 1;
}

// Work-group collective: quiets the context, then returns it to the pool.
GIO_DEVICE_INLINE void shmemx_wg_ctx_destroy(shmem_ctx_t ctx) {
  ::gio::dev::check_ctx("shmemx_wg_ctx_destroy", ctx);
  ::gio::dev::check_ctx_live("shmemx_wg_ctx_destroy", ctx);  // a second destroy is an error
  if (ctx == nullptr) return;  // the default context is not destroyed
  ::gio::plat::wg_sync();
  if (::gio::plat::wg_thread() == 0) {
    ::gio::dev::quiet("shmemx_wg_ctx_destroy", ctx);
    ctx->owner = 0;
    ::gio::plat::atomic_exchange(&ctx->in_use, 0u);
  }
  ::gio::plat::wg_sync();
}
#endif
