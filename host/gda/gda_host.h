// gda transport, the host's side of the data path: host-initiated operations over the host's own
// queue set (gda_host_post.cpp) and host completion of every queue, the kernels' and the host's
// (gda_drain.cpp).
//
// The host set is the last set of the NIC-visible queue block: one QP per peer, laid out and
// templated like a kernel's (gda_tmpl.h), so the softnic and a ConnectX serve it unchanged. The
// CPU builds the same byte-exact WQEs a kernel does, rings the same doorbell and polls the same
// collapsed CQE. Host buffers outside the symmetric heap travel inline (small puts) or through the
// host bounce area in the block; fetched atomics land in the queue's scratch words.
#pragma once
#include <chrono>
#include <functional>
#include <string>

#include "host/gda/gda_state.h"

namespace gio {

// Index in g.host_desc of the host's queue to `pe`.
inline size_t gda_host_queue(const gda_state& g, int n_pes, int pe) { return (size_t)g.sets * n_pes + pe; }

// Each returns once every WQE it posted has completed (a put's data is at the target, a get's in
// `dst`); errors and waits past GIO_TIMEOUT_MS are fatal and name `routine`. `off` is the heap
// offset of the symmetric address; arguments are checked by the caller (host/rma.cpp).
void gda_host_put(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe);
void gda_host_get(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe);
// gio_amo_op `op` on the 4- or 8-byte word at `off` on `pe`; returns the old value's bits.
uint64_t gda_host_amo(runtime& r, const char* routine, int op, uint64_t off, uint64_t value, uint64_t compare,
                      size_t size, int pe);

// One host WQE's dynamic fields, and the 64 bytes the host writes into slot `idx` of `q` for it:
// the bytes a kernel's post() leaves there for the same operation (tests/unit/gda_host_wqe_test.cpp).
struct gda_host_wqe_args {
  uint64_t raddr = 0;
  uint64_t laddr = 0;            // data segment address (put/get)
  uint32_t len = 0;              // put/get bytes, or the inline payload's
  uint32_t lkey = 0;             // BE (put/get)
  uint32_t rkey = 0;             // BE; 0: the template's (the peer's heap), else the peer's data segment's
  const uint8_t* inl = nullptr;  // inline payload, for GIO_GDA_T_PUT_INLINE
  uint64_t swap_add = 0, compare = 0;   // as the device's wqe_args (device/gda/gda_post.h)
  uint32_t swap_mask = ~0u, compare_mask = ~0u;
};
void gda_host_build_wqe(const gio_gda_queue_v1& q, uint64_t idx, int kind, const gda_host_wqe_args& a,
                        uint8_t w[64]);

// Waits until every WQE that a doorbell record of this PE covered on entry has completed, on every
// queue (kernels' sets and the host's). Called by host shmem_quiet, shmem_barrier_all and
// shmem_finalize; a no-op without gda.
void gda_drain(runtime& r, const char* routine);

// Shared by the two: a queue's name in messages ("queue of set 3", "host queue"); true once queue
// i's CQE covers WQE pi - 1 (a completion error is fatal); one step of a bounded host wait that
// describes, on expiry, what it waited for.
std::string gda_queue_name(const gda_state& g, size_t i);
[[noreturn]] void gda_completion_fatal(const gda_state& g, size_t i, const char* routine);
bool gda_queue_covers(const gda_state& g, size_t i, uint16_t pi, const char* routine);
void gda_host_wait(const runtime& r, unsigned* spins, const std::chrono::steady_clock::time_point& t0,
                   const char* routine, const std::function<std::string()>& what);

}  // namespace gio
