// Device (in-kernel) teams and collectives, the kernel side of test_coll and test_team: team queries
// in kernels against the host's answers; shmem_team_sync at every scope as a real barrier; every
// routine (broadcast, collect, fcollect, alltoall, alltoalls, their *mem forms and the reductions)
// at thread, wave and work-group scope on the world, an every-other-PE split, both axes of a 2-D
// split and the reversed world, with every RMA type and every reduction of the 1.5 table (long
// double aside: no GPU has it) at thread scope and a representative set at wave and work-group
// scope, in place and not; sizes on both sides of the low-latency protocol (1 element, a few hundred
// bytes, 64 KiB and more per PE); 50 back-to-back iterations mixing broadcasts from changing roots,
// reductions and fcollects with the values changing each time; three work-groups of one PE running
// collectives on three different teams at once; and host and device collectives on one team in turn.
//
// Kernels call a collective from exactly one thread (thread scope), from the first wave (wave scope)
// or from the whole work-group of 64 threads (wg scope). A routine's dest must be ready on every
// member before any member calls it, and the spec gives no ordering between members after it, so
// each call of a launch writes a dest of its own (a pool carved the same way on every member).
//
// Where PEs share a GPU (pes_share_gpu) every collective waits for its partners' kernels to get a
// time slice, milliseconds a call, so the tests run fewer calls there (lean()): every routine still
// at every scope and on every team, but the move routines on two types a team (the *mem form and
// one of the representative types, a different one for each team and scope) and an eighth of the
// representative reductions a team; the sizes test on the world and one other team, the
// back-to-back test on one team a scope; fewer sizes, rounds and iterations (each test says
// which). Each path the full run takes is still taken somewhere; the repetition is what goes.
// The every-team tests (team sync, every routine, sizes) run their teams' calls in one launch, a
// work-group per team, each team's calls in the order they had alone: one launch and one pair of
// barriers per scope, and the members' waits on each other overlap across the teams.
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <memory>
#include <string>

#include <unistd.h>

#include "coll_device_jobs.h"
#include "gio_test.h"

using namespace giotest;
using namespace colljobs;

namespace {

const char* const kScopeName[3] = {"thread", "wave", "wg"};
const unsigned kThreads = 64;

// Fewer calls where PEs share a GPU (the header says why).
bool lean() {
  static const bool l = pes_share_gpu();
  return l;
}
// The representative types (the wave and wg scopes' set), *mem included.
int representative_types() {
  int n = 0;
  for (const ty_info& t : kTy) n += t.sub;
  return n;
}

// The same call by scope, for the kernels below that check their results themselves.
#define SCOPED(S, NAME, ARGS) (S == THREAD ? shmem_##NAME ARGS : S == WAVE ? shmemx_##NAME##_wave ARGS : shmemx_##NAME##_wg ARGS)

// ---- host side: the pool, teams, expected values -----------------------------------------------------

// Every buffer comes from one symmetric block allocated once (collectively, by the first test on
// every PE) and carved the same way on every member of the team that uses it.
struct pool {
  static constexpr size_t kCap = 12u << 20;  // three parts of 4 MiB (SmallAndLargeSizes: 2.9 at 4 PEs)
  uint8_t* mem;
  size_t used, end;
  // Part `part` of `parts` equal parts (the plans of one launch each take one: the same place on
  // every PE, whatever the sizes of the teams the plans before it used).
  explicit pool(unsigned part = 0, unsigned parts = 1) : used(kCap / parts * part), end(kCap / parts * (part + 1)) {
    static uint8_t* block = (uint8_t*)shmem_calloc(kCap, 1);  // freed by shmem_finalize
    mem = block;
  }
  template <typename T = uint8_t>
  T* take(size_t n) {
    used = (used + 63) / 64 * 64;
    T* p = (T*)(mem + used);
    used += n * sizeof(T);
    EXPECT_LE(used, end) << "test pool too small";
    return p;
  }
};

void put_bytes(void* sym_dst, const std::vector<uint8_t>& v) {
  ASSERT_EQ(hipMemcpy(sym_dst, v.data(), v.size(), hipMemcpyHostToDevice), hipSuccess);
}
std::vector<uint8_t> get_bytes(const void* src, size_t n) {
  std::vector<uint8_t> v(n);
  EXPECT_EQ(hipMemcpy(v.data(), src, n, hipMemcpyDeviceToHost), hipSuccess);
  return v;
}
template <typename T>
void write(T* sym_dst, const std::vector<T>& v) {
  ASSERT_EQ(hipMemcpy(sym_dst, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
}
template <typename T>
std::vector<T> read(const T* src, size_t n) {
  std::vector<T> v(n);
  EXPECT_EQ(hipMemcpy(v.data(), src, n * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
  return v;
}

// The teams the tests run on: the world, SHMEM_TEAM_SHARED, every other PE (the evens on even PEs,
// the odds on odd ones), the two axes of a 2-D split with xrange 2, and the world backwards.
struct team_set {
  shmem_team_t evens = SHMEM_TEAM_INVALID, odds = SHMEM_TEAM_INVALID, row = SHMEM_TEAM_INVALID,
               col = SHMEM_TEAM_INVALID, rev = SHMEM_TEAM_INVALID;
  team_set() {
    const int n = npes();
    EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens), 0);
    if (n > 1) {
      EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, nullptr, 0, &odds), 0);
    }
    EXPECT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &row, nullptr, 0, &col), 0);
    EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &rev), 0);
  }
  ~team_set() {
    for (shmem_team_t t : {evens, odds, row, col, rev}) shmem_team_destroy(t);
  }
  shmem_team_t parity() const { return me() % 2 ? odds : evens; }
  std::vector<std::pair<const char*, shmem_team_t>> all() const {
    return {{"world", SHMEM_TEAM_WORLD}, {"shared", SHMEM_TEAM_SHARED}, {"every_other", parity()},
            {"row", row},                {"column", col},                {"reversed", rev}};
  }
};

// A team as this PE sees it: its index k, size m and the world PE of each member.
struct team_view {
  shmem_team_t t;
  int k, m;
  std::vector<int> world;
  explicit team_view(shmem_team_t team) : t(team), k(shmem_team_my_pe(team)), m(shmem_team_n_pes(team)) {
    for (int i = 0; i < m; ++i) world.push_back(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
  }
};

// The test's reduction operators and the value team member k contributes at index i (small, so no
// sum or product of 4 members overflows a signed char); as in test_coll.
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
    return std::is_same<Op, r_sum>::value ? std::complex<F>(F(k + 1), F(i % 4))
                                          : std::complex<F>(F(1 + (k + i) % 2), F((k * i) % 2));
  }
};

// Equality: exact for integers, within a relative 1e-5 for floating and complex values.
template <typename T>
bool same(T a, T b) { return a == b; }
template <typename F>
bool near(F a, F b) { return std::abs(a - b) <= F(1e-5) * std::max(F(1), std::abs(b)); }
template <> bool same(float a, float b) { return near(a, b); }
template <> bool same(double a, double b) { return near(a, b); }
template <> bool same(std::complex<float> a, std::complex<float> b) { return near(a.real(), b.real()) && near(a.imag(), b.imag()); }
template <> bool same(std::complex<double> a, std::complex<double> b) { return near(a.real(), b.real()) && near(a.imag(), b.imag()); }

template <typename T>
std::string show(T v) { return std::to_string(+v); }
template <typename F>
std::string show(std::complex<F> v) { return "(" + std::to_string(v.real()) + ", " + std::to_string(v.imag()) + ")"; }

template <typename T>
std::vector<uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  memcpy(b.data(), v.data(), b.size());
  return b;
}

