// Host waits and tests: shmem_TYPE_wait_until / _test with _all/_any/_some and the _vector forms,
// and shmem_signal_wait_until, on this PE's symmetric memory. Kernels of this GPU (which may be
// running now) and peers write it; the host reads it with host_local_read, which never waits for
// kernels. Same semantics and messages as the device (device/api/wait.h): status[i] != 0 excludes
// element i, _any rotates its starting index per array, every wait is bounded by GIO_TIMEOUT_MS.
#include <sched.h>
#include <stdio.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "host/local_read.h"
#include "host/log.h"
#include "host/backoff.h"
#include "runtime/host_entry.h"
#include "runtime/module_abi.h"  // gio_host_abort

namespace gio {
namespace {

const char* cmp_name(int cmp) {
  static const char* names[] = {"==", "!=", ">", ">=", "<", "<="};
  return (cmp >= 0 && cmp <= 5) ? names[cmp] : "?";
}

// One operand read both ways: sign-extended into `s`, zero-extended into `u`; the type decides which
// one is compared.
struct word {
  int64_t s;
  uint64_t u;
};
word widen(const uint8_t* p, size_t elem) {
  word w{0, 0};
  switch (elem) {
    case 2: { int16_t v; memcpy(&v, p, 2); w.s = v; w.u = (uint16_t)v; break; }
    case 4: { int32_t v; memcpy(&v, p, 4); w.s = v; w.u = (uint32_t)v; break; }
    default: { int64_t v; memcpy(&v, p, 8); w.s = v; w.u = (uint64_t)v; break; }
  }
  return w;
}
template <typename V>
bool cmp_ok(int cmp, V a, V b) {
  switch (cmp) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a > b;
    case 3: return a >= b;
    case 4: return a < b;
    default: return a <= b;
  }
}

struct wait_call {
  const char* routine;
  size_t n, elem;
  bool is_signed;
  const int* status;
  int cmp;
  const uint8_t* values;
  bool vector;
  std::vector<uint8_t> seen;  // the words as last read

  bool active(size_t i) const { return !status || !status[i]; }
  bool ok(size_t i) const {
    const word a = widen(seen.data() + i * elem, elem);
    const word b = widen(values + (vector ? i * elem : 0), elem);
    return is_signed ? cmp_ok(cmp, a.s, b.s) : cmp_ok(cmp, a.u, b.u);
  }
  long long as_ll(const uint8_t* p) const {
    const word w = widen(p, elem);
    return is_signed ? (long long)w.s : (long long)w.u;
  }
};

// _any fairness, as on the device: each scan starts just after the index the previous call on the
// same array returned, so loops over always-ready flags serve every index in turn. Relaxed: a
// lost update costs fairness for one call, never correctness.
std::atomic<uint64_t> g_any_rotor[64];
std::atomic<uint64_t>& rotor_of(const void* ivars) {
  const uintptr_t a = (uintptr_t)ivars;
  return g_any_rotor[((a >> 3) ^ (a >> 9) ^ (a >> 15)) % 64];
}

size_t test_any(const wait_call& c, const void* ivars) {
  if (!c.n) return SIZE_MAX;
  std::atomic<uint64_t>& rotor = rotor_of(ivars);
  size_t i = (size_t)(rotor.load(std::memory_order_relaxed) % c.n);
  for (size_t k = 0; k < c.n; ++k, i = i + 1 == c.n ? 0 : i + 1)
    if (c.active(i) && c.ok(i)) {
      rotor.store(i + 1, std::memory_order_relaxed);
      return i;
    }
  return SIZE_MAX;
}
size_t test_some(const wait_call& c, size_t* indices) {
  size_t k = 0;
  for (size_t i = 0; i < c.n; ++i)
    if (c.active(i) && c.ok(i)) indices[k++] = i;
  return k;
}
bool test_all(const wait_call& c) {
  for (size_t i = 0; i < c.n; ++i)
    if (c.active(i) && !c.ok(i)) return false;
  return true;
}

[[noreturn]] void timed_out(const wait_call& c, const void* ivars, long long ms) {
  if (c.n == 1 && !c.status) {
    fprintf(stderr, "GIO timeout: %s on PE %d waited %lld ms at %p for value %s %lld; last value seen %lld\n",
            c.routine, log_pe(), ms, ivars, cmp_name(c.cmp), c.as_ll(c.values), c.as_ll(c.seen.data()));
  } else {
    size_t i = 0;  // the first element that is active and not ready
    while (i + 1 < c.n && !(c.active(i) && !c.ok(i))) ++i;
    fprintf(stderr,
            "GIO timeout: %s on PE %d waited %lld ms on %zu variables at %p for %s %s %lld; element %zu: last value "
            "seen %lld\n",
            c.routine, log_pe(), ms, c.n, ivars, c.vector ? "values" : "value", cmp_name(c.cmp),
            c.as_ll(c.values + (c.vector ? i * c.elem : 0)), i, c.as_ll(c.seen.data() + i * c.elem));
  }
  gio_host_abort(GIO_ERR_TIMEOUT);
}

}  // namespace
}  // namespace gio

