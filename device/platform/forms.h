// How a public routine is declared and where its body runs, the same on every platform once the
// platform has defined GIO_DISPATCH_HOST_DEVICE (its platform.h includes this).
#pragma once
#include "runtime/defs.h"  // GIO_HOST_DEVICE_INLINE

// Public routines of host code only (long double's, GIO_RMA_HOST_TYPES): never __device__, so a
// kernel that calls one does not compile, rather than run with nvcc's long double (double there).
#define GIO_HOST_INLINE inline

// A routine family's macro body takes where its routines run as a token W, so one body serves both:
// it pastes W into GIO_##W##_INLINE and GIO_DISPATCH_##W. W = HOST_DEVICE: routines of host code and kernels
// (GIO_HOST_DEVICE_INLINE, GIO_DISPATCH_HOST_DEVICE); W = HOST: routines of host code only (GIO_HOST_INLINE, and libgio's host half
// alone: the device half is never named).
#define GIO_DISPATCH_HOST(dev_stmt, host_stmt) \
  do {                                     \
    host_stmt;                             \
  } while (0)
