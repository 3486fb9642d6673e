// Host collectives (OpenSHMEM 1.5 section 9.9 and the 1.4 active-set forms): every reduction of
// every type against values computed here, in place and not, with fewer elements than PEs; the
// active-set reductions on the world and on a strided subset (pSync restored); OSU's
// shmem_double_sum_to_all loop; broadcasts from every root (the team form writes the root's dest,
// the active-set form does not); collect with a different count per PE; fcollect; alltoall;
// alltoalls with strides (the gaps are not written); collectives on teams used in interleaved order.
//
// Where PEs share a GPU (pes_share_gpu), each collective's waits on its partners and each copy to or
// from the GPU heap can wait for a time slice of another process, so the every-type tests take a
// representative set of types there (each operation on 4- and 8-byte integers, float, double and,
// for sum and prod, a complex type: the types of an operation share its code but for the element's
// width and arithmetic), and the tests of repeated calls fewer rounds (each says how many).
#include <complex>
#include <functional>
#include <numeric>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {

// Fewer types and rounds where PEs share a GPU (the header says why).
bool lean() {
  static const bool l = pes_share_gpu();
  return l;
}
// The types the every-type tests run where PEs share a GPU.
bool representative(const std::string& type) {
  for (const char* t : {"int", "uint", "long", "uint64", "float", "double", "complexd"})
    if (type == t) return true;
  return false;
}

// Every buffer of a test comes from one symmetric block, allocated once (collectively, by the
// first test on every PE) and carved the same way on every PE, so the hundreds of reductions below
// cost no shmem_malloc each. A collective's last sync means no peer still touches these buffers
// when it returns, so the next case may reuse them at once.
struct pool {
  uint8_t* mem;
  size_t cap = 1u << 20, used = 0;
  pool() {
    static uint8_t* block = (uint8_t*)shmem_calloc(1u << 20, 1);  // freed by shmem_finalize
    mem = block;
  }
  template <typename T>
  T* take(size_t n) {
    used = (used + 63) / 64 * 64;
    T* p = (T*)(mem + used);
    used += n * sizeof(T);
    EXPECT_LE(used, cap);
    return p;
  }
};

