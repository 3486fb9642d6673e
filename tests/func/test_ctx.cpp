// Contexts: shmemx_wg_ctx_create from many work-groups at once (distinct contexts, one per
// work-group, agreed by all its threads), RMA/AMO/quiet/fence through them, destroy returning them
// to the pool, exhaustion at GIO_NUM_CONTEXTS, SHMEM_CTX_DEFAULT in kernels and host code, and
// host contexts (shmem_ctx_create / shmem_ctx_destroy).
//
// Where PEs share a GPU (pes_share_gpu), each softnic or proxy atomic on GPU memory waits for a time
// slice, so the create/destroy churn uses its context for an atomic every tenth round there (it
// still creates and destroys a context every round, which is what would leak).
#include "gio_test.h"

#include <cstdlib>
#include <set>

using namespace giotest;

namespace {
const unsigned kBlock = 64;
const size_t kChunk = 1000;  // bytes each work-group moves

// GIO_NUM_CONTEXTS as this job sees it (ctest leaves the default).
size_t pool_size() {
  const char* e = getenv("GIO_NUM_CONTEXTS");
  return e ? strtoull(e, nullptr, 0) : 64;
}

// Every work-group claims a context and keeps it; thread 0 reports it, and every other thread
// checks it received the same one (the call is a work-group collective).
__global__ void create_kernel(shmem_ctx_t* ctxs, int* rcs, unsigned* disagree) {
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  const int rc = shmemx_wg_ctx_create(SHMEM_CTX_PRIVATE, &ctx);
  if (threadIdx.x == 0) {
    ctxs[blockIdx.x] = ctx;
    rcs[blockIdx.x] = rc;
  }
  __syncthreads();
  if (ctxs[blockIdx.x] != ctx || rcs[blockIdx.x] != rc) atomicAdd(disagree, 1u);
}

__global__ void destroy_kernel(const shmem_ctx_t* ctxs) { shmemx_wg_ctx_destroy(ctxs[blockIdx.x]); }

// Work-group b moves chunk b through its context ctxs[b]: the first half by one thread, the second
// by the whole work-group, then gets the peer's chunk back and bumps the peer's counter.
__global__ void ctx_rma_kernel(const shmem_ctx_t* ctxs, uint8_t* sym_dst, const uint8_t* sym_src,
                               uint8_t* local_get, uint64_t* counter, int pe, bool destroy) {
  const shmem_ctx_t ctx = ctxs[blockIdx.x];
  const size_t off = blockIdx.x * kChunk, half = kChunk / 2;
  if (threadIdx.x == 0) {
    shmem_ctx_putmem(ctx, sym_dst + off, sym_src + off, half, pe);
    shmem_ctx_fence(ctx);
  }
  __syncthreads();
  shmemx_ctx_putmem_wg(ctx, sym_dst + off + half, sym_src + off + half, kChunk - half, pe);
  if (threadIdx.x == 0) {
    shmem_ctx_uint64_atomic_add(ctx, counter, 1, pe);
    shmem_ctx_getmem(ctx, local_get + off, sym_src + off, kChunk, pe);
    shmem_ctx_quiet(ctx);
  }
  if (destroy) shmemx_wg_ctx_destroy(ctx);
}

struct created {
  std::vector<shmem_ctx_t> ctxs;
  std::vector<int> rcs;
  unsigned disagree = 0;
};

created create_in(unsigned groups, dbuf<shmem_ctx_t>& d_ctxs) {
  dbuf<int> d_rcs(groups);
  dbuf<unsigned> d_dis(1);
  hipLaunchKernelGGL(create_kernel, dim3(groups), dim3(kBlock), 0, 0, d_ctxs.get(), d_rcs.get(), d_dis.get());
  EXPECT_TRUE(synced());
  created c;
  c.ctxs = d_ctxs.read();
  c.ctxs.resize(groups);
  c.rcs = d_rcs.read();
  c.disagree = d_dis.read()[0];
  return c;
}

// Runs ctx_rma_kernel over `ctxs` towards the next PE and checks every byte and the counter.
void check_ctx_rma(const dbuf<shmem_ctx_t>& d_ctxs, unsigned groups, bool destroy, unsigned salt) {
  const size_t n = groups * kChunk;
  sym<uint8_t> dst(n), src(n);
  sym<uint64_t> counter(1);
  dbuf<uint8_t> got(n);
  std::vector<uint8_t> mine(n);
  for (size_t i = 0; i < n; ++i) mine[i] = pattern(me(), i, salt);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(ctx_rma_kernel, dim3(groups), dim3(kBlock), 0, 0, d_ctxs.get(), dst.get(), src.get(),
                     got.get(), counter.get(), next_pe(), destroy);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> put_in = dst.read(), fetched = got.read();
  size_t bad_put = 0, bad_get = 0;
  for (size_t i = 0; i < n; ++i) {
    bad_put += put_in[i] != pattern(prev_pe(), i, salt);
    bad_get += fetched[i] != pattern(next_pe(), i, salt);
  }
  EXPECT_EQ(bad_put, 0u) << "bytes wrong after ctx puts";
  EXPECT_EQ(bad_get, 0u) << "bytes wrong after ctx gets";
  EXPECT_EQ(counter.read()[0], groups) << "ctx atomic adds from PE " << prev_pe();
}
}  // namespace

