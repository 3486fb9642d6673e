// RMA over every scope: putmem/getmem (+_nbi) at thread, wave and work-group scope, 1 B to 4 MiB,
// aligned and unaligned; typed put/get/p/g for every standard RMA type (long double from host code
// only); sized put/get; host-side RMA. Bytes are verified exactly, including the guard bytes around
// each destination.
#include <algorithm>
#include <functional>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {
enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };

// Wave scope: the first wave of the work-group calls, or with last_wave its last one (fewer lanes
// when the work-group size is not a multiple of the wave size).
__global__ void rma_kernel(int scope, bool get, bool nbi, uint8_t* dst, const uint8_t* src, size_t n, int pe,
                           bool last_wave) {
  if (scope == THREAD) {
    if (threadIdx.x == 0) {
      if (get)
        nbi ? shmem_getmem_nbi(dst, src, n, pe) : shmem_getmem(dst, src, n, pe);
      else
        nbi ? shmem_putmem_nbi(dst, src, n, pe) : shmem_putmem(dst, src, n, pe);
      shmem_quiet();
    }
  } else if (scope == WAVE) {
    const unsigned wave = last_wave ? (blockDim.x - 1) / (unsigned)warpSize : 0;
    if (threadIdx.x / (unsigned)warpSize == wave) {  // exactly that wave
      if (get)
        nbi ? shmemx_getmem_nbi_wave(dst, src, n, pe) : shmemx_getmem_wave(dst, src, n, pe);
      else
        nbi ? shmemx_putmem_nbi_wave(dst, src, n, pe) : shmemx_putmem_wave(dst, src, n, pe);
      if (threadIdx.x % (unsigned)warpSize == 0) shmem_quiet();
    }
  } else {
    if (get)
      nbi ? shmemx_getmem_nbi_wg(dst, src, n, pe) : shmemx_getmem_wg(dst, src, n, pe);
    else
      nbi ? shmemx_putmem_nbi_wg(dst, src, n, pe) : shmemx_putmem_wg(dst, src, n, pe);
    if (threadIdx.x == 0) shmem_quiet();
  }
}

const size_t kGuard = 64;
const size_t kMax = rma_sizes().back() + 2 * kGuard;  // the largest transfer and its guards

// One put or get of n bytes between offsets; checks the destination and its guards. Only a window
// of the buffers is written and checked: the transfer with its offsets, the guard before it and
// kGuard + 4 KiB after it (a copy running past its end by a whole chunk shows there). Filling and
// checking all of kMax for each of the small sizes took most of this test's time on the host.
void check_transfer(int scope, bool get, bool nbi, size_t n, size_t src_off, size_t dst_off,
                    const sym<uint8_t>& symbuf, const dbuf<uint8_t>& local, unsigned salt, unsigned block = 128,
                    bool last_wave = false) {
  const size_t w = std::min(kMax, kGuard + std::max(src_off, dst_off) + n + kGuard + 4096);
  std::vector<uint8_t> src(w);
  for (size_t i = 0; i < w; ++i) src[i] = pattern(me(), i, salt);
  const std::vector<uint8_t> zero(w, 0);
  // Put: local source -> next PE's symbuf. Get: every PE exposes its pattern; we fetch the next PE's.
  HIP_OK(hipMemcpy(get ? (void*)symbuf.get() : (void*)local.get(), src.data(), w, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(get ? (void*)local.get() : (void*)symbuf.get(), zero.data(), w, hipMemcpyHostToDevice));
  shmem_barrier_all();
  uint8_t* dst = (get ? local.get() : symbuf.get()) + kGuard + dst_off;
  const uint8_t* s = (get ? symbuf.get() : local.get()) + kGuard + src_off;
  hipLaunchKernelGGL(rma_kernel, dim3(1), dim3(block), 0, 0, scope, get, nbi, dst, s, n, next_pe(), last_wave);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> got(w);
  HIP_OK(hipMemcpy(got.data(), get ? (void*)local.get() : (void*)symbuf.get(), w, hipMemcpyDeviceToHost));
  const int from = get ? next_pe() : prev_pe();
  size_t bad = 0, first_bad = SIZE_MAX;
  for (size_t i = 0; i < w; ++i) {
    const bool inside = i >= kGuard + dst_off && i < kGuard + dst_off + n;
    const uint8_t want = inside ? pattern(from, i - dst_off + src_off, salt) : 0;
    if (got[i] != want) {
      ++bad;
      if (first_bad == SIZE_MAX) first_bad = i;
    }
  }
  EXPECT_EQ(bad, 0u) << (get ? "get" : "put") << (nbi ? "_nbi" : "") << " scope " << scope << " n=" << n
                     << " src_off=" << src_off << " dst_off=" << dst_off << " block " << block << (last_wave ? " last wave" : "")
                     << " first bad byte at " << first_bad
                     << " (window " << w << " bytes)";
}
}  // namespace

