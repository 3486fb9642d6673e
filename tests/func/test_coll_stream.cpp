// Stream-ordered collectives that move data (shmemx_*_on_stream): broadcast from every root,
// fcollect and alltoall, byte-sized and typed, at 0, 1, 7, 16 and 4097 elements, with source and
// dest at unaligned offsets; the syncs and barriers; a stride-2 split team; back-to-back calls on
// one stream that poison and reuse dest (the entry sync: a member must not store into a dest its
// owner has not reached yet). Over p2p above the LL size the multi-work-group kernels move the
// data; over gda and the proxy (this file runs over every transport) the one-work-group device
// collectives do. Reductions: test_coll_stream_reduce.cpp.
#include "gio_test.h"

using namespace giotest;

namespace {

const size_t kCounts[] = {0, 1, 7, 16, 4097};
constexpr uint8_t kPoison = 0xee;

struct stream_guard {
  hipStream_t s = nullptr;
  stream_guard() { EXPECT_EQ(hipStreamCreate(&s), hipSuccess); }
  ~stream_guard() { (void)hipStreamDestroy(s); }
};

// The byte member k sends to member j at index i (j = -1: what a broadcast root or an fcollect
// member sends everyone).
uint8_t val(int k, int j, size_t i) { return pattern(k, i, (unsigned)(j + 1)); }

// Byte `off` onward of a symmetric block of `n` bytes, poisoned; `off` makes it unaligned.
struct region {
  sym<uint8_t> mem;
  size_t off;
  region(size_t n, size_t off_) : mem(n + off_ + 16), off(off_) {}
  uint8_t* at() const { return mem.get() + off; }
  void poison() const { mem.fill_bytes(kPoison); }
  std::vector<uint8_t> read(size_t n) const {
    std::vector<uint8_t> v = mem.read();
    return std::vector<uint8_t>(v.begin() + off, v.begin() + off + n);
  }
  void write(const std::vector<uint8_t>& v) const {
    ASSERT_EQ(hipMemcpy(at(), v.data(), v.size(), hipMemcpyHostToDevice), hipSuccess);
  }
};

void check_tail_untouched(const region& r, size_t n, const char* what) {
  const std::vector<uint8_t> all = r.mem.read();
  for (size_t i = 0; i < r.off; ++i) ASSERT_EQ(all[i], kPoison) << what << ": byte before dest written";
  for (size_t i = r.off + n; i < all.size(); ++i) ASSERT_EQ(all[i], kPoison) << what << ": byte after dest written";
}

}  // namespace

TEST(CollStream, BroadcastEveryRootSizeAndOffset) {
  stream_guard st;
  const int n = npes();
  for (size_t count : kCounts)
    for (size_t off : {size_t(0), size_t(3)}) {
      region src(count, off), dst(count, off == 0 ? 1 : 0);
      std::vector<uint8_t> mine(count);
      for (int root = 0; root < n; ++root) {
        for (size_t i = 0; i < count; ++i) mine[i] = val(me(), -1, i);
        src.poison();
        src.write(mine);
        dst.poison();
        shmem_barrier_all();  // every dest poisoned before the root's data can land
        ASSERT_EQ(shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, dst.at(), src.at(), count, root, st.s), 0);
        HIP_OK(hipStreamSynchronize(st.s));
        const std::vector<uint8_t> got = dst.read(count);
        for (size_t i = 0; i < count; ++i)
          ASSERT_EQ(got[i], val(root, -1, i))
              << "root " << root << ", " << count << " bytes, offset " << off << ", byte " << i;
        check_tail_untouched(dst, count, "broadcast");
        shmem_barrier_all();  // nobody poisons again while a peer still reads
      }
    }
}

TEST(CollStream, FcollectAndAlltoallSizesAndOffsets) {
  stream_guard st;
  const int n = npes();
  for (size_t count : kCounts)
    for (int form = 0; form < 4; ++form) {
      const bool a2a = form >= 2, typed = form % 2;  // typed: shmemx_int_*; else *mem with odd offsets
      const size_t elem = typed ? sizeof(int) : 1, bytes = count * elem;
      region src(bytes * (a2a ? n : 1), typed ? 4 : 5), dst(bytes * n, typed ? 8 : 2);
      std::vector<uint8_t> mine(src.mem.n - src.off - 16);
      const size_t blk = bytes ? bytes : 1;  // alltoall: block j of the source goes to member j
      for (size_t i = 0; i < mine.size(); ++i) mine[i] = a2a ? val(me(), (int)(i / blk), i % blk) : val(me(), -1, i);
      src.poison();
      src.write(mine);
      dst.poison();
      shmem_barrier_all();
      int rc;
      if (form == 0) rc = shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst.at(), src.at(), bytes, st.s);
      else if (form == 1)
        rc = shmemx_int_fcollect_on_stream(SHMEM_TEAM_WORLD, (int*)dst.at(), (int*)src.at(), count, st.s);
      else if (form == 2) rc = shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst.at(), src.at(), bytes, st.s);
      else rc = shmemx_int_alltoall_on_stream(SHMEM_TEAM_WORLD, (int*)dst.at(), (int*)src.at(), count, st.s);
      ASSERT_EQ(rc, 0);
      HIP_OK(hipStreamSynchronize(st.s));
      const std::vector<uint8_t> got = dst.read(bytes * n);
      for (int k = 0; k < n; ++k)
        for (size_t i = 0; i < bytes; ++i)
          ASSERT_EQ(got[k * bytes + i], a2a ? val(k, me(), i) : val(k, -1, i))
              << "form " << form << ", " << count << " elements, block " << k << ", byte " << i;
      check_tail_untouched(dst, bytes * n, a2a ? "alltoall" : "fcollect");
      shmem_barrier_all();
    }
}

