// The softnic's WQE executor on fake memory: each operation moves exactly the right bytes, and each
// violation yields the syndrome a ConnectX reports while writing nothing at all (both heaps are
// compared with snapshots, and the fake io records every write it was asked to do).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/gda_queue.h"
#include "softnic_fake_io.h"

using namespace gio::mlx5;
using gio::softnic_result;

namespace {
using namespace gio_test;
constexpr size_t kHeap = 4096;

class SoftnicExec : public ::testing::Test {
 protected:
  fake_heaps h{kHeap, kHeap, 0x10000000ull};
  fake_io io{h};
  gio::softnic_qp_view qp = h.view(kQpn, kLkey, kRkey);

  softnic_result run(const wqe& w, uint16_t expect_idx = 0) {
    io.readable = {(uintptr_t)w.b, sizeof w.b};  // inline payloads are read from the WQE
    return gio::softnic_execute(qp, w.b, expect_idx, io);
  }
  // An error CQE with `synd`, and not one byte moved anywhere.
  void expect_refused(const wqe& w, uint8_t synd, uint16_t expect_idx = 0) {
    const std::vector<uint8_t> local0 = h.local, queue0 = h.queue, remote0 = h.remote;
    const softnic_result r = run(w, expect_idx);
    EXPECT_EQ(r.cqe_opcode, CQE_REQ_ERR);
    EXPECT_EQ(r.syndrome, synd) << "syndrome 0x" << std::hex << (int)r.syndrome;
    EXPECT_TRUE(r.signalled) << "an error always produces a CQE";
    EXPECT_EQ(r.opcode, ctrl_opcode((const ctrl_seg*)w.b));
    EXPECT_TRUE(io.writes.empty()) << io.writes.size() << " write(s) issued, first at 0x" << std::hex
                                   << (io.writes.empty() ? 0 : io.writes[0].at);
    EXPECT_EQ(io.amos, 0);
    EXPECT_TRUE(h.local == local0) << "local heap changed";
    EXPECT_TRUE(h.queue == queue0) << "queue block changed";
    EXPECT_TRUE(h.remote == remote0) << "remote heap changed";
  }
  void expect_ok(const softnic_result& r, uint8_t opcode, uint32_t bytes) {
    EXPECT_EQ(r.cqe_opcode, CQE_REQ) << "syndrome 0x" << std::hex << (int)r.syndrome;
    EXPECT_EQ(r.opcode, opcode);
    EXPECT_EQ(r.byte_cnt, bytes);
    EXPECT_FALSE(io.stray);
    EXPECT_FALSE(io.stray_read);
    EXPECT_FALSE(io.bad_amo);
  }
  template <class T>
  T remote_at(size_t off) {
    T v;
    memcpy(&v, h.remote.data() + off, sizeof v);
    return v;
  }
  template <class T>
  void set_remote(size_t off, T v) {
    memcpy(h.remote.data() + off, &v, sizeof v);
  }
};
}  // namespace

TEST_F(SoftnicExec, WriteMovesExactlyTheRange) {
  const std::vector<uint8_t> local0 = h.local, remote0 = h.remote;
  expect_ok(run(rw(OP_RDMA_WRITE, 7, h.raddr(200), 100, h.laddr(8)), 7), OP_RDMA_WRITE, 100);
  EXPECT_EQ(0, memcmp(h.remote.data() + 200, local0.data() + 8, 100));
  EXPECT_EQ(0, memcmp(h.remote.data(), remote0.data(), 200));
  EXPECT_EQ(0, memcmp(h.remote.data() + 300, remote0.data() + 300, kHeap - 300));
  EXPECT_TRUE(h.local == local0);
  ASSERT_EQ(io.writes.size(), 1u);
  EXPECT_EQ(io.writes[0].at, (uintptr_t)h.remote.data() + 200);
  EXPECT_EQ(io.writes[0].n, 100u);
}

TEST_F(SoftnicExec, ReadMovesExactlyTheRange) {
  const std::vector<uint8_t> local0 = h.local, remote0 = h.remote;
  expect_ok(run(rw(OP_RDMA_READ, 0, h.raddr(kHeap - 64), 64, h.laddr(0))), OP_RDMA_READ, 64);
  EXPECT_EQ(0, memcmp(h.local.data(), remote0.data() + kHeap - 64, 64));
  EXPECT_EQ(0, memcmp(h.local.data() + 64, local0.data() + 64, kHeap - 64));
  EXPECT_TRUE(h.remote == remote0);
  EXPECT_EQ(io.bytes_written(), 64u);
}

