// The default symmetric heap (OpenSHMEM's, shmem_malloc): CPU-attached on every platform, so host
// code loads and stores into it as every OpenSHMEM program expects. The GPU heap (shmemg_malloc,
// the GPU Auxiliary Specification draft's) is runtime::heap; docs/heaps.md compares the two.
//
// Each PE's default heap is a file in GIO_HOST_SHM_DIR (shm_file.h's naming and sweeping: the name
// is gone once every node-local peer has mapped it, and an aborted or killed job leaves nothing
// behind), mapped by the PEs of its node. On cuda and hip every mapping is registered with the GPU
// runtime, mapped at the same address, so kernels reach this PE's blocks, and node-local peers'
// through shmem_ptr, zero-copy.
//
// Who moves its bytes (host/transport/heap_route.cpp): the CPU, through those mappings, for every
// node-local peer whatever GIO_TRANSPORT says; the proxy's thread for peers on other nodes; a peer
// reached over gda from another node cannot reach it (a clear error).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/heap/allocator.h"

namespace gio {
struct runtime;

struct cpu_heap {
  uint8_t* base = nullptr;  // this PE's default heap; nullptr with GIO_DEFAULT_HEAP=gpu
  uint64_t size = 0;
  std::unique_ptr<heap_allocator> alloc;
  char path[96] = {};                 // its file until every peer has mapped it
  std::vector<uint8_t*> peer_mapped;  // [pe] the peer's default heap mapped here (this PE's: base); nullptr if not
  std::vector<uint8_t*> registered;   // mappings registered with the GPU runtime (cuda, hip)
  bool kernels_reach = false;         // kernels may load and store it at these addresses (gio-info)
};

// shmem_init, before the transports: makes this PE's default heap (unless GIO_DEFAULT_HEAP=gpu).
void cpu_heap_create(runtime& r);
// Collective: maps the node-local peers' default heaps and registers every mapping with the GPU.
void cpu_heap_connect(runtime& r);
// shmem_finalize: unregisters and unmaps them all.
void cpu_heap_destroy(runtime& r);

// The symmetric offset of [p, p + n) in this PE's default heap, or false if it is not inside.
bool cpu_heap_offset(const runtime& r, const void* p, size_t n, uint64_t* off);
// Whether p lies in this PE's default heap (its user part: it has no reserved head).
bool in_cpu_heap(const runtime& r, const void* p);

}  // namespace gio