template <typename T>
void write(T* sym_dst, const std::vector<T>& v) {
  ASSERT_EQ(hipMemcpy(sym_dst, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);  // host collectives do not wait for the stream
}
template <typename T>
std::vector<T> read(const T* sym_src, size_t n) {
  std::vector<T> v(n);
  EXPECT_EQ(hipMemcpy(v.data(), sym_src, n * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
  return v;
}

// The test's own reduction operators, and the value group member k contributes at index i to each
// (small, so no sum or product of up to 4 PEs overflows even a signed char).
struct r_and { template <typename T> static T f(T a, T b) { return (T)(a & b); } };
struct r_or { template <typename T> static T f(T a, T b) { return (T)(a | b); } };
struct r_xor { template <typename T> static T f(T a, T b) { return (T)(a ^ b); } };
struct r_max { template <typename T> static T f(T a, T b) { return a > b ? a : b; } };
struct r_min { template <typename T> static T f(T a, T b) { return a < b ? a : b; } };
struct r_sum { template <typename T> static T f(T a, T b) { return (T)(a + b); } };
struct r_prod { template <typename T> static T f(T a, T b) { return (T)(a * b); } };

template <typename T, typename Op>
struct value {
  static T at(int k, size_t i) {
    if (std::is_same<Op, r_and>::value || std::is_same<Op, r_or>::value || std::is_same<Op, r_xor>::value)
      return (T)((1u << ((k + i) % 7)) | ((i * 5) % 64) | (k == 1 ? 3u : 0u));
    if (std::is_same<Op, r_max>::value || std::is_same<Op, r_min>::value) return (T)((k * 29 + i * 13) % 101);
    if (std::is_same<Op, r_sum>::value) return (T)((k + 1) * (i % 5 + 1));
    return (T)(1 + ((k + i) % 3 == 0));
  }
};
template <typename F, typename Op>
struct value<std::complex<F>, Op> {
  static std::complex<F> at(int k, size_t i) {
    return std::is_same<Op, r_sum>::value ? std::complex<F>(F(k + 1), F(i % 4)) : std::complex<F>(F(1 + (k + i) % 2), F((k * i) % 2));
  }
};

template <typename T, typename Op>
std::vector<T> expected(int members, size_t n) {
  std::vector<T> want(n);
  for (size_t i = 0; i < n; ++i) {
    want[i] = value<T, Op>::at(0, i);
    for (int k = 1; k < members; ++k) want[i] = Op::f(want[i], value<T, Op>::at(k, i));
  }
  return want;
}

template <typename T, typename Op>
std::vector<T> contribution(int k, size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = value<T, Op>::at(k, i);
  return v;
}

// One team reduction, once into a separate dest (13 elements) and once in place (3: fewer than 4
// PEs, so some PEs reduce nothing).
template <typename T, typename Op>
void check_reduce(const char* name, int (*fn)(shmem_team_t, T*, const T*, size_t), shmem_team_t team) {
  pool p;
  const int k = shmem_team_my_pe(team), members = shmem_team_n_pes(team);
  T* src = p.take<T>(13);
  T* dst = p.take<T>(13);
  write(src, contribution<T, Op>(k, 13));
  write(dst, std::vector<T>(13, T(77)));
  ASSERT_EQ(fn(team, dst, src, 13), 0) << name;
  EXPECT_EQ(read(dst, 13), (expected<T, Op>(members, 13))) << name;
  EXPECT_EQ(read(src, 13), (contribution<T, Op>(k, 13))) << name << ": source changed";
  write(src, contribution<T, Op>(k, 3));
  ASSERT_EQ(fn(team, src, src, 3), 0) << name << " in place";
  EXPECT_EQ(read(src, 3), (expected<T, Op>(members, 3))) << name << " in place";
}

// One active-set reduction on PEs start, start + 2^log, ...; pSync is SHMEM_SYNC_VALUE again after.
template <typename T, typename Op>
void check_to_all(const char* name, void (*fn)(T*, const T*, int, int, int, int, T*, long*), int start, int log,
                  int size) {
  pool p;
  T* src = p.take<T>(9);
  T* dst = p.take<T>(9);
  T* wrk = p.take<T>(9 / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE);
  long* psync = p.take<long>(SHMEM_REDUCE_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_REDUCE_SYNC_SIZE, SHMEM_SYNC_VALUE));
  shmem_barrier_all();  // every pSync is initialized before any PE signals into it
  const int off = me() - start;
  if (off >= 0 && off % (1 << log) == 0 && off / (1 << log) < size) {
    write(src, contribution<T, Op>(off >> log, 9));
    fn(dst, src, 9, start, log, size, wrk, psync);
    EXPECT_EQ(read(dst, 9), (expected<T, Op>(size, 9))) << name << " on (" << start << ", " << log << ", " << size << ")";
    EXPECT_EQ(read(psync, SHMEM_REDUCE_SYNC_SIZE), std::vector<long>(SHMEM_REDUCE_SYNC_SIZE, SHMEM_SYNC_VALUE))
        << name << ": pSync not restored";
  }
  shmem_barrier_all();  // the pool is reused by the next case
}

}  // namespace

TEST(Coll, ReduceEveryOperationAndType) {
#define GIO_TEST_REDUCE(OP, NAME, T)    \
  if (!lean() || representative(#NAME)) \
    check_reduce<T, r_##OP>("shmem_" #NAME "_" #OP "_reduce", &shmem_##NAME##_##OP##_reduce, SHMEM_TEAM_WORLD);
  GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_TEST_REDUCE)
#undef GIO_TEST_REDUCE
}

TEST(Coll, ToAllEveryOperationAndType) {
  // The world, then the even PEs (logPE_stride 1).
  const int sets[2][3] = {{0, 0, npes()}, {0, 1, (npes() + 1) / 2}};
  for (const auto& s : sets) {
#define GIO_TEST_TO_ALL(OP, NAME, T)    \
  if (!lean() || representative(#NAME)) \
    check_to_all<T, r_##OP>("shmem_" #NAME "_" #OP "_to_all", &shmem_##NAME##_##OP##_to_all, s[0], s[1], s[2]);
    GIO_TO_ALL_OPS(GIO_REDUCE_EACH, GIO_TEST_TO_ALL)
#undef GIO_TEST_TO_ALL
  }
}

// What osu_oshm_reduce does: shmem_double_sum_to_all over all PEs, pWrk and pSync from shmem_malloc,
// pSync alternating between two arrays, iteration after iteration with no barrier between. The
// values change every iteration, so a result from the wrong iteration shows. Where PEs share a
// GPU 4 iterations (each pSync used twice), else 8.
TEST(Coll, OsuDoubleSumToAll) {
  const int n = npes(), iters = lean() ? 4 : 8;
  for (size_t size : {1ul, 2ul, 1024ul, 65536ul / sizeof(double)}) {
    double* src = (double*)shmem_malloc(size * sizeof(double));
    double* dst = (double*)shmem_malloc(size * sizeof(double));
    double* wrk = (double*)shmem_malloc(std::max<size_t>(size / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) * sizeof(double));
    long* psync[2];
    for (long*& ps : psync) {
      ps = (long*)shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
      write(ps, std::vector<long>(SHMEM_REDUCE_SYNC_SIZE, SHMEM_SYNC_VALUE));
    }
    shmem_barrier_all();
    for (int it = 0; it < iters; ++it) {
      std::vector<double> mine(size), want(size);
      for (size_t i = 0; i < size; ++i) {
        mine[i] = me() + 0.5 * i + it;
        want[i] = n * (n - 1) / 2.0 + n * (0.5 * i + it);
      }
      write(src, mine);
      shmem_double_sum_to_all(dst, src, (int)size, 0, 0, n, wrk, psync[it % 2]);
      ASSERT_EQ(read(dst, size), want) << size << " doubles, iteration " << it;
    }
    shmem_barrier_all();
    for (long* ps : psync) shmem_free(ps);
    shmem_free(wrk);
    shmem_free(dst);
    shmem_free(src);
  }
}

TEST(Coll, BroadcastFromEveryRoot) {
  const int n = npes();
  pool p;
  const size_t kInts = 1000, kBytes = 65537;
  int64_t* src = p.take<int64_t>(kInts);
  int64_t* dst = p.take<int64_t>(kInts);
  uint8_t* bsrc = p.take<uint8_t>(kBytes);
  uint8_t* bdst = p.take<uint8_t>(kBytes);
  for (int root = 0; root < n; ++root) {
    std::vector<int64_t> mine(kInts), theirs(kInts);
    for (size_t i = 0; i < kInts; ++i) {
      mine[i] = me() * 1000000 + (int64_t)i;
      theirs[i] = root * 1000000 + (int64_t)i;
    }
    write(src, mine);
    write(dst, std::vector<int64_t>(kInts, -1));
    shmem_barrier_all();  // every dest is ready before any PE broadcasts into it
    ASSERT_EQ(shmem_int64_broadcast(SHMEM_TEAM_WORLD, dst, src, kInts, root), 0);
    EXPECT_EQ(read(dst, kInts), theirs) << "root " << root;  // the root's dest too (1.5)

    std::vector<uint8_t> bytes(kBytes);
    for (size_t i = 0; i < kBytes; ++i) bytes[i] = pattern(me(), i, root);
    write(bsrc, bytes);
    write(bdst, std::vector<uint8_t>(kBytes, 0));
    shmem_barrier_all();
    ASSERT_EQ(shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, kBytes, root), 0);
    const std::vector<uint8_t> got = read(bdst, kBytes);
    size_t bad = 0;
    for (size_t i = 0; i < kBytes; ++i) bad += got[i] != pattern(root, i, root);
    EXPECT_EQ(bad, 0u) << "broadcastmem from root " << root;
  }
}

// The 1.4 broadcast leaves the root's dest alone; on the odd PEs (logPE_stride 1 from PE 1) at 4
// PEs, on PE 1 alone at 2.
TEST(Coll, ActiveSetBroadcastSkipsTheRoot) {
  const int n = npes();
  pool p;
  uint32_t* src = p.take<uint32_t>(33);
  uint32_t* dst = p.take<uint32_t>(33);
  uint64_t* src64 = p.take<uint64_t>(5);
  uint64_t* dst64 = p.take<uint64_t>(5);
  long* psync = p.take<long>(SHMEM_BCAST_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_BCAST_SYNC_SIZE, SHMEM_SYNC_VALUE));
  const int sets[2][3] = {{0, 0, n}, {1, 1, n / 2}};
  for (const auto& s : sets)
    for (int root = 0; root < s[2]; ++root) {
      const int off = me() - s[0];
      const bool member = off >= 0 && off % (1 << s[1]) == 0 && off / (1 << s[1]) < s[2];
      write(src, std::vector<uint32_t>(33, 100u + me()));
      write(dst, std::vector<uint32_t>(33, 7u));
      write(src64, std::vector<uint64_t>(5, 1ull << 40 | (uint64_t)me()));
      write(dst64, std::vector<uint64_t>(5, 9u));
      shmem_barrier_all();
      if (member) {
        const int root_pe = s[0] + (root << s[1]);
        const bool is_root = me() == root_pe;
        shmem_broadcast32(dst, src, 33, root, s[0], s[1], s[2], psync);
        EXPECT_EQ(read(dst, 33), std::vector<uint32_t>(33, is_root ? 7u : 100u + root_pe)) << "root " << root_pe;
        shmem_broadcast64(dst64, src64, 5, root, s[0], s[1], s[2], psync);
        EXPECT_EQ(read(dst64, 5), std::vector<uint64_t>(5, is_root ? 9u : 1ull << 40 | (uint64_t)root_pe));
        EXPECT_EQ(read(psync, SHMEM_BCAST_SYNC_SIZE), std::vector<long>(SHMEM_BCAST_SYNC_SIZE, SHMEM_SYNC_VALUE));
      }
    }
  shmem_barrier_all();
}

// PE k contributes k % 3 elements (PE 0 none): dest is the concatenation in PE order.
TEST(Coll, CollectDifferentCounts) {
  const int n = npes();
  pool p;
  int32_t* src = p.take<int32_t>(3);
  int32_t* dst = p.take<int32_t>(3 * n);
  long* psync = p.take<long>(SHMEM_COLLECT_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_COLLECT_SYNC_SIZE, SHMEM_SYNC_VALUE));
  std::vector<int32_t> want;
  for (int pe = 0; pe < n; ++pe)
    for (int i = 0; i < pe % 3; ++i) want.push_back(pe * 10 + i);
  for (int rep = 0; rep < 3; ++rep) {
    std::vector<int32_t> mine;
    for (int i = 0; i < me() % 3; ++i) mine.push_back(me() * 10 + i);
    write(src, std::vector<int32_t>{-5, -5, -5});
    if (!mine.empty()) write(src, mine);
    write(dst, std::vector<int32_t>(3 * n, -1));
    shmem_barrier_all();
    std::vector<int32_t> got;
    if (rep == 0) {
      ASSERT_EQ(shmem_int32_collect(SHMEM_TEAM_WORLD, dst, src, mine.size()), 0);
    } else if (rep == 1) {
      ASSERT_EQ(shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, mine.size() * sizeof(int32_t)), 0);
    } else {
      shmem_collect32(dst, src, mine.size(), 0, 0, n, psync);
      EXPECT_EQ(read(psync, SHMEM_COLLECT_SYNC_SIZE), std::vector<long>(SHMEM_COLLECT_SYNC_SIZE, SHMEM_SYNC_VALUE));
    }
    got = read(dst, want.size());
    EXPECT_EQ(got, want) << "form " << rep;
    if (want.size() < (size_t)3 * n) EXPECT_EQ(read(dst + want.size(), 1)[0], -1) << "form " << rep << ": wrote past the end";
  }
  // collect64 on the even PEs, with the same pSync once everyone has checked it.
  shmem_barrier_all();
  uint64_t* s64 = p.take<uint64_t>(2);
  uint64_t* d64 = p.take<uint64_t>(2 * n);
  const int evens = (n + 1) / 2;
  if (me() % 2 == 0) {
    const size_t cnt = me() / 2 % 2 + 1;  // 1, 2, 1, ...
    write(s64, std::vector<uint64_t>(cnt, 1000u + me()));
    shmem_collect64(d64, s64, cnt, 0, 1, evens, psync);
    std::vector<uint64_t> want64;
    for (int k = 0; k < evens; ++k) want64.insert(want64.end(), k % 2 + 1, 1000u + 2 * k);
    EXPECT_EQ(read(d64, want64.size()), want64);
  }
  shmem_barrier_all();
}