class RmaScopes : public ::testing::TestWithParam<int> {};

TEST_P(RmaScopes, PutAllSizesAlignedAndUnaligned) {
  sym<uint8_t> symbuf(kMax);
  dbuf<uint8_t> local(kMax);
  unsigned salt = 1;
  for (size_t n : rma_sizes())
    for (auto offs : {std::make_pair(0, 0), std::make_pair(3, 3), std::make_pair(1, 6), std::make_pair(8, 0),
                      std::make_pair(8, 8)}) {  // (8, 8): an 8-byte head before 16-byte words
      const bool nbi = (salt & 1) != 0;  // alternate blocking and _nbi
      check_transfer(GetParam(), false, nbi, n, offs.first, offs.second, symbuf, local, salt++);
    }
}

TEST_P(RmaScopes, GetAllSizesAlignedAndUnaligned) {
  sym<uint8_t> symbuf(kMax);
  dbuf<uint8_t> local(kMax);
  unsigned salt = 3;
  for (size_t n : rma_sizes())
    for (auto offs : {std::make_pair(0, 0), std::make_pair(5, 5), std::make_pair(2, 9), std::make_pair(0, 4),
                      std::make_pair(6, 6)}) {
      const bool nbi = (salt & 1) != 0;  // alternate blocking and _nbi
      check_transfer(GetParam(), true, nbi, n, offs.first, offs.second, symbuf, local, salt++);
    }
}

// A small cooperative put or get over p2p moves one word per lane inline (device/core/copy.h
// copy_lane_word), the widest word that divides both addresses and n; past lanes words it takes the
// general copy. Sizes on both sides of
// each multiple of lanes x word up to five, for each word width, in a work-group of 48 threads: a
// work-group that is not a whole number of waves, and at wave scope its last wave (16 lanes).
TEST(RmaCooperative, WordsPerLaneBounds) {
  const unsigned block = 48, wave_lanes = 16;  // (on 64-lane waves: one wave of 48)
  sym<uint8_t> symbuf(kMax);
  dbuf<uint8_t> local(kMax);
  unsigned salt = 5;
  for (int scope : {WAVE, WG}) {
    const size_t lanes = scope == WAVE ? wave_lanes : block;
    for (size_t w : {16, 8, 4, 2, 1})
      for (size_t k : {1, 2, 4, 5})
        for (size_t n : {w, k * lanes * w - w, k * lanes * w, k * lanes * w + w, k * lanes * w + 1})
          for (bool get : {false, true}) {
            const bool nbi = (salt & 1) != 0;
            // Offsets of w (both sides) keep w as the widest common word unless n says less.
            check_transfer(scope, get, nbi, n, w % 16, w % 16, symbuf, local, salt++, block, scope == WAVE);
          }
  }
}

// Every size from 1 byte to past a wave's inline limit (device/core/copy.h copy_lane_words: up to
// scope_wave::inline_words words per lane, 2 KiB for 32 lanes of 16-byte words), each to its own
// slot of one buffer, in one kernel per case: sizes just under, at and over every multiple of
// lanes x word, with the lanes of a full wave, of a partial last wave (16 lanes) and of work-groups
// of 48 and 256 threads, at offsets that keep 16-, 8-, 4-, 2- and 1-byte words.
__global__ void sweep_kernel(int scope, bool get, bool nbi, uint8_t* dst, const uint8_t* src, size_t first,
                             size_t last, size_t stride, int pe, bool last_wave) {
  const unsigned wave = last_wave ? (blockDim.x - 1) / (unsigned)warpSize : 0;
  if (scope == WAVE && threadIdx.x / (unsigned)warpSize != wave) return;
  for (size_t n = first; n <= last; ++n) {
    uint8_t* d = dst + (n - first) * stride;
    if (scope == WAVE) {
      if (get)
        nbi ? shmemx_getmem_nbi_wave(d, src, n, pe) : shmemx_getmem_wave(d, src, n, pe);
      else
        nbi ? shmemx_putmem_nbi_wave(d, src, n, pe) : shmemx_putmem_wave(d, src, n, pe);
    } else {
      if (get)
        nbi ? shmemx_getmem_nbi_wg(d, src, n, pe) : shmemx_getmem_wg(d, src, n, pe);
      else
        nbi ? shmemx_putmem_nbi_wg(d, src, n, pe) : shmemx_putmem_wg(d, src, n, pe);
    }
  }
  if (threadIdx.x % (unsigned)warpSize == 0) shmem_quiet();
}

