// Atomics issued from host code (the same shmem_TYPE_atomic_* names outside a kernel), for every
// type each routine is defined for, with every PE's host thread racing on the same words; plus
// host and kernel atomics racing on one counter. Odd calls go through the ctx forms, alternating
// SHMEM_CTX_DEFAULT and a context from shmem_ctx_create.
#include "amo_ops.h"
#include "gio_test.h"

#include <algorithm>

using namespace giotest;

namespace {
// Atomics per PE per check: enough for the PEs' loops to overlap. Where PEs share a GPU
// (pes_share_gpu), each atomic on the GPU heap waits for a time slice, and 32 still overlap.
int ops() {
  static const int n = pes_share_gpu() ? 32 : 256;
  return n;
}

// Every PE's `count` values at `local`, gathered into one vector through a symmetric staging array.
template <typename T>
std::vector<T> all_pes(const std::vector<T>& local) {
  const size_t count = local.size();
  sym<T> stage(count * npes());
  shmem_putmem(stage.get() + me() * count, local.data(), count * sizeof(T), 0);
  shmem_barrier_all();
  std::vector<T> all(count * npes());
  shmem_getmem(all.data(), stage.get(), all.size() * sizeof(T), 0);
  shmem_barrier_all();
  return all;
}

// Call k: plain routine, ctx form on the default context, plain, ctx form on a created context.
struct host_ctx {
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  host_ctx() { EXPECT_EQ(shmem_ctx_create(0, &ctx), 0); }
  ~host_ctx() { shmem_ctx_destroy(ctx); }
  via pick(int k) const { return via{(k & 1) != 0, (k & 2) ? ctx : SHMEM_CTX_DEFAULT}; }
};
}  // namespace

template <typename O>
void host_ext() {
  typedef typename O::T T;
  host_ctx hc;
  sym<T> word(1), slots(npes());
  shmem_barrier_all();
  std::vector<T> olds;
  for (int k = 0; k < ops(); ++k) olds.push_back(O::swap(hc.pick(k), word.get(), (T)(me() * ops() + k + 1), 0));
  std::vector<T> chain = all_pes(olds);
  chain.push_back(O::fetch(hc.pick(1), word.get(), 0));
  EXPECT_TRUE(is_permutation_of_range(chain, 0)) << O::name() << " swap chain";
  // Values with a fraction (for float/double) must survive set, swap and fetch bit for bit.
  const T mine = (T)(me() * 4 + 2.5), prev = (T)(prev_pe() * 4 + 2.5);
  O::set(hc.pick(3), slots.get() + me(), mine, next_pe());
  EXPECT_EQ(O::fetch(hc.pick(2), slots.get() + me(), next_pe()), mine) << O::name();
  shmem_barrier_all();
  EXPECT_EQ(slots.read()[prev_pe()], prev) << O::name() << " set by the previous PE";
  EXPECT_EQ(O::swap(hc.pick(1), slots.get() + prev_pe(), (T)7, me()), prev) << O::name();
  EXPECT_EQ(O::fetch(hc.pick(0), slots.get() + prev_pe(), me()), (T)7) << O::name();
  shmem_barrier_all();
}