TEST(DeviceCtx, ManyWorkGroupsGetDistinctContexts) {
  const unsigned groups = 48;
  dbuf<shmem_ctx_t> d_ctxs(groups);
  created c = create_in(groups, d_ctxs);
  EXPECT_EQ(c.disagree, 0u) << "threads of one work-group saw different contexts";
  std::set<shmem_ctx_t> seen;
  for (unsigned b = 0; b < groups; ++b) {
    EXPECT_EQ(c.rcs[b], 0) << "work-group " << b;
    EXPECT_NE(c.ctxs[b], SHMEM_CTX_DEFAULT) << "work-group " << b;
    EXPECT_NE(c.ctxs[b], SHMEM_CTX_INVALID) << "work-group " << b;
    seen.insert(c.ctxs[b]);
  }
  EXPECT_EQ(seen.size(), (size_t)groups) << "contexts held at the same time must be distinct";
  // Use them (from a later launch) and destroy them there.
  check_ctx_rma(d_ctxs, groups, true, 1);
  // Destroyed contexts are back: the whole pool can be claimed again.
  const unsigned all = (unsigned)pool_size();
  dbuf<shmem_ctx_t> d_all(all);
  created again = create_in(all, d_all);
  for (unsigned b = 0; b < all; ++b) EXPECT_EQ(again.rcs[b], 0) << "re-create in work-group " << b;
  hipLaunchKernelGGL(destroy_kernel, dim3(all), dim3(kBlock), 0, 0, d_all.get());
  EXPECT_TRUE(synced());
}

// More work-groups than contexts: exactly GIO_NUM_CONTEXTS succeed, the rest get a nonzero return
// and SHMEM_CTX_INVALID; after destroying, the pool is whole again.
TEST(DeviceCtx, PoolExhaustsAtNumContexts) {
  const unsigned pool = (unsigned)pool_size(), groups = pool + 16;
  dbuf<shmem_ctx_t> d_ctxs(groups);
  created c = create_in(groups, d_ctxs);
  EXPECT_EQ(c.disagree, 0u);
  std::set<shmem_ctx_t> ok;
  std::vector<shmem_ctx_t> valid;
  unsigned failed = 0;
  for (unsigned b = 0; b < groups; ++b) {
    if (c.rcs[b] == 0) {
      EXPECT_NE(c.ctxs[b], SHMEM_CTX_INVALID);
      EXPECT_NE(c.ctxs[b], SHMEM_CTX_DEFAULT);
      ok.insert(c.ctxs[b]);
      valid.push_back(c.ctxs[b]);
    } else {
      ++failed;
      EXPECT_EQ(c.ctxs[b], SHMEM_CTX_INVALID) << "failed create in work-group " << b;
    }
  }
  EXPECT_EQ(valid.size(), (size_t)pool);
  EXPECT_EQ(ok.size(), valid.size()) << "a context was handed to two work-groups";
  EXPECT_EQ(failed, groups - pool);
  dbuf<shmem_ctx_t> d_valid(valid.size());
  d_valid.write(valid);
  hipLaunchKernelGGL(destroy_kernel, dim3((unsigned)valid.size()), dim3(kBlock), 0, 0, d_valid.get());
  ASSERT_TRUE(synced());
  created again = create_in(pool, d_ctxs);
  for (unsigned b = 0; b < pool; ++b) EXPECT_EQ(again.rcs[b], 0) << "after destroy, work-group " << b;
  hipLaunchKernelGGL(destroy_kernel, dim3(pool), dim3(kBlock), 0, 0, d_ctxs.get());
  EXPECT_TRUE(synced());
}