// A reduction's host side: its contribution, its expected result, and the comparison.
struct red_info {
  const char* name;
  bool sub;
  size_t size;
  std::vector<uint8_t> (*contribution)(int k, size_t n);
  std::vector<uint8_t> (*expected)(int members, size_t n);
  std::vector<uint8_t> (*poison)(size_t n);
  // "" when `got` (n elements) matches `want`, else where and how it differs.
  std::string (*compare)(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, size_t n);
};
template <typename T, typename Op>
std::vector<uint8_t> red_contribution(int k, size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = value<T, Op>::at(k, i);
  return as_bytes(v);
}
template <typename T, typename Op>
std::vector<uint8_t> red_expected(int members, size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = value<T, Op>::at(0, i);
    for (int k = 1; k < members; ++k) v[i] = Op::f(v[i], value<T, Op>::at(k, i));
  }
  return as_bytes(v);
}
template <typename T>
std::vector<uint8_t> red_poison(size_t n) { return as_bytes(std::vector<T>(n, T(77))); }
template <typename T>
std::string red_compare(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, size_t n) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    T g, w;
    memcpy(&g, got.data() + i * sizeof(T), sizeof(T));
    memcpy(&w, want.data() + i * sizeof(T), sizeof(T));
    if (!same(g, w) && !bad++) first = i;
  }
  if (!bad) return "";
  T g, w;
  memcpy(&g, got.data() + first * sizeof(T), sizeof(T));
  memcpy(&w, want.data() + first * sizeof(T), sizeof(T));
  return std::to_string(bad) + " of " + std::to_string(n) + " elements wrong, first at " + std::to_string(first) +
         ": got " + show(g) + ", want " + show(w);
}
#define RED_INFO(OP, NAME, T)                                                                          \
  DT_UNLESS_LD(NAME, {#NAME "_" #OP "_reduce", DT_IS_SUB(NAME) == 1, sizeof(T), &red_contribution<T, r_##OP>, \
                      &red_expected<T, r_##OP>, &red_poison<T>, &red_compare<T>}, )
const red_info kRed[R_COUNT] = {GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_INFO)};
#undef RED_INFO

std::string routine_name(int scope, const char* base) {
  return std::string(scope == THREAD ? "shmem_" : "shmemx_") + base + (scope == WAVE ? "_wave" : scope == WG ? "_wg" : "");
}

// "3 of 40 bytes wrong, first at 5: got 0, want 17", or "" when they match.
std::string compare_bytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && !bad++) first = i;
  if (!bad) return "";
  return std::to_string(bad) + " of " + std::to_string(want.size()) + " bytes wrong, first at " +
         std::to_string(first) + ": got " + std::to_string(got[first]) + ", want " + std::to_string(want[first]);
}

// A list of collective calls on one team for one kernel launch, with their sources written and
// their dests poisoned now, and what each dest must hold afterwards.
class plan {
 public:
  // Each plan's calls get salts of their own, so no dest can hold a right-looking value left by an
  // earlier plan (every PE makes the same plans in the same order).
  // `part` of `parts`: the plan's part of the pool, where a launch runs several (run_together).
  plan(shmem_team_t team, std::string label, unsigned part = 0, unsigned parts = 1)
      : v_(team), label_(std::move(label)), p_(part, parts) {
    static unsigned plans = 0;
    salt_ = 37 * ++plans;
  }
  const team_view& view() const { return v_; }

  // Byte i of this PE's source for the call with salt s (never 0; a dest is poisoned with 0).
  std::vector<uint8_t> src_bytes(int world_pe, size_t off, size_t n, unsigned salt) const {
    std::vector<uint8_t> b(n);
    for (size_t i = 0; i < n; ++i) b[i] = pattern(world_pe, off + i, salt);
    return b;
  }

  void broadcast(int type, size_t n, int root) {
    const size_t bytes = n * kTy[type].size;
    const unsigned salt = next_salt();
    uint8_t* s = p_.take(bytes);
    uint8_t* d = p_.take(bytes + kGuard);
    put_bytes(s, src_bytes(me(), 0, bytes, salt));
    put_bytes(d, std::vector<uint8_t>(bytes + kGuard, 0));
    add({BCAST, type, d, s, n, root, 0, 0}, name(type, "broadcast") + "(n=" + std::to_string(n) + ", root=" + std::to_string(root) + ")",
        d, src_bytes(v_.world[root], 0, bytes, salt));
  }
  // dest == source on every member: the root's buffer lands in everyone's (the root's unchanged).
  void broadcast_in_place(int type, size_t n, int root) {
    const size_t bytes = n * kTy[type].size;
    const unsigned salt = next_salt();
    uint8_t* b = p_.take(bytes + kGuard);
    std::vector<uint8_t> mine = src_bytes(me(), 0, bytes, salt);
    mine.resize(bytes + kGuard, 0);
    put_bytes(b, mine);
    add({BCAST, type, b, b, n, root, 0, 0},
        name(type, "broadcast") + "(n=" + std::to_string(n) + ", root=" + std::to_string(root) + ", in place)", b,
        src_bytes(v_.world[root], 0, bytes, salt));
  }
  // Member j contributes count(j) elements, at most `most`.
  void collect(int type, size_t most, const std::function<size_t(int)>& count) {
    const size_t es = kTy[type].size;
    const unsigned salt = next_salt();
    uint8_t* s = p_.take(most * es);
    uint8_t* d = p_.take(most * es * v_.m + kGuard);
    std::vector<uint8_t> want;
    for (int j = 0; j < v_.m; ++j) {
      const std::vector<uint8_t> b = src_bytes(v_.world[j], 0, count(j) * es, salt);
      want.insert(want.end(), b.begin(), b.end());
    }
    put_bytes(s, src_bytes(me(), 0, most * es, salt));
    put_bytes(d, std::vector<uint8_t>(most * es * v_.m + kGuard, 0));
    add({COLLECT, type, d, s, count(v_.k), 0, 0, 0}, name(type, "collect") + "(n=" + std::to_string(count(v_.k)) + ")", d, want);
  }
  void fcollect(int type, size_t n) {
    const size_t bytes = n * kTy[type].size;
    const unsigned salt = next_salt();
    uint8_t* s = p_.take(bytes);
    uint8_t* d = p_.take(bytes * v_.m + kGuard);
    std::vector<uint8_t> want;
    for (int j = 0; j < v_.m; ++j) {
      const std::vector<uint8_t> b = src_bytes(v_.world[j], 0, bytes, salt);
      want.insert(want.end(), b.begin(), b.end());
    }
    put_bytes(s, src_bytes(me(), 0, bytes, salt));
    put_bytes(d, std::vector<uint8_t>(bytes * v_.m + kGuard, 0));
    add({FCOLLECT, type, d, s, n, 0, 0, 0}, name(type, "fcollect") + "(n=" + std::to_string(n) + ")", d, want);
  }
  // Block j of a member's source is for member j: dest block j holds block k of member j's source.
  void alltoall(int type, size_t n) {
    const size_t bytes = n * kTy[type].size;
    const unsigned salt = next_salt();
    uint8_t* s = p_.take(bytes * v_.m);
    uint8_t* d = p_.take(bytes * v_.m + kGuard);
    std::vector<uint8_t> want;
    for (int j = 0; j < v_.m; ++j) {
      const std::vector<uint8_t> b = src_bytes(v_.world[j], v_.k * bytes, bytes, salt);
      want.insert(want.end(), b.begin(), b.end());
    }
    put_bytes(s, src_bytes(me(), 0, bytes * v_.m, salt));
    put_bytes(d, std::vector<uint8_t>(bytes * v_.m + kGuard, 0));
    add({ALLTOALL, type, d, s, n, 0, 0, 0}, name(type, "alltoall") + "(n=" + std::to_string(n) + ")", d, want);
  }
  // Element e of block j (logical element j * n + e) sits at (j * n + e) * sst in the source and
  // lands at (k * n + e) * dst of member j's dest; the gaps in dest keep their 0.
  void alltoalls(int type, size_t n, ptrdiff_t dst, ptrdiff_t sst) {
    const size_t es = kTy[type].size, count = n * v_.m;
    const unsigned salt = next_salt();
    uint8_t* s = p_.take(count * sst * es);
    uint8_t* d = p_.take(count * dst * es + kGuard);
    std::vector<uint8_t> src(count * sst * es, 0xEE), want(count * dst * es, 0);
    for (size_t l = 0; l < count; ++l) {
      const std::vector<uint8_t> mine = src_bytes(me(), l * es, es, salt);
      std::copy(mine.begin(), mine.end(), src.begin() + l * sst * es);
    }
    for (int j = 0; j < v_.m; ++j)
      for (size_t e = 0; e < n; ++e) {
        const std::vector<uint8_t> theirs = src_bytes(v_.world[j], (v_.k * n + e) * es, es, salt);
        std::copy(theirs.begin(), theirs.end(), want.begin() + (j * n + e) * dst * es);
      }
    put_bytes(s, src);
    put_bytes(d, std::vector<uint8_t>(count * dst * es + kGuard, 0));
    add({ALLTOALLS, type, d, s, n, 0, dst, sst},
        name(type, "alltoalls") + "(n=" + std::to_string(n) + ", dst=" + std::to_string(dst) + ", sst=" + std::to_string(sst) + ")",
        d, want);
  }
  // A reduction of n elements, in place (dest == source) or into a dest with one guard element.
  void reduce(int id, size_t n, bool in_place) {
    const red_info& r = kRed[id];
    const std::vector<uint8_t> mine = r.contribution(v_.k, n), want = r.expected(v_.m, n);
    uint8_t* s = p_.take(n * r.size);
    uint8_t* d = in_place ? s : p_.take((n + 1) * r.size);
    put_bytes(s, mine);
    if (!in_place) put_bytes(d, r.poison(n + 1));
    const std::string what = routine_name(scope_, r.name) + "(n=" + std::to_string(n) + (in_place ? ", in place)" : ")");
    jobs_.push_back({REDUCE, id, d, s, n, 0, 0, 0});
    names_.push_back(what);
    checks_.push_back([=, &r] {
      const std::vector<uint8_t> got = get_bytes(d, (n + !in_place) * r.size);
      const std::string diff = r.compare(got, want, n);
      EXPECT_EQ(diff, "") << where() << what;
      if (!in_place) {
        EXPECT_EQ(r.compare(std::vector<uint8_t>(got.begin() + n * r.size, got.end()), r.poison(1), 1), "")
            << where() << what << ": wrote past the end of dest";
        EXPECT_EQ(r.compare(get_bytes(s, n * r.size), mine, n), "") << where() << what << ": source changed";
      }
    });
  }
  void sync(int variant = 0) {
    jobs_.push_back({SYNC, 0, nullptr, nullptr, 0, variant, 0, 0});
    names_.push_back(scope_ == THREAD ? (variant ? "shmem_sync" : "shmem_team_sync") : routine_name(scope_, "team_sync"));
    checks_.push_back([] {});
  }

