// proxy transport, device half: a kernel writes 64-byte commands into its queue set's ring in
// host memory (runtime/proxy_queue.h); the PE's proxy thread (host/proxy/) drains them in order
// and reports completion through one counter per ring.
//
// Posting, per batch of the wave's lanes that post to one ring together (as gda batches WQEs):
//   leader reserves the batch's indices (one atomic) -> each lane waits until its slot's previous
//   command completed (back-pressure: nothing is overwritten) -> fills the slot -> stores the
//   slot's seq = index + 1 with a system-scope release.
// Each lane publishes its own slot, so no lane ever waits for a wave-mate (the proxy waits, in
// ring order, for the slot it reads next).
#pragma once
#include "device/core/check.h"
#include "runtime/proxy_queue.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace proxy {

// Same set mapping as gda: default contexts hash over their range, a created context owns a set.
GIO_DEVICE_INLINE gio_proxy_ring_v1* ring(const gio_device_state_v1& st, const gio_ctx_v1* ctx) {
  const uint32_t set = ctx ? st.proxy_default_sets + ctx->index - 1 : plat::wg_id() % st.proxy_default_sets;
  return &st.proxy_rings[set];
}

GIO_DEVICE_INLINE uint64_t completed(const gio_proxy_ring_v1* r) { return plat::atomic_load_acquire(r->completed); }

// Waits until command `idx` (and every earlier one of the ring) has completed. A timeout names the
// command the proxy is on (the first not completed: its slot is not reused before it completes),
// so the report says which operation to which PE stalled, e.g. one to a peer that exited.
GIO_DEVICE_NOINLINE void wait_done(const char* rt, gio_proxy_ring_v1* r, uint64_t idx) {
  bounded_wait([&] { return completed(r) > idx; },
               [&](unsigned long long ms) {
                 const uint64_t at = completed(r);
                 const gio_proxy_cmd_v1* c = &r->cmds[at & (r->slots - 1)];
                 if (plat::atomic_load_acquire(&c->seq) != at + 1)  // its poster waits for the slot
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for the proxy "
                                 "to complete command %llu of ring %u: reserved %llu, completed %llu; command %llu "
                                 "is not yet published\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, (unsigned long long)idx,
                                 r->set, (unsigned long long)plat::atomic_load_acquire(&r->reserved),
                                 (unsigned long long)at, (unsigned long long)at);
                 else
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for the proxy "
                                 "to complete command %llu of ring %u: reserved %llu, completed %llu; the proxy is "
                                 "on command %llu (%s to PE %d): is the proxy thread stuck in a libfabric "
                                 "operation, or did that PE exit?\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, (unsigned long long)idx,
                                 r->set, (unsigned long long)plat::atomic_load_acquire(&r->reserved),
                                 (unsigned long long)at, (unsigned long long)at,
                                 gio_proxy_op_name(*(volatile const uint8_t*)&c->op), *(volatile const int32_t*)&c->pe);
               });
}

// Back-pressure: slot `idx & (slots-1)` is free once the command a ring earlier completed.
GIO_DEVICE_INLINE void wait_slot_free(const char* rt, gio_proxy_ring_v1* r, uint64_t idx) {
  if (idx < r->slots) return;
  if (completed(r) > idx - r->slots) return;
  wait_done(rt, r, idx - r->slots);
}

// A fetched result from this slot's previous use may still be unread.
GIO_DEVICE_INLINE void wait_slot_released(const char* rt, gio_proxy_ring_v1* r, uint32_t slot) {
  if (*(volatile uint32_t*)&r->hold[slot])
    bounded_wait([&] { return plat::atomic_load_acquire(&r->hold[slot]) == 0u; },
                 [&](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms for slot %u of proxy ring "
                                 "%u to release its fetched result\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, slot, r->set);
                 });
}

// Post one command (every field but seq filled by the caller); returns its index. `hold`: the
// caller reads result[slot] after completion with take_result().
GIO_DEVICE_NOINLINE uint64_t post(const char* rt, gio_proxy_ring_v1* r, const gio_proxy_cmd_v1& c, bool hold = false) {
  const plat::wave_mask group = plat::wave_active_match((unsigned long long)(uintptr_t)r);
  const unsigned count = plat::wave_count(group), rank = plat::wave_count(group & plat::wave_lanes_below());
  const unsigned leader = plat::wave_lowest(group);
  uint64_t base = 0;
  if (plat::wave_lane() == leader) base = plat::atomic_fetch_add(&r->reserved, (uint64_t)count);
  base = plat::wave_shfl(group, base, leader);
  const uint64_t idx = base + rank;
  const uint32_t slot = (uint32_t)idx & (r->slots - 1);
  wait_slot_free(rt, r, idx);
  wait_slot_released(rt, r, slot);
  if (hold) r->hold[slot] = 1;
  gio_proxy_cmd_v1* d = &r->cmds[slot];
  d->op = c.op;
  d->local = c.local;
  d->amo_op = c.amo_op;
  d->bytes = c.bytes;
  d->pe = c.pe;
  d->roff = c.roff;
  d->len = c.len;
  d->laddr = c.laddr;
  d->value = c.value;
  d->compare = c.compare;
  plat::store_release_system((unsigned long long*)&d->seq, (unsigned long long)(idx + 1));
  return idx;
}

// The fetched value of command `idx` (posted with hold), and its slot freed for reuse.
GIO_DEVICE_INLINE uint64_t take_result(gio_proxy_ring_v1* r, uint64_t idx) {
  const uint32_t slot = (uint32_t)idx & (r->slots - 1);
  const uint64_t v = plat::atomic_load_acquire(&r->result[slot]);
  plat::atomic_exchange(&r->hold[slot], 0u);
  return v;
}

}  // namespace proxy
}  // namespace dev
}  // namespace gio
#endif