// (All-p2p jobs only: the inline copy is p2p's, and over gda or the proxy the sweep took 27 s and more.)
TEST(RmaCooperative, EverySizeAcrossTheInlineLimits) {
  // Every PE must take the same branch (the buffers below are collective allocations): all peers
  // over p2p is one node, the same answer on every PE; the next PE alone is not (two nodes).
  for (int p = 0; p < npes(); ++p)
    if (std::string(shmemx_transport_name(p)) != "p2p") GTEST_SKIP() << "PE " << p << " is not reached over p2p";
  const size_t first = 1, last = 2048 + 80, stride = last + 48, slots = last - first + 1;
  const size_t span = slots * stride;
  sym<uint8_t> symbuf(span);
  dbuf<uint8_t> local(span);
  struct shape {
    int scope;
    unsigned block;
    bool last_wave;
  };
  unsigned salt = 11;
  for (shape sh : {shape{WAVE, 64, false}, shape{WAVE, 48, true}, shape{WG, 48, false}, shape{WG, 256, false}})
    for (auto offs : {std::make_pair(0, 0), std::make_pair(8, 8), std::make_pair(4, 12), std::make_pair(2, 6),
                      std::make_pair(3, 3), std::make_pair(1, 6)})
      for (bool get : {false, true}) {
        const bool nbi = (salt & 1) != 0;
        const size_t soff = offs.first, doff = offs.second;
        std::vector<uint8_t> src(last + soff);
        for (size_t i = 0; i < src.size(); ++i) src[i] = pattern(me(), i, salt);
        const std::vector<uint8_t> zero(span, 0);
        HIP_OK(hipMemcpy(get ? (void*)symbuf.get() : (void*)local.get(), src.data(), src.size(), hipMemcpyHostToDevice));
        HIP_OK(hipMemcpy(get ? (void*)local.get() : (void*)symbuf.get(), zero.data(), span, hipMemcpyHostToDevice));
        shmem_barrier_all();
        uint8_t* dst = (get ? local.get() : symbuf.get()) + doff;
        const uint8_t* s = (get ? symbuf.get() : local.get()) + soff;
        hipLaunchKernelGGL(sweep_kernel, dim3(1), dim3(sh.block), 0, 0, sh.scope, get, nbi, dst, s, first, last,
                           stride, next_pe(), sh.last_wave);
        ASSERT_TRUE(synced());
        shmem_barrier_all();
        std::vector<uint8_t> got(span);
        HIP_OK(hipMemcpy(got.data(), get ? (void*)local.get() : (void*)symbuf.get(), span, hipMemcpyDeviceToHost));
        const int from = get ? next_pe() : prev_pe();
        size_t bad_sizes = 0, first_bad = 0;
        for (size_t n = first; n <= last; ++n) {
          const uint8_t* slot = got.data() + (n - first) * stride;
          for (size_t i = 0; i < stride; ++i) {
            const bool inside = i >= doff && i < doff + n;
            if (slot[i] != (inside ? pattern(from, i - doff + soff, salt) : 0)) {
              if (!bad_sizes++) first_bad = n;
              break;
            }
          }
        }
        EXPECT_EQ(bad_sizes, 0u) << (get ? "get" : "put") << (nbi ? "_nbi" : "") << " scope " << sh.scope
                                 << " block " << sh.block << (sh.last_wave ? " last wave" : "") << " src_off=" << soff
                                 << " dst_off=" << doff << ": first wrong size " << first_bad;
        ++salt;
      }
}

// One thread's small put moves its bytes inline, in one straight run of words (device/core/copy.h
// copy_thread_small: up to 128 bytes of the widest word that divides both addresses and n), and
// takes the general copy past that or for a peer it cannot store to. Every size from 1 byte to past
// the general copy's bulk threshold's floor (256), each into its own slot of one buffer, from every
// source offset 0..15 to every destination offset 0..15. Over gda and the proxy (whose puts take the
// inline copy's loads, then their own path) 20 of the 256 pairs: each put there is a posted
// operation, and all of them took 23 and 35 s on the host platform. Each slot's neighbours must
// stay untouched.
__global__ void thread_sweep_kernel(uint8_t* dst, const uint8_t* src, size_t first, size_t last, size_t stride,
                                    int pe, bool nbi) {
  if (threadIdx.x != 0) return;
  for (size_t n = first; n <= last; ++n) {
    uint8_t* d = dst + (n - first) * stride;
    nbi ? shmem_putmem_nbi(d, src, n, pe) : shmem_putmem(d, src, n, pe);
  }
  shmem_quiet();
}

