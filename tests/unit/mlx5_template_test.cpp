// Prebuilt WQE templates against rdma-core: a queue is laid out as host/gda/gda_connect.cpp does it, the
// device's post() (plain C++ on the host platform) fills only the dynamic fields, and the slot
// must equal, byte for byte, a WQE built from scratch with mlx5dv_set_ctrl_seg + raddr +
// mlx5dv_set_data_seg. Slots are reused across operation kinds, fence and custom lkeys, so the
// template restore path is exercised as well as the put fast path.
#include <endian.h>
#include <gtest/gtest.h>
#include <infiniband/mlx5dv.h>

#include <cstring>
#include <random>
#include <vector>

#include "apps/gda_post/post_variants.h"  // the benchmark's full and dedicated builds
#include "device/gda/gda_ops.h"
#include "runtime/gda_tmpl.h"
#include "tests/unit/gda_test_queue.h"

namespace {
using gio::dev::gda::wqe_args;
constexpr uint32_t kQpn = 0x1234a5, kLkey = 0x47000101, kRkey = 0x47000201, kQkey = 0x51000102;

struct test_queue : giotest::gda_test_queue {
  explicit test_queue(uint32_t slots) : gda_test_queue(slots, kQpn, kLkey, kRkey, kQkey) {}
};

struct op {
  int kind;
  wqe_args a;
  bool fence;
};

// The reference WQE, built from nothing with rdma-core's structs and helpers. Returns how many
// leading bytes are meaningful (the rest of the WQEBB is ignored by the NIC).
size_t reference_wqe(const test_queue& t, const op& o, uint64_t idx, uint8_t w[64]) {
  memset(w, 0, 64);
  const uint8_t fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE | (o.fence ? MLX5_WQE_CTRL_FENCE : 0);
  const uint64_t scratch = (uint64_t)(uintptr_t)&t.q.scratch[idx & (t.q.sq_slots - 1)];
  const uint32_t lkey = o.a.lkey ? be32toh(o.a.lkey) : kLkey;
  auto* c = (mlx5_wqe_ctrl_seg*)w;
  auto* r = (mlx5_wqe_raddr_seg*)(w + 16);
  r->raddr = htobe64(o.a.raddr);
  r->rkey = htobe32(kRkey);
  r->reserved = 0;
  switch (o.kind) {
    case GIO_GDA_T_PUT:
    case GIO_GDA_T_GET: {
      const bool put = o.kind == GIO_GDA_T_PUT;
      mlx5dv_set_ctrl_seg(c, (uint16_t)idx, put ? MLX5_OPCODE_RDMA_WRITE : MLX5_OPCODE_RDMA_READ, 0, kQpn, fm_ce_se, 3,
                          0, 0);
      const uint64_t laddr = (!put && o.a.laddr == 0) ? scratch : o.a.laddr;
      mlx5dv_set_data_seg((mlx5_wqe_data_seg*)(w + 32), o.a.len, lkey, (uintptr_t)laddr);
      return 48;
    }
    case GIO_GDA_T_FA8:
    case GIO_GDA_T_CS8: {
      const bool fa = o.kind == GIO_GDA_T_FA8;
      mlx5dv_set_ctrl_seg(c, (uint16_t)idx, fa ? MLX5_OPCODE_ATOMIC_FA : MLX5_OPCODE_ATOMIC_CS, 0, kQpn, fm_ce_se, 4,
                          0, 0);
      auto* at = (mlx5_wqe_atomic_seg*)(w + 32);
      at->swap_add = htobe64(o.a.swap_add);
      at->compare = htobe64(o.a.compare);
      mlx5dv_set_data_seg((mlx5_wqe_data_seg*)(w + 48), 8, o.a.lkey ? lkey : kQkey,
                          (uintptr_t)scratch);
      return 64;
    }
    case GIO_GDA_T_PUT_INLINE: {
      const uint8_t ds = (uint8_t)(2 + (sizeof(mlx5_wqe_inl_data_seg) + o.a.len + 15) / 16);
      mlx5dv_set_ctrl_seg(c, (uint16_t)idx, MLX5_OPCODE_RDMA_WRITE, 0, kQpn, fm_ce_se, ds, 0, 0);
      ((mlx5_wqe_inl_data_seg*)(w + 32))->byte_count = htobe32(o.a.len | MLX5_INLINE_SEG);
      memcpy(w + 36, (const void*)(uintptr_t)o.a.laddr, o.a.len);
      return 36 + o.a.len;
    }
  }
  ADD_FAILURE() << "no reference for kind " << o.kind;
  return 0;
}

op random_op(std::mt19937_64& rng, int kind, const uint8_t* payload) {
  op o{kind, {}, rng() % 5 == 0};
  o.a.raddr = rng();
  o.a.lkey = rng() % 4 == 0 ? htobe32((uint32_t)rng()) : 0;
  switch (kind) {
    case GIO_GDA_T_PUT: o.a.laddr = rng() | 1; o.a.len = (uint32_t)rng(); break;
    case GIO_GDA_T_GET: o.a.laddr = rng() % 3 ? rng() : 0; o.a.len = (uint32_t)rng(); break;
    case GIO_GDA_T_FA8: o.a.swap_add = rng(); break;  // fetch-add carries no compare operand
    case GIO_GDA_T_CS8: o.a.swap_add = rng(); o.a.compare = rng(); break;
    case GIO_GDA_T_CS4:  // masked: the masks are dynamic fields too
      o.a.swap_add = rng();
      o.a.compare = rng();
      o.a.swap_mask = (uint32_t)rng();
      o.a.compare_mask = (uint32_t)rng();
      break;
    case GIO_GDA_T_FA4: o.a.swap_add = rng(); o.a.compare = rng() % 2 ? rng() : 0; break;  // compare: field boundary
    case GIO_GDA_T_PUT_INLINE:
      o.a.lkey = 0;  // inline data has no local key
      o.a.len = (uint32_t)(rng() % (GIO_GDA_INLINE_MAX + 1));
      o.a.laddr = (uint64_t)(uintptr_t)payload;
      break;
  }
  return o;
}

// GIO's post() and gio-gda-post's variants of it (apps/gda_post/post_variants.h).
enum build { BUILD_TEMPLATE, BUILD_FULL, BUILD_DEDICATED };
template <int BUILD>
uint64_t post(test_queue& t, const op& o) {
  t.q.completed = t.q.reserved;  // the NIC has retired everything: no back-pressure wait
  wqe_args a = o.a;
  a.fence = o.fence;
  if (BUILD == BUILD_FULL) return gio::bench::post_full("mlx5_template_test", &t.q, o.kind, a);
  if (BUILD == BUILD_DEDICATED) return gio::bench::post_dedicated_put("mlx5_template_test", &t.q, a);
  return gio::dev::gda::post("mlx5_template_test", &t.q, o.kind, a);
}

void check_doorbell(const test_queue& t, uint64_t idx, const uint8_t* w) {
  EXPECT_EQ(t.q.dbrec[MLX5_SND_DBR], htobe32((uint32_t)(idx + 1) & 0xffff)) << "doorbell record after WQE " << idx;
  uint64_t first8;
  memcpy(&first8, w, 8);
  EXPECT_EQ(*t.q.db, first8) << "doorbell value is the WQE's first 8 bytes";
  EXPECT_EQ(t.q.published, idx + 1);
}
}  // namespace

