// libgio built without libfabric: no proxy transport. Its table says so: GIO_TRANSPORT=proxy is a
// clear error (host/transport/select.cpp), auto gives peers on other nodes to gda, and gio-info
// tells how to get it.
#include <cstdio>

#include "host/proxy/fabric.h"  // complete for ~proxy_state
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {
namespace proxy {
// ~proxy_state destroys its (always empty) fabric pointer: fabric.cpp, which defines ~fabric, is
// not built here.
struct fabric::impl {};
fabric::~fabric() = default;
}  // namespace proxy

proxy_state::proxy_state() = default;
proxy_state::~proxy_state() = default;

proxy_plan proxy_describe(const runtime&) { return proxy_plan{}; }

namespace {

bool network(const runtime&, std::string* why) {
  *why = "this libgio was built without libfabric (install libfabric-dev and rebuild)";
  return false;
}

bool reach(const runtime& r, int, std::string* how) { return network(r, how); }

void describe(const runtime&, FILE* out) {
  fprintf(out, "proxy: not built (libgio was built without libfabric; install libfabric-dev and rebuild)\n");
}

transport_ops table() {
  transport_ops t = transport_ops_default("proxy", GIO_TRANSPORT_PROXY);
  t.network = network;
  t.reach = reach;
  t.describe = describe;
  return t;
}

const transport_registrar registered(table());

}  // namespace
}  // namespace gio