TEST(RmaThread, EverySmallSizeAtEveryOffset) {
  // The same answer on every PE (the buffers are collective): are all peers p2p?
  bool all_p2p = true;
  for (int p = 0; p < npes(); ++p) all_p2p &= std::string(shmemx_transport_name(p)) == "p2p";
  const size_t first = 1, last = 300, stride = last + 36, slots = last - first + 1;
  const size_t span = 16 + slots * stride;
  sym<uint8_t> symbuf(span);
  dbuf<uint8_t> local(span);
  std::vector<std::pair<size_t, size_t>> offs;
  for (size_t so = 0; so < 16; ++so)
    for (size_t dof = 0; dof < 16; ++dof)
      if (all_p2p || (so == dof && so % 4 == 0) || (so + 5) % 16 == dof) offs.emplace_back(so, dof);
  const std::vector<uint8_t> zero(span, 0);
  unsigned salt = 17;
  for (auto [soff, doff] : offs) {
    const bool nbi = (salt & 1) != 0;
    std::vector<uint8_t> src(last + soff);
    for (size_t i = 0; i < src.size(); ++i) src[i] = pattern(me(), i, salt);
    HIP_OK(hipMemcpy(local.get(), src.data(), src.size(), hipMemcpyHostToDevice));
    HIP_OK(hipMemcpy(symbuf.get(), zero.data(), span, hipMemcpyHostToDevice));
    shmem_barrier_all();
    // Slot k starts 16 + k * stride bytes (a multiple of 16) into a 256-byte aligned block, plus doff.
    hipLaunchKernelGGL(thread_sweep_kernel, dim3(1), dim3(32), 0, 0, symbuf.get() + 16 + doff, local.get() + soff,
                       first, last, stride, next_pe(), nbi);
    ASSERT_TRUE(synced());
    shmem_barrier_all();
    std::vector<uint8_t> got(span);
    HIP_OK(hipMemcpy(got.data(), symbuf.get(), span, hipMemcpyDeviceToHost));
    size_t bad_sizes = 0, first_bad = 0, at = 0;
    for (size_t i = 0; i < 16; ++i)  // before the first slot
      if (got[i] && !bad_sizes++) first_bad = first, at = i;
    for (size_t n = first; n <= last; ++n) {
      const uint8_t* slot = got.data() + 16 + (n - first) * stride;
      for (size_t i = 0; i < stride; ++i) {
        const bool inside = i >= doff && i < doff + n;
        if (slot[i] != (inside ? pattern(prev_pe(), i - doff + soff, salt) : 0)) {
          if (!bad_sizes++) first_bad = n, at = i;
          break;
        }
      }
    }
    EXPECT_EQ(bad_sizes, 0u) << "put" << (nbi ? "_nbi" : "") << " src_off=" << soff << " dst_off=" << doff
                             << ": first wrong size " << first_bad << " (slot byte " << at << ")";
    ++salt;
  }
}

// Threads of a work-group each put n bytes to consecutive places (a message-rate loop's pattern):
// their addresses' alignments differ from lane to lane, so each lane picks its own width unless n
// forces one; every lane's bytes must land, and nothing between them.
__global__ void thread_rows_kernel(uint8_t* dst, const uint8_t* src, size_t n, size_t pitch, int pe) {
  const size_t t = threadIdx.x;
  shmem_putmem_nbi(dst + t * pitch, src + t * pitch, n, pe);
  shmem_quiet();
}

TEST(RmaThread, LanesPutSmallRowsSideBySide) {
  const unsigned threads = 64;
  const size_t max_pitch = 136, span = threads * max_pitch;
  sym<uint8_t> symbuf(span);
  dbuf<uint8_t> local(span);
  std::vector<uint8_t> src(span);
  const std::vector<uint8_t> zero(span, 0);
  unsigned salt = 23;
  for (size_t n : {1, 2, 4, 6, 8, 12, 16, 24, 32, 40, 64, 72, 128, 130})
    for (size_t gap : {0, 3}) {
      const size_t pitch = n + gap;
      for (size_t i = 0; i < span; ++i) src[i] = pattern(me(), i, salt);
      HIP_OK(hipMemcpy(local.get(), src.data(), span, hipMemcpyHostToDevice));
      HIP_OK(hipMemcpy(symbuf.get(), zero.data(), span, hipMemcpyHostToDevice));
      shmem_barrier_all();
      hipLaunchKernelGGL(thread_rows_kernel, dim3(1), dim3(threads), 0, 0, symbuf.get(), local.get(), n, pitch,
                         next_pe());
      ASSERT_TRUE(synced());
      shmem_barrier_all();
      std::vector<uint8_t> got(span);
      HIP_OK(hipMemcpy(got.data(), symbuf.get(), span, hipMemcpyDeviceToHost));
      size_t bad = 0, first_bad = SIZE_MAX;
      for (size_t i = 0; i < span; ++i) {
        const bool inside = i < threads * pitch && i % pitch < n;
        if (got[i] != (inside ? pattern(prev_pe(), i, salt) : 0) && !bad++) first_bad = i;
      }
      EXPECT_EQ(bad, 0u) << "n=" << n << " pitch=" << pitch << ": first wrong byte " << first_bad;
      ++salt;
    }
}

