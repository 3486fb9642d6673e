// p2p transport, host half: exchange heap handles and map every same-node peer's heap, so the
// device half (device/p2p/) reaches it with loads and stores.
#include <stdio.h>

#include <vector>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {

void p2p_connect(runtime& r) {
  std::vector<gpu::heap_handle> handles(r.n_pes);
  boot::allgather(&r.handle, handles.data(), sizeof(gpu::heap_handle), "shmem_init (heap handles)");
  r.peers.assign(r.n_pes, peer{});
  const bool forced = r.cfg.GIO_TRANSPORT == "p2p";
  for (int pe = 0; pe < r.n_pes; ++pe) {
    peer& p = r.peers[pe];
    if (pe == r.my_pe) {
      p.base = r.heap;
      p.transport = GIO_TRANSPORT_P2P;
      p.why = "p2p: this PE's own heap";
      continue;
    }
    if (boot::node_of(pe) != boot::node_of(r.my_pe)) {
      p.why = "none: on another node (no inter-node transport in this build)";
      if (forced) fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=p2p but PE %d is on another node", pe);
      continue;
    }
    std::string why;
    p.base = (uint8_t*)gpu::heap_map(handles[pe], r.heap_size, &why);
    if (!p.base) {
      p.why = "none: cannot map its heap (" + why + ")";
      if (forced) fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=p2p but PE %d's heap cannot be mapped: %s", pe, why.c_str());
      continue;
    }
    // The device reads a copy's word width off the symmetric address (runtime/defs.h).
    if (((uintptr_t)p.base - (uintptr_t)r.heap) % GIO_P2P_MAP_ALIGN) {
      char how[128];
      snprintf(how, sizeof how, "mapped at %p, not congruent to this PE's heap (%p) modulo %d", (void*)p.base,
               (void*)r.heap, GIO_P2P_MAP_ALIGN);
      gpu::heap_unmap(p.base, r.heap_size);
      p.base = nullptr;
      p.why = std::string("none: its heap is ") + how;
      if (forced) fatal(GIO_ERR_TRANSPORT, "shmem_init", "GIO_TRANSPORT=p2p but PE %d's heap is %s", pe, how);
      continue;
    }
    p.transport = GIO_TRANSPORT_P2P;
    p.why = std::string("p2p: same node, heap mapped by ") + (std::string(gpu::platform_name()) == "host" ? "shared memory" : "IPC");
  }
  boot::barrier("shmem_init (heaps mapped)");
  gpu::heap_published(r.handle);
}

void p2p_disconnect(runtime& r) {
  for (int pe = 0; pe < r.n_pes; ++pe)
    if (pe != r.my_pe && r.peers[pe].base) gpu::heap_unmap(r.peers[pe].base, r.heap_size);
  r.peers.clear();
}

}  // namespace gio