TEST_F(SoftnicExec, ZeroLengthWriteAtTheEndWritesNothing) {
  const std::vector<uint8_t> remote0 = h.remote;
  expect_ok(run(rw(OP_RDMA_WRITE, 0, h.raddr(kHeap), 0, h.laddr(kHeap))), OP_RDMA_WRITE, 0);
  EXPECT_EQ(io.bytes_written(), 0u);
  EXPECT_TRUE(h.remote == remote0);
}

TEST_F(SoftnicExec, InlineWriteCarriesItsPayload) {
  const uint8_t payload[28] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28};
  expect_ok(run(inl(0, h.raddr(16), payload, 12, 3)), OP_RDMA_WRITE, 12);  // 12 B fit ds = 3
  EXPECT_EQ(0, memcmp(h.remote.data() + 16, payload, 12));
  expect_ok(run(inl(1, h.raddr(100), payload, 28, 4), 1), OP_RDMA_WRITE, 28);  // 28 B need ds = 4
  EXPECT_EQ(0, memcmp(h.remote.data() + 100, payload, 28));
  EXPECT_EQ(io.bytes_written(), 40u);
}

TEST_F(SoftnicExec, FetchAdd8AndCompareSwap8) {
  set_remote<uint64_t>(64, 40);
  expect_ok(run(amo(OP_ATOMIC_FA, 0, h.raddr(64), 2, 0, h.laddr(0))), OP_ATOMIC_FA, 8);
  EXPECT_EQ(remote_at<uint64_t>(64), 42u);
  uint64_t fetched;
  memcpy(&fetched, h.local.data(), 8);
  EXPECT_EQ(fetched, 40u) << "the old value lands in host byte order";

  expect_ok(run(amo(OP_ATOMIC_CS, 1, h.raddr(64), 0x1122334455667788ull, 41, h.laddr(8)), 1), OP_ATOMIC_CS, 8);
  EXPECT_EQ(remote_at<uint64_t>(64), 42u) << "compare 41 != 42: no swap";
  memcpy(&fetched, h.local.data() + 8, 8);
  EXPECT_EQ(fetched, 42u);
  expect_ok(run(amo(OP_ATOMIC_CS, 2, h.raddr(64), 0x1122334455667788ull, 42, h.laddr(16)), 2), OP_ATOMIC_CS, 8);
  EXPECT_EQ(remote_at<uint64_t>(64), 0x1122334455667788ull);
  EXPECT_EQ(io.amos, 3);
}

TEST_F(SoftnicExec, Masked4ByteAtomicsTouchOnlyFourBytes) {
  set_remote<uint32_t>(128, 0xfffffffeu);
  set_remote<uint32_t>(132, 0xabcdef01u);
  const uint32_t after0 = 0x5a5a5a5a;
  memcpy(h.local.data() + 4, &after0, 4);
  expect_ok(run(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(128), 3, 0, h.laddr(0), 4)), OP_ATOMIC_MASKED_FA, 4);
  EXPECT_EQ(remote_at<uint32_t>(128), 1u) << "wraps at 32 bits";
  EXPECT_EQ(remote_at<uint32_t>(132), 0xabcdef01u) << "neighbour untouched";
  uint32_t fetched, after;
  memcpy(&fetched, h.local.data(), 4);
  memcpy(&after, h.local.data() + 4, 4);
  EXPECT_EQ(fetched, 0xfffffffeu);
  EXPECT_EQ(after, after0) << "a 4-byte result writes 4 bytes";

  expect_ok(run(amo(OP_ATOMIC_MASKED_CS, 1, h.raddr(128), 77, 1, h.laddr(8), 4), 1), OP_ATOMIC_MASKED_CS, 4);
  EXPECT_EQ(remote_at<uint32_t>(128), 77u);
  expect_ok(run(amo(OP_ATOMIC_MASKED_CS, 2, h.raddr(128), 99, 1, h.laddr(8), 4), 2), OP_ATOMIC_MASKED_CS, 4);
  EXPECT_EQ(remote_at<uint32_t>(128), 77u);
  memcpy(&fetched, h.local.data() + 8, 4);
  EXPECT_EQ(fetched, 77u);
}