TEST(Coll, Fcollect) {
  const int n = npes();
  pool p;
  int16_t* src = p.take<int16_t>(7);
  int16_t* dst = p.take<int16_t>(7 * n);
  long* psync = p.take<long>(SHMEM_COLLECT_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_COLLECT_SYNC_SIZE, SHMEM_SYNC_VALUE));
  std::vector<int16_t> mine(7), want;
  for (int i = 0; i < 7; ++i) mine[i] = (int16_t)(me() * 100 + i);
  for (int pe = 0; pe < n; ++pe)
    for (int i = 0; i < 7; ++i) want.push_back((int16_t)(pe * 100 + i));
  write(src, mine);
  for (int form = 0; form < 3; ++form) {
    write(dst, std::vector<int16_t>(7 * n, -1));
    shmem_barrier_all();
    if (form == 0) ASSERT_EQ(shmem_int16_fcollect(SHMEM_TEAM_WORLD, dst, src, 7), 0);
    if (form == 1) ASSERT_EQ(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 7 * sizeof(int16_t)), 0);
    if (form == 2) shmem_fcollect32(dst, src, 7 * sizeof(int16_t) / 4, 0, 0, n, psync);  // 14 bytes: 3 words
    if (form < 2) {
      EXPECT_EQ(read(dst, 7 * n), want) << "form " << form;
    } else {
      const std::vector<int16_t> got = read(dst, 7 * n);
      for (int pe = 0; pe < n; ++pe)
        for (int i = 0; i < 6; ++i) EXPECT_EQ(got[pe * 6 + i], (int16_t)(pe * 100 + i)) << "fcollect32 PE " << pe;
    }
  }
}

