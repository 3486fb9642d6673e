// The host side of the OpenSHMEM GPU Auxiliary Specification draft (0.1): shmem_init_thread's GPU
// support bits, shmem_malloc_with_hints' GPU heap hints and the GPU heap's allocation routines,
// as C symbols. Included by device/include/shmemg.h, the header the draft names.
//
// GIO has two symmetric heaps (docs/heaps.md): the default heap (shmem_malloc) is CPU-attached,
// the GPU heap (shmemg_malloc) is the GPU's memory, where GPU-centric routines (shmemg_*, and
// every device routine of shmem.h) take their symmetric operands.
#pragma once
#include <stddef.h>

// Bits OR-ed into shmem_init_thread's `requested` next to the thread level; `provided` carries
// those GIO set up (every platform provides both: the host platform's kernels are emulated).
#define SHMEM_DEVICE_HOST_INIT (1 << 8)    // GPU-aware host routines on GPU heap memory
#define SHMEM_DEVICE_KERNEL_INIT (1 << 9)  // routines called from kernels (GPU-centric)

// shmem_malloc_with_hints: the block comes from the GPU heap, mainly for host routines (HOST_INIT)
// or for kernels (KERNEL_INIT). GIO places both alike, as shmemg_malloc does.
#define SHMEM_DEVICE_MALLOC_HOST_INIT (1L << 8)
#define SHMEM_DEVICE_MALLOC_KERNEL_INIT (1L << 9)

#ifdef __cplusplus
extern "C" {
#endif
// Collective over all PEs, same arguments everywhere, like shmem_malloc and its kin; they need
// shmem_init_thread with SHMEM_DEVICE_HOST_INIT or SHMEM_DEVICE_KERNEL_INIT first.
void* shmemg_malloc(size_t size);
void* shmemg_calloc(size_t count, size_t size);
void* shmemg_align(size_t alignment, size_t size);
void shmemg_free(void* ptr);
#ifdef __cplusplus
}
#endif
