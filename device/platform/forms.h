// How a public routine is declared and where its body runs, the same on every platform once the
// platform has defined GIO_DISPATCH (its platform.h includes this).
#pragma once
#include "runtime/defs.h"  // GIO_HDFN

// Public routines of host code only (long double's, GIO_RMA_HOST_TYPES): never __device__, so a
// kernel that calls one does not compile, rather than run with nvcc's long double (double there).
#define GIO_HFN inline

// A routine family's macro body takes where its routines run as a token W, so one body serves both:
// GIO_FN_##W and GIO_DISPATCH_##W are GIO_HDFN and GIO_DISPATCH for W = HD (host code and kernels),
// GIO_HFN and libgio's host half alone for W = H (host code only: the device half is never named).
#define GIO_FN_HD GIO_HDFN
#define GIO_FN_H GIO_HFN
#define GIO_DISPATCH_HD(dev_stmt, host_stmt) GIO_DISPATCH(dev_stmt, host_stmt)
#define GIO_DISPATCH_H(dev_stmt, host_stmt) \
  do {                                     \
    host_stmt;                             \
  } while (0)
