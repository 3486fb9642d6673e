// A put to this PE, or a get from it, whose source overlaps its destination: OpenSHMEM leaves it
// undefined; GIO moves the bytes as memmove does, on every transport, from host code and from
// kernels at every scope (docs/guide.md, "Overlapping source and destination"). Each case shifts
// a pattern inside one symmetric buffer, forward and backward, by a few bytes and by more than a
// copy chunk, and checks every byte of the buffer. Each case has a region of its own, so a scope's
// cases run in one launch (one after another, each completed before the next) and are checked
// after it: a launch and a synchronize per case cost most of the time where PEs share a GPU.
#include <algorithm>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {
enum scope_kind { HOST = 0, THREAD = 1, WAVE = 2, WG = 3 };
const char* const kScopeNames[] = {"host", "thread", "wave", "wg"};

// One case: n bytes from src_off to dst_off of the region at `at`.
struct move_at {
  size_t at, n, src_off, dst_off;
  int get, nbi;
};

__device__ void overlap_move(int scope, bool get, bool nbi, uint8_t* dst, const uint8_t* src, size_t n, int pe) {
  if (scope == THREAD) {
    if (threadIdx.x == 0) {
      if (get)
        nbi ? shmem_getmem_nbi(dst, src, n, pe) : shmem_getmem(dst, src, n, pe);
      else
        nbi ? shmem_putmem_nbi(dst, src, n, pe) : shmem_putmem(dst, src, n, pe);
      shmem_quiet();
    }
  } else if (scope == WAVE) {
    if (threadIdx.x / (unsigned)warpSize == 0) {
      if (get)
        nbi ? shmemx_getmem_nbi_wave(dst, src, n, pe) : shmemx_getmem_wave(dst, src, n, pe);
      else
        nbi ? shmemx_putmem_nbi_wave(dst, src, n, pe) : shmemx_putmem_wave(dst, src, n, pe);
      if (threadIdx.x == 0) shmem_quiet();
    }
  } else {
    if (get)
      nbi ? shmemx_getmem_nbi_wg(dst, src, n, pe) : shmemx_getmem_wg(dst, src, n, pe);
    else
      nbi ? shmemx_putmem_nbi_wg(dst, src, n, pe) : shmemx_putmem_wg(dst, src, n, pe);
    if (threadIdx.x == 0) shmem_quiet();
  }
}

// The cases one after another, each done by all its callers before the next starts (as when each
// had a launch of its own).
__global__ void overlap_kernel(int scope, const move_at* ms, size_t count, uint8_t* buf, int pe) {
  for (size_t j = 0; j < count; ++j) {
    const move_at m = ms[j];
    overlap_move(scope, m.get, m.nbi, buf + m.at + m.dst_off, buf + m.at + m.src_off, m.n, pe);
    __syncthreads();
  }
}

struct shift {
  size_t n, src_off, dst_off;
};
// Forward and backward by a few bytes (inside one lane's words), by a lane's share of a work-group
// copy, and by more than a chunk of the transports' pipelines (the proxy stages 4 KiB chunks in
// the staged variant), plus dest == source.
const shift kShifts[] = {{1000, 0, 8},      {1000, 8, 0},      {3, 0, 1},          {4096 + 24, 0, 5},
                         {4096 + 24, 5, 0}, {65536, 0, 4100},  {65536, 4100, 0},   {65536, 24, 24},
                         {300000, 0, 777},  {300000, 777, 0}};

class Overlap : public ::testing::TestWithParam<int> {};

// Every byte of each case's region (the shift and 4 KiB past its far end) is checked.
size_t region_of(const shift& s) { return (std::max(s.src_off, s.dst_off) + s.n + 4096 + 255) / 256 * 256; }

TEST_P(Overlap, PutAndGetToThisPeAsMemmove) {
  const int scope = GetParam();
  std::vector<move_at> ms;
  std::vector<unsigned> salts;
  size_t total = 0;
  unsigned salt = 0;
  for (bool get : {false, true})
    for (bool nbi : {false, true})
      for (const shift& s : kShifts) {
        ms.push_back({total, s.n, s.src_off, s.dst_off, get, nbi});
        salts.push_back(++salt);
        total += region_of(s);
      }
  sym<uint8_t> buf(total);
  std::vector<uint8_t> pat(total), want;
  for (size_t j = 0; j < ms.size(); ++j) {
    const size_t w = j + 1 < ms.size() ? ms[j + 1].at - ms[j].at : total - ms[j].at;
    for (size_t i = 0; i < w; ++i) pat[ms[j].at + i] = pattern(me(), i, salts[j]);
  }
  want = pat;
  for (const move_at& m : ms)
    std::copy(pat.begin() + m.at + m.src_off, pat.begin() + m.at + m.src_off + m.n, want.begin() + m.at + m.dst_off);
  buf.write(pat);
  if (scope == HOST) {
    for (const move_at& m : ms) {
      uint8_t* dst = buf.get() + m.at + m.dst_off;
      const uint8_t* src = buf.get() + m.at + m.src_off;
      if (m.get)
        m.nbi ? shmem_getmem_nbi(dst, src, m.n, me()) : shmem_getmem(dst, src, m.n, me());
      else
        m.nbi ? shmem_putmem_nbi(dst, src, m.n, me()) : shmem_putmem(dst, src, m.n, me());
      shmem_quiet();
    }
  } else {
    dbuf<move_at> dms(ms.size());
    dms.write(ms);
    hipLaunchKernelGGL(overlap_kernel, dim3(1), dim3(128), 0, 0, scope, dms.get(), ms.size(), buf.get(), me());
    ASSERT_TRUE(synced());
  }
  const std::vector<uint8_t> got = buf.read();
  for (size_t j = 0; j < ms.size(); ++j) {
    const move_at& m = ms[j];
    const size_t end = j + 1 < ms.size() ? ms[j + 1].at : total;
    size_t bad = 0, first = 0;
    for (size_t i = m.at; i < end; ++i)
      if (got[i] != want[i] && !bad++) first = i - m.at;
    EXPECT_EQ(bad, 0u) << kScopeNames[scope] << (m.get ? " get" : " put") << (m.nbi ? "_nbi" : "") << " of " << m.n
                       << " bytes from offset " << m.src_off << " to " << m.dst_off << " on "
                       << shmemx_transport_name(me()) << ": first wrong byte at " << first;
  }
}

INSTANTIATE_TEST_SUITE_P(AllScopes, Overlap, ::testing::Values(HOST, THREAD, WAVE, WG),
                         [](const ::testing::TestParamInfo<int>& i) { return std::string(kScopeNames[i.param]); });

}  // namespace
