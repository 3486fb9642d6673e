// Whole waves posting at once. Every lane of every wave issues thread-scope puts (p, inline and
// non-inline _nbi, blocking), gets (into a local variable and into the heap), fetching atomics
// (fetch-add tickets, compare-swap, an 8-byte fetch-xor, which gda builds from compare-swap) and signals, to
// a PE and through a context that differ from lane to lane, so one call's lanes split into several
// queues. Over gda the lanes of a wave that target one queue post as one batch (device/gda/gda_post.h);
// every result must be exact. Lanes never wait for a wave-mate, so this also passes where a wave's
// lanes cannot overtake each other (AMD; the host emulator's lockstep mode). Runs over every
// transport; only gda aggregates.
//
// Where PEs share a GPU (pes_share_gpu), each softnic or proxy atomic and signal on GPU memory waits
// for a time slice, so one work-group of 80 threads posts there instead of two of 96: still a full
// wave and a partial one (2.5 NVIDIA warps, 1.25 AMD waves), with every kind of call in each.
#include "gio_test.h"

#include "device/platform/platform.h"

using namespace giotest;

namespace {
const unsigned kWGs = 2, kThreads = 96;  // 3 warps / 1.5 AMD waves: a partial wave too
// Where PEs share a GPU (the header says why).
const unsigned kLeanWGs = 1, kLeanThreads = 80;
const size_t kPut = 200, kPutStride = 256, kNbiStride = 64, kGet = 100;

// Where thread t of PE me sends (every PE, itself included, within one wave), and how.
GIO_HOST_DEVICE_INLINE int target(int me, unsigned t, int n) { return (int)((me + t) % (unsigned)n); }
GIO_HOST_DEVICE_INLINE size_t nbi_len(unsigned t) { return t % 3 == 0 ? 8 : t % 3 == 1 ? 28 : 40; }  // inline, inline, not
GIO_HOST_DEVICE_INLINE bool does_nbi(unsigned t) { return t % 5 != 4; }  // some lanes skip: smaller batches
GIO_HOST_DEVICE_INLINE int p_value(unsigned g) { return (int)(g * 7 + 3); }

struct bufs {
  uint8_t* src;       // kT*n*kPutStride, pattern(owner PE)
  int* p_dst;         // [g]
  uint8_t* nbi_dst;   // [g*kNbiStride]
  uint8_t* put_dst;   // [g*kPutStride]
  uint8_t* sig_data;  // [g*8]
  uint64_t* counter;  // [0]: fetch-add tickets; [1]: SIGNAL_ADD
  uint64_t* hits;     // [ticket]
  uint64_t* cs;       // [g]
  uint64_t* sig_set;  // [g]
  uint8_t* get_dst;   // [t*kGet], this PE's own
  unsigned T;         // senders per PE (every thread of the launch)
};

__global__ void wave_kernel(bufs b, unsigned* errors) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  shmem_ctx_t wg = SHMEM_CTX_DEFAULT;
  if (shmemx_wg_ctx_create(SHMEM_CTX_PRIVATE, &wg) != 0) wg = SHMEM_CTX_DEFAULT;
  const unsigned kT = b.T, t = blockIdx.x * blockDim.x + threadIdx.x, g = (unsigned)me * kT + t;
  const int pe = target(me, t, n);
  const shmem_ctx_t ctx = (threadIdx.x & 2) ? wg : SHMEM_CTX_DEFAULT;
  unsigned bad = 0;

  shmem_ctx_int_p(ctx, &b.p_dst[g], p_value(g), pe);
  if (does_nbi(t)) shmem_ctx_putmem_nbi(ctx, b.nbi_dst + g * kNbiStride, b.src + g * kPutStride, nbi_len(t), pe);
  shmem_ctx_putmem(ctx, b.put_dst + g * kPutStride, b.src + g * kPutStride, kPut, pe);
  shmem_ctx_quiet(ctx);

