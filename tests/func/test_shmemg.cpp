// The GPU-centric routines of shmemg.h (OpenSHMEM GPU Auxiliary Specification, draft 0.1) from
// kernels: RMA and put-with-signal at thread, _htg (wave) and _tg (work-group) granularity, with
// and without a context; every AMO form on standard, extended and bitwise types (thread
// granularity, as the draft defines them), the nonblocking fetching ones included; wait_until,
// test, signal_wait_until, signal_fetch, fence, quiet, sync_all and team_sync at each granularity.
// Each case checks what arrived: bytes, old values, final words, signals.
#include "gio_test.h"

#include <shmemg.h>

#include <string>

using namespace giotest;

// GPU-centric routines need the draft's GPU initialization; their operands live in the GPU heap.
extern "C" {
int giotest_thread_level = SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT;
}

namespace {
enum scope_kind { THREAD = 0, HTG = 1, TG = 2 };
const unsigned kThreads = 64;
const size_t kSlot = 4096;

__device__ __host__ inline size_t rma_len(int v) { return 1000 + 397 * (size_t)v; }

// FN at the kernel's granularity: one thread, the first wave, or the whole work-group.
#define AT_SCOPE(SCOPE, FN, ...)                                  \
  do {                                                            \
    if ((SCOPE) == THREAD) {                                      \
      if (threadIdx.x == 0) FN(__VA_ARGS__);                      \
    } else if ((SCOPE) == HTG) {                                  \
      if (threadIdx.x < (unsigned)warpSize) FN##_htg(__VA_ARGS__); \
    } else {                                                      \
      FN##_tg(__VA_ARGS__);                                       \
    }                                                             \
  } while (0)

// Slot v of 0..3 puts to the next PE's inbox, slot 4..7 gets the next PE's src into got: blocking
// and _nbi, each without and with a context.
__global__ void rma_kernel(uint8_t* src, uint8_t* inbox, uint8_t* got, int scope) {
  const int next = (shmemg_my_pe() + 1) % shmemg_n_pes();
  const shmem_ctx_t ctx = SHMEM_DEVICE_CTX_DEFAULT;
  for (int v = 0; v < 8; ++v) {
    const size_t off = v * kSlot, len = rma_len(v);
    switch (v) {
      case 0: AT_SCOPE(scope, shmemg_putmem, inbox + off, src + off, len, next); break;
      case 1: AT_SCOPE(scope, shmemg_ctx_putmem, ctx, inbox + off, src + off, len, next); break;
      case 2: AT_SCOPE(scope, shmemg_putmem_nbi, inbox + off, src + off, len, next); break;
      case 3: AT_SCOPE(scope, shmemg_ctx_putmem_nbi, ctx, inbox + off, src + off, len, next); break;
      case 4: AT_SCOPE(scope, shmemg_getmem, got + off, src + off, len, next); break;
      case 5: AT_SCOPE(scope, shmemg_ctx_getmem, ctx, got + off, src + off, len, next); break;
      case 6: AT_SCOPE(scope, shmemg_getmem_nbi, got + off, src + off, len, next); break;
      case 7: AT_SCOPE(scope, shmemg_ctx_getmem_nbi, ctx, got + off, src + off, len, next); break;
    }
  }
  if (threadIdx.x == 0) {
    shmemg_quiet();
    shmemg_ctx_quiet(ctx);
  }
  __syncthreads();
}

// Put-with-signal to the next PE (v: blocking / _nbi, without / with a context; SET on even v, ADD
// on odd), then the previous PE's arrival: the signal's value and every byte of the data.
__global__ void signal_kernel(uint8_t* src, uint8_t* inbox, uint64_t* sig, unsigned* bad, int scope) {
  const int me = shmemg_my_pe(), n = shmemg_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  const shmem_ctx_t ctx = SHMEM_DEVICE_CTX_DEFAULT;
  for (int v = 0; v < 4; ++v) {
    const size_t off = v * kSlot, len = rma_len(v);
    const int op = (v & 1) ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
    const uint64_t val = 100 + v;
    switch (v) {
      case 0: AT_SCOPE(scope, shmemg_putmem_signal, inbox + off, src + off, len, sig + v, val, op, next); break;
      case 1: AT_SCOPE(scope, shmemg_ctx_putmem_signal, ctx, inbox + off, src + off, len, sig + v, val, op, next); break;
      case 2: AT_SCOPE(scope, shmemg_putmem_signal_nbi, inbox + off, src + off, len, sig + v, val, op, next); break;
      case 3:
        AT_SCOPE(scope, shmemg_ctx_putmem_signal_nbi, ctx, inbox + off, src + off, len, sig + v, val, op, next);
        break;
    }
  }
  __shared__ unsigned sig_bad;
  if (threadIdx.x == 0) {
    shmemg_quiet();
    sig_bad = 0;
    for (int v = 0; v < 4; ++v) {
      sig_bad += shmemg_signal_wait_until(sig + v, SHMEM_CMP_EQ, 100 + v) != (uint64_t)(100 + v);
      sig_bad += shmemg_signal_fetch(sig + v) != (uint64_t)(100 + v);
    }
  }
  __syncthreads();
  unsigned b = 0;
  for (int v = 0; v < 4; ++v)
    for (size_t k = threadIdx.x; k < rma_len(v); k += blockDim.x) b += inbox[v * kSlot + k] != pattern(prev, k, v);
  if (b) atomicAdd(bad, b);
  if (threadIdx.x == 0 && sig_bad) atomicAdd(bad + 1, sig_bad);
}

// sync_all and team_sync at the kernel's granularity around flags set by the previous PE:
// test sees 0 before the sync (nobody has set it yet), wait_until and test see it after; data put
// with _nbi, then fence, then a flag, is there when the flag is. out[]: what each step saw.
__global__ void sync_kernel(int* iflag, uint64_t* uflag, uint8_t* data, const uint8_t* src, int* out, int scope) {
  const int me = shmemg_my_pe(), n = shmemg_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  if (threadIdx.x == 0) {
    out[0] = shmemg_int_test(iflag, SHMEM_CMP_NE, 0);
    out[1] = shmemg_uint64_test(uflag, SHMEM_CMP_GT, 0);
  }
  __syncthreads();
  int ts = 0;
  if (scope == THREAD) {
    if (threadIdx.x == 0) {
      shmemg_sync_all();
      ts = shmemg_team_sync(SHMEM_DEVICE_TEAM_WORLD);
    }
  } else if (scope == HTG) {
    if (threadIdx.x < (unsigned)warpSize) {
      shmemg_sync_all_htg();
      ts = shmemg_team_sync_htg(SHMEM_DEVICE_TEAM_WORLD);
    }
  } else {
    shmemg_sync_all_tg();
    ts = shmemg_team_sync_tg(SHMEM_DEVICE_TEAM_WORLD);
  }
  if (ts) atomicAdd(out + 2, 1);
  if (threadIdx.x == 0) {
    shmemg_putmem_nbi(data, src, 3000, next);
    shmemg_fence();
    shmemg_int_atomic_set(iflag, 7, next);
    shmemg_ctx_fence(SHMEM_DEVICE_CTX_DEFAULT);
    shmemg_uint64_atomic_add(uflag, 9, next);
    shmemg_int_wait_until(iflag, SHMEM_CMP_EQ, 7);
    unsigned bad = 0;
    for (size_t k = 0; k < 3000; ++k) bad += data[k] != pattern(prev, k, 77);
    out[3] = (int)bad;
    shmemg_uint64_wait_until(uflag, SHMEM_CMP_GE, 9);
    out[4] = shmemg_int_test(iflag, SHMEM_CMP_EQ, 7);
    out[5] = shmemg_uint64_test(uflag, SHMEM_CMP_EQ, 9);
    shmemg_ctx_fence(SHMEM_CTX_INVALID);  // no-ops, as the draft says
    shmemg_ctx_quiet(SHMEM_CTX_INVALID);
    shmemg_quiet();
  }
  __syncthreads();
}

std::string scope_name(const ::testing::TestParamInfo<int>& i) {
  return i.param == THREAD ? "thread" : i.param == HTG ? "htg" : "tg";
}
}  // namespace