  // The names above depend on the scope; set it before adding calls.
  void set_scope(int scope) { scope_ = scope; }

  // Launch the calls at `scope` in one kernel on every member, then check every dest.
  // `threads` per work-group, the caller first or last of them (run_jobs); `delay_us` holds this
  // PE back before the launch.
  void run(unsigned threads = kThreads, bool last = false, unsigned delay_us = 0) {
    run_together({this}, threads, last, delay_us);
  }

  // The plans' calls in one launch, a work-group per plan (each on its own team, all at the same
  // scope, each built after the one before it), then every dest checked. Their waits for the other
  // members overlap: where PEs share a GPU each is a wait for time slices.
  static void run_together(const std::vector<plan*>& ps, unsigned threads = kThreads, bool last = false,
                           unsigned delay_us = 0) {
    ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
    std::vector<job> jobs;
    std::vector<shmem_team_t> teams;
    std::vector<int> first;
    for (const plan* p : ps) {
      first.push_back((int)jobs.size());
      teams.push_back(p->v_.t);
      jobs.insert(jobs.end(), p->jobs_.begin(), p->jobs_.end());
    }
    first.push_back((int)jobs.size());
    dbuf<job> dj(jobs.size());
    dj.write(jobs);
    dbuf<shmem_team_t> dteams(teams.size());
    dteams.write(teams);
    dbuf<int> dfirst(first.size());
    dfirst.write(first);
    dbuf<int> bad(jobs.size());
    shmem_barrier_all();  // every member's dests are ready before any member writes them
    if (delay_us) usleep(delay_us);
    const unsigned groups = (unsigned)ps.size();
    switch (ps[0]->scope_) {
      case THREAD: launch_jobs<THREAD>(groups, threads, dteams.get(), dj.get(), dfirst.get(), bad.get(), last); break;
      case WAVE: launch_jobs<WAVE>(groups, threads, dteams.get(), dj.get(), dfirst.get(), bad.get(), last); break;
      default: launch_jobs<WG>(groups, threads, dteams.get(), dj.get(), dfirst.get(), bad.get(), last); break;
    }
    ASSERT_TRUE(synced()) << ps[0]->where();
    const std::vector<int> rc = bad.read();
    for (size_t b = 0; b < ps.size(); ++b) {
      plan& p = *ps[b];
      for (size_t i = 0; i < p.jobs_.size(); ++i) {
        EXPECT_EQ(rc[first[b] + i], 0) << p.where() << p.names_[i] << " returned nonzero (in that many threads)";
        p.checks_[i]();
        if (::testing::Test::HasFailure() && ++p.reported_ > 20) break;  // enough to go on
      }
    }
    shmem_barrier_all();
  }

 private:
  static constexpr size_t kGuard = 8;
  unsigned next_salt() { return ++salt_; }
  std::string where() const { return std::string("[") + kScopeName[scope_] + ", " + label_ + "] "; }
  std::string name(int type, const char* routine) const {
    return type == TY_MEM ? routine_name(scope_, (std::string(routine) + "mem").c_str())
                          : routine_name(scope_, (std::string(kTy[type].name) + "_" + routine).c_str());
  }
  // A byte-checked call: dest must hold `want` followed by kGuard untouched (0) bytes.
  void add(const job& j, const std::string& what, const uint8_t* d, const std::vector<uint8_t>& want) {
    jobs_.push_back(j);
    names_.push_back(what);
    checks_.push_back([=] {
      std::vector<uint8_t> w = want;
      w.resize(want.size() + kGuard, 0);
      EXPECT_EQ(compare_bytes(get_bytes(d, w.size()), w), "") << where() << what;
    });
  }

  team_view v_;
  std::string label_;
  pool p_;
  int scope_ = THREAD;
  unsigned salt_ = 0;
  int reported_ = 0;
  std::vector<job> jobs_;
  std::vector<std::string> names_;
  std::vector<std::function<void()>> checks_;
};

class DeviceColl : public ::testing::TestWithParam<int> {};

}  // namespace

// ---- team queries in kernels ------------------------------------------------------------------------

