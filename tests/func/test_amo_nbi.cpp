// Non-blocking fetching atomics (shmem_[ctx_]TYPE_atomic_<op>_nbi), from host code and kernels.
// Each test issues many operations of every op before one quiet, then checks every fetched value
// and every target word. The previous PE alone targets this PE's words, so the values are exact:
// fetch_inc and fetch_add tickets form the full sequence (in some order), each compare_swap,
// swap and bitwise op returns its word's known initial value, and a compare_swap whose condition
// fails leaves the word alone. Fetched values land in host memory, the symmetric heap, a thread's
// stack and __shared__ memory; half the calls take the ctx form (a created context on the host).
#include <algorithm>
#include <vector>

#include "gio_test.h"

using namespace giotest;

namespace {

struct via {
  bool use_ctx;
  shmem_ctx_t ctx;
};
#define NBI(NAME, OP, V, ...) \
  ((V).use_ctx ? shmem_ctx_##NAME##_atomic_##OP##_nbi((V).ctx, __VA_ARGS__) : shmem_##NAME##_atomic_##OP##_nbi(__VA_ARGS__))

// One struct per type name; std_ types have every op but the bitwise ones, bit_ types those.
#define STD_OPS(NAME, TYPE)                                                                                   \
  struct std_##NAME {                                                                                         \
    typedef TYPE T;                                                                                           \
    static const char* name() { return #NAME; }                                                               \
    static GIO_HOST_DEVICE_INLINE void fetch(via v, T* f, const T* s, int pe) { NBI(NAME, fetch, v, f, s, pe); }           \
    static GIO_HOST_DEVICE_INLINE void swap(via v, T* f, T* d, T x, int pe) { NBI(NAME, swap, v, f, d, x, pe); }           \
    static GIO_HOST_DEVICE_INLINE void cswap(via v, T* f, T* d, T c, T x, int pe) { NBI(NAME, compare_swap, v, f, d, c, x, pe); } \
    static GIO_HOST_DEVICE_INLINE void finc(via v, T* f, T* d, int pe) { NBI(NAME, fetch_inc, v, f, d, pe); }              \
    static GIO_HOST_DEVICE_INLINE void fadd(via v, T* f, T* d, T x, int pe) { NBI(NAME, fetch_add, v, f, d, x, pe); }      \
  };
STD_OPS(int, int)
STD_OPS(long, long)
STD_OPS(uint64, uint64_t)
STD_OPS(size, size_t)
#undef STD_OPS
#define EXT_OPS(NAME, TYPE)                                                                         \
  struct ext_##NAME {                                                                               \
    typedef TYPE T;                                                                                 \
    static const char* name() { return #NAME; }                                                     \
    static GIO_HOST_DEVICE_INLINE void fetch(via v, T* f, const T* s, int pe) { NBI(NAME, fetch, v, f, s, pe); } \
    static GIO_HOST_DEVICE_INLINE void swap(via v, T* f, T* d, T x, int pe) { NBI(NAME, swap, v, f, d, x, pe); } \
  };
EXT_OPS(double, double)
EXT_OPS(float, float)
#undef EXT_OPS
#define BIT_OPS(NAME, TYPE)                                                                              \
  struct bit_##NAME {                                                                                    \
    typedef TYPE T;                                                                                      \
    static const char* name() { return #NAME; }                                                          \
    static GIO_HOST_DEVICE_INLINE void fand(via v, T* f, T* d, T x, int pe) { NBI(NAME, fetch_and, v, f, d, x, pe); } \
    static GIO_HOST_DEVICE_INLINE void f_or(via v, T* f, T* d, T x, int pe) { NBI(NAME, fetch_or, v, f, d, x, pe); }  \
    static GIO_HOST_DEVICE_INLINE void fxor(via v, T* f, T* d, T x, int pe) { NBI(NAME, fetch_xor, v, f, d, x, pe); } \
  };
BIT_OPS(int32, int32_t)
BIT_OPS(uint64, uint64_t)
BIT_OPS(uint, unsigned int)
#undef BIT_OPS

// Layout of one test's target words for a caller k of K (a host loop index or a kernel thread):
// word[0], word[1]: the fetch_inc and fetch_add(3) counters; word[2 + k]: compare_swap target
// (initially k: even k's condition holds, odd k's does not); word[2 + K + k]: swap target (k + 7);
// word[2 + 2K + k]: fetch target (k * 5 + 1).
template <typename T>
GIO_HOST_DEVICE_INLINE T init_word(size_t i, size_t K) {
  if (i < 2) return (T)0;
  if (i < 2 + K) return (T)(i - 2);
  if (i < 2 + 2 * K) return (T)(i - 2 - K + 7);
  return (T)((i - 2 - 2 * K) * 5 + 1);
}
// Bitwise words [3k, 3k + 3): and, or, xor targets, each starting at bit_init(k).
template <typename T>
GIO_HOST_DEVICE_INLINE T bit_init(size_t k) { return (T)(0x5a5a5a5aull ^ (k * 0x01010101ull)); }
template <typename T>
GIO_HOST_DEVICE_INLINE T bit_mask(size_t k) { return (T)(0x0ff00ff0ull + k); }

template <typename T>
void init_words(const sym<T>& w, size_t K) {
  std::vector<T> v(w.n);
  for (size_t i = 0; i < w.n; ++i) v[i] = init_word<T>(i, K);
  w.write(v);
}
template <typename T>
void init_bits(const sym<T>& w) {
  std::vector<T> v(w.n);
  for (size_t i = 0; i < w.n; ++i) v[i] = bit_init<T>(i / 3);
  w.write(v);
}

// fetched[0..K): fetch_inc tickets, [K..2K): fetch_add, [2K..3K): compare_swap, [3K..4K): swap,
// [4K..5K): fetch. Checks them and this PE's words (written by the previous PE).
template <typename O>
void check_std(const std::vector<typename O::T>& got, const sym<typename O::T>& w, size_t K) {
  typedef typename O::T T;
  std::vector<T> inc(got.begin(), got.begin() + K), add(got.begin() + K, got.begin() + 2 * K);
  std::sort(inc.begin(), inc.end());
  std::sort(add.begin(), add.end());
  for (size_t k = 0; k < K; ++k) {
    EXPECT_EQ(inc[k], (T)k) << O::name() << " fetch_inc ticket " << k;
    EXPECT_EQ(add[k], (T)(3 * k)) << O::name() << " fetch_add ticket " << k;
    EXPECT_EQ(got[2 * K + k], (T)k) << O::name() << " compare_swap " << k;
    EXPECT_EQ(got[3 * K + k], (T)(k + 7)) << O::name() << " swap " << k;
    EXPECT_EQ(got[4 * K + k], (T)(k * 5 + 1)) << O::name() << " fetch " << k;
    if (::testing::Test::HasFailure()) return;
  }
  std::vector<T> mine = w.read();
  EXPECT_EQ(mine[0], (T)K) << O::name();
  EXPECT_EQ(mine[1], (T)(3 * K)) << O::name();
  for (size_t k = 0; k < K; ++k) {
    EXPECT_EQ(mine[2 + k], k % 2 ? (T)k : (T)(k + 100)) << O::name() << " compare_swap word " << k;
    EXPECT_EQ(mine[2 + K + k], (T)(k + 200)) << O::name() << " swap word " << k;
  }
}

template <typename O>
void check_ext(const std::vector<typename O::T>& got, const sym<typename O::T>& w, size_t K) {
  typedef typename O::T T;
  std::vector<T> mine = w.read();
  for (size_t k = 0; k < K; ++k) {
    EXPECT_EQ(got[3 * K + k], (T)(k + 7)) << O::name() << " swap " << k;
    EXPECT_EQ(got[4 * K + k], (T)(k * 5 + 1)) << O::name() << " fetch " << k;
    EXPECT_EQ(mine[2 + K + k], (T)(k + 200)) << O::name() << " swap word " << k;
  }
}

template <typename O>
void check_bit(const std::vector<typename O::T>& got, const sym<typename O::T>& w, size_t K) {
  typedef typename O::T T;
  std::vector<T> mine = w.read();
  for (size_t k = 0; k < K; ++k) {
    const T a = bit_init<T>(k), m = bit_mask<T>(k);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(got[3 * k + j], a) << O::name() << " fetched op " << j << " of " << k;
    EXPECT_EQ(mine[3 * k + 0], (T)(a & m)) << O::name() << " and " << k;
    EXPECT_EQ(mine[3 * k + 1], (T)(a | m)) << O::name() << " or " << k;
    EXPECT_EQ(mine[3 * k + 2], (T)(a ^ m)) << O::name() << " xor " << k;
    if (::testing::Test::HasFailure()) return;
  }
}

// ---- host ------------------------------------------------------------------------------------
const size_t kHostK = 24;

// Caller k of the host loop issues its ops (every one before the single quiet); fetched values go
// to `f` (host memory or the heap: the entry point writes either).
template <typename O>
void host_std_ops(via v, typename O::T* f, typename O::T* w, size_t K, int pe) {
  typedef typename O::T T;
  for (size_t k = 0; k < K; ++k) {
    const via u = (k % 2) ? v : via{false, SHMEM_CTX_DEFAULT};
    O::finc(u, f + k, w, pe);
    O::fadd(u, f + K + k, w + 1, (T)3, pe);
    O::cswap(u, f + 2 * K + k, w + 2 + k, (T)(k % 2 ? k + 1 : k), (T)(k + 100), pe);
    O::swap(u, f + 3 * K + k, w + 2 + K + k, (T)(k + 200), pe);
    O::fetch(u, f + 4 * K + k, w + 2 + 2 * K + k, pe);
  }
}
template <typename O>
void host_bit_ops(via v, typename O::T* f, typename O::T* w, size_t K, int pe) {
  for (size_t k = 0; k < K; ++k) {
    const via u = (k % 2) ? v : via{false, SHMEM_CTX_DEFAULT};
    O::fand(u, f + 3 * k, w + 3 * k, bit_mask<typename O::T>(k), pe);
    O::f_or(u, f + 3 * k + 1, w + 3 * k + 1, bit_mask<typename O::T>(k), pe);
    O::fxor(u, f + 3 * k + 2, w + 3 * k + 2, bit_mask<typename O::T>(k), pe);
  }
}

struct host_ctx {
  shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  host_ctx() { EXPECT_EQ(shmem_ctx_create(0, &c), 0); }
  ~host_ctx() {
    if (c != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(c);
  }
};

template <typename O>
void run_host_std(bool fetch_in_heap) {
  typedef typename O::T T;
  const size_t K = kHostK;
  sym<T> w(2 + 3 * K), fheap(5 * K);
  init_words(w, K);
  shmem_barrier_all();
  host_ctx ctx;
  std::vector<T> fhost(5 * K);
  host_std_ops<O>(via{true, ctx.c}, fetch_in_heap ? fheap.get() : fhost.data(), w.get(), K, next_pe());
  shmem_quiet();
  if (ctx.c != SHMEM_CTX_DEFAULT) shmem_ctx_quiet(ctx.c);
  shmem_barrier_all();
  check_std<O>(fetch_in_heap ? fheap.read() : fhost, w, K);
  shmem_barrier_all();
}

template <typename O>
void run_host_ext() {
  typedef typename O::T T;
  const size_t K = kHostK;
  sym<T> w(2 + 3 * K);
  init_words(w, K);
  shmem_barrier_all();
  host_ctx ctx;
  std::vector<T> f(5 * K);
  for (size_t k = 0; k < K; ++k) {
    const via u{k % 2 == 1, ctx.c};
    O::swap(u, &f[3 * K + k], w.get() + 2 + K + k, (T)(k + 200), next_pe());
    O::fetch(u, &f[4 * K + k], w.get() + 2 + 2 * K + k, next_pe());
  }
  shmem_quiet();
  shmem_barrier_all();
  check_ext<O>(f, w, K);
  shmem_barrier_all();
}

template <typename O>
void run_host_bit() {
  typedef typename O::T T;
  const size_t K = kHostK;
  sym<T> w(3 * K);
  init_bits(w);
  shmem_barrier_all();
  host_ctx ctx;
  std::vector<T> f(3 * K);
  host_bit_ops<O>(via{true, ctx.c}, f.data(), w.get(), K, next_pe());
  shmem_quiet();
  shmem_barrier_all();
  check_bit<O>(f, w, K);
  shmem_barrier_all();
}

// ---- kernels ---------------------------------------------------------------------------------
const unsigned kWGs = 4, kThreads = 32, kDevK = kWGs * kThreads;

// Thread k: fetch_inc and fetch_add land on its stack, compare_swap in __shared__, swap and fetch
// straight into the global result array; one quiet, then the stack and shared values are copied
// out. Odd work-groups use the ctx form on the default context.
template <typename O>
__global__ void std_kernel(typename O::T* w, typename O::T* got, int pe) {
  typedef typename O::T T;
  __shared__ T sh[kThreads];
  const size_t K = gridDim.x * blockDim.x, k = blockIdx.x * blockDim.x + threadIdx.x;
  const via u{blockIdx.x % 2 == 1, SHMEM_CTX_DEFAULT};
  T stack[2];
  O::finc(u, &stack[0], w, pe);
  O::fadd(u, &stack[1], w + 1, (T)3, pe);
  O::cswap(u, &sh[threadIdx.x], w + 2 + k, (T)(k % 2 ? k + 1 : k), (T)(k + 100), pe);
  O::swap(u, got + 3 * K + k, w + 2 + K + k, (T)(k + 200), pe);
  O::fetch(u, got + 4 * K + k, w + 2 + 2 * K + k, pe);
  shmem_quiet();
  got[k] = stack[0];
  got[K + k] = stack[1];
  got[2 * K + k] = sh[threadIdx.x];
}

template <typename O>
__global__ void ext_kernel(typename O::T* w, typename O::T* got, int pe) {
  typedef typename O::T T;
  const size_t K = gridDim.x * blockDim.x, k = blockIdx.x * blockDim.x + threadIdx.x;
  const via u{blockIdx.x % 2 == 1, SHMEM_CTX_DEFAULT};
  T stack;
  O::swap(u, &stack, w + 2 + K + k, (T)(k + 200), pe);
  O::fetch(u, got + 4 * K + k, w + 2 + 2 * K + k, pe);
  shmem_quiet();
  got[3 * K + k] = stack;
}

template <typename O>
__global__ void bit_kernel(typename O::T* w, typename O::T* got, int pe) {
  typedef typename O::T T;
  __shared__ T sh[kThreads * 3];
  const size_t k = blockIdx.x * blockDim.x + threadIdx.x;
  const via u{blockIdx.x % 2 == 1, SHMEM_CTX_DEFAULT};
  T* f = sh + 3 * threadIdx.x;
  O::fand(u, f, w + 3 * k, bit_mask<T>(k), pe);
  O::f_or(u, f + 1, w + 3 * k + 1, bit_mask<T>(k), pe);
  O::fxor(u, f + 2, w + 3 * k + 2, bit_mask<T>(k), pe);
  shmem_quiet();
  for (int j = 0; j < 3; ++j) got[3 * k + j] = f[j];
}

template <typename O>
void run_dev_std() {
  typedef typename O::T T;
  const size_t K = kDevK;
  sym<T> w(2 + 3 * K);
  dbuf<T> got(5 * K);
  init_words(w, K);
  shmem_barrier_all();
  hipLaunchKernelGGL(std_kernel<O>, dim3(kWGs), dim3(kThreads), 0, 0, w.get(), got.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  check_std<O>(got.read(), w, K);
  shmem_barrier_all();
}

template <typename O>
void run_dev_ext() {
  typedef typename O::T T;
  const size_t K = kDevK;
  sym<T> w(2 + 3 * K);
  dbuf<T> got(5 * K);
  init_words(w, K);
  shmem_barrier_all();
  hipLaunchKernelGGL(ext_kernel<O>, dim3(kWGs), dim3(kThreads), 0, 0, w.get(), got.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  check_ext<O>(got.read(), w, K);
  shmem_barrier_all();
}

template <typename O>
void run_dev_bit() {
  typedef typename O::T T;
  const size_t K = kDevK;
  sym<T> w(3 * K);
  dbuf<T> got(3 * K);
  init_bits(w);
  shmem_barrier_all();
  hipLaunchKernelGGL(bit_kernel<O>, dim3(kWGs), dim3(kThreads), 0, 0, w.get(), got.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  check_bit<O>(got.read(), w, K);
  shmem_barrier_all();
}

}  // namespace

TEST(AmoNbiHost, Int) { run_host_std<std_int>(false); }
TEST(AmoNbiHost, LongIntoHeap) { run_host_std<std_long>(true); }
TEST(AmoNbiHost, Uint64) { run_host_std<std_uint64>(false); }
TEST(AmoNbiHost, SizeIntoHeap) { run_host_std<std_size>(true); }
TEST(AmoNbiHost, Double) { run_host_ext<ext_double>(); }
TEST(AmoNbiHost, Float) { run_host_ext<ext_float>(); }
TEST(AmoNbiHost, BitInt32) { run_host_bit<bit_int32>(); }
TEST(AmoNbiHost, BitUint64) { run_host_bit<bit_uint64>(); }
TEST(AmoNbiHost, BitUint) { run_host_bit<bit_uint>(); }

// hipcc expands every atomic call site's error reports inline (about 8 s each per target, see
// test_amo.cpp); the hip build is a compile check, so it instantiates one type per family.
TEST(AmoNbiDevice, Uint64) { run_dev_std<std_uint64>(); }
TEST(AmoNbiDevice, Double) { run_dev_ext<ext_double>(); }
TEST(AmoNbiDevice, BitInt32) { run_dev_bit<bit_int32>(); }
#if !defined(GIO_PLATFORM_HIP)
TEST(AmoNbiDevice, Int) { run_dev_std<std_int>(); }
TEST(AmoNbiDevice, Long) { run_dev_std<std_long>(); }
TEST(AmoNbiDevice, BitUint64) { run_dev_bit<bit_uint64>(); }
#endif