INSTANTIATE_TEST_SUITE_P(AllScopes, RmaScopes, ::testing::Values(THREAD, WAVE, WG),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::string(i.param == THREAD ? "thread" : i.param == WAVE ? "wave" : "wg");
                         });

// ---- typed routines: every standard RMA type -------------------------------------------------

#define TYPED_KERNEL(NAME, T)                                                                     \
  __global__ void typed_##NAME(T* sym_dst, const T* local_src, T* sym_src, T* local_dst, T* got_g, \
                               size_t n, int pe) {                                                \
    if (threadIdx.x == 0) {                                                                       \
      shmem_##NAME##_put(sym_dst, local_src, n / 2, pe);                                          \
      shmem_##NAME##_put_nbi(sym_dst + n / 2, local_src + n / 2, n - n / 2 - 1, pe);              \
      shmem_##NAME##_p(sym_dst + n - 1, local_src[n - 1], pe);                                     \
      shmem_##NAME##_get(local_dst, sym_src, n / 2, pe);                                          \
      shmem_##NAME##_get_nbi(local_dst + n / 2, sym_src + n / 2, n - n / 2, pe);                  \
      shmem_quiet();                                                                              \
      *got_g = shmem_##NAME##_g(sym_src + 3, pe);                                                 \
    }                                                                                             \
  }                                                                                               \
  TEST(RmaTyped, NAME) {                                                                          \
    const size_t n = 1000;                                                                        \
    sym<T> sdst(n), ssrc(n);                                                                      \
    dbuf<T> lsrc(n), ldst(n), g(1);                                                               \
    std::vector<T> mine(n);                                                                       \
    for (size_t i = 0; i < n; ++i) mine[i] = (T)((me() + 1) * 3 + i % 97);                        \
    lsrc.write(mine);                                                                             \
    ssrc.write(mine);                                                                             \
    shmem_barrier_all();                                                                          \
    hipLaunchKernelGGL(typed_##NAME, dim3(1), dim3(32), 0, 0, sdst.get(), lsrc.get(), ssrc.get(), \
                       ldst.get(), g.get(), n, next_pe());                                        \
    ASSERT_TRUE(synced());                                                                        \
    shmem_barrier_all();                                                                          \
    std::vector<T> put_in = sdst.read(), got = ldst.read();                                       \
    for (size_t i = 0; i < n; ++i) {                                                              \
      ASSERT_EQ(put_in[i], (T)((prev_pe() + 1) * 3 + i % 97)) << "put, element " << i;            \
      ASSERT_EQ(got[i], (T)((next_pe() + 1) * 3 + i % 97)) << "get, element " << i;               \
    }                                                                                             \
    EXPECT_EQ(g.read()[0], (T)((next_pe() + 1) * 3 + 3));                                         \
    /* The same routines from host code. */                                                       \
    sdst.fill_bytes(0);                                                                           \
    shmem_barrier_all();                                                                          \
    std::vector<T> host_src(mine);                                                                \
    shmem_##NAME##_put(sdst.get(), host_src.data(), n - 1, next_pe());                            \
    shmem_##NAME##_p(sdst.get() + n - 1, host_src[n - 1], next_pe());                             \
    shmem_quiet();                                                                                \
    shmem_barrier_all();                                                                          \
    std::vector<T> hget(n);                                                                       \
    shmem_##NAME##_get(hget.data(), ssrc.get(), n, next_pe());                                    \
    put_in = sdst.read();                                                                         \
    for (size_t i = 0; i < n; ++i) {                                                              \
      ASSERT_EQ(put_in[i], (T)((prev_pe() + 1) * 3 + i % 97)) << "host put, element " << i;       \
      ASSERT_EQ(hget[i], (T)((next_pe() + 1) * 3 + i % 97)) << "host get, element " << i;         \
    }                                                                                             \
    EXPECT_EQ(shmem_##NAME##_g(ssrc.get() + 5, next_pe()), (T)((next_pe() + 1) * 3 + 5));         \
    shmem_barrier_all();                                                                          \
  }
GIO_RMA_TYPES(TYPED_KERNEL)
#undef TYPED_KERNEL

// ---- sized routines and cooperative typed forms ----------------------------------------------

__global__ void sized_kernel(uint8_t* sym_dst, const uint8_t* src, int pe) {
  if (threadIdx.x == 0) {
    shmem_put8(sym_dst, src, 3, pe);
    shmem_put16(sym_dst + 16, src + 16, 3, pe);
    shmem_put32(sym_dst + 32, src + 32, 3, pe);
    shmem_put64(sym_dst + 64, src + 64, 3, pe);
    shmem_put128(sym_dst + 128, src + 128, 3, pe);
    shmem_quiet();
  }
  shmemx_int_put_wg((int*)(sym_dst + 256), (const int*)(src + 256), 100, pe);
  if (threadIdx.x < (unsigned)warpSize) shmemx_double_put_wave((double*)(sym_dst + 1024), (const double*)(src + 1024), 64, pe);
  if (threadIdx.x == 0) shmem_quiet();
}

TEST(RmaSized, EachWidthMovesItsBytes) {
  const size_t n = 2048;
  sym<uint8_t> dst(n);
  dbuf<uint8_t> src(n);
  std::vector<uint8_t> mine(n);
  for (size_t i = 0; i < n; ++i) mine[i] = pattern(me(), i, 7);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(sized_kernel, dim3(1), dim3(64), 0, 0, dst.get(), src.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> got = dst.read();
  auto expect_range = [&](size_t off, size_t len) {
    for (size_t i = off; i < off + len; ++i) ASSERT_EQ(got[i], pattern(prev_pe(), i, 7)) << "byte " << i;
  };
  expect_range(0, 3);
  expect_range(16, 6);
  expect_range(32, 12);
  expect_range(64, 24);
  expect_range(128, 48);
  expect_range(256, 400);
  expect_range(1024, 512);
  EXPECT_EQ(got[3], 0);    // put8 of 3 elements stops at 3 bytes
  EXPECT_EQ(got[22], 0);   // put16: 6 bytes
  EXPECT_EQ(got[44], 0);   // put32: 12 bytes
  EXPECT_EQ(got[88], 0);   // put64: 24 bytes
  EXPECT_EQ(got[176], 0);  // put128: 48 bytes
}

// Many work-groups putting disjoint slices at once, each to a different peer.
__global__ void many_wg_put(uint8_t* sym_dst, const uint8_t* src, size_t slice) {
  const int n = shmem_n_pes(), me = shmem_my_pe();
  const int pe = (me + 1 + blockIdx.x % (n > 1 ? n - 1 : 1)) % n;
  shmemx_putmem_wg(sym_dst + (me * gridDim.x + blockIdx.x) * slice, src + blockIdx.x * slice, slice, pe);
  if (threadIdx.x == 0) shmem_quiet();
}

TEST(RmaConcurrency, SixtyFourWorkGroupsToDifferentPeers) {
  const unsigned wgs = 64;
  const size_t slice = 4099;
  sym<uint8_t> dst(slice * wgs * npes());
  dbuf<uint8_t> src(slice * wgs);
  std::vector<uint8_t> mine(slice * wgs);
  for (size_t i = 0; i < mine.size(); ++i) mine[i] = pattern(me(), i, 9);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(many_wg_put, dim3(wgs), dim3(64), 0, 0, dst.get(), src.get(), slice);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> got = dst.read();
  const int n = npes();
  for (int from = 0; from < n; ++from)
    for (unsigned b = 0; b < wgs; ++b) {
      const int target = (from + 1 + b % (n > 1 ? n - 1 : 1)) % n;
      for (size_t i = 0; i < slice; ++i) {
        const uint8_t want = target == me() ? pattern(from, b * slice + i, 9) : 0;
        ASSERT_EQ(got[(from * wgs + b) * slice + i], want) << "from PE " << from << " wg " << b << " byte " << i;
      }
    }
}

// Every thread of several work-groups puts its own slice at once: on CUDA sm_90 the work-group's
// one bulk-copy stage (device/p2p/bulk.h) goes to whichever thread claims it and the others copy
// with loads and stores; each slice goes as a bulk-sized piece then a small one.
__global__ void many_thread_put(uint8_t* sym_dst, const uint8_t* src, size_t slice, size_t first, int pe) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t off = t * slice;
  shmem_putmem(sym_dst + off, src + off, first, pe);
  shmem_putmem_nbi(sym_dst + off + first, src + off + first, slice - first, pe);
  shmem_quiet();
}

TEST(RmaConcurrency, EveryThreadOfSeveralWorkGroupsPuts) {
  const unsigned wgs = 8, threads = 64;
  const size_t slice = 1539, first = 1100;  // odd slice: every thread's alignment differs
  const size_t total = slice * wgs * threads;
  sym<uint8_t> dst(total);
  dbuf<uint8_t> src(total);
  std::vector<uint8_t> mine(total);
  for (size_t i = 0; i < total; ++i) mine[i] = pattern(me(), i, 11);
  src.write(mine);
  dst.fill_bytes(0);
  shmem_barrier_all();
  hipLaunchKernelGGL(many_thread_put, dim3(wgs), dim3(threads), 0, 0, dst.get(), src.get(), slice, first, next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> got = dst.read();
  for (size_t i = 0; i < total; ++i)
    ASSERT_EQ(got[i], pattern(prev_pe(), i, 11)) << "byte " << i << " (thread " << i / slice << ")";
}

// A blocking cooperative call is complete for every lane when it returns: a get's bytes have landed
// for each lane to read, and any lane may rewrite a put's source. Over gda and the proxy one lane
// posts and waits while the others wait for it at the scope's barrier. On CUDA that barrier must be
// in view of the branch, or ptxas may compile it away (dispatch.h, lane_done; without it a
// wave-scope reduce over gda and the proxy folds data before lane 0's get has landed;
// tests/sass/check_scope_sync.py checks the machine code).
// Each round a lane poisons its bytes of the get's destination, then checks them after the get; and
// rewrites its bytes of the put's source right after the put, which must not reach the peer.
__global__ void complete_on_return(int scope, int rounds, uint8_t* got, const uint8_t* sym_src, uint8_t* src,
                                   uint8_t* sym_dst, size_t n, int pe, int from, unsigned* bad) {
  const bool wave = scope == WAVE;
  if (wave && threadIdx.x >= (unsigned)warpSize) return;
  const unsigned lane = threadIdx.x, lanes = wave ? (unsigned)warpSize : blockDim.x;
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = lane; i < n; i += lanes) got[i] = (uint8_t)~pattern(from, i, 40 + r);
    for (size_t i = lane; i < n; i += lanes) src[i] = pattern(shmem_my_pe(), i, 60 + r);
    if (wave) {
      shmemx_getmem_wave(got, sym_src + r * n, n, pe);
      shmemx_putmem_wave(sym_dst + r * n, src, n, pe);
    } else {
      shmemx_getmem_wg(got, sym_src + r * n, n, pe);
      shmemx_putmem_wg(sym_dst + r * n, src, n, pe);
    }
    unsigned miss = 0;
    for (size_t i = lane; i < n; i += lanes) miss += got[i] != pattern(from, i, 40 + r);
    for (size_t i = lane; i < n; i += lanes) src[i] = 0;  // too late to matter, if the put is done
    if (miss) atomicAdd(bad, miss);
  }
}

