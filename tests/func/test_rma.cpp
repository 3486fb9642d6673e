// RMA over every scope: putmem/getmem (+_nbi) at thread, wave and work-group scope, 1 B to 4 MiB,
// aligned and unaligned; typed put/get/p/g for every standard RMA type (long double from host code
// only); sized put/get; host-side RMA. Bytes are verified exactly, including the guard bytes around
// each destination.
//
// The cases that sweep sizes, offsets and lane counts put each transfer in a window of its own and
// run as many as fit in one launch, one window per transfer, with one pair of barriers around it,
// then check every window: a launch, a synchronize and two barriers per transfer cost most of
// their time where PEs share a GPU (each waits for the other PEs' kernels' time slices).
// There, and wherever a CPU thread serves the wire on a GPU (gio_test.h fewer_ops), over gda and the
// proxy, whose every put from outside the heap waits for a round trip to the softnic or the proxy,
// the thread sweeps take the sizes at the edges of every limit (inline forms, words, inline
// payloads, the bulk threshold) rather than every size, the all-sizes sweeps stop at 64 KiB + 1
// (past the bulk threshold, as under TSan), and the every-thread case runs two work-groups rather
// than eight.
#include <algorithm>
#include <functional>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {
enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };

// The threads that call at a scope: thread 0; at wave scope the first wave of the work-group, or
// with last_wave its last one (fewer lanes when the work-group size is not a multiple of the wave
// size); at work-group scope all.
__device__ bool rma_caller(int scope, bool last_wave) {
  if (scope == THREAD) return threadIdx.x == 0;
  if (scope == WAVE) return threadIdx.x / (unsigned)warpSize == (last_wave ? (blockDim.x - 1) / (unsigned)warpSize : 0);
  return true;
}

// The caller that completes them: thread 0, or the wave's first lane.
__device__ bool rma_quieter(int scope) {
  return scope == WG ? threadIdx.x == 0 : threadIdx.x % (unsigned)warpSize == 0;
}

__device__ void rma_move(int scope, bool get, bool nbi, uint8_t* dst, const uint8_t* src, size_t n, int pe) {
  if (scope == THREAD) {
    if (get)
      nbi ? shmem_getmem_nbi(dst, src, n, pe) : shmem_getmem(dst, src, n, pe);
    else
      nbi ? shmem_putmem_nbi(dst, src, n, pe) : shmem_putmem(dst, src, n, pe);
  } else if (scope == WAVE) {
    if (get)
      nbi ? shmemx_getmem_nbi_wave(dst, src, n, pe) : shmemx_getmem_wave(dst, src, n, pe);
    else
      nbi ? shmemx_putmem_nbi_wave(dst, src, n, pe) : shmemx_putmem_wave(dst, src, n, pe);
  } else {
    if (get)
      nbi ? shmemx_getmem_nbi_wg(dst, src, n, pe) : shmemx_getmem_wg(dst, src, n, pe);
    else
      nbi ? shmemx_putmem_nbi_wg(dst, src, n, pe) : shmemx_putmem_wg(dst, src, n, pe);
  }
}

// Where a transfer's bytes come from and go, as offsets into the buffers: a put reads the local
// buffer and writes the next PE's symmetric one, a get the other way round.
struct move_at {
  size_t dst, src, n;
  int get, nbi;
};

// The work-groups take the transfers in turn, each alone at its scope and completed (quiet) before
// its work-group's next.
__global__ void batch_kernel(int scope, const move_at* ms, size_t count, uint8_t* symbuf, uint8_t* local, int pe,
                             bool last_wave) {
  if (!rma_caller(scope, last_wave)) return;
  for (size_t j = blockIdx.x; j < count; j += gridDim.x) {
    const move_at m = ms[j];
    rma_move(scope, m.get, m.nbi, (m.get ? local : symbuf) + m.dst, (m.get ? symbuf : local) + m.src, m.n, pe);
    if (rma_quieter(scope)) shmem_quiet();
  }
}

