// Shared definitions for host and device code: qualifiers, limits, version of the contract.
#pragma once
#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define GIO_HOST_DEVICE __host__ __device__
#define GIO_DEVICE __device__
#else
#define GIO_HOST_DEVICE
#define GIO_DEVICE
#endif
// A function both host and device code call, defined in a header.
#define GIO_HOST_DEVICE_INLINE GIO_HOST_DEVICE inline

// Version of the host/device contract (runtime/). Bump the major on any layout change.
// 2.0: the gda queue descriptor grew (bounce buffer) and is an array element, so its size is part
// of the layout a kernel indexes with; fence requests moved from the queues to the contexts;
// gio_gda_tmpl_v1::reply_order (was reserved, written 0) says how a NIC answers fetched atomics.
// 2.1: the proxy transport's rings (runtime/proxy_queue.h), appended to the device state.
// 2.2: lock queue nodes in the reserved heap head (runtime/lock.h), which was unused there: a
// module of 2.1 never touches them, one of 2.2 needs a libgio that keeps the space free.
// 3.0: teams of 3 to 8 members sync in one round (runtime/team.h): a module of 2.x would wait in
// dissemination rounds its libgio no longer signals.
// 3.1: device contexts the host makes (SHMEM_DEVICE_CTX) in ctx_table past the kernels' own
// (gio_device_state_v1::ctx_end), each carrying its team (gio_ctx_v1::team): a 3.0 module never
// claims them and refuses them as contexts; and the default heap's range (cpu_heap_base,
// cpu_heap_size), appended to the device state.
#define GIO_CONTRACT_MAJOR 3
#define GIO_CONTRACT_MINOR 1

// GIO library version (also reported by gio-info and shmem_info_get_name).
#define GIO_VERSION_MAJOR 0
#define GIO_VERSION_MINOR 1
#define GIO_VERSION_PATCH 0

// Most PEs one job can address. The per-peer table lives in device constant memory, so it is
// bounded; 256 PEs cost 2 KiB of the 64 KiB constant bank.
#define GIO_MAX_PES 256

// A peer's heap is mapped (p2p) at an address congruent to this PE's heap modulo this, so the
// device picks a copy's word width from the symmetric address, before the mapping is looked up
// (device/core/copy.h). Mappings are page-aligned and heaps at least 256-byte aligned in practice;
// host/p2p/p2p.cpp refuses one that is not.
#define GIO_P2P_MAP_ALIGN 16

// Symmetric-heap blocks handed to shmem_malloc start on this boundary (keeps vector copies aligned).
#define GIO_HEAP_MIN_ALIGN 256
