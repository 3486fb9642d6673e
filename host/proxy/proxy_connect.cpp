// proxy transport, set-up: opens the libfabric endpoint, exchanges
// addresses and heap keys through the bootstrap, lays out the rings and starts the proxy thread.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/proxy/fabric.h"
#include "host/proxy/shm_names.h"
#include "host/proxy/proxy_msg.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace gio {
namespace {
size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

constexpr size_t kMaxName = 256;  // libfabric endpoint names are far shorter (shm ~60 B, tcp ~30 B)

// Per ring in the host-visible block: commands, results, the completion counter (own cache line)
// and the holds of the host ring; bounce buffers follow all rings.
size_t ring_bytes(uint32_t slots) { return align_up(slots * (sizeof(gio_proxy_cmd_v1) + 8 + 4) + 192, 4096); }

bool one_node() { return boot::local_size() == boot::size(); }

std::string pick_provider(const runtime& r, std::string* why) {
  if (r.cfg.GIO_PROXY_PROVIDER != "auto") {
    *why = "GIO_PROXY_PROVIDER";
    return r.cfg.GIO_PROXY_PROVIDER;
  }
  if (one_node() && !r.cfg.GIO_NODE_PER_PE) {
    *why = "every PE on one node";
    return "shm";
  }
  *why = r.cfg.GIO_NODE_PER_PE ? "every PE its own node (GIO_NODE_PER_PE)" : "PEs on several nodes";
  return "tcp;ofi_rxm";
}

// Host-memory heaps (the host platform) are reached in place; GPU heaps are staged through the
// proxies: Debian's libfabric has no FI_HMEM, and tcp has none anywhere.
bool pick_heap_direct(const runtime& r, std::string* why) {
  if (r.cfg.GIO_PROXY_STAGING == "always") {
    *why = "GIO_PROXY_STAGING=always";
    return false;
  }
  if (std::string(gpu::platform_name()) == "host") {
    *why = "the heap is host memory";
    return true;
  }
  *why = "the heap is GPU memory; GIO does not use FI_HMEM, which Debian's libfabric and tcp lack";
  return false;
}

// tcp stays on the interface GIO_PROXY_IFACE names (auto: loopback while every PE is on one
// node), unless the user set libfabric's own variable.
void pick_iface(runtime& r) {
  std::string iface = r.cfg.GIO_PROXY_IFACE;
  if (iface == "auto") iface = one_node() ? "lo" : "";
  if (iface.empty()) return;
  setenv("FI_TCP_IFACE", iface.c_str(), 0);
  setenv("FI_SOCKETS_IFACE", iface.c_str(), 0);
}

void exchange(runtime& r, proxy_state& p) {
  struct name_msg {
    uint32_t len;
    uint8_t bytes[kMaxName];
  } mine{};
  const std::vector<uint8_t> n = p.fab->name();
  if (n.size() > kMaxName)
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "proxy: the %s endpoint's name is %zu bytes (GIO allows %zu)",
          p.provider.c_str(), n.size(), kMaxName);
  mine.len = (uint32_t)n.size();
  memcpy(mine.bytes, n.data(), n.size());
  std::vector<name_msg> all(r.n_pes);
  boot::allgather(&mine, all.data(), sizeof mine, "shmem_init (proxy endpoint names)");
  std::vector<std::vector<uint8_t>> names(r.n_pes);
  for (int pe = 0; pe < r.n_pes; ++pe) names[pe].assign(all[pe].bytes, all[pe].bytes + all[pe].len);
  p.fab->insert_peers(names);

  proxy::remote_region reg = p.fab->register_region(r.heap, r.heap_size);
  std::vector<proxy::remote_region> regs(r.n_pes);
  boot::allgather(&reg, regs.data(), sizeof reg, "shmem_init (proxy heap keys)");
  for (int pe = 0; pe < r.n_pes; ++pe) p.fab->set_peer_region(pe, regs[pe]);
  // Every PE has inserted every address (shm maps the peers' regions then): the names can go.
  boot::barrier("shmem_init (proxy endpoints connected)");
  p.fab->release_name();
}

