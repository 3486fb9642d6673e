// The two ways of building a WQE that gio-gda-post compares with GIO's templated post()
// (device/gda/gda_post.h). Benchmark-only: the runtime never includes this. Both go through the same
// wave-aggregated posting skeleton (post_batch), so the numbers differ only by how a WQE is built.
//  full      - every field written per operation (the NVSHMEM-IBGDA way).
//  dedicated - a queue that only ever carries puts (no fetches): no kind or hold bookkeeping at
//              all, only the dynamic fields plus the two flag words. Valid for GIO_GDA_T_PUT only.
#pragma once
#include "device/gda/gda_post.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace bench {

GIO_DOUT uint64_t post_full(const char* rt, gio_gda_queue_v1* q, int kind, dev::gda::wqe_args a, bool hold = false) {
  using namespace dev::gda;
  return post_batch(rt, q, [&](uint64_t idx, uint32_t slot) {
    wait_slot_released(rt, q, slot);
    if (hold) q->slot_hold[slot] = 1;
    wqe_restore(q, slot, kind, a, wqe_fence(a));
    wqe_fill(q, idx, slot, kind, a);
  });
}

GIO_DOUT uint64_t post_dedicated_put(const char* rt, gio_gda_queue_v1* q, dev::gda::wqe_args a) {
  using namespace dev::gda;
  return post_batch(rt, q, [&](uint64_t idx, uint32_t slot) {
    // The slot holds the put template for good; only the flags and the key vary.
    uint8_t* w = q->sq + (size_t)slot * mlx5::WQEBB_BYTES;
    const gio_gda_tmpl_v1& t = q->tmpl[GIO_GDA_T_PUT];
    ((mlx5::ctrl_seg*)w)->fm_ce_se = t.fm_ce_se | wqe_fence(a);
    ((mlx5::data_seg*)(w + 32))->lkey = a.lkey ? a.lkey : t.lkey;
    wqe_fill(q, idx, slot, GIO_GDA_T_PUT, a);
  });
}

}  // namespace bench
}  // namespace gio
#endif