#define EXT_TEST(NAME, TYPE) \
  TEST(AmoExtHost, NAME) { host_ext<ext_##NAME>(); }
GIO_AMO_EXT_TYPES(EXT_TEST)
#undef EXT_TEST

template <typename O>
void host_std() {
  typedef typename O::T T;
  host_ctx hc;
  sym<T> ctr(4), x(npes());
  shmem_barrier_all();
  // ctr[0]: fetch_inc tickets; ctr[1]: fetch_add chain; ctr[2]: inc/add; ctr[3]: one compare_swap.
  std::vector<T> tickets, adds, cs(1);
  for (int k = 0; k < ops(); ++k) {
    tickets.push_back(O::fetch_inc(hc.pick(k), ctr.get(), 0));
    adds.push_back(O::fetch_add(hc.pick(k + 1), ctr.get() + 1, (T)(me() + k % 3 + 1), 0));
    O::inc(hc.pick(k + 2), ctr.get() + 2, 0);
    O::add(hc.pick(k + 3), ctr.get() + 2, (T)2, 0);
  }
  cs[0] = O::cswap(hc.pick(me()), ctr.get() + 3, (T)0, (T)(me() + 1), 0);
  const size_t total = (size_t)ops() * npes();
  EXPECT_TRUE(is_permutation_of_range(all_pes(tickets), 0)) << O::name() << " fetch_inc tickets";
  std::vector<T> fa = all_pes(adds), wins = all_pes(cs);
  std::vector<T> c(4);
  for (int k = 0; k < 4; ++k) c[k] = O::fetch(hc.pick(k), ctr.get() + k, 0);
  EXPECT_EQ(c[0], (T)total) << O::name();
  EXPECT_EQ(c[2], (T)(3 * total)) << O::name() << " inc + add(2)";
  std::vector<std::pair<long long, long long>> steps;
  for (int p = 0; p < npes(); ++p)
    for (int k = 0; k < ops(); ++k) steps.push_back({(long long)fa[p * ops() + k], p + k % 3 + 1});
  EXPECT_TRUE(fetch_adds_chain(steps, (long long)c[1])) << O::name();
  EXPECT_EQ(std::count(wins.begin(), wins.end(), (T)0), 1) << O::name() << " compare_swap winners";
  for (T w : wins)
    if (w != (T)0) EXPECT_EQ(w, c[3]) << O::name() << " compare_swap loser saw another value";

  // A compare_swap whose condition fails changes nothing; negative addends wrap as in T.
  T* mine = x.get() + me();
  O::set(hc.pick(0), mine, (T)10, next_pe());
  EXPECT_EQ(O::cswap(hc.pick(1), mine, (T)11, (T)20, next_pe()), (T)10) << O::name();
  EXPECT_EQ(O::fetch(hc.pick(2), mine, next_pe()), (T)10) << O::name() << " failed compare_swap wrote";
  EXPECT_EQ(O::cswap(hc.pick(3), mine, (T)10, (T)20, next_pe()), (T)10) << O::name();
  EXPECT_EQ(O::fetch_add(hc.pick(0), mine, (T)-25, next_pe()), (T)20) << O::name();
  EXPECT_EQ(O::fetch(hc.pick(1), mine, next_pe()), (T)((T)20 + (T)-25)) << O::name() << " negative add";
  shmem_barrier_all();
}

#define STD_TEST(NAME, TYPE) \
  TEST(AmoStdHost, NAME) { host_std<std_##NAME>(); }
GIO_AMO_STD_TYPES(STD_TEST)
#undef STD_TEST

// Each PE owns bits me, me + n, me + 2n, ... of one word on PE 0 and flips them through every
// routine; the fetched own bits and the final word show no update lost a neighbour's bit.
template <typename O>
void host_bit() {
  typedef typename O::T T;
  host_ctx hc;
  sym<T> word(1);
  shmem_barrier_all();
  const unsigned bits = 8 * sizeof(T);
  T* w = word.get();
  unsigned long long want = 0;
  for (unsigned b = 0; b < bits; ++b) {
    const int owner = (int)(b % npes());
    if (b / npes() % 2 == 1) want |= 1ull << b;  // every other bit of each PE stays set
    if (owner != me()) continue;
    const T m = (T)(1ull << b);
    const int k = (int)b;
    EXPECT_EQ(O::fetch_or(hc.pick(k), w, m, 0) & m, (T)0) << O::name() << " bit " << b;
    EXPECT_EQ(O::fetch_xor(hc.pick(k + 1), w, m, 0) & m, m) << O::name() << " bit " << b;
    EXPECT_EQ(O::fetch_xor(hc.pick(k + 2), w, m, 0) & m, (T)0) << O::name() << " bit " << b;
    EXPECT_EQ(O::fetch_and(hc.pick(k + 3), w, (T)~m, 0) & m, m) << O::name() << " bit " << b;
    O::or_(hc.pick(k), w, m, 0);
    O::xor_(hc.pick(k + 1), w, m, 0);
    O::or_(hc.pick(k + 2), w, m, 0);
    if (b / npes() % 2 == 0) O::and_(hc.pick(k + 3), w, (T)~m, 0);
  }
  shmem_barrier_all();
  EXPECT_EQ(O::fetch_or(hc.pick(0), w, (T)0, 0), (T)want) << O::name() << " final word";
  shmem_barrier_all();
}

#define BIT_TEST(NAME, TYPE) \
  TEST(AmoBitHost, NAME) { host_bit<bit_##NAME>(); }
GIO_AMO_BIT_TYPES(BIT_TEST)
#undef BIT_TEST

// ---- host and kernel atomics on the same counter -----------------------------------------------

__global__ void ticket_kernel(unsigned long long* ctr, unsigned long long* tickets, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    tickets[r * blockDim.x + threadIdx.x] = shmem_ulonglong_atomic_fetch_inc(ctr, 0);
    __syncthreads();
  }
}

// Even PEs take tickets from host code while odd PEs' kernels take them from PE 0's counter.
TEST(AmoMixed, HostAndKernelTicketsAreUnique) {
  const unsigned threads = 64, rounds = pes_share_gpu() ? 1 : 8, per_pe = threads * rounds;
  sym<unsigned long long> ctr(1);
  dbuf<unsigned long long> dev_tickets(per_pe);
  shmem_barrier_all();
  std::vector<unsigned long long> mine(per_pe);
  if (me() % 2) {
    hipLaunchKernelGGL(ticket_kernel, dim3(1), dim3(threads), 0, 0, ctr.get(), dev_tickets.get(), (int)rounds);
    ASSERT_TRUE(synced());
    mine = dev_tickets.read();
  } else {
    for (auto& t : mine) t = shmem_ulonglong_atomic_fetch_inc(ctr.get(), 0);
  }
  EXPECT_TRUE(is_permutation_of_range(all_pes(mine), 0));
  EXPECT_EQ(shmem_ulonglong_atomic_fetch(ctr.get(), 0), (unsigned long long)per_pe * npes());
  shmem_barrier_all();
}
