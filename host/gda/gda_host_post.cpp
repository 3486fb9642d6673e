// Host-initiated operations over gda: the CPU posts on the host's own queue set (gda_host.h) with
// the WQEs a kernel would build, and waits for their completion.
//
// Posting order is the device's (device/gda/gda_post.h): the WQE bytes, then (release) the doorbell
// record, which is what the softnic watches, then the 64-bit doorbell write a ConnectX needs. The
// CPU owns these queues alone, and host_lock keeps one host thread on them at a time, so indices
// are handed out and published in order without the device's turn-taking.
#include <algorithm>
#include <cstring>

#include "runtime/gda_amo4.h"
#include "runtime/host_entry.h"  // gio_amo_op
#include "host/gda/gda_host.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {
constexpr uint64_t kChunk = 1ull << 30;  // a data segment's byte_count is 32 bits: 1 GiB per WQE

using wqe_args = gda_host_wqe_args;

struct host_queue {
  runtime& r;
  gda_state& g;
  size_t i;
  gio_gda_queue_v1& q;
  const char* routine;
  host_queue(runtime& r_, const char* rt, int pe)
      : r(r_), g(*r_.gda), i(gda_host_queue(*r_.gda, r_.n_pes, pe)), q(r_.gda->host_desc[i]), routine(rt) {}

  // How many WQEs (from index 0) have completed, from the collapsed CQE (see device/gda/gda_post.h poll).
  uint64_t poll() {
    const uint8_t op = mlx5::cqe_opcode(__atomic_load_n(&q.cq->op_own, __ATOMIC_ACQUIRE));
    if (op == mlx5::CQE_INVALID) return q.completed;
    if (op == mlx5::CQE_REQ_ERR || op == mlx5::CQE_RESP_ERR) gda_completion_fatal(g, i, routine);
    const uint16_t ctr = mlx5::be16(__atomic_load_n(&q.cq->wqe_counter, __ATOMIC_ACQUIRE));
    const uint64_t res = q.reserved;
    const uint64_t done = res - (uint16_t)((uint16_t)(res - 1) - ctr);
    if (done > q.completed) q.completed = done;
    return q.completed;
  }

  void wait_until_completed(uint64_t count, const char* what) {
    if (q.completed >= count) return;
    const auto t0 = std::chrono::steady_clock::now();
    unsigned spins = 0;
    while (poll() < count)
      gda_host_wait(r, &spins, t0, routine, [&] {
        char buf[256];
        snprintf(buf, sizeof buf, "%s on the gda host queue to PE %d (qpn 0x%x): WQE %llu; posted %llu, completed %llu",
                 what, q.peer, q.qpn, (unsigned long long)(count - 1), (unsigned long long)q.reserved,
                 (unsigned long long)q.completed);
        return std::string(buf);
      });
  }

  // Builds WQE `kind` whole (the host pays nothing for the device's template shortcuts) and rings
  // the doorbell; returns its index.
  uint64_t post(int kind, const wqe_args& a) {
    const uint64_t idx = q.reserved;
    if (idx - q.completed >= q.sq_slots) wait_until_completed(idx - q.sq_slots + 1, "a free slot");
    q.reserved = idx + 1;
    const uint32_t slot = (uint32_t)idx & (q.sq_slots - 1);
    alignas(64) uint8_t w[mlx5::WQEBB_BYTES];
    gda_host_build_wqe(q, idx, kind, a, w);
    const mlx5::ctrl_seg* c = (const mlx5::ctrl_seg*)w;
    memcpy(q.sq + (size_t)slot * mlx5::WQEBB_BYTES, w, sizeof w);
    // The WQE before the record (the softnic acquires the record, then reads the WQE); the record
    // before the doorbell (a ConnectX reads the record when the doorbell rings).
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&q.dbrec[mlx5::SND_DBR], mlx5::be32((uint32_t)(idx + 1) & 0xffff), __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    uint64_t* db = g.host_db ? g.host_db : q.db;
    uint64_t first8;
    memcpy(&first8, c, sizeof first8);
    *(volatile uint64_t*)db = first8;
    q.published = idx + 1;
    return idx;
  }

  uint64_t post_and_wait(int kind, const wqe_args& a, const char* what) {
    const uint64_t idx = post(kind, a);
    wait_until_completed(idx + 1, what);
    return idx;
  }

  // The remote address and key of symmetric offset `off`: the peer's heap, or its data segment.
  uint64_t raddr(uint64_t off) const {
    return sym_is_segment(off) ? r.seg.peer_base[q.peer] + (off & ~GIO_SYM_SEGMENT) : q.remote_base + off;
  }
  uint32_t rkey(uint64_t off) const { return sym_is_segment(off) ? mlx5::be32(g.seg_rkeys[q.peer]) : 0; }
  // The fetched result of completed WQE idx: written by the NIC into the slot's scratch word.
  uint64_t result(uint64_t idx) const {
    return __atomic_load_n(&q.scratch[idx & (q.sq_slots - 1)], __ATOMIC_ACQUIRE);
  }
};

