// Host-side checks of GPU runtime calls, and small upload helpers: a failure is reported where it
// happened and ends the job.
#pragma once
#include <shmem.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define HIP_CHECK(call)                                                                          \
  do {                                                                                           \
    hipError_t e_ = (call);                                                                      \
    if (e_ != hipSuccess) {                                                                      \
      std::fprintf(stderr, "spts: PE %d: %s:%d: %s failed: %s\n", shmem_my_pe(), __FILE__, __LINE__, \
                   #call, hipGetErrorString(e_));                                                \
      shmem_global_exit(1);                                                                      \
    }                                                                                            \
  } while (0)

namespace spts {

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A device copy of v (converted to T), or nullptr for an empty v.
template <typename T, typename S>
T* upload(const S* v, size_t n) {
  if (n == 0) return nullptr;
  T* d = nullptr;
  HIP_CHECK(hipMalloc((void**)&d, n * sizeof(T)));
  if constexpr (std::is_same<T, S>::value) {  // no host copy on the way (prep times the uploads)
    HIP_CHECK(hipMemcpy(d, v, n * sizeof(T), hipMemcpyHostToDevice));
  } else {
    std::vector<T> tmp(v, v + n);
    HIP_CHECK(hipMemcpy(d, tmp.data(), n * sizeof(T), hipMemcpyHostToDevice));
  }
  return d;
}
template <typename T, typename S>
T* upload(const std::vector<S>& v) {
  return upload<T>(v.data(), v.size());
}

}  // namespace spts
