// Helpers for GIO's multi-PE functional tests. Every test runs on every PE (launched by giorun
// from ctest) in the same order, so collective calls inside tests line up across PEs.
#pragma once
#include <gtest/gtest.h>
#include <shmem.h>

#include <cstdint>
#include <cstring>
#include <vector>

#define HIP_OK(call)                                                        \
  do {                                                                      \
    hipError_t e_ = (call);                                                 \
    ASSERT_EQ(e_, hipSuccess) << #call << ": " << hipGetErrorString(e_);    \
  } while (0)

namespace giotest {

inline int me() { return shmem_my_pe(); }
inline int npes() { return shmem_n_pes(); }
inline int next_pe(int d = 1) { return (me() + d) % npes(); }
inline int prev_pe(int d = 1) { return (me() - d % npes() + npes()) % npes(); }

// Symmetric allocation owned by a test (collective: construct and destroy on every PE).
template <typename T>
struct sym {
  T* p = nullptr;
  size_t n = 0;
  explicit sym(size_t count, bool zero = true) : n(count) {
    p = (T*)(zero ? shmem_calloc(count, sizeof(T)) : shmem_malloc(count * sizeof(T)));
  }
  ~sym() { shmem_free(p); }
  sym(const sym&) = delete;
  sym& operator=(const sym&) = delete;
  T* get() const { return p; }
  std::vector<T> read() const {
    std::vector<T> v(n);
    EXPECT_EQ(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
    return v;
  }
  void write(const std::vector<T>& v) const {
    EXPECT_EQ(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
  }
  void fill_bytes(int byte) const { EXPECT_EQ(hipMemset(p, byte, n * sizeof(T)), hipSuccess); }
};

// Ordinary (non-symmetric) device memory.
template <typename T>
struct dbuf {
  T* p = nullptr;
  size_t n = 0;
  explicit dbuf(size_t count) : n(count) {
    EXPECT_EQ(hipMalloc(&p, count * sizeof(T) + 1), hipSuccess);
    EXPECT_EQ(hipMemset(p, 0, count * sizeof(T)), hipSuccess);
  }
  ~dbuf() { (void)hipFree(p); }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
  T* get() const { return p; }
  std::vector<T> read() const {
    std::vector<T> v(n);
    EXPECT_EQ(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
    return v;
  }
  void write(const std::vector<T>& v) const {
    EXPECT_EQ(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
  }
};

// The byte PE `pe` writes at index i of a pattern `salt` (never 0, so a missed write shows).
GIO_HDFN uint8_t pattern(int pe, size_t i, unsigned salt = 0) {
  return (uint8_t)(((pe + 1) * 131u + (unsigned)i * 7u + (unsigned)(i >> 8) * 13u + salt * 29u) % 251u + 1u);
}

// Wait for the launched kernels and check they succeeded.
inline ::testing::AssertionResult synced() {
  hipError_t e = hipDeviceSynchronize();
  if (e == hipSuccess) e = hipGetLastError();
  if (e != hipSuccess) return ::testing::AssertionFailure() << "kernel failed: " << hipGetErrorString(e);
  return ::testing::AssertionSuccess();
}

// Sizes the RMA tests cover: 1 B to 4 MiB.
inline std::vector<size_t> rma_sizes() {
  return {1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 255, 1000, 4096, 4099, 65536, 65537, 1u << 20, 4u << 20};
}

}  // namespace giotest
