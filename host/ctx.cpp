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
    r.coll->ctx_team[ctx->index] = SHMEM_TEAM_WORLD;
  }
  std::lock_guard<std::mutex> g(r.ctx_lock);
  ctx->in_use = 0;
}
