// The routines and constants OpenSHMEM 1.6 adds to 1.5, host code and kernels: the team scans
// (shmem_TYPE_sum_inscan / _exscan, every type of the sum reduction, on the world team, a strided
// split and SHMEM_TEAM_SHARED, in place and not, sizes past a team's scratch piece; in kernels at
// thread, wave and work-group scope), shmem_pe_quiet and shmem_ctx_pe_quiet (what they complete is
// visible to the target after a shmem_sync_all, which completes nothing itself), communication
// sessions, shmem_query_initialized with nested shmem_init / shmem_finalize, the version, and the
// deprecated _SHMEM_CMP_* names. Bad arguments: tests/func/faults/fault_openshmem16.cpp.
// The scans of a type (host) or of a case (kernels) run between one pair of barriers, each call
// with buffers of its own.
#include <complex>
#include <cstring>
#include <type_traits>

#include <mpp/shmem.h>  // the deprecated header directory the spec still requires

#include "gio_test.h"

using namespace giotest;

namespace {

// Element k of PE pe's source: small integers, exact in every type (a sum of 4 PEs fits a char).
template <typename T>
T src_value(int pe, size_t k) {
  const int v = (int)((pe * 7 + k * 3) % 23) + 1;
  if constexpr (std::is_same<T, std::complex<double>>::value || std::is_same<T, std::complex<float>>::value)
    return T((typename T::value_type)v, (typename T::value_type)(v % 5));
  else
    return (T)v;
}

// Member `me`'s expected result: the sum of members 0..me (inclusive) or 0..me-1 of `team`.
template <typename T>
std::vector<T> expected_scan(shmem_team_t team, size_t n, bool inclusive) {
  const int me_t = shmem_team_my_pe(team);
  std::vector<T> e(n, T{});
  const int last = inclusive ? me_t : me_t - 1;
  for (int i = 0; i <= last; ++i) {
    const int world = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
    for (size_t k = 0; k < n; ++k) e[k] = (T)(e[k] + src_value<T>(world, k));
  }
  return e;
}

template <typename T>
bool equal(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0 || a == b;
}

// Runs T's host inscan and exscan, out of place and in place, on each (team, n) of `cases`, each
// call with a source and dest of its own, between one pair of barriers (every source written before
// any member reads one; none freed while a member may still read it): two barriers per call cost
// most of the time where PEs share a GPU, each waiting for the other PEs' time slices.
template <typename T, typename In, typename Ex>
void host_scans(const char* name, const std::vector<std::pair<shmem_team_t, size_t>>& cases, In inscan, Ex exscan) {
  std::vector<size_t> at;
  size_t total = 0;
  for (const auto& c : cases)
    for (int v = 0; v < 4; ++v) at.push_back(total), total += c.second ? c.second : 1;
  sym<T> src(total), dst(total);
  std::vector<T> init(total, (T)99);
  for (size_t j = 0; j < cases.size(); ++j)
    for (int v = 0; v < 4; ++v)
      for (size_t k = 0; k < cases[j].second; ++k) init[at[4 * j + v] + k] = src_value<T>(me(), k);
  src.write(init);
  dst.write(std::vector<T>(total, (T)99));
  shmem_barrier_all();
  for (size_t j = 0; j < cases.size(); ++j) {
    const shmem_team_t team = cases[j].first;
    if (team == SHMEM_TEAM_INVALID) continue;
    for (int v = 0; v < 4; ++v) {
      const bool inclusive = v / 2, in_place = v % 2;
      T* s = src.get() + at[4 * j + v];
      T* out = in_place ? s : dst.get() + at[4 * j + v];
      const size_t n = cases[j].second;
      EXPECT_EQ(inclusive ? inscan(team, out, s, n) : exscan(team, out, s, n), 0);
    }
  }
  const std::vector<T> got_src = src.read(), got_dst = dst.read();
  for (size_t j = 0; j < cases.size(); ++j) {
    const shmem_team_t team = cases[j].first;
    if (team == SHMEM_TEAM_INVALID) continue;
    const size_t n = cases[j].second;
    for (int v = 0; v < 4; ++v) {
      const bool inclusive = v / 2, in_place = v % 2;
      const T* got = (in_place ? got_src : got_dst).data() + at[4 * j + v];
      const std::vector<T> e = expected_scan<T>(team, n, inclusive);
      for (size_t k = 0; k < n; ++k)
        if (!equal(got[k], e[k])) {
          ADD_FAILURE() << name << (inclusive ? "_sum_inscan" : "_sum_exscan") << " n=" << n
                        << (in_place ? " in place" : "") << ": element " << k << " wrong on PE " << me();
          break;
        }
    }
  }
  shmem_barrier_all();
}

// The split team of every other PE from 0 (PEs 1, 3, ... are not in it).
shmem_team_t evens() {
  shmem_team_t t = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes() + 1) / 2, nullptr, 0, &t), 0);
  return t;
}

}  // namespace

