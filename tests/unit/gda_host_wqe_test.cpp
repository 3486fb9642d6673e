// The host's side of gda (host/gda/gda_host.h): the WQEs the CPU posts on its queue set must be
// the very bytes a kernel's post() leaves in a slot for the same operation (the device's post()
// runs as plain C++ on the host platform), and the drain's completion test must read the
// collapsed CQE right across 16-bit index wrap and report error CQEs with the queue and syndrome.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "device/gda/gda_ops.h"
#include "host/gda/gda_host.h"
#include "runtime/gda_tmpl.h"
#include "tests/unit/gda_test_queue.h"

namespace {
constexpr uint32_t kQpn = 0x1234a5, kLkey = 0x47000101, kRkey = 0x47000201, kScratchKey = 0x47000301;

struct test_queue : giotest::gda_test_queue {
  explicit test_queue(uint32_t slots) : gda_test_queue(slots, kQpn, kLkey, kRkey, kScratchKey, 3) {}
};

// Bytes of a WQE the NIC reads (the rest of the WQEBB is ignored).
size_t meaningful(int kind, uint32_t len) {
  if (kind == GIO_GDA_T_PUT_INLINE) return 36 + len;
  return kind >= GIO_GDA_T_FA8 ? 64 : 48;
}
}  // namespace

TEST(GdaHostWqe, SameBytesAsTheDevicePost) {
  test_queue t(16);
  std::mt19937_64 rng(11);
  uint8_t payload[GIO_GDA_INLINE_MAX];
  for (auto& b : payload) b = (uint8_t)rng();
  const int kinds[] = {GIO_GDA_T_PUT, GIO_GDA_T_PUT_INLINE, GIO_GDA_T_GET, GIO_GDA_T_FA8,
                       GIO_GDA_T_CS8, GIO_GDA_T_FA4,        GIO_GDA_T_CS4};
  // Kinds in random order over several laps of the ring, so the device's template-restore path
  // runs too; idx crosses 65536 so the 16-bit index word wraps.
  for (uint64_t idx = 0; idx < 70000; idx += 1 + (idx > 40 && idx < 65500 ? 997 : 0)) {
    const int kind = kinds[rng() % 7];
    gio::dev::gda::wqe_args d{};
    gio::gda_host_wqe_args h;
    d.raddr = h.raddr = rng();
    switch (kind) {
      case GIO_GDA_T_PUT:
      case GIO_GDA_T_GET:
        d.laddr = h.laddr = rng() | 1;
        d.len = h.len = (uint32_t)rng();
        d.lkey = rng() % 2 ? gio::mlx5::be32(kLkey) : 0;  // the device's 0 means the template's
        h.lkey = gio::mlx5::be32(kLkey);
        break;
      case GIO_GDA_T_PUT_INLINE:
        d.len = h.len = (uint32_t)(rng() % (GIO_GDA_INLINE_MAX + 1));
        d.laddr = (uint64_t)(uintptr_t)payload;
        h.inl = payload;
        break;
      default:
        d.swap_add = h.swap_add = rng();
        d.compare = h.compare = kind == GIO_GDA_T_CS8 || kind == GIO_GDA_T_CS4 ? rng() : 0;
        if (kind == GIO_GDA_T_FA4 || kind == GIO_GDA_T_CS4) {  // 4-byte operands (FA: compare = field boundary)
          d.swap_add = h.swap_add &= 0xffffffffu;
          d.compare = h.compare = rng() & 0xffffffffu;
          d.swap_mask = h.swap_mask = (uint32_t)rng();  // masked compare-swap's masks; a fetch-add has none
          d.compare_mask = h.compare_mask = (uint32_t)rng();
        }
    }
    t.q.reserved = t.q.published = t.q.completed = idx;  // the NIC has retired everything before idx
    ASSERT_EQ(gio::dev::gda::post("gda_host_wqe_test", &t.q, kind, d), idx);
    uint8_t w[64];
    gio::gda_host_build_wqe(t.q, idx, kind, h, w);
    const size_t n = meaningful(kind, h.len);
    for (size_t b = 0; b < n; ++b)
      ASSERT_EQ(w[b], t.slot(idx)[b]) << "kind " << kind << ", WQE " << idx << ": byte " << b;
  }
}

namespace {
struct one_queue {
  test_queue t{16};
  gio::gda_state g;
  one_queue() {
    g.sets = 0;
    g.nic_sets = 1;  // the only set is the host's
    g.host_desc.push_back(t.q);
  }
  void cqe(uint8_t opcode, uint16_t ctr, uint8_t syndrome = 0) {
    gio::mlx5::set_cqe(t.q.cq, opcode, syndrome, opcode == gio::mlx5::CQE_REQ ? 0 : 0x42, kQpn, ctr, 0);
    t.q.cq->op_own = gio::mlx5::make_op_own(opcode, 0);
  }
  bool covers(uint16_t pi) { return gio::gda_queue_covers(g, 0, pi, "gda_host_wqe_test"); }
};
}  // namespace

TEST(GdaDrain, CoversReadsTheCollapsedCqeAcrossWrap) {
  one_queue x;
  x.t.q.cq->op_own = 0xff;  // as gda_connect leaves it: nothing has completed
  EXPECT_TRUE(x.covers(0)) << "nothing posted, nothing to wait for";
  EXPECT_FALSE(x.covers(1)) << "WQE 0 posted, no CQE yet";
  x.cqe(gio::mlx5::CQE_REQ, 4);
  EXPECT_TRUE(x.covers(5));
  EXPECT_FALSE(x.covers(6)) << "WQE 5 not completed";
  EXPECT_FALSE(x.covers(4 + 16)) << "a full queue ahead";
  EXPECT_TRUE(x.covers(3)) << "the CQE is already past the snapshot";
  x.cqe(gio::mlx5::CQE_REQ, 0xffff);
  EXPECT_TRUE(x.covers(0)) << "pi wrapped to 0: WQE 0xffff is the last";
  EXPECT_FALSE(x.covers(1));
  x.cqe(gio::mlx5::CQE_REQ, 0xfffe);
  EXPECT_FALSE(x.covers(0));
  x.cqe(gio::mlx5::CQE_REQ, 2);
  EXPECT_TRUE(x.covers(0xfffe)) << "completions went on past the wrap";
}

TEST(GdaDrain, ErrorCqeNamesRoutineQueueAndSyndrome) {
  one_queue x;
  // The failing WQE: a put in slot 7.
  gio::gda_host_wqe_args h;
  h.len = 64;
  h.lkey = gio::mlx5::be32(kLkey);
  gio::gda_host_build_wqe(x.t.q, 7, GIO_GDA_T_PUT, h, x.t.q.sq + 7 * 64);
  x.cqe(gio::mlx5::CQE_REQ_ERR, 7, gio::mlx5::SYND_LOCAL_PROT);
  EXPECT_EXIT(x.covers(8), ::testing::ExitedWithCode(GIO_EXIT_CODE),
              "gda_host_wqe_test on PE -?[0-9]+: gda completion error on the host queue to PE 3 \\(qpn 0x1234a5\\): "
              "WQE index 7, opcode 0x08, syndrome 0x04");
}