TEST(Mlx5Template, PrefilledPutWritesOnlyDynamicFields) {
  test_queue t(8);
  std::mt19937_64 rng(5);
  // The dynamic fields of a put: index word, raddr, byte count, local address.
  bool dynamic[64] = {};
  for (int b : {0, 1, 2, 3}) dynamic[b] = true;
  for (int b = 16; b < 24; ++b) dynamic[b] = true;
  for (int b = 32; b < 36; ++b) dynamic[b] = true;
  for (int b = 40; b < 48; ++b) dynamic[b] = true;
  for (uint64_t i = 0; i < 8; ++i) {
    op o = random_op(rng, GIO_GDA_T_PUT, nullptr);
    o.fence = false;
    o.a.lkey = 0;
    uint8_t before[64], ref[64];
    memcpy(before, t.slot(i), 64);
    const uint64_t idx = post<BUILD_TEMPLATE>(t, o);
    ASSERT_EQ(idx, i);
    for (int b = 0; b < 64; ++b) {
      if (dynamic[b]) continue;
      ASSERT_EQ(before[b], t.slot(idx)[b]) << "static byte " << b << " rewritten by a put";
    }
    const size_t n = reference_wqe(t, o, idx, ref);
    ASSERT_EQ(0, memcmp(t.slot(idx), ref, n)) << "put WQE " << idx;
    check_doorbell(t, idx, t.slot(idx));
  }
}

