// p2p transport, device half: the peer's heap is mapped into this GPU (CUDA/HIP IPC, or POSIX
// shared memory on the host platform), so RMA is plain loads and stores and AMOs are system-scope
// atomics on the mapped address. Host half: host/p2p/.
//
// Ordering: stores to a peer over NVLink/xGMI/shared memory become visible in no promised order.
// quiet is a sequentially consistent system-scope fence (every earlier store of the calling thread,
// and, after a work-group sync, of its work-group, is visible before any later access); fence and
// the release before a signal only need later stores ordered, so they use a release fence.
#pragma once
#include "device/core/copy.h"
#include "device/p2p/bulk.h"
#include "runtime/contract.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace p2p {

GIO_DEVICE_INLINE uint8_t* remote(const gio_device_state_v1& st, const void* sym, int pe) {
  return st.peer_base[pe] + ((const uint8_t*)sym - st.heap_base);
}
// The same address, computed before the caller knows the peer is p2p (a cooperative put reads the
// mapping and the transport at once, dispatch.h): as integers, since an offset applied to a null
// peer_base is undefined (UBSan). nvcc then no longer knows it for a global address (generic
// stores, as NVSHMEM's); selecting this heap's base for a non-p2p peer instead kept the pointer,
// but ptxas made the mapping's load wait for the transport's, to select its address.
GIO_DEVICE_INLINE uint8_t* remote_any(const gio_device_state_v1& st, const void* sym, int pe) {
  return (uint8_t*)((uintptr_t)st.peer_base[pe] + ((uintptr_t)sym - (uintptr_t)st.heap_base));
}
// remote_any's address as a pointer into global memory (plat::global_ptr): a thread's inline put
// (dispatch.h) then stores with st.global as its general copy through remote() does, not with the
// generic stores remote_any leaves.
GIO_DEVICE_INLINE uint8_t* remote_global(const gio_device_state_v1& st, const void* sym, int pe) {
  return plat::global_ptr((uintptr_t)st.peer_base[pe] + ((uintptr_t)sym - (uintptr_t)st.heap_base));
}
// One thread moving at least st.p2p_bulk_min bytes hands the copy to the bulk-copy engine when
// the platform has one (bulk.h); everything else is loads and stores from the scope's lanes.
// Both tests before the runtime one are compile-time where they can be, so that a kernel whose
// puts are cooperative, or whose thread puts have a small constant size, gets no shared stage:
// the Jacobi2D kernel has work-group puts and an 8-byte thread put.
// True when [d, d + n) and [s, s + n) share a byte and are not the same range: only a put to this
// PE or a get from it (a peer's mapping is an address range of its own) inside one buffer.
GIO_DEVICE_INLINE bool overlapping(const void* d, const void* s, size_t n) {
  const uint8_t *x = (const uint8_t*)d, *y = (const uint8_t*)s;
  return x != y && x < y + n && y < x + n;
}
// Such a copy moves the bytes as memmove does, on every transport (docs/guide.md, "Overlapping
// source and destination"): the general copy's lanes and batches load ahead of their stores and
// would read bytes already overwritten. Pieces no longer than the distance between the ranges,
// from the end the destination moves toward, each finished by the whole scope before the next is
// read (the next piece's source is what this one's stores leave alone); a distance of less than a
// 16-byte word per lane is one lane's byte loop.
template <typename S>
GIO_DEVICE_NOINLINE void copy_overlapping(uint8_t* d, const uint8_t* s, size_t n) {
  const bool up = d > s;  // the destination lies above the source: copy from the end
  const size_t dist = up ? (size_t)(d - s) : (size_t)(s - d);
  S::sync();
  if (dist < 16u * S::lanes()) {
    if (S::lane() == 0) {
      if (up)
        for (size_t i = n; i-- > 0;) d[i] = s[i];
      else
        for (size_t i = 0; i < n; ++i) d[i] = s[i];
    }
    S::sync();
    return;
  }
  for (size_t done = 0; done < n;) {
    const size_t piece = dist < n - done ? dist : n - done;
    const size_t off = up ? n - done - piece : done;
    copy_bytes<S>(d + off, s + off, piece);
    S::sync();
    done += piece;
  }
}

template <typename S>
GIO_DEVICE_INLINE void copy(const gio_device_state_v1& st, void* dst, const void* src, size_t n) {
  if (overlapping(dst, src, n)) return copy_overlapping<S>((uint8_t*)dst, (const uint8_t*)src, n);
#if GIO_P2P_BULK
  // The engine reads and writes global memory only: a __shared__ or stack (local) buffer on either
  // side takes the plain copy (a bulk copy from one killed the CUDA context).
  if (S::one_lane && n >= GIO_P2P_BULK_FLOOR && st.p2p_bulk_min && n >= st.p2p_bulk_min && __isGlobal(dst) &&
      __isGlobal(src) && copy_bulk((uint8_t*)dst, (const uint8_t*)src, n))
    return;
#else
  (void)st;
#endif
  copy_bytes<S>(dst, src, n);
}
template <typename S>
GIO_DEVICE_INLINE void put(const gio_device_state_v1& st, uint8_t* rdst, const void* src, size_t n) {
  copy<S>(st, rdst, src, n);
}
template <typename S>
GIO_DEVICE_INLINE void get(const gio_device_state_v1& st, void* dst, const uint8_t* rsrc, size_t n) {
  copy<S>(st, dst, rsrc, n);
}
GIO_DEVICE_INLINE void quiet() { plat::fence_system(); }
GIO_DEVICE_INLINE void fence() { plat::fence_release_system(); }  // orders puts (stores) only

}  // namespace p2p
}  // namespace dev
}  // namespace gio
#endif
