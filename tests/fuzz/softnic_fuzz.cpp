// libFuzzer target for the softnic's WQE executor: arbitrary 64-byte WQEs against two small fake
// heaps and a fake queue block, each under its own key (no key reaches anything else). It traps
// on any write or atomic outside them and on an error result that moved a byte; ASan and UBSan
// catch out-of-bounds reads of the WQE or the regions. Built and run by tests/fuzz/run.sh.
//
// Input: [0, 64) the WQE (zero-padded), [64] flags, [65, 67) expect_idx (little-endian), [67]
// more flags (bit 0: bits 3 and 4 below name the queue block and its key instead of the heap).
// Random bytes almost never name the QP, its keys or a heap address, so the flags let the fuzzer
// patch those fields in and reach the success paths:
//   bit 0: expect the WQE's own index      bit 1: the QP's qpn is the WQE's
//   bit 2: the peer's rkey is the WQE's     bit 3: the local lkey is the WQE's
//   bit 4: the local address field is an offset from the local heap (wrapping)
//   bit 5: raddr is an offset from the remote base (wrapping)
//   bits 6-7: the remote base: 0x10000, the top of the address space, 0, or a high one
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/unit/softnic_fake_io.h"

using namespace gio::mlx5;

namespace {
constexpr size_t kLocal = 256, kRemote = 256;

uint32_t ld32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return be32(v);
}
uint64_t ld64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return be64(v);
}
void st64(uint8_t* p, uint64_t v) {
  v = be64(v);
  memcpy(p, &v, 8);
}

bool is_atomic(uint8_t op) {
  return op == OP_ATOMIC_CS || op == OP_ATOMIC_FA || op == OP_ATOMIC_MASKED_CS || op == OP_ATOMIC_MASKED_FA;
}

[[noreturn]] void fail(const char* why) {
  fprintf(stderr, "softnic_fuzz: %s\n", why);
  abort();
}

// A successful 4-byte masked atomic left what a ConnectX leaves (host/gda/softnic_exec.h) and
// fetched the word's old value.
void check_masked(const uint8_t* w, const std::vector<uint8_t>& remote0, const gio_test::fake_heaps& h,
                  const gio::softnic_result& r) {
  const size_t off = (size_t)(ld64(w + 16) - h.remote_base);
  uint32_t old, now, fetched;
  memcpy(&old, remote0.data() + off, 4);
  memcpy(&now, h.remote.data() + off, 4);
  memcpy(&fetched, (const void*)(uintptr_t)ld64(w + 56), 4);
  const uint32_t want = r.opcode == OP_ATOMIC_MASKED_FA
                            ? gio::masked_fa4_result(old, ld32(w + 32), ld32(w + 36))
                            : gio::masked_cs4_result(old, ld32(w + 32), ld32(w + 36), ld32(w + 40), ld32(w + 44));
  if (now != want) fail("a masked atomic left another value than a ConnectX would");
  if (fetched != old) fail("a masked atomic fetched another value than the word's old one");
}

