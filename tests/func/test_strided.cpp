// Strided RMA: iput/iget (typed and sized), ibput/ibget, and the subarray extension in 1, 2 and 3
// dimensions, from host code and from kernels at thread, wave and work-group scope, with the local
// side in the symmetric heap, in hipMalloc memory, in a __shared__ array and on the stack (host:
// heap and an ordinary host vector). Every PE puts to (or gets from) the next PE; the bytes landed
// are compared, all of them, with a reference computed here by plain nested loops over the
// routine's own arguments (not through GIO's shape analysis), so untouched bytes are checked too.
//
// The shapes cover: strides 1 and > 1 on each side, a source stride of 0 (repeats), element sizes
// 1 to 16, contiguous cases (one put after analysis), blocks of one word, of several words, and of
// hundreds of bytes (a whole scope per block on p2p), non-unit innermost subarray strides, and
// nelems 0 (nothing moves).
#include <functional>

#include "gio_test.h"

using namespace giotest;

namespace {
enum api_kind { IPUT, IBPUT, SUB };  // the routine family; each has a put and a get
enum scope_kind { HOST = 0, THREAD, WAVE, WG };
enum local_kind { HEAP = 0, GLOBAL, SHARED, STACK, HOSTMEM };
const char* const kScope[] = {"host", "thread", "wave", "work-group"};
const char* const kLocal[] = {"heap", "global", "__shared__", "stack", "host memory"};

const size_t kBuf = 16384;    // every remote region and heap/global local buffer
const size_t kSmall = 4096;   // __shared__ and stack local buffers
const unsigned kBlock = 64;

// One case, in the routine's own terms (elements): iput uses count[0], dst[0], src[0]; ibput
// count[0] = bsize, count[1] = nblocks, dst[1], src[1] (dst[0] = src[0] = 1); subarrays all.
struct shape_case {
  int api;
  size_t elem;
  int ndims;
  size_t count[3];
  ptrdiff_t dst[3], src[3];
};

const shape_case kCases[] = {
    {IPUT, 4, 1, {100, 1, 1}, {3, 0, 0}, {1, 0, 0}},
    {IPUT, 8, 1, {64, 1, 1}, {1, 0, 0}, {5, 0, 0}},
    {IPUT, 1, 1, {77, 1, 1}, {2, 0, 0}, {3, 0, 0}},
    {IPUT, 16, 1, {33, 1, 1}, {2, 0, 0}, {2, 0, 0}},
    {IPUT, 2, 1, {50, 1, 1}, {1, 0, 0}, {1, 0, 0}},
    {IPUT, 4, 1, {20, 1, 1}, {2, 0, 0}, {0, 0, 0}},
    {IPUT, 8, 1, {0, 1, 1}, {2, 0, 0}, {2, 0, 0}},
    {IBPUT, 4, 2, {5, 20, 1}, {1, 7, 0}, {1, 5, 0}},
    {IBPUT, 8, 2, {3, 9, 1}, {1, 3, 0}, {1, 4, 0}},
    {IBPUT, 1, 2, {40, 10, 1}, {1, 64, 0}, {1, 50, 0}},
    {IBPUT, 2, 2, {6, 11, 1}, {1, 6, 0}, {1, 6, 0}},
    {SUB, 4, 2, {5, 7, 1}, {1, 16, 0}, {1, 5, 0}},
    {SUB, 1, 3, {3, 4, 5}, {1, 8, 40}, {1, 3, 12}},
    {SUB, 8, 3, {2, 3, 4}, {2, 5, 20}, {1, 2, 6}},
    {SUB, 1, 3, {1000, 2, 2}, {1, 1100, 2300}, {1, 1000, 2000}},
    {SUB, 16, 1, {9, 1, 1}, {3, 0, 0}, {1, 0, 0}},
    {SUB, 2, 2, {1, 64, 1}, {1, 3, 0}, {1, 2, 0}},
};

// Strides per dimension in the subarray form every case can be written as.
void as_subarray(const shape_case& c, size_t count[3], ptrdiff_t ds[3], ptrdiff_t ss[3], int& nd) {
  for (int i = 0; i < 3; ++i) count[i] = c.count[i], ds[i] = c.dst[i], ss[i] = c.src[i];
  nd = c.ndims;
}

// The reference: dst gets src's elements at the case's offsets, by plain loops.
void reference(const shape_case& c, uint8_t* dst, const uint8_t* src) {
  size_t count[3];
  ptrdiff_t ds[3], ss[3];
  int nd;
  as_subarray(c, count, ds, ss, nd);
  for (int i = nd; i < 3; ++i) count[i] = 1, ds[i] = ss[i] = 0;
  for (size_t i2 = 0; i2 < count[2]; ++i2)
    for (size_t i1 = 0; i1 < count[1]; ++i1)
      for (size_t i0 = 0; i0 < count[0]; ++i0) {
        const size_t d = (i0 * ds[0] + i1 * ds[1] + i2 * ds[2]) * c.elem;
        const size_t s = (i0 * ss[0] + i1 * ss[1] + i2 * ss[2]) * c.elem;
        memcpy(dst + d, src + s, c.elem);
      }
}
size_t extent(const shape_case& c, bool dst_side) {
  size_t e = 1;
  for (int i = 0; i < c.ndims; ++i) {
    if (c.count[i] == 0) return 0;
    e += (c.count[i] - 1) * (size_t)(dst_side ? c.dst[i] : c.src[i]);
  }
  return e * c.elem;
}

#define GIO_T_ARGS                                                   \
  size_t cnt[3];                                                     \
  ptrdiff_t ds[3], ss[3];                                            \
  for (int i = 0; i < 3; ++i) cnt[i] = c.count[i], ds[i] = c.dst[i], ss[i] = c.src[i]; \
  const size_t n = c.count[0];

// The routine for case c at thread scope (host or kernel); d and s as the routine takes them.
GIO_HOST_DEVICE_INLINE void call_thread(const shape_case& c, bool put, void* d, const void* s, int pe) {
  GIO_T_ARGS
  {
    if (c.api == IPUT) {
      // Typed forms for 4 and 8 bytes (ctx form for one), sized forms for the rest.
      if (c.elem == 4 && put) shmem_int_iput((int*)d, (const int*)s, ds[0], ss[0], n, pe);
      else if (c.elem == 4) shmem_int_iget((int*)d, (const int*)s, ds[0], ss[0], n, pe);
      else if (c.elem == 8 && put) shmem_ctx_double_iput(SHMEM_CTX_DEFAULT, (double*)d, (const double*)s, ds[0], ss[0], n, pe);
      else if (c.elem == 8) shmem_ctx_double_iget(SHMEM_CTX_DEFAULT, (double*)d, (const double*)s, ds[0], ss[0], n, pe);
      else if (c.elem == 1 && put) shmem_iput8(d, s, ds[0], ss[0], n, pe);
      else if (c.elem == 1) shmem_iget8(d, s, ds[0], ss[0], n, pe);
      else if (c.elem == 2 && put) shmem_iput16(d, s, ds[0], ss[0], n, pe);
      else if (c.elem == 2) shmem_iget16(d, s, ds[0], ss[0], n, pe);
      else if (put) shmem_iput128(d, s, ds[0], ss[0], n, pe);
      else shmem_iget128(d, s, ds[0], ss[0], n, pe);
    } else if (c.api == IBPUT) {
      if (c.elem == 4 && put) shmem_int_ibput((int*)d, (const int*)s, ds[1], ss[1], n, cnt[1], pe);
      else if (c.elem == 4) shmem_int_ibget((int*)d, (const int*)s, ds[1], ss[1], n, cnt[1], pe);
      else if (c.elem == 8 && put) shmem_ibput64(d, s, ds[1], ss[1], n, cnt[1], pe);
      else if (c.elem == 8) shmem_ibget64(d, s, ds[1], ss[1], n, cnt[1], pe);
      else if (c.elem == 2 && put) shmem_short_ibput((short*)d, (const short*)s, ds[1], ss[1], n, cnt[1], pe);
      else if (c.elem == 2) shmem_short_ibget((short*)d, (const short*)s, ds[1], ss[1], n, cnt[1], pe);
      else if (put) shmem_uint8_ibput((uint8_t*)d, (const uint8_t*)s, ds[1], ss[1], n, cnt[1], pe);
      else shmem_uint8_ibget((uint8_t*)d, (const uint8_t*)s, ds[1], ss[1], n, cnt[1], pe);
    } else if (c.elem == 4 && put) {
      shmemx_int_put_subarray((int*)d, ds, (const int*)s, ss, cnt, c.ndims, pe);
    } else if (c.elem == 4) {
      shmemx_int_get_subarray((int*)d, ds, (const int*)s, ss, cnt, c.ndims, pe);
    } else if (put) {
      shmemx_putmem_subarray(d, ds, s, ss, cnt, c.ndims, c.elem, pe);
    } else {
      shmemx_getmem_subarray(d, ds, s, ss, cnt, c.ndims, c.elem, pe);
    }
  }
}

// ... and its cooperative forms (kernels).
__device__ void call_scoped(const shape_case& c, bool put, int scope, void* d, const void* s, int pe) {
  GIO_T_ARGS
#define GIO_T_SCOPED(SFX)                                                                                       \
  if (c.api == IPUT) {                                                                                          \
    if (c.elem == 4 && put) shmemx_int_iput##SFX((int*)d, (const int*)s, ds[0], ss[0], n, pe);                  \
    else if (c.elem == 4) shmemx_int_iget##SFX((int*)d, (const int*)s, ds[0], ss[0], n, pe);                    \
    else if (c.elem == 8 && put) shmemx_double_iput##SFX((double*)d, (const double*)s, ds[0], ss[0], n, pe);    \
    else if (c.elem == 8) shmemx_double_iget##SFX((double*)d, (const double*)s, ds[0], ss[0], n, pe);           \
    else if (c.elem == 1 && put) shmemx_iput8##SFX(d, s, ds[0], ss[0], n, pe);                                  \
    else if (c.elem == 1) shmemx_iget8##SFX(d, s, ds[0], ss[0], n, pe);                                         \
    else if (c.elem == 2 && put) shmemx_iput16##SFX(d, s, ds[0], ss[0], n, pe);                                 \
    else if (c.elem == 2) shmemx_iget16##SFX(d, s, ds[0], ss[0], n, pe);                                        \
    else if (put) shmemx_iput128##SFX(d, s, ds[0], ss[0], n, pe);                                               \
    else shmemx_iget128##SFX(d, s, ds[0], ss[0], n, pe);                                                        \
  } else if (c.api == IBPUT) {                                                                                  \
    if (c.elem == 4 && put) shmemx_int_ibput##SFX((int*)d, (const int*)s, ds[1], ss[1], n, cnt[1], pe);         \
    else if (c.elem == 4) shmemx_int_ibget##SFX((int*)d, (const int*)s, ds[1], ss[1], n, cnt[1], pe);           \
    else if (c.elem == 8 && put) shmemx_long_ibput##SFX((long*)d, (const long*)s, ds[1], ss[1], n, cnt[1], pe); \
    else if (c.elem == 8) shmemx_long_ibget##SFX((long*)d, (const long*)s, ds[1], ss[1], n, cnt[1], pe);        \
    else if (c.elem == 2 && put) shmemx_short_ibput##SFX((short*)d, (const short*)s, ds[1], ss[1], n, cnt[1], pe); \
    else if (c.elem == 2) shmemx_short_ibget##SFX((short*)d, (const short*)s, ds[1], ss[1], n, cnt[1], pe);     \
    else if (put) shmemx_uint8_ibput##SFX((uint8_t*)d, (const uint8_t*)s, ds[1], ss[1], n, cnt[1], pe);         \
    else shmemx_uint8_ibget##SFX((uint8_t*)d, (const uint8_t*)s, ds[1], ss[1], n, cnt[1], pe);                  \
  } else if (c.elem == 4 && put) {                                                                              \
    shmemx_int_put_subarray##SFX((int*)d, ds, (const int*)s, ss, cnt, c.ndims, pe);                             \
  } else if (c.elem == 4) {                                                                                     \
    shmemx_int_get_subarray##SFX((int*)d, ds, (const int*)s, ss, cnt, c.ndims, pe);                             \
  } else if (put) {                                                                                             \
    shmemx_putmem_subarray##SFX(d, ds, s, ss, cnt, c.ndims, c.elem, pe);                                        \
  } else {                                                                                                      \
    shmemx_getmem_subarray##SFX(d, ds, s, ss, cnt, c.ndims, c.elem, pe);                                        \
  }
  if (scope == WAVE) {
    GIO_T_SCOPED(_wave)
  } else {
    GIO_T_SCOPED(_wg)
  }
#undef GIO_T_SCOPED
}

struct kargs {
  shape_case c;
  bool put;
  int scope, kind, pe, me;
  uint8_t* remote;  // symmetric
  uint8_t* local;   // HEAP or GLOBAL
  uint8_t* out;     // global: what a get into __shared__ or stack memory fetched
};

__device__ bool participates(int scope) {
  return scope == WG || (scope == WAVE && threadIdx.x < (unsigned)warpSize) || (scope == THREAD && threadIdx.x == 0);
}

// A launch runs a batch of cases, one work-group each, each with regions of its own.
__global__ void strided_kernel(const kargs* as) {
  const kargs a = as[blockIdx.x];
  __shared__ uint8_t sh[kSmall];
  uint8_t stack[kSmall];
  uint8_t* loc = a.kind == SHARED ? sh : a.kind == STACK ? stack : a.local;
  if (a.kind == STACK) {
    for (size_t i = 0; i < kSmall; ++i) stack[i] = a.put ? pattern(a.me, i) : 0;
  } else if (a.kind == SHARED) {
    for (size_t i = threadIdx.x; i < kSmall; i += blockDim.x) sh[i] = a.put ? pattern(a.me, i) : 0;
  }
  __syncthreads();
  if (participates(a.scope)) {
    void* d = a.put ? (void*)a.remote : (void*)loc;
    const void* s = a.put ? (const void*)loc : (const void*)a.remote;
    if (a.scope == THREAD)
      call_thread(a.c, a.put, d, s, a.pe);
    else
      call_scoped(a.c, a.put, a.scope, d, s, a.pe);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    if (!a.put && (a.kind == SHARED || a.kind == STACK))
      for (size_t i = 0; i < kSmall; ++i) a.out[i] = loc[i];
    shmem_quiet();
  }
}

std::vector<uint8_t> pattern_of(int pe, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = pattern(pe, i);
  return v;
}

// The pattern of `pe` in each of `regions` regions of kBuf bytes.
std::vector<uint8_t> patterns_of(int pe, size_t regions) {
  const std::vector<uint8_t> one = pattern_of(pe, kBuf);
  std::vector<uint8_t> v;
  for (size_t r = 0; r < regions; ++r) v.insert(v.end(), one.begin(), one.end());
  return v;
}

std::string describe(const shape_case& c, bool put, int scope, int kind) {
  char b[256];
  snprintf(b, sizeof b, "%s %s, elem %zu, counts {%zu,%zu,%zu}, dst strides {%td,%td,%td}, src strides {%td,%td,%td}, %s scope, local %s",
           c.api == IPUT ? "iput" : c.api == IBPUT ? "ibput" : "subarray", put ? "put" : "get", c.elem, c.count[0],
           c.count[1], c.count[2], c.dst[0], c.dst[1], c.dst[2], c.src[0], c.src[1], c.src[2], kScope[scope], kLocal[kind]);
  return b;
}

const size_t kCaseCount = sizeof kCases / sizeof kCases[0];

// Every case of a direction, scope and local kind runs in one batch, each with a region of kBuf
// bytes of every buffer (kSmall of `out`): one launch (a work-group per case) or, from the host,
// one call after another, between one pair of barriers. A launch, a synchronize and two barriers
// per case cost most of the time where PEs share a GPU (each waits for the other PEs' kernels'
// time slices), and the cases of a batch overlap their round trips to the proxy or the softnic.
class Strided : public ::testing::Test {
 protected:
  sym<uint8_t> remote{kCaseCount * kBuf};
  sym<uint8_t> heap_local{kCaseCount * kBuf};
  dbuf<uint8_t> global_local{kCaseCount * kBuf};
  dbuf<uint8_t> out{kCaseCount * kSmall};

