// The local side of an RMA in memory the transport cannot address directly: a `__shared__` array,
// a thread-local (stack) array, and ordinary global memory from hipMalloc. Every RMA routine
// (putmem/getmem, their _nbi forms, typed put/get, p/g, putmem_signal and its _nbi form) at every
// scope (thread, wave, work-group), at sizes below and above the gda inline limit (28 B) and, for
// global memory, above the gda bounce buffer. Bytes are checked exactly, guards included.
//
// Why each matters: p2p on CUDA hands a one-thread copy of 512 B or more to the bulk-copy engine,
// which reads and writes only global memory (a shared or stack buffer killed the context); over
// gda a ConnectX reads only registered memory, so such a buffer travels inline or through the
// queue's bounce buffer (on the host platform the softnic could read it, but it must refuse to,
// as a ConnectX would, so these cases run the bounce path here too).
//
// A cooperative get into a thread-local array is left out: each lane would receive a different
// part of the data into its own private array, so the call has no meaning.
#include "gio_test.h"

using namespace giotest;

namespace {
enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };
enum local_kind { SHARED = 0, STACK = 1, GLOBAL = 2 };
const char* const kScopeName[] = {"thread", "wave", "work-group"};
const char* const kLocalName[] = {"__shared__", "stack", "global (hipMalloc)"};

// Puts (each writes its own region of the target) and gets (each lands in the local buffer and is
// then copied out to its own region of `results`).
enum put_op { P_MEM, P_MEM_NBI, P_TYPED, P_TYPED_NBI, P_SIGNAL, P_SIGNAL_NBI, P_P, P_COUNT };
enum get_op { G_MEM, G_MEM_NBI, G_TYPED, G_TYPED_NBI, G_G, G_COUNT };
const char* const kPutName[] = {"putmem", "putmem_nbi", "int_put", "int_put_nbi", "putmem_signal",
                                "putmem_signal_nbi", "int_p"};
const char* const kGetName[] = {"getmem", "getmem_nbi", "int_get", "int_get_nbi", "int_g"};

const unsigned kBlock = 64;
const size_t kSmallMax = 4096;  // the largest shared or stack case
const size_t kGuard = 64;
const size_t kPG = 16;          // int_p / int_g move this many ints (fewer if n is smaller)
// Larger than any bounce buffer GIO_GDA_BOUNCE_BYTES would sensibly give (16K by default), so the
// transfer needs several chunks; not a multiple of the chunk.
const size_t kBig = 3 * 65536 + 100;

struct args {
  uint8_t* dst;          // symmetric: P_COUNT regions of `stride`, written by the previous PE
  const uint8_t* src;    // symmetric: the pattern this PE exposes for gets
  uint8_t* results;      // global: G_COUNT regions of `stride`, what each get fetched
  uint8_t* gbuf;         // global, non-symmetric: the local buffer of GLOBAL cases
  uint64_t* sig;         // symmetric: one signal word per put routine
  size_t n, stride;
  int pe, me;
  unsigned salt;
  int scope, kind;
};

__device__ uint8_t pat(int pe, size_t i, unsigned salt) { return pattern(pe, i, salt); }

__device__ bool participates(int scope) {
  return scope == WG || (scope == WAVE && threadIdx.x < (unsigned)warpSize) || (scope == THREAD && threadIdx.x == 0);
}

// Fills this thread's view of the local buffer: every thread fills a private (stack) buffer
// whole; a shared or global one is filled by the work-group together.
__device__ void fill(const args& a, uint8_t* loc, bool priv, int pe, unsigned salt, bool poison) {
  const size_t step = priv ? 1 : blockDim.x;
  for (size_t i = priv ? 0 : threadIdx.x; i < a.n; i += step) loc[i] = poison ? (uint8_t)0xee : pat(pe, i, salt);
  __syncthreads();
}