TEST(Mlx5Template, EveryKindMatchesAFullBuildAcrossSlotReuse) {
  std::mt19937_64 rng(6);
  uint8_t payload[GIO_GDA_INLINE_MAX];
  const int kinds[] = {GIO_GDA_T_PUT, GIO_GDA_T_PUT, GIO_GDA_T_PUT_INLINE, GIO_GDA_T_GET, GIO_GDA_T_FA8, GIO_GDA_T_CS8};
  // Four slots wrap many times; the 16-bit index wraps too.
  test_queue t(4);
  t.q.reserved = t.q.published = t.q.completed = 0xfff0;
  for (int i = 0; i < 4000; ++i) {
    for (auto& b : payload) b = (uint8_t)rng();
    const op o = random_op(rng, kinds[rng() % 6], payload);
    const uint64_t idx = post<BUILD_TEMPLATE>(t, o);
    uint8_t ref[64];
    const size_t n = reference_wqe(t, o, idx, ref);
    ASSERT_EQ(0, memcmp(t.slot(idx), ref, n)) << "kind " << o.kind << " WQE " << idx << " fence " << o.fence;
    check_doorbell(t, idx, t.slot(idx));
  }
}

TEST(Mlx5Template, FullBuildMatchesTemplateForEveryKind) {
  // The benchmark's full build rewrites every field (the IBGDA way); it must produce the
  // same bytes as the templated path, masked 4-byte atomics included.
  std::mt19937_64 rng(7);
  uint8_t payload[GIO_GDA_INLINE_MAX];
  test_queue tmpl(4), full(4);
  for (int i = 0; i < 2000; ++i) {
    for (auto& b : payload) b = (uint8_t)rng();
    const op o = random_op(rng, (int)(rng() % GIO_GDA_T_COUNT), payload);
    const uint64_t a = post<BUILD_TEMPLATE>(tmpl, o), b = post<BUILD_FULL>(full, o);
    ASSERT_EQ(a, b);
    const size_t ds = gio::mlx5::ctrl_ds((const gio::mlx5::ctrl_seg*)full.slot(b));
    const size_t n = o.kind == GIO_GDA_T_PUT_INLINE ? 36 + o.a.len : ds * 16;
    uint8_t ref[64];
    memcpy(ref, full.slot(b), 64);
    // Scratch addresses differ between the two queues; compare them as slot offsets.
    if (o.kind >= GIO_GDA_T_FA8 || (o.kind == GIO_GDA_T_GET && o.a.laddr == 0)) {
      const size_t at = o.kind >= GIO_GDA_T_FA8 ? 56 : 40;
      const uint64_t s = htobe64((uint64_t)(uintptr_t)&tmpl.q.scratch[a & 3]);
      memcpy(ref + at, &s, 8);
    }
    ASSERT_EQ(0, memcmp(tmpl.slot(a), ref, n)) << "kind " << o.kind << " WQE " << a;
  }
}

TEST(Mlx5Template, DedicatedPutQueueMatchesAFullBuild) {
  // A put-only queue skips the kind and hold bookkeeping; fences and foreign local keys still have
  // to come out right, and must not leak into the next put in the same slot.
  std::mt19937_64 rng(8);
  test_queue ded(4), full(4);
  for (int i = 0; i < 2000; ++i) {
    op o = random_op(rng, GIO_GDA_T_PUT, nullptr);
    const uint64_t a = post<BUILD_DEDICATED>(ded, o), b = post<BUILD_FULL>(full, o);
    ASSERT_EQ(a, b);
    uint8_t ref[64];
    const size_t n = reference_wqe(ded, o, a, ref);
    ASSERT_EQ(0, memcmp(ded.slot(a), ref, n)) << "put WQE " << a << " fence " << o.fence << " lkey " << o.a.lkey;
    ASSERT_EQ(0, memcmp(ded.slot(a), full.slot(b), n)) << "put WQE " << a;
    check_doorbell(ded, a, ded.slot(a));
  }
}

// Local keys: a buffer outside the symmetric heap is not registered with the NIC (a ConnectX has
// no key for arbitrary memory, and the softnic behaves the same). A put from one travels inline
// when it fits, else through the queue's bounce buffer under the queue block's key.
namespace {
struct keyed_queue {
  std::vector<uint8_t> heap = std::vector<uint8_t>(1 << 16);
  std::vector<uint8_t> bounce;
  test_queue t{8};
  gio_device_state_v1 st{};
  explicit keyed_queue(uint32_t bounce_bytes) : bounce(bounce_bytes) {
    t.q.bounce = bounce_bytes ? bounce.data() : nullptr;
    t.q.bounce_bytes = bounce_bytes;
    st.heap_base = heap.data();
    st.heap_size = heap.size();
    st.n_pes = 1;
    st.gda_sets = 1;
    st.gda_default_sets = 1;
    st.gda_queues = &t.q;
  }
  const mlx5_wqe_data_seg* data(uint64_t idx) { return (const mlx5_wqe_data_seg*)(t.slot(idx) + 32); }
};
}  // namespace

