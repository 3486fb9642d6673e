// gda transport, device half: the GIO path. A kernel posts mlx5 WQEs into its queue set's send
// queue to the target PE, writes the doorbell record and rings the doorbell itself; completion is
// read from the collapsed CQ. Host half (queue layout, templates, softnic): host/gda/.
//
// Posting order (the NIC may read a WQE as soon as the doorbell record covers it), per batch of
// the wave's lanes that post to one queue together:
//   leader reserves the batch's indices (one device-scope atomic) and reads `published`, every lane
//   reads `completed`, all three in flight at once -> each lane checks its slot is free
//   (back-pressure on completions), fills its WQE and keeps its first 8 bytes in registers -> wave
//   barrier; the leader takes the last WQE's 8 bytes from its lane -> leader waits for the batch's
//   turn (indices are published in order) -> acq_rel fence (the turn before, the WQEs before the
//   record) -> [AMD: HDP flush] -> doorbell record -> release store of the doorbell (the record
//   before it) -> release store of `published` (this doorbell before the next batch's) -> wave
//   barrier.
// The three counters live in GPU memory and only this GPU's threads touch them (the host's drain
// reads the doorbell record and the CQE, never these), so they are device-scope atomics. What the
// NIC reads (SQ, doorbell record, doorbell) is ordered at system scope, or at device scope where
// the queue says its ring is in GPU memory (GIO_GDA_Q_NIC_MEM_GPU). Nothing on the path reads NIC
// memory: the doorbell value comes from registers, not back from the ring.
#pragma once
#include "device/core/check.h"
#include "runtime/gda_queue.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace gda {

// Default contexts hash over their own range of sets; a created context (table index >= 1) has a
// set of its own, so its quiet waits for nothing but its own operations.
GIO_DEVICE_INLINE gio_gda_queue_v1* queue(const gio_device_state_v1& st, const gio_ctx_v1* ctx, int pe) {
  const uint32_t set = ctx ? st.gda_default_sets + ctx->index - 1 : plat::wg_id() % st.gda_default_sets;
  return &st.gda_queues[(size_t)set * st.n_pes + pe];
}

// ---- fence ownership ---------------------------------------------------------------------------
// shmem_fence marks, per PE, that the calling context's next WQE there must carry a fence mode.
// The marks belong to the context: a created context keeps them in its table entry, the default
// context of a work-group in that work-group's shared memory. Shared memory starts as garbage (or
// as a previous work-group's marks); a stray mark only fences one WQE that needed none, never
// drops a fence, so it needs no initialization. Only this GPU's threads touch the marks, so the
// atomics are device scope (valid on shared and global memory alike).
constexpr uint32_t FENCE_WORDS = GIO_MAX_PES / 32;
GIO_DEVICE_INLINE uint32_t* fence_marks(gio_ctx_v1* ctx) {
  __shared__ uint32_t wg_marks[FENCE_WORDS];
  return ctx ? ctx->fence_pending : wg_marks;
}
// Sets the marks of PEs [0, n_pes).
GIO_DEVICE_INLINE void fence_mark_all(gio_ctx_v1* ctx, int n_pes) {
  uint32_t* m = fence_marks(ctx);
  for (int w = 0; w * 32 < n_pes; ++w) atomicOr(&m[w], ~0u);
}
// Clears them (after a quiet, nothing earlier is outstanding, so nothing needs fencing).
GIO_DEVICE_INLINE void fence_clear_all(gio_ctx_v1* ctx, int n_pes) {
  uint32_t* m = fence_marks(ctx);
  for (int w = 0; w * 32 < n_pes; ++w) atomicExch(&m[w], 0u);
}
// Takes the mark of `pe`: true if this WQE must carry the fence. One plain load when unmarked.
GIO_DEVICE_INLINE bool fence_take(gio_ctx_v1* ctx, int pe) {
  uint32_t* w = &fence_marks(ctx)[pe >> 5];
  const uint32_t bit = 1u << (pe & 31);
  if (!(*(volatile uint32_t*)w & bit)) return false;
  return (atomicAnd(w, ~bit) & bit) != 0;
}