namespace {
// Each work-group claims, uses (every `every`-th round) and releases a context many times; counts
// failed claims and wrong counter values seen through the context.
__global__ void churn_kernel(uint64_t* counters, int rounds, int every, int pe, unsigned* failures) {
  for (int r = 0; r < rounds; ++r) {
    shmem_ctx_t ctx;
    if (shmemx_wg_ctx_create(0, &ctx) != 0) {
      if (threadIdx.x == 0) atomicAdd(failures, 1u);
      continue;
    }
    if (threadIdx.x == 0 && r % every == 0) {
      const uint64_t old = shmem_ctx_uint64_atomic_fetch_add(ctx, counters + blockIdx.x, 1, pe);
      if (old != (uint64_t)(r / every)) atomicAdd(failures, 1u);
    }
    shmemx_wg_ctx_destroy(ctx);
  }
}
}  // namespace

// Fewer work-groups than contexts, each cycling create/destroy: no claim ever fails (nothing leaks).
// An atomic through the context every round, or every tenth where PEs share a GPU.
TEST(DeviceCtx, CreateDestroyChurn) {
  const unsigned groups = 16;
  const int rounds = 100, every = pes_share_gpu() ? 10 : 1;
  sym<uint64_t> counters(groups);
  dbuf<unsigned> failures(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(churn_kernel, dim3(groups), dim3(kBlock), 0, 0, counters.get(), rounds, every, next_pe(),
                     failures.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(failures.read()[0], 0u);
  for (uint64_t v : counters.read()) EXPECT_EQ(v, (uint64_t)((rounds + every - 1) / every));
}

TEST(DeviceCtx, DefaultContextInKernels) {
  const unsigned groups = 4;
  dbuf<shmem_ctx_t> d_ctxs(groups);
  d_ctxs.write(std::vector<shmem_ctx_t>(groups, SHMEM_CTX_DEFAULT));
  check_ctx_rma(d_ctxs, groups, true, 2);  // destroying the default context does nothing
  check_ctx_rma(d_ctxs, groups, false, 3);
}

// ---- host code ------------------------------------------------------------------------------

namespace {
// Puts, a typed p/g, a fetch-add and a get through `ctx` from host code, towards the next PE.
void check_host_ctx_ops(shmem_ctx_t ctx, unsigned salt) {
  const size_t n = 4096;
  sym<uint8_t> dst(n), src(n);
  sym<uint64_t> word(2);
  std::vector<uint8_t> mine(n), fetched(n);
  for (size_t i = 0; i < n; ++i) mine[i] = pattern(me(), i, salt);
  src.write(mine);
  shmem_barrier_all();
  shmem_ctx_putmem(ctx, dst.get(), mine.data(), n / 2, next_pe());
  shmem_ctx_fence(ctx);
  shmem_ctx_putmem_nbi(ctx, dst.get() + n / 2, mine.data() + n / 2, n - n / 2, next_pe());
  shmem_ctx_uint64_p(ctx, word.get(), 1000 + me(), next_pe());
  EXPECT_EQ(shmem_ctx_uint64_atomic_fetch_add(ctx, word.get() + 1, 5, next_pe()), 0u);
  shmem_ctx_quiet(ctx);
  shmem_ctx_getmem(ctx, fetched.data(), src.get(), n, next_pe());
  shmem_barrier_all();
  std::vector<uint8_t> put_in = dst.read();
  size_t bad_put = 0, bad_get = 0;
  for (size_t i = 0; i < n; ++i) {
    bad_put += put_in[i] != pattern(prev_pe(), i, salt);
    bad_get += fetched[i] != pattern(next_pe(), i, salt);
  }
  EXPECT_EQ(bad_put, 0u);
  EXPECT_EQ(bad_get, 0u);
  EXPECT_EQ(word.read()[0], (uint64_t)(1000 + prev_pe()));
  EXPECT_EQ(shmem_ctx_uint64_g(ctx, word.get() + 1, me()), 5u);
  shmem_barrier_all();
}
}  // namespace

TEST(HostCtx, CreateUseDestroy) {
  shmem_ctx_t a = SHMEM_CTX_INVALID, b = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &a), 0);
  ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &b), 0);
  EXPECT_NE(a, b);
  for (shmem_ctx_t c : {a, b}) {
    EXPECT_NE(c, SHMEM_CTX_DEFAULT);
    EXPECT_NE(c, SHMEM_CTX_INVALID);
  }
  check_host_ctx_ops(a, 4);
  check_host_ctx_ops(b, 5);
  shmem_ctx_destroy(a);
  shmem_ctx_destroy(b);
  // Destroyed contexts are reusable.
  shmem_ctx_t c = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &c), 0);
  check_host_ctx_ops(c, 6);
  shmem_ctx_destroy(c);
}