TEST(Coll, Alltoall) {
  const int n = npes();
  pool p;
  int64_t* src = p.take<int64_t>(3 * n);
  int64_t* dst = p.take<int64_t>(3 * n);
  long* psync = p.take<long>(SHMEM_ALLTOALL_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_SYNC_VALUE));
  // Block j of PE i's source (3 elements) is for PE j: value i * 100 + j * 10 + e.
  std::vector<int64_t> mine(3 * n), want(3 * n);
  for (int j = 0; j < n; ++j)
    for (int e = 0; e < 3; ++e) {
      mine[j * 3 + e] = me() * 100 + j * 10 + e;
      want[j * 3 + e] = j * 100 + me() * 10 + e;
    }
  write(src, mine);
  for (int form = 0; form < 3; ++form) {
    write(dst, std::vector<int64_t>(3 * n, -1));
    shmem_barrier_all();
    if (form == 0) ASSERT_EQ(shmem_int64_alltoall(SHMEM_TEAM_WORLD, dst, src, 3), 0);
    if (form == 1) ASSERT_EQ(shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, 3 * sizeof(int64_t)), 0);
    if (form == 2) shmem_alltoall64(dst, src, 3, 0, 0, n, psync);
    EXPECT_EQ(read(dst, 3 * n), want) << "form " << form;
  }
  // alltoall32 on the even PEs: block k of the set is for set member k.
  const int evens = (n + 1) / 2;
  uint32_t* s32 = p.take<uint32_t>(evens);
  uint32_t* d32 = p.take<uint32_t>(evens);
  if (me() % 2 == 0) {
    std::vector<uint32_t> m(evens), w(evens);
    for (int k = 0; k < evens; ++k) {
      m[k] = (uint32_t)(me() * 16 + k);
      w[k] = (uint32_t)(2 * k * 16 + me() / 2);
    }
    write(s32, m);
    shmem_alltoall32(d32, s32, 1, 0, 1, evens, psync);
    EXPECT_EQ(read(d32, evens), w);
  }
  shmem_barrier_all();
}

