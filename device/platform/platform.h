// The platform layer: where a kernel runs (cuda, hip, or the host emulator).
//
// Device API code uses only the gio::plat names below; each platform maps them onto its runtime.
// GIO_DEVICE_CODE is 1 in a device compilation pass (cuda/hip) and 0 elsewhere; on the host platform
// the same code serves both, so `gio::plat::in_kernel()` tells them apart at run time.
#pragma once
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}, generated at configure time
#include "runtime/defs.h"

// Each platform's platform.h defines the same names: GIO_DEVICE_CODE, GIO_KERNEL_COMPILER,
// GIO_DISPATCH_HOST_DEVICE, the function qualifiers, and gio::plat (ids and waves, fences, atomics).
#if defined(GIO_PLATFORM_CUDA)
#include "device/platform/cuda/platform.h"
#elif defined(GIO_PLATFORM_HIP)
#include "device/platform/hip/platform.h"
#elif defined(GIO_PLATFORM_HOST)
#include "device/platform/host/platform.h"
#else
#error "GIO: no platform selected (GIO_PLATFORM_CUDA, GIO_PLATFORM_HIP or GIO_PLATFORM_HOST)"
#endif