bool in_heap(const runtime& r, const void* p, size_t n) {
  const uint8_t* a = (const uint8_t*)p;
  return a >= r.heap && a < r.heap + r.heap_size && n <= (size_t)(r.heap + r.heap_size - a);
}

// A put or get between heap memory (registered: the NIC uses it where it is) and the peer's heap,
// in WQEs of at most kChunk bytes, then one wait for the last.
void transfer_direct(runtime& r, host_queue& h, int kind, uint8_t* local, uint64_t off, size_t n, const char* what) {
  uint64_t last = 0;
  for (uint64_t o = 0; o < n; o += kChunk) {
    wqe_args a;
    a.raddr = h.raddr(off + o);
    a.rkey = h.rkey(off);
    a.laddr = (uint64_t)(uintptr_t)(local + o);
    a.len = (uint32_t)std::min<uint64_t>(kChunk, n - o);
    a.lkey = mlx5::be32(r.gda->local_lkey);
    last = h.post(kind, a);
  }
  h.wait_until_completed(last + 1, what);
}

// The same for any other host memory, staged through the host bounce area, which the queue
// block's key covers: a put copies each piece in first, a get copies it out after.
void transfer_bounced(runtime& r, host_queue& h, const char* routine, int kind, uint8_t* local, uint64_t off,
                      size_t n, const char* what) {
  const size_t step = r.gda->host_bounce_bytes;
  for (uint64_t o = 0; o < n; o += step) {
    const size_t k = (size_t)std::min<uint64_t>(step, n - o);
    if (kind == GIO_GDA_T_PUT) gpu::copy(r.gda->host_bounce, local + o, k, routine);
    wqe_args a;
    a.raddr = h.raddr(off + o);
    a.rkey = h.rkey(off);
    a.laddr = (uint64_t)(uintptr_t)r.gda->host_bounce;
    a.len = (uint32_t)k;
    a.lkey = mlx5::be32(r.gda->scratch_lkey);
    h.post_and_wait(kind, a, what);
    if (kind == GIO_GDA_T_GET) gpu::copy(local + o, r.gda->host_bounce, k, routine);
  }
}
}  // namespace

void gda_host_build_wqe(const gio_gda_queue_v1& q, uint64_t idx, int kind, const gda_host_wqe_args& a,
                        uint8_t w[64]) {
  const uint32_t slot = (uint32_t)idx & (q.sq_slots - 1);
  const gio_gda_tmpl_v1& t = q.tmpl[kind];
  memset(w, 0, mlx5::WQEBB_BYTES);
  mlx5::ctrl_seg* c = (mlx5::ctrl_seg*)w;
  c->opmod_idx_opcode = mlx5::be32(((uint32_t)t.opmod << 24) | ((uint32_t)(idx & 0xffff) << 8) | t.opcode);
  c->qpn_ds = t.qpn_ds;
  c->fm_ce_se = t.fm_ce_se;  // CE on every WQE: the collapsed CQE always names the latest
  mlx5::raddr_seg* rs = (mlx5::raddr_seg*)(w + 16);
  rs->raddr = mlx5::be64(a.raddr);
  rs->rkey = a.rkey ? a.rkey : t.rkey;
  if (kind >= GIO_GDA_T_FA8) {
    const bool is4 = kind == GIO_GDA_T_FA4 || kind == GIO_GDA_T_CS4;
    if (is4) {  // masked 4-byte form (runtime/mlx5/wqe.h)
      mlx5::masked4_words((uint32_t*)(w + 32), kind == GIO_GDA_T_CS4, (uint32_t)a.swap_add, (uint32_t)a.compare,
                          a.swap_mask, a.compare_mask);
    } else {
      mlx5::set_atomic((mlx5::atomic_seg*)(w + 32), a.swap_add, a.compare);
    }
    mlx5::data_seg* d = (mlx5::data_seg*)(w + 48);
    d->byte_count = mlx5::be32(is4 ? 4u : 8u);
    d->lkey = t.lkey;  // the scratch words' key
    d->addr = mlx5::be64((uint64_t)(uintptr_t)&q.scratch[slot]);
  } else if (kind == GIO_GDA_T_PUT_INLINE) {
    const uint32_t ds = 2 + (4 + a.len + 15) / 16;
    c->qpn_ds = (t.qpn_ds & mlx5::be32(~0x3fu)) | mlx5::be32(ds);
    *(uint32_t*)(w + 32) = mlx5::be32(a.len | mlx5::INLINE_SEG);
    memcpy(w + 36, a.inl, a.len);
  } else {
    mlx5::data_seg* d = (mlx5::data_seg*)(w + 32);
    d->byte_count = mlx5::be32(a.len);
    d->lkey = a.lkey;
    d->addr = mlx5::be64(a.laddr);
  }
}