void layout_rings(runtime& r, proxy_state& p) {
  p.default_sets = (uint32_t)r.cfg.GIO_NUM_CONTEXTS + 1;
  p.sets = p.default_sets + ctx_end(r) - 1;
  p.slots = (uint32_t)r.cfg.GIO_PROXY_SLOTS;
  p.bounce_bytes = (uint32_t)r.cfg.GIO_PROXY_BOUNCE_BYTES;
  const uint32_t nrings = p.sets + 1;  // the kernels' sets, then the host's
  const size_t ring = ring_bytes(p.slots);
  const size_t bounce_at = (size_t)nrings * ring;
  p.mem_bytes = bounce_at + (size_t)p.sets * p.bounce_bytes;
  p.mem = (uint8_t*)gpu::queue_alloc(p.mem_bytes, true);
  const size_t desc = align_up((size_t)p.sets * sizeof(gio_proxy_ring_v1), 256);
  p.dev_bytes = desc + (size_t)p.sets * p.slots * sizeof(uint32_t);
  p.dev = (uint8_t*)gpu::queue_alloc(p.dev_bytes, false);
  p.rings = (gio_proxy_ring_v1*)p.dev;
  p.host_desc.assign(nrings, gio_proxy_ring_v1{});
  for (uint32_t s = 0; s < nrings; ++s) {
    gio_proxy_ring_v1& q = p.host_desc[s];
    uint8_t* b = p.mem + (size_t)s * ring;
    q.cmds = (gio_proxy_cmd_v1*)b;
    q.result = (uint64_t*)(b + (size_t)p.slots * sizeof(gio_proxy_cmd_v1));
    q.completed = (uint64_t*)align_up((uintptr_t)(q.result + p.slots), 64);
    // Holds: the kernels' in GPU memory (only kernels touch them), the host's beside its ring.
    q.hold = s < p.sets ? (uint32_t*)(p.dev + desc + (size_t)s * p.slots * sizeof(uint32_t))
                        : (uint32_t*)(q.completed + 8);
    q.bounce = s < p.sets && p.bounce_bytes ? p.mem + bounce_at + (size_t)s * p.bounce_bytes : nullptr;
    q.bounce_bytes = s < p.sets ? p.bounce_bytes : 0;
    q.slots = p.slots;
    q.set = s;
  }
  gpu::copy(p.rings, p.host_desc.data(), (size_t)p.sets * sizeof(gio_proxy_ring_v1), "shmem_init");
  // Staging, results and bounce buffers are local buffers of libfabric operations.
  //
  // Receives: each peer's proxy has at most `depth` requests to this PE outstanding and this PE's
  // proxy `depth` replies coming (proxy_run.cpp), so (n_pes + 1) * depth posted receives never
  // run out. They must not: a send that finds no receive posted may wait for one (shm), while the
  // target's proxy waits in a send of its own, to us. Where that would pin more than 64 MiB the
  // depth is lowered (to 1 at worst: n_pes + 1 receives, the unpipelined protocol).
  p.msg_bytes = sizeof(proxy_msg) + p.chunk;
  while (p.depth > 1 && (size_t)(r.n_pes + 1) * p.depth * p.msg_bytes > (64u << 20)) --p.depth;
  const unsigned recvs = (unsigned)(r.n_pes + 1) * p.depth;
  p.bufs = (uint8_t*)gpu::queue_alloc((size_t)(p.stage_slots() + 1 + recvs) * p.msg_bytes, true);
  p.fab->register_local(p.mem, p.mem_bytes);
  p.fab->register_local(p.bufs, (size_t)(p.stage_slots() + 1) * p.msg_bytes);
  p.fab->enable_messages(p.receives(), p.msg_bytes, recvs);
}
}  // namespace

proxy_state::proxy_state() = default;
proxy_state::~proxy_state() = default;

// Every PE sets it up once any PE chose it (its peers target it); host/transport/select.cpp
// decides which peers it serves.
void proxy_connect(runtime& r) {
  auto p = std::make_unique<proxy_state>();
  std::string why;
  const std::string want = pick_provider(r, &why);
  pick_iface(r);
  // An abort runs no destructors: shm's region would stay in /dev/shm (fabric.h).
  static bool hooked = false;
  if (!hooked) at_abort(proxy::unlink_own_shm_regions);
  hooked = true;
  try {
    p->fab.reset(new proxy::fabric(want, (unsigned)r.cfg.GIO_TIMEOUT_MS));
    p->provider = p->fab->provider();
    p->why = why;
    std::string unused;
    p->heap_direct = pick_heap_direct(r, &unused);
    p->chunk = (size_t)r.cfg.GIO_PROXY_CHUNK;
    p->depth = (unsigned)r.cfg.GIO_PROXY_DEPTH;
    exchange(r, *p);
    layout_rings(r, *p);
    inbox_open(r, *p);
  } catch (const proxy::fabric_error& e) {
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "proxy: %s", e.what());
  }
  proxy_state* pp = p.get();
  r.proxy = std::move(p);
  gpu::nic_prepare();
  pp->thread = std::thread([&r, pp] { proxy_run(r, *pp); });
  info(1, "proxy: libfabric provider %s (%s), %u rings of %u commands, puts and gets %s", pp->provider.c_str(),
       why.c_str(), pp->sets + 1, pp->slots, pp->heap_direct ? "in place (fi_write/fi_read)" : "staged");
}

proxy_plan proxy_describe(const runtime& r) {
  proxy_plan d;
  d.built = true;
  d.active = r.proxy != nullptr;
  d.provider = d.active ? r.proxy->provider : pick_provider(r, &d.provider_why);
  if (d.active) d.provider_why = r.proxy->why;
  d.heap_direct = pick_heap_direct(r, &d.staging_why);
  d.inbox = d.active ? r.proxy->inbox != nullptr : d.provider == "shm" && !d.heap_direct && r.cfg.GIO_PROXY_SHM_INBOX;
  return d;
}

void proxy_disconnect(runtime& r) {
  if (!r.proxy) return;
  r.proxy->stop = true;
  if (r.proxy->thread.joinable()) r.proxy->thread.join();
  r.proxy->fab.reset();
  inbox_close(r, *r.proxy);
  gpu::queue_free(r.proxy->bufs, true);
  gpu::queue_free(r.proxy->mem, true);
  gpu::queue_free(r.proxy->dev, false);
  r.proxy.reset();
}

}  // namespace gio