  const uint64_t ticket = shmem_ctx_uint64_atomic_fetch_add(ctx, &b.counter[0], 1, pe);
  if (ticket >= (uint64_t)n * kT) ++bad;
  else shmem_ctx_uint64_atomic_add(ctx, &b.hits[ticket], 1, pe);
  if (shmem_ctx_uint64_atomic_compare_swap(ctx, &b.cs[g], 0, g + 1, pe) != 0) ++bad;
  if (shmem_ctx_uint64_atomic_fetch_xor(ctx, &b.cs[g], 0xf0, pe) != g + 1) ++bad;

  shmem_ctx_putmem_signal(ctx, b.sig_data + g * 8, b.src + g * kPutStride, 8, &b.counter[1], 1, SHMEM_SIGNAL_ADD, pe);
  shmem_ctx_putmem_signal(ctx, b.sig_data + g * 8, b.src + g * kPutStride, 8, &b.sig_set[g], g + 7, SHMEM_SIGNAL_SET,
                          pe);

  // Gets of the target's own pattern: 8 bytes into a register-backed local, 100 into the heap.
  uint64_t v = 0;
  shmem_ctx_getmem(ctx, &v, b.src + g * kPutStride + 16, 8, pe);
  for (size_t i = 0; i < 8; ++i)
    if ((uint8_t)(v >> (8 * i)) != pattern(pe, g * kPutStride + 16 + i)) ++bad;
  shmem_ctx_getmem(ctx, b.get_dst + t * kGet, b.src + g * kPutStride + 32, kGet, pe);
  for (size_t i = 0; i < kGet; ++i)
    if (b.get_dst[t * kGet + i] != pattern(pe, g * kPutStride + 32 + i)) ++bad;
  shmem_ctx_quiet(ctx);
  if (bad) atomicAdd(errors, bad);
  __syncthreads();
  if (wg != SHMEM_CTX_DEFAULT) shmemx_wg_ctx_destroy(wg);
}

// The lanes that call together, and their split by key, as the gda posting path sees them.
__global__ void match_kernel(unsigned long long* masks, unsigned long long* groups, unsigned* errors) {
  const unsigned t = threadIdx.x;
  if (t % 4 == 3) return;  // a partial group: these lanes have left
  const gio::plat::wave_mask act = gio::plat::wave_active_mask();
  const gio::plat::wave_mask grp = gio::plat::wave_match(act, (t / 2) % 3);
  masks[t] = act;
  groups[t] = grp;
  // Every lane of grp is in act and has the caller's key; every lane of act with that key is in grp.
  const unsigned lane = gio::plat::wave_lane(), base = t - lane;
  bool ok = (grp >> lane & 1) && (grp & ~act) == 0;
  for (unsigned l = 0; l < gio::plat::wave_size(); ++l)
    if (act >> l & 1) ok = ok && (((grp >> l) & 1) == ((((base + l) / 2) % 3) == (t / 2) % 3));
  const unsigned leader = gio::plat::wave_lowest(grp);
  const unsigned long long got = gio::plat::wave_shfl(grp, (unsigned long long)t * 1000 + 1, leader);
  ok = ok && got == (unsigned long long)(base + leader) * 1000 + 1;
  ok = ok && gio::plat::wave_ballot(grp, t % 2 == 0) == (grp & (gio::plat::wave_mask)0x5555555555555555ull);
  // Gathering and matching in one step (what gda posting uses): the caller and lanes of its key
  // only (which of them call together here depends on how the groups above finished).
  const gio::plat::wave_mask am = gio::plat::wave_active_match((t / 2) % 3);
  ok = ok && (am >> lane & 1);
  for (unsigned l = 0; l < gio::plat::wave_size(); ++l)
    if (am >> l & 1) ok = ok && (((base + l) / 2) % 3 == (t / 2) % 3) && (base + l) % 4 != 3;
  if (!ok) atomicAdd(errors, 1u);
}
}  // namespace