void gda_host_put(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe) {
  if (n == 0) return;
  std::lock_guard<fifo_mutex> lock(r.gda->host_lock);
  host_queue h(r, routine, pe);
  const uint8_t* s = (const uint8_t*)src;
  if (n <= GIO_GDA_INLINE_MAX) {
    // Inline: the payload travels in the WQE. The source may be GPU memory, so it is fetched with
    // a platform copy rather than read by the CPU.
    uint8_t payload[GIO_GDA_INLINE_MAX];
    gpu::copy(payload, s, n, routine);
    wqe_args a;
    a.raddr = h.raddr(off);
    a.rkey = h.rkey(off);
    a.len = (uint32_t)n;
    a.inl = payload;
    h.post_and_wait(GIO_GDA_T_PUT_INLINE, a, "the completion of a put");
    return;
  }
  if (in_heap(r, s, n))
    transfer_direct(r, h, GIO_GDA_T_PUT, (uint8_t*)s, off, n, "the completion of a put");
  else
    transfer_bounced(r, h, routine, GIO_GDA_T_PUT, (uint8_t*)s, off, n,
                     "the completion of a put (from the host bounce area)");
}

void gda_host_get(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe) {
  if (n == 0) return;
  std::lock_guard<fifo_mutex> lock(r.gda->host_lock);
  host_queue h(r, routine, pe);
  uint8_t* d = (uint8_t*)dst;
  if (in_heap(r, d, n))
    transfer_direct(r, h, GIO_GDA_T_GET, d, off, n, "the completion of a get");
  else
    transfer_bounced(r, h, routine, GIO_GDA_T_GET, d, off, n, "the completion of a get (into the host bounce area)");
}

// As on the device (device/gda/gda_ops.h amo): every 4-byte AMO is one masked atomic
// (runtime/gda_amo4.h); 8-byte swap/set/and/or/xor are compare-swap loops.
uint64_t gda_host_amo(runtime& r, const char* routine, int op, uint64_t off, uint64_t v, uint64_t c, size_t size,
                      int pe) {
  std::lock_guard<fifo_mutex> lock(r.gda->host_lock);
  host_queue h(r, routine, pe);
  const bool is8 = size == 8;
  const uint64_t mask = is8 ? ~0ull : 0xffffffffull;
  v &= mask;
  c &= mask;
  auto nic = [&](int kind, uint64_t swap_add, uint64_t compare, uint32_t swap_mask = ~0u,
                 uint32_t compare_mask = ~0u) {
    wqe_args a;
    a.raddr = h.raddr(off);
    a.rkey = h.rkey(off);
    a.swap_add = swap_add;
    a.compare = compare;
    a.swap_mask = swap_mask;
    a.compare_mask = compare_mask;
    return h.result(h.post_and_wait(kind, a, "the completion of an atomic")) & mask;
  };
  if (!is8) {
    const gio_gda_amo4 m = gio_gda_amo4_for(op, (uint32_t)v, (uint32_t)c);
    return nic(m.kind, m.swap_add, m.compare, m.swap_mask, m.compare_mask);
  }
  switch (op) {
    case GIO_AMO_FETCH: return nic(GIO_GDA_T_FA8, 0, 0);
    case GIO_AMO_FETCH_ADD: return nic(GIO_GDA_T_FA8, v, 0);
    case GIO_AMO_CSWAP: return nic(GIO_GDA_T_CS8, v, c);
    default: break;
  }
  uint64_t old = nic(GIO_GDA_T_FA8, 0, 0);
  const auto t0 = std::chrono::steady_clock::now();
  unsigned spins = 0;
  for (;;) {
    const uint64_t want = op == GIO_AMO_FETCH_AND ? (old & v) : op == GIO_AMO_FETCH_OR ? (old | v)
                        : op == GIO_AMO_FETCH_XOR ? (old ^ v) : v;  // SET, SWAP
    const uint64_t seen = nic(GIO_GDA_T_CS8, want, old);
    if (seen == old) return old;
    old = seen;
    // Others (kernels, other PEs) keep changing the word: bounded like every wait.
    gda_host_wait(r, &spins, t0, routine, [&] {
      char buf[160];
      snprintf(buf, sizeof buf, "a compare-swap on PE %d's word at heap offset %llu to succeed (the word keeps changing)",
               pe, (unsigned long long)off);
      return std::string(buf);
    });
  }
}

}  // namespace gio
