// WQE templates of a gda queue: how its memory is laid out, the static fields of each operation,
// and every SQ slot prefilled as a put. Header-only: libgio builds the queues with it at init
// (host/gda/gda_connect.cpp), tests/unit/mlx5_template_test.cpp checks its bytes against rdma-core,
// and apps/gda_post builds queues of its own to time the device post.
#pragma once
#include "runtime/gda_queue.h"

namespace gio {

// Queue memory is split by who reads it. The NIC's part (SQ ring, collapsed CQE, doorbell record
// and doorbell word, scratch landing words; after every ring, the bounce buffers) must be visible
// to the NIC, i.e. host memory for the softnic, and is registered whole under the queue key. The device's own bookkeeping (slot kinds, holds) and the descriptors stay in GPU memory,
// so the posting path never loads across PCIe.
inline size_t gda_ring_bytes(uint32_t slots) { return ((size_t)slots * (64 + 8) + 128 + 63) / 64 * 64; }
inline size_t gda_book_bytes(uint32_t slots) { return ((size_t)slots * (4 + 1) + 63) / 64 * 64; }
// Points q into `ring` (gda_ring_bytes) and `book` (gda_book_bytes), both zeroed; sets sq_slots.
inline void gda_queue_place(gio_gda_queue_v1& q, uint8_t* ring, uint8_t* book, uint32_t slots) {
  q.sq = ring;
  q.cq = (mlx5::cqe64*)(ring + (size_t)slots * 64);
  q.dbrec = (uint32_t*)(ring + (size_t)slots * 64 + 64);
  q.db = (uint64_t*)(ring + (size_t)slots * 64 + 64 + 8);
  q.scratch = (uint64_t*)(ring + (size_t)slots * 64 + 128);
  q.slot_hold = (uint32_t*)book;
  q.slot_kind = book ? book + (size_t)slots * 4 : nullptr;
  q.sq_slots = slots;
}

// Static fields of each operation: everything the device does not have to write per WQE.
// `q.qpn` must be set. `lkey` is the heap's key; `queue_lkey` the queue block's (scratch landing
// words, bounce buffers), which the atomics' templates carry and the device reads back from them.
inline void gda_build_templates(gio_gda_queue_v1& q, uint32_t lkey, uint32_t rkey, uint32_t queue_lkey) {
  using namespace mlx5;
  struct { int kind; uint8_t opcode, opmod, ds; uint32_t lkey; } t[] = {
      {GIO_GDA_T_PUT, OP_RDMA_WRITE, 0, 3, lkey},
      {GIO_GDA_T_PUT_INLINE, OP_RDMA_WRITE, 0, 3, 0},
      {GIO_GDA_T_GET, OP_RDMA_READ, 0, 3, lkey},
      // Atomic results land in the queue's scratch words, which are outside the heap.
      {GIO_GDA_T_FA8, OP_ATOMIC_FA, 0, 4, queue_lkey},
      {GIO_GDA_T_CS8, OP_ATOMIC_CS, 0, 4, queue_lkey},
      {GIO_GDA_T_FA4, OP_ATOMIC_MASKED_FA, OPMOD_ATOMIC_4B, 4, queue_lkey},
      {GIO_GDA_T_CS4, OP_ATOMIC_MASKED_CS, OPMOD_ATOMIC_4B, 4, queue_lkey},
  };
  for (auto& e : t) {
    gio_gda_tmpl_v1& x = q.tmpl[e.kind];
    x.qpn_ds = be32((q.qpn << 8) | e.ds);
    x.opcode = e.opcode;
    x.opmod = e.opmod;
    x.fm_ce_se = CE_CQ_UPDATE;  // every WQE completes into the collapsed CQ; quiet reads the latest
    x.lkey = be32(e.lkey);
    x.rkey = be32(rkey);
    x.reply_order = REPLY_HOST_ORDER;  // the softnic's; the ConnectX backend sets what its HCA answers
  }
}

// Every slot starts as a put, the common case, so a put writes only its dynamic fields.
// `q.sq`, `q.sq_slots` and the templates must be set (and CPU-writable).
inline void gda_prefill_slots(gio_gda_queue_v1& q) {
  const gio_gda_tmpl_v1& t = q.tmpl[GIO_GDA_T_PUT];
  for (uint32_t s = 0; s < q.sq_slots; ++s) {
    uint8_t* w = q.sq + (size_t)s * mlx5::WQEBB_BYTES;
    mlx5::ctrl_seg* c = (mlx5::ctrl_seg*)w;
    c->opmod_idx_opcode = mlx5::be32(t.opcode);
    c->qpn_ds = t.qpn_ds;
    c->fm_ce_se = t.fm_ce_se;
    ((mlx5::raddr_seg*)(w + 16))->rkey = t.rkey;
    ((mlx5::data_seg*)(w + 32))->lkey = t.lkey;
    if (q.slot_kind) q.slot_kind[s] = GIO_GDA_T_PUT;  // nullptr: zeroed memory already says PUT
  }
}

}  // namespace gio