TEST(GdaWave, CollectivesGroupLanesByKey) {
  const unsigned threads = 128;
  dbuf<unsigned long long> masks(threads), groups(threads);
  dbuf<unsigned> errors(1);
  hipLaunchKernelGGL(match_kernel, dim3(1), dim3(threads), 0, 0, masks.get(), groups.get(), errors.get());
  ASSERT_TRUE(synced());
  EXPECT_EQ(errors.read()[0], 0u);
#if defined(GIO_PLATFORM_HOST)
  // Lanes that reach the call in one scheduler round gather into one group: here all that entered.
  const std::vector<unsigned long long> m = masks.read();
  for (unsigned t = 0; t < threads; ++t)
    if (t % 4 != 3) EXPECT_EQ(m[t], 0x77777777ull) << "thread " << t;
#endif
}

TEST(GdaWave, EveryLanePostsAtOnce) {
  const int n = npes(), my = me();
  const bool lean = pes_share_gpu();
  const unsigned wgs = lean ? kLeanWGs : kWGs, threads = lean ? kLeanThreads : kThreads, kT = wgs * threads;
  const size_t N = (size_t)n * kT;
  sym<uint8_t> src(N * kPutStride), nbi_dst(N * kNbiStride), put_dst(N * kPutStride), sig_data(N * 8),
      get_dst(kT * kGet);
  sym<int> p_dst(N);
  sym<uint64_t> counter(2), hits(N), cs(N), sig_set(N);
  std::vector<uint8_t> pat(N * kPutStride);
  for (size_t i = 0; i < pat.size(); ++i) pat[i] = pattern(my, i);
  src.write(pat);
  dbuf<unsigned> errors(1);
  shmem_barrier_all();
  bufs b{src.get(), p_dst.get(), nbi_dst.get(), put_dst.get(), sig_data.get(), counter.get(),
         hits.get(), cs.get(), sig_set.get(), get_dst.get(), kT};
  hipLaunchKernelGGL(wave_kernel, dim3(wgs), dim3(threads), 0, 0, b, errors.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(errors.read()[0], 0u) << "wrong fetched values or get data seen by the senders";

  const auto p = p_dst.read();
  const auto nbi = nbi_dst.read(), put = put_dst.read(), sd = sig_data.read();
  const auto ctr = counter.read(), h = hits.read(), c = cs.read(), ss = sig_set.read();
  uint64_t senders = 0;
  for (int s = 0; s < n; ++s)
    for (unsigned t = 0; t < kT; ++t) {
      const unsigned g = (unsigned)s * kT + t;
      const bool mine = target(s, t, n) == my;
      senders += mine;
      ASSERT_EQ(p[g], mine ? p_value(g) : 0) << "p from PE " << s << " thread " << t;
      for (size_t i = 0; i < kNbiStride; ++i)
        ASSERT_EQ(nbi[g * kNbiStride + i], mine && does_nbi(t) && i < nbi_len(t) ? pattern(s, g * kPutStride + i) : 0)
            << "put_nbi from PE " << s << " thread " << t << " byte " << i;
      for (size_t i = 0; i < kPutStride; ++i)
        ASSERT_EQ(put[g * kPutStride + i], mine && i < kPut ? pattern(s, g * kPutStride + i) : 0)
            << "put from PE " << s << " thread " << t << " byte " << i;
      for (size_t i = 0; i < 8; ++i)
        ASSERT_EQ(sd[g * 8 + i], mine ? pattern(s, g * kPutStride + i) : 0) << "signal data from PE " << s;
      ASSERT_EQ(c[g], mine ? (uint64_t)((g + 1) ^ 0xf0) : 0u) << "compare-swap, fetch-xor from PE " << s << " thread " << t;
      ASSERT_EQ(ss[g], mine ? (uint64_t)g + 7 : 0u) << "SIGNAL_SET from PE " << s << " thread " << t;
    }
  EXPECT_EQ(ctr[0], senders) << "fetch-add count";
  EXPECT_EQ(ctr[1], senders) << "SIGNAL_ADD count";
  for (size_t k = 0; k < N; ++k) ASSERT_EQ(h[k], k < senders ? 1u : 0u) << "ticket " << k << " handed out once";
}
