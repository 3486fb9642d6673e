// gda transport, host half: its table of operations. The host posts on its own queue set
// (gda_host_post.cpp) and waits for each completion, so every host operation is complete when it
// returns; drain completes what kernels posted (gda_drain.cpp).
#include <cstdio>

#include "host/gda/gda_host.h"
#include "host/gda/gda_state.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {
namespace {

// auto gives gda the network peers when a ConnectX is here; the softnic alone is for tests and
// for a libgio without the proxy (host/transport/select.cpp).
bool network(const runtime&, std::string* why) { return mlx5_device_count(why) > 0; }

// Before connect: whether a NIC could reach the peer (a ConnectX any peer; the softnic one whose
// heap this process maps). After: what drives the queues.
bool reach(const runtime& r, int pe, std::string* how) {
  if (r.gda) {
    *how = r.gda->nic_why;
    return true;
  }
  std::string why;
  if (r.peers[pe].mapped || mlx5_device_count(&why) > 0) {
    *how = "a NIC can address its heap";
    return true;
  }
  *how = "no ConnectX (" + why + ") and the softnic cannot map its heap";
  return false;
}

void publish(const runtime& r, gio_device_state_v1& s) {
  if (!r.gda) return;
  s.gda_queues = r.gda->queues;
  s.gda_sets = r.gda->sets;
  s.gda_default_sets = r.gda->default_sets;
}

void describe_pe(const runtime& r, FILE* out) {
  if (r.gda && !r.gda->nic_heap_how.empty())
    fprintf(out, "PE %d: gda ConnectX: heap %s; flush page %s\n", r.my_pe, r.gda->nic_heap_how.c_str(),
            r.gda->nic_flush_how.c_str());
}

transport_ops table() {
  transport_ops t = transport_ops_default("gda", GIO_TRANSPORT_GDA);
  t.network = network;
  t.reach = reach;
  t.connect = gda_connect;
  t.disconnect = gda_disconnect;
  t.publish = publish;
  t.put = gda_host_put;
  t.get = gda_host_get;
  t.amo = gda_host_amo;
  t.drain = gda_drain;
  t.describe_pe = describe_pe;
  return t;
}

const transport_registrar registered(table());

}  // namespace
}  // namespace gio
