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
namespace gio {
namespace dev {
// shmem_[ctx_]pe_quiet in a kernel: every PE named is checked, then the context is quiet (for every
// PE, which completes at least what the spec asks for these). SHMEM_CTX_INVALID does nothing.
GIO_DEVICE_INLINE void pe_quiet(const char* rt, shmem_ctx_t ctx, const int* target_pes, size_t npes) {
  if (ctx == SHMEM_CTX_INVALID) return;
  state_checked(rt);
  if (npes == 0) return;
  if (target_pes == nullptr) GIO_DEV_FATAL(rt, "target_pes is NULL with npes %llu", (unsigned long long)npes);
  for (size_t i = 0; i < npes; ++i) check_pe(rt, ctx_pe(rt, ctx, target_pes[i]));
  quiet(rt, ctx);
}
// Sessions are hints and change nothing in a kernel either; the context is checked.
GIO_DEVICE_INLINE void session_check(const char* rt, shmem_ctx_t ctx, long config_mask, const void* config) {
  if (ctx == SHMEM_CTX_INVALID) return;
  state_checked(rt);
  check_ctx(rt, ctx);
  if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
    GIO_DEV_FATAL(rt, "config_mask 0x%lx has bits outside SHMEM_CTX_SESSION_TOTAL_OPS", (unsigned long)config_mask);
  if (config_mask && config == nullptr)
    GIO_DEV_FATAL(rt, "config is NULL with config_mask 0x%lx", (unsigned long)config_mask);
}
}  // namespace dev
}  // namespace gio
#endif

// OpenSHMEM 1.6: quiet for a set of PEs (ctx form: PE numbers in the context's team).
GIO_HOST_DEVICE_INLINE void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes),
               gio_host_pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes));
}
GIO_HOST_DEVICE_INLINE void shmem_pe_quiet(const int* target_pes, size_t npes) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::pe_quiet("shmem_pe_quiet", nullptr, target_pes, npes),
               gio_host_pe_quiet("shmem_pe_quiet", nullptr, target_pes, npes));
}
// OpenSHMEM 1.6 communication sessions: hints. GIO posts every operation as it comes, which the spec
// allows, so these check their arguments and change nothing; SHMEM_CTX_INVALID is a no-op.
GIO_HOST_DEVICE_INLINE void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config,
                                      long config_mask) {
  GIO_DISPATCH_HOST_DEVICE(((void)options, ::gio::dev::session_check("shmem_ctx_session_start", ctx, config_mask, config)),
               gio_host_ctx_session_start(ctx, options, config, config_mask));
}
GIO_HOST_DEVICE_INLINE void shmem_ctx_session_stop(shmem_ctx_t ctx) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::session_check("shmem_ctx_session_stop", ctx, 0, nullptr), gio_host_ctx_session_stop(ctx));
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
  if (ctx != nullptr && ctx->index >= ::gio::dev::state_checked("shmemx_wg_ctx_destroy").num_ctx)
    GIO_DEV_FATAL("shmemx_wg_ctx_destroy", "context %p was made by the host (SHMEM_DEVICE_CTX): shmem_ctx_destroy "
                  "destroys it, on the host", (void*)ctx);
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
