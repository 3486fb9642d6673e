// What the two GPU platforms (cuda, hip) define alike once their platform.h has set GIO_DEVICE_CODE
// and GIO_KERNEL_COMPILER: the dispatch macro, the routine forms, and in a kernel compiler's pass
// the device print and the function qualifiers. The host platform defines its own
// (device/platform/host/platform.h): there one function serves kernels and host code.
#pragma once

// GIO_DISPATCH_HOST_DEVICE(device_stmt, host_stmt): the device half in kernels, libgio's host half elsewhere.
#if GIO_DEVICE_CODE
#define GIO_DISPATCH_HOST_DEVICE(dev_stmt, host_stmt) \
  do {                                    \
    dev_stmt;                             \
  } while (0)
#else
#define GIO_DISPATCH_HOST_DEVICE(dev_stmt, host_stmt) \
  do {                                    \
    host_stmt;                            \
  } while (0)
#endif

#include "device/platform/forms.h"

#if GIO_KERNEL_COMPILER
// Device messages (GIO_DEV_FATAL, device/core/check.h).
#define GIO_DEV_PRINT(...) printf(__VA_ARGS__)
// GIO_DEVICE_INLINE: the fast path, inlined into the caller. GIO_DEVICE_NOINLINE: called, not inlined, on GPUs: the
// gda posting path and every diagnostic (device printf expands to a lot of code, and inlining it at
// each of hundreds of call sites multiplied compile time and code size for nothing on the fast path).
#define GIO_UNROLL _Pragma("unroll")
#define GIO_DEVICE_INLINE __device__ __forceinline__
// (HIP's headers define __noinline__ as nothing, hence the attribute; inline keeps the ODR happy.)
#define GIO_DEVICE_NOINLINE __device__ inline __attribute__((noinline))
// A function template declared ahead of its definition: both without inline (a template needs none
// for the ODR). With inline on the definition, nvcc's host pass gives the declaration inline too and
// g++ warns of inline with noinline in every program that includes shmem.h; without the attribute
// on the declaration, nvcc drops it from the definition (tests/install/check.sh compiles a program
// with -Wall -Wextra and refuses any warning from GIO's headers).
#define GIO_DEVICE_NOINLINE_TEMPLATE __device__ __attribute__((noinline))
#endif  // GIO_KERNEL_COMPILER
