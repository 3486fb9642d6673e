// p2p transport, host half, set-up: exchange heap handles and map every same-node peer's heap, so
// the device half (device/p2p/) reaches it with loads and stores.
#include "host/p2p/p2p.h"

#include <stdio.h>

#include <vector>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {

// Maps whatever can be mapped, whichever transport is chosen later: the softnic, which plays the
// network, writes peers' heaps through `mapped`. peer::why keeps how each peer was (or was not)
// mapped until the selector records its choice.
void p2p_probe(runtime& r) {
  std::vector<gpu::heap_handle> handles(r.n_pes);
  boot::allgather(&r.handle, handles.data(), sizeof(gpu::heap_handle), "shmem_init (heap handles)");
  for (int pe = 0; pe < r.n_pes; ++pe) {
    peer& p = r.peers[pe];
    if (pe == r.my_pe) {
      p.base = r.heap;
      p.why = "this PE's own heap";
      continue;
    }
    if (boot::node_of(pe) != boot::node_of(r.my_pe)) {
      p.why = "on another node";
      continue;
    }
    std::string why;
    p.base = (uint8_t*)gpu::heap_map(handles[pe], r.heap_size, &why);
    if (!p.base) {
      p.why = "cannot map its heap: " + why;
      continue;
    }
    // The device reads a copy's word width off the symmetric address (runtime/defs.h).
    if (((uintptr_t)p.base - (uintptr_t)r.heap) % GIO_P2P_MAP_ALIGN) {
      char how[160];
      snprintf(how, sizeof how, "its heap mapped at %p, not congruent to this PE's heap (%p) modulo %d", (void*)p.base,
               (void*)r.heap, GIO_P2P_MAP_ALIGN);
      gpu::heap_unmap(p.base, r.heap_size);
      p.base = nullptr;
      p.why = how;
      continue;
    }
    p.why = std::string("same node, heap mapped by ") +
            (std::string(gpu::platform_name()) == "host" ? "shared memory" : "IPC");
  }
  boot::barrier("shmem_init (heaps mapped)");
  gpu::heap_published(r.handle);
  // GIO_NODE_PER_PE plays every peer on a node of its own: kernels and the host API lose the
  // mapping, as they would across nodes; only the softnic keeps it (`mapped`).
  for (int pe = 0; pe < r.n_pes; ++pe) {
    peer& p = r.peers[pe];
    p.mapped = p.base;
    if (r.cfg.GIO_NODE_PER_PE && pe != r.my_pe && p.base) {
      p.base = nullptr;
      p.why = "another node under GIO_NODE_PER_PE=1";
    }
  }
}

bool p2p_reach(const runtime& r, int pe, std::string* how) {
  *how = r.peers[pe].why;  // the probe's words; the selector replaces them once all are chosen
  return r.peers[pe].base != nullptr;
}

void p2p_disconnect(runtime& r) {
  for (int pe = 0; pe < r.n_pes; ++pe) {
    uint8_t* m = r.peers[pe].mapped ? r.peers[pe].mapped : r.peers[pe].base;
    if (pe != r.my_pe && m) gpu::heap_unmap(m, r.heap_size);
  }
  r.peers.clear();
}

}  // namespace gio