GIO_DEVICE_INLINE uint64_t load64(const uint64_t* p) { return plat::atomic_load_acquire(p); }

// What a post reads of its queue's descriptor and of one template: fields the host wrote before any
// kernel ran and never changes, so they need no ordering. They are loaded together when the post
// starts, in flight with each other and with the reservation, and kept in registers. Read from the
// descriptor where each was needed, they were L2 round trips one after the other (the acquire of
// `completed` and the ring's fence invalidate the L1 the first reads filled, and every atomic's
// memory clobber makes the compiler load again): sq_slots before the reservation could go out,
// sq_slots again, the hold and kind arrays' addresses, the template and the SQ's address, the
// flags, then after the fence the HDP register, the record's and the doorbell's addresses. A lone
// lane's post cost 5,993 cycles against 2,702 for its steps alone on an H200 (gio-gda-post, thread
// scope, and its step probe, apps/gda_post).
struct queue_view {
  uint8_t* sq;
  uint64_t* scratch;
  uint8_t* slot_kind;
  uint32_t* slot_hold;
  uint32_t* dbrec;
  uint64_t* db;
  uint32_t* hdp_flush;
  uint32_t slots;
  uint32_t qpn_ds;  // template `kind`'s (BE)
  uint32_t op;      // template `kind`'s opmod << 24 | opcode
  bool order_system;  // nic_order_system
};

[[noreturn]] GIO_DEVICE_NOINLINE void completion_error(const char* rt, const gio_gda_queue_v1* q) {
  const mlx5::cqe64* c = q->cq;
  const uint16_t ctr = mlx5::be16(plat::load_polled(&c->wqe_counter));
  const mlx5::ctrl_seg* w = (const mlx5::ctrl_seg*)(q->sq + (size_t)(ctr & (q->sq_slots - 1)) * mlx5::WQEBB_BYTES);
  GIO_DEV_PRINT("GIO error: %s on PE %d (work-group %u, thread %u): gda completion error on the queue to PE %d "
                "(qpn 0x%x): WQE index %u, opcode 0x%02x, syndrome 0x%02x, vendor syndrome 0x%02x\n",
                rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), q->peer, q->qpn, (unsigned)ctr,
                (unsigned)mlx5::ctrl_opcode(w), (unsigned)plat::load_polled(&c->syndrome),
                (unsigned)plat::load_polled(&c->vendor_err_synd));
  die(GIO_ERR_TRANSPORT);
}

// Reads the collapsed CQ and returns how many WQEs (from index 0) have completed.
GIO_DEVICE_NOINLINE uint64_t poll(const char* rt, gio_gda_queue_v1* q) {
  const uint8_t op_own = plat::load_polled(&q->cq->op_own);
  const uint8_t op = mlx5::cqe_opcode(op_own);
  if (op == mlx5::CQE_INVALID) return load64(&q->completed);
  if (op == mlx5::CQE_REQ_ERR || op == mlx5::CQE_RESP_ERR) completion_error(rt, q);
  plat::fence_system();  // the counter is read after the valid opcode
  const uint16_t ctr = mlx5::be16(plat::load_polled(&q->cq->wqe_counter));
  // The CQE names a reserved WQE (it may complete before its poster bumps `published`): extend its
  // 16-bit index to the latest full index below the reservation count.
  const uint64_t res = load64(&q->reserved);
  const uint64_t done = res - (uint16_t)((uint16_t)(res - 1) - ctr);
  uint64_t cur = load64(&q->completed);
  while (done > cur) {
    const uint64_t seen = plat::atomic_cas(&q->completed, cur, done);
    if (seen == cur) return done;
    cur = seen;
  }
  return cur;
}

// Waits until WQE index `idx` (and every earlier one) has completed.
GIO_DEVICE_NOINLINE void wait_done(const char* rt, gio_gda_queue_v1* q, uint64_t idx) {
  if (load64(&q->completed) > idx) return;
  bounded_wait([&] { return poll(rt, q) > idx; },
               [&](unsigned long long ms) {
                 GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for the "
                               "completion of WQE %llu on the gda queue to PE %d (qpn 0x%x): reserved %llu, "
                               "published %llu, completed %llu, doorbell record %u\n",
                               rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms,
                               (unsigned long long)idx, q->peer, q->qpn, (unsigned long long)load64(&q->reserved),
                               (unsigned long long)load64(&q->published), (unsigned long long)load64(&q->completed),
                               mlx5::be32(*(volatile uint32_t*)&q->dbrec[mlx5::SND_DBR]));
               });
}