// Source elements at stride 3, dest at stride 2: element e of block j of PE i's source is
// i * 100 + j * 10 + e and lands at (i * nelems + e) * 2 of PE j's dest; the odd slots in between
// keep their -1.
TEST(Coll, AlltoallsStrides) {
  const int n = npes();
  const size_t ne = 2;
  pool p;
  int32_t* src = p.take<int32_t>(3 * ne * n);
  int32_t* dst = p.take<int32_t>(2 * ne * n);
  long* psync = p.take<long>(SHMEM_ALLTOALLS_SYNC_SIZE);
  write(psync, std::vector<long>(SHMEM_ALLTOALLS_SYNC_SIZE, SHMEM_SYNC_VALUE));
  std::vector<int32_t> mine(3 * ne * n, -7), want(2 * ne * n, -1);
  for (int j = 0; j < n; ++j)
    for (size_t e = 0; e < ne; ++e) {
      mine[(j * ne + e) * 3] = me() * 100 + j * 10 + (int)e;
      want[(j * ne + e) * 2] = j * 100 + me() * 10 + (int)e;
    }
  write(src, mine);
  write(dst, std::vector<int32_t>(2 * ne * n, -1));
  shmem_barrier_all();
  ASSERT_EQ(shmem_int32_alltoalls(SHMEM_TEAM_WORLD, dst, src, 2, 3, ne), 0);
  EXPECT_EQ(read(dst, 2 * ne * n), want);
  // The same through alltoalls32 on the world active set, and contiguous (1, 1) through alltoallsmem.
  write(dst, std::vector<int32_t>(2 * ne * n, -1));
  shmem_barrier_all();
  shmem_alltoalls32(dst, src, 2, 3, ne, 0, 0, n, psync);
  EXPECT_EQ(read(dst, 2 * ne * n), want);
  EXPECT_EQ(read(psync, SHMEM_ALLTOALLS_SYNC_SIZE), std::vector<long>(SHMEM_ALLTOALLS_SYNC_SIZE, SHMEM_SYNC_VALUE));
  std::vector<uint8_t> bytes(n * 5), wantb(n * 5);
  for (int j = 0; j < n; ++j)
    for (int e = 0; e < 5; ++e) {
      bytes[j * 5 + e] = (uint8_t)(me() * 50 + j * 5 + e);
      wantb[j * 5 + e] = (uint8_t)(j * 50 + me() * 5 + e);
    }
  uint8_t* bsrc = p.take<uint8_t>(n * 5);
  uint8_t* bdst = p.take<uint8_t>(n * 5);
  write(bsrc, bytes);
  shmem_barrier_all();
  ASSERT_EQ(shmem_alltoallsmem(SHMEM_TEAM_WORLD, bdst, bsrc, 1, 1, 5), 0);
  EXPECT_EQ(read(bdst, n * 5), wantb);
}

