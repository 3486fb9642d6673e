// Global and static variables of the program as symmetric data objects (host/heap/globals.h), from
// host code: RMA of several types, p/g, function and file statics, atomics contended by every PE,
// signals, host waits, collectives and a 1.4 pSync among the globals, shmem_ptr. Each test names the transport
// it ran over, since the same binary runs over p2p, gda and every proxy variant.
#include "gio_test.h"

#include <algorithm>

using namespace giotest;

// .data (initialized) and .bss (zero) objects of several types.
int g_init[4] = {11, 22, 33, 44};
long g_longs[64];
int g_ints[32];
double g_doubles[16];
unsigned char g_bytes[100];
double g_double_scalar;
short g_short_scalar = 5;
alignas(8) int64_t g_counter64;
uint32_t g_counter32;
uint64_t g_sig;
int g_big[16384];  // 64 KiB: several of the staged proxy's chunks, past gda's inline WQEs
long g_bcast_src[8], g_bcast_dst[8];
int g_collect[64];
long g_reduce_src[16], g_reduce_dst[16];
long g_flags[2];  // host waits
uint64_t g_wait_sig;
static short s_strided[40];  // strided RMA lands in a static array (tests-sos's iput tests)
long g_lock;            // zero before its first use, as the spec asks
long g_locked_counter;  // moved only under g_lock, with a plain get and put
long g_pSync[SHMEM_BCAST_SYNC_SIZE];  // SHMEM_SYNC_VALUE (0) from .bss, as the spec asks

static float s_file_floats[8];

namespace {
float* function_static() {
  static float in_function[8];
  return in_function;
}

std::string via(int pe) { return std::string(" (PE ") + std::to_string(pe) + " over " + shmemx_transport_name(pe) + ")"; }
}  // namespace

TEST(Globals, InitialValuesSurviveInit) {
  // shmem_init moved the segment onto shared memory: what the loader put there is still there.
  EXPECT_EQ(g_init[0], 11);
  EXPECT_EQ(g_init[3], 44);
  EXPECT_EQ(g_short_scalar, 5);
  EXPECT_TRUE(std::all_of(g_big, g_big + 16384, [](int v) { return v == 0; })) << ".bss is zero";
  shmem_barrier_all();
}

TEST(Globals, PutGetArrays) {
  const int to = next_pe(), from = prev_pe();
  long lv[64];
  for (int i = 0; i < 64; ++i) lv[i] = me() * 1000 + i;
  shmem_long_put(g_longs, lv, 64, to);
  double dv[16];
  for (int i = 0; i < 16; ++i) dv[i] = me() + i / 4.0;
  shmem_double_put(g_doubles, dv, 16, to);
  unsigned char bv[37];
  for (int i = 0; i < 37; ++i) bv[i] = (unsigned char)(me() * 7 + i);
  shmem_putmem(g_bytes + 3, bv, sizeof bv, to);  // odd offset and size
  for (int i = 0; i < 32; ++i) g_ints[i] = me() * 100 + i;
  shmem_barrier_all();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(g_longs[i], from * 1000 + i) << i << via(from);
  for (int i = 0; i < 16; ++i) ASSERT_EQ(g_doubles[i], from + i / 4.0) << i << via(from);
  for (int i = 0; i < 37; ++i) ASSERT_EQ(g_bytes[3 + i], (unsigned char)(from * 7 + i)) << i << via(from);
  int got[32];
  shmem_int_get(got, g_ints, 32, from);
  for (int i = 0; i < 32; ++i) ASSERT_EQ(got[i], from * 100 + i) << i << via(from);
  // Bytes beside the range were not written.
  EXPECT_EQ(g_bytes[2], 0);
  EXPECT_EQ(g_bytes[40], 0);
  shmem_barrier_all();
}

TEST(Globals, LargePutGetAndHeapBothWays) {
  const int to = next_pe(), from = prev_pe();
  std::vector<int> v(16384);
  for (int i = 0; i < 16384; ++i) v[i] = me() * 65536 + i;
  shmem_int_put(g_big, v.data(), v.size(), to);
  shmem_barrier_all();
  for (int i = 0; i < 16384; ++i) ASSERT_EQ(g_big[i], from * 65536 + i) << i << via(from);
  // A global as the local side of a put into the heap, and a get from the heap into a global.
  sym<int> heap(16384);
  shmem_int_put(heap.get(), g_big, 16384, to);
  shmem_barrier_all();
  shmem_int_get(g_big, heap.get(), 16384, to);  // `to` holds what its predecessor (this PE) had
  for (int i = 0; i < 16384; ++i) ASSERT_EQ(g_big[i], from * 65536 + i) << i << via(to);
  shmem_barrier_all();
}

TEST(Globals, ScalarsPAndG) {
  const int to = next_pe(), from = prev_pe();
  shmem_double_p(&g_double_scalar, me() + 0.5, to);
  shmem_short_p(&g_short_scalar, (short)(me() + 100), to);
  shmem_barrier_all();
  EXPECT_EQ(g_double_scalar, from + 0.5) << via(from);
  EXPECT_EQ(g_short_scalar, from + 100) << via(from);
  EXPECT_EQ(shmem_double_g(&g_double_scalar, to), me() + 0.5) << via(to);
  EXPECT_EQ(shmem_int_g(&g_init[2], to), 33) << via(to);
  shmem_barrier_all();
}