class ShmemgScoped : public ::testing::TestWithParam<int> {};

TEST_P(ShmemgScoped, RmaBlockingAndNbiArrive) {
  gsym<uint8_t> src(8 * kSlot), inbox(8 * kSlot), got(8 * kSlot);
  std::vector<uint8_t> s(8 * kSlot, 0);
  for (int v = 0; v < 8; ++v)
    for (size_t k = 0; k < rma_len(v); ++k) s[v * kSlot + k] = pattern(me(), k, v);
  src.write(s);
  shmem_barrier_all();
  hipLaunchKernelGGL(rma_kernel, dim3(1), dim3(kThreads), 0, 0, src.get(), inbox.get(), got.get(), GetParam());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> in = inbox.read(), g = got.read();
  for (int v = 0; v < 8; ++v) {
    const std::vector<uint8_t>& buf = v < 4 ? in : g;
    const int from = v < 4 ? prev_pe() : next_pe();
    size_t bad = 0;
    for (size_t k = 0; k < rma_len(v); ++k) bad += buf[v * kSlot + k] != pattern(from, k, v);
    EXPECT_EQ(bad, 0u) << "slot " << v << " (" << (v < 4 ? "put" : "get") << ")";
    EXPECT_EQ(buf[v * kSlot + rma_len(v)], 0) << "slot " << v << ": a byte past the end was written";
    // The slots the other direction uses stay untouched.
    const std::vector<uint8_t>& other = v < 4 ? g : in;
    EXPECT_EQ(other[v * kSlot], 0) << "slot " << v;
  }
  shmem_barrier_all();
}

