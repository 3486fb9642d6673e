// p2p transport, device half: the peer's heap is mapped into this GPU (CUDA/HIP IPC, or POSIX
// shared memory on the host platform), so RMA is plain loads and stores and AMOs are system-scope
// atomics on the mapped address. Host half: host/p2p/.
//
// Ordering: stores to a peer over NVLink/xGMI/shared memory become visible in no promised order.
// quiet is a sequentially consistent system-scope fence (every earlier store of the calling thread,
// and, after a work-group sync, of its work-group, is visible before any later access); fence and
// the release before a signal only need later stores ordered, so they use a release fence.
#pragma once
#include "device/api/scope.h"
#include "runtime/contract.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace p2p {

GIO_DFN uint8_t* remote(const gio_device_state_v1& st, const void* sym, int pe) {
  return st.peer_base[pe] + ((const uint8_t*)sym - st.heap_base);
}

template <typename S>
GIO_DFN void put(uint8_t* rdst, const void* src, size_t n) {
  copy_bytes<S>(rdst, src, n);
}
template <typename S>
GIO_DFN void get(void* dst, const uint8_t* rsrc, size_t n) {
  copy_bytes<S>(dst, rsrc, n);
}
GIO_DFN void quiet() { plat::fence_system(); }
GIO_DFN void fence() { plat::fence_release_system(); }  // orders puts (stores) only

}  // namespace p2p
}  // namespace dev
}  // namespace gio
#endif