// ---- masked 4-byte atomics: the masks act exactly as on a ConnectX ------------------------------

namespace {
// The masked fetch-add one bit at a time, as its definition reads: add with a carry, and a bit set
// in `boundary` drops the carry out of that bit.
uint32_t bit_serial_masked_add(uint32_t old, uint32_t add, uint32_t boundary) {
  uint32_t out = 0, carry = 0;
  for (int i = 0; i < 32; ++i) {
    const uint32_t sum = ((old >> i) & 1) + ((add >> i) & 1) + carry;
    out |= (sum & 1) << i;
    carry = (boundary >> i) & 1 ? 0 : sum >> 1;
  }
  return out;
}
}  // namespace

TEST(MaskedAtomicSemantics, FetchAddMatchesTheBitSerialDefinition) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  auto next = [&] { return (uint32_t)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 32); };
  for (int i = 0; i < 200000; ++i) {
    const uint32_t old = next(), add = next(), boundary = i % 4 == 0 ? 0x80008000u : next();
    ASSERT_EQ(gio::masked_fa4_result(old, add, boundary), bit_serial_masked_add(old, add, boundary))
        << std::hex << "old 0x" << old << " add 0x" << add << " boundary 0x" << boundary;
  }
  EXPECT_EQ(gio::masked_fa4_result(0xfffffffeu, 3, 0), 1u) << "boundary 0: a plain add, wrapping at 32 bits";
  EXPECT_EQ(gio::masked_fa4_result(0xffff0000u, 0x0f0f0f0fu, ~0u), 0xf0f00f0fu) << "all boundaries: XOR";
  EXPECT_EQ(gio::masked_fa4_result(0x01ff7f80u, 0x01010101u, 0x80808080u), 0x02008081u) << "byte fields";
  EXPECT_EQ(gio::masked_fa4_result(0x0001ffffu, 0x00010001u, 0x00008000u), 0x00020000u) << "16-bit fields";
}

TEST(MaskedAtomicSemantics, CompareSwapMasks) {
  using gio::masked_cs4_result;
  EXPECT_EQ(masked_cs4_result(0x12345678u, 0xdeadbeefu, 0x5555u, ~0u, 0), 0xdeadbeefu) << "compare mask 0: swaps";
  EXPECT_EQ(masked_cs4_result(0xf0f0f0f0u, 0, 0, 0x00ff00ffu, 0), 0xf000f000u) << "and 0xff00ff00";
  EXPECT_EQ(masked_cs4_result(0x0000f0f0u, ~0u, 0, 0x0f0f0000u, 0), 0x0f0ff0f0u) << "or 0x0f0f0000";
  EXPECT_EQ(masked_cs4_result(7, 9, 7, ~0u, ~0u), 9u);
  EXPECT_EQ(masked_cs4_result(7, 9, 8, ~0u, ~0u), 7u);
  EXPECT_EQ(masked_cs4_result(0xab001234u, 0x5678u, 0xab00ffffu, 0xffffu, 0xffff0000u), 0xab005678u);
  EXPECT_EQ(masked_cs4_result(0xab001234u, 0x5678u, 0xac000000u, 0xffffu, 0xffff0000u), 0xab001234u);
}

// Each case through the executor: the word after, the fetched old value in the local buffer, and
// the io's atomics: the masks GIO posts are one atomic each, other masks a fetch + compare-swap.
struct masked_case {
  const char* what;
  uint8_t opcode;
  uint32_t old, swap_add, compare, swap_mask, compare_mask;
  uint32_t want;
  std::vector<int> ops;
};

