// Host-side check of GPU runtime calls: a failure is reported where it happened and ends the job.
#pragma once
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(call)                                                                  \
  do {                                                                                   \
    hipError_t e_ = (call);                                                              \
    if (e_ != hipSuccess) {                                                              \
      std::fprintf(stderr, "jacobi2d: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                   hipGetErrorString(e_));                                               \
      shmem_global_exit(1);                                                              \
    }                                                                                    \
  } while (0)