const size_t kGuard = 64;
const size_t kMax = rma_sizes().back() + 2 * kGuard;  // the largest transfer and its guards
const unsigned kBatchGroups = 8;                      // work-groups of a batch's launch

size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

// One put or get of n bytes between offsets, with its salt.
struct xfer {
  bool get, nbi;
  size_t n, src_off, dst_off;
  unsigned salt;
};

// The transfers, as many per launch as the buffers hold. Each has a window of both buffers: the
// transfer with its offsets, the guard before it and kGuard + 4 KiB after it (a copy running past
// its end by a whole chunk shows there). The source's window holds a pattern, the destination's
// zeros; after the launch every byte of every destination window is checked.
void check_transfers(int scope, const std::vector<xfer>& xs, const sym<uint8_t>& symbuf, const dbuf<uint8_t>& local,
                     unsigned block = 128, bool last_wave = false) {
  const size_t cap = std::min(symbuf.n, local.n);
  for (size_t first = 0; first < xs.size();) {
    std::vector<size_t> base, w;
    size_t used = 0, end = first;
    for (; end < xs.size(); ++end) {
      const xfer& x = xs[end];
      const size_t wx = std::min(kMax, kGuard + std::max(x.src_off, x.dst_off) + x.n + kGuard + 4096);
      const size_t at = round_up(used, 256);  // every window as aligned as the buffers
      if (at + wx > cap && end > first) break;
      base.push_back(at);
      w.push_back(wx);
      used = at + wx;
    }
    std::vector<uint8_t> sym_img(used, 0), loc_img(used, 0);
    std::vector<move_at> ms;
    for (size_t j = first; j < end; ++j) {
      const xfer& x = xs[j];
      const size_t b = base[j - first];
      uint8_t* src = (x.get ? sym_img : loc_img).data() + b;
      for (size_t i = 0; i < w[j - first]; ++i) src[i] = pattern(me(), i, x.salt);
      ms.push_back({b + kGuard + x.dst_off, b + kGuard + x.src_off, x.n, x.get, x.nbi});
    }
    dbuf<move_at> dms(ms.size());
    dms.write(ms);
    HIP_OK(hipMemcpy(symbuf.get(), sym_img.data(), used, hipMemcpyHostToDevice));
    HIP_OK(hipMemcpy(local.get(), loc_img.data(), used, hipMemcpyHostToDevice));
    shmem_barrier_all();
    const unsigned groups = (unsigned)std::min<size_t>(ms.size(), kBatchGroups);
    hipLaunchKernelGGL(batch_kernel, dim3(groups), dim3(block), 0, 0, scope, dms.get(), ms.size(), symbuf.get(),
                       local.get(), next_pe(), last_wave);
    ASSERT_TRUE(synced());
    shmem_barrier_all();
    HIP_OK(hipMemcpy(sym_img.data(), symbuf.get(), used, hipMemcpyDeviceToHost));
    HIP_OK(hipMemcpy(loc_img.data(), local.get(), used, hipMemcpyDeviceToHost));
    for (size_t j = first; j < end; ++j) {
      const xfer& x = xs[j];
      const uint8_t* got = (x.get ? loc_img : sym_img).data() + base[j - first];
      const int from = x.get ? next_pe() : prev_pe();
      size_t bad = 0, first_bad = SIZE_MAX;
      for (size_t i = 0; i < w[j - first]; ++i) {
        const bool inside = i >= kGuard + x.dst_off && i < kGuard + x.dst_off + x.n;
        const uint8_t want = inside ? pattern(from, i - x.dst_off + x.src_off, x.salt) : 0;
        if (got[i] != want) {
          ++bad;
          if (first_bad == SIZE_MAX) first_bad = i;
        }
      }
      EXPECT_EQ(bad, 0u) << (x.get ? "get" : "put") << (x.nbi ? "_nbi" : "") << " scope " << scope << " n=" << x.n
                         << " src_off=" << x.src_off << " dst_off=" << x.dst_off << " block " << block
                         << (last_wave ? " last wave" : "") << " first bad byte at " << first_bad << " (window "
                         << w[j - first] << " bytes)";
    }
    first = end;
  }
}

