// libgio built without libfabric: no proxy transport. Asking for it is a clear error; nothing else
// changes (peers on other nodes fall to gda, as host/gda/gda_connect.cpp decides).
#include "host/log.h"
#include "host/proxy/fabric.h"  // complete for ~proxy_state
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace gio {
namespace proxy {
// ~proxy_state destroys its (always empty) fabric pointer: fabric.cpp, which defines ~fabric, is
// not built here.
struct fabric::impl {};
fabric::~fabric() = default;
}  // namespace proxy

proxy_state::proxy_state() = default;
proxy_state::~proxy_state() = default;

void proxy_connect(runtime& r) {
  if (r.cfg.GIO_TRANSPORT == "proxy")
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=proxy, but this libgio was built without libfabric "
          "(install libfabric-dev and rebuild)");
}
proxy_plan proxy_describe(const runtime&) { return proxy_plan{}; }
void proxy_disconnect(runtime&) {}
void proxy_drain(runtime&, const char*) {}

[[noreturn]] static void absent(const char* routine) {
  fatal(GIO_ERR_TRANSPORT, routine, "the proxy transport is not built into this libgio");
}
void proxy_host_put(runtime&, const char* routine, uint64_t, const void*, size_t, int) { absent(routine); }
void proxy_host_get(runtime&, const char* routine, void*, uint64_t, size_t, int) { absent(routine); }
uint64_t proxy_host_amo(runtime&, const char* routine, int, uint64_t, uint64_t, uint64_t, size_t, int) {
  absent(routine);
}

}  // namespace gio
