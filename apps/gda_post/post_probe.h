// gio-gda-post's step breakdown probe: what one lane's post is made of, each piece timed alone
// (GPU clock cycles, per iteration, on the same queue memory the posting rows use), then the real
// path's prefixes, then a wave's WQE fills with and without the template. Its rows are the
// "measured limit" next to the posting rows of the same run:
//   - the primitives: every atomic, load, fence and store the path makes, in the form the path uses
//     now and in the form it used before (labelled "before");
//   - path1..path6: the one-lane path cut after each step (reserve and reads / WQE fill / fence /
//     doorbell record / doorbell / publish), the same calls in the same order as post_batch and
//     ring_batch (device/gda/gda_post.h), without the wave grouping and the turn wait;
//   - wave_fill_*: 32 (64) lanes fill their WQEs, then the ring's fence: the part of a full-wave
//     batch where a template can save anything, against the fence alone.
// A store's row is its issue cost; what it costs to complete shows in the fence after it.
#pragma once
#include "apps/gda_post/post_variants.h"

namespace post_probe {

enum step {
  S_CLOCK,
  S_RESERVE_DEV, S_RESERVE_SYS,
  S_COMPLETED_ACQ_DEV, S_COMPLETED_ACQ_SYS, S_PUBLISHED_RLX_DEV, S_PUBLISHED_ACQ_SYS, S_READS3,
  S_FENCE_SC_SYS, S_FENCE_ACQREL_SYS, S_FENCE_ACQREL_GPU,
  S_DBREC_RLX_SYS, S_DBREC_REL_SYS, S_DBREC_FENCED,
  S_DB_VOLATILE, S_DB_REL_SYS, S_DB_REL_GPU, S_DB_READBACK,
  S_PUB_EXCH_SYS, S_PUB_REL_GPU,
  S_FILL_TMPL, S_FILL_FULL,
  S_PATH1, S_PATH2, S_PATH3, S_PATH4, S_PATH5, S_PATH6,
  S_WAVE_FENCE, S_WAVE_FILL_TMPL, S_WAVE_FILL_FULL,
  S_COUNT
};
const char* const kStepName[S_COUNT] = {
    "clock read (overhead, not subtracted)",
    "reserve: atom.add.gpu", "reserve: atom.add.sys (before)",
    "completed: ld.acquire.gpu", "completed: ld.acquire.sys (before)", "published: ld.relaxed.gpu",
    "published: ld.acquire.sys (before)", "reserve+published+completed in flight",
    "fence.sc.sys (before, x2)", "fence.acq_rel.sys", "fence.acq_rel.gpu",
    "dbrec st.relaxed.sys (issue)", "dbrec st.release.sys (issue)", "dbrec st.relaxed.sys + fence.acq_rel.sys",
    "doorbell st.volatile.64 (before, issue)", "doorbell st.release.sys.64", "doorbell st.release.gpu.64",
    "doorbell value read back from the ring (before)",
    "published atom.exch.sys (before)", "published st.release.gpu",
    "one WQE, template fill (post_fill)", "one WQE, full build (fill_full)",
    "path1 reserve+reads", "path2 +WQE fill", "path3 +fence", "path4 +dbrec", "path5 +doorbell", "path6 +publish",
    "wave: ring fence alone", "wave: template fills + fence", "wave: full builds + fence",
};
__host__ __device__ inline bool wave_step(int s) { return s >= S_WAVE_FENCE; }

// The clock, read after every earlier instruction has issued (the memory clobber keeps the compiler
// from moving accesses across it); a value is consumed first with a volatile store (which waits
// for it), so a load's row covers its round trip.
__device__ inline long long clock_now() {
#if defined(GIO_PLATFORM_CUDA)
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
#else
  const long long t = clock64();
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return t;
#endif
}

// Stores the probe needs in a form no platform function offers (the "before" forms, and a release
// store of the 4-byte record).
__device__ inline void store_release_sys_u32(uint32_t* p, uint32_t v) {
#if defined(GIO_PLATFORM_CUDA)
  asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#elif defined(GIO_PLATFORM_HIP)
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

// The one-lane path cut after `upto` steps (1..6), as post_batch + ring_batch run it for a lone lane:
// the queue's view loaded up front, then the steps, in the same order.
__device__ inline unsigned long long path(gio_gda_queue_v1* q, int upto, uint64_t k) {
  using namespace gio;
  const char* rt = "gio-gda-post probe";
  const dev::gda::queue_view v = dev::gda::view_of(q, GIO_GDA_T_PUT);
  const uint64_t base = plat::atomic_fetch_add_device((unsigned long long*)&q->reserved, 1ull);
  const uint64_t pub = plat::load_before_fence_device((const unsigned long long*)&q->published);
  const uint64_t done = dev::gda::completed_for_post(q);
  if (upto == 1) return base + pub + done;
  const uint32_t slot = (uint32_t)base & (v.slots - 1);
  dev::gda::wait_slot_free(rt, q, v.slots, base, done);
  dev::gda::wqe_args a{0x10000ull + k * 64, 0x20000ull + k * 64, 64, 0, 0, 0, false};
  const uint64_t ctrl = dev::gda::post_fill(rt, q, v, base, slot, GIO_GDA_T_PUT, a, false);
  if (upto == 2) return ctrl + pub;
  dev::gda::nic_order_fence(v.order_system);
  if (upto == 3) return ctrl + pub;
  if (v.hdp_flush) *(volatile uint32_t*)v.hdp_flush = 1u;
  plat::store_after_fence_system(&v.dbrec[mlx5::SND_DBR], mlx5::be32((uint32_t)(base + 1) & 0xffff));
  if (upto == 4) return ctrl + pub;
  plat::store_release_system_or_device((unsigned long long*)v.db, ctrl, v.order_system);
  if (upto == 5) return ctrl + pub;
  plat::store_release_device((unsigned long long*)&q->published, base + 1);
  return ctrl + pub;
}

// Lane 0 writes the cycles of iteration i to out[i]. Wave steps run on every lane of the block.
__global__ void probe_kernel(gio_gda_queue_v1* q, int s, int iters, unsigned long long* out) {
  using namespace gio;
  __shared__ unsigned long long sink_mem;
  volatile unsigned long long* sink = &sink_mem;
  const bool lane0 = threadIdx.x == 0;
  if (!wave_step(s) && !lane0) return;
  unsigned long long* const ures = (unsigned long long*)&q->reserved;
  unsigned long long* const upub = (unsigned long long*)&q->published;
  unsigned long long* const ucom = (unsigned long long*)&q->completed;
  uint32_t* const dbrec = &q->dbrec[mlx5::SND_DBR];
  unsigned long long* const db = (unsigned long long*)q->db;
  const uint32_t slots = q->sq_slots;
  for (int i = 0; i < iters; ++i) {
    const uint64_t k = (uint64_t)i * blockDim.x + threadIdx.x;
    const uint32_t slot = (uint32_t)k & (slots - 1);
    dev::gda::wqe_args a{0x10000ull + k * 64, 0x20000ull + k * 64, 64, 0, 0, 0, false};
    if (wave_step(s)) __syncthreads();
    const long long t0 = clock_now();
    switch (s) {
      case S_CLOCK: break;
      case S_RESERVE_DEV: *sink = plat::atomic_fetch_add_device(ures, 1ull); break;
      case S_RESERVE_SYS: *sink = plat::atomic_fetch_add(ures, 1ull); break;
      case S_COMPLETED_ACQ_DEV: *sink = plat::atomic_load_acquire_device(ucom); break;
      case S_COMPLETED_ACQ_SYS: *sink = plat::atomic_load_acquire(ucom); break;
      case S_PUBLISHED_RLX_DEV: *sink = plat::load_before_fence_device(upub); break;
      case S_PUBLISHED_ACQ_SYS: *sink = plat::atomic_load_acquire(upub); break;
      case S_READS3: {
        const unsigned long long b = plat::atomic_fetch_add_device(ures, 1ull);
        const unsigned long long p = plat::load_before_fence_device(upub);
        *sink = b + p + plat::atomic_load_acquire_device(ucom);
        break;
      }
      case S_FENCE_SC_SYS: plat::fence_system(); break;
      case S_FENCE_ACQREL_SYS: plat::fence_acq_rel_system(); break;
      case S_FENCE_ACQREL_GPU: plat::fence_acq_rel_device(); break;
      case S_DBREC_RLX_SYS: plat::store_after_fence_system(dbrec, (uint32_t)k); break;
      case S_DBREC_REL_SYS: store_release_sys_u32(dbrec, (uint32_t)k); break;
      case S_DBREC_FENCED:
        plat::store_after_fence_system(dbrec, (uint32_t)k);
        plat::fence_acq_rel_system();
        break;
      case S_DB_VOLATILE: *(volatile uint64_t*)db = k; break;
      case S_DB_REL_SYS: plat::store_release_system_or_device(db, k, true); break;
      case S_DB_REL_GPU: plat::store_release_system_or_device(db, k, false); break;
      case S_DB_READBACK: *sink = *(const volatile uint64_t*)(q->sq + (size_t)slot * mlx5::WQEBB_BYTES); break;
      case S_PUB_EXCH_SYS: plat::atomic_exchange(upub, (unsigned long long)k); break;
      case S_PUB_REL_GPU: plat::store_release_device(upub, (unsigned long long)k); break;
      case S_FILL_TMPL: *sink = dev::gda::post_fill("probe", q, k, slot, GIO_GDA_T_PUT, a, false); break;
      case S_FILL_FULL: *sink = bench::fill_full("probe", q, k, slot, GIO_GDA_T_PUT, a, false); break;
      case S_PATH1: case S_PATH2: case S_PATH3: case S_PATH4: case S_PATH5: case S_PATH6:
        *sink = path(q, s - S_PATH1 + 1, k);
        break;
      case S_WAVE_FENCE: case S_WAVE_FILL_TMPL: case S_WAVE_FILL_FULL:
        if (s == S_WAVE_FILL_TMPL) *sink = dev::gda::post_fill("probe", q, k, slot, GIO_GDA_T_PUT, a, false);
        if (s == S_WAVE_FILL_FULL) *sink = bench::fill_full("probe", q, k, slot, GIO_GDA_T_PUT, a, false);
        gio::plat::wave_sync();  // the lanes' stores before lane 0's fence
        if (lane0) gio::dev::gda::nic_order_fence(q);
        break;
    }
    const long long t1 = clock_now();
    if (lane0) out[i] = (unsigned long long)(t1 - t0);
  }
}

}  // namespace post_probe