// Sweeps: each of a list of sizes moved from one source to a slot of its own, slot k at slot[k]
// past the sweep's destination; sizes[] and slot[] are shared by the sweeps of a launch.
struct sweep_at {
  size_t dst, src;
  int get, nbi;
};

__global__ void sweep_kernel(int scope, const sweep_at* ss, size_t count, const size_t* sizes, const size_t* slot,
                             size_t nsizes, uint8_t* symbuf, uint8_t* local, int pe, bool last_wave) {
  if (!rma_caller(scope, last_wave)) return;
  for (size_t j = blockIdx.x; j < count; j += gridDim.x) {
    const sweep_at s = ss[j];
    uint8_t* d = (s.get ? local : symbuf) + s.dst;
    const uint8_t* src = (s.get ? symbuf : local) + s.src;
    for (size_t k = 0; k < nsizes; ++k) rma_move(scope, s.get, s.nbi, d + slot[k], src, sizes[k], pe);
    if (rma_quieter(scope)) shmem_quiet();
  }
}

// One sweep of a launch: its offsets, direction and salt.
struct sweep {
  size_t src_off, dst_off;
  bool get, nbi;
  unsigned salt;
};

// Runs the sweeps in one launch, a work-group each (up to `groups` at once), and checks every
// slot: the bytes in it and every byte around them. A slot of size n is at least n + dst_off +
// `tail` bytes, a multiple of 16, so each starts as aligned as the first; `lead` bytes before the
// first slot are checked too.
void check_sweeps(int scope, const std::vector<sweep>& sw, const std::vector<size_t>& sizes, size_t tail, size_t lead,
                  unsigned block, bool last_wave, unsigned groups) {
  size_t max_off = 0, max_n = 0;
  for (const sweep& s : sw) max_off = std::max(max_off, std::max(s.src_off, s.dst_off));
  std::vector<size_t> slot;
  size_t span = 0;
  for (size_t n : sizes) {
    slot.push_back(span);
    span += round_up(n + max_off + tail, 16);
    max_n = std::max(max_n, n);
  }
  const size_t dst_bytes = round_up(lead + span, 256), src_bytes = round_up(max_n + max_off, 256);
  size_t sym_used = 0, loc_used = 0;
  std::vector<size_t> dst_at, src_at;
  for (const sweep& s : sw) {
    dst_at.push_back(s.get ? loc_used : sym_used);
    (s.get ? loc_used : sym_used) += dst_bytes;
    src_at.push_back(s.get ? sym_used : loc_used);
    (s.get ? sym_used : loc_used) += src_bytes;
  }
  sym<uint8_t> symbuf(sym_used);
  dbuf<uint8_t> local(loc_used);
  std::vector<uint8_t> sym_img(sym_used, 0), loc_img(loc_used, 0);
  std::vector<sweep_at> ss;
  for (size_t j = 0; j < sw.size(); ++j) {
    const sweep& s = sw[j];
    uint8_t* src = (s.get ? sym_img : loc_img).data() + src_at[j];
    for (size_t i = 0; i < src_bytes; ++i) src[i] = pattern(me(), i, s.salt);
    ss.push_back({dst_at[j] + lead + s.dst_off, src_at[j] + s.src_off, s.get, s.nbi});
  }
  dbuf<sweep_at> dss(ss.size());
  dss.write(ss);
  dbuf<size_t> dsizes(sizes.size()), dslot(slot.size());
  dsizes.write(sizes);
  dslot.write(slot);
  HIP_OK(hipMemcpy(symbuf.get(), sym_img.data(), sym_used, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(local.get(), loc_img.data(), loc_used, hipMemcpyHostToDevice));
  shmem_barrier_all();
  hipLaunchKernelGGL(sweep_kernel, dim3((unsigned)std::min<size_t>(sw.size(), groups)), dim3(block), 0, 0, scope,
                     dss.get(), ss.size(), dsizes.get(), dslot.get(), sizes.size(), symbuf.get(), local.get(),
                     next_pe(), last_wave);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  HIP_OK(hipMemcpy(sym_img.data(), symbuf.get(), sym_used, hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(loc_img.data(), local.get(), loc_used, hipMemcpyDeviceToHost));
  for (size_t j = 0; j < sw.size(); ++j) {
    const sweep& s = sw[j];
    const uint8_t* got = (s.get ? loc_img : sym_img).data() + dst_at[j];
    const int from = s.get ? next_pe() : prev_pe();
    size_t bad_sizes = 0, first_bad = 0, at = 0;
    for (size_t i = 0; i < lead; ++i)  // before the first slot
      if (got[i] && !bad_sizes++) first_bad = sizes[0], at = i;
    for (size_t k = 0; k < sizes.size(); ++k) {
      const size_t n = sizes[k], end = k + 1 < sizes.size() ? slot[k + 1] : dst_bytes - lead;
      const uint8_t* sl = got + lead + slot[k];
      for (size_t i = 0; i < end - slot[k]; ++i) {
        const bool inside = i >= s.dst_off && i < s.dst_off + n;
        if (sl[i] != (inside ? pattern(from, i - s.dst_off + s.src_off, s.salt) : 0)) {
          if (!bad_sizes++) first_bad = n, at = i;
          break;
        }
      }
    }
    EXPECT_EQ(bad_sizes, 0u) << (s.get ? "get" : "put") << (s.nbi ? "_nbi" : "") << " scope " << scope << " block "
                             << block << (last_wave ? " last wave" : "") << " src_off=" << s.src_off
                             << " dst_off=" << s.dst_off << ": first wrong size " << first_bad << " (slot byte " << at
                             << ")";
  }
}

// Whether every PE reaches every PE over p2p: the same answer on every PE, so the tests that size
// their collective buffers by it stay in step (the next PE alone would differ between two nodes).
bool all_p2p() {
  for (int p = 0; p < npes(); ++p)
    if (std::string(shmemx_transport_name(p)) != "p2p") return false;
  return true;
}

// The all-sizes sweeps' sizes: rma_sizes(), up to 64 KiB + 1 over a slow wire (the file's head).
std::vector<size_t> scope_sizes() {
  std::vector<size_t> s = rma_sizes();
  if (fewer_ops() && !all_p2p())
    s.erase(std::remove_if(s.begin(), s.end(), [](size_t n) { return n > 65537; }), s.end());
  return s;
}
}  // namespace

class RmaScopes : public ::testing::TestWithParam<int> {};

// The buffers hold two of the largest transfers' windows: 90 transfers in 4 launches a scope.
TEST_P(RmaScopes, PutAllSizesAlignedAndUnaligned) {
  sym<uint8_t> symbuf(2 * kMax + 256);
  dbuf<uint8_t> local(2 * kMax + 256);
  unsigned salt = 1;
  std::vector<xfer> xs;
  for (size_t n : scope_sizes())
    for (auto offs : {std::make_pair(0, 0), std::make_pair(3, 3), std::make_pair(1, 6), std::make_pair(8, 0),
                      std::make_pair(8, 8)}) {  // (8, 8): an 8-byte head before 16-byte words
      const bool nbi = (salt & 1) != 0;  // alternate blocking and _nbi
      xs.push_back({false, nbi, n, (size_t)offs.first, (size_t)offs.second, salt++});
    }
  check_transfers(GetParam(), xs, symbuf, local);
}

TEST_P(RmaScopes, GetAllSizesAlignedAndUnaligned) {
  sym<uint8_t> symbuf(2 * kMax + 256);
  dbuf<uint8_t> local(2 * kMax + 256);
  unsigned salt = 3;
  std::vector<xfer> xs;
  for (size_t n : scope_sizes())
    for (auto offs : {std::make_pair(0, 0), std::make_pair(5, 5), std::make_pair(2, 9), std::make_pair(0, 4),
                      std::make_pair(6, 6)}) {
      const bool nbi = (salt & 1) != 0;  // alternate blocking and _nbi
      xs.push_back({true, nbi, n, (size_t)offs.first, (size_t)offs.second, salt++});
    }
  check_transfers(GetParam(), xs, symbuf, local);
}

// A small cooperative put or get over p2p moves one word per lane inline (device/core/copy.h
// copy_lane_word), the widest word that divides both addresses and n; past lanes words it takes the
// general copy. Sizes on both sides of
// each multiple of lanes x word up to five, for each word width, in a work-group of 48 threads: a
// work-group that is not a whole number of waves, and at wave scope its last wave (16 lanes).
// One launch per scope.
TEST(RmaCooperative, WordsPerLaneBounds) {
  const unsigned block = 48, wave_lanes = 16;  // (on 64-lane waves: one wave of 48)
  sym<uint8_t> symbuf(kMax);
  dbuf<uint8_t> local(kMax);
  unsigned salt = 5;
  for (int scope : {WAVE, WG}) {
    const size_t lanes = scope == WAVE ? wave_lanes : block;
    std::vector<xfer> xs;
    for (size_t w : {16, 8, 4, 2, 1})
      for (size_t k : {1, 2, 4, 5})
        for (size_t n : {w, k * lanes * w - w, k * lanes * w, k * lanes * w + w, k * lanes * w + 1})
          for (bool get : {false, true}) {
            const bool nbi = (salt & 1) != 0;
            // Offsets of w (both sides) keep w as the widest common word unless n says less.
            xs.push_back({get, nbi, n, w % 16, w % 16, salt++});
          }
    check_transfers(scope, xs, symbuf, local, block, scope == WAVE);
  }
}

// Every size from 1 byte to past a wave's inline limit (device/core/copy.h copy_lane_words: up to
// scope_wave::inline_words words per lane, 2 KiB for 32 lanes of 16-byte words), each to its own
// slot: sizes just under, at and over every multiple of lanes x word, with the lanes of a full
// wave, of a partial last wave (16 lanes) and of work-groups of 48 and 256 threads, at offsets that
// keep 16-, 8-, 4-, 2- and 1-byte words. One launch per shape, a work-group per offset pair and
// direction.
// (All-p2p jobs only: the inline copy is p2p's, and over gda or the proxy the sweep took 27 s and more.)
TEST(RmaCooperative, EverySizeAcrossTheInlineLimits) {
  // Every PE must take the same branch (the buffers are collective allocations).
  if (!all_p2p()) GTEST_SKIP() << "some PE is not reached over p2p";
  const size_t first = 1, last = 2048 + 80;
  std::vector<size_t> sizes;
  for (size_t n = first; n <= last; ++n) sizes.push_back(n);
  struct shape {
    int scope;
    unsigned block;
    bool last_wave;
  };
  unsigned salt = 11;
  for (shape sh : {shape{WAVE, 64, false}, shape{WAVE, 48, true}, shape{WG, 48, false}, shape{WG, 256, false}}) {
    std::vector<sweep> sw;
    for (auto offs : {std::make_pair(0, 0), std::make_pair(8, 8), std::make_pair(4, 12), std::make_pair(2, 6),
                      std::make_pair(3, 3), std::make_pair(1, 6)})
      for (bool get : {false, true}) {
        sw.push_back({(size_t)offs.first, (size_t)offs.second, get, (salt & 1) != 0, salt});
        ++salt;
      }
    check_sweeps(sh.scope, sw, sizes, 36, 0, sh.block, sh.last_wave, 16);
  }
}

// One thread's small put moves its bytes inline, in one straight run of words (device/core/copy.h
// copy_thread_small: up to 128 bytes of the widest word that divides both addresses and n), and
// takes the general copy past that or for a peer it cannot store to. Every size from 1 byte to past
// the general copy's bulk threshold's floor (256), each into its own slot, from every source offset
// 0..15 to every destination offset 0..15, in one launch: one thread of each of 32 work-groups at a
// time, each sweeping its offset pairs in turn. Over gda and the proxy (whose puts take the inline
// copy's loads, then their own path) 20 of the 256 pairs: each put there is a posted operation, and
// all of them took 23 and 35 s on the host platform; where PEs share a GPU, there, the sizes at
// the edges of the inline forms (16, 64 and 128 bytes), of the proxy's and gda's inline payloads
// (16 and 28 bytes) and of the bulk threshold, each put from outside the heap being a round trip.
// Each slot's neighbours must stay untouched.
TEST(RmaThread, EverySmallSizeAtEveryOffset) {
  const bool p2p = all_p2p();  // (the buffers are collective)
  std::vector<size_t> sizes;
  if (p2p || !fewer_ops())
    for (size_t n = 1; n <= 300; ++n) sizes.push_back(n);
  else
    sizes = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  27, 28,
             29, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 300};
  std::vector<sweep> sw;
  unsigned salt = 17;
  for (size_t so = 0; so < 16; ++so)
    for (size_t dof = 0; dof < 16; ++dof)
      if (p2p || (so == dof && so % 4 == 0) || (so + 5) % 16 == dof) {
        sw.push_back({so, dof, false, (salt & 1) != 0, salt});
        ++salt;
      }
  // Slots start 16 bytes (a multiple of 16) into a 256-byte aligned block, plus dst_off; at least
  // 21 bytes after each stay untouched.
  check_sweeps(THREAD, sw, sizes, 21, 16, 32, false, 32);
}