  // Runs the batch on every PE (collective) and checks what landed, case by case.
  void run(const std::vector<shape_case>& cs, bool put, int scope, int kind) {
    const size_t lsize = (kind == SHARED || kind == STACK) ? kSmall : kBuf, k = cs.size();
    const int peer = next_pe();
    std::vector<uint8_t> host_local(k * kBuf);
    // Before: the destination all zeros, the source the pattern of its owner.
    if (put) {
      remote.fill_bytes(0);
      host_local = patterns_of(me(), k);
      heap_local.write(host_local);
      global_local.write(host_local);
    } else {
      remote.write(patterns_of(me(), k));
      heap_local.fill_bytes(0);
      global_local.fill_bytes(0);
    }
    shmem_barrier_all();
    uint8_t* local = kind == HEAP ? heap_local.get() : kind == GLOBAL ? global_local.get() : host_local.data();
    if (scope == HOST) {
      for (size_t j = 0; j < k; ++j) {
        if (put)
          call_thread(cs[j], true, remote.get() + j * kBuf, local + j * kBuf, peer);
        else
          call_thread(cs[j], false, local + j * kBuf, remote.get() + j * kBuf, peer);
      }
    } else {
      std::vector<kargs> as;
      for (size_t j = 0; j < k; ++j)
        as.push_back({cs[j], put, scope, kind, peer, me(), remote.get() + j * kBuf, local + j * kBuf,
                      out.get() + j * kSmall});
      dbuf<kargs> das(k);
      das.write(as);
      hipLaunchKernelGGL(strided_kernel, dim3((unsigned)k), dim3(kBlock), 0, 0, das.get());
      ASSERT_TRUE(synced());
    }
    shmem_barrier_all();
    // After: put -> my remote regions hold what the previous PE sent; get -> my local regions
    // hold the next PE's bytes. Both against the reference, every byte.
    std::vector<uint8_t> all;
    if (put)
      all = remote.read();
    else
      all = kind == HEAP ? heap_local.read() : kind == GLOBAL ? global_local.read() : kind == HOSTMEM ? host_local : out.read();
    const std::vector<uint8_t> theirs = pattern_of(put ? prev_pe() : next_pe(), kBuf);
    for (size_t j = 0; j < k; ++j) {
      const size_t region = put || kind == HEAP || kind == GLOBAL || kind == HOSTMEM ? kBuf : kSmall;
      const uint8_t* got = all.data() + j * region;
      std::vector<uint8_t> want(put ? kBuf : lsize, 0);
      reference(cs[j], want.data(), theirs.data());
      for (size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i]) {
          ADD_FAILURE() << describe(cs[j], put, scope, kind) << ": byte " << i << ": got " << (int)got[i] << ", want "
                        << (int)want[i];
          break;
        }
    }
  }

