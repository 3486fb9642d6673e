// Host contexts: shmem_ctx_create and shmem_ctx_destroy (shmem_team_create_ctx builds on
// create). Contexts are slots of runtime::host_ctx, guarded by runtime::ctx_lock.
#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"

#include <mutex>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

extern "C" int gio_host_ctx_create(long options, gio_ctx_v1** ctx) {
  runtime& r = rt_checked("shmem_ctx_create");
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
