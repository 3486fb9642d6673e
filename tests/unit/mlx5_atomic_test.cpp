// Fetched-atomic results in both byte orders a ConnectX may answer in (runtime/mlx5/atomic.h): the
// decode, the rule that picks the order from the HCA's atomic_req_8B_endianness_mode, and (host
// platform) the device's take_result, which decodes by the queue's atomic template.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gio_config.h"  // GIO_PLATFORM_*
#include "runtime/mlx5/atomic.h"
#if defined(GIO_PLATFORM_HOST)
#include "device/gda/gda_post.h"
#include "runtime/gda_tmpl.h"
#endif

namespace {
using namespace gio::mlx5;

// The landing word after the NIC wrote `bytes` bytes of `value` in `order`, over stale bytes.
uint64_t landed(uint64_t value, uint32_t bytes, uint8_t order) {
  uint8_t w[8];
  memset(w, 0xa5, sizeof w);  // left over from the slot's earlier use
  for (uint32_t i = 0; i < bytes; ++i)
    w[i] = (uint8_t)(value >> (8 * (order == REPLY_BIG_ENDIAN ? bytes - 1 - i : i)));
  uint64_t word;
  memcpy(&word, w, 8);
  return word;
}

TEST(Mlx5Atomic, DecodesBothByteOrders) {
  for (uint8_t order : {REPLY_HOST_ORDER, REPLY_BIG_ENDIAN}) {
    for (uint64_t v : {0ull, 1ull, 0x0102030405060708ull, 0xfffffffffffffffeull, 0x8000000000000000ull})
      EXPECT_EQ(atomic_reply(landed(v, 8, order), 8, order), v) << "order " << (int)order;
    for (uint32_t v : {0u, 1u, 0x01020304u, 0xfffffffeu, 0x80000000u})
      EXPECT_EQ(atomic_reply(landed(v, 4, order), 4, order), (uint64_t)v) << "order " << (int)order;
  }
  // Read in the wrong order, the value is byte-swapped: the decode is not a no-op.
  EXPECT_EQ(atomic_reply(landed(1, 8, REPLY_BIG_ENDIAN), 8, REPLY_HOST_ORDER), 1ull << 56);
  EXPECT_EQ(atomic_reply(landed(1, 4, REPLY_BIG_ENDIAN), 4, REPLY_HOST_ORDER), 1ull << 24);
}

TEST(Mlx5Atomic, ConnectXOrderFromTheEndiannessMode) {
  EXPECT_EQ(connectx_reply_order(8, 0), REPLY_BIG_ENDIAN);
  EXPECT_EQ(connectx_reply_order(8, 1), REPLY_HOST_ORDER);
  // The masked 4-byte atomics answer big-endian whatever the 8-byte mode.
  EXPECT_EQ(connectx_reply_order(4, 0), REPLY_BIG_ENDIAN);
  EXPECT_EQ(connectx_reply_order(4, 1), REPLY_BIG_ENDIAN);
}

#if defined(GIO_PLATFORM_HOST)
// take_result as the device runs it (plain C++ on the host platform): the templates' order, not
// the caller, decides; a get's landing bytes are never touched; the slot is released.
TEST(Mlx5Atomic, TakeResultDecodesByTemplate) {
  const uint32_t slots = 16;
  std::vector<uint64_t> mem((gio::gda_ring_bytes(slots) + gio::gda_book_bytes(slots)) / 8, 0);
  uint8_t* m = (uint8_t*)mem.data();
  gio_gda_queue_v1 q{};
  gio::gda_queue_place(q, m, m + gio::gda_ring_bytes(slots), slots);
  gio::gda_build_templates(q, 1, 2, 3);
  for (uint8_t mode : {0, 1}) {
    for (int k = GIO_GDA_T_FA8; k < GIO_GDA_T_COUNT; ++k) {
      const uint32_t bytes = k == GIO_GDA_T_FA4 || k == GIO_GDA_T_CS4 ? 4 : 8;
      q.tmpl[k].reply_order = connectx_reply_order(bytes, mode);
    }
    uint64_t idx = 5 + mode * slots;  // a later lap of the ring: the slot is idx % slots
    const uint32_t slot = (uint32_t)idx % slots;
    q.scratch[slot] = landed(0x1122334455667788ull, 8, connectx_reply_order(8, mode));
    q.slot_hold[slot] = 1;
    EXPECT_EQ(gio::dev::gda::take_result(&q, idx, GIO_GDA_T_FA8), 0x1122334455667788ull) << "mode " << (int)mode;
    EXPECT_EQ(q.slot_hold[slot], 0u);
    q.scratch[slot] = landed(0x8899aabbu, 4, REPLY_BIG_ENDIAN);
    EXPECT_EQ((uint32_t)gio::dev::gda::take_result(&q, idx, GIO_GDA_T_CS4), 0x8899aabbu) << "mode " << (int)mode;
    q.scratch[slot] = 0x0807060504030201ull;  // a small get's bytes, as they landed
    EXPECT_EQ(gio::dev::gda::take_result(&q, idx), 0x0807060504030201ull);
  }
  // The softnic's queues: templates as built, host order.
  gio::gda_build_templates(q, 1, 2, 3);
  for (int k = GIO_GDA_T_FA8; k < GIO_GDA_T_COUNT; ++k) EXPECT_EQ(q.tmpl[k].reply_order, REPLY_HOST_ORDER);
  q.scratch[3] = 42;
  EXPECT_EQ(gio::dev::gda::take_result(&q, 3, GIO_GDA_T_FA8), 42u);
}
#endif
}  // namespace
