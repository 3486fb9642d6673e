// Atomics from kernels, for every type each routine is defined for: every thread of several
// work-groups on every PE hits the same few words at once, and the test checks what only a truly
// atomic operation can produce (unique tickets, one compare_swap winner, a swap chain that hands
// every value on exactly once, bits that each thread flips without disturbing its neighbours).
// A quarter of the threads use the ctx form on SHMEM_CTX_DEFAULT, another quarter on a context
// their work-group created. Host-initiated atomics are in test_amo_host.cpp.
#include "amo_ops.h"
#include "gio_test.h"

#include <algorithm>
#include <string>

using namespace giotest;

// hipcc (clang 15) inlines every device call and expands each of the library's error-report
// printf calls at every call site, so one atomic in a kernel costs it about 8 s per GPU target
// (measured: 55 s for the 6 call sites of one extended type on gfx90a; 2 s with the prints
// stubbed out). The hip build is a compile check here (no AMD GPU), so it instantiates a few
// types per family; the host and cuda builds instantiate every type.
#if defined(GIO_PLATFORM_HIP)
#define AMO_TEST_EXT_TYPES(X) X(int, int) X(double, double)
#define AMO_TEST_STD_TYPES(X) X(uint64, uint64_t)
#define AMO_TEST_BIT_TYPES(X) X(int32, int32_t)
#else
#define AMO_TEST_EXT_TYPES GIO_AMO_EXT_TYPES
#define AMO_TEST_STD_TYPES GIO_AMO_STD_TYPES
#define AMO_TEST_BIT_TYPES GIO_AMO_BIT_TYPES
#endif