// Collectives on the rows and columns of a 2-D split and on the world, odd PEs taking the column
// first and even PEs the row: each team keeps its own sync state, so the interleaving is harmless.
// 20 iterations, 6 where PEs share a GPU.
TEST(Coll, TeamsInterleaved) {
  shmem_team_t row = SHMEM_TEAM_INVALID, col = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &row, nullptr, 0, &col), 0);
  pool p;
  int64_t* rsrc = p.take<int64_t>(4);
  int64_t* rdst = p.take<int64_t>(4);
  int64_t* csrc = p.take<int64_t>(4);
  int64_t* cdst = p.take<int64_t>(4);
  int64_t* bdst = p.take<int64_t>(4);
  int64_t* wdst = p.take<int64_t>(npes());
  auto team_sum = [](shmem_team_t t, int64_t base) {
    int64_t s = 0;
    for (int k = 0; k < shmem_team_n_pes(t); ++k) s += base + shmem_team_translate_pe(t, k, SHMEM_TEAM_WORLD);
    return s;
  };
  for (int it = 0; it < (lean() ? 6 : 20); ++it) {
    write(rsrc, std::vector<int64_t>(4, it * 1000 + me()));
    write(csrc, std::vector<int64_t>(4, it * 2000 + me()));
    shmem_barrier_all();
    for (int step = 0; step < 2; ++step) {
      if ((step == 0) == (me() % 2 == 0)) {
        ASSERT_EQ(shmem_int64_sum_reduce(row, rdst, rsrc, 4), 0);
        ASSERT_EQ(shmem_int64_broadcast(row, bdst, rsrc, 4, shmem_team_n_pes(row) - 1), 0);
      } else {
        ASSERT_EQ(shmem_int64_sum_reduce(col, cdst, csrc, 4), 0);
      }
    }
    ASSERT_EQ(shmem_int64_fcollect(SHMEM_TEAM_WORLD, wdst, rsrc, 1), 0);
    EXPECT_EQ(read(rdst, 4), std::vector<int64_t>(4, team_sum(row, it * 1000))) << "row, iteration " << it;
    EXPECT_EQ(read(cdst, 4), std::vector<int64_t>(4, team_sum(col, it * 2000))) << "column, iteration " << it;
    const int last = shmem_team_translate_pe(row, shmem_team_n_pes(row) - 1, SHMEM_TEAM_WORLD);
    EXPECT_EQ(read(bdst, 4), std::vector<int64_t>(4, it * 1000 + last)) << "row broadcast, iteration " << it;
    std::vector<int64_t> w(npes());
    for (int pe = 0; pe < npes(); ++pe) w[pe] = it * 1000 + pe;
    EXPECT_EQ(read(wdst, npes()), w) << "world fcollect, iteration " << it;
  }
  shmem_team_destroy(row);
  shmem_team_destroy(col);
}