// Dynamic fields of one WQE.
struct wqe_args {
  uint64_t raddr;
  uint64_t laddr;      // local address (data segment), or the inline payload's source
  uint32_t len;
  uint32_t lkey;       // BE; 0 = the template's
  uint64_t swap_add;    // an atomic's swap value or addend
  uint64_t compare;     // compare-swap's compare operand; a 4-byte fetch-add's field boundary (0: plain add)
  bool fence;           // carry a fence mode (the caller took its context's mark: fence_take)
  uint32_t swap_mask = ~0u;     // 4-byte compare-swap (masked): which bits the swap writes
  uint32_t compare_mask = ~0u;  // 4-byte compare-swap (masked): which bits the compare checks
};

// shmem_fence: this WQE waits for the earlier ones on its queue (the caller's context asked).
GIO_DEVICE_INLINE uint8_t wqe_fence(const wqe_args& a) { return a.fence ? (uint8_t)mlx5::FM_SMALL_AND_FENCE : (uint8_t)0; }

// Static fields of `slot` from template `kind`, with the fence mode and a non-default local key.
// A put finds them prefilled and skips this (the templated path); other kinds copy theirs.
GIO_DEVICE_INLINE void wqe_restore(gio_gda_queue_v1* q, uint32_t slot, int kind, const wqe_args& a, uint8_t fence) {
  uint8_t* w = q->sq + (size_t)slot * mlx5::WQEBB_BYTES;
  mlx5::ctrl_seg* c = (mlx5::ctrl_seg*)w;
  const gio_gda_tmpl_v1& t = q->tmpl[kind];
  c->qpn_ds = t.qpn_ds;
  c->signature = 0;
  c->fm_ce_se = t.fm_ce_se | fence;
  c->imm = 0;
  ((mlx5::raddr_seg*)(w + 16))->rkey = t.rkey;
  if (kind != GIO_GDA_T_PUT_INLINE)
    ((mlx5::data_seg*)(w + (kind >= GIO_GDA_T_FA8 ? 48 : 32)))->lkey = a.lkey ? a.lkey : t.lkey;
  // A slot left non-default (fence bit, other lkey) is rebuilt by its next user.
  q->slot_kind[slot] = (fence || a.lkey) ? (uint8_t)0xff : (uint8_t)kind;
}

// The first 8 bytes of a WQE (ctrl: opmod_idx_opcode, qpn_ds), as one little-endian word: the
// doorbell value (rdma-core's convention: the last WQE's first 8 bytes), built from registers.
GIO_DEVICE_INLINE uint64_t ctrl_word(uint32_t opmod_idx_opcode, uint32_t qpn_ds) {
  return (uint64_t)opmod_idx_opcode | ((uint64_t)qpn_ds << 32);
}
// The ctrl segment's first word (BE) for WQE `idx` of template `t`: opmod, the 16-bit index, opcode.
GIO_DEVICE_INLINE uint32_t ctrl_idx_word(uint32_t op, uint64_t idx) {
  return mlx5::be32(op | ((uint32_t)(idx & 0xffff) << 8));
}
GIO_DEVICE_INLINE uint32_t ctrl_idx_word(const gio_gda_tmpl_v1& t, uint64_t idx) {
  return ctrl_idx_word(((uint32_t)t.opmod << 24) | t.opcode, idx);
}