TEST(OpenShmem16, VersionAndDeprecatedConstants) {
  int major = 0, minor = 0;
  shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 6);
  EXPECT_EQ(SHMEM_MAJOR_VERSION, 1);
  EXPECT_EQ(SHMEM_MINOR_VERSION, 6);
  EXPECT_EQ(_SHMEM_MAJOR_VERSION, 1);
  EXPECT_EQ(_SHMEM_MINOR_VERSION, 6);
  EXPECT_NE(std::string(SHMEM_VENDOR_STRING).find("1.6"), std::string::npos);
  EXPECT_EQ(_SHMEM_CMP_EQ, SHMEM_CMP_EQ);
  EXPECT_EQ(_SHMEM_CMP_NE, SHMEM_CMP_NE);
  EXPECT_EQ(_SHMEM_CMP_GT, SHMEM_CMP_GT);
  EXPECT_EQ(_SHMEM_CMP_GE, SHMEM_CMP_GE);
  EXPECT_EQ(_SHMEM_CMP_LT, SHMEM_CMP_LT);
  EXPECT_EQ(_SHMEM_CMP_LE, SHMEM_CMP_LE);
  // The old names work where the new ones do: a wait that each PE's left neighbour releases.
  sym<int> flag(1);
  shmem_barrier_all();
  shmem_int_p(flag.get(), 5, next_pe());
  shmem_int_wait_until(flag.get(), _SHMEM_CMP_GE, 5);
  EXPECT_EQ(shmem_int_test(flag.get(), _SHMEM_CMP_EQ, 5), 1);
  EXPECT_EQ(shmem_int_test(flag.get(), _SHMEM_CMP_LT, 5), 0);
  shmem_barrier_all();
}

TEST(OpenShmem16, DeprecatedGenericAtomicNames) {
  sym<long> ctr(1);
  shmem_barrier_all();
  shmem_add(ctr.get(), 2L, 0);
  shmem_inc(ctr.get(), 0);
  (void)shmem_fadd(ctr.get(), 1L, 0);
  (void)shmem_finc(ctr.get(), 0);
  shmem_barrier_all();
  EXPECT_EQ(shmem_fetch(ctr.get(), 0), 5L * npes());
  shmem_barrier_all();
  if (me() == 0) {
    shmem_set(ctr.get(), 7L, 0);
    EXPECT_EQ(shmem_swap(ctr.get(), 8L, 0), 7);
    EXPECT_EQ(shmem_cswap(ctr.get(), 8L, 9L, 0), 8);
    EXPECT_EQ(shmem_fetch(ctr.get(), 0), 9);
  }
  shmem_barrier_all();
}

TEST(OpenShmem16, QueryInitializedAndNestedInit) {
  int init = -1;
  shmem_query_initialized(&init);
  EXPECT_EQ(init, 1);
  // A second initialization only counts; its shmem_finalize is a barrier, not the end.
  shmem_init();
  int provided = -1;
  EXPECT_EQ(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided), 0);
  int first = -1;
  shmem_query_thread(&first);
  EXPECT_EQ(provided, first);  // the level of the first initialization
  sym<long> box(1);
  shmem_barrier_all();
  long v = 1000 + me();
  shmem_long_put(box.get(), &v, 1, next_pe());
  shmem_finalize();  // as shmem_barrier_all: the put above is complete everywhere after it
  EXPECT_EQ(box.read()[0], 1000 + prev_pe());
  shmem_query_initialized(&init);
  EXPECT_EQ(init, 1);
  shmem_finalize();
  shmem_query_initialized(&init);
  EXPECT_EQ(init, 1);  // the test main's initialization is still open
  EXPECT_EQ(shmem_my_pe(), me());
  shmem_barrier_all();
}