namespace {
// Per team: my_pe, n_pes, translate_pe(team, i, WORLD) for i in -1..n, translate_pe(WORLD, w, team)
// for every world PE w, translate_pe(team, i, next team of the list) for i in 0..n-1; then the four
// answers about SHMEM_TEAM_INVALID.
GIO_HOST_DEVICE_INLINE int query_stride(int n) { return 2 + (n + 2) + n + n; }

__global__ void query_kernel(const shmem_team_t* teams, int nteams, int* out, const int* want,
                             unsigned long long* bad) {
  const int n = shmem_n_pes(), per = query_stride(n);
  const bool writer = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long wrong = 0;
  auto put = [&](int idx, int v) {
    if (writer) out[idx] = v;
    wrong += v != want[idx];
  };
  for (int t = 0; t < nteams; ++t) {
    const shmem_team_t team = teams[t], other = teams[(t + 1) % nteams];
    const int base = t * per;
    put(base + 0, shmem_team_my_pe(team));
    put(base + 1, shmem_team_n_pes(team));
    for (int i = -1; i <= n; ++i) put(base + 2 + (i + 1), shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
    for (int w = 0; w < n; ++w) put(base + 2 + (n + 2) + w, shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, team));
    for (int i = 0; i < n; ++i) put(base + 2 + (n + 2) + n + i, shmem_team_translate_pe(team, i, other));
  }
  const int tail = nteams * per;
  put(tail + 0, shmem_team_my_pe(SHMEM_TEAM_INVALID));
  put(tail + 1, shmem_team_n_pes(SHMEM_TEAM_INVALID));
  put(tail + 2, shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD));
  put(tail + 3, shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID));
  if (wrong) atomicAdd(bad, wrong);
}
}  // namespace

// Every query a kernel can make, from every thread of two work-groups, against the host's answers
// on the world, SHMEM_TEAM_SHARED, every-other-PE, both axes of a 2-D split, the reversed world and
// a split of a split (the odd members of the reversed world).
TEST(DeviceTeam, QueriesMatchTheHost) {
  const int n = npes();
  team_set ts;
  shmem_team_t sub = SHMEM_TEAM_INVALID;
  if (n > 1) {
    ASSERT_EQ(shmem_team_split_strided(ts.rev, 1, 2, n / 2, nullptr, 0, &sub), 0);
  }
  std::vector<shmem_team_t> teams = {SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, ts.parity(), ts.row, ts.col, ts.rev};
  if (sub != SHMEM_TEAM_INVALID) teams.push_back(sub);
  const int per = query_stride(n), total = (int)teams.size() * per + 4;
  std::vector<int> want(total);
  for (size_t t = 0; t < teams.size(); ++t) {
    const shmem_team_t team = teams[t], other = teams[(t + 1) % teams.size()];
    int* w = want.data() + t * per;
    w[0] = shmem_team_my_pe(team);
    w[1] = shmem_team_n_pes(team);
    for (int i = -1; i <= n; ++i) w[2 + (i + 1)] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
    for (int pe = 0; pe < n; ++pe) w[2 + (n + 2) + pe] = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, team);
    for (int i = 0; i < n; ++i) w[2 + (n + 2) + n + i] = shmem_team_translate_pe(team, i, other);
  }
  want[total - 4] = want[total - 3] = want[total - 2] = want[total - 1] = -1;
  // The host's answers are what test_team checks; a few of them again, so that a wrong host answer
  // cannot make a wrong kernel answer pass.
  EXPECT_EQ(want[0], me());
  EXPECT_EQ(want[1], n);
  ASSERT_GE(want[per], 0) << "SHMEM_TEAM_SHARED: my_pe";
  EXPECT_EQ(want[per + 2 + 1 + want[per]], me()) << "SHMEM_TEAM_SHARED: translate_pe of this PE's index";
  dbuf<shmem_team_t> dteams(teams.size());
  dteams.write(teams);
  dbuf<int> dwant(total), out(total);
  dwant.write(want);
  out.fill_bytes(0x7f);
  dbuf<unsigned long long> bad(1);
  hipLaunchKernelGGL(query_kernel, dim3(2), dim3(kThreads), 0, 0, dteams.get(), (int)teams.size(), out.get(),
                     dwant.get(), bad.get());
  ASSERT_TRUE(synced());
  const std::vector<int> got = out.read();
  for (int i = 0; i < total; ++i)
    EXPECT_EQ(got[i], want[i]) << "answer " << i % per << " about team " << (i < total - 4 ? i / per : -1)
                               << " (handle " << (i < total - 4 ? teams[i / per] : SHMEM_TEAM_INVALID) << ")";
  EXPECT_EQ(bad.read()[0], 0ull) << "answers from other threads than the first differ from the host's";
  shmem_team_destroy(sub);
}

// ---- team sync: a barrier over the team's members ----------------------------------------------------

namespace {
struct verdict {
  unsigned long long bad;
  unsigned first_bad_round;
};

// Each round every member adds 1 to its own slot of parity r % 2 on every other member (world PEs
// found in the kernel through translate_pe), syncs the team, and finds that all m - 1 other members'
// adds of this round arrived. A member already in round r + 1 adds to the other parity, and cannot
// reach round r + 2 before this one has checked and entered sync r + 1. Work-group b does this on
// teams[b] with counters and verdict of its own: every team at once.
template <int S>
__global__ void sync_rounds(const shmem_team_t* teams, uint64_t* counters, int rounds, verdict* verdicts) {
  const shmem_team_t team = teams[blockIdx.x];
  uint64_t* cnt = counters + blockIdx.x * 2 * shmem_n_pes();
  verdict* out = verdicts + blockIdx.x;
  unsigned parts = S == THREAD ? 1 : S == WAVE ? warpSize : blockDim.x;
  const unsigned t = threadIdx.x;
  if (t >= parts) return;
  const int k = shmem_team_my_pe(team), m = shmem_team_n_pes(team), n = shmem_n_pes();
  for (int r = 0; r < rounds; ++r) {
    const int q = r & 1;
    for (int j = 1 + (int)t; j < m; j += (int)parts) {
      const int pe = shmem_team_translate_pe(team, (k + j) % m, SHMEM_TEAM_WORLD);
      (void)shmem_uint64_atomic_fetch_add(cnt + q * n + k, 1, pe);  // fetching: complete on return
    }
    int rc;
    if (S == THREAD)
      rc = r % 3 == 2 ? shmem_sync(team) : shmem_team_sync(team);
    else
      rc = SCOPED(S, team_sync, (team));
    const uint64_t want = (uint64_t)(r + 2 - q) / 2;
    unsigned long long bad = rc != 0;
    for (int j = (int)t; j < m; j += (int)parts)
      if (j != k && *(volatile uint64_t*)(cnt + q * n + j) != want) ++bad;
    if (bad) {
      atomicAdd(&out->bad, bad);
      atomicMin(&out->first_bad_round, (unsigned)r);
    }
  }
}
}  // namespace

TEST_P(DeviceColl, TeamSyncIsABarrier) {
  // 4 rounds where PEs share a GPU: both parities of the counters twice, and shmem_sync in round 2.
  const int scope = GetParam(), n = npes(), rounds = lean() ? 4 : 24;
  team_set ts;
  const auto all = ts.all();
  const unsigned k = (unsigned)all.size();
  std::vector<shmem_team_t> teams;
  for (const auto& t : all) teams.push_back(t.second);
  dbuf<shmem_team_t> dteams(k);
  dteams.write(teams);
  pool p;
  uint64_t* cnt = p.take<uint64_t>(2 * n * k);
  write(cnt, std::vector<uint64_t>(2 * n * k, 0));
  dbuf<verdict> out(k);
  out.write(std::vector<verdict>(k, verdict{0, ~0u}));
  shmem_barrier_all();
  switch (scope) {
    case THREAD: hipLaunchKernelGGL(sync_rounds<THREAD>, dim3(k), dim3(kThreads), 0, 0, dteams.get(), cnt, rounds, out.get()); break;
    case WAVE: hipLaunchKernelGGL(sync_rounds<WAVE>, dim3(k), dim3(kThreads), 0, 0, dteams.get(), cnt, rounds, out.get()); break;
    default: hipLaunchKernelGGL(sync_rounds<WG>, dim3(k), dim3(kThreads), 0, 0, dteams.get(), cnt, rounds, out.get()); break;
  }
  ASSERT_TRUE(synced());
  const std::vector<verdict> v = out.read();
  for (unsigned b = 0; b < k; ++b)
    EXPECT_EQ(v[b].bad, 0ull) << all[b].first << ": missing adds (or a nonzero return) after a sync, first in round "
                              << v[b].first_bad_round;
  shmem_barrier_all();
}