TEST(RmaCooperative, BlockingCallsCompleteForEveryLane) {
  const int rounds = 12;
  const size_t n = 1000;  // over gda and the proxy: one message; over p2p: the general copy
  sym<uint8_t> sym_src(n * rounds), sym_dst(n * rounds);
  dbuf<uint8_t> got(n), src(n);
  dbuf<unsigned> bad(1);
  for (int scope : {WAVE, WG}) {
    std::vector<uint8_t> mine(n * rounds);
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < n; ++i) mine[r * n + i] = pattern(me(), i, 40 + r);
    sym_src.write(mine);
    sym_dst.fill_bytes(0);
    bad.write({0});
    shmem_barrier_all();
    // Gets from the next PE, puts to the next PE: this PE's sym_dst holds the previous PE's rounds.
    hipLaunchKernelGGL(complete_on_return, dim3(1), dim3(128), 0, 0, scope, rounds, got.get(), sym_src.get(),
                       src.get(), sym_dst.get(), n, next_pe(), next_pe(), bad.get());
    ASSERT_TRUE(synced());
    shmem_barrier_all();
    const char* name = scope == WAVE ? "wave" : "work-group";
    EXPECT_EQ(bad.read()[0], 0u) << name << " scope: bytes of a blocking get not landed when a lane read them";
    const std::vector<uint8_t> put = sym_dst.read();
    size_t wrong = 0, first = SIZE_MAX;
    for (int r = 0; r < rounds; ++r)
      for (size_t i = 0; i < n; ++i)
        if (put[r * n + i] != pattern(prev_pe(), i, 60 + r) && wrong++ == 0) first = r * n + i;
    EXPECT_EQ(wrong, 0u) << name << " scope: a blocking put's bytes changed after it returned (first: round "
                         << (first == SIZE_MAX ? 0 : first / n) << ", byte " << (first == SIZE_MAX ? 0 : first % n)
                         << ")";
    shmem_barrier_all();
  }
}

