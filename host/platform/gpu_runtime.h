// cuda and hip platforms, the parts the split files share (gpu_device.cpp, gpu_heap.cpp,
// gpu_host_ops.cpp, gpu_nic.cpp): error checks and the one-thread atomic kernel that host atomics
// and the softnic's atomics launch. Written with HIP names; on cuda they come from
// runtime/cuda_hip_compat.h. Compiled by the kernel compiler (nvcc / hipcc).
#pragma once
#include "gio_config.h"  // GIO_PLATFORM_*
#if defined(GIO_PLATFORM_CUDA)
#include "runtime/cuda_hip_compat.h"  // the HIP names on CUDA
#elif defined(GIO_PLATFORM_HIP)
#include <hip/hip_runtime.h>
#else
#include "runtime/emu_api.h"
#endif
#include "host/log.h"
#include "host/platform/gpu.h"
#include "runtime/host_entry.h"  // gio_amo_op

namespace gio {
namespace gpu {

inline void check(hipError_t e, const char* routine, const char* what) {
  if (e != hipSuccess) fatal(GIO_ERR_PLATFORM, routine, "%s failed: %s", what, hipGetErrorString(e));
}

// Internal linkage: each file that launches it has its own copy of the kernel (no relocatable
// device code, so a kernel shared across files would have one host stub but two modules).
namespace {
template <typename U>
__global__ void amo_kernel(U* p, int op, U v, U c, U* out) {
  switch (op) {
    case GIO_AMO_FETCH: *out = atomicOr_system(p, U(0)); break;
    case GIO_AMO_SET:
    case GIO_AMO_SWAP: *out = atomicExch_system(p, v); break;
    case GIO_AMO_CSWAP: *out = atomicCAS_system(p, c, v); break;
    case GIO_AMO_FETCH_ADD: *out = atomicAdd_system(p, v); break;
    case GIO_AMO_FETCH_AND: *out = atomicAnd_system(p, v); break;
    case GIO_AMO_FETCH_OR: *out = atomicOr_system(p, v); break;
    default: *out = atomicXor_system(p, v); break;
  }
  __threadfence_system();
}
}  // namespace

// This PE's device (select_device, gpu_device.cpp); -1 before it.
int pe_device();
// The host API's streams and result words (gpu_host_ops.cpp), made once the device is chosen.
void host_lanes_create(const char* routine);

}  // namespace gpu
}  // namespace gio