TEST(Globals, FileAndFunctionStatics) {
  const int to = next_pe(), from = prev_pe();
  const float a[8] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, (float)me()};
  shmem_float_put(s_file_floats, a, 8, to);
  shmem_float_p(function_static() + 7, (float)me() + 0.25f, to);
  shmem_barrier_all();
  EXPECT_EQ(s_file_floats[0], 1.5f) << via(from);
  EXPECT_EQ(s_file_floats[7], (float)from) << via(from);
  EXPECT_EQ(function_static()[7], (float)from + 0.25f) << via(from);
  EXPECT_EQ(shmem_float_g(function_static() + 7, to), (float)me() + 0.25f) << via(to);
  EXPECT_TRUE(shmem_addr_accessible(s_file_floats, to));
  EXPECT_TRUE(shmem_addr_accessible(function_static(), to));
  shmem_barrier_all();
}

TEST(Globals, AtomicsContendedByEveryPE) {
  const int kOps = 300;
  const int target = 0, target32 = npes() - 1;
  g_counter64 = 0;
  g_counter32 = 0;
  shmem_barrier_all();
  int64_t last = -1;
  for (int k = 0; k < kOps; ++k) {
    const int64_t old = shmem_int64_atomic_fetch_add(&g_counter64, 1, target);
    ASSERT_GT(old, last) << "a counter only grows" << via(target);
    last = old;
    shmem_uint32_atomic_add(&g_counter32, 3u, target32);
  }
  shmem_barrier_all();
  if (me() == target) EXPECT_EQ(g_counter64, (int64_t)npes() * kOps) << "every PE's fetch-adds counted once";
  if (me() == target32) EXPECT_EQ(g_counter32, 3u * npes() * kOps);
  EXPECT_EQ(shmem_int64_atomic_fetch(&g_counter64, target), (int64_t)npes() * kOps) << via(target);
  shmem_barrier_all();
  // One compare-swap wins per round; swap, and the bitwise ones.
  const int64_t total = (int64_t)npes() * kOps;
  const int64_t won = shmem_int64_atomic_compare_swap(&g_counter64, total, -7, target);
  shmem_barrier_all();
  EXPECT_EQ(shmem_int64_atomic_fetch(&g_counter64, target), -7) << via(target);
  (void)won;
  if (me() == 0) {
    EXPECT_EQ(shmem_uint32_atomic_swap(&g_counter32, 0xf0u, target32), 3u * npes() * kOps);
    shmem_uint32_atomic_or(&g_counter32, 0x0fu, target32);
    EXPECT_EQ(shmem_uint32_atomic_fetch_and(&g_counter32, 0x3cu, target32), 0xffu);
    EXPECT_EQ(shmem_uint32_atomic_fetch_xor(&g_counter32, 0x01u, target32), 0x3cu);
    EXPECT_EQ(shmem_uint32_atomic_fetch(&g_counter32, target32), 0x3du) << via(target32);
  }
  shmem_barrier_all();
}

// Strided puts and gets whose remote side is a static array.
TEST(Globals, StridedIputIgetOnAStatic) {
  const int next = (me() + 1) % npes(), prev = (me() + npes() - 1) % npes();
  for (short& v : s_strided) v = -1;
  shmem_barrier_all();
  short src[10];
  for (int k = 0; k < 10; ++k) src[k] = (short)(me() * 100 + k);
  shmem_short_iput(s_strided, src, 4, 1, 10, next);  // next's s_strided[4k] = src[k]
  shmem_barrier_all();
  for (int k = 0; k < 40; ++k)
    EXPECT_EQ(s_strided[k], k % 4 ? -1 : prev * 100 + k / 4) << "element " << k << " of the static";
  short back[10] = {0};
  shmem_short_iget(back, s_strided, 1, 4, 10, next);  // next's s_strided[4k] came from me
  for (int k = 0; k < 10; ++k) EXPECT_EQ(back[k], me() * 100 + k) << via(next);
  shmem_barrier_all();
}

// A lock that is a global: every PE's increments, a get and a put each under the lock, all count.
TEST(Globals, LockOnAGlobal) {
  const int kRounds = 40;
  shmem_barrier_all();
  for (int k = 0; k < kRounds; ++k) {
    shmem_set_lock(&g_lock);
    const long v = shmem_long_g(&g_locked_counter, 0);
    shmem_long_p(&g_locked_counter, v + 1, 0);
    shmem_clear_lock(&g_lock);
  }
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(&g_locked_counter, 0), (long)npes() * kRounds) << "a lost increment: the lock let two in";
  EXPECT_EQ(shmem_long_g(&g_lock, 0), 0L) << "the lock's tail on PE 0 is empty again";
  shmem_barrier_all();
}

