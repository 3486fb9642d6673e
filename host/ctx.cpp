// Host contexts: shmem_ctx_create and shmem_ctx_destroy (shmem_team_create_ctx builds on
// create). Contexts are slots of runtime::host_ctx, guarded by runtime::ctx_lock. With
// SHMEM_DEVICE_CTX (GPU Auxiliary Specification) the context is a device one instead: a slot of the
// device context table past the kernels' own (runtime/contract.h, ctx_end), for kernels only.
#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"

#include <mutex>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

using namespace gio;

namespace gio {
// The slot's words are written whole into the table in this PE's GPU heap, where kernels read them;
// no kernel claims a slot of this range (device/api/ctx.h), so nothing races the write.
int dev_ctx_create(runtime& r, const char* routine, long options, int team, gio_ctx_v1** ctx) {
  std::lock_guard<std::mutex> g(r.ctx_lock);
  for (size_t k = 0; k < r.dev_ctx_team.size(); ++k) {
    if (r.dev_ctx_team[k] >= 0) continue;
    gio_ctx_v1 c{};
    c.magic = GIO_CTX_MAGIC;
    c.index = r.dev_ctx_first + (uint32_t)k;
    c.in_use = 1;
    c.options = (uint32_t)options;
    c.team = team;
    gio_ctx_v1* slot = (gio_ctx_v1*)(r.heap + GIO_HEAP_RSVD_CTX_TABLE) + c.index;
    gpu::copy(slot, &c, sizeof c, routine);
    r.dev_ctx_team[k] = team;
    *ctx = slot;
    return 0;
  }
  info(1, "%s: all %zu device contexts are live (SHMEM_DEVICE_MAX_CTX)", routine, r.dev_ctx_team.size());
  *ctx = SHMEM_CTX_INVALID;
  return 1;
}

// What the kernels left in flight on the context completes (the spec's destroy quiets it) before
// the slot, and its transport queues, go to a later context.
void dev_ctx_destroy(runtime& r, const char* routine, int k) {
  gpu::sync(routine);
  transports_drain(r, routine);
  std::lock_guard<std::mutex> g(r.ctx_lock);
  gio_ctx_v1 c{};
  c.magic = GIO_CTX_MAGIC;
  c.index = r.dev_ctx_first + (uint32_t)k;
  gpu::copy((gio_ctx_v1*)(r.heap + GIO_HEAP_RSVD_CTX_TABLE) + c.index, &c, sizeof c, routine);
  r.dev_ctx_team[k] = -1;
}
}  // namespace gio

extern "C" int gio_host_ctx_create(long options, gio_ctx_v1** ctx) {
  runtime& r = rt_checked("shmem_ctx_create");
  if (options & SHMEM_DEVICE_CTX) return dev_ctx_create(r, "shmem_ctx_create", options, GIO_TEAM_SLOT_WORLD, ctx);
  std::lock_guard<std::mutex> g(r.ctx_lock);
  for (size_t i = 1; i < r.host_ctx.size(); ++i)
    if (!r.host_ctx[i].in_use) {
      r.host_ctx[i].in_use = 1;
      r.host_ctx[i].options = (uint32_t)options;
      *ctx = &r.host_ctx[i];
      return 0;
    }
  // Fixed capacity: pointers handed out must stay valid, so the vector never reallocates.
  if (r.host_ctx.size() >= r.host_ctx.capacity()) {
    *ctx = SHMEM_CTX_INVALID;
    return 1;
  }
  r.host_ctx.push_back(gio_ctx_v1{});
  gio_ctx_v1& c = r.host_ctx.back();
  c.magic = GIO_CTX_MAGIC;
  c.index = (uint32_t)(r.host_ctx.size() - 1);
  c.in_use = 1;
  c.options = (uint32_t)options;
  *ctx = &c;
  return 0;
}

extern "C" void gio_host_ctx_destroy(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_ctx_destroy");
  if (!ctx || host_ctx_invalid(ctx)) return;
  const int k = dev_ctx_slot(r, ctx);
  if (k >= 0) {
    bool live;
    {
      std::lock_guard<std::mutex> g(r.ctx_lock);
      live = r.dev_ctx_team[k] >= 0;
    }
    if (!live) fatal(GIO_ERR_ARG, "shmem_ctx_destroy", "device context %p was already destroyed", (void*)ctx);
    return dev_ctx_destroy(r, "shmem_ctx_destroy", k);
  }
  check_host_ctx(r, "shmem_ctx_destroy", ctx);
  {
    // A destroyed context leaves its team (shmem_team_create_ctx set it): the slot's next context
    // starts on SHMEM_TEAM_WORLD.
    std::lock_guard<std::mutex> l(r.coll->lock);
    r.coll->ctx_team[ctx->index] = GIO_TEAM_SLOT_WORLD;
  }
  std::lock_guard<std::mutex> g(r.ctx_lock);
  ctx->in_use = 0;
}

// Sessions are hints (OpenSHMEM 1.6 section on communication sessions): GIO posts every operation as
// it comes whatever the session, which the spec allows, so start and stop check their arguments and
// change nothing. SHMEM_CTX_INVALID is a no-op, as the spec says.
extern "C" void gio_host_ctx_session_start(gio_ctx_v1* ctx, long options, const void* config, long config_mask) {
  const char* routine = "shmem_ctx_session_start";
  runtime& r = rt_checked(routine);
  if (host_ctx_invalid(ctx)) return;
  check_host_ctx(r, routine, ctx);
  if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
    fatal(GIO_ERR_ARG, routine, "config_mask 0x%lx has bits outside SHMEM_CTX_SESSION_TOTAL_OPS",
          (unsigned long)config_mask);
  if (config_mask && !config)
    fatal(GIO_ERR_ARG, routine, "config is NULL with config_mask 0x%lx", (unsigned long)config_mask);
  // Any combination of options is valid (the spec); unknown ones are ignored like the known one.
  if (options & ~SHMEM_CTX_SESSION_BATCH)
    info(1, "%s: options 0x%lx include bits GIO does not know; ignored", routine, (unsigned long)options);
}

extern "C" void gio_host_ctx_session_stop(gio_ctx_v1* ctx) {
  const char* routine = "shmem_ctx_session_stop";
  runtime& r = rt_checked(routine);
  if (host_ctx_invalid(ctx)) return;
  check_host_ctx(r, routine, ctx);
}