TEST_P(ShmemgScoped, PutSignalDataCompleteWhenSignalSeen) {
  gsym<uint8_t> src(4 * kSlot), inbox(4 * kSlot);
  gsym<uint64_t> sig(4);
  dbuf<unsigned> bad(2);
  std::vector<uint8_t> s(4 * kSlot, 0);
  for (int v = 0; v < 4; ++v)
    for (size_t k = 0; k < rma_len(v); ++k) s[v * kSlot + k] = pattern(me(), k, v);
  src.write(s);
  shmem_barrier_all();
  hipLaunchKernelGGL(signal_kernel, dim3(1), dim3(kThreads), 0, 0, src.get(), inbox.get(), sig.get(), bad.get(),
                     GetParam());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<unsigned> b = bad.read();
  EXPECT_EQ(b[0], 0u) << "bytes wrong once the signal was seen";
  EXPECT_EQ(b[1], 0u) << "signal_wait_until / signal_fetch values";
  std::vector<uint64_t> sv = sig.read();
  for (int v = 0; v < 4; ++v) EXPECT_EQ(sv[v], (uint64_t)(100 + v)) << "signal " << v;
  shmem_barrier_all();
}

TEST_P(ShmemgScoped, SyncWaitTestFence) {
  gsym<int> iflag(1);
  gsym<uint64_t> uflag(1);
  gsym<uint8_t> data(3000), src(3000);
  dbuf<int> out(6);
  std::vector<uint8_t> s(3000);
  for (size_t k = 0; k < s.size(); ++k) s[k] = pattern(me(), k, 77);
  src.write(s);
  shmem_barrier_all();
  hipLaunchKernelGGL(sync_kernel, dim3(1), dim3(kThreads), 0, 0, iflag.get(), uflag.get(), data.get(), src.get(),
                     out.get(), GetParam());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<int> o = out.read();
  EXPECT_EQ(o[0], 0) << "int_test saw a flag set before the sync";
  EXPECT_EQ(o[1], 0) << "uint64_test saw a flag set before the sync";
  EXPECT_EQ(o[2], 0) << "team_sync returned nonzero";
  EXPECT_EQ(o[3], 0) << "bytes put before the fence missing when the flag was seen";
  EXPECT_EQ(o[4], 1) << "int_test after wait_until";
  EXPECT_EQ(o[5], 1) << "uint64_test after wait_until";
  EXPECT_EQ(iflag.read()[0], 7);
  EXPECT_EQ(uflag.read()[0], 9u);
  shmem_barrier_all();
}

INSTANTIATE_TEST_SUITE_P(Granularity, ShmemgScoped, ::testing::Values(THREAD, HTG, TG), scope_name);