// nelems 0 moves nothing and addresses nothing, so any pointers do (nullptr included), at every scope.
__global__ void zero_length_kernel(int pe) {
  shmem_putmem(nullptr, nullptr, 0, pe);
  shmem_getmem_nbi(nullptr, nullptr, 0, pe);
  shmemx_putmem_wave(nullptr, nullptr, 0, pe);
  shmemx_getmem_wg(nullptr, nullptr, 0, pe);
  shmem_quiet();
}
TEST(RmaZeroLength, NullPointersInKernelsAndHost) {
  const int next = (me() + 1) % npes();
  hipLaunchKernelGGL(zero_length_kernel, dim3(2), dim3(64), 0, 0, next);
  ASSERT_TRUE(synced());
  shmem_putmem(nullptr, nullptr, 0, next);
  shmem_int_get(nullptr, nullptr, 0, next);
  shmem_barrier_all();
}

// ---- long double: host code only (no GPU has the type) -----------------------------------------

namespace {
typedef long double LD;
typedef std::function<void(LD*, const LD*, size_t, int)> ld_move;
// A routine of one element (p, g) as a move of n.
template <typename F>
ld_move each(F f) {
  return [f](LD* d, const LD* s, size_t n, int pe) {
    for (size_t k = 0; k < n; ++k) f(d + k, s + k, pe);
  };
}
}  // namespace