TEST(OpenShmem16, PeQuietCompletesPutsToThosePes) {
  const size_t n = 1 << 16;
  sym<uint8_t> dst(n);
  std::vector<uint8_t> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = pattern(me(), i);
  shmem_barrier_all();
  shmem_putmem_nbi(dst.get(), src.data(), n, next_pe());
  const int pes[2] = {next_pe(), me()};
  shmem_pe_quiet(pes, 2);
  shmem_pe_quiet(pes, 0);        // nothing to do
  shmem_pe_quiet(nullptr, 0);    // nothing named, nothing read
  shmem_sync_all();              // completes nothing itself
  const std::vector<uint8_t> got = dst.read();
  for (size_t i = 0; i < n; ++i)
    if (got[i] != pattern(prev_pe(), i)) {
      ADD_FAILURE() << "byte " << i << " from PE " << prev_pe() << " missing after shmem_pe_quiet";
      break;
    }
  shmem_barrier_all();
}

TEST(OpenShmem16, CtxPeQuietOnCreatedAndTeamContexts) {
  sym<long> box(2);
  shmem_barrier_all();
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
  long v = 7 + me();
  shmem_ctx_long_put_nbi(ctx, box.get(), &v, 1, next_pe());
  const int pe = next_pe();
  shmem_ctx_pe_quiet(ctx, &pe, 1);
  shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, &pe, 1);  // no effect, as for every routine on it
  shmem_sync_all();
  EXPECT_EQ(box.read()[0], 7 + prev_pe());
  shmem_ctx_destroy(ctx);
  // A team context numbers PEs in its team: on the even PEs' team, member 1 is world PE 2.
  shmem_team_t t = evens();
  if (t != SHMEM_TEAM_INVALID) {
    shmem_ctx_t tctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(t, 0, &tctx), 0);
    const int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    const int tnext = (tme + 1) % tn;
    long w = 100 + me();
    shmem_ctx_long_put_nbi(tctx, box.get() + 1, &w, 1, tnext);
    shmem_ctx_pe_quiet(tctx, &tnext, 1);
    shmem_team_sync(t);
    const int from = shmem_team_translate_pe(t, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    EXPECT_EQ(box.read()[1], 100 + from);
    shmem_ctx_destroy(tctx);
    shmem_team_destroy(t);
  }
  shmem_barrier_all();
}

TEST(OpenShmem16, SessionsAreHintsThatChangeNothing) {
  sym<int> box(64);
  shmem_barrier_all();
  shmem_ctx_session_config_t cfg;
  cfg.total_ops = 64;
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, 0, nullptr, 0);  // a second start combines options
  for (int i = 0; i < 64; ++i) shmem_int_p(box.get() + i, me() * 100 + i, next_pe());
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);  // stopping a stopped session has no effect
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
  shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH | (1L << 20), &cfg, 0);  // any options are valid
  shmem_ctx_session_stop(ctx);
  shmem_ctx_destroy(ctx);
  shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, nullptr, 0);  // no action
  shmem_ctx_session_stop(SHMEM_CTX_INVALID);
  shmem_barrier_all();
  const std::vector<int> got = box.read();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], prev_pe() * 100 + i);
  shmem_barrier_all();
}