// ---- AMOs (thread granularity) ---------------------------------------------------------------
// Word i of the target starts at 10 + i. The kernel's thread 0 applies each form to its own words
// on the next PE (plain, then ctx) and keeps the old values; the host checks both.
namespace {
const int kWords = 40, kGot = 32;

#define G_AMO_EXT_BODY(NAME, T)                                                    \
  shmemg_##NAME##_atomic_set(w + 0, (T)5, pe);                                      \
  shmemg_ctx_##NAME##_atomic_set(ctx, w + 1, (T)6, pe);                             \
  got[0] = shmemg_##NAME##_atomic_fetch(w + 6, pe);                                 \
  got[1] = shmemg_ctx_##NAME##_atomic_fetch(ctx, w + 7, pe);                        \
  got[2] = shmemg_##NAME##_atomic_swap(w + 8, (T)1, pe);                            \
  got[3] = shmemg_ctx_##NAME##_atomic_swap(ctx, w + 9, (T)2, pe);                   \
  shmemg_##NAME##_atomic_fetch_nbi(got + 10, w + 16, pe);                           \
  shmemg_ctx_##NAME##_atomic_fetch_nbi(ctx, got + 11, w + 17, pe);                  \
  shmemg_##NAME##_atomic_swap_nbi(got + 12, w + 18, (T)3, pe);                      \
  shmemg_ctx_##NAME##_atomic_swap_nbi(ctx, got + 13, w + 19, (T)4, pe);

#define G_AMO_STD_BODY(NAME, T)                                                    \
  shmemg_##NAME##_atomic_add(w + 2, (T)3, pe);                                      \
  shmemg_ctx_##NAME##_atomic_add(ctx, w + 3, (T)4, pe);                             \
  shmemg_##NAME##_atomic_inc(w + 4, pe);                                            \
  shmemg_ctx_##NAME##_atomic_inc(ctx, w + 5, pe);                                   \
  got[4] = shmemg_##NAME##_atomic_compare_swap(w + 10, (T)20, (T)7, pe);            \
  got[5] = shmemg_ctx_##NAME##_atomic_compare_swap(ctx, w + 11, (T)0, (T)7, pe);    \
  got[6] = shmemg_##NAME##_atomic_fetch_add(w + 12, (T)5, pe);                      \
  got[7] = shmemg_ctx_##NAME##_atomic_fetch_add(ctx, w + 13, (T)5, pe);             \
  got[8] = shmemg_##NAME##_atomic_fetch_inc(w + 14, pe);                            \
  got[9] = shmemg_ctx_##NAME##_atomic_fetch_inc(ctx, w + 15, pe);                   \
  shmemg_##NAME##_atomic_compare_swap_nbi(got + 14, w + 20, (T)30, (T)9, pe);       \
  shmemg_ctx_##NAME##_atomic_compare_swap_nbi(ctx, got + 15, w + 21, (T)31, (T)9, pe); \
  shmemg_##NAME##_atomic_fetch_add_nbi(got + 16, w + 22, (T)2, pe);                 \
  shmemg_ctx_##NAME##_atomic_fetch_add_nbi(ctx, got + 17, w + 23, (T)2, pe);        \
  shmemg_##NAME##_atomic_fetch_inc_nbi(got + 18, w + 24, pe);                       \
  shmemg_ctx_##NAME##_atomic_fetch_inc_nbi(ctx, got + 19, w + 25, pe);

// Bitwise: words 26..37 with the mask 0x5.
#define G_AMO_BIT_BODY(NAME, T)                                                    \
  shmemg_##NAME##_atomic_and(w + 26, (T)5, pe);                                     \
  shmemg_ctx_##NAME##_atomic_and(ctx, w + 27, (T)5, pe);                            \
  shmemg_##NAME##_atomic_or(w + 28, (T)5, pe);                                      \
  shmemg_ctx_##NAME##_atomic_or(ctx, w + 29, (T)5, pe);                             \
  shmemg_##NAME##_atomic_xor(w + 30, (T)5, pe);                                     \
  shmemg_ctx_##NAME##_atomic_xor(ctx, w + 31, (T)5, pe);                            \
  got[20] = shmemg_##NAME##_atomic_fetch_and(w + 32, (T)5, pe);                     \
  got[21] = shmemg_ctx_##NAME##_atomic_fetch_or(ctx, w + 33, (T)5, pe);             \
  got[22] = shmemg_##NAME##_atomic_fetch_xor(w + 34, (T)5, pe);                     \
  shmemg_ctx_##NAME##_atomic_fetch_and_nbi(ctx, got + 23, w + 35, (T)5, pe);        \
  shmemg_##NAME##_atomic_fetch_or_nbi(got + 24, w + 36, (T)5, pe);                  \
  shmemg_ctx_##NAME##_atomic_fetch_xor_nbi(ctx, got + 25, w + 37, (T)5, pe);

#define G_AMO_KERNEL(NAME, T, BODY)                                                \
  __global__ void amo_kernel_##NAME(T* w, T* got, int pe) {                         \
    if (threadIdx.x != 0) return;                                                   \
    const shmem_ctx_t ctx = SHMEM_DEVICE_CTX_DEFAULT;                               \
    BODY                                                                            \
    shmemg_quiet();                                                                 \
  }