  void run_all(int scope, std::vector<int> kinds) {
    for (int put = 1; put >= 0; --put)
      for (int kind : kinds) {
        std::vector<shape_case> cs;
        for (const shape_case& c : kCases) {
          const size_t local_extent = extent(c, !put);
          if ((kind == SHARED || kind == STACK) && local_extent > kSmall) continue;
          // A cooperative get into per-lane stack arrays has no meaning (each lane would get its own copy).
          if (!put && kind == STACK && scope != THREAD) continue;
          cs.push_back(c);
        }
        if (!cs.empty()) run(cs, put, scope, kind);
        if (HasFailure()) return;
      }
  }
};

TEST_F(Strided, Host) { run_all(HOST, {HEAP, HOSTMEM}); }
TEST_F(Strided, Thread) { run_all(THREAD, {HEAP, GLOBAL, SHARED, STACK}); }
TEST_F(Strided, Wave) { run_all(WAVE, {HEAP, GLOBAL, SHARED, STACK}); }
TEST_F(Strided, WorkGroup) { run_all(WG, {HEAP, GLOBAL, SHARED, STACK}); }

// The analysis: contiguous shapes collapse to one block, touching dimensions merge.
TEST(StridedShape, Simplify) {
  gio_strided_shape s = gio::shape_blocks_of(1, 1, 1, 100, 4);  // iput of stride 1: one 400-byte block
  gio::shape_simplify(s);
  EXPECT_EQ(s.dims, 0);
  EXPECT_EQ(s.block, 400u);
  const size_t counts[3] = {8, 5, 3};
  const ptrdiff_t rows[3] = {1, 8, 40}, padded[3] = {1, 10, 50}, skewed[3] = {1, 10, 60};
  s = gio::shape_subarray(rows, rows, counts, 3, 2);  // a whole cube on both sides: one block
  gio::shape_simplify(s);
  EXPECT_EQ(s.dims, 0);
  EXPECT_EQ(s.block, 240u);
  s = gio::shape_subarray(padded, rows, counts, 3, 2);  // padded rows; planes tile rows on both sides
  gio::shape_simplify(s);
  EXPECT_EQ(s.block, 16u);
  EXPECT_EQ(s.dims, 1);
  EXPECT_EQ(s.count[0], 15u);
  s = gio::shape_subarray(skewed, rows, counts, 3, 2);  // planes do not tile rows at the destination
  gio::shape_simplify(s);
  EXPECT_EQ(s.block, 16u);
  EXPECT_EQ(s.dims, 2);
}

}  // namespace