// Collectives on a split team and on SHMEM_TEAM_SHARED.
TEST(Coll, OnSplitAndSharedTeams) {
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  if (npes() > 1) {  // at 1 PE there is no odd PE (and no such triplet)
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes() / 2, nullptr, 0, &odd), 0);
  }
  pool p;
  int* src = p.take<int>(1);
  int* dst = p.take<int>(npes());
  write(src, std::vector<int>{me() + 1});
  shmem_barrier_all();
  if (odd != SHMEM_TEAM_INVALID) {
    ASSERT_EQ(shmem_int_max_reduce(odd, dst, src, 1), 0);
    EXPECT_EQ(read(dst, 1)[0], 2 * (npes() / 2));  // the last odd PE's me() + 1
    ASSERT_EQ(shmem_int_collect(odd, dst, src, 1), 0);
    std::vector<int> want;
    for (int pe = 1; pe < npes(); pe += 2) want.push_back(pe + 1);
    EXPECT_EQ(read(dst, want.size()), want);
  }
  shmem_team_destroy(odd);
  const int shared = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  ASSERT_EQ(shmem_int_sum_reduce(SHMEM_TEAM_SHARED, dst, src, 1), 0);
  int want = 0;
  for (int k = 0; k < shared; ++k) want += shmem_team_translate_pe(SHMEM_TEAM_SHARED, k, SHMEM_TEAM_WORLD) + 1;
  EXPECT_EQ(read(dst, 1)[0], want);
}

// shmem_barrier and the active-set shmem_sync on the even PEs, round after round with one pSync:
// each member puts the round number to the next member of the set, and after the barrier finds the
// previous member's. Rounds alternate between two slots: a member already in round r+1 writes the
// other one, and it cannot reach round r+2 before this PE has read round r. 40 rounds, 8 where PEs
// share a GPU.
TEST(Coll, ActiveSetBarrierAndSync) {
  const int n = npes(), evens = (n + 1) / 2;
  pool p;
  long* psync = p.take<long>(SHMEM_BARRIER_SYNC_SIZE);
  int64_t* box = p.take<int64_t>(2 * n);
  write(psync, std::vector<long>(SHMEM_BARRIER_SYNC_SIZE, SHMEM_SYNC_VALUE));
  write(box, std::vector<int64_t>(2 * n, -1));
  shmem_barrier_all();
  if (me() % 2 == 0) {
    const int k = me() / 2, next = 2 * ((k + 1) % evens), prev = 2 * ((k + evens - 1) % evens);
    for (int r = 0; r < (lean() ? 8 : 40); ++r) {
      const int64_t v = r * 1000 + me();
      shmem_int64_p(box + 2 * me() + r % 2, v, next);
      if (r % 2)
        shmem_sync(0, 1, evens, psync);  // host puts are complete on return: no quiet needed
      else
        shmem_barrier(0, 1, evens, psync);
      ASSERT_EQ(read(box + 2 * prev + r % 2, 1)[0], r * 1000 + prev) << "round " << r;
    }
    shmem_barrier(0, 1, evens, psync);
    EXPECT_EQ(read(psync, SHMEM_BARRIER_SYNC_SIZE), std::vector<long>(SHMEM_BARRIER_SYNC_SIZE, SHMEM_SYNC_VALUE));
  }
  shmem_barrier_all();
}

// The type-generic names (C11 _Generic in the spec, templates here) reach the typed routines,
// typedefs included (int64_t and long are one type).
TEST(Coll, GenericNames) {
  const int n = npes();
  pool p;
  long* l = p.take<long>(2 * n);
  int64_t* dl = p.take<int64_t>(2 * n);
  std::complex<double>* c = p.take<std::complex<double>>(1);
  std::complex<double>* dc = p.take<std::complex<double>>(1);
  double* d = p.take<double>(n);
  write(l, std::vector<long>(2 * n, me() + 1));
  write(c, std::vector<std::complex<double>>{{1.0, (double)me()}});
  write(d, std::vector<double>(n, 0.0));
  shmem_barrier_all();
  ASSERT_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, dl, l, 2), 0);
  EXPECT_EQ(read(dl, 2), std::vector<int64_t>(2, (int64_t)n * (n + 1) / 2));
  ASSERT_EQ(shmem_max_reduce(SHMEM_TEAM_WORLD, l, l, 1), 0);  // in place
  EXPECT_EQ(read(l, 1)[0], n);
  ASSERT_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, dc, c, 1), 0);
  EXPECT_EQ(read(dc, 1)[0], std::complex<double>(n, n * (n - 1) / 2.0));
  const double mine = me() * 2.5;
  write(d + me(), std::vector<double>{mine});
  shmem_barrier_all();
  ASSERT_EQ(shmem_fcollect(SHMEM_TEAM_WORLD, d, d + me(), 0), 0);  // no elements: a sync only
  ASSERT_EQ(shmem_broadcast(SHMEM_TEAM_WORLD, dl, dl, 2, 0), 0);
  ASSERT_EQ(shmem_alltoall(SHMEM_TEAM_WORLD, l + n, l, 1), 0);
  std::vector<long> got = read(l + n, n), want(n);
  for (int pe = 0; pe < n; ++pe) want[pe] = me() == 0 ? n : pe + 1;  // element 0 holds the in-place max
  EXPECT_EQ(got, want);
}