TEST(HostCtx, DefaultContext) {
  check_host_ctx_ops(SHMEM_CTX_DEFAULT, 7);
  shmem_ctx_destroy(SHMEM_CTX_DEFAULT);  // a no-op: the default context stays usable
  check_host_ctx_ops(SHMEM_CTX_DEFAULT, 8);
}

// The host pool holds GIO_NUM_CONTEXTS too, and is separate from the device pool.
TEST(HostCtx, PoolExhaustsAtNumContexts) {
  const size_t pool = pool_size();
  std::vector<shmem_ctx_t> held;
  for (size_t i = 0; i < pool; ++i) {
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_ctx_create(0, &c), 0) << "host context " << i;
    held.push_back(c);
  }
  EXPECT_EQ(std::set<shmem_ctx_t>(held.begin(), held.end()).size(), pool);
  shmem_ctx_t extra = SHMEM_CTX_DEFAULT;
  EXPECT_NE(shmem_ctx_create(0, &extra), 0);
  EXPECT_EQ(extra, SHMEM_CTX_INVALID);
  // Device contexts are unaffected by an exhausted host pool.
  dbuf<shmem_ctx_t> d_ctxs(2);
  created dev = create_in(2, d_ctxs);
  EXPECT_EQ(dev.rcs[0], 0);
  EXPECT_EQ(dev.rcs[1], 0);
  hipLaunchKernelGGL(destroy_kernel, dim3(2), dim3(kBlock), 0, 0, d_ctxs.get());
  EXPECT_TRUE(synced());
  check_host_ctx_ops(held.back(), 9);
  for (shmem_ctx_t c : held) shmem_ctx_destroy(c);
  shmem_ctx_t again = SHMEM_CTX_INVALID;
  EXPECT_EQ(shmem_ctx_create(0, &again), 0);
  shmem_ctx_destroy(again);
}

// ---- queue sets and fence ownership (gda) -----------------------------------------------------