// Dynamic fields of WQE `idx` (in `slot`): index word, remote address, operands, local side.
// Returns the WQE's first 8 bytes as written (ctrl_word), so the doorbell need not read them back.
// `v` is the queue's view for template `kind`.
GIO_DEVICE_INLINE uint64_t wqe_fill(const queue_view& v, uint64_t idx, uint32_t slot, int kind, const wqe_args& a) {
  uint8_t* w = v.sq + (size_t)slot * mlx5::WQEBB_BYTES;
  mlx5::ctrl_seg* c = (mlx5::ctrl_seg*)w;
  const bool atomic = kind >= GIO_GDA_T_FA8;
  mlx5::data_seg* d = (mlx5::data_seg*)(w + (atomic ? 48 : 32));
  const uint32_t idx_word = ctrl_idx_word(v.op, idx);
  uint32_t qpn_ds = v.qpn_ds;  // what the slot holds: the template's, or restored from it
  c->opmod_idx_opcode = idx_word;
  ((mlx5::raddr_seg*)(w + 16))->raddr = mlx5::be64(a.raddr);
  if (atomic) {
    mlx5::atomic_seg* at = (mlx5::atomic_seg*)(w + 32);
    if (kind == GIO_GDA_T_FA4 || kind == GIO_GDA_T_CS4) {  // masked 4-byte form (runtime/mlx5/wqe.h)
      mlx5::masked4_words((uint32_t*)at, kind == GIO_GDA_T_CS4, (uint32_t)a.swap_add, (uint32_t)a.compare,
                          a.swap_mask, a.compare_mask);
    } else {
      mlx5::set_atomic(at, a.swap_add, a.compare);
    }
    d->byte_count = mlx5::be32(kind == GIO_GDA_T_FA8 || kind == GIO_GDA_T_CS8 ? 8u : 4u);
    d->addr = mlx5::be64((uint64_t)(uintptr_t)&v.scratch[slot]);
  } else if (kind == GIO_GDA_T_GET && a.laddr == 0) {
    d->byte_count = mlx5::be32(a.len);
    d->addr = mlx5::be64((uint64_t)(uintptr_t)&v.scratch[slot]);
  } else if (kind == GIO_GDA_T_PUT_INLINE) {
    // ds covers ctrl + raddr + the inline header and payload; the payload is copied now, so the
    // source may be reused (or be a register-backed local) as soon as post returns.
    const uint32_t ds = 2 + (4 + a.len + 15) / 16;
    qpn_ds = (v.qpn_ds & mlx5::be32(~0x3fu)) | mlx5::be32(ds);
    c->qpn_ds = qpn_ds;
    *(uint32_t*)(w + 32) = mlx5::be32(a.len | mlx5::INLINE_SEG);
    const uint8_t* src = (const uint8_t*)(uintptr_t)a.laddr;
    for (uint32_t i = 0; i < a.len; ++i) w[36 + i] = src[i];
  } else {
    d->byte_count = mlx5::be32(a.len);
    d->addr = mlx5::be64(a.laddr);
  }
  return ctrl_word(idx_word, qpn_ds);
}

// `completed` for the back-pressure check, read before the caller's slot is known (in flight with
// the reservation). Acquire at device scope: the slot's stores come after it. Device scope suffices:
// the thread that advanced `completed` read the CQE and ordered that with a system fence (poll), so
// the NIC's last read of the slot's previous WQE is behind this load in causality order.
GIO_DEVICE_INLINE uint64_t completed_for_post(gio_gda_queue_v1* q) {
  return plat::atomic_load_acquire_device((const unsigned long long*)&q->completed);
}

// Back-pressure: WQE `idx` may be written once the one a ring earlier has completed. `done` is a
// value of `completed` (completed_for_post) read before the caller's reservation: the counter only
// grows, so an early value is a safe lower bound, and the CQ is polled only when it says "full".
// Only WQEs below the caller's batch are waited for, and those were reserved by other waves (or by
// this wave's earlier, already published, batches). `slots`: the queue's sq_slots.
GIO_DEVICE_INLINE void wait_slot_free(const char* rt, gio_gda_queue_v1* q, uint32_t slots, uint64_t idx, uint64_t done) {
  // The timeout reports capture by value here and in ring_batch: by reference, the values they
  // name lived in local memory, stored on every post and loaded again after the ring's fence.
  if (idx - done >= slots)
    bounded_wait([&] { return idx - poll(rt, q) < slots; },
                 [=](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms for a free slot in the "
                                 "gda queue to PE %d (WQE %llu, completed %llu)\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, q->peer, (unsigned long long)idx,
                                 (unsigned long long)load64(&q->completed));
                 });
}

