// Which transport table moves a symmetric offset (transport.h, transport_for).
//
// The GPU heap and the globals follow the peer's transport, as kernels' operations do. The default
// heap is host memory that every node-local peer maps (host/heap/cpu_heap.h): the CPU moves it
// through that mapping (p2p's table: memcpy, CPU atomics via runtime/amo_apply.h) whatever the
// peer's transport, since a NIC or a proxy round trip would only copy between two mappings of one
// file. A peer on another node is reached through the proxy, whose thread applies the operation at
// the target like one on a global; gda's NIC keys cover the GPU heap and the globals only.
#include "host/heap/globals.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {

const transport_ops& transport_for(runtime& r, const char* routine, uint64_t off, int pe) {
  if (!sym_is_cpu_heap(off)) return transport_of(r, pe);
  if (sym_mapped(r, off, pe)) return transport_by_id(GIO_TRANSPORT_P2P);
  const transport_ops& t = transport_of(r, pe);
  if (t.id == GIO_TRANSPORT_PROXY) return t;
  fatal(GIO_ERR_TRANSPORT, routine, "default-heap address %p (for PE %d): PE %d is on another node and reached over "
        "%s, which cannot reach its default heap (it is host memory that only node-local PEs map, and the proxy "
        "transport, GIO_TRANSPORT=proxy, reaches across nodes): use the GPU heap (shmemg_malloc) or the proxy",
        (void*)(r.cpu.base + (off & ~GIO_SYM_CPU_HEAP)), pe, pe, t.name);
}

bool transport_reaches(const runtime& r, uint64_t off, int pe) {
  if (!sym_is_cpu_heap(off) || sym_mapped(r, off, pe)) return r.peers[pe].transport != GIO_TRANSPORT_NONE;
  return transport_of(r, pe).id == GIO_TRANSPORT_PROXY;
}

}  // namespace gio