// long double's data movers (host code only: the type has no GPU form), typed and generic: each
// moves values a double cannot hold, and each PE checks what landed in its dest.
TEST(Coll, LongDoubleMovers) {
  typedef long double LD;
  ASSERT_TRUE(ld_beyond_double());
  const int n = npes();
  const size_t ne = 3;
  pool p;
  LD* src = p.take<LD>(3 * ne * n);
  LD* dst = p.take<LD>(2 * ne * n);
  // src[i] = ld_value(me, i): PE j's element i is ld_value(j, i) wherever a mover takes it from.
  std::vector<LD> mine(3 * ne * n);
  for (size_t i = 0; i < mine.size(); ++i) mine[i] = ld_value(me(), i);
  write(src, mine);
  auto run = [&](const char* what, std::function<int()> call, const std::vector<LD>& want) {
    write(dst, std::vector<LD>(2 * ne * n, -1.0L));
    shmem_barrier_all();  // every dest is ready before any PE moves into it
    ASSERT_EQ(call(), 0) << what;
    EXPECT_EQ(read(dst, want.size()), want) << what;
  };
  const int root = n - 1;
  std::vector<LD> want(ne);
  for (size_t e = 0; e < ne; ++e) want[e] = ld_value(root, e);
  run("longdouble_broadcast", [&] { return shmem_longdouble_broadcast(SHMEM_TEAM_WORLD, dst, src, ne, root); }, want);
  run("broadcast", [&] { return shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, ne, root); }, want);
  // collect: PE j contributes j + 1 elements.
  want.clear();
  for (int j = 0; j < n; ++j)
    for (int e = 0; e <= j; ++e) want.push_back(ld_value(j, e));
  run("longdouble_collect", [&] { return shmem_longdouble_collect(SHMEM_TEAM_WORLD, dst, src, me() + 1); }, want);
  run("collect", [&] { return shmem_collect(SHMEM_TEAM_WORLD, dst, src, me() + 1); }, want);
  want.clear();
  for (int j = 0; j < n; ++j)
    for (size_t e = 0; e < ne; ++e) want.push_back(ld_value(j, e));
  run("longdouble_fcollect", [&] { return shmem_longdouble_fcollect(SHMEM_TEAM_WORLD, dst, src, ne); }, want);
  run("fcollect", [&] { return shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, ne); }, want);
  // alltoall: PE j's block for me is its src[me * ne + e].
  want.clear();
  for (int j = 0; j < n; ++j)
    for (size_t e = 0; e < ne; ++e) want.push_back(ld_value(j, me() * ne + e));
  run("longdouble_alltoall", [&] { return shmem_longdouble_alltoall(SHMEM_TEAM_WORLD, dst, src, ne); }, want);
  run("alltoall", [&] { return shmem_alltoall(SHMEM_TEAM_WORLD, dst, src, ne); }, want);
  // alltoalls, dest stride 2 and source stride 3: element e for PE me sits at src[(me * ne + e) * 3],
  // and lands at dst[(j * ne + e) * 2]; the gaps keep their -1.
  want.assign(2 * ne * n, -1.0L);
  for (int j = 0; j < n; ++j)
    for (size_t e = 0; e < ne; ++e) want[(j * ne + e) * 2] = ld_value(j, (me() * ne + e) * 3);
  run("longdouble_alltoalls", [&] { return shmem_longdouble_alltoalls(SHMEM_TEAM_WORLD, dst, src, 2, 3, ne); }, want);
  run("alltoalls", [&] { return shmem_alltoalls(SHMEM_TEAM_WORLD, dst, src, 2, 3, ne); }, want);
  // The generic reductions reach long double's (host-only) typed ones; max is exact.
  want.clear();
  for (size_t e = 0; e < ne; ++e) want.push_back(ld_value(n - 1, e));
  run("max_reduce", [&] { return shmem_max_reduce(SHMEM_TEAM_WORLD, dst, src, ne); }, want);
}