// A fetched result from this slot's previous use may still be unread in its scratch word.
GIO_DEVICE_INLINE void wait_slot_released(const char* rt, gio_gda_queue_v1* q, uint32_t slot) {
  if (*(volatile uint32_t*)&q->slot_hold[slot])
    bounded_wait([&] { return plat::atomic_load_acquire(&q->slot_hold[slot]) == 0u; },
                 [=](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms for slot %u of the gda "
                                 "queue to PE %d to release its fetched result\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, slot, q->peer);
                 });
}

// The scope at which what the NIC reads (ring, doorbell record, doorbell) is ordered: system scope
// (a ConnectX over PCIe, the softnic's CPU thread, read the ring in pinned host memory), device
// scope where the queue says its ring is in GPU memory (GIO_GDA_Q_NIC_MEM_GPU: PCIe reads of it are
// served by the L2 that device scope orders at). CUDA only: AMD's PCIe readers of VRAM go through
// the HDP (ring_batch flushes it), and the host platform's fences are std atomics.
GIO_DEVICE_INLINE bool nic_order_system(const gio_gda_queue_v1* q) {
#if defined(GIO_PLATFORM_CUDA)
  return !(q->flags & GIO_GDA_Q_NIC_MEM_GPU);
#else
  (void)q;
  return true;
#endif
}
// The acq_rel fence at that scope: the batch's WQEs before the doorbell record (ring_batch's (1)).
GIO_DEVICE_INLINE void nic_order_fence(bool system) {
  if (system)
    plat::fence_acq_rel_system();
  else
    plat::fence_acq_rel_device();
}
GIO_DEVICE_INLINE void nic_order_fence(const gio_gda_queue_v1* q) { nic_order_fence(nic_order_system(q)); }

// The view of q for template `kind` (queue_view): plain loads, no ordering needed.
GIO_DEVICE_INLINE queue_view view_of(const gio_gda_queue_v1* q, int kind) {
  const gio_gda_tmpl_v1& t = q->tmpl[kind];
  return queue_view{q->sq,      q->scratch, q->slot_kind, q->slot_hold, q->dbrec, q->db, q->hdp_flush, q->sq_slots,
                    t.qpn_ds,   ((uint32_t)t.opmod << 24) | t.opcode, nic_order_system(q)};
}
GIO_DEVICE_INLINE uint64_t wqe_fill(gio_gda_queue_v1* q, uint64_t idx, uint32_t slot, int kind, const wqe_args& a) {
  return wqe_fill(view_of(q, kind), idx, slot, kind, a);
}

// Makes WQEs [base, base+n) visible to the NIC once every earlier index is: waits for `published`
// to reach base (it only ever waits for other waves; `pub` is the leader's early read of it), then
// one doorbell for the batch. `ctrl` is the batch's last WQE's first 8 bytes (ctrl_word), the
// doorbell value. The ring happens inside the wait loop, so on AMD, where the leaders of several
// batches of one wave spin in the same loop, each rings as soon as its own turn comes instead of
// waiting for the others'. The record's, the doorbell's and the HDP register's addresses and the
// ordering scope come from `v`, in registers before the fence (after it, each load of them was a
// round trip of its own).
GIO_DEVICE_INLINE void ring_batch(const char* rt, gio_gda_queue_v1* q, const queue_view& v, uint64_t base, uint32_t n,
                                  uint64_t pub, uint64_t ctrl) {
  auto ring = [&] {
    // (1) Acquire: the `published` value read before (relaxed) is ordered before everything below,
    //     so the previous batch's record and doorbell (ordered before its release of `published`)
    //     stay before ours, by cumulativity. Release: every WQE of the batch (the wave barrier ordered
    //     the other lanes' stores before this thread's) is visible before the record. Store -> store
    //     order only, so acq_rel, not the sequentially consistent fence_system; its scope is
    //     nic_order_system's.
    nic_order_fence(v.order_system);
    if (v.hdp_flush) *(volatile uint32_t*)v.hdp_flush = 1u;  // AMD: push the WQEs past the HDP
    plat::store_after_fence_system(&v.dbrec[mlx5::SND_DBR], mlx5::be32((uint32_t)(base + n) & 0xffff));
    // (2) The record before the doorbell (rdma-core's order: a ConnectX may read the record when
    //     the doorbell rings): a release store of the doorbell, same scope as (1). The softnic
    //     ignores the doorbell and acquires the record.
    plat::store_release_system_or_device((unsigned long long*)v.db, ctrl, v.order_system);
    // (3) This doorbell before the next batch's: a release store of `published` at device scope
    //     (only this GPU's leaders read it, with (1) as their acquire). A store, not an exchange:
    //     only the leader whose turn it is writes it, so nothing can race with it.
    plat::store_release_device((unsigned long long*)&q->published, base + n);
  };
  if (pub == base) {
    ring();
    return;
  }
  bounded_wait(
      [&] {
        if (plat::load_before_fence_device((const unsigned long long*)&q->published) != base) return false;
        ring();
        return true;
      },
      [=](unsigned long long ms) {
        GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms to publish WQEs %llu..%llu on "
                      "the gda queue to PE %d (published %llu)\n",
                      rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, (unsigned long long)base,
                      (unsigned long long)(base + n - 1), q->peer, (unsigned long long)load64(&q->published));
      });
}