// ---- every routine, every team ------------------------------------------------------------------------

// At thread scope on the world: every RMA type of every data-moving routine and every reduction of
// the 1.5 table (13 elements into a dest, 3 in place: fewer than 4 members, so some reduce nothing).
// Everywhere else the representative types (of the reductions, a quarter of them on teams other
// than the world, each team and scope its own quarter). Broadcast roots go round the team; collect counts
// differ per member (0 included); a broadcast and an fcollect of no element are a sync only.
// Where PEs share a GPU: no full set; on each team the *mem forms and one representative type (the
// next one for each team and scope, so the 18 team-scope pairs cover all of them) and an eighth of
// the representative reductions (a different eighth for each team and scope), into a dest and in
// place by turns.
TEST_P(DeviceColl, EveryRoutineOnEveryTeam) {
  const int scope = GetParam();
  team_set ts;
  int team_no = 0;
  std::vector<std::unique_ptr<plan>> plans;
  const auto teams = ts.all();
  for (const auto& t : teams) {
    const bool full = scope == THREAD && t.second == SHMEM_TEAM_WORLD && !lean();
    // The representative reductions all on the world, a quarter of them on each other team (a
    // different quarter by team and scope): 4.6 ms each over gda at 4 PEs on 2 cores. An eighth
    // everywhere where PEs share a GPU.
    const int parts = lean() ? 8 : 4;
    const int part = lean() ? (team_no + 6 * scope) % 8 : t.second == SHMEM_TEAM_WORLD ? -1 : (team_no + scope) % 4;
    // Where PEs share a GPU, the one representative type besides *mem of this team and scope.
    const int pick = (team_no + 6 * scope) % (representative_types() - 1);
    ++team_no;
    plans.push_back(std::make_unique<plan>(t.second, t.first, (unsigned)plans.size(), (unsigned)teams.size()));
    plan& p = *plans.back();
    p.set_scope(scope);
    const int m = p.view().m;
    int i = 0, sub_ty = 0;
    for (int ty = 0; ty < TY_COUNT; ++ty) {
      if (!full && !kTy[ty].sub) continue;
      if (lean() && ty != TY_MEM && sub_ty++ != pick) continue;
      ++i;
      const size_t n = 1 + (ty * 7) % 13;
      p.broadcast(ty, n, (ty + scope) % m);
      p.collect(ty, 3, [ty](int j) { return (size_t)((j + ty) % 3); });
      p.fcollect(ty, 1 + ty % 4);
      p.alltoall(ty, 1 + ty % 3);
      p.alltoalls(ty, 2, 1 + ty % 2, 3);
      if (i % 4 == 0) p.sync(i % 8 == 0);
    }
    if (lean()) p.sync(pick % 2);  // too few types above to reach one
    // No elements: a sync only.
    p.broadcast(TY_MEM, 0, m - 1);
    p.fcollect(TY_int, 0);
    p.broadcast_in_place(TY_long, 3, m - 1);
    p.broadcast_in_place(TY_MEM, 100, 0);
    for (int r = 0, sub = 0, taken = 0; r < R_COUNT; ++r) {
      if (!full && !kRed[r].sub) continue;
      if (part >= 0 && sub++ % parts != part) continue;
      // Where PEs share a GPU, into a dest and in place by turns.
      const bool both = !lean(), into = both || taken % 2 == 0;
      ++taken;
      if (into) p.reduce(r, 13, false);
      if (both || !into) p.reduce(r, 3, true);
    }
  }
  std::vector<plan*> all;
  for (auto& p : plans) all.push_back(p.get());
  plan::run_together(all);
}

// Sizes on both sides of the low-latency protocol: 1 element, a few hundred bytes, 64 KiB and more
// per PE, and around the LL limits; on the world, every other PE and the reversed world.
// Where PEs share a GPU: on the world and one other team (by scope), the LL limits on the world;
// 1, 300 and 64 KiB + 24 bytes; the typed forms of broadcast, fcollect and alltoall left to
// EveryRoutineOnEveryTeam, and of the reductions the int sum and one other by turns.
TEST_P(DeviceColl, SmallAndLargeSizes) {
  const int scope = GetParam();
  team_set ts;
  const std::pair<const char*, shmem_team_t> all_teams[] = {
      {"world", SHMEM_TEAM_WORLD}, {"every_other", ts.parity()}, {"reversed", ts.rev}};
  std::vector<std::pair<const char*, shmem_team_t>> teams(std::begin(all_teams), std::end(all_teams));
  if (lean()) teams = {all_teams[0], all_teams[1 + scope % 2]};
  const std::vector<size_t> sizes =
      lean() ? std::vector<size_t>{1, 300, 65536 + 24} : std::vector<size_t>{1, 8, 300, 65536 + 24};
  std::vector<std::unique_ptr<plan>> plans;
  for (const auto& t : teams) {
    plans.push_back(std::make_unique<plan>(t.second, t.first, (unsigned)plans.size(), (unsigned)teams.size()));
    plan& p = *plans.back();
    p.set_scope(scope);
    const int m = p.view().m;
    int size_no = 0;
    for (size_t bytes : sizes) {
      const int root = (int)(bytes % m), other = size_no++ % 3;
      p.broadcast(TY_MEM, bytes, root);
      if (!lean()) p.broadcast(TY_int, (bytes + 3) / 4, (root + 1) % m);
      p.broadcast_in_place(TY_MEM, bytes, (root + 2) % m);
      p.fcollect(TY_MEM, bytes);
      if (!lean()) p.fcollect(TY_double, (bytes + 7) / 8);
      p.collect(TY_MEM, bytes, [bytes](int j) { return j % 2 ? bytes : bytes / 3; });
      p.alltoall(TY_MEM, bytes);
      if (!lean()) p.alltoall(TY_long, (bytes + 7) / 8);
      // (Over gda and the proxy alltoalls takes a put per element: 64 KiB of them took 10 s.)
      if (bytes < 1000) p.alltoalls(TY_int, (bytes + 3) / 4 / 2 + 1, 2, 1);
      const size_t ints = (bytes + 3) / 4;
      p.reduce(R_sum_int, ints, false);
      if (!lean() || other == 0) p.reduce(R_max_double, (bytes + 7) / 8, true);
      if (!lean() || other == 1) p.reduce(R_xor_uint64, (bytes + 7) / 8, false);
      if (!lean() || other == 2) p.reduce(R_prod_complexd, (bytes + 15) / 16, false);
    }
    // Around the LL limits (GIO_COLL_LL_MAX 1 KiB a message; 2 KiB of LL area a call, 512 B a
    // member at 4 PEs, 1 KiB at 2). Where PEs share a GPU, on the world only.
    for (size_t bytes : {(size_t)512, (size_t)513, (size_t)1024, (size_t)1025}) {
      if (lean() && t.second != SHMEM_TEAM_WORLD) break;
      p.broadcast(TY_MEM, bytes, (int)(bytes % m));
      p.fcollect(TY_MEM, bytes);
      p.alltoall(TY_MEM, bytes);
      p.reduce(R_sum_int, bytes / 4, false);
    }
    p.alltoalls(TY_int, 300, 1, 1);
    p.alltoalls(TY_double, 130, 1, 3);
  }
  std::vector<plan*> all;
  for (auto& p : plans) all.push_back(p.get());
  plan::run_together(all);
}

