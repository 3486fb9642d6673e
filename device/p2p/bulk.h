// p2p copies through the SM's bulk-copy engine (Hopper's TMA, cp.async.bulk) for one thread.
//
// Why: one thread copying with loads and stores is bound by the loads it keeps in flight. On H200
// a 4 KiB put+signal ping-pong from one thread took 5.6 us with 16 loads in flight and 4.7 with 32
// (64 and 128 registers); through the bulk-copy engine, global -> shared -> peer, 1.85 us
// (apps/bench/probes/pingpong_floor.cu); in gio-bench, 6.2 -> 2.4 us. Used from GIO_P2P_BULK_MIN
// bytes (512: at 256 B the plain copy was faster, at 512 B the bulk copy). The engine needs a
// shared-memory stage, so a kernel that calls a thread-scope p2p put or get gets one static stage
// of GIO_P2P_BULK_STAGE bytes per work-group, unless the call's size is a constant below
// GIO_P2P_BULK_FLOOR (compile with -DGIO_P2P_BULK_STAGE=0 to keep a kernel's shared memory to
// itself).
//
// The stage is the work-group's: a thread takes it with a try-lock and falls back to the plain copy
// when another thread holds it, so nobody waits for it. Shared memory starts as garbage, so the
// lock word carries a key unique to the launch and work-group (%gridid, block id): a word without
// this block's key is left over from an earlier block, and whoever claims it first sets up the
// mbarriers.
//
// Both ends must be global memory (the caller checks __isGlobal): cp.async.bulk names its global
// side by a global address, and a generic address of shared or local memory there faults.
//
// Ordering: the caller's own earlier stores to the source are generic-proxy writes and the engine
// reads through the async proxy, hence the proxy fence before the first load. The call returns
// after the bulk stores completed and another proxy fence, so the caller's later release (quiet,
// fence, signal) orders them like plain stores.
#pragma once
#include "device/core/check.h"
#include "device/core/copy.h"

#ifndef GIO_P2P_BULK_STAGE
#define GIO_P2P_BULK_STAGE 4096
#endif
// Never below this many bytes, whatever GIO_P2P_BULK_MIN says: a compile-time bound lets the
// compiler drop the path (and the stage) where the size is a small constant.
#define GIO_P2P_BULK_FLOOR 256

#if GIO_KERNEL_COMPILER && defined(GIO_PLATFORM_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && \
    GIO_P2P_BULK_STAGE > 0
#define GIO_P2P_BULK 1
static_assert(GIO_P2P_BULK_STAGE % 256 == 0, "GIO_P2P_BULK_STAGE: a multiple of 256 bytes");

namespace gio {
namespace dev {
namespace p2p {

struct bulk_stage {
  unsigned long long owner;   // (key << 1) | busy
  unsigned long long bar[2];  // mbarrier per half of buf
  uint32_t parity;            // bit h: the phase bar[h] completes next
  alignas(128) uint8_t buf[GIO_P2P_BULK_STAGE];
};

GIO_DEVICE_INLINE uint32_t smem(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

// Unique among the blocks that can ever have occupied this shared memory: launch number (mod 2^31)
// and block index.
GIO_DEVICE_INLINE unsigned long long bulk_key() {
  unsigned long long grid;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
  return ((grid & 0x7fffffffull) << 32) | plat::wg_id();
}

GIO_DEVICE_INLINE bulk_stage* bulk_claim(unsigned long long key) {
  __shared__ bulk_stage stage;
  const unsigned long long idle = key << 1, busy = idle | 1;
  unsigned long long seen = atomicCAS(&stage.owner, idle, busy);
  if (seen != idle) {
    if ((seen >> 1) == key) return nullptr;  // another thread of this work-group holds it
    if (atomicCAS(&stage.owner, seen, busy) != seen) return nullptr;
    // First use in this block: the mbarriers are ours to set up (one arrival each, plus bytes).
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&stage.bar[0])) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&stage.bar[1])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    stage.parity = 0;
  }
  __threadfence_block();  // the previous holder's parity is visible
  return &stage;
}

GIO_DEVICE_INLINE void bulk_release(bulk_stage* st, unsigned long long key) {
  __threadfence_block();
  atomicExch(&st->owner, key << 1);
}

// n > 0 bytes, d, s and n multiples of 16. Halves of the stage alternate so the load of chunk c+1
// overlaps the store of chunk c.
GIO_DEVICE_INLINE void bulk_copy(bulk_stage* st, uint8_t* d, const uint8_t* s, size_t n) {
  constexpr uint32_t half = GIO_P2P_BULK_STAGE / 2;
  const uint32_t buf = smem(st->buf), bar = smem(&st->bar[0]);
  const size_t chunks = (n + half - 1) / half;
  uint32_t parity = st->parity;
  auto len = [&](size_t c) { return (uint32_t)(n - c * half < half ? n - c * half : half); };
  auto load = [&](size_t c) {
    const uint32_t h = (uint32_t)(c & 1), b = bar + 8 * h;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(len(c)) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(buf + h * half), "l"(s + c * half), "r"(len(c)), "r"(b)
                 : "memory");
  };
  asm volatile("fence.proxy.async.global;" ::: "memory");
  load(0);
  for (size_t c = 0; c < chunks; ++c) {
    const uint32_t h = (uint32_t)(c & 1), b = bar + 8 * h, want = (parity >> h) & 1;
    if (c + 1 < chunks) {
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // the store of c-1 left half h^1
      load(c + 1);
    }
    bounded_wait(
        [&] {
          uint32_t done;
          asm volatile(
              "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
              : "=r"(done)
              : "r"(b), "r"(want)
              : "memory");
          return done != 0;
        },
        // The report captures values: captured by reference, the chunk counter and the
        // addresses lived in local memory, stored and read back on every chunk of every copy.
        [bytes = len(c), from = (const void*)(s + c * half)](unsigned long long ms) {
          GIO_DEV_PRINT("GIO timeout: p2p bulk copy on PE %d (work-group %u, thread %u) waited %llu ms for "
                        "%u bytes from %p\n",
                        GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, bytes, from);
        });
    parity ^= 1u << h;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(d + c * half), "r"(buf + h * half), "r"(len(c))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  st->parity = parity;
}

// The 16-byte-aligned middle of [d, d+n) through the stage, the ends with plain stores. Returns
// false, having copied nothing, when the pointers' alignments differ modulo 16 or the stage is
// taken.
GIO_DEVICE_INLINE bool copy_bulk(uint8_t* d, const uint8_t* s, size_t n) {
  const size_t head = (16 - ((uintptr_t)d & 15)) & 15;
  if ((((uintptr_t)d ^ (uintptr_t)s) & 15) || n < head + 16) return false;
  const size_t mid = (n - head) & ~(size_t)15;
  const unsigned long long key = bulk_key();
  bulk_stage* st = bulk_claim(key);
  if (!st) return false;
  if (head) copy_small<16>(d, s, head);
  bulk_copy(st, d + head, s + head, mid);
  bulk_release(st, key);
  if (head + mid < n) copy_small<16>(d + head + mid, s + head + mid, n - head - mid);
  return true;
}

}  // namespace p2p
}  // namespace dev
}  // namespace gio
#endif