TEST_F(SoftnicExec, MaskedAtomicsApplyTheirMasks) {
  const masked_case cases[] = {
      {"swap (compare mask 0)", OP_ATOMIC_MASKED_CS, 0x12345678u, 0xdeadbeefu, 0x99u, ~0u, 0, 0xdeadbeefu,
       {GIO_AMO_SWAP}},
      {"and through the swap mask", OP_ATOMIC_MASKED_CS, 0xf0f0f0f0u, 0, 0, 0x00ff00ffu, 0, 0xf000f000u,
       {GIO_AMO_FETCH_AND}},
      {"or, swap all ones", OP_ATOMIC_MASKED_CS, 0x0000f0f0u, ~0u, 0, 0x0f0f0000u, 0, 0x0f0ff0f0u, {GIO_AMO_FETCH_OR}},
      {"or, swap = mask", OP_ATOMIC_MASKED_CS, 0x0000f0f0u, 0x0f0f0000u, 0, 0x0f0f0000u, 0, 0x0f0ff0f0u,
       {GIO_AMO_FETCH_OR}},
      {"swap mask 0", OP_ATOMIC_MASKED_CS, 0x0000f0f0u, 0x1234u, 0, 0, 0, 0x0000f0f0u, {GIO_AMO_FETCH}},
      {"plain compare-swap, equal", OP_ATOMIC_MASKED_CS, 41, 77, 41, ~0u, ~0u, 77, {GIO_AMO_CSWAP}},
      {"plain compare-swap, unequal", OP_ATOMIC_MASKED_CS, 41, 77, 40, ~0u, ~0u, 41, {GIO_AMO_CSWAP}},
      {"partial swap mask", OP_ATOMIC_MASKED_CS, 0x11111111u, 0xabcdef01u, 0, 0x00ff00ffu, 0, 0x11cd1101u,
       {GIO_AMO_FETCH, GIO_AMO_CSWAP}},
      {"partial compare, equal", OP_ATOMIC_MASKED_CS, 0xab001234u, 0x5678u, 0xab00ffffu, 0xffffu, 0xffff0000u,
       0xab005678u, {GIO_AMO_FETCH, GIO_AMO_CSWAP}},
      {"partial compare, unequal", OP_ATOMIC_MASKED_CS, 0xab001234u, 0x5678u, 0xac000000u, 0xffffu, 0xffff0000u,
       0xab001234u, {GIO_AMO_FETCH}},
      {"plain fetch-add (boundary 0)", OP_ATOMIC_MASKED_FA, 0xfffffffeu, 3, 0, 0, 0, 1, {GIO_AMO_FETCH_ADD}},
      {"xor (every bit a boundary)", OP_ATOMIC_MASKED_FA, 0xffff0000u, 0x0f0f0f0fu, ~0u, 0, 0, 0xf0f00f0fu,
       {GIO_AMO_FETCH_XOR}},
      {"fetch (add 0)", OP_ATOMIC_MASKED_FA, 0x5au, 0, 0x12u, 0, 0, 0x5au, {GIO_AMO_FETCH}},
      {"byte fields", OP_ATOMIC_MASKED_FA, 0x01ff7f80u, 0x01010101u, 0x80808080u, 0, 0, 0x02008081u,
       {GIO_AMO_FETCH, GIO_AMO_CSWAP}},
  };
  uint16_t idx = 0;
  for (const masked_case& c : cases) {
    SCOPED_TRACE(c.what);
    io.ops.clear();
    set_remote<uint32_t>(256, c.old);
    set_remote<uint32_t>(260, 0x600df00du);
    memset(h.local.data() + 16, 0xee, 8);
    expect_ok(run(amo(c.opcode, idx, h.raddr(256), c.swap_add, c.compare, h.laddr(16), 4, kRkey, kLkey, 4, c.swap_mask,
                      c.compare_mask),
                  idx),
              c.opcode, 4);
    ++idx;
    EXPECT_EQ(remote_at<uint32_t>(256), c.want) << std::hex << "word 0x" << remote_at<uint32_t>(256);
    EXPECT_EQ(remote_at<uint32_t>(260), 0x600df00du) << "neighbour untouched";
    uint32_t fetched, after;
    memcpy(&fetched, h.local.data() + 16, 4);
    memcpy(&after, h.local.data() + 20, 4);
    EXPECT_EQ(fetched, c.old) << "the old value lands in host byte order";
    EXPECT_EQ(after, 0xeeeeeeeeu) << "a 4-byte result writes 4 bytes";
    EXPECT_EQ(io.ops, c.ops);
    EXPECT_FALSE(io.mixed_amo);
  }
}