__device__ void do_put(const args& a, int op, uint8_t* d, const uint8_t* s, uint64_t* sig) {
  const size_t n = a.n, ints = n / sizeof(int);
  const uint64_t sv = 1000 + a.me;
  if (a.scope == THREAD) {
    switch (op) {
      case P_MEM: shmem_putmem(d, s, n, a.pe); break;
      case P_MEM_NBI: shmem_putmem_nbi(d, s, n, a.pe); break;
      case P_TYPED: shmem_int_put((int*)d, (const int*)s, ints, a.pe); break;
      case P_TYPED_NBI: shmem_int_put_nbi((int*)d, (const int*)s, ints, a.pe); break;
      case P_SIGNAL: shmem_putmem_signal(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
      case P_SIGNAL_NBI: shmem_putmem_signal_nbi(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
      case P_P:
        for (size_t k = 0; k < ints && k < kPG; ++k) {
          int v;
          memcpy(&v, s + k * sizeof(int), sizeof v);
          shmem_int_p((int*)d + k, v, a.pe);
        }
        break;
    }
  } else if (a.scope == WAVE) {
    switch (op) {
      case P_MEM: shmemx_putmem_wave(d, s, n, a.pe); break;
      case P_MEM_NBI: shmemx_putmem_nbi_wave(d, s, n, a.pe); break;
      case P_TYPED: shmemx_int_put_wave((int*)d, (const int*)s, ints, a.pe); break;
      case P_TYPED_NBI: shmemx_int_put_nbi_wave((int*)d, (const int*)s, ints, a.pe); break;
      case P_SIGNAL: shmemx_putmem_signal_wave(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
      case P_SIGNAL_NBI: shmemx_putmem_signal_nbi_wave(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
    }
  } else {
    switch (op) {
      case P_MEM: shmemx_putmem_wg(d, s, n, a.pe); break;
      case P_MEM_NBI: shmemx_putmem_nbi_wg(d, s, n, a.pe); break;
      case P_TYPED: shmemx_int_put_wg((int*)d, (const int*)s, ints, a.pe); break;
      case P_TYPED_NBI: shmemx_int_put_nbi_wg((int*)d, (const int*)s, ints, a.pe); break;
      case P_SIGNAL: shmemx_putmem_signal_wg(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
      case P_SIGNAL_NBI: shmemx_putmem_signal_nbi_wg(d, s, n, sig, sv, SHMEM_SIGNAL_SET, a.pe); break;
    }
  }
}

__device__ void do_get(const args& a, int op, uint8_t* d, const uint8_t* s) {
  const size_t n = a.n, ints = n / sizeof(int);
  if (a.scope == THREAD) {
    switch (op) {
      case G_MEM: shmem_getmem(d, s, n, a.pe); break;
      case G_MEM_NBI: shmem_getmem_nbi(d, s, n, a.pe); break;
      case G_TYPED: shmem_int_get((int*)d, (const int*)s, ints, a.pe); break;
      case G_TYPED_NBI: shmem_int_get_nbi((int*)d, (const int*)s, ints, a.pe); break;
      case G_G:
        for (size_t k = 0; k < ints && k < kPG; ++k) {
          const int v = shmem_int_g((const int*)s + k, a.pe);
          memcpy(d + k * sizeof(int), &v, sizeof v);
        }
        break;
    }
  } else if (a.scope == WAVE) {
    switch (op) {
      case G_MEM: shmemx_getmem_wave(d, s, n, a.pe); break;
      case G_MEM_NBI: shmemx_getmem_nbi_wave(d, s, n, a.pe); break;
      case G_TYPED: shmemx_int_get_wave((int*)d, (const int*)s, ints, a.pe); break;
      case G_TYPED_NBI: shmemx_int_get_nbi_wave((int*)d, (const int*)s, ints, a.pe); break;
    }
  } else {
    switch (op) {
      case G_MEM: shmemx_getmem_wg(d, s, n, a.pe); break;
      case G_MEM_NBI: shmemx_getmem_nbi_wg(d, s, n, a.pe); break;
      case G_TYPED: shmemx_int_get_wg((int*)d, (const int*)s, ints, a.pe); break;
      case G_TYPED_NBI: shmemx_int_get_nbi_wg((int*)d, (const int*)s, ints, a.pe); break;
    }
  }
}

bool has_op(int scope, bool put, int op) { return scope == THREAD || (put ? op != P_P : op != G_G); }
__device__ bool d_has_op(int scope, bool put, int op) { return scope == THREAD || (put ? op != P_P : op != G_G); }

// Every put routine from the local buffer to the next PE, then every get from it into the local
// buffer (copied out to `results` after each). quiet after each call, so an _nbi source or
// destination is reusable.
__global__ void local_rma_kernel(args a) {
  alignas(16) __shared__ uint8_t sbuf[kSmallMax];
  alignas(16) uint8_t lbuf[kSmallMax];
  const bool priv = a.kind == STACK;
  uint8_t* loc = a.kind == SHARED ? sbuf : a.kind == STACK ? lbuf : a.gbuf;
  fill(a, loc, priv, a.me, a.salt, false);
  for (int op = 0; op < P_COUNT; ++op) {
    if (!d_has_op(a.scope, true, op)) continue;
    if (participates(a.scope)) do_put(a, op, a.dst + kGuard + op * a.stride, loc, a.sig + op);
    if (threadIdx.x == 0) shmem_quiet();
    __syncthreads();
  }
  // Gets into a private buffer only at thread scope (see the file comment).
  if (priv && a.scope != THREAD) return;
  for (int op = 0; op < G_COUNT; ++op) {
    if (!d_has_op(a.scope, false, op)) continue;
    fill(a, loc, priv, 0, 0, true);
    if (participates(a.scope)) do_get(a, op, loc, a.src + kGuard);
    if (threadIdx.x == 0) shmem_quiet();
    __syncthreads();
    uint8_t* out = a.results + op * a.stride;
    if (priv) {
      if (threadIdx.x == 0)
        for (size_t i = 0; i < a.n; ++i) out[i] = loc[i];
    } else {
      for (size_t i = threadIdx.x; i < a.n; i += blockDim.x) out[i] = loc[i];
    }
    __syncthreads();
  }
}

// How many bytes op `op` moves for n (p/g move a few ints only).
size_t moved(bool put, int op, size_t n) {
  if ((put && op == P_P) || (!put && op == G_G)) return std::min(n / sizeof(int), kPG) * sizeof(int);
  if ((put && (op == P_TYPED || op == P_TYPED_NBI)) || (!put && (op == G_TYPED || op == G_TYPED_NBI)))
    return n / sizeof(int) * sizeof(int);
  return n;
}

void run_case(int scope, int kind, size_t n, unsigned salt) {
  const size_t stride = (n + 2 * kGuard + 15) / 16 * 16;
  sym<uint8_t> dst(P_COUNT * stride + kGuard), src(n + 2 * kGuard);
  sym<uint64_t> sig(P_COUNT);
  dbuf<uint8_t> results(G_COUNT * stride), gbuf(kind == GLOBAL ? n : 1);
  std::vector<uint8_t> mine(n + 2 * kGuard, 0);
  for (size_t i = 0; i < n; ++i) mine[kGuard + i] = pattern(me(), i, salt + 1);
  src.write(mine);
  shmem_barrier_all();
  args a{dst.get(), src.get(), results.get(), gbuf.get(), sig.get(), n, stride, next_pe(), me(), salt, scope, kind};
  hipLaunchKernelGGL(local_rma_kernel, dim3(1), dim3(kBlock), 0, 0, a);
  ASSERT_TRUE(synced()) << kScopeName[scope] << " scope, " << kLocalName[kind] << " buffer, n=" << n;
  shmem_barrier_all();

  const std::vector<uint8_t> got = dst.read(), fetched = results.read();
  const std::vector<uint64_t> sigs = sig.read();
  for (int op = 0; op < P_COUNT; ++op) {
    const std::string what = std::string(kPutName[op]) + " at " + kScopeName[scope] + " scope from a " +
                             kLocalName[kind] + " buffer, n=" + std::to_string(n);
    const size_t m = has_op(scope, true, op) ? moved(true, op, n) : 0;
    size_t bad = 0, first = SIZE_MAX;
    for (size_t i = 0; i < stride; ++i) {  // the region and its guards (the next region's guard too)
      const size_t at = op * stride + i;
      const uint8_t want = i >= kGuard && i < kGuard + m ? pattern(prev_pe(), i - kGuard, salt) : 0;
      if (got[at] != want && bad++ == 0) first = i;
    }
    EXPECT_EQ(bad, 0u) << what << ": first wrong byte at region offset " << first;
    if ((op == P_SIGNAL || op == P_SIGNAL_NBI) && has_op(scope, true, op))
      EXPECT_EQ(sigs[op], 1000u + prev_pe()) << what << ": signal";
  }
  if (kind == STACK && scope != THREAD) return;
  for (int op = 0; op < G_COUNT; ++op) {
    if (!has_op(scope, false, op)) continue;
    const std::string what = std::string(kGetName[op]) + " at " + kScopeName[scope] + " scope into a " +
                             kLocalName[kind] + " buffer, n=" + std::to_string(n);
    const size_t m = moved(false, op, n);
    size_t bad = 0, first = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) {
      const uint8_t want = i < m ? pattern(next_pe(), i, salt + 1) : 0xee;
      if (fetched[op * stride + i] != want && bad++ == 0) first = i;
    }
    EXPECT_EQ(bad, 0u) << what << ": first wrong byte at " << first;
  }
}
}  // namespace

class LocalBuffers : public ::testing::TestWithParam<int> {};

TEST_P(LocalBuffers, SharedMemory) {
  unsigned salt = 10;
  for (size_t n : {8, 100, 4096}) run_case(GetParam(), SHARED, n, salt++);
}

TEST_P(LocalBuffers, StackMemory) {
  unsigned salt = 20;
  for (size_t n : {8, 100, 4096}) run_case(GetParam(), STACK, n, salt++);
}

TEST_P(LocalBuffers, GlobalNonSymmetricMemory) {
  unsigned salt = 30;
  for (size_t n : {(size_t)8, (size_t)100, (size_t)4096, kBig}) run_case(GetParam(), GLOBAL, n, salt++);
}

INSTANTIATE_TEST_SUITE_P(Scopes, LocalBuffers, ::testing::Values((int)THREAD, (int)WAVE, (int)WG),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::string(i.param == THREAD ? "Thread" : i.param == WAVE ? "Wave" : "WorkGroup");
                         });
