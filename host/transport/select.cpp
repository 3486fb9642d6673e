// The transport selector: one decision per peer at shmem_init, with its reason.
//
// GIO_TRANSPORT=auto: p2p wherever loads and stores reach the peer's heap (this PE, and peers of
// its node whose heap mapped); the rest go over the network: gda when this PE has a ConnectX,
// else the proxy when libgio has libfabric, else gda on the softnic (software ConnectX). Network
// peers of every PE take one transport: if any PE needs the proxy, all use it, since a gda queue
// pair needs both ends and one PE without a ConnectX has no queues a peer's NIC could address.
// GIO_TRANSPORT=<name>: that transport for every peer, this PE included, or a clear error.
#include "host/transport/select.h"

#include <vector>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {

transport_mode transport_mode_of(const config& c) {
  if (c.GIO_TRANSPORT == "p2p") return transport_mode::P2P;
  if (c.GIO_TRANSPORT == "gda") return transport_mode::GDA;
  if (c.GIO_TRANSPORT == "proxy") return transport_mode::PROXY;
  return transport_mode::AUTO;  // the table allows nothing else (host/config_keys.h)
}

const char* transport_mode_name(transport_mode m) {
  switch (m) {
    case transport_mode::P2P: return "p2p";
    case transport_mode::GDA: return "gda";
    case transport_mode::PROXY: return "proxy";
    case transport_mode::AUTO: break;
  }
  return "auto";
}

namespace {

struct choice {
  int id = GIO_TRANSPORT_NONE;
  std::string reason;
};

bool any_pe(bool mine, const char* what) {
  uint64_t lo = 0, hi = 0;
  boot::minmax_u64(mine ? 1 : 0, &lo, &hi, what);
  return hi != 0;
}

// Every peer over the transport GIO_TRANSPORT names, or a fatal error saying why it cannot.
std::vector<choice> forced(runtime& r, transport_mode mode) {
  const transport_ops& p2p = transport_by_id(GIO_TRANSPORT_P2P);
  const int id = mode == transport_mode::P2P ? GIO_TRANSPORT_P2P
                 : mode == transport_mode::GDA ? GIO_TRANSPORT_GDA
                                               : GIO_TRANSPORT_PROXY;
  const transport_ops& t = transport_by_id(id);
  const char* name = transport_mode_name(mode);
  if (!transport_find(id))
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=%s, but this libgio has no %s transport", name, name);
  std::string why;
  if (mode == transport_mode::PROXY && !t.network(r, &why))
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=proxy, but %s", why.c_str());
  if (mode == transport_mode::P2P && r.cfg.GIO_NODE_PER_PE)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_NODE_PER_PE=1 puts every PE on its own node, where GIO_TRANSPORT=p2p cannot "
          "reach: use GIO_TRANSPORT=proxy, gda or auto");
  std::vector<choice> c(r.n_pes);
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (mode == transport_mode::P2P && !p2p.reach(r, pe, &why))
      fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=p2p, but loads and stores cannot reach PE %d (%s)", pe,
            why.c_str());
    c[pe] = {id, std::string("GIO_TRANSPORT=") + name};
  }
  return c;
}

std::vector<choice> automatic(runtime& r) {
  const transport_ops& p2p = transport_by_id(GIO_TRANSPORT_P2P);
  const transport_ops& gda = transport_by_id(GIO_TRANSPORT_GDA);
  const transport_ops& proxy = transport_by_id(GIO_TRANSPORT_PROXY);
  std::vector<choice> c(r.n_pes);
  std::vector<std::string> unreached(r.n_pes);
  bool need_network = false;
  for (int pe = 0; pe < r.n_pes; ++pe) {
    std::string how;
    if (p2p.reach(r, pe, &how))
      c[pe] = {GIO_TRANSPORT_P2P, "auto: loads and stores reach it"};
    else
      unreached[pe] = how, need_network = true;
  }
  std::string no_nic, no_proxy;
  const bool nic = gda.network(r, &no_nic);
  const bool has_proxy = proxy.network(r, &no_proxy);
  // Every PE takes part in the vote, whether or not it has network peers itself.
  const bool use_proxy = any_pe(need_network && !nic && has_proxy, "shmem_init (network transport)");
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (c[pe].id != GIO_TRANSPORT_NONE) continue;
    const std::string reason = "auto: p2p cannot (" + unreached[pe] + "), ";
    if (use_proxy)
      c[pe] = {GIO_TRANSPORT_PROXY, reason + (nic ? "and another PE has no NIC for gda" : "and gda has no NIC here: " + no_nic)};
    else if (nic)
      c[pe] = {GIO_TRANSPORT_GDA, reason + "and a ConnectX serves gda"};
    else
      c[pe] = {GIO_TRANSPORT_GDA, reason + "gda has no NIC here (" + no_nic + ") and no proxy (" + no_proxy +
                                      "): the softnic plays the network"};
  }
  return c;
}

}  // namespace

void transports_connect(runtime& r) {
  const transport_mode mode = transport_mode_of(r.cfg);
  r.peers.assign(r.n_pes, peer{});
  transport_each([&](const transport_ops& t) { t.probe(r); });
  const std::vector<choice> c = mode == transport_mode::AUTO ? automatic(r) : forced(r, mode);
  for (int pe = 0; pe < r.n_pes; ++pe) r.peers[pe].transport = c[pe].id;
  // A transport sets up on every PE as soon as one PE uses it: its set-up exchanges with all.
  transport_each([&](const transport_ops& t) {
    bool mine = false;
    for (const choice& k : c) mine |= k.id == t.id;
    if (any_pe(mine, "shmem_init (transports in use)")) t.connect(r);
  });
  for (int pe = 0; pe < r.n_pes; ++pe) {
    const transport_ops& t = transport_of(r, pe);
    std::string how;
    t.reach(r, pe, &how);
    r.peers[pe].why = std::string(t.name) + ": " + how + "; chosen by " + c[pe].reason;
  }
}

void transports_disconnect(runtime& r) {
  for (int id = kTransportIds - 1; id > GIO_TRANSPORT_P2P; --id)
    if (const transport_ops* t = transport_find(id)) t->disconnect(r);
  transport_by_id(GIO_TRANSPORT_P2P).disconnect(r);
}

}  // namespace gio