// Masks that need the compare-swap loop, while another agent keeps changing the word: the loop
// retries on what it saw, and the fetched value is the word the update finally applied to.
TEST_F(SoftnicExec, MaskedLoopRetriesOnWhatItSaw) {
  set_remote<uint32_t>(64, 0x01ff7f7du);
  io.interfere_left = 3;  // the fetch and the first two compare-swaps each find the word one higher
  expect_ok(run(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(64), 0x01010101u, 0x80808080u, h.laddr(0), 4)),
            OP_ATOMIC_MASKED_FA, 4);
  EXPECT_EQ(io.ops, (std::vector<int>{GIO_AMO_FETCH, GIO_AMO_CSWAP, GIO_AMO_CSWAP, GIO_AMO_CSWAP}));
  uint32_t fetched;
  memcpy(&fetched, h.local.data(), 4);
  EXPECT_EQ(fetched, 0x01ff7f80u);
  EXPECT_EQ(remote_at<uint32_t>(64), 0x02008081u);
}

// A word that changes before every try: the loop gives up after kSoftnicMaskedTries compare-swaps
// with a completion error, having written neither the word nor the result.
TEST_F(SoftnicExec, MaskedLoopGivesUpWithARemoteOpError) {
  set_remote<uint32_t>(64, 100);
  const std::vector<uint8_t> local0 = h.local;
  io.interfere_left = 1 << 30;
  const softnic_result r = run(amo(OP_ATOMIC_MASKED_CS, 0, h.raddr(64), 0x12000000u, 0, h.laddr(0), 4, kRkey, kLkey,
                                   4, 0xff000000u, 0));  // sets the top byte to 0x12: never a no-op here
  EXPECT_EQ(r.cqe_opcode, CQE_REQ_ERR);
  EXPECT_EQ(r.syndrome, SYND_REMOTE_OP);
  EXPECT_TRUE(r.signalled);
  EXPECT_EQ(io.amos, 1 + gio::kSoftnicMaskedTries);
  EXPECT_EQ(remote_at<uint32_t>(64), 100u + 1 + gio::kSoftnicMaskedTries) << "only the other agent's updates";
  EXPECT_TRUE(h.local == local0) << "no result written";
}

TEST_F(SoftnicExec, NopCompletesWithoutTouchingMemory) {
  wqe w;
  set_ctrl(w.ctrl(), 0, OP_NOP, 0, kQpn, 1, CE_CQ_UPDATE, 0);
  const softnic_result r = run(w);
  EXPECT_EQ(r.cqe_opcode, CQE_REQ);
  EXPECT_TRUE(io.writes.empty());
}

// The completion-event bit decides whether a successful WQE produces a CQE.
TEST_F(SoftnicExec, CeBitSelectsSignalling) {
  EXPECT_TRUE(run(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0))).signalled);
  EXPECT_FALSE(run(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey, 3, 0)).signalled);
  EXPECT_FALSE(run(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey, 3, FM_SMALL_AND_FENCE)).signalled);
  EXPECT_TRUE(run(rw(OP_RDMA_READ, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey, 3, CE_CQ_UPDATE | FM_SMALL_AND_FENCE))
                  .signalled);
}


// ---- violations: the right syndrome, and nothing written ----

TEST_F(SoftnicExec, BadRkeyIsRemoteAccessAndWritesNothing) {
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 64, h.laddr(0), kRkey + 1), SYND_REMOTE_ACCESS);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 64, h.laddr(0), 0), SYND_REMOTE_ACCESS);
  const uint8_t p[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  expect_refused(inl(0, h.raddr(0), p, 8, 3, kLkey), SYND_REMOTE_ACCESS);
  expect_refused(amo(OP_ATOMIC_FA, 0, h.raddr(0), 1, 0, h.laddr(0), 8, ~kRkey), SYND_REMOTE_ACCESS);
  expect_refused(amo(OP_ATOMIC_MASKED_CS, 0, h.raddr(0), 1, 0, h.laddr(0), 4, kLkey), SYND_REMOTE_ACCESS);
}