// Standard types get the extended and standard forms, bitwise ones all three, float/double the
// extended ones only.
G_AMO_KERNEL(int, int, G_AMO_EXT_BODY(int, int) G_AMO_STD_BODY(int, int))
G_AMO_KERNEL(longlong, long long, G_AMO_EXT_BODY(longlong, long long) G_AMO_STD_BODY(longlong, long long))
G_AMO_KERNEL(size, size_t, G_AMO_EXT_BODY(size, size_t) G_AMO_STD_BODY(size, size_t))
G_AMO_KERNEL(uint64, uint64_t, G_AMO_EXT_BODY(uint64, uint64_t) G_AMO_STD_BODY(uint64, uint64_t) G_AMO_BIT_BODY(uint64, uint64_t))
G_AMO_KERNEL(int32, int32_t, G_AMO_EXT_BODY(int32, int32_t) G_AMO_STD_BODY(int32, int32_t) G_AMO_BIT_BODY(int32, int32_t))
G_AMO_KERNEL(double, double, G_AMO_EXT_BODY(double, double))
G_AMO_KERNEL(float, float, G_AMO_EXT_BODY(float, float))

enum { EXT = 1, STD = 2, BIT = 4 };

template <typename T>
void run_amo(void (*kernel)(T*, T*, int), int forms) {
  gsym<T> w(kWords);
  dbuf<T> got(kGot);
  std::vector<T> init(kWords);
  for (int i = 0; i < kWords; ++i) init[i] = (T)(10 + i);
  w.write(init);
  shmem_barrier_all();
  hipLaunchKernelGGL(kernel, dim3(1), dim3(kThreads), 0, 0, w.get(), got.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<T> f = w.read(), g = got.read();
  std::vector<T> want = init;
  std::vector<std::pair<int, T>> olds;  // (got index, old value)
  if (forms & EXT) {
    want[0] = 5, want[1] = 6, want[8] = 1, want[9] = 2, want[18] = 3, want[19] = 4;
    for (int i : {0, 1, 2, 3}) olds.push_back({i, (T)(16 + i)});   // fetch w6, w7; swap w8, w9
    for (int i : {10, 11, 12, 13}) olds.push_back({i, (T)(16 + i)});  // w16..w19
  }
  if (forms & STD) {
    want[2] = 15, want[3] = 17, want[4] = 15, want[5] = 16, want[10] = 7, want[11] = 21;
    want[12] = 27, want[13] = 28, want[14] = 25, want[15] = 26, want[20] = 9, want[21] = 9;
    want[22] = 34, want[23] = 35, want[24] = 35, want[25] = 36;
    for (int i : {4, 5, 6, 7, 8, 9}) olds.push_back({i, (T)(16 + i)});   // w10..w15
    for (int i : {14, 15, 16, 17, 18, 19}) olds.push_back({i, (T)(16 + i)});  // w20..w25
  }
  if (forms & BIT) {
    const uint64_t m = 5;
    auto v = [](int i) { return (uint64_t)(10 + i); };
    want[26] = (T)(v(26) & m), want[27] = (T)(v(27) & m), want[28] = (T)(v(28) | m), want[29] = (T)(v(29) | m);
    want[30] = (T)(v(30) ^ m), want[31] = (T)(v(31) ^ m), want[32] = (T)(v(32) & m), want[33] = (T)(v(33) | m);
    want[34] = (T)(v(34) ^ m), want[35] = (T)(v(35) & m), want[36] = (T)(v(36) | m), want[37] = (T)(v(37) ^ m);
    for (int i = 20; i <= 25; ++i) olds.push_back({i, (T)(22 + i)});  // w32..w37
  }
  for (int i = 0; i < kWords; ++i) EXPECT_EQ(f[i], want[i]) << "word " << i << " after PE " << prev_pe() << "'s AMOs";
  for (auto& o : olds) EXPECT_EQ(g[o.first], o.second) << "old value " << o.first;
  shmem_barrier_all();
}
}  // namespace