TEST(Globals, PutWithSignal) {
  const int to = next_pe(), from = prev_pe();
  g_sig = 0;
  shmem_barrier_all();
  long v[8];
  for (int i = 0; i < 8; ++i) v[i] = me() * 10 + i;
  for (int k = 0; k < 3; ++k) shmem_putmem_signal(g_longs, v, sizeof v, &g_sig, 2, SHMEM_SIGNAL_ADD, to);
  shmem_barrier_all();
  EXPECT_EQ(shmem_signal_fetch(&g_sig), 6u) << via(from);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(g_longs[i], from * 10 + i) << via(from);
  shmem_barrier_all();  // every PE has read its signal before it is set again
  shmem_putmem_signal(g_longs, v, sizeof v, &g_sig, 42, SHMEM_SIGNAL_SET, to);
  shmem_barrier_all();
  EXPECT_EQ(shmem_signal_fetch(&g_sig), 42u) << via(from);
  shmem_barrier_all();
}

TEST(Globals, TeamCollectives) {
  for (int i = 0; i < 8; ++i) g_bcast_src[i] = me() == 1 % npes() ? 500 + i : -1;
  for (int i = 0; i < 16; ++i) g_reduce_src[i] = me() + i;
  shmem_barrier_all();
  ASSERT_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, g_bcast_dst, g_bcast_src, 8, 1 % npes()), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(g_bcast_dst[i], 500 + i);
  const int mine[4] = {me() * 4, me() * 4 + 1, me() * 4 + 2, me() * 4 + 3};
  static int src[4];  // fcollect's source must be symmetric too: a function static
  std::copy(mine, mine + 4, src);
  ASSERT_EQ(shmem_int_fcollect(SHMEM_TEAM_WORLD, g_collect, src, 4), 0);
  for (int i = 0; i < 4 * npes(); ++i) EXPECT_EQ(g_collect[i], i);
  ASSERT_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, g_reduce_dst, g_reduce_src, 16), 0);
  const long pes = npes();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(g_reduce_dst[i], pes * (pes - 1) / 2 + pes * i);
  ASSERT_EQ(shmem_long_max_reduce(SHMEM_TEAM_WORLD, g_reduce_src, g_reduce_src, 16), 0);  // in place
  for (int i = 0; i < 16; ++i) EXPECT_EQ(g_reduce_src[i], pes - 1 + i);
  shmem_barrier_all();
}

TEST(Globals, ActiveSetWithGlobalPSync) {
  for (int i = 0; i < 8; ++i) g_bcast_src[i] = me() == 0 ? 900 + i : 0;
  for (int i = 0; i < 8; ++i) g_bcast_dst[i] = -5;
  shmem_barrier_all();
  shmem_broadcast64(g_bcast_dst, g_bcast_src, 8, 0, 0, 0, npes(), g_pSync);
  if (me() != 0)
    for (int i = 0; i < 8; ++i) EXPECT_EQ(g_bcast_dst[i], 900 + i);
  shmem_barrier(0, 0, npes(), g_pSync);
  for (long w : g_pSync) EXPECT_EQ(w, SHMEM_SYNC_VALUE) << "pSync restored";
  shmem_barrier_all();
}

TEST(Globals, PointerToAPeersGlobal) {
  const int to = next_pe();
  int* p = (int*)shmem_ptr(g_ints, to);
  const bool p2p = std::string(shmemx_transport_name(to)) == "p2p";
  EXPECT_EQ(p != nullptr, p2p || to == me()) << via(to);
  EXPECT_EQ(shmem_ptr(g_ints, me()), (void*)g_ints);
  if (p) p[31] = me() + 4000;  // a plain store into the peer's global
  shmem_barrier_all();
  // The previous PE stored into this one's global if it maps this PE (same node: the relation is mutual).
  if (shmem_ptr(g_ints, prev_pe())) EXPECT_EQ(g_ints[31], prev_pe() + 4000);
  shmem_barrier_all();
}

TEST(Globals, HostWaitsOnPeersUpdates) {
  const int to = next_pe(), from = prev_pe();
  shmem_long_p(&g_flags[0], me() + 1, to);
  shmem_long_atomic_add(&g_flags[1], 5, to);
  long v[4] = {me(), me(), me(), me()};
  shmem_putmem_signal(g_longs + 8, v, sizeof v, &g_wait_sig, 3, SHMEM_SIGNAL_ADD, to);
  shmem_long_wait_until(&g_flags[0], SHMEM_CMP_EQ, from + 1);
  const int status[2] = {0, 0};
  shmem_long_wait_until_all(g_flags, 2, status, SHMEM_CMP_GT, 0);
  EXPECT_EQ(g_flags[1], 5) << via(from);
  EXPECT_EQ(shmem_long_test(&g_flags[0], SHMEM_CMP_EQ, from + 1), 1);
  EXPECT_EQ(shmem_long_test(&g_flags[1], SHMEM_CMP_GT, 5), 0);
  EXPECT_EQ(shmem_signal_wait_until(&g_wait_sig, SHMEM_CMP_GE, 3), 3u) << via(from);
  EXPECT_EQ(g_longs[8 + 3], from) << "the data before its signal";
  shmem_barrier_all();
}