TEST(GdaLocalKeys, NonHeapPutsBounceUnderTheQueueKey) {
  keyed_queue k(256);
  uint8_t* dst = k.heap.data() + GIO_HEAP_RESERVED;
  std::vector<uint8_t> outside(100);
  for (size_t i = 0; i < outside.size(); ++i) outside[i] = (uint8_t)(i * 5 + 1);
  gio::dev::gda::put("shmem_putmem_nbi", k.st, nullptr, dst, outside.data(), outside.size(), 0, true);
  ASSERT_EQ(k.t.q.reserved, 1u);
  EXPECT_EQ(be32toh(k.data(0)->lkey), kQkey) << "the bounce buffer is under the queue block's key";
  EXPECT_EQ(be64toh(k.data(0)->addr), (uint64_t)(uintptr_t)k.bounce.data());
  EXPECT_EQ(be32toh(k.data(0)->byte_count), 100u);
  EXPECT_EQ(0, memcmp(k.bounce.data(), outside.data(), outside.size())) << "staged before the doorbell";
  EXPECT_EQ(k.t.q.bounce_used[0], 1u) << "half 0 is busy until WQE 0 completes";
  EXPECT_EQ(k.t.q.bounce_lock, 0u) << "released";
  outside.assign(outside.size(), 0);  // _nbi: the source is free already
  EXPECT_NE(0, memcmp(k.bounce.data(), outside.data(), outside.size()));
  // Small ones travel inline; a source inside the heap keeps the heap's key and address.
  gio::dev::gda::put("shmem_putmem_nbi", k.st, nullptr, dst, outside.data(), GIO_GDA_INLINE_MAX, 0, true);
  EXPECT_EQ(be32toh(*(const uint32_t*)(k.t.slot(1) + 32)), GIO_GDA_INLINE_MAX | MLX5_INLINE_SEG);
  gio::dev::gda::put("shmem_putmem_nbi", k.st, nullptr, dst, k.heap.data() + 8192, 4096, 0, true);
  EXPECT_EQ(be32toh(k.data(2)->lkey), kLkey);
  EXPECT_EQ(be64toh(k.data(2)->addr), (uint64_t)(uintptr_t)(k.heap.data() + 8192));
}

// A put larger than a half goes in chunks that alternate halves; a half is refilled only after the
// WQE that read it completed.
TEST(GdaLocalKeys, LargeNonHeapPutsChunkThroughBothHalves) {
  keyed_queue k(256);
  std::vector<uint8_t> outside(300);
  for (size_t i = 0; i < outside.size(); ++i) outside[i] = (uint8_t)(i * 3 + 7);
  // The collapsed CQE reports WQE 1 done (and so WQE 0): refilling half 0 for the third chunk
  // waits for WQE 0, which poll() then finds complete.
  k.t.q.cq->wqe_counter = htobe16(1);
  gio::dev::gda::put("shmem_putmem_nbi", k.st, nullptr, k.heap.data() + GIO_HEAP_RESERVED, outside.data(), 300, 0, true);
  ASSERT_EQ(k.t.q.reserved, 3u);
  const uint64_t b0 = (uint64_t)(uintptr_t)k.bounce.data(), b1 = b0 + 128;
  EXPECT_EQ(be64toh(k.data(0)->addr), b0);
  EXPECT_EQ(be64toh(k.data(1)->addr), b1);
  EXPECT_EQ(be64toh(k.data(2)->addr), b0);
  EXPECT_EQ(be32toh(k.data(0)->byte_count), 128u);
  EXPECT_EQ(be32toh(k.data(2)->byte_count), 44u);
  EXPECT_EQ(0, memcmp(k.bounce.data(), outside.data() + 256, 44)) << "the third chunk refilled half 0";
  EXPECT_EQ(0, memcmp(k.bounce.data() + 128, outside.data() + 128, 128));
  EXPECT_EQ(k.t.q.bounce_used[0], 3u);
  EXPECT_EQ(k.t.q.bounce_used[1], 2u);
}

TEST(GdaLocalKeysDeathTest, NoBounceBufferIsAClearError) {
  keyed_queue k(0);  // GIO_GDA_BOUNCE_BYTES=0
  std::vector<uint8_t> outside(4096);
  EXPECT_EXIT(gio::dev::gda::put("shmem_putmem_nbi", k.st, nullptr, k.heap.data() + GIO_HEAP_RESERVED,
                                 outside.data(), 4096, 0, true),
              ::testing::ExitedWithCode(GIO_EXIT_CODE),
              "shmem_putmem_nbi on PE 0 .*local buffer 0x[0-9a-f]+ \\(4096 bytes, for PE 0\\) is outside the symmetric "
              "heap, too large to travel inline .*GIO_GDA_BOUNCE_BYTES=0");
  EXPECT_EQ(k.t.q.reserved, 0u) << "nothing was posted";
}