// The generic names (C++ templates over the RMA types; shmem_iput in C is _Generic) reach the typed
// routines: every PE iputs every other element of its values into the next PE, which ibgets them
// back as two blocks.
TEST(StridedGeneric, HostIputIgetIbputIbget) {
  const int next = (me() + 1) % npes(), prev = (me() + npes() - 1) % npes();
  double* a = (double*)shmem_calloc(32, sizeof(double));
  std::vector<double> src(8);
  for (int k = 0; k < 8; ++k) src[k] = me() * 100 + k;
  shmem_iput(a, src.data(), 2, 1, 8, next);  // a[2k] = src[k] on next
  shmem_barrier_all();
  std::vector<double> got(16, -1.0);
  shmem_iget(SHMEM_CTX_DEFAULT, got.data(), a, 1, 2, 8, me());  // got[k] = my a[2k]
  for (int k = 0; k < 8; ++k) EXPECT_EQ(got[k], prev * 100 + k) << "element " << k;
  shmem_ibput(a + 16, src.data(), 8, 4, 4, 2, next);  // blocks src[0..3], src[4..7] at a[16], a[24]
  shmem_barrier_all();
  std::vector<double> blocks(8, -1.0);
  shmem_ibget(blocks.data(), a + 16, 4, 8, 4, 2, me());
  for (int k = 0; k < 8; ++k) EXPECT_EQ(blocks[k], prev * 100 + k) << "element " << k;
  shmem_barrier_all();
  shmem_free(a);
}