// The posting skeleton, shared by post() and the benchmark's variants (apps/gda_post): the lanes
// of the wave that call together and target the same queue post as one batch, as NVSHMEM's IBGDA
// and rocSHMEM do. The lowest lane reserves every lane's index with one atomic, each lane writes
// its own WQE (fill(idx, slot), which returns the WQE's first 8 bytes: ctrl_word), and the lowest
// lane rings one doorbell for the batch with the last WQE's 8 bytes. No lane ever
// waits for a lane of its own wave to make progress: on AMD, whose lanes do not run independently,
// a lane spinning on a lower lane's publication (the old per-lane posting) never lets it publish.
// `v` is q's view (view_of). Returns the caller's WQE index.
template <typename Fill>
GIO_DEVICE_INLINE uint64_t post_batch(const char* rt, gio_gda_queue_v1* q, const queue_view& v, Fill fill) {
  const plat::wave_mask group = plat::wave_active_match((unsigned long long)(uintptr_t)q);
  if (group == plat::wave_lane_bit()) {
    // A lane alone (a thread-scope call with no other lane posting to q, or a cooperative scope's
    // poster): a batch of one, the same steps in the same order with nothing to elect, exchange or
    // wait for inside the wave. A batch of one fits any ring, so the reservation need not wait for
    // sq_slots: it goes out at once, with `published` and `completed` in flight beside it.
    const uint64_t idx = plat::atomic_fetch_add_device((unsigned long long*)&q->reserved, 1ull);
    const uint64_t pub = plat::load_before_fence_device((const unsigned long long*)&q->published);
    const uint64_t done = completed_for_post(q);
    wait_slot_free(rt, q, v.slots, idx, done);
    const uint64_t ctrl = fill(idx, (uint32_t)idx & (v.slots - 1));
    ring_batch(rt, q, v, idx, 1, pub, ctrl);
    return idx;
  }
  const unsigned count = plat::wave_count(group), rank = plat::wave_count(group & plat::wave_lanes_below());
  const uint32_t slots = v.slots;
  uint64_t idx = 0;
  // One batch, unless the group is larger than the ring (64 lanes, 16 slots): then batches of at
  // most a ring, each published before the next reserves, so a lane's back-pressure never waits
  // for its own batch. Every member runs every round, so the collectives' masks stay `group`.
  for (unsigned first = 0; first < count; first += slots) {
    const unsigned n = count - first < slots ? count - first : slots;
    const bool mine = rank - first < n;  // (unsigned: false below `first`)
    const plat::wave_mask batch = n == count ? group : plat::wave_ballot(group, mine);
    const bool leader = plat::wave_lane() == plat::wave_lowest(batch);
    // Three independent reads issued back to back, so they cost one round trip to the L2, not
    // three: the reservation (a ticket: relaxed, device scope), `published` (ordered by the ring's
    // fence), `completed` (acquire: this lane's slot stores come after it).
    uint64_t base = 0, pub = 0;
    if (leader) {
      base = plat::atomic_fetch_add_device((unsigned long long*)&q->reserved, (unsigned long long)n);
      pub = plat::load_before_fence_device((const unsigned long long*)&q->published);
    }
    const uint64_t done = completed_for_post(q);
    base = plat::wave_shfl(group, base, plat::wave_lowest(batch));
    uint64_t ctrl = 0;
    if (mine) {
      idx = base + (rank - first);
      wait_slot_free(rt, q, slots, idx, done);
      ctrl = fill(idx, (uint32_t)idx & (slots - 1));
    }
    plat::wave_sync_mask(group);  // every WQE of the batch written
    ctrl = plat::wave_shfl(group, ctrl, plat::wave_highest(batch));  // the last WQE's first 8 bytes
    if (leader) ring_batch(rt, q, v, base, n, pub, ctrl);
    // Published before anyone returns: quiet reads `published` to know what to wait for.
    plat::wave_sync_mask(group);
  }
  return idx;
}
template <typename Fill>
GIO_DEVICE_INLINE uint64_t post_batch(const char* rt, gio_gda_queue_v1* q, Fill fill) {
  return post_batch(rt, q, view_of(q, GIO_GDA_T_PUT), fill);
}

