// A put to this PE, or a get from it, whose source overlaps its destination: OpenSHMEM leaves it
// undefined; GIO moves the bytes as memmove does, on every transport, from host code and from
// kernels at every scope (docs/guide.md, "Overlapping source and destination"). Each case shifts
// a pattern inside one symmetric buffer, forward and backward, by a few bytes and by more than a
// copy chunk, and checks every byte of the buffer.
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {
enum scope_kind { HOST = 0, THREAD = 1, WAVE = 2, WG = 3 };
const char* const kScopeNames[] = {"host", "thread", "wave", "wg"};

__global__ void overlap_kernel(int scope, bool get, bool nbi, uint8_t* dst, const uint8_t* src, size_t n, int pe) {
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

struct shift {
  size_t n, src_off, dst_off;
};
// Forward and backward by a few bytes (inside one lane's words), by a lane's share of a work-group
// copy, and by more than a chunk of the transports' pipelines (the proxy stages 4 KiB chunks in
// the staged variant), plus dest == source.
const shift kShifts[] = {{1000, 0, 8},      {1000, 8, 0},      {3, 0, 1},          {4096 + 24, 0, 5},
                         {4096 + 24, 5, 0}, {65536, 0, 4100},  {65536, 4100, 0},   {65536, 24, 24},
                         {300000, 0, 777},  {300000, 777, 0}};
const size_t kBuf = 300000 + 4096;

class Overlap : public ::testing::TestWithParam<int> {};

void check_shift(int scope, bool get, bool nbi, const shift& s, sym<uint8_t>& buf, unsigned salt) {
  std::vector<uint8_t> pat(kBuf), want(kBuf);
  for (size_t i = 0; i < kBuf; ++i) pat[i] = pattern(me(), i, salt);
  want = pat;
  std::copy(pat.begin() + s.src_off, pat.begin() + s.src_off + s.n, want.begin() + s.dst_off);
  buf.write(pat);
  uint8_t* dst = buf.get() + s.dst_off;
  const uint8_t* src = buf.get() + s.src_off;
  if (scope == HOST) {
    if (get)
      nbi ? shmem_getmem_nbi(dst, src, s.n, me()) : shmem_getmem(dst, src, s.n, me());
    else
      nbi ? shmem_putmem_nbi(dst, src, s.n, me()) : shmem_putmem(dst, src, s.n, me());
    shmem_quiet();
  } else {
    hipLaunchKernelGGL(overlap_kernel, dim3(1), dim3(128), 0, 0, scope, get, nbi, dst, src, s.n, me());
    ASSERT_TRUE(synced());
  }
  const std::vector<uint8_t> got = buf.read();
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < kBuf; ++i)
    if (got[i] != want[i] && !bad++) first = i;
  EXPECT_EQ(bad, 0u) << kScopeNames[scope] << (get ? " get" : " put") << (nbi ? "_nbi" : "") << " of " << s.n
                     << " bytes from offset " << s.src_off << " to " << s.dst_off << " on " << shmemx_transport_name(me())
                     << ": first wrong byte at " << first;
}

TEST_P(Overlap, PutAndGetToThisPeAsMemmove) {
  sym<uint8_t> buf(kBuf);
  unsigned salt = 0;
  for (bool get : {false, true})
    for (bool nbi : {false, true})
      for (const shift& s : kShifts) check_shift(GetParam(), get, nbi, s, buf, ++salt);
}

INSTANTIATE_TEST_SUITE_P(AllScopes, Overlap, ::testing::Values(HOST, THREAD, WAVE, WG),
                         [](const ::testing::TestParamInfo<int>& i) { return std::string(kScopeNames[i.param]); });

}  // namespace