// Callers other than thread 0 and wave 0: the last thread, the last wave when it is partial (80
// threads: 16 lanes in it on NVIDIA and AMD alike), a work-group of one thread, and of 256; sizes
// on both sides of LL. Where PEs share a GPU both sizes at 80 threads, the large one at 1 and the
// small one at 256.
TEST_P(DeviceColl, OtherCallersAndWorkGroupSizes) {
  const int scope = GetParam();
  for (unsigned threads : {1u, 80u, 256u}) {
    plan p(SHMEM_TEAM_WORLD, "world, " + std::to_string(threads) + " threads, the last calling");
    p.set_scope(scope);
    const int m = p.view().m;
    for (size_t bytes : {(size_t)100, (size_t)40000}) {
      if (lean() && ((threads == 1 && bytes < 1000) || (threads == 256 && bytes > 1000))) continue;
      p.broadcast(TY_MEM, bytes, (int)(threads % m));
      p.fcollect(TY_MEM, bytes / 2);
      p.collect(TY_int, bytes / 8, [bytes](int j) { return j % 2 ? bytes / 8 : bytes / 16; });
      p.alltoall(TY_long, bytes / 8 / m + 1);
      p.reduce(R_sum_int, bytes / 4, false);
      p.reduce(R_min_double, bytes / 8, true);
      p.sync();
    }
    p.run(threads, true);
  }
}

// Teams created, used by LL collectives and destroyed, round after round, each taking the slot the
// last one freed (the lowest free one), with a different member late to each round's launch: the
// slot's LL words and call count must start afresh, or a member would take a word the previous team
// left for this call's number. Where PEs share a GPU each round runs one scope (thread, then wg).
TEST(DeviceTeamLifetime, SlotReusedByNextTeam) {
  const int n = npes();
  shmem_team_t prev_slot = SHMEM_TEAM_INVALID;
  for (int round = 0; round < 4; ++round) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    // The world in order, then backwards, ...: the same members, numbered differently.
    if (round % 2 == 0) {
      ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &t), 0);
    } else {
      ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &t), 0);
    }
    if (round) EXPECT_EQ(t, prev_slot) << "the new team took another slot: this test checks nothing";
    prev_slot = t;
    for (int scope : {THREAD, WG}) {
      if (lean() && scope != (round % 2 ? WG : THREAD)) continue;
      plan p(t, "round " + std::to_string(round));
      p.set_scope(scope);
      const int m = p.view().m;
      // round + 2 LL calls of each kind, so teams end on either half of the LL area.
      for (int c = 0; c < round + 2; ++c) {
        p.fcollect(TY_int, 3);
        p.broadcast(TY_MEM, 24, (round + c) % m);
        p.alltoall(TY_int, 2);
        p.reduce(R_sum_long, 5, false);
      }
      p.run(kThreads, false, me() == round % n ? 30000 : 0);
    }
    shmem_team_destroy(t);
  }
}

// ---- back to back, checked in the kernel --------------------------------------------------------------

namespace {
struct errs {
  unsigned long long bad;
  int first_iter, first_step, first_elem;
  long long got, want;
  // The first wrong step's elements (up to 8), so a failure shows which lanes' elements were wrong.
  int nrow;
  long long row[8];
};
template <typename T = long long>
__device__ inline void note(errs* e, int it, int step, long long got, long long want, int elem = -1,
                            const T* row = nullptr, int nrow = 0) {
  if (e->bad++ == 0) {
    e->first_iter = it;
    e->first_step = step;
    e->first_elem = elem;
    e->got = got;
    e->want = want;
    e->nrow = nrow < 8 ? nrow : 8;
    for (int i = 0; i < e->nrow; ++i) e->row[i] = (long long)row[i];
  }
}
std::string row_text(const errs& e) {
  std::string s;
  for (int i = 0; i < e.nrow; ++i) s += (i ? " " : "") + std::to_string(e.row[i]);
  return "element " + std::to_string(e.first_elem) + " of [" + s + "]";
}

struct b2b_bufs {
  int64_t *bsrc, *bdst;  // 5 per iteration
  int *rsrc, *rdst;      // 7 per iteration
  long *fsrc, *fdst;     // 1 per member per iteration
  double* ip;            // 40 per iteration
  uint8_t *msrc, *mdst;  // 2000 bytes per tenth iteration
  errs* err;
};
// 12 iterations where PEs share a GPU: two of every fifth and every tenth step, a root per member.
int b2b_iters() { return lean() ? 12 : 50; }
const int kB2bIters = 50;  // the buffers' size
const size_t kB2bMem = 2000;

// Iteration `it`: an int64 broadcast from root it % m, an int sum reduce, a long fcollect; every
// fifth a double max reduce in place; every tenth a 2000-byte broadcastmem from another root. The
// first thread writes the sources and checks each result right after the call; every value depends
// on the iteration, so a result left from an earlier call, or a source read late, shows.
// Steps: 0 broadcast, 1 sum, 2 fcollect, 3 max in place, 4 broadcastmem; + 10: nonzero return.
template <int S>
__global__ void back_to_back(shmem_team_t team, b2b_bufs b, int iters) {
  if (S == THREAD && threadIdx.x != 0) return;
  if (S == WAVE && threadIdx.x >= (unsigned)warpSize) return;
  const bool lead = threadIdx.x == 0;
  const int k = shmem_team_my_pe(team), m = shmem_team_n_pes(team), w = shmem_my_pe();
  for (int it = 0; it < iters; ++it) {
    const int root = it % m, wroot = shmem_team_translate_pe(team, root, SHMEM_TEAM_WORLD);
    if (lead) {
      for (int e = 0; e < 5; ++e) b.bsrc[e] = (int64_t)w * 1000000 + it * 1000 + e;
      for (int e = 0; e < 7; ++e) b.rsrc[e] = (k + 1) * (it + 1) + e;
      b.fsrc[0] = w * 100 + it;
      if (it % 5 == 0)
        for (int e = 0; e < 40; ++e) b.ip[it * 40 + e] = k * 3 + e + it * 0.5;
      if (it % 10 == 0)
        for (size_t i = 0; i < kB2bMem; ++i) b.msrc[i] = giotest::pattern(w, i, it);
    }
    // A different member is late into each iteration, so the others run ahead into calls it has
    // not reached (and it into calls they finished long ago).
    if (lead && k == it % m)
      for (volatile int spin = 0; spin < 20000; ++spin) {
      }
    if (S == WG) __syncthreads();
    int64_t* bd = b.bdst + it * 5;
    int rc = SCOPED(S, int64_broadcast, (team, bd, b.bsrc, 5, root));
    if (lead) {
      if (rc) note(b.err, it, 10, rc, 0);
      for (int e = 0; e < 5; ++e)
        if (bd[e] != (int64_t)wroot * 1000000 + it * 1000 + e)
          note(b.err, it, 0, bd[e], (int64_t)wroot * 1000000 + it * 1000 + e, e, bd, 5);
    }
    int* rd = b.rdst + it * 7;
    rc = SCOPED(S, int_sum_reduce, (team, rd, b.rsrc, 7));
    if (lead) {
      if (rc) note(b.err, it, 11, rc, 0);
      for (int e = 0; e < 7; ++e)
        if (rd[e] != m * (m + 1) / 2 * (it + 1) + m * e) note(b.err, it, 1, rd[e], m * (m + 1) / 2 * (it + 1) + m * e, e, rd, 7);
    }
    long* fd = b.fdst + it * m;
    rc = SCOPED(S, long_fcollect, (team, fd, b.fsrc, 1));
    if (lead) {
      if (rc) note(b.err, it, 12, rc, 0);
      for (int j = 0; j < m; ++j) {
        const long want = shmem_team_translate_pe(team, j, SHMEM_TEAM_WORLD) * 100 + it;
        if (fd[j] != want) note(b.err, it, 2, fd[j], want, j, fd, m);
      }
    }
    if (it % 5 == 0) {
      double* x = b.ip + it * 40;
      rc = SCOPED(S, double_max_reduce, (team, x, x, 40));
      if (lead) {
        if (rc) note(b.err, it, 13, rc, 0);
        for (int e = 0; e < 40; ++e) {
          const double want = (m - 1) * 3 + e + it * 0.5;
          if (!(x[e] >= want - 1e-9 && x[e] <= want + 1e-9)) note(b.err, it, 3, (long long)(x[e] * 2), (long long)(want * 2));
        }
      }
    }
    if (it % 10 == 0) {
      const int r2 = (it / 10 + 1) % m, w2 = shmem_team_translate_pe(team, r2, SHMEM_TEAM_WORLD);
      uint8_t* md = b.mdst + (it / 10) * kB2bMem;
      rc = SCOPED(S, broadcastmem, (team, md, b.msrc, kB2bMem, r2));
      if (lead) {
        if (rc) note(b.err, it, 14, rc, 0);
        for (size_t i = 0; i < kB2bMem; ++i)
          if (md[i] != giotest::pattern(w2, i, it)) {
            note(b.err, it, 4, md[i], giotest::pattern(w2, i, it));
            break;
          }
      }
    }
  }
}
}  // namespace