// Post one WQE of template `kind`; returns its index.
// `hold`: the caller reads the slot's scratch word after completion with take_result().
// One lane's part of post(): WQE `idx` into its free `slot`; returns its first 8 bytes. The slot's
// hold flag and kind are loaded together (one round trip, not two): the kind is valid whatever the
// hold says, which guards only the slot's scratch word, and the slot itself is ours
// (wait_slot_free). `v` is q's view for `kind`.
GIO_DEVICE_INLINE uint64_t post_fill(const char* rt, gio_gda_queue_v1* q, const queue_view& v, uint64_t idx,
                                     uint32_t slot, int kind, const wqe_args& a, bool hold) {
  const uint32_t held = *(volatile uint32_t*)&v.slot_hold[slot];
  const uint8_t was = v.slot_kind[slot];
  if (held) wait_slot_released(rt, q, slot);
  if (hold) v.slot_hold[slot] = 1;
  const uint8_t fence = wqe_fence(a);
  if (was != (uint8_t)kind || fence || a.lkey) wqe_restore(q, slot, kind, a, fence);
  return wqe_fill(v, idx, slot, kind, a);
}
GIO_DEVICE_INLINE uint64_t post_fill(const char* rt, gio_gda_queue_v1* q, uint64_t idx, uint32_t slot, int kind,
                                     const wqe_args& a, bool hold) {
  return post_fill(rt, q, view_of(q, kind), idx, slot, kind, a, hold);
}

GIO_DEVICE_NOINLINE uint64_t post(const char* rt, gio_gda_queue_v1* q, int kind, wqe_args a, bool hold = false) {
  const queue_view v = view_of(q, kind);
  return post_batch(rt, q, v, [&](uint64_t idx, uint32_t slot) { return post_fill(rt, q, v, idx, slot, kind, a, hold); });
}

// Reads the fetched result of WQE `idx` (posted with hold, from template `kind`) and frees its
// slot for reuse. A get's bytes come back as they landed; an atomic's old value is decoded from
// the byte order the NIC answers in (runtime/mlx5/atomic.h).
GIO_DEVICE_INLINE uint64_t take_result(gio_gda_queue_v1* q, uint64_t idx, int kind = GIO_GDA_T_GET) {
  const uint32_t slot = (uint32_t)idx & (q->sq_slots - 1);
  uint64_t v = *(volatile uint64_t*)&q->scratch[slot];
  plat::atomic_exchange(&q->slot_hold[slot], 0u);
  if (kind >= GIO_GDA_T_FA8)
    v = mlx5::atomic_reply(v, kind == GIO_GDA_T_FA4 || kind == GIO_GDA_T_CS4 ? 4 : 8, q->tmpl[kind].reply_order);
  return v;
}

}  // namespace gda
}  // namespace dev
}  // namespace gio
#endif