TEST_F(SoftnicExec, RemoteOutOfBoundsIsRemoteAccessAndWritesNothing) {
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(kHeap), 1, h.laddr(0)), SYND_REMOTE_ACCESS);       // past the end
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(kHeap - 10), 11, h.laddr(0)), SYND_REMOTE_ACCESS); // crosses it
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0) - 1, 2, h.laddr(0)), SYND_REMOTE_ACCESS);       // below the base
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(kHeap + 4096), 8, h.laddr(0)), SYND_REMOTE_ACCESS);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(8), 0xffffffffu, h.laddr(0)), SYND_LOCAL_PROT);      // local side first
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(8), kHeap, h.laddr(0)), SYND_REMOTE_ACCESS);  // local fits, remote not
  // raddr + len wraps past 2^64: must not pass as a small range.
  expect_refused(rw(OP_RDMA_WRITE, 0, ~0ull - 3, 64, h.laddr(0)), SYND_REMOTE_ACCESS);
  const uint8_t p[28] = {};
  expect_refused(inl(0, h.raddr(kHeap - 4), p, 5, 3), SYND_REMOTE_ACCESS);
  expect_refused(amo(OP_ATOMIC_CS, 0, h.raddr(kHeap), 1, 0, h.laddr(0)), SYND_REMOTE_ACCESS);
  expect_refused(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(0) - 4, 1, 0, h.laddr(0), 4), SYND_REMOTE_ACCESS);
  // The last bytes are still reachable.
  expect_ok(run(rw(OP_RDMA_WRITE, 0, h.raddr(kHeap - 10), 10, h.laddr(0))), OP_RDMA_WRITE, 10);
}

TEST_F(SoftnicExec, HeapAtTheTopOfTheAddressSpaceDoesNotWrap) {
  fake_heaps top(64, 4096, 0ull - 4096);  // remote heap ends exactly at 2^64
  fake_io tio(top);
  gio::softnic_qp_view v = top.view(kQpn, kLkey, kRkey);
  const std::vector<uint8_t> remote0 = top.remote;
  auto r = gio::softnic_execute(v, rw(OP_RDMA_WRITE, 0, top.raddr(4096 - 8), 16, top.laddr(0)).b, 0, tio);
  EXPECT_EQ(r.syndrome, SYND_REMOTE_ACCESS);
  r = gio::softnic_execute(v, rw(OP_RDMA_WRITE, 0, 0 /* = base + size, wrapped */, 8, top.laddr(0)).b, 0, tio);
  EXPECT_EQ(r.syndrome, SYND_REMOTE_ACCESS);
  EXPECT_TRUE(tio.writes.empty());
  EXPECT_TRUE(top.remote == remote0);
  r = gio::softnic_execute(v, rw(OP_RDMA_WRITE, 0, top.raddr(4096 - 8), 8, top.laddr(0)).b, 0, tio);
  EXPECT_EQ(r.cqe_opcode, CQE_REQ);
  EXPECT_EQ(0, memcmp(top.remote.data() + 4088, top.local.data(), 8));
}

TEST_F(SoftnicExec, BadLkeyOrLocalOutOfBoundsIsLocalProt) {
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey + 1), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 8, h.laddr(kHeap - 4)), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 8, h.laddr(0) - 8), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 8, ~0ull - 3), SYND_LOCAL_PROT);
  // An atomic whose result buffer is invalid must not perform the atomic either.
  expect_refused(amo(OP_ATOMIC_FA, 0, h.raddr(0), 1, 0, h.laddr(0), 8, kRkey, kLkey ^ 1), SYND_LOCAL_PROT);
  expect_refused(amo(OP_ATOMIC_CS, 0, h.raddr(0), 1, 0, h.laddr(kHeap - 4)), SYND_LOCAL_PROT);
  expect_refused(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(0), 1, 0, h.laddr(kHeap - 2), 4), SYND_LOCAL_PROT);
}

// The queue block's key reaches the queue block (scratch words, bounce buffers): reads land there,
// writes and atomics' results come from and go there.
TEST_F(SoftnicExec, QueueKeyCoversTheQueueBlock) {
  const std::vector<uint8_t> queue0 = h.queue, remote0 = h.remote;
  expect_ok(run(rw(OP_RDMA_READ, 0, h.raddr(24), 100, h.qaddr(16), kRkey, kQkey)), OP_RDMA_READ, 100);
  EXPECT_EQ(0, memcmp(h.queue.data() + 16, remote0.data() + 24, 100));
  EXPECT_EQ(0, memcmp(h.queue.data(), queue0.data(), 16));
  EXPECT_EQ(0, memcmp(h.queue.data() + 116, queue0.data() + 116, h.queue.size() - 116));
  expect_ok(run(rw(OP_RDMA_WRITE, 1, h.raddr(512), h.queue.size(), h.qaddr(0), kRkey, kQkey), 1), OP_RDMA_WRITE,
            (uint32_t)h.queue.size());
  EXPECT_EQ(0, memcmp(h.remote.data() + 512, h.queue.data(), h.queue.size()));
  set_remote<uint64_t>(64, 5);
  expect_ok(run(amo(OP_ATOMIC_FA, 2, h.raddr(64), 1, 0, h.qaddr(8), 8, kRkey, kQkey), 2), OP_ATOMIC_FA, 8);
  uint64_t fetched;
  memcpy(&fetched, h.queue.data() + 8, 8);
  EXPECT_EQ(fetched, 5u);
}