// Where PEs share a GPU: b2b_iters() iterations, on one team a scope (thread: the world, wave: the
// reversed world, wg: every other PE).
TEST_P(DeviceColl, FiftyBackToBackMixed) {
  const int scope = GetParam(), n = npes(), iters = b2b_iters();
  team_set ts;
  const std::pair<const char*, shmem_team_t> all_teams[] = {
      {"world", SHMEM_TEAM_WORLD}, {"reversed", ts.rev}, {"every_other", ts.parity()}};
  std::vector<std::pair<const char*, shmem_team_t>> teams(std::begin(all_teams), std::end(all_teams));
  if (lean()) teams = {all_teams[scope]};
  for (const auto& t : teams) {
    pool p;
    b2b_bufs b;
    b.bsrc = p.take<int64_t>(5);
    b.bdst = p.take<int64_t>(5 * kB2bIters);
    b.rsrc = p.take<int>(7);
    b.rdst = p.take<int>(7 * kB2bIters);
    b.fsrc = p.take<long>(1);
    b.fdst = p.take<long>(n * kB2bIters);
    b.ip = p.take<double>(40 * kB2bIters);
    b.msrc = p.take<uint8_t>(kB2bMem);
    b.mdst = p.take<uint8_t>(kB2bMem * (kB2bIters / 10 + 1));
    const size_t used = p.used;
    put_bytes(p.mem, std::vector<uint8_t>(used, 0));
    dbuf<errs> err(1);
    b.err = err.get();
    ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
    shmem_barrier_all();
    switch (scope) {
      case THREAD: hipLaunchKernelGGL(back_to_back<THREAD>, dim3(1), dim3(kThreads), 0, 0, t.second, b, iters); break;
      case WAVE: hipLaunchKernelGGL(back_to_back<WAVE>, dim3(1), dim3(kThreads), 0, 0, t.second, b, iters); break;
      default: hipLaunchKernelGGL(back_to_back<WG>, dim3(1), dim3(kThreads), 0, 0, t.second, b, iters); break;
    }
    ASSERT_TRUE(synced()) << t.first;
    const errs e = err.read()[0];
    EXPECT_EQ(e.bad, 0ull) << "[" << kScopeName[scope] << ", " << t.first << ", PE " << shmem_my_pe() << "] first wrong in iteration " << e.first_iter
                           << ", step " << e.first_step << " (0 broadcast, 1 sum, 2 fcollect, 3 max in place, 4 broadcastmem; "
                           << "+10 nonzero return): got " << e.got << ", want " << e.want << ", " << row_text(e);
    // The host sees the same: the last iteration's broadcast and sum.
    const team_view v(t.second);
    const int last = iters - 1, wroot = v.world[last % v.m];
    EXPECT_EQ(read(b.bdst + last * 5, 5)[4], (int64_t)wroot * 1000000 + last * 1000 + 4) << t.first;
    EXPECT_EQ(read(b.rdst + last * 7, 7)[0], v.m * (v.m + 1) / 2 * (last + 1)) << t.first;
    shmem_barrier_all();
  }
}

INSTANTIATE_TEST_SUITE_P(Scopes, DeviceColl, ::testing::Values(THREAD, WAVE, WG),
                         [](const ::testing::TestParamInfo<int>& i) { return std::string(kScopeName[i.param]); });

// ---- collectives on three teams at once, one work-group each -------------------------------------------

namespace {
struct conc_bufs {
  shmem_team_t world, parity, row;
  long *rsrc, *rdst;     // wg 0: 4 per iteration
  int *fsrc, *fdst;      // wg 1: 2 per member per iteration
  double *bsrc, *bdst;   // wg 2: 3 per iteration
  errs* err;             // one per work-group
};
const int kConcIters = 30;
// 14 where PEs share a GPU: each team's sync still comes twice (every seventh iteration).
int conc_iters() { return lean() ? 14 : kConcIters; }

// Work-group 0 (wg scope) sums over the world, the first wave of work-group 1 fcollects over
// every-other-PE, one thread of work-group 2 broadcasts over a row of the 2-D split from a root that
// goes round; each also syncs its team every seventh iteration. No team's call waits for another's.
__global__ void three_teams(conc_bufs b, int iters) {
  const unsigned g = blockIdx.x;
  const int w = shmem_my_pe();
  errs* err = b.err + g;
  if (g == 0) {
    const int n = shmem_team_n_pes(b.world);
    for (int it = 0; it < iters; ++it) {
      if (threadIdx.x == 0)
        for (int e = 0; e < 4; ++e) b.rsrc[e] = (long)(w + 1) * (it + 1) + e;
      __syncthreads();
      long* d = b.rdst + it * 4;
      const int rc = shmemx_long_sum_reduce_wg(b.world, d, b.rsrc, 4);
      if (threadIdx.x == 0) {
        if (rc) note(err, it, 10, rc, 0);
        for (int e = 0; e < 4; ++e) {
          const long want = (long)n * (n + 1) / 2 * (it + 1) + (long)n * e;
          if (d[e] != want) note(err, it, 0, d[e], want);
        }
      }
      if (it % 7 == 6 && shmemx_team_sync_wg(b.world) && threadIdx.x == 0) note(err, it, 20, 1, 0);
    }
  } else if (g == 1) {
    if (threadIdx.x >= (unsigned)warpSize) return;
    const int m = shmem_team_n_pes(b.parity);
    for (int it = 0; it < iters; ++it) {
      if (threadIdx.x == 0)
        for (int e = 0; e < 2; ++e) b.fsrc[e] = w * 1000 + it * 10 + e;
      int* d = b.fdst + it * 2 * m;
      const int rc = shmemx_int_fcollect_wave(b.parity, d, b.fsrc, 2);
      if (threadIdx.x == 0) {
        if (rc) note(err, it, 11, rc, 0);
        for (int j = 0; j < m; ++j)
          for (int e = 0; e < 2; ++e) {
            const int want = shmem_team_translate_pe(b.parity, j, SHMEM_TEAM_WORLD) * 1000 + it * 10 + e;
            if (d[j * 2 + e] != want) note(err, it, 1, d[j * 2 + e], want);
          }
      }
      if (it % 7 == 6 && shmemx_team_sync_wave(b.parity) && threadIdx.x == 0) note(err, it, 21, 1, 0);
    }
  } else {
    if (threadIdx.x != 0) return;
    const int m = shmem_team_n_pes(b.row);
    for (int it = 0; it < iters; ++it) {
      const int root = it % m, wroot = shmem_team_translate_pe(b.row, root, SHMEM_TEAM_WORLD);
      for (int e = 0; e < 3; ++e) b.bsrc[e] = w + it * 0.25 + e * 0.125;
      double* d = b.bdst + it * 3;
      const int rc = shmem_double_broadcast(b.row, d, b.bsrc, 3, root);
      if (rc) note(err, it, 12, rc, 0);
      for (int e = 0; e < 3; ++e)
        if (d[e] != wroot + it * 0.25 + e * 0.125) note(err, it, 2, (long long)(d[e] * 8), (long long)((wroot + it * 0.25 + e * 0.125) * 8));
      if (it % 7 == 6 && shmem_team_sync(b.row)) note(err, it, 22, 1, 0);
    }
  }
}
}  // namespace