TEST(ShmemgAmo, Int) { run_amo<int>(amo_kernel_int, EXT | STD); }
TEST(ShmemgAmo, LongLong) { run_amo<long long>(amo_kernel_longlong, EXT | STD); }
TEST(ShmemgAmo, Size) { run_amo<size_t>(amo_kernel_size, EXT | STD); }
TEST(ShmemgAmo, Uint64) { run_amo<uint64_t>(amo_kernel_uint64, EXT | STD | BIT); }
TEST(ShmemgAmo, Int32) { run_amo<int32_t>(amo_kernel_int32, EXT | STD | BIT); }
TEST(ShmemgAmo, Double) { run_amo<double>(amo_kernel_double, EXT); }
TEST(ShmemgAmo, Float) { run_amo<float>(amo_kernel_float, EXT); }

// The device teams and context are GIO's predefined ones; the queries match the host's.
namespace {
__global__ void query_kernel(int* out) {
  if (threadIdx.x == 0) {
    out[0] = shmemg_my_pe();
    out[1] = shmemg_n_pes();
  }
}
}  // namespace

TEST(Shmemg, QueriesAndDeviceHandles) {
  dbuf<int> out(2);
  hipLaunchKernelGGL(query_kernel, dim3(1), dim3(kThreads), 0, 0, out.get());
  ASSERT_TRUE(synced());
  std::vector<int> o = out.read();
  EXPECT_EQ(o[0], me());
  EXPECT_EQ(o[1], npes());
  EXPECT_EQ(shmem_team_n_pes(SHMEM_DEVICE_TEAM_WORLD), npes());
  EXPECT_EQ(shmem_team_my_pe(SHMEM_DEVICE_TEAM_WORLD), me());
  // Within the node: the PEs whose GPU heaps this one reaches (all of the node's over p2p).
  EXPECT_LE(shmem_team_n_pes(SHMEM_DEVICE_TEAM_SHARED), shmem_team_n_pes(SHMEM_TEAM_SHARED));
  EXPECT_TRUE(SHMEM_DEVICE_CTX_DEFAULT == SHMEM_CTX_DEFAULT);
  shmem_barrier_all();
}

// shmemg_ptr (the draft's example programs use it): where the neighbour's GPU heap is reachable by
// loads and stores (p2p) a plain store lands there; elsewhere it is NULL and a put does the work.
// shmemg_team_ptr numbers the PE in a team, here SHMEM_DEVICE_TEAM_WORLD.
namespace {
__global__ void ptr_kernel(long* dest, int* direct, int peer) {
  long* r = (long*)shmemg_ptr(dest, peer);
  void* t = shmemg_team_ptr(SHMEM_DEVICE_TEAM_WORLD, dest, peer);
  direct[0] = r != nullptr;
  direct[1] = t == (void*)r;
  direct[2] = shmemg_ptr(dest, shmemg_my_pe()) == (void*)dest;  // its own heap: always
  direct[3] = shmemg_ptr(dest, shmemg_n_pes()) == nullptr;       // no such PE
  const long v = 1000 + shmemg_my_pe();
  if (r) {
    *r = v;
  } else {
    shmemg_putmem(dest, &v, sizeof v, peer);
    shmemg_quiet();
  }
}
}  // namespace

TEST(Shmemg, PtrStoresWhereReachable) {
  gsym<long> dest(1);
  dbuf<int> direct(4);
  shmem_barrier_all();
  hipLaunchKernelGGL(ptr_kernel, dim3(1), dim3(1), 0, 0, dest.get(), direct.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  const std::vector<int> d = direct.read();
  EXPECT_EQ(d[0] != 0, shmem_ptr(dest.get(), next_pe()) != nullptr) << "shmemg_ptr agrees with the host's shmem_ptr";
  EXPECT_EQ(d[1], 1) << "shmemg_team_ptr on SHMEM_DEVICE_TEAM_WORLD";
  EXPECT_EQ(d[2], 1) << "shmemg_ptr to this PE";
  EXPECT_EQ(d[3], 1) << "shmemg_ptr to PE n_pes";
  EXPECT_EQ(dest.read()[0], 1000 + prev_pe());
  shmem_barrier_all();
}