TEST(OpenShmem16, CtxSignalSetAndAdd) {
  sym<uint64_t> sig(2);
  shmem_barrier_all();
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
  shmem_ctx_signal_set(ctx, sig.get(), 40 + (uint64_t)me(), next_pe());
  shmem_ctx_signal_add(ctx, sig.get() + 1, 3, next_pe());
  shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, sig.get() + 1, 4, next_pe());
  shmem_ctx_quiet(ctx);
  EXPECT_EQ(shmem_signal_wait_until(sig.get() + 1, SHMEM_CMP_EQ, 7), 7u);
  EXPECT_EQ(shmem_signal_wait_until(sig.get(), SHMEM_CMP_EQ, 40 + (uint64_t)prev_pe()), 40u + prev_pe());
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}

// Every type of the sum reduction, host code, on the world team at sizes 0, 1, 7 and 1000 (past
// a kernel's 2 KiB scratch piece; the host moves whole sources), on the even PEs' team and on
// SHMEM_TEAM_SHARED.
#define SCAN_TYPE_TEST(OP, NAME, T)                                                                           \
  TEST(OpenShmem16Scan, NAME) {                                                                               \
    auto in = [](shmem_team_t tm, T* d, const T* s, size_t n) { return shmem_##NAME##_sum_inscan(tm, d, s, n); }; \
    auto ex = [](shmem_team_t tm, T* d, const T* s, size_t n) { return shmem_##NAME##_sum_exscan(tm, d, s, n); }; \
    shmem_team_t t = evens();                                                                                 \
    host_scans<T>(#NAME,                                                                                      \
                  {{SHMEM_TEAM_WORLD, 0}, {SHMEM_TEAM_WORLD, 1}, {SHMEM_TEAM_WORLD, 7}, {SHMEM_TEAM_WORLD, 1000}, \
                   {t, 33}, {SHMEM_TEAM_SHARED, 5}},                                                          \
                  in, ex);                                                                                    \
    if (t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);                                                       \
  }
GIO_SCAN_OPS(GIO_REDUCE_EACH, SCAN_TYPE_TEST)
#undef SCAN_TYPE_TEST

TEST(OpenShmem16Scan, GenericNames) {
  auto in = [](shmem_team_t tm, long* d, const long* s, size_t n) { return shmem_sum_inscan(tm, d, s, n); };
  auto ex = [](shmem_team_t tm, long* d, const long* s, size_t n) { return shmem_sum_exscan(tm, d, s, n); };
  host_scans<long>("long (generic)", {{SHMEM_TEAM_WORLD, 9}}, in, ex);
  auto ind = [](shmem_team_t tm, double* d, const double* s, size_t n) { return shmem_sum_inscan(tm, d, s, n); };
  auto exd = [](shmem_team_t tm, double* d, const double* s, size_t n) { return shmem_sum_exscan(tm, d, s, n); };
  host_scans<double>("double (generic)", {{SHMEM_TEAM_WORLD, 9}}, ind, exd);
}

// ---- kernels ---------------------------------------------------------------------------------------

namespace {

enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };

template <int Scope, typename T>
__device__ int dev_scan(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n);

#define DEV_SCAN(NAME, T)                                                                               \
  template <>                                                                                           \
  __device__ int dev_scan<THREAD, T>(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n) {   \
    return inclusive ? shmem_##NAME##_sum_inscan(team, d, s, n) : shmem_##NAME##_sum_exscan(team, d, s, n); \
  }                                                                                                     \
  template <>                                                                                           \
  __device__ int dev_scan<WAVE, T>(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n) {     \
    return inclusive ? shmemx_##NAME##_sum_inscan_wave(team, d, s, n)                                   \
                     : shmemx_##NAME##_sum_exscan_wave(team, d, s, n);                                  \
  }                                                                                                     \
  template <>                                                                                           \
  __device__ int dev_scan<WG, T>(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n) {       \
    return inclusive ? shmemx_##NAME##_sum_inscan_wg(team, d, s, n) : shmemx_##NAME##_sum_exscan_wg(team, d, s, n); \
  }
DEV_SCAN(int, int)
DEV_SCAN(uint64, uint64_t)
DEV_SCAN(double, double)
DEV_SCAN(complexd, std::complex<double>)
DEV_SCAN(char, char)
#undef DEV_SCAN

// One work-group per PE; thread scope: thread 0 calls; wave scope: the first wave calls. Counts a
// call that returned non-zero in rc.
template <int Scope, typename T>
__device__ void scan_by_scope(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n, int* rc) {
  int r = 0;
  if (Scope == WG) {
    r = dev_scan<WG, T>(inclusive, team, d, s, n);
  } else if (Scope == WAVE) {
    if (threadIdx.x < (unsigned)warpSize) r = dev_scan<WAVE, T>(inclusive, team, d, s, n);
  } else if (threadIdx.x == 0) {
    r = dev_scan<THREAD, T>(inclusive, team, d, s, n);
  }
  if (r != 0) atomicAdd(rc, 1);
}
template <int Scope, typename T>
__global__ void scan_kernel(bool inclusive, shmem_team_t team, T* d, const T* s, size_t n, int* rc) {
  scan_by_scope<Scope, T>(inclusive, team, d, s, n, rc);
}

__global__ void pe_quiet_kernel(uint8_t* dst, const uint8_t* src, size_t n, int pe, uint64_t* sig) {
  if (threadIdx.x != 0) return;
  shmem_putmem_nbi(dst, src, n, pe);
  const int pes[1] = {pe};
  shmem_pe_quiet(pes, 1);
  shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, pes, 1);
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, nullptr, 0);
  shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, sig, 5, pe);
  shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig + 1, 9, pe);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
}