// Every form of put, put_nbi, p, get, get_nbi and g on long double (typed, ctx, generic, generic
// ctx), each into a slot of its own: the puts into the next PE's heap, the gets from it.
TEST(RmaLongDouble, HostTypedCtxAndGeneric) {
  ASSERT_TRUE(ld_beyond_double());
  const shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  // The typed, ctx, generic and generic ctx forms of a routine of n elements.
#define LD_FORMS(OP)                                                                                     \
  {"longdouble_" #OP, [](LD* d, const LD* s, size_t n, int pe) { shmem_longdouble_##OP(d, s, n, pe); }}, \
      {"ctx_longdouble_" #OP,                                                                            \
       [c](LD* d, const LD* s, size_t n, int pe) { shmem_ctx_longdouble_##OP(c, d, s, n, pe); }},        \
      {#OP, [](LD* d, const LD* s, size_t n, int pe) { shmem_##OP(d, s, n, pe); }},                      \
      {#OP "(ctx)", [c](LD* d, const LD* s, size_t n, int pe) { shmem_##OP(c, d, s, n, pe); }}
  const std::vector<std::pair<const char*, ld_move>> puts = {
      LD_FORMS(put),
      LD_FORMS(put_nbi),
      {"longdouble_p", each([](LD* d, const LD* s, int pe) { shmem_longdouble_p(d, *s, pe); })},
      {"ctx_longdouble_p", each([c](LD* d, const LD* s, int pe) { shmem_ctx_longdouble_p(c, d, *s, pe); })},
      {"p", each([](LD* d, const LD* s, int pe) { shmem_p(d, *s, pe); })},
      {"p(ctx)", each([c](LD* d, const LD* s, int pe) { shmem_p(c, d, *s, pe); })},
  };
  const std::vector<std::pair<const char*, ld_move>> gets = {
      LD_FORMS(get),
      LD_FORMS(get_nbi),
      {"longdouble_g", each([](LD* d, const LD* s, int pe) { *d = shmem_longdouble_g(s, pe); })},
      {"ctx_longdouble_g", each([c](LD* d, const LD* s, int pe) { *d = shmem_ctx_longdouble_g(c, s, pe); })},
      {"g", each([](LD* d, const LD* s, int pe) { *d = shmem_g(s, pe); })},
      {"g(ctx)", each([c](LD* d, const LD* s, int pe) { *d = shmem_g(c, s, pe); })},
  };
#undef LD_FORMS
  const size_t n = 5;
  sym<LD> dst(puts.size() * n), src(n);
  std::vector<LD> mine(n);
  for (size_t k = 0; k < n; ++k) mine[k] = ld_value(me(), k);
  src.write(mine);
  shmem_barrier_all();
  for (size_t r = 0; r < puts.size(); ++r) puts[r].second(dst.get() + r * n, mine.data(), n, next_pe());
  shmem_quiet();
  shmem_barrier_all();
  const std::vector<LD> got = dst.read();
  for (size_t r = 0; r < puts.size(); ++r)
    for (size_t k = 0; k < n; ++k)
      EXPECT_EQ(got[r * n + k], ld_value(prev_pe(), k)) << puts[r].first << ", element " << k;
  for (const auto& g : gets) {
    std::vector<LD> local(n, 0.0L);
    g.second(local.data(), src.get(), n, next_pe());
    shmem_quiet();
    for (size_t k = 0; k < n; ++k) EXPECT_EQ(local[k], ld_value(next_pe(), k)) << g.first << ", element " << k;
  }
  shmem_barrier_all();
}
