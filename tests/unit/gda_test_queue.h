// One gda queue laid out in host memory the way host/gda/gda_connect.cpp lays it out (templates
// built, every slot prefilled as a put), for the unit tests of the WQE builders: the device's
// post(), the benchmark's variants and the host's posting.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/gda_tmpl.h"

namespace giotest {

struct gda_test_queue {
  std::vector<uint64_t> mem;  // zeroed, as gpu::queue_alloc hands it out
  gio_gda_queue_v1 q{};
  gda_test_queue(uint32_t slots, uint32_t qpn, uint32_t lkey, uint32_t rkey, uint32_t queue_key, int peer = 0)
      : mem((gio::gda_ring_bytes(slots) + gio::gda_book_bytes(slots)) / 8, 0) {
    uint8_t* m = (uint8_t*)mem.data();
    gio::gda_queue_place(q, m, m + gio::gda_ring_bytes(slots), slots);
    q.qpn = qpn;
    q.peer = peer;
    q.remote_base = 0x7f0000000000ull;
    gio::gda_build_templates(q, lkey, rkey, queue_key);
    gio::gda_prefill_slots(q);
  }
  uint8_t* slot(uint64_t idx) const { return q.sq + (idx & (q.sq_slots - 1)) * 64; }
};

}  // namespace giotest