using namespace gio;

extern "C" size_t gio_host_wait(const char* routine, int kind, const void* ivars, size_t n, size_t elem,
                                int is_signed, const int* status, int cmp, const void* values, int vector,
                                size_t* indices, void* seen) {
  runtime& r = rt_checked(routine);
  if (cmp < 0 || cmp > 5) fatal(GIO_ERR_ARG, routine, "comparison %d is not a SHMEM_CMP_* value", cmp);
  if (elem != 2 && elem != 4 && elem != 8) fatal(GIO_ERR_ARG, routine, "%zu-byte variables are not supported", elem);
  wait_call c{routine, n, elem, is_signed != 0, status, cmp, (const uint8_t*)values, vector != 0, {}};
  c.seen.resize(n * elem);
  bool any_active = false;
  for (size_t i = 0; i < n && !any_active; ++i) any_active = c.active(i);
  auto read = [&] {
    if (n) host_local_read(r, routine, c.seen.data(), ivars, n * elem, elem);
  };
  switch (kind) {
    case GIO_TEST: read(); return c.ok(0) ? 1 : 0;
    case GIO_TEST_ALL: read(); return test_all(c) ? 1 : 0;
    case GIO_TEST_ANY: read(); return test_any(c, ivars);
    case GIO_TEST_SOME: read(); return test_some(c, indices);
    default: break;
  }
  // A wait on no active element returns at once (after checking the address, as a test does).
  read();
  if ((kind == GIO_WAIT_ALL || kind == GIO_WAIT_ANY || kind == GIO_WAIT_SOME) && !any_active)
    return kind == GIO_WAIT_ANY ? SIZE_MAX : 0;
  using clk = std::chrono::steady_clock;
  const clk::time_point t0 = clk::now();
  const uint64_t limit_ms = r.cfg.GIO_TIMEOUT_MS;
  backoff pace;  // the value may come from this process's proxy thread (host/backoff.h)
  for (unsigned spins = 0;; ++spins) {
    if (spins) read();
    size_t res = 0;
    bool done = false;
    switch (kind) {
      case GIO_WAIT_UNTIL: done = c.ok(0); break;
      case GIO_WAIT_ALL: done = test_all(c); break;
      case GIO_WAIT_ANY: done = (res = test_any(c, ivars)) != SIZE_MAX; break;
      default: done = (res = test_some(c, indices)) != 0; break;
    }
    if (done) {
      if (seen && kind == GIO_WAIT_UNTIL) memcpy(seen, c.seen.data(), elem);
      return res;
    }
    pace.pause();
    if (limit_ms && (spins & 63) == 0) {
      const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(clk::now() - t0).count();
      if ((uint64_t)ms > limit_ms) timed_out(c, ivars, ms);
    }
  }
}