// A valid WQE of every kind (plus a few near misses) as the starting corpus.
void write_seeds(const char* dir) {
  using namespace gio_test;
  const uint8_t payload[28] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  const wqe seeds[] = {
      rw(OP_RDMA_WRITE, 3, 64, 32, 16),
      rw(OP_RDMA_READ, 3, 0, 256, 0),
      rw(OP_RDMA_WRITE, 3, 255, 1, 255, kRkey, kLkey, 3, 0),
      inl(3, 8, payload, 12, 3),
      inl(3, 228, payload, 28, 4),
      amo(OP_ATOMIC_FA, 3, 8, 5, 0, 0),
      amo(OP_ATOMIC_CS, 3, 248, 7, 0, 8),
      amo(OP_ATOMIC_MASKED_FA, 3, 4, 1, 0, 252, 4),
      amo(OP_ATOMIC_MASKED_CS, 3, 252, 9, 0, 0, 4),
      amo(OP_ATOMIC_MASKED_CS, 3, 248, 0xf0, 0x0f, 0, 4, kRkey, kLkey, 4, 0x3c, 0x0f),  // the loop
      amo(OP_ATOMIC_MASKED_FA, 3, 244, 0x0101, 0x80, 4, 4),                          // byte fields
      amo(OP_ATOMIC_FA, 3, 12, 5, 0, 0),  // misaligned
      rw(OP_RDMA_WRITE, 3, 250, 8, 0),     // crosses the end
  };
  int n = 0;
  for (int side = 0; side < 2; ++side) {
    for (const wqe& w : seeds) {
      uint8_t in[68];
      memcpy(in, w.b, 64);
      in[64] = 0x3f;  // match QP, keys and both heaps
      in[65] = 3;
      in[66] = 0;
      in[67] = (uint8_t)side;  // the local side in the heap, or in the queue block
      const std::string path = std::string(dir) + "/seed" + std::to_string(n++);
      FILE* f = fopen(path.c_str(), "wb");
      if (!f || fwrite(in, 1, sizeof in, f) != sizeof in) fail("cannot write a seed");
      fclose(f);
    }
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = getenv("GIO_FUZZ_WRITE_SEEDS")) {
    write_seeds(dir);
    exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  alignas(64) uint8_t w[64] = {};  // the softnic executes from an aligned private copy too
  memcpy(w, data, size < 64 ? size : 64);
  const uint8_t flags = size > 64 ? data[64] : 0;
  uint16_t expect = 0;
  if (size > 66) expect = (uint16_t)(data[65] | data[66] << 8);

  static const uint64_t bases[4] = {0x10000, 0ull - kRemote, 0, 0x7ffffffff000ull};
  gio_test::fake_heaps h(kLocal, kRemote, bases[flags >> 6]);
  gio_test::fake_io io(h);
  io.readable = {(uintptr_t)w, sizeof w};
  gio::softnic_qp_view qp = h.view(0x4242, 0x1111, 0x2222);

  const uint8_t opcode = ctrl_opcode((const ctrl_seg*)w);
  const size_t lkey_at = is_atomic(opcode) ? 52 : 36, laddr_at = lkey_at + 4;
  if (flags & 1) expect = ctrl_wqe_idx((const ctrl_seg*)w);
  if (flags & 2) qp.qpn = ctrl_qpn((const ctrl_seg*)w);
  if (flags & 4) qp.remote_rkey = ld32(w + 24);
  const bool queue_side = size > 67 && (data[67] & 1);
  if (flags & 8) (queue_side ? qp.queue_lkey : qp.local_lkey) = ld32(w + lkey_at);
  if (flags & 16) st64(w + laddr_at, (queue_side ? h.qaddr(0) : h.laddr(0)) + ld64(w + laddr_at));
  if (flags & 32) st64(w + 16, h.remote_base + ld64(w + 16));

  const std::vector<uint8_t> local0 = h.local, queue0 = h.queue, remote0 = h.remote;
  const gio::softnic_result r = gio::softnic_execute(qp, w, expect, io);

  if (io.stray) fail("a write or atomic fell outside both heaps");
  if (io.stray_read) fail("a copy read from outside the heaps and the WQE");
  if (io.bad_amo) fail("an atomic with a bad op, size or alignment reached the io");
  if (io.mixed_amo) fail("one WQE's atomics touched more than one address");
  if (r.opcode != opcode) fail("the result names another opcode");
  if (r.cqe_opcode == CQE_REQ_ERR) {
    if (!io.writes.empty() || io.amos) fail("an error result wrote memory");
    if (h.local != local0 || h.queue != queue0 || h.remote != remote0) fail("an error result changed a heap");
    if (!r.signalled) fail("an error result is not signalled");
  } else if (r.cqe_opcode == CQE_REQ) {
    // What a successful WQE may have written: its byte count, plus the fetched value of an atomic.
    // A masked atomic whose masks match no single io atomic is a fetch and a compare-swap (the
    // fake io has no contender, so the first compare-swap sticks).
    const size_t most = is_atomic(opcode) ? (size_t)(io.amos + 1) * r.byte_cnt : r.byte_cnt;
    if (io.bytes_written() > most) fail("a WQE wrote more than its byte count");
    if (is_atomic(opcode) && (io.amos < 1 || io.amos > 2)) fail("an atomic took other than one or two io atomics");
    if (opcode == OP_ATOMIC_MASKED_CS || opcode == OP_ATOMIC_MASKED_FA) check_masked(w, remote0, h, r);
    if (opcode == OP_RDMA_WRITE && (h.local != local0 || h.queue != queue0)) fail("a WRITE changed local memory");
    if (opcode == OP_RDMA_READ && h.remote != remote0) fail("a READ changed the remote heap");
  } else {
    fail("the CQE opcode is neither REQ nor REQ_ERR");
  }
  return 0;
}
