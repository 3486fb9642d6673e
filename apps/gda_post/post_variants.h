// The two ways of building a WQE that gio-gda-post compares with GIO's templated post()
// (device/gda/gda_post.h). Benchmark-only: the runtime never includes this. Both go through the same
// wave-aggregated posting skeleton (post_batch), so the numbers differ only by how a WQE is built.
//  full      - every byte of the WQE written per operation, whole 16-byte segments built in
//              registers (the NVSHMEM-IBGDA way).
//  dedicated - a queue that only ever carries puts (no fetches): no kind or hold bookkeeping at
//              all, only the dynamic fields plus the two flag words. Valid for GIO_GDA_T_PUT only.
#pragma once
#include "device/gda/gda_post.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace bench {

// One 16-byte segment, stored whole (CUDA: one st.v4.u32).
struct alignas(16) seg16 {
  uint32_t x, y, z, w;
};

// The full build: every byte of the WQE's segments computed in registers from the template and the
// arguments and stored whole, one 16-byte store per segment (48 B for a WRITE or READ, 64 B for an
// atomic), as NVSHMEM's IBGDA builds its WQEs. An inline put (payload of any length) goes through
// the runtime's restore + fill.
GIO_DEVICE_INLINE uint64_t fill_full(const char* rt, gio_gda_queue_v1* q, uint64_t idx, uint32_t slot, int kind,
                           const dev::gda::wqe_args& a, bool hold) {
  using namespace dev::gda;
  wait_slot_released(rt, q, slot);
  if (hold) q->slot_hold[slot] = 1;
  if (kind == GIO_GDA_T_PUT_INLINE) {
    wqe_restore(q, slot, kind, a, wqe_fence(a));
    return wqe_fill(q, idx, slot, kind, a);
  }
  const gio_gda_tmpl_v1& t = q->tmpl[kind];
  seg16* w = (seg16*)(q->sq + (size_t)slot * mlx5::WQEBB_BYTES);
  const uint32_t idx_word = ctrl_idx_word(t, idx);
  // ctrl: index word, qpn_ds, signature 0 / reserved 0 / fm_ce_se (byte 11), immediate 0.
  w[0] = seg16{idx_word, t.qpn_ds, (uint32_t)(uint8_t)(t.fm_ce_se | wqe_fence(a)) << 24, 0u};
  const uint64_t raddr = mlx5::be64(a.raddr);
  w[1] = seg16{(uint32_t)raddr, (uint32_t)(raddr >> 32), t.rkey, 0u};
  const uint32_t lkey = a.lkey ? a.lkey : t.lkey;
  if (kind >= GIO_GDA_T_FA8) {
    const bool is4 = kind == GIO_GDA_T_FA4 || kind == GIO_GDA_T_CS4;
    if (is4) {  // masked 4-byte form: operand, compare or field boundary, compare-swap's masks
      uint32_t m[4];
      mlx5::masked4_words(m, kind == GIO_GDA_T_CS4, (uint32_t)a.swap_add, (uint32_t)a.compare, a.swap_mask,
                          a.compare_mask);
      w[2] = seg16{m[0], m[1], m[2], m[3]};
    } else {
      const uint64_t sa = mlx5::be64(a.swap_add), cmp = mlx5::be64(a.compare);
      w[2] = seg16{(uint32_t)sa, (uint32_t)(sa >> 32), (uint32_t)cmp, (uint32_t)(cmp >> 32)};
    }
    const uint64_t la = mlx5::be64((uint64_t)(uintptr_t)&q->scratch[slot]);
    w[3] = seg16{mlx5::be32(is4 ? 4u : 8u), lkey, (uint32_t)la, (uint32_t)(la >> 32)};
  } else {
    const bool scratch = kind == GIO_GDA_T_GET && a.laddr == 0;
    const uint64_t la = mlx5::be64(scratch ? (uint64_t)(uintptr_t)&q->scratch[slot] : a.laddr);
    w[2] = seg16{mlx5::be32(a.len), lkey, (uint32_t)la, (uint32_t)(la >> 32)};
  }
  // The runtime's post() may use this queue next: the slot holds template `kind` (wqe_restore's rule).
  q->slot_kind[slot] = (a.fence || a.lkey) ? (uint8_t)0xff : (uint8_t)kind;
  return ctrl_word(idx_word, t.qpn_ds);
}

GIO_DEVICE_NOINLINE uint64_t post_full(const char* rt, gio_gda_queue_v1* q, int kind, dev::gda::wqe_args a, bool hold = false) {
  return dev::gda::post_batch(rt, q, [&](uint64_t idx, uint32_t slot) { return fill_full(rt, q, idx, slot, kind, a, hold); });
}

GIO_DEVICE_NOINLINE uint64_t post_dedicated_put(const char* rt, gio_gda_queue_v1* q, dev::gda::wqe_args a) {
  using namespace dev::gda;
  return post_batch(rt, q, [&](uint64_t idx, uint32_t slot) {
    // The slot holds the put template for good; only the flags and the key vary.
    uint8_t* w = q->sq + (size_t)slot * mlx5::WQEBB_BYTES;
    const gio_gda_tmpl_v1& t = q->tmpl[GIO_GDA_T_PUT];
    ((mlx5::ctrl_seg*)w)->fm_ce_se = t.fm_ce_se | wqe_fence(a);
    ((mlx5::data_seg*)(w + 32))->lkey = a.lkey ? a.lkey : t.lkey;
    return wqe_fill(q, idx, slot, GIO_GDA_T_PUT, a);
  });
}

}  // namespace bench
}  // namespace gio
#endif