// Four rounds queued on one stream with no host wait between them: each round rewrites the
// source, poisons dest and collects into it, and a stream copy keeps what the round left. A peer
// that stored into this PE's dest before this PE's poison of that round would be overwritten.
TEST(CollStream, BackToBackReuseDest) {
  stream_guard st;
  const int n = npes(), rounds = 4;
  const size_t count = 3000;
  sym<uint8_t> src(count * n), dst(count * n);
  std::vector<std::vector<uint8_t>> in(rounds, std::vector<uint8_t>(count * n));
  std::vector<std::vector<uint8_t>> out(rounds, std::vector<uint8_t>(count * n));
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < count * n; ++i) in[r][i] = val(me(), r, i);
  shmem_barrier_all();
  for (int r = 0; r < rounds; ++r) {
    HIP_OK(hipMemcpyAsync(src.get(), in[r].data(), count * n, hipMemcpyHostToDevice, st.s));
    HIP_OK(hipMemsetAsync(dst.get(), kPoison, count * n, st.s));
    if (r % 2)
      ASSERT_EQ(shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst.get(), src.get(), count, st.s), 0);
    else
      ASSERT_EQ(shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst.get(), src.get(), count, st.s), 0);
    HIP_OK(hipMemcpyAsync(out[r].data(), dst.get(), count * n, hipMemcpyDeviceToHost, st.s));
  }
  HIP_OK(hipStreamSynchronize(st.s));
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < n; ++k)
      for (size_t i = 0; i < count; ++i) {
        // alltoall: block k came from member k's block me(); fcollect: member k's first block.
        const uint8_t want = r % 2 ? val(k, r, me() * count + i) : val(k, r, i);
        ASSERT_EQ(out[r][k * count + i], want) << "round " << r << ", block " << k << ", byte " << i;
      }
  shmem_barrier_all();
}

// Each PE puts a token into the next PE's word, then every form of sync and barrier on the stream;
// once the stream is past them each PE's word holds the previous PE's token.
TEST(CollStream, SyncsAndBarriers) {
  stream_guard st;
  sym<int> word(1);
  for (int form = 0; form < 4; ++form) {
    const int token = 1000 * (form + 1) + prev_pe();
    const int mine = 1000 * (form + 1) + me();
    shmem_int_p(word.get(), mine, next_pe());
    shmem_quiet();
    if (form == 0) ASSERT_EQ(shmemx_barrier_on_stream(SHMEM_TEAM_WORLD, st.s), 0);
    if (form == 1) ASSERT_EQ(shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, st.s), 0);
    if (form == 2) shmemx_barrier_all_on_stream(st.s);
    if (form == 3) shmemx_sync_all_on_stream(st.s);
    HIP_OK(hipStreamSynchronize(st.s));
    EXPECT_EQ(word.read()[0], token) << "form " << form;
    shmem_barrier_all();  // every PE has read its word before the next round writes it
  }
}

// Even and odd PEs as teams of stride 2 (at 2 PEs, a team of one each).
TEST(CollStream, StrideTwoTeams) {
  stream_guard st;
  shmem_team_t even = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
  const int halves = (npes() + 1) / 2;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, halves, nullptr, 0, &even), 0);
  if (npes() > 1) ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes() / 2, nullptr, 0, &odd), 0);
  const shmem_team_t mine = me() % 2 ? odd : even;
  ASSERT_NE(mine, SHMEM_TEAM_INVALID);
  const int m = shmem_team_n_pes(mine), k = shmem_team_my_pe(mine);
  const size_t count = 5000;
  sym<uint8_t> src(count), dst(count * halves);  // the same size on every PE: the even team's
  std::vector<uint8_t> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = val(me(), -1, i);
  src.write(v);
  dst.fill_bytes(kPoison);
  ASSERT_EQ(shmemx_team_sync_on_stream(mine, st.s), 0);
  ASSERT_EQ(shmemx_uint8_fcollect_on_stream(mine, dst.get(), src.get(), count, st.s), 0);
  HIP_OK(hipStreamSynchronize(st.s));
  const std::vector<uint8_t> got = dst.read();
  for (size_t i = count * m; i < got.size(); ++i) ASSERT_EQ(got[i], kPoison) << "byte " << i << " past dest written";
  for (int j = 0; j < m; ++j)
    for (size_t i = 0; i < count; ++i)
      ASSERT_EQ(got[j * count + i], val(shmem_team_translate_pe(mine, j, SHMEM_TEAM_WORLD), -1, i))
          << "team member " << j << " of " << m << " (this PE is " << k << "), byte " << i;
  shmem_team_destroy(odd);
  shmem_team_destroy(even);
}
