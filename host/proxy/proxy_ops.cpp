// proxy transport, host half: its table of operations. Host operations go on the host ring and
// wait for the proxy thread (proxy_host.cpp), so each is complete when it returns; drain completes
// what kernels posted.
#include <cstdio>

#include "host/proxy/fabric.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {
namespace {

bool network(const runtime&, std::string*) { return true; }

// libfabric reaches every PE; once connected, how: the provider and whether puts and gets are
// staged.
bool reach(const runtime& r, int, std::string* how) {
  if (!r.proxy) {
    *how = "libfabric";
    return true;
  }
  *how = "libfabric " + r.proxy->provider + " (" + r.proxy->why + "); puts and gets " +
         (r.proxy->heap_direct ? "in place" : "staged through host memory");
  return true;
}

void publish(const runtime& r, gio_device_state_v1& s) {
  if (!r.proxy) return;
  s.proxy_rings = r.proxy->rings;
  s.proxy_sets = r.proxy->sets;
  s.proxy_default_sets = r.proxy->default_sets;
}

// gio-info: whether any peer uses the proxy, and the provider and staging it uses (or would use,
// with GIO_TRANSPORT=proxy or for peers on other nodes).
void describe(const runtime& r, FILE* out) {
  const proxy_plan d = proxy_describe(r);
  int users = 0;
  for (const peer& q : r.peers) users += q.transport == GIO_TRANSPORT_PROXY;
  if (d.active)
    fprintf(out, "proxy: built with libfabric; this PE reaches %d of %d PEs through it\n", users, r.n_pes);
  else
    fprintf(out, "proxy: built with libfabric; not in use here (chosen by GIO_TRANSPORT=proxy, or by auto for peers "
            "on other nodes that no ConnectX serves); it would use:\n");
  if (d.provider_why == "GIO_PROXY_PROVIDER")
    fprintf(out, "proxy: libfabric provider %s: set by GIO_PROXY_PROVIDER\n", d.provider.c_str());
  else
    fprintf(out, "proxy: libfabric provider %s: %s; GIO_PROXY_PROVIDER=<name> overrides\n", d.provider.c_str(),
            d.provider_why.c_str());
  if (d.heap_direct)
    fprintf(out, "proxy: puts and gets in place, fi_write/fi_read: %s\n", d.staging_why.c_str());
  else
    fprintf(out, "proxy: puts and gets staged, %llu bytes a message, up to %llu unacknowledged, that the target's "
            "proxy copies in: %s\n", (unsigned long long)r.cfg.GIO_PROXY_CHUNK,
            (unsigned long long)r.cfg.GIO_PROXY_DEPTH, d.staging_why.c_str());
  if (d.active) {
    const proxy::fabric& f = *r.proxy->fab;
    const size_t auth = f.auth_key_bytes();
    fprintf(out, "proxy: the heap takes writes only with its key (%s, given to this job's PEs at init)%s\n",
            f.provider_keys() ? "chosen by the provider" : "drawn at random for each registration",
            auth ? (", from endpoints of this job's service (a " + std::to_string(auth) +
                    "-byte provider authorization key)").c_str()
                 : (": " + d.provider + " has no authorization key").c_str());
  }
  if (!d.heap_direct && d.provider == "shm")
    fprintf(out, "proxy: staged puts %s\n",
            d.inbox ? "go through shared-memory inboxes: the source's copy engine writes the target's inbox, no CPU "
                      "copies the data (GIO_PROXY_SHM_INBOX=0: as messages)"
                    : "go as shm messages (GIO_PROXY_SHM_INBOX=0)");
}

transport_ops table() {
  transport_ops t = transport_ops_default("proxy", GIO_TRANSPORT_PROXY);
  t.network = network;
  t.reach = reach;
  t.connect = proxy_connect;
  t.disconnect = proxy_disconnect;
  t.publish = publish;
  t.put = proxy_host_put;
  t.get = proxy_host_get;
  t.amo = proxy_host_amo;
  t.drain = proxy_drain;
  t.describe = describe;
  return t;
}

const transport_registrar registered(table());

}  // namespace
}  // namespace gio