namespace {
bool over_gda() { return std::string(shmemx_transport_name(next_pe())) == "gda"; }

// Work-group x (its default context) leaves an operation that cannot complete for now: it holds
// the fetched result of a WQE in slot s of its queue, wraps the queue, and posts once more into slot
// s, so that post waits (reserved, unpublished) until the result is released. Work-group 0 then puts
// and quiets through its private context, to the same PE. It must finish while x is still stuck:
// on a queue shared with x, its WQE could not be published before x's. x's second thread releases
// the result once work-group 0 is done, or after kReleaseAfterNs, so a failing run ends.
const unsigned long long kReleaseAfterNs = 5000000000ull;

struct stuck_probe {
  unsigned long long xq;      // x's queue
  unsigned long long held;    // the WQE whose fetched result x holds
  unsigned released_first;    // 1: the release came before work-group 0 finished (the failure)
  unsigned done;
};

__global__ void private_ctx_kernel(const shmem_ctx_t* ctxp, const uint64_t* word, uint8_t* dst, const uint8_t* src,
                                   int* flags, stuck_probe* out, int pe) {
  namespace gda = gio::dev::gda;
  const shmem_ctx_t ctx = *ctxp;
  const unsigned x = ctx->index;  // the default set the old code shared with this context
  volatile stuck_probe* o = out;
  if (blockIdx.x == x && threadIdx.x < 2) {
    gio_gda_queue_v1* q = gda::queue(GIO_DSTATE, nullptr, pe);
    if (threadIdx.x == 0) {
      shmem_quiet();
      gda::wqe_args a{gda::raddr(GIO_DSTATE, q, word), 0, 8, gda::queue_lkey(q), 0, 0, false};
      const uint64_t held = gda::post("private_ctx_kernel", q, GIO_GDA_T_GET, a, true);
      o->xq = (unsigned long long)(uintptr_t)q;
      o->held = held;
      __threadfence();
      atomicExch(&flags[2], 1);
      for (uint32_t k = 1; k < q->sq_slots; ++k) shmem_uint64_p((uint64_t*)dst, k, pe);  // inline, into the wrap
      __threadfence();
      atomicExch(&flags[0], 1);
      shmem_uint64_p((uint64_t*)dst, 0, pe);  // slot `held` again: waits for the release
      shmem_quiet();
    } else {
      shmem_int_wait_until(&flags[2], SHMEM_CMP_GE, 1);
      const uint64_t held = o->held;
      const unsigned long long t0 = gio::plat::clock_ns();
      while (!gio::plat::atomic_load_acquire(&flags[1]) && gio::plat::clock_ns() - t0 < kReleaseAfterNs)
        gio::plat::relax();
      if (!gio::plat::atomic_load_acquire(&flags[1])) o->released_first = 1;
      __threadfence();
      atomicExch(&flags[3], 1);
      gda::wait_done("private_ctx_kernel", q, held);
      gda::take_result(q, held);
    }
  } else if (blockIdx.x == 0 && threadIdx.x == 0) {
    shmem_int_wait_until(&flags[0], SHMEM_CMP_GE, 1);
    gio_gda_queue_v1* q = (gio_gda_queue_v1*)(uintptr_t)o->xq;
    // x has reserved its stuck WQE.
    while (gio::plat::atomic_load_acquire(&q->reserved) <= o->held + q->sq_slots) gio::plat::relax();
    shmem_ctx_putmem(ctx, dst + 64, src, 64, pe);  // a WQE reading the heap (not inline)
    shmem_ctx_quiet(ctx);
    o->done = 1;
    __threadfence();
    atomicExch(&flags[1], 1);
  }
}
}  // namespace