// long double (host code only): every PE moves its values into the next PE with each strided put
// (typed, ctx, generic, generic ctx; single elements and blocks), then gets them back from there
// with the matching get. a's regions: [0, 16) even slots, [0, 8) odd ones, [16, 28), [32, 48),
// [48, 64), each region's gaps untouched.
TEST(StridedLongDouble, HostTypedCtxAndGeneric) {
  typedef long double LD;
  ASSERT_TRUE(ld_beyond_double());
  const int next = (me() + 1) % npes();
  const shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  LD* a = (LD*)shmem_calloc(64, sizeof(LD));
  std::vector<LD> src(8);
  for (int k = 0; k < 8; ++k) src[k] = ld_value(me(), k);
  shmem_longdouble_iput(a, src.data(), 2, 1, 8, next);                 // a[2k] = src[k]
  shmem_ctx_longdouble_iput(c, a + 1, src.data(), 2, 1, 4, next);      // a[1 + 2k] = src[k], k < 4
  shmem_iput(a + 16, src.data(), 3, 1, 4, next);                       // a[16 + 3k] = src[k], k < 4
  shmem_longdouble_ibput(a + 32, src.data(), 8, 4, 4, 2, next);        // a[32..35], a[40..43]
  shmem_ctx_longdouble_ibput(c, a + 48, src.data(), 4, 4, 2, 2, next);  // a[48, 49], a[52, 53]
  shmem_ibput(c, a + 56, src.data(), 4, 4, 2, 2, next);                // a[56, 57], a[60, 61]
  shmem_barrier_all();
  // What each get reads back from the next PE, into the slot of `got` that matches src's index.
  struct check {
    const char* what;
    std::function<void(LD*)> get;
    std::vector<int> ks;  // the indices of src it returns, in order
  };
  const std::vector<check> checks = {
      {"longdouble_iget", [&](LD* g) { shmem_longdouble_iget(g, a, 1, 2, 8, next); }, {0, 1, 2, 3, 4, 5, 6, 7}},
      {"ctx_longdouble_iget", [&](LD* g) { shmem_ctx_longdouble_iget(c, g, a + 1, 1, 2, 4, next); }, {0, 1, 2, 3}},
      {"iget", [&](LD* g) { shmem_iget(g, a + 16, 1, 3, 4, next); }, {0, 1, 2, 3}},
      {"iget(ctx)", [&](LD* g) { shmem_iget(c, g, a + 16, 1, 3, 4, next); }, {0, 1, 2, 3}},
      {"longdouble_ibget", [&](LD* g) { shmem_longdouble_ibget(g, a + 32, 4, 8, 4, 2, next); },
       {0, 1, 2, 3, 4, 5, 6, 7}},
      {"ctx_longdouble_ibget", [&](LD* g) { shmem_ctx_longdouble_ibget(c, g, a + 48, 2, 4, 2, 2, next); },
       {0, 1, 4, 5}},
      {"ibget", [&](LD* g) { shmem_ibget(g, a + 56, 2, 4, 2, 2, next); }, {0, 1, 4, 5}},
      // The gaps: the strided puts wrote nothing between their elements and blocks.
      {"gaps", [&](LD* g) { shmem_longdouble_iget(g, a + 9, 1, 2, 3, next); }, {-1, -1, -1}},
      {"block gap", [&](LD* g) { shmem_longdouble_get(g, a + 36, 4, next); }, {-1, -1, -1, -1}},
  };
  for (const check& ch : checks) {
    std::vector<LD> got(8, -1.0L);
    ch.get(got.data());
    for (size_t i = 0; i < ch.ks.size(); ++i)
      EXPECT_EQ(got[i], ch.ks[i] < 0 ? 0.0L : ld_value(me(), ch.ks[i])) << ch.what << ", element " << i;
  }
  shmem_barrier_all();
  shmem_free(a);
}