// Each key covers its own region and nothing else: an address the key does not cover (the other
// region, memory outside both, a range running off the end) is a local protection error, with
// nothing read or written. The softnic once took a process-wide "any local" key (0x00a11000) and
// copied from whatever address a WQE named (a GPU shared-memory window crashed it); no such key
// exists any more.
TEST_F(SoftnicExec, NoKeyReachesMemoryOutsideItsRegion) {
  uint8_t outside[64] = {};
  const uint64_t o = (uint64_t)(uintptr_t)outside;
  for (uint32_t key : {kLkey, kQkey, 0x00a11000u, 0u}) {
    SCOPED_TRACE(::testing::Message() << "lkey 0x" << std::hex << key);
    expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 64, o, kRkey, key), SYND_LOCAL_PROT);
    expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 64, o, kRkey, key), SYND_LOCAL_PROT);
    expect_refused(amo(OP_ATOMIC_FA, 0, h.raddr(0), 1, 0, o, 8, kRkey, key), SYND_LOCAL_PROT);
  }
  // The heap key does not reach the queue block, nor the queue key the heap.
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 8, h.qaddr(0), kRkey, kLkey), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), kRkey, kQkey), SYND_LOCAL_PROT);
  expect_refused(amo(OP_ATOMIC_CS, 0, h.raddr(0), 1, 0, h.laddr(0), 8, kRkey, kQkey), SYND_LOCAL_PROT);
  // Ranges that start inside the queue block and run past it, or wrap.
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 9, h.qaddr(h.queue.size() - 8), kRkey, kQkey), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.qaddr(0) - 1, kRkey, kQkey), SYND_LOCAL_PROT);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 0xffffffffu, h.qaddr(8), kRkey, kQkey), SYND_LOCAL_PROT);
  expect_refused(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(0), 1, 0, h.qaddr(h.queue.size() - 2), 4, kRkey, kQkey),
                 SYND_LOCAL_PROT);
  for (uint8_t b : outside) EXPECT_EQ(b, 0) << "memory outside every region was written";
}

TEST_F(SoftnicExec, WrongIndexOrQpnIsLocalQpOp) {
  expect_refused(rw(OP_RDMA_WRITE, 5, h.raddr(0), 8, h.laddr(0)), SYND_LOCAL_QP_OP, 4);
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0)), SYND_LOCAL_QP_OP, 0xffff);
  wqe w = rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0));
  set_ctrl(w.ctrl(), 0, OP_RDMA_WRITE, 0, kQpn + 1, 3, CE_CQ_UPDATE, 0);
  expect_refused(w, SYND_LOCAL_QP_OP);
}

TEST_F(SoftnicExec, UnknownOpcodeIsLocalQpOp) {
  for (uint8_t op : {(uint8_t)0x01, (uint8_t)OP_SEND, (uint8_t)0x13, (uint8_t)0x25, (uint8_t)0xff})
    expect_refused(rw(op, 0, h.raddr(0), 8, h.laddr(0)), SYND_LOCAL_QP_OP);
}

TEST_F(SoftnicExec, TooFewSegmentsIsLocalLength) {
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey, 2), SYND_LOCAL_LENGTH);
  expect_refused(rw(OP_RDMA_READ, 0, h.raddr(0), 8, h.laddr(0), kRkey, kLkey, 1), SYND_LOCAL_LENGTH);
  expect_refused(amo(OP_ATOMIC_FA, 0, h.raddr(0), 1, 0, h.laddr(0), 8, kRkey, kLkey, 3), SYND_LOCAL_LENGTH);
  expect_refused(amo(OP_ATOMIC_MASKED_CS, 0, h.raddr(0), 1, 0, h.laddr(0), 4, kRkey, kLkey, 2), SYND_LOCAL_LENGTH);
  // An atomic's data segment must describe exactly its operand size.
  wqe w = amo(OP_ATOMIC_FA, 0, h.raddr(0), 1, 0, h.laddr(0));
  set_data((data_seg*)(w.b + 48), 4, kLkey, h.laddr(0));
  expect_refused(w, SYND_LOCAL_LENGTH);
}