// The four calls of a case in one launch (inclusive or not, in place or not), call v with region v
// of each buffer: one launch and one pair of barriers a case, not four.
template <int Scope, typename T>
__global__ void scans_kernel(shmem_team_t team, T* d, T* s, size_t n, int* rc) {
  for (int v = 0; v < 4; ++v) {
    const bool inclusive = v / 2, in_place = v % 2;
    T* src = s + v * n;
    scan_by_scope<Scope, T>(inclusive, team, in_place ? src : d + v * n, src, n, rc);
  }
}

template <int Scope, typename T>
void dev_scan_case(const char* name, shmem_team_t team, size_t n) {
  sym<T> src(4 * n), dst(4 * n);
  dbuf<int> rc(1);
  std::vector<T> s(4 * n);
  for (size_t k = 0; k < 4 * n; ++k) s[k] = src_value<T>(me(), k % n);
  src.write(s);
  dst.fill_bytes(0x5a);
  shmem_barrier_all();
  if (team != SHMEM_TEAM_INVALID) {
    hipLaunchKernelGGL((scans_kernel<Scope, T>), dim3(1), dim3(128), 0, 0, team, dst.get(), src.get(), n, rc.get());
    ASSERT_TRUE(synced());
    const std::vector<T> got_src = src.read(), got_dst = dst.read();
    for (int v = 0; v < 4; ++v) {
      const bool inclusive = v / 2, in_place = v % 2;
      const T* got = (in_place ? got_src : got_dst).data() + v * n;
      const std::vector<T> e = expected_scan<T>(team, n, inclusive);
      for (size_t k = 0; k < n; ++k)
        if (!equal(got[k], e[k])) {
          ADD_FAILURE() << name << " scope " << Scope << (inclusive ? " inscan" : " exscan") << " n=" << n
                        << (in_place ? " in place" : "") << ": element " << k << " wrong on PE " << me();
          break;
        }
    }
  }
  shmem_barrier_all();
  EXPECT_EQ(rc.read()[0], 0);
}

template <int Scope>
void dev_scans() {
  for (size_t n : {(size_t)1, (size_t)5, (size_t)600}) {  // 600 doubles: 3 scratch pieces
    dev_scan_case<Scope, int>("int", SHMEM_TEAM_WORLD, n);
    dev_scan_case<Scope, double>("double", SHMEM_TEAM_WORLD, n);
  }
  dev_scan_case<Scope, uint64_t>("uint64", SHMEM_TEAM_WORLD, 300);
  dev_scan_case<Scope, std::complex<double>>("complexd", SHMEM_TEAM_WORLD, 200);
  dev_scan_case<Scope, char>("char", SHMEM_TEAM_WORLD, 4000);
  shmem_team_t t = evens();
  dev_scan_case<Scope, int>("int (even PEs)", t, 77);
  if (t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);
}

}  // namespace