// Threads of a work-group each put n bytes to consecutive places (a message-rate loop's pattern):
// their addresses' alignments differ from lane to lane, so each lane picks its own width unless n
// forces one; every lane's bytes must land, and nothing between them. One launch: a work-group per
// size and gap, each with a region of its own.
__global__ void thread_rows_kernel(uint8_t* dst, const uint8_t* src, const size_t* ns, const size_t* pitches,
                                   size_t region, int pe) {
  const size_t at = blockIdx.x * region + threadIdx.x * pitches[blockIdx.x];
  shmem_putmem_nbi(dst + at, src + at, ns[blockIdx.x], pe);
  shmem_quiet();
}

TEST(RmaThread, LanesPutSmallRowsSideBySide) {
  const unsigned threads = 64;
  const size_t max_pitch = 136, span = threads * max_pitch;
  std::vector<size_t> ns, pitches;
  for (size_t n : {1, 2, 4, 6, 8, 12, 16, 24, 32, 40, 64, 72, 128, 130})
    for (size_t gap : {0, 3}) {
      ns.push_back(n);
      pitches.push_back(n + gap);
    }
  const size_t rows = ns.size(), total = rows * span;
  sym<uint8_t> symbuf(total);
  dbuf<uint8_t> local(total);
  std::vector<uint8_t> src(total);
  for (size_t r = 0; r < rows; ++r)
    for (size_t i = 0; i < span; ++i) src[r * span + i] = pattern(me(), i, 23 + (unsigned)r);
  local.write(src);
  dbuf<size_t> dns(rows), dpitches(rows);
  dns.write(ns);
  dpitches.write(pitches);
  shmem_barrier_all();
  hipLaunchKernelGGL(thread_rows_kernel, dim3((unsigned)rows), dim3(threads), 0, 0, symbuf.get(), local.get(),
                     dns.get(), dpitches.get(), span, next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  const std::vector<uint8_t> got = symbuf.read();
  for (size_t r = 0; r < rows; ++r) {
    const size_t n = ns[r], pitch = pitches[r];
    size_t bad = 0, first_bad = SIZE_MAX;
    for (size_t i = 0; i < span; ++i) {
      const bool inside = i < threads * pitch && i % pitch < n;
      if (got[r * span + i] != (inside ? pattern(prev_pe(), i, 23 + (unsigned)r) : 0) && !bad++) first_bad = i;
    }
    EXPECT_EQ(bad, 0u) << "n=" << n << " pitch=" << pitch << ": first wrong byte " << first_bad;
  }
  shmem_barrier_all();
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
  // (Two work-groups where a peer is not over p2p and PEs share a GPU or a CPU thread serves the
  // wire (fewer_ops): each put from outside the heap there holds the bounce buffer for a round trip
  // to the softnic or the proxy.)
  const unsigned wgs = fewer_ops() && !all_p2p() ? 2 : 8, threads = 64;
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