TEST(DeviceCollConcurrent, ThreeWorkGroupsOnThreeTeams) {
  const int n = npes();
  team_set ts;
  pool p;
  conc_bufs b;
  b.world = SHMEM_TEAM_WORLD;
  b.parity = ts.parity();
  b.row = ts.row;
  b.rsrc = p.take<long>(4);
  b.rdst = p.take<long>(4 * kConcIters);
  b.fsrc = p.take<int>(2);
  b.fdst = p.take<int>(2 * n * kConcIters);
  b.bsrc = p.take<double>(3);
  b.bdst = p.take<double>(3 * kConcIters);
  put_bytes(p.mem, std::vector<uint8_t>(p.used, 0));
  dbuf<errs> err(3);
  b.err = err.get();
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
  shmem_barrier_all();
  hipLaunchKernelGGL(three_teams, dim3(3), dim3(kThreads), 0, 0, b, conc_iters());
  ASSERT_TRUE(synced());
  const std::vector<errs> e = err.read();
  const char* const what[3] = {"wg 0: shmemx_long_sum_reduce_wg on the world", "wg 1: shmemx_int_fcollect_wave on every other PE",
                               "wg 2: shmem_double_broadcast on a row"};
  for (int g = 0; g < 3; ++g)
    EXPECT_EQ(e[g].bad, 0ull) << what[g] << ": first wrong in iteration " << e[g].first_iter << " (step " << e[g].first_step
                              << ", +10 nonzero return, +20 its sync): got " << e[g].got << ", want " << e[g].want;
  shmem_barrier_all();
}

// ---- host and device collectives on one team, in turn --------------------------------------------------

namespace {
// One scope's broadcast from `root`, sum reduce and sync on `team` (results checked by the host).
template <int S>
__global__ void bcast_sum_sync(shmem_team_t team, int64_t* bdst, const int64_t* bsrc, int root, int64_t* sdst,
                               const int64_t* ssrc, int* bad) {
  if (S == THREAD && threadIdx.x != 0) return;
  if (S == WAVE && threadIdx.x >= (unsigned)warpSize) return;
  int r = SCOPED(S, int64_broadcast, (team, bdst, bsrc, 4, root));
  r |= SCOPED(S, int64_sum_reduce, (team, sdst, ssrc, 4));
  r |= SCOPED(S, team_sync, (team));
  if (r) atomicAdd(bad, 1);
}
}  // namespace

// Host reduce, kernel broadcast + reduce + sync, host fcollect + sync, round after round, with no
// barrier between: host and kernel calls share the team's state. Where PEs share a GPU 3 rounds,
// a scope each.
TEST(DeviceCollHostInterleave, HostThenKernelThenHost) {
  team_set ts;
  const int rounds = lean() ? 3 : 6;
  const std::pair<const char*, shmem_team_t> teams[] = {{"world", SHMEM_TEAM_WORLD}, {"row", ts.row}};
  for (const auto& t : teams) {
    const team_view v(t.second);
    pool p;
    int64_t* hsrc = p.take<int64_t>(4);
    int64_t* hdst = p.take<int64_t>(4 * rounds);
    int64_t* bsrc = p.take<int64_t>(4);
    int64_t* bdst = p.take<int64_t>(4 * rounds);
    int64_t* ssrc = p.take<int64_t>(4);
    int64_t* sdst = p.take<int64_t>(4 * rounds);
    int64_t* fdst = p.take<int64_t>(v.m * rounds);
    put_bytes(p.mem, std::vector<uint8_t>(p.used, 0));
    dbuf<int> bad(1);
    ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
    shmem_barrier_all();
    for (int r = 0; r < rounds; ++r) {
      const int scope = r % 3;
      write(hsrc, std::vector<int64_t>(4, (int64_t)(v.k + 1) * (r + 1)));
      ASSERT_EQ(shmem_int64_sum_reduce(t.second, hdst + 4 * r, hsrc, 4), 0);
      EXPECT_EQ(read(hdst + 4 * r, 4), std::vector<int64_t>(4, (int64_t)v.m * (v.m + 1) / 2 * (r + 1)))
          << t.first << ": host sum, round " << r;
      write(bsrc, std::vector<int64_t>(4, (int64_t)v.world[v.k] * 100 + r));
      write(ssrc, std::vector<int64_t>(4, (int64_t)v.k + r));
      const int root = (r + 1) % v.m;
      switch (scope) {
        case THREAD: hipLaunchKernelGGL(bcast_sum_sync<THREAD>, dim3(1), dim3(kThreads), 0, 0, t.second, bdst + 4 * r, bsrc, root, sdst + 4 * r, ssrc, bad.get()); break;
        case WAVE: hipLaunchKernelGGL(bcast_sum_sync<WAVE>, dim3(1), dim3(kThreads), 0, 0, t.second, bdst + 4 * r, bsrc, root, sdst + 4 * r, ssrc, bad.get()); break;
        default: hipLaunchKernelGGL(bcast_sum_sync<WG>, dim3(1), dim3(kThreads), 0, 0, t.second, bdst + 4 * r, bsrc, root, sdst + 4 * r, ssrc, bad.get()); break;
      }
      ASSERT_TRUE(synced()) << t.first << " round " << r;
      EXPECT_EQ(read(bdst + 4 * r, 4), std::vector<int64_t>(4, (int64_t)v.world[root] * 100 + r))
          << t.first << ": kernel broadcast (" << kScopeName[scope] << "), round " << r;
      EXPECT_EQ(read(sdst + 4 * r, 4), std::vector<int64_t>(4, (int64_t)v.m * (v.m - 1) / 2 + (int64_t)v.m * r))
          << t.first << ": kernel sum (" << kScopeName[scope] << "), round " << r;
      ASSERT_EQ(shmem_int64_fcollect(t.second, fdst + v.m * r, hsrc, 1), 0);
      std::vector<int64_t> want(v.m);
      for (int j = 0; j < v.m; ++j) want[j] = (int64_t)(j + 1) * (r + 1);
      EXPECT_EQ(read(fdst + v.m * r, v.m), want) << t.first << ": host fcollect, round " << r;
      ASSERT_EQ(shmem_team_sync(t.second), 0);
    }
    EXPECT_EQ(bad.read()[0], 0) << t.first << ": a kernel collective returned nonzero";
    shmem_barrier_all();
  }
}