TEST(DeviceCtx, PrivateContextDoesNotWaitForOtherWorkGroups) {
  if (!over_gda()) GTEST_SKIP() << "queue sets exist over gda only";
  dbuf<shmem_ctx_t> d_ctx(1);
  created c = create_in(1, d_ctx);
  ASSERT_EQ(c.rcs[0], 0);
  sym<uint64_t> word(1);
  sym<uint8_t> dst(128), src(64);
  sym<int> flags(4);
  dbuf<stuck_probe> probe(1);
  shmem_barrier_all();
  // One work-group per possible context index, so the colliding one (index) exists.
  hipLaunchKernelGGL(private_ctx_kernel, dim3((unsigned)pool_size() + 1), dim3(kBlock), 0, 0, d_ctx.get(),
                     word.get(), dst.get(), src.get(), flags.get(), probe.get(), next_pe());
  ASSERT_TRUE(synced());
  const stuck_probe p = probe.read()[0];
  EXPECT_EQ(p.done, 1u);
  EXPECT_EQ(p.released_first, 0u) << "the private context's put and quiet waited for another work-group's "
                                     "operation on its default context";
  hipLaunchKernelGGL(destroy_kernel, dim3(1), dim3(kBlock), 0, 0, d_ctx.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
}

namespace {
// Each work-group's default queue to `pe`, so the test can pick two that share one.
__global__ void default_queue_kernel(unsigned long long* q, int pe) {
  if (threadIdx.x == 0) q[blockIdx.x] = (unsigned long long)(uintptr_t)gio::dev::gda::queue(GIO_DSTATE, nullptr, pe);
}

// The fence-mode bits of the WQE this thread posted last on q (nobody else posts on q meanwhile).
__device__ unsigned last_fence_bits(gio_gda_queue_v1* q) {
  const unsigned long long idx = gio::plat::atomic_load_acquire(&q->reserved) - 1;
  const uint8_t* w = q->sq + (size_t)(idx & (q->sq_slots - 1)) * gio::mlx5::WQEBB_BYTES;
  return *(volatile const uint8_t*)&((const gio::mlx5::ctrl_seg*)w)->fm_ce_se & 0xe0u;
}

// Work-groups a and b share their default queue set. a puts, fences, and lets b put; then a puts
// again. Only a's second WQE may carry the fence: b never called shmem_fence.
__global__ void fence_owner_kernel(unsigned a, unsigned b, uint8_t* dst, const uint8_t* src, int* flags,
                                   unsigned* bits, int pe) {
  if (threadIdx.x != 0 || (blockIdx.x != a && blockIdx.x != b)) return;
  gio_gda_queue_v1* q = gio::dev::gda::queue(GIO_DSTATE, nullptr, pe);
  shmem_quiet();  // nothing of an earlier kernel is pending
  if (blockIdx.x == a) {
    shmem_putmem(dst, src, 64, pe);
    shmem_fence();
    __threadfence();
    atomicExch(&flags[0], 1);
    shmem_int_wait_until(&flags[1], SHMEM_CMP_GE, 1);
    shmem_putmem(dst + 64, src, 64, pe);
    bits[0] = last_fence_bits(q);
  } else {
    shmem_int_wait_until(&flags[0], SHMEM_CMP_GE, 1);
    shmem_putmem(dst + 128, src, 64, pe);
    bits[1] = last_fence_bits(q);
    __threadfence();
    atomicExch(&flags[1], 1);
  }
  shmem_quiet();
}
}  // namespace

TEST(DeviceCtx, FenceBelongsToTheCallingContext) {
  if (!over_gda()) GTEST_SKIP() << "fence modes exist over gda only";
  const unsigned groups = 2 * ((unsigned)pool_size() + 1) + 1;  // more than the default sets: two share
  dbuf<unsigned long long> d_q(groups);
  hipLaunchKernelGGL(default_queue_kernel, dim3(groups), dim3(kBlock), 0, 0, d_q.get(), next_pe());
  ASSERT_TRUE(synced());
  const std::vector<unsigned long long> qs = d_q.read();
  unsigned a = 0, b = 0;
  for (unsigned j = 1; j < groups && !b; ++j)
    if (qs[j] == qs[0]) b = j;
  ASSERT_NE(b, 0u) << "no two of " << groups << " work-groups share a default queue";
  sym<uint8_t> dst(192), src(64);
  sym<int> flags(2);
  dbuf<unsigned> bits(2);
  bits.fill_bytes(0x5a);
  shmem_barrier_all();
  hipLaunchKernelGGL(fence_owner_kernel, dim3(b + 1), dim3(kBlock), 0, 0, a, b, dst.get(), src.get(), flags.get(),
                     bits.get(), next_pe());
  ASSERT_TRUE(synced());
  const std::vector<unsigned> got = bits.read();
  EXPECT_EQ(got[0], (unsigned)gio::mlx5::FM_SMALL_AND_FENCE)
      << "work-group " << a << "'s first WQE after its shmem_fence carries no fence";
  EXPECT_EQ(got[1], 0u) << "work-group " << b << " (same queue set, no shmem_fence) posted a fenced WQE";
  shmem_barrier_all();
}

// The context a failed shmem_team_create_ctx leaves (SHMEM_CTX_INVALID, as on PEs outside the team
// in the spec's shmem_team_create_ctx example) may be quieted, fenced and destroyed: nothing happens.
TEST(HostCtx, InvalidContextQuietFenceDestroyDoNothing) {
  shmem_team_t none = SHMEM_TEAM_INVALID;
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  EXPECT_NE(shmem_team_create_ctx(none, 0, &ctx), 0);
  EXPECT_EQ(ctx, SHMEM_CTX_INVALID);
  shmem_ctx_quiet(ctx);
  shmem_ctx_fence(ctx);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}
