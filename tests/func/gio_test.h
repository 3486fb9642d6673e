// Helpers for GIO's multi-PE functional tests. Every test runs on every PE (launched by giorun
// from ctest) in the same order, so collective calls inside tests line up across PEs.
#pragma once
#include <gtest/gtest.h>
#include <shmem.h>
#include <shmemg.h>

#include <dirent.h>

#include <cfloat>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
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

// n elements of device memory seen from the host: read it back, overwrite it, fill it.
template <typename T>
struct device_array {
  T* p = nullptr;
  size_t n = 0;
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

// Symmetric allocation owned by a test (collective: construct and destroy on every PE).
template <typename T>
struct sym : device_array<T> {
  explicit sym(size_t count, bool zero = true) {
    this->n = count;
    this->p = (T*)(zero ? shmem_calloc(count, sizeof(T)) : shmem_malloc(count * sizeof(T)));
  }
  ~sym() { shmem_free(this->p); }
  sym(const sym&) = delete;
  sym& operator=(const sym&) = delete;
};

// The same in the GPU heap (shmemg_calloc, the GPU draft's): the binary initializes with
// SHMEM_DEVICE_KERNEL_INIT (giotest_thread_level), and its kernels' symmetric operands live here
// whatever GIO_DEFAULT_HEAP says.
template <typename T>
struct gsym : device_array<T> {
  explicit gsym(size_t count) {
    this->n = count;
    this->p = (T*)shmemg_calloc(count, sizeof(T));
  }
  ~gsym() { shmemg_free(this->p); }
  gsym(const gsym&) = delete;
  gsym& operator=(const gsym&) = delete;
};

// Ordinary (non-symmetric) device memory, zeroed.
template <typename T>
struct dbuf : device_array<T> {
  explicit dbuf(size_t count) {
    this->n = count;
    EXPECT_EQ(hipMalloc(&this->p, count * sizeof(T) + 1), hipSuccess);
    this->fill_bytes(0);
  }
  ~dbuf() { (void)hipFree(this->p); }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
};

// The byte PE `pe` writes at index i of a pattern `salt` (never 0, so a missed write shows).
GIO_HOST_DEVICE_INLINE uint8_t pattern(int pe, size_t i, unsigned salt = 0) {
  return (uint8_t)(((pe + 1) * 131u + (unsigned)i * 7u + (unsigned)(i >> 8) * 13u + salt * 29u) % 251u + 1u);
}

// Element k of PE `pe`'s long double values: 1 + a few ulps of long double's 1.0, which round to 1.0
// as doubles, so a long double routine that went through double, or moved fewer bytes than the
// type's value, shows. Compared as values: x86's 80-bit long double leaves 6 bytes of padding.
inline long double ld_value(int pe, size_t k) { return 1.0L + (long double)(pe * 1000 + k + 1) * LDBL_EPSILON; }
// The values above are beyond double here (else the long double tests would check nothing).
inline bool ld_beyond_double() { return (long double)(double)ld_value(0, 0) != ld_value(0, 0); }

// Wait for the launched kernels and check they succeeded.
// The value of --<name>=N on the test's command line (ctest passes a run's sizes so), else `dflt`.
inline unsigned long flag_value(const std::string& name, unsigned long dflt) {
  const std::string key = "--" + name + "=";
  for (const std::string& a : ::testing::internal::GetArgvs())
    if (a.rfind(key, 0) == 0) dflt = std::stoul(a.substr(key.size()));
  return dflt;
}

inline ::testing::AssertionResult synced() {
  hipError_t e = hipDeviceSynchronize();
  if (e == hipSuccess) e = hipGetLastError();
  if (e != hipSuccess) return ::testing::AssertionFailure() << "kernel failed: " << hipGetErrorString(e);
  return ::testing::AssertionSuccess();
}

// The PEs on this machine, set by the test main after shmem_init (MPI's shared-memory split): not
// SHMEM_TEAM_SHARED's size, which GIO_NODE_PER_PE=1 makes 1 although the PEs still share the
// machine and its GPUs. 0 where the main could not tell (no MPI: GIO_BOOTSTRAP=pmix).
inline int g_pes_on_machine = 0;

// Whether this machine runs more PEs than it has GPUs. Their processes then share a GPU in time
// slices, and every operation that needs a kernel of another process, or one of its own launched
// from a host thread (a softnic or proxy atomic on GPU memory, a host atomic on the GPU heap),
// waits for a slice: milliseconds where it takes microseconds with a GPU per PE (on one H200 shared
// by 2 PEs, func.test_amo.proxy.np2's AmoStdDevice.int, about 70,000 atomics, took 231 s); so does
// every cross-PE wait of a collective, whose partner's kernel runs only in its own slice. Tests
// whose cost is thousands of such operations run fewer of them there. Always false on the host
// platform.
inline bool pes_share_gpu() {
#if defined(GIO_PLATFORM_HOST)
  return false;
#else
  int gpus = 0;
  if (hipGetDeviceCount(&gpus) != hipSuccess) return false;
  const int pes = g_pes_on_machine > 0 ? g_pes_on_machine : shmem_team_n_pes(SHMEM_TEAM_SHARED);
  return pes > gpus;
#endif
}

// Whether a peer of this PE is reached on a GPU platform over a wire that a CPU thread serves: the
// proxy, whose one thread serves every command (each a copy into or out of GPU memory there), or
// gda without a ConnectX on this machine, whose softnic thread executes every WQE. Every put from
// outside the heap there holds a bounce buffer for a round trip to that thread, and every atomic
// on GPU memory is a host-launched kernel. The tests whose cost is hundreds of thousands of such
// operations from many work-groups at once run the fewer of pes_share_gpu() over it too
// (fewer_ops()): on 2 H200 (one PE each; the cuda suite at ctest -j16, up to six tests at once on
// the two GPUs), func.test_signal.proxy_tcp.np2's FenceFlag ring (64 work-groups x 200 rounds) had
// not finished after 466 s, func.test_stress.gda.np2 (64 x 100000) after 532 s, and
// func.test_rma.gda.np2 took 50-80 s a scope for each all-sizes sweep. Always false on the host
// platform, whose sizes are set for the emulator.
inline bool cpu_serves_wire() {
#if defined(GIO_PLATFORM_HOST)
  return false;
#else
  // A ConnectX as rdma-core would list it, unless GIO_GDA_NIC=softnic sets it aside
  // (host/gda/gda_connect.cpp takes the softnic then, and where there is none).
  const char* nic = std::getenv("GIO_GDA_NIC");
  const bool softnic_asked = nic && std::string(nic) == "softnic";
  bool connectx = false;
  if (DIR* d = softnic_asked ? nullptr : opendir("/sys/class/infiniband")) {
    while (const dirent* e = readdir(d))
      if (std::strncmp(e->d_name, "mlx5", 4) == 0) connectx = true;
    closedir(d);
  }
  for (int pe = 0; pe < shmem_n_pes(); ++pe) {
    if (pe == shmem_my_pe()) continue;
    const std::string t = shmemx_transport_name(pe);
    if (t == "proxy" || (t == "gda" && !connectx)) return true;
  }
  return false;
#endif
}

// The smaller sizes of the tests that count CPU-served or time-sliced operations.
inline bool fewer_ops() { return pes_share_gpu() || cpu_serves_wire(); }

#if defined(__SANITIZE_THREAD__)
#define GIO_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GIO_TEST_TSAN 1
#endif
#endif

// Sizes the RMA tests cover: 1 B to 4 MiB. Under TSan up to 64 KiB + 1 (test_rma's buffers shrink
// with them): its all-sizes cases took 88 of its 92 s per transport there, 3 s so, and the 1 and
// 4 MiB transfers take no path that 65537 bytes (several bounce-buffer chunks) does not.
inline std::vector<size_t> rma_sizes() {
#if defined(GIO_TEST_TSAN)
  return {1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 255, 1000, 4096, 4099, 65536, 65537};
#else
  return {1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 255, 1000, 4096, 4099, 65536, 65537, 1u << 20, 4u << 20};
#endif
}

}  // namespace giotest
