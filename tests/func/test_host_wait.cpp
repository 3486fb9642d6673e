// Host waits (every form, every wait type) on symmetric memory that peers put into and that a
// running kernel of this PE sets; the C++ generic names (shmem_put, shmem_atomic_fetch_add,
// shmem_wait_until, ...) in host code and in kernels; the 1.3 atomic names and the 1.5 _vector
// waits in kernels.
#include <thread>

#include "gio_test.h"

using namespace giotest;

namespace {

// Every PE sets its element of every other PE's array to me + 1; each PE's host then waits and
// tests with every form, its own element excluded by status (or, for _vector, by its cmp_value).
template <typename T, typename Ops>
void host_waits_on_peers() {
  const int n = npes(), self = me();
  sym<T> flags(n);
  for (int p = 0; p < n; ++p)
    if (p != self) Ops::p(flags.get() + self, (T)(self + 1), p);
  std::vector<int> status(n, 0), none(n, 1);
  status[self] = 1;
  std::vector<T> want(n);
  for (int p = 0; p < n; ++p) want[p] = (T)(p + 1);
  T* f = flags.get();
  Ops::wait_until(f + prev_pe(), SHMEM_CMP_EQ, (T)(prev_pe() + 1));
  Ops::wait_all(f, n, status.data(), SHMEM_CMP_GT, (T)0);
  Ops::wait_all_vector(f, n, status.data(), SHMEM_CMP_EQ, want.data());
  EXPECT_EQ(Ops::test(f + prev_pe(), SHMEM_CMP_EQ, (T)(prev_pe() + 1)), 1);
  EXPECT_EQ(Ops::test(f + self, SHMEM_CMP_NE, (T)0), 0);
  EXPECT_EQ(Ops::test_all(f, n, status.data(), SHMEM_CMP_NE, (T)0), 1);
  EXPECT_EQ(Ops::test_all(f, n, nullptr, SHMEM_CMP_NE, (T)0), 0);  // own element is 0
  EXPECT_EQ(Ops::test_all_vector(f, n, status.data(), SHMEM_CMP_EQ, want.data()), 1);
  std::vector<size_t> idx(n);
  EXPECT_EQ(Ops::wait_some(f, n, idx.data(), status.data(), SHMEM_CMP_GE, (T)1), (size_t)n - 1);
  EXPECT_EQ(Ops::test_some(f, n, idx.data(), nullptr, SHMEM_CMP_GE, (T)1), (size_t)n - 1);
  for (size_t k = 0; k + 1 < (size_t)n; ++k) EXPECT_NE(idx[k], (size_t)self);
  EXPECT_EQ(Ops::wait_some_vector(f, n, idx.data(), status.data(), SHMEM_CMP_EQ, want.data()), (size_t)n - 1);
  EXPECT_EQ(Ops::test_some_vector(f, n, idx.data(), nullptr, SHMEM_CMP_EQ, want.data()), (size_t)n - 1);
  // _any serves every ready index in turn, though all stay ready (the device's rotation).
  std::vector<int> served(n, 0);
  for (int k = 0; k < n - 1; ++k) {
    const size_t i = (k % 2) ? Ops::wait_any(f, n, status.data(), SHMEM_CMP_NE, (T)0)
                             : Ops::wait_any_vector(f, n, status.data(), SHMEM_CMP_EQ, want.data());
    ASSERT_LT(i, (size_t)n);
    EXPECT_NE(i, (size_t)self);
    EXPECT_EQ(served[i]++, 0) << "index " << i << " served twice";
  }
  EXPECT_EQ(Ops::test_any(f, n, none.data(), SHMEM_CMP_NE, (T)0), SIZE_MAX);
  EXPECT_EQ(Ops::wait_any(f, n, none.data(), SHMEM_CMP_NE, (T)0), SIZE_MAX);  // nothing to wait for
  EXPECT_EQ(Ops::wait_some(f, n, idx.data(), none.data(), SHMEM_CMP_NE, (T)0), 0u);
  EXPECT_EQ(Ops::test_any_vector(f, n, status.data(), SHMEM_CMP_EQ, want.data()) == SIZE_MAX, false);
  shmem_barrier_all();
}

#define HOST_WAIT_OPS(NAME, TYPE)                                                                            \
  struct hw_##NAME {                                                                                         \
    typedef TYPE T;                                                                                          \
    static void p(T* d, T v, int pe) { shmem_##NAME##_p(d, v, pe); }                                        \
    static void wait_until(T* v, int c, T x) { shmem_##NAME##_wait_until(v, c, x); }                        \
    static int test(T* v, int c, T x) { return shmem_##NAME##_test(v, c, x); }                              \
    static void wait_all(T* v, size_t n, const int* s, int c, T x) { shmem_##NAME##_wait_until_all(v, n, s, c, x); } \
    static size_t wait_any(T* v, size_t n, const int* s, int c, T x) {                                       \
      return shmem_##NAME##_wait_until_any(v, n, s, c, x);                                                   \
    }                                                                                                        \
    static size_t wait_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {                           \
      return shmem_##NAME##_wait_until_some(v, n, i, s, c, x);                                               \
    }                                                                                                        \
    static int test_all(T* v, size_t n, const int* s, int c, T x) { return shmem_##NAME##_test_all(v, n, s, c, x); } \
    static size_t test_any(T* v, size_t n, const int* s, int c, T x) { return shmem_##NAME##_test_any(v, n, s, c, x); } \
    static size_t test_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {                           \
      return shmem_##NAME##_test_some(v, n, i, s, c, x);                                                     \
    }                                                                                                        \
    static void wait_all_vector(T* v, size_t n, const int* s, int c, T* x) {                                 \
      shmem_##NAME##_wait_until_all_vector(v, n, s, c, x);                                                   \
    }                                                                                                        \
    static size_t wait_any_vector(T* v, size_t n, const int* s, int c, T* x) {                               \
      return shmem_##NAME##_wait_until_any_vector(v, n, s, c, x);                                            \
    }                                                                                                        \
    static size_t wait_some_vector(T* v, size_t n, size_t* i, const int* s, int c, T* x) {                   \
      return shmem_##NAME##_wait_until_some_vector(v, n, i, s, c, x);                                        \
    }                                                                                                        \
    static int test_all_vector(T* v, size_t n, const int* s, int c, T* x) {                                  \
      return shmem_##NAME##_test_all_vector(v, n, s, c, x);                                                  \
    }                                                                                                        \
    static size_t test_any_vector(T* v, size_t n, const int* s, int c, T* x) {                               \
      return shmem_##NAME##_test_any_vector(v, n, s, c, x);                                                  \
    }                                                                                                        \
    static size_t test_some_vector(T* v, size_t n, size_t* i, const int* s, int c, T* x) {                   \
      return shmem_##NAME##_test_some_vector(v, n, i, s, c, x);                                              \
    }                                                                                                        \
  };
GIO_WAIT_TYPES(HOST_WAIT_OPS)
#undef HOST_WAIT_OPS

// The same, through the generic names.
template <typename TT>
struct hw_generic {
  typedef TT T;
  static void p(T* d, T v, int pe) { shmem_p(d, v, pe); }
  static void wait_until(T* v, int c, T x) { shmem_wait_until(v, c, x); }
  static int test(T* v, int c, T x) { return shmem_test(v, c, x); }
  static void wait_all(T* v, size_t n, const int* s, int c, T x) { shmem_wait_until_all(v, n, s, c, x); }
  static size_t wait_any(T* v, size_t n, const int* s, int c, T x) { return shmem_wait_until_any(v, n, s, c, x); }
  static size_t wait_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {
    return shmem_wait_until_some(v, n, i, s, c, x);
  }
  static int test_all(T* v, size_t n, const int* s, int c, T x) { return shmem_test_all(v, n, s, c, x); }
  static size_t test_any(T* v, size_t n, const int* s, int c, T x) { return shmem_test_any(v, n, s, c, x); }
  static size_t test_some(T* v, size_t n, size_t* i, const int* s, int c, T x) {
    return shmem_test_some(v, n, i, s, c, x);
  }
  static void wait_all_vector(T* v, size_t n, const int* s, int c, T* x) { shmem_wait_until_all_vector(v, n, s, c, x); }
  static size_t wait_any_vector(T* v, size_t n, const int* s, int c, T* x) {
    return shmem_wait_until_any_vector(v, n, s, c, x);
  }
  static size_t wait_some_vector(T* v, size_t n, size_t* i, const int* s, int c, T* x) {
    return shmem_wait_until_some_vector(v, n, i, s, c, x);
  }
  static int test_all_vector(T* v, size_t n, const int* s, int c, T* x) { return shmem_test_all_vector(v, n, s, c, x); }
  static size_t test_any_vector(T* v, size_t n, const int* s, int c, T* x) {
    return shmem_test_any_vector(v, n, s, c, x);
  }
  static size_t test_some_vector(T* v, size_t n, size_t* i, const int* s, int c, T* x) {
    return shmem_test_some_vector(v, n, i, s, c, x);
  }
};

// A kernel that runs until the host acknowledges: it waits for `go`, sets `done` (a signal) and
// `value`, and waits for `ack`. The host waits for `done` and `value` while it runs.
__global__ void set_while_running(uint64_t* go, uint64_t* done, int* value, uint64_t* ack) {
  const int self = shmem_my_pe();
  shmem_signal_wait_until(go, SHMEM_CMP_EQ, 1);
  // An atomic: the host waits on `value` itself too (a plain put there is a data race to TSan, which
  // does not see the release fence the signal after it carries on GPUs).
  shmem_int_atomic_set(value, 42, self);
  shmem_quiet();
  shmem_signal_set(done, 1, self);
  shmem_uint64_wait_until(ack, SHMEM_CMP_EQ, 1);
}

// Generic names, 1.3 atomics and _vector waits in a kernel (one thread per PE).
__global__ void generic_in_kernel(long* ctr, int* ring, long* flags, long* want, int* fails) {
  const int self = shmem_my_pe(), n = shmem_n_pes(), next = (self + 1) % n;
  int f = 0;
  shmem_p(ring, self + 100, next);                       // generic p
  int v[2] = {self, self + 1};
  shmem_put(ring + 1, v, 2, next);                       // generic put
  shmem_quiet();
  shmem_atomic_fetch_add(ctr, 1L, 0);                    // generic AMO
  shmem_long_fadd(ctr, 2L, 0);                           // 1.3 names
  shmem_long_inc(ctr, 0);
  (void)shmem_int_finc(ring + 3, self);
  f |= shmem_int_cswap(ring + 4, 0, 9, self) != 0;
  f |= shmem_int_swap(ring + 4, 3, self) != 9;
  f |= shmem_int_fetch(ring + 4, self) != 3;
  shmem_int_set(ring + 4, 5, self);
  shmem_int_add(ring + 4, 1, self);
  for (int p = 0; p < n; ++p)
    if (p != self) shmem_atomic_set(flags + self, (long)self + 1, p);
  // want[self] = 0 = flags[self]: every element matches its own cmp_value, so no status is needed.
  shmem_long_wait_until_all_vector(flags, n, nullptr, SHMEM_CMP_EQ, want);
  size_t idx[8];
  f |= shmem_long_wait_until_some_vector(flags, n, idx, nullptr, SHMEM_CMP_EQ, want) != (size_t)n;
  f |= shmem_wait_until_any_vector(flags, n, nullptr, SHMEM_CMP_EQ, want) >= (size_t)n;  // generic
  f |= shmem_long_test_all_vector(flags, n, nullptr, SHMEM_CMP_EQ, want) != 1;
  f |= shmem_test_some_vector(flags, n, idx, nullptr, SHMEM_CMP_NE, want) != 0;
  f |= shmem_long_test_any_vector(flags, n, nullptr, SHMEM_CMP_NE, want) != SIZE_MAX;
  shmem_wait_until(ring, SHMEM_CMP_EQ, (self + n - 1) % n + 100);  // generic wait
  *fails = f;
}

}  // namespace

#define HOST_WAIT_TEST(NAME, TYPE) \
  TEST(HostWait, NAME##_AllForms) { host_waits_on_peers<TYPE, hw_##NAME>(); }
GIO_WAIT_TYPES(HOST_WAIT_TEST)
#undef HOST_WAIT_TEST
TEST(HostWait, GenericNames) {
  host_waits_on_peers<int, hw_generic<int>>();
  host_waits_on_peers<unsigned long long, hw_generic<unsigned long long>>();
  host_waits_on_peers<short, hw_generic<short>>();
}

TEST(HostWait, FlagSetByRunningKernel) {
  sym<uint64_t> go(1), done(1), ack(1);
  sym<int> value(1);
  // A new host thread starts on device 0 (cuda, hip): it must take this PE's GPU, where shmem_init
  // filled the kernels' state. Without it, every PE but the one on GPU 0 launched onto another GPU
  // (4xH200: "shmem_my_pe called in a kernel before shmem_init", then a launch failure).
  int dev = 0;
  ASSERT_EQ(hipGetDevice(&dev), hipSuccess);
  std::thread launcher([&] {
    EXPECT_EQ(hipSetDevice(dev), hipSuccess);
    hipLaunchKernelGGL(set_while_running, dim3(1), dim3(1), 0, 0, go.get(), done.get(), value.get(), ack.get());
    EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  });
  // go and ack are words the kernel waits on while the host writes them: signal and atomic updates,
  // as the spec asks of a waited-on object (a plain put there is a data race; TSan says so).
  shmem_signal_set(go.get(), 1, me());
  EXPECT_EQ(shmem_signal_wait_until(done.get(), SHMEM_CMP_EQ, 1), 1u);  // the kernel is still running
  shmem_int_wait_until(value.get(), SHMEM_CMP_EQ, 42);
  EXPECT_EQ(shmem_int_test(value.get(), SHMEM_CMP_EQ, 42), 1);
  shmem_uint64_atomic_set(ack.get(), 1, me());
  launcher.join();
  shmem_barrier_all();
}

TEST(GenericNames, HostRmaAndAtomics) {
  const int n = npes(), self = me();
  sym<double> d(4);
  sym<long> ctr(1);
  sym<unsigned int> bits(1);
  sym<uint64_t> sig(1);
  sym<float> fl(1);
  double src[4] = {self + 0.5, self + 1.5, self + 2.5, self + 3.5}, got[4];
  shmem_put(d.get(), src, 4, next_pe());
  shmem_put_nbi(shmem_ctx_t(SHMEM_CTX_DEFAULT), d.get() + 3, src, 1, next_pe());
  shmem_quiet();
  shmem_barrier_all();
  shmem_get(got, d.get(), 4, self);
  EXPECT_EQ(got[0], prev_pe() + 0.5);
  EXPECT_EQ(got[3], prev_pe() + 0.5);
  EXPECT_EQ(shmem_g(d.get() + 1, self), prev_pe() + 1.5);
  shmem_atomic_add(ctr.get(), 2L, 0);
  (void)shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, ctr.get(), 0);
  shmem_atomic_or(bits.get(), 1u << self, 0);
  shmem_atomic_set(fl.get(), 1.5f, self);
  EXPECT_EQ(shmem_atomic_swap(fl.get(), 2.5f, self), 1.5f);
  shmem_put_signal(d.get(), src, 1, sig.get(), 1, SHMEM_SIGNAL_ADD, next_pe());
  shmem_wait_until(sig.get(), SHMEM_CMP_EQ, 1);
  shmem_barrier_all();
  EXPECT_EQ(shmem_atomic_fetch(ctr.get(), 0), 3L * n);
  EXPECT_EQ(shmem_atomic_fetch(bits.get(), 0), (1u << n) - 1);
  shmem_barrier_all();
  if (self == 0) EXPECT_EQ(shmem_atomic_compare_swap(ctr.get(), 3L * n, 0L, 0), 3L * n);
  shmem_barrier_all();
  EXPECT_EQ(shmem_atomic_fetch(ctr.get(), 0), 0L);
  shmem_barrier_all();
  (void)shmem_long_fadd(ctr.get(), 1L, 0);  // 1.3 name on the host
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_fetch(ctr.get(), 0), (long)n);
  shmem_barrier_all();
}

TEST(GenericNames, InKernelsWithOldAmosAndVectorWaits) {
  const int n = npes();
  sym<long> ctr(1), flags(n);
  sym<int> ring(8);
  dbuf<long> want(n);
  dbuf<int> fails(1);
  std::vector<long> w(n);
  for (int p = 0; p < n; ++p) w[p] = p == me() ? 0 : p + 1;
  want.write(w);
  shmem_barrier_all();
  hipLaunchKernelGGL(generic_in_kernel, dim3(1), dim3(1), 0, 0, ctr.get(), ring.get(), flags.get(), want.get(),
                     fails.get());
  HIP_OK(hipDeviceSynchronize());
  EXPECT_EQ(fails.read()[0], 0);
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(ctr.get(), 0), 4L * n);
  int r[5];
  shmem_int_get(r, ring.get(), 5, me());
  EXPECT_EQ(r[0], prev_pe() + 100);
  EXPECT_EQ(r[1], prev_pe());
  EXPECT_EQ(r[2], prev_pe() + 1);
  EXPECT_EQ(r[3], 1);
  EXPECT_EQ(r[4], 6);
  shmem_barrier_all();
}
