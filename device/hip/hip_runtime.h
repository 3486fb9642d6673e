// <hip/hip_runtime.h> for the cuda and host platforms, installed by GIO as include/gio/hip/ so a
// standard HIP program (hipMalloc, hipMemcpy, hipLaunchKernelGGL, __global__, threadIdx, ...) that
// includes it beside <shmem.h> builds unchanged on every platform. The hip platform installs none:
// there the real ROCm header is used. What it maps:
//  - cuda: HIP's names onto the CUDA runtime (runtime/cuda_hip_compat.h: the names GIO and
//    its apps use; HIP's own NVIDIA headers do not build with CUDA 13). <<<...>>> works as in CUDA.
//  - host: the CPU emulator (device/platform/host/hip_host.h), launched with hipLaunchKernelGGL
//    (a C++ compiler has no <<<...>>>: oshcc/oshc++ rewrite such launches, host/tools/chevrons.cpp).
#pragma once
#include "gio_config.h"

#if defined(GIO_PLATFORM_CUDA)
#include "runtime/cuda_hip_compat.h"
// A few more names of the HIP runtime that programs commonly use and the host emulator has too.
#define hipGetErrorName cudaGetErrorName
#define hipDeviceReset cudaDeviceReset
#elif defined(GIO_PLATFORM_HOST)
#include "device/platform/host/hip_host.h"
#else
#error "GIO's hip/hip_runtime.h serves the cuda and host platforms; on hip, ROCm's header is used"
#endif