TEST_F(SoftnicExec, InlineLongerThanTheWqeIsLocalLength) {
  const uint8_t p[28] = {};
  expect_refused(inl(0, h.raddr(0), p, 13, 3), SYND_LOCAL_LENGTH);  // 13 B need ds = 4
  expect_refused(inl(0, h.raddr(0), p, 29, 4), SYND_LOCAL_LENGTH);  // more than one WQEBB holds
  expect_refused(inl(0, h.raddr(0), nullptr, 0x7fffffffu, 4), SYND_LOCAL_LENGTH);
}

TEST_F(SoftnicExec, MisalignedAtomicIsRemoteInvalReq) {
  expect_refused(amo(OP_ATOMIC_FA, 0, h.raddr(4), 1, 0, h.laddr(0)), SYND_REMOTE_INVAL_REQ);
  expect_refused(amo(OP_ATOMIC_CS, 0, h.raddr(1), 1, 0, h.laddr(0)), SYND_REMOTE_INVAL_REQ);
  expect_refused(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(2), 1, 0, h.laddr(0), 4), SYND_REMOTE_INVAL_REQ);
  expect_ok(run(amo(OP_ATOMIC_MASKED_FA, 0, h.raddr(4), 1, 0, h.laddr(0), 4)), OP_ATOMIC_MASKED_FA, 4);
}

TEST_F(SoftnicExec, ErrorsAreAlwaysSignalled) {
  expect_refused(rw(OP_RDMA_WRITE, 0, h.raddr(0), 8, h.laddr(0), 0, kLkey, 3, 0), SYND_REMOTE_ACCESS);
}

// The peer's data segment (its globals, host/heap/globals.h) under a key of its own: here the
// remote vector's bytes [2048, 3072), addressed from a base of their own. Each key reaches its own
// region only, and a QP with no segment key (0) refuses key 0.
TEST_F(SoftnicExec, SegmentKeyReachesTheSegmentOnly) {
  constexpr uint32_t kSkey = 0x4444;
  constexpr uint64_t kSbase = 0x20000000ull;
  constexpr size_t kSat = 2048, kSsize = 1024;
  qp.remote_seg_rkey = kSkey;
  qp.remote_seg_base = kSbase;
  qp.remote_seg_mapped = h.remote.data() + kSat;
  qp.remote_seg_size = kSsize;
  const std::vector<uint8_t> local0 = h.local;
  expect_ok(run(rw(OP_RDMA_WRITE, 0, kSbase + 16, 40, h.laddr(0), kSkey)), OP_RDMA_WRITE, 40);
  EXPECT_EQ(0, memcmp(h.remote.data() + kSat + 16, local0.data(), 40));
  set_remote<uint64_t>(kSat + 64, 5);
  expect_ok(run(amo(OP_ATOMIC_FA, 1, kSbase + 64, 3, 0, h.qaddr(0), 8, kSkey, kQkey), 1), OP_ATOMIC_FA, 8);
  EXPECT_EQ(remote_at<uint64_t>(kSat + 64), 8u);
  io.writes.clear();
  io.amos = 0;
  expect_refused(rw(OP_RDMA_WRITE, 2, h.raddr(16), 8, h.laddr(0), kSkey), SYND_REMOTE_ACCESS, 2);  // heap address
  expect_refused(rw(OP_RDMA_WRITE, 2, kSbase + 16, 8, h.laddr(0), kRkey), SYND_REMOTE_ACCESS, 2);  // heap key
  expect_refused(rw(OP_RDMA_READ, 2, kSbase + kSsize - 8, 16, h.laddr(0), kSkey), SYND_REMOTE_ACCESS, 2);  // past end
  qp.remote_seg_rkey = 0;  // a peer without a symmetric segment
  expect_refused(rw(OP_RDMA_WRITE, 2, kSbase + 16, 8, h.laddr(0), 0), SYND_REMOTE_ACCESS, 2);
}