namespace {
// The load. With a GPU per PE (and on the host platform) 8 work-groups of 64 threads per PE and 4
// rounds. Where PEs share a GPU (pes_share_gpu: every softnic or proxy atomic then waits for a time
// slice) one work-group of 32 threads (16 from 3 PEs on) and one round: the same races between
// work-groups of different PEs and between threads of one, about a fiftieth of the operations.
// There, too, only a 4-byte and an 8-byte type of each family run, and float and double for
// fetch/set/swap (the others are skipped): a type picks an operand width and a C type, and each
// family's types are one template, so these take every path the rest would (the host platform's
// subset runs, tests/func/CMakeLists.txt, choose the same).
struct amo_load {
  unsigned wgs, threads, rounds, bit_rounds;
  unsigned per_pe() const { return wgs * threads; }
};
const amo_load& load() {
  static const amo_load l = pes_share_gpu() ? amo_load{1, npes() <= 2 ? 32u : 16u, 1, 1} : amo_load{8, 64, 4, 4};
  return l;
}
// Whether `type` runs where PEs share a GPU (the comment on the load says which and why).
bool representative(const char* family, const char* type) {
  const std::string f = family, t = type;
  if (f == "ext") return t == "int" || t == "uint64" || t == "float" || t == "double";
  if (f == "std") return t == "int" || t == "uint64";
  return t == "int32" || t == "uint64";
}
#define AMO_SKIP_UNLESS_REPRESENTATIVE(FAMILY, NAME)                                                    \
  if (pes_share_gpu() && !representative(FAMILY, #NAME))                                               \
  GTEST_SKIP() << "PEs share a GPU: " #NAME " takes the paths of this family's representative types"

// fetch_inc per thread: bursts long enough for work-groups on different cores to overlap, with a
// barrier between rounds so the threads of one work-group interleave too.
// The kernels take these as arguments: with constant trip counts the compilers unroll the loops,
// copying the fully inlined atomic path dozens of times (hipcc then took most of an hour).
const unsigned kBurst = 8;
unsigned tickets() { return load().rounds * kBurst; }

// The work-group's context for the ctx forms; `failed` records that none could be created.
__device__ inline shmem_ctx_t wg_ctx_begin(int* failed) {
  shmem_ctx_t c;
  if (shmemx_wg_ctx_create(0, &c) != 0) {
    if (threadIdx.x == 0) *failed = 1;
    c = SHMEM_CTX_DEFAULT;
  }
  return c;
}
__device__ inline void wg_ctx_end(shmem_ctx_t c) {
  if (c != SHMEM_CTX_DEFAULT) shmemx_wg_ctx_destroy(c);
}
// Threads 4k: plain routine; 4k+1: ctx form on the default context; 4k+3: on the work-group's own.
__device__ inline via pick_via(shmem_ctx_t wg) {
  return via{(threadIdx.x & 1) != 0, (threadIdx.x & 2) ? wg : SHMEM_CTX_DEFAULT};
}
// This thread's number among all threads of all PEs.
__device__ inline unsigned global_id() {
  return shmem_my_pe() * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;
}

// Retry loops (a compare_swap counter; 8-byte swap, which gda builds from compare_swap) cost
// O(n^2) operations for n contenders, so only threads 0-3, 16-19, 32-35, 48-51 of each work-group of
// `threads` take part: every ctx choice of pick_via, a quarter of the threads. Returns the thread's
// rank among them (0, 1, ...), or -1.
__device__ __host__ inline int contender_rank(unsigned id, unsigned threads) {
  const unsigned t = id % threads;
  return (t / 4) % 4 ? -1 : (int)((id / threads) * (threads / 4) + (t / 16) * 4 + t % 4);
}

// Every PE's slices [base + p * per_pe, + per_pe) of a symmetric array, fetched with host getmem.
template <typename T>
std::vector<T> gather(const sym<T>& s, size_t base, size_t per_pe) {
  std::vector<T> all(per_pe * npes());
  for (int p = 0; p < npes(); ++p)
    shmem_getmem(all.data() + p * per_pe, s.get() + base + p * per_pe, per_pe * sizeof(T), p);
  return all;
}

}  // namespace

// ---- fetch / set / swap: every extended type ---------------------------------------------------

// got[rank]: what contender `rank`'s swap of rank + 1 into PE 0's word returned; got[N + id]: what
// thread id's set-then-fetch read back.
template <typename O>
__global__ void ext_kernel(typename O::T* word, typename O::T* slots, typename O::T* got, int* ctx_failed) {
  typedef typename O::T T;
  const shmem_ctx_t wg = wg_ctx_begin(ctx_failed);
  const via v = pick_via(wg);
  const unsigned id = global_id(), N = shmem_n_pes() * gridDim.x * blockDim.x;
  const int next = (shmem_my_pe() + 1) % shmem_n_pes();
  const int rank = contender_rank(id, blockDim.x);
  if (rank >= 0) got[rank] = O::swap(v, word, (T)(rank + 1), 0);
  O::set(v, slots + id, (T)(id * 3 + 1), next);
  got[N + id] = O::fetch(v, slots + id, next);
  wg_ctx_end(wg);
}

template <typename O>
void run_ext() {
  typedef typename O::T T;
  const unsigned per_pe = load().per_pe();
  const size_t N = per_pe * npes();
  sym<T> word(1), slots(N), got(2 * N);
  dbuf<int> ctx_failed(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(ext_kernel<O>, dim3(load().wgs), dim3(load().threads), 0, 0, word.get(), slots.get(), got.get(),
                     ctx_failed.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(ctx_failed.read()[0], 0) << "shmemx_wg_ctx_create failed";
  // Each swap returned the value some other swap left: together with the final value they are
  // the initial 0 and every contender's value, each exactly once.
  std::vector<T> chain = gather(got, 0, per_pe / 4);
  chain.push_back(O::fetch(via{false, SHMEM_CTX_DEFAULT}, word.get(), 0));
  EXPECT_TRUE(is_permutation_of_range(chain, 0)) << O::name() << " swap chain";
  // The previous PE's threads set our slots; each read back exactly what it set.
  std::vector<T> mine = slots.read(), fetched = got.read();
  const unsigned from = prev_pe() * per_pe, my = me() * per_pe;
  for (unsigned id = 0; id < N; ++id) {
    const bool prev_owns = id >= from && id < from + per_pe;
    EXPECT_EQ(mine[id], prev_owns ? (T)(id * 3 + 1) : (T)0) << O::name() << " slot " << id;
    if (id >= my && id < my + per_pe) EXPECT_EQ(fetched[N + id], (T)(id * 3 + 1)) << O::name() << " fetch " << id;
    if (::testing::Test::HasFailure()) break;
  }
  shmem_barrier_all();
}

#define EXT_TEST(NAME, TYPE)                     \
  TEST(AmoExtDevice, NAME) {                     \
    AMO_SKIP_UNLESS_REPRESENTATIVE("ext", NAME); \
    run_ext<ext_##NAME>();                       \
  }
AMO_TEST_EXT_TYPES(EXT_TEST)
#undef EXT_TEST

// ---- fetch_inc, fetch_add, inc, add, compare_swap: every standard type -------------------------

// ctr[0..4] on PE 0 (ctr[1]: on the next PE). What thread `id` got: got[N + id] from fetch_add,
// got[2N + id] from compare_swap, got[(4 + j)N + id] its j-th fetch_inc ticket; got[3N + rank]
// the count contender `rank`'s compare_swap loop installed.
template <typename O>
__global__ void std_kernel(typename O::T* ctr, typename O::T* got, int* ctx_failed, unsigned rounds, unsigned burst) {
  typedef typename O::T T;
  const shmem_ctx_t wg = wg_ctx_begin(ctx_failed);
  const via v = pick_via(wg);
  const unsigned id = global_id(), N = shmem_n_pes() * gridDim.x * blockDim.x;
  const int next = (shmem_my_pe() + 1) % shmem_n_pes();
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned j = r * burst; j < (r + 1) * burst; ++j) got[(4 + j) * N + id] = O::fetch_inc(v, ctr + 0, 0);
    __syncthreads();
  }
  got[N + id] = O::fetch_add(v, ctr + 1, (T)(id % 5 + 1), next);
  O::inc(v, ctr + 2, 0);
  O::add(v, ctr + 2, (T)3, 0);
  got[2 * N + id] = O::cswap(v, ctr + 3, (T)0, (T)(id + 1), 0);
  // compare_swap as a counter: retry with the value seen until this thread's increment lands.
  const int rank = contender_rank(id, blockDim.x);
  if (rank >= 0) {
    T expect = 0;
    for (T old; (old = O::cswap(v, ctr + 4, expect, (T)(expect + 1), 0)) != expect;) expect = old;
    got[3 * N + rank] = (T)(expect + 1);
  }
  wg_ctx_end(wg);
}

template <typename O>
void run_std() {
  typedef typename O::T T;
  const unsigned per_pe = load().per_pe();
  const size_t N = per_pe * npes();
  sym<T> ctr(5), got((4 + tickets()) * N);
  dbuf<int> ctx_failed(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(std_kernel<O>, dim3(load().wgs), dim3(load().threads), 0, 0, ctr.get(), got.get(), ctx_failed.get(),
                     load().rounds, kBurst);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(ctx_failed.read()[0], 0) << "shmemx_wg_ctx_create failed";
  const via plain{false, SHMEM_CTX_DEFAULT};
  std::vector<T> c(5);
  for (int k = 0; k < 5; ++k) c[k] = O::fetch(plain, ctr.get() + k, 0);
  c[1] = ctr.read()[1];
  EXPECT_EQ(c[0], (T)(tickets() * N)) << O::name() << " fetch_inc total";
  std::vector<T> all_tickets;
  for (unsigned j = 0; j < tickets(); ++j) {
    std::vector<T> g = gather(got, (4 + j) * N, per_pe);
    all_tickets.insert(all_tickets.end(), g.begin(), g.end());
  }
  EXPECT_TRUE(is_permutation_of_range(all_tickets, 0)) << O::name() << " fetch_inc tickets";
  EXPECT_EQ(c[2], (T)(4 * N)) << O::name() << " inc + add(3)";
  EXPECT_EQ(c[4], (T)(N / 4)) << O::name() << " compare_swap counter";
  EXPECT_TRUE(is_permutation_of_range(gather(got, 3 * N, per_pe / 4), 1)) << O::name() << " compare_swap counter";

  // fetch_add on our ctr[1] by the previous PE's threads: sorted by what they fetched, each add
  // starts exactly where the one before ended, and the last ends at the final value.
  std::vector<T> fa = gather(got, N, per_pe);
  std::vector<std::pair<long long, long long>> steps;
  for (unsigned id = prev_pe() * per_pe; id < (prev_pe() + 1) * per_pe; ++id)
    steps.push_back({(long long)fa[id], (long long)(id % 5 + 1)});
  EXPECT_TRUE(fetch_adds_chain(steps, (long long)c[1])) << O::name();

  // compare_swap(0 -> id + 1) from every thread: exactly one saw 0, all others saw its value.
  std::vector<T> cs = gather(got, 2 * N, per_pe);
  const size_t winners = std::count(cs.begin(), cs.end(), (T)0);
  EXPECT_EQ(winners, 1u) << O::name() << " compare_swap winners";
  EXPECT_NE(c[3], (T)0);
  for (size_t id = 0; id < N; ++id)
    if (cs[id] != (T)0 && cs[id] != c[3]) {
      ADD_FAILURE() << O::name() << " compare_swap loser " << id << " saw " << (long long)cs[id];
      break;
    }
  shmem_barrier_all();
}

#define STD_TEST(NAME, TYPE)                     \
  TEST(AmoStdDevice, NAME) {                     \
    AMO_SKIP_UNLESS_REPRESENTATIVE("std", NAME); \
    run_std<std_##NAME>();                       \
  }
AMO_TEST_STD_TYPES(STD_TEST)
#undef STD_TEST

// ---- and / or / xor (+ fetch forms): every bitwise type ----------------------------------------

// Eight threads share each word, spread over the PEs (thread id: word id % W, the k = id / W'th
// of its sharers) and over the word (bit k * bits / 8 + w % (bits / 8), so the sign bit is used
// too); word w lives on PE w % n. Eight, not a whole word's worth: gda builds the 8-byte forms
// from compare_swap retry loops, whose cost grows with the square of the contenders (4-byte ones
// are one masked NIC atomic each).
__device__ __host__ inline unsigned bit_of(unsigned id, unsigned nwords, unsigned bits) {
  return (id / nwords) * (bits / 8) + (id % nwords) % (bits / 8);
}

// Each thread flips its bit through every routine; what each fetch returns for its own bit shows
// no other thread's update clobbered it (code: one bit per fetch that saw it wrong). Ends with odd
// threads' bits set, even threads' clear.
template <typename O>
__global__ void bit_kernel(typename O::T* words, int* code, int* ctx_failed, unsigned rounds) {
  typedef typename O::T T;
  const shmem_ctx_t wg = wg_ctx_begin(ctx_failed);
  const via v = pick_via(wg);
  const unsigned id = global_id(), bits = 8 * sizeof(T);
  const unsigned nwords = shmem_n_pes() * gridDim.x * blockDim.x / 8, w = id % nwords;
  const int pe = w % shmem_n_pes();
  T* word = words + w;
  const T m = (T)(1ull << bit_of(id, nwords, bits));
  int seen = 0;
  for (unsigned r = 0; r < rounds; ++r) {  // each round ends where it started
    seen |= (O::fetch_or(v, word, m, pe) & m) ? 1 : 0;       // 0 -> 1
    seen |= (O::fetch_xor(v, word, m, pe) & m) ? 0 : 2;      // 1 -> 0
    seen |= (O::fetch_xor(v, word, m, pe) & m) ? 4 : 0;      // 0 -> 1
    seen |= (O::fetch_and(v, word, (T)~m, pe) & m) ? 0 : 8;  // 1 -> 0
    __syncthreads();
  }
  O::or_(v, word, m, pe);
  O::xor_(v, word, m, pe);
  O::or_(v, word, m, pe);
  if (id % 2 == 0) O::and_(v, word, (T)~m, pe);
  code[blockIdx.x * blockDim.x + threadIdx.x] = seen;
  wg_ctx_end(wg);
}

template <typename O>
void run_bit() {
  typedef typename O::T T;
  const unsigned per_pe = load().per_pe();
  const unsigned bits = 8 * sizeof(T), N = per_pe * npes(), nwords = N / 8;
  sym<T> words(nwords);
  dbuf<int> code(per_pe), ctx_failed(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(bit_kernel<O>, dim3(load().wgs), dim3(load().threads), 0, 0, words.get(), code.get(), ctx_failed.get(),
                     load().bit_rounds);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(ctx_failed.read()[0], 0) << "shmemx_wg_ctx_create failed";
  std::vector<int> c = code.read();
  for (unsigned t = 0; t < per_pe; ++t)
    if (c[t] != 0) {
      ADD_FAILURE() << O::name() << " thread " << me() * per_pe + t << ": own bit seen wrong, code " << c[t];
      break;
    }
  std::vector<unsigned long long> want(nwords, 0);
  for (unsigned id = 1; id < N; id += 2) want[id % nwords] |= 1ull << bit_of(id, nwords, bits);
  std::vector<T> got = words.read();
  for (unsigned w = 0; w < nwords; ++w)
    EXPECT_EQ(got[w], (int)(w % npes()) == me() ? (T)want[w] : (T)0) << O::name() << " word " << w;
  shmem_barrier_all();
}

#define BIT_TEST(NAME, TYPE)                     \
  TEST(AmoBitDevice, NAME) {                     \
    AMO_SKIP_UNLESS_REPRESENTATIVE("bit", NAME); \
    run_bit<bit_##NAME>();                       \
  }
AMO_TEST_BIT_TYPES(BIT_TEST)
#undef BIT_TEST
