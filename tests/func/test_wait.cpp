// Point-to-point synchronization, for every wait type: shmem_TYPE_wait_until(_all/_any/_some) and
// shmem_TYPE_test(_all/_any/_some) with status masks, driven by other PEs' kernels. PE 0 watches an
// array of variables; the other PEs own its elements and set them with shmem_TYPE_p, first one at
// a time on PE 0's request (so the answer of _any/_some is known exactly), then all at once.
#include "gio_test.h"

using namespace giotest;

namespace {
// Values: phase 1 elements start at 9 and become 5; phase 2 elements start at 1 and become 8.
// Excluded elements hold a value that satisfies the comparison in phase 1 (so _any/_some that
// looked at them would answer wrongly) and one that does not in phase 2 (so _all would hang).
const int kPerOwner = 3;

// One struct per wait type name, so each routine is called by its own name.
#define WAIT_OPS(NAME, TYPE)                                                                                  \
  struct wait_##NAME {                                                                                        \
    typedef TYPE T;                                                                                           \
    static __device__ void p(T* d, T v, int pe) { shmem_##NAME##_p(d, v, pe); }                               \
    static __device__ void wait_until(T* v, int c, T x) { shmem_##NAME##_wait_until(v, c, x); }              \
    static __device__ void wait_all(T* v, size_t n, const int* s, int c, T x) {                               \
      shmem_##NAME##_wait_until_all(v, n, s, c, x);                                                           \
    }                                                                                                         \
    static __device__ size_t wait_any(T* v, size_t n, const int* s, int c, T x) {                             \
      return shmem_##NAME##_wait_until_any(v, n, s, c, x);                                                    \
    }                                                                                                         \
    static __device__ size_t wait_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {                 \
      return shmem_##NAME##_wait_until_some(v, n, i, s, c, x);                                                \
    }                                                                                                         \
    static __device__ int test(T* v, int c, T x) { return shmem_##NAME##_test(v, c, x); }                     \
    static __device__ int test_all(T* v, size_t n, const int* s, int c, T x) {                                \
      return shmem_##NAME##_test_all(v, n, s, c, x);                                                          \
    }                                                                                                         \
    static __device__ size_t test_any(T* v, size_t n, const int* s, int c, T x) {                             \
      return shmem_##NAME##_test_any(v, n, s, c, x);                                                          \
    }                                                                                                         \
    static __device__ size_t test_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {                 \
      return shmem_##NAME##_test_some(v, n, i, s, c, x);                                                      \
    }                                                                                                         \
  };
GIO_WAIT_TYPES(WAIT_OPS)
#undef WAIT_OPS

struct wait_bufs {
  int* go;        // symmetric: PE 0's requests to an owner (round + 1), then kAll for phase 2
  int* seen;      // local, n elements: PE 0's status mask, growing as elements arrive
  const int* excl;  // local, n elements: only the excluded elements masked
  const int* all_excl;  // local, n elements: every element masked
  size_t* idx;    // local, n elements
  int* fails;     // local: one entry per check, nonzero when it failed
};
const int kAll = 1 << 20;

// PE 0 asks for element r, then _any (even rounds) or _some (odd rounds) must report exactly r,
// under a comparison that rotates through ==, !=, <, <=.
template <typename O>
__global__ void wait_watcher(typename O::T* iv, typename O::T* jv, size_t n, wait_bufs b) {
  typedef typename O::T T;
  const int owners = shmem_n_pes() - 1;
  const int cmp[4] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_LT, SHMEM_CMP_LE};
  const T val[4] = {(T)5, (T)9, (T)7, (T)5};
  const size_t live = n - 2;  // the last two are excluded
  int* f = b.fails;
  for (size_t r = 0; r < live; ++r) {
    const int c = cmp[r % 4];
    const T x = val[r % 4];
    shmem_int_p(b.go, (int)r + 1, 1 + (int)(r % owners));
    if (r % 2 == 0) {
      f[4 * r] = O::wait_any(iv, n, b.seen, c, x) != r;
    } else {
      const size_t k = O::wait_some(iv, n, b.idx, b.seen, c, x);
      f[4 * r] = k != 1 || b.idx[0] != r;
    }
    const size_t k = O::test_some(iv, n, b.idx, b.seen, c, x);
    f[4 * r + 1] = O::test(iv + r, c, x) != 1 || O::test_any(iv, n, b.seen, c, x) != r || k != 1 || b.idx[0] != r;
    f[4 * r + 2] = O::test_all(iv, n, b.excl, c, x) != (r + 1 == live ? 1 : 0);
    b.seen[r] = 1;
    f[4 * r + 3] = O::test_any(iv, n, b.seen, c, x) != SIZE_MAX || O::test_some(iv, n, b.idx, b.seen, c, x) != 0;
  }
  f += 4 * live;
  // Everything masked: _any/_some return at once with nothing; _all is true.
  f[0] = O::wait_any(iv, n, b.all_excl, SHMEM_CMP_EQ, (T)123) != SIZE_MAX ||
         O::wait_some(iv, n, b.idx, b.all_excl, SHMEM_CMP_EQ, (T)123) != 0 ||
         O::test_all(iv, n, b.all_excl, SHMEM_CMP_EQ, (T)123) != 1;
  // Phase 2: every owner sets all its elements of jv at once.
  for (int p = 1; p <= owners; ++p) shmem_int_p(b.go, kAll, p);
  O::wait_all(jv, n, b.excl, SHMEM_CMP_GE, (T)8);
  O::wait_until(jv + live - 1, SHMEM_CMP_GT, (T)7);
  f[1] = O::test_all(jv, n, b.excl, SHMEM_CMP_GT, (T)7) != 1 || O::test_all(jv, n, nullptr, SHMEM_CMP_GT, (T)7) != 0;
  // Unmasked, both trailing elements (still 1) qualify; _any may answer either.
  const size_t any = O::test_any(jv, n, nullptr, SHMEM_CMP_LT, (T)8);
  f[2] = (any != live && any != live + 1) || O::test(jv + live, SHMEM_CMP_EQ, (T)1) != 1;
}

template <typename O>
__global__ void wait_owner(typename O::T* iv, typename O::T* jv, size_t n, int* go) {
  typedef typename O::T T;
  const int me = shmem_my_pe(), owners = shmem_n_pes() - 1;
  const size_t live = n - 2;
  for (size_t r = me - 1; r < live; r += owners) {
    shmem_int_wait_until(go, SHMEM_CMP_GE, (int)r + 1);
    O::p(iv + r, (T)5, 0);
    shmem_quiet();
  }
  shmem_int_wait_until(go, SHMEM_CMP_EQ, kAll);
  for (size_t r = me - 1; r < live; r += owners) O::p(jv + r, (T)8, 0);
  shmem_quiet();
}
}  // namespace

template <typename O>
void run_wait() {
  typedef typename O::T T;
  if (npes() < 2) GTEST_SKIP() << "needs an owner PE besides PE 0";
  const size_t n = kPerOwner * (npes() - 1) + 2, live = n - 2;
  sym<T> iv(n), jv(n);
  sym<int> go(1);
  std::vector<T> i0(n, (T)9), j0(n, (T)1);
  i0[live] = i0[live + 1] = (T)5;
  iv.write(i0);
  jv.write(j0);
  std::vector<int> excl(n, 0), all(n, 1);
  excl[live] = excl[live + 1] = 1;
  dbuf<int> seen(n), ex(n), al(n), fails(4 * live + 3);
  dbuf<size_t> idx(n);
  seen.write(excl);
  ex.write(excl);
  al.write(all);
  shmem_barrier_all();
  if (me() == 0) {
    wait_bufs b{go.get(), seen.get(), ex.get(), al.get(), idx.get(), fails.get()};
    hipLaunchKernelGGL(wait_watcher<O>, dim3(1), dim3(1), 0, 0, iv.get(), jv.get(), n, b);
  } else {
    hipLaunchKernelGGL(wait_owner<O>, dim3(1), dim3(1), 0, 0, iv.get(), jv.get(), n, go.get());
  }
  ASSERT_TRUE(synced());
  if (me() == 0) {
    std::vector<int> f = fails.read();
    const char* what[4] = {"wait_until_any/_some answer", "test/_any/_some answer", "test_all", "masked element"};
    for (size_t k = 0; k < 4 * live; ++k) EXPECT_EQ(f[k], 0) << what[k % 4] << " in round " << k / 4;
    EXPECT_EQ(f[4 * live], 0) << "all elements masked";
    EXPECT_EQ(f[4 * live + 1], 0) << "test_all after wait_until_all";
    EXPECT_EQ(f[4 * live + 2], 0) << "test_any / test after wait_until_all";
  }
  shmem_barrier_all();
}

#define WAIT_TEST(NAME, TYPE) \
  TEST(WaitTest, NAME) { run_wait<wait_##NAME>(); }
GIO_WAIT_TYPES(WAIT_TEST)
#undef WAIT_TEST

// Fairness of _any: a caller that loops until every index has been handed to it once, over flags
// that all stay ready and with no status mask (as the spec's shmem_test_any example does), must get
// there. A scan that always starts at index 0 answers 0 forever. Each routine gets kFairRounds
// calls for n flags; a rotating start needs exactly n.
namespace {
const size_t kFairN = 37;
const int kFairRounds = 4 * (int)kFairN;

__global__ void any_fairness(int* flags, size_t n, int* seen_test, int* seen_wait, int* calls) {
  size_t left = n;
  int k = 0;
  for (; left && k < kFairRounds; ++k) {
    const size_t i = shmem_int_test_any(flags, n, nullptr, SHMEM_CMP_EQ, 1);
    if (i < n && !seen_test[i]++) --left;
  }
  calls[0] = k;
  left = n;
  for (k = 0; left && k < kFairRounds; ++k) {
    const size_t i = shmem_int_wait_until_any(flags, n, nullptr, SHMEM_CMP_EQ, 1);
    if (i < n && !seen_wait[i]++) --left;
  }
  calls[1] = k;
}
}  // namespace

TEST(WaitTest, AnyServesEveryReadyIndex) {
  sym<int> flags(kFairN);
  flags.write(std::vector<int>(kFairN, 1));
  dbuf<int> seen_test(kFairN), seen_wait(kFairN), calls(2);
  hipLaunchKernelGGL(any_fairness, dim3(1), dim3(1), 0, 0, flags.get(), kFairN, seen_test.get(), seen_wait.get(),
                     calls.get());
  ASSERT_TRUE(synced());
  const std::vector<int> c = calls.read(), st = seen_test.read(), sw = seen_wait.read();
  EXPECT_LT(c[0], kFairRounds) << "shmem_int_test_any never handed out some ready indices";
  EXPECT_LT(c[1], kFairRounds) << "shmem_int_wait_until_any never handed out some ready indices";
  for (size_t i = 0; i < kFairN; ++i) {
    EXPECT_GT(st[i], 0) << "test_any never returned index " << i;
    EXPECT_GT(sw[i], 0) << "wait_until_any never returned index " << i;
  }
  shmem_barrier_all();
}
