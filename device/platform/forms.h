// How a public routine is declared and where its body runs, the same on every platform once the
// platform has defined GIO_DISPATCH (its platform.h includes this).
#pragma once
#include "runtime/defs.h"  // GIO_HDFN

// Public routines of host code only (long double's, GIO_RMA_HOST_TYPES): never __device__, so a
// kernel that calls one does not compile, rather than run with nvcc's long double (double there).
#define GIO_HFN inline

// A routine family's macro body takes where its routines run as a token W, so one body serves both:
// it pastes W into GIO_FN_##W and GIO_DISPATCH_##W. W = HD: routines of host code and kernels
// (GIO_HDFN, GIO_DISPATCH); W = H: routines of host code only (GIO_HFN, and libgio's host half
// alone: the device half is never named).
#define GIO_FN_HD GIO_HDFN
#define GIO_FN_H GIO_HFN
#define GIO_DISPATCH_HD(dev_stmt, host_stmt) GIO_DISPATCH(dev_stmt, host_stmt)
#define GIO_DISPATCH_H(dev_stmt, host_stmt) \
  do {                                     \
    host_stmt;                             \
  } while (0)