TEST(OpenShmem16Device, ScansAtThreadScope) { dev_scans<THREAD>(); }
TEST(OpenShmem16Device, ScansAtWaveScope) { dev_scans<WAVE>(); }
TEST(OpenShmem16Device, ScansAtWorkGroupScope) { dev_scans<WG>(); }

TEST(OpenShmem16Device, PeQuietSessionsAndCtxSignalsInKernels) {
  const size_t n = 1 << 15;
  sym<uint8_t> dst(n), src(n);
  std::vector<uint8_t> s(n);
  for (size_t i = 0; i < n; ++i) s[i] = pattern(me(), i, 3);
  src.write(s);
  shmem_barrier_all();
  sym<uint64_t> sig(2);
  hipLaunchKernelGGL(pe_quiet_kernel, dim3(1), dim3(32), 0, 0, dst.get(), (const uint8_t*)src.get(), n, next_pe(),
                     sig.get());
  ASSERT_TRUE(synced());
  EXPECT_EQ(shmem_signal_wait_until(sig.get(), SHMEM_CMP_EQ, 5), 5u);
  EXPECT_EQ(shmem_signal_wait_until(sig.get() + 1, SHMEM_CMP_EQ, 9), 9u);
  shmem_sync_all();  // completes nothing: the kernel's pe_quiet did
  const std::vector<uint8_t> got = dst.read();
  for (size_t i = 0; i < n; ++i)
    if (got[i] != pattern(prev_pe(), i, 3)) {
      ADD_FAILURE() << "byte " << i << " from PE " << prev_pe() << " missing after a kernel's shmem_pe_quiet";
      break;
    }
  shmem_barrier_all();
}

// Last in this file: it finalizes the library the test main initialized and initializes it again
// (1.6), then checks that the new heap, transports, teams and kernels work. The test main's
// shmem_finalize ends the second initialization.
long g_after_reinit[2];  // a global: symmetric again after the re-initialization

TEST(OpenShmem16Last, ReinitializeAfterTheLastFinalize) {
#if defined(GIO_TEST_TSAN)
  // Under clang's ThreadSanitizer the second shmem_init of a process stops with SIGSEGV (tests/run.sh's
  // TSan step; the cause is not yet known); the plain and ASan+UBSan builds run this case.
  GTEST_SKIP() << "re-initialization is not run under ThreadSanitizer";
#endif
  shmem_barrier_all();
  shmem_finalize();
  int init = -1;
  shmem_query_initialized(&init);
  EXPECT_EQ(init, 0);
  shmem_init();
  shmem_query_initialized(&init);
  EXPECT_EQ(init, 1);
  EXPECT_EQ(shmem_n_pes(), npes());
  sym<long> box(4);
  long v = 500 + me();
  shmem_long_put(box.get(), &v, 1, next_pe());
  shmem_barrier_all();
  EXPECT_EQ(box.read()[0], 500 + prev_pe());
  EXPECT_EQ(shmem_long_g(box.get(), next_pe()), 500 + me());
  shmem_long_p(&g_after_reinit[1], 900 + me(), next_pe());
  shmem_barrier_all();
  EXPECT_EQ(g_after_reinit[1], 900 + prev_pe());
  sym<int> src(3), dst(3);
  src.write({me(), 1, 2});
  shmem_barrier_all();
  hipLaunchKernelGGL((scan_kernel<THREAD, int>), dim3(1), dim3(64), 0, 0, true, SHMEM_TEAM_WORLD, dst.get(),
                     (const int*)src.get(), (size_t)3, (int*)nullptr);
  ASSERT_TRUE(synced());
  const std::vector<int> got = dst.read();
  EXPECT_EQ(got[0], me() * (me() + 1) / 2);
  EXPECT_EQ(got[2], 2 * (me() + 1));
  shmem_team_t t = evens();
  if (t != SHMEM_TEAM_INVALID) {
    EXPECT_EQ(shmem_team_my_pe(t), me() / 2);
    shmem_team_destroy(t);
  }
  shmem_barrier_all();
}
