// spts: sparse lower-triangular solve L x = b with rows in contiguous blocks over PEs, in five
// variants (see README.md). Every run checks x against the x_ref that b was made from.
#include <shmem.h>
#include <shmemg.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <string>
#include <vector>

#include "csr_cache.h"
#include "hip_check.h"
#include "ikn.h"
#include "matrix.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "runs.h"

using namespace spts;

namespace {

struct input {
  csr l;
  std::string name;
  double seconds = 0;
};

// Reads or generates L (every PE the same, before shmem_init: the heap is sized from it).
bool load(const options& o, input* in) {
  const double t0 = now_s();
  try {
    if (!o.matrix.empty()) {
      in->l = reorder(read_matrix_market(o.matrix, o.diag), o.ord, o.seed);
      // A row's diagonal moves with it; dominance is a property of the new row's off-diagonals.
      if (o.diag == diag_mode::dominant && o.ord != order::natural) set_diagonal(in->l, o.diag);
      in->name = o.matrix;
    } else {
      const std::string cached = o.cache.empty() ? "" : cache_path(o.cache, o.gen, o.ord == order::random ? "random" : "natural");
      std::string why;
      if (cached.empty() || !cache_load(cached, &in->l, &why)) {
        if (!cached.empty() && access(cached.c_str(), F_OK) == 0)
          std::fprintf(stderr, "spts: ignoring the cache: %s\n", why.c_str());
        in->l = generate(parse_gen(o.gen), o.ord, diag_mode::dominant);
        if (!cached.empty() && !cache_store(cached, in->l, &why))
          std::fprintf(stderr, "spts: warning: cannot write the cache: %s\n", why.c_str());
      }
      in->name = o.gen;
    }
  } catch (const input_error& e) {
    std::fprintf(stderr, "spts: %s\n", e.what());
    return false;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "spts: out of host memory reading or generating the input\n");
    return false;
  }
  in->seconds = now_s() - t0;
  return true;
}

// Symmetric heap for the largest of the variants' needs: the component words (8 bytes a row),
// and at most one queue entry (16 bytes + an 8-byte signal) or two level-exchange values per
// off-diagonal, plus GIO's own allocations.
size_t heap_bytes(const csr& l) {
  const size_t off = (size_t)std::max<int64_t>(l.nnz() - l.n, 0);
  return (size_t)l.n * 8 + off * 24 + (64u << 20);
}

// Per repetition the slowest PE's time; the worst error over PEs (host puts into a symmetric
// table, then a barrier).
struct gathered {
  solve_times times;
  error_report err;
};
gathered gather(const solve_times& t, const error_report& e, int me, int npes) {
  const int reps = (int)t.solve_s.size(), nready = (int)t.ready_s.size(), w = reps + nready + 3;
  double* table = (double*)shmemg_malloc((size_t)npes * w * sizeof(double));
  std::vector<double> mine(w);
  std::copy(t.solve_s.begin(), t.solve_s.end(), mine.begin());
  std::copy(t.ready_s.begin(), t.ready_s.end(), mine.begin() + reps + 3);
  mine[reps] = t.prep_s;
  mine[reps + 1] = e.rel_error;
  mine[reps + 2] = e.worst_row;
  for (int pe = 0; pe < npes; ++pe) shmem_putmem(table + (size_t)me * w, mine.data(), w * sizeof(double), pe);
  shmem_barrier_all();
  std::vector<double> all((size_t)npes * w);
  HIP_CHECK(hipMemcpy(all.data(), table, all.size() * sizeof(double), hipMemcpyDeviceToHost));
  shmem_barrier_all();
  shmemg_free(table);
  gathered g;
  g.times = t;
  g.err = e;
  for (int pe = 0; pe < npes; ++pe) {
    const double* r = &all[(size_t)pe * w];
    for (int k = 0; k < reps; ++k) g.times.solve_s[k] = std::max(g.times.solve_s[k], r[k]);
    for (int k = 0; k < nready; ++k) g.times.ready_s[k] = std::max(g.times.ready_s[k], r[reps + 3 + k]);
    g.times.prep_s = std::max(g.times.prep_s, r[reps]);
    if (!(r[reps + 1] <= g.err.rel_error)) {  // NaN is worst
      g.err.rel_error = r[reps + 1];
      g.err.worst_row = (int32_t)r[reps + 2];
    }
  }
  return g;
}

template <typename T>
solve_times run_variant(variant v, const problem& p, const options& o, std::vector<double>* x) {
  switch (v) {
    case variant::levelset: return run_levelset<T>(p, o, x);
    case variant::cusparse: return run_vendor<T>(p, o, x);
    default: return run_syncfree<T>(p, o, x);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

// `single` or the vendor solve of the whole L on PE 0, for the speedups; NaN when not run.
template <typename T>
double reference_s(variant v, const problem& whole, const options& o) {
  options ro = o;
  ro.var = v;
  ro.inject_error = false;
  std::vector<double> x;
  return median(run_variant<T>(v, whole, ro, &x).solve_s);
}

// One variant on the input; returns the process exit code. refs: the `single` and vendor medians
// on PE 0, measured by the first variant that needs them.
template <typename T>
int run_one(const options& o, const input& in, const analysis& an, const std::vector<double>& x_ref,
            const std::vector<double>& b, double refs[2]) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const bool one_pe = o.var == variant::single || o.var == variant::cusparse;
  std::string why;
  if (o.var == variant::cusparse && !vendor_available(&why)) {
    if (me == 0) std::fprintf(stderr, "spts: --variant cusparse: %s\n", why.c_str());
    return 2;
  }
  if (!one_pe && npes > kMaxPes) {
    if (me == 0) std::fprintf(stderr, "spts: at most %d PEs (got %d)\n", kMaxPes, npes);
    return 2;
  }
  problem p;
  p.l = &in.l;
  p.b = &b;
  p.me = me;
  p.npes = npes;
  p.bounds = partition(in.l, npes, o.by_nnz);
  p.levels = an.levels;
  problem whole = p;  // PE 0 alone, every row
  whole.me = 0;
  whole.npes = 1;
  whole.bounds = {0, in.l.n};

  // single and cusparse solve the whole L on PE 0; the other PEs only take part in the report.
  solve_times t;
  std::vector<double> x;
  int32_t r0 = p.row0(), r1 = p.row1();
  if (!one_pe) {
    t = run_variant<T>(o.var, p, o, &x);
  } else if (me == 0) {
    t = run_variant<T>(o.var, whole, o, &x);
    // The vendor's solve has no hook inside: perturb its result (tests of the check).
    if (o.inject_error && o.var == variant::cusparse && !x.empty()) x.back() = x.back() * 1.001 + 1e-3;
    r0 = 0;
    r1 = in.l.n;
  } else {
    t.solve_s.assign(o.reps, 0.0);
    r0 = r1 = 0;
  }
  const error_report e = !t.renumbered ? relative_error(x, x_ref, r0, r1) : relative_error_at(x, x_ref, t.rows);
  const gathered g = gather(t, e, me, npes);

  run_record r;
  r.o = &o;
  r.input = in.name;
  r.npes = npes;
  r.rows = in.l.n;
  r.nnz = in.l.nnz();
  r.levels = an.levels;
  r.critical_path = an.critical_path;
  r.input_s = in.seconds;
  r.times = g.times;
  r.times.detail = t.detail;
  r.rel_error = g.err.rel_error;
  r.worst_row = g.err.worst_row;
  r.pass = r.rel_error <= (o.dbl ? 1e-10 : 1e-4) && !t.analysis_differs;
  bool reported = true;
  if (me == 0) {
    if (o.var == variant::single && !o.inject_error) refs[0] = median(r.times.solve_s);
    if (o.var == variant::cusparse && !o.inject_error) refs[1] = median(r.times.solve_s);
    if (o.refs) {
      if (std::isnan(refs[0])) refs[0] = reference_s<T>(variant::single, whole, o);
      if (std::isnan(refs[1]) && vendor_available(&why)) refs[1] = reference_s<T>(variant::cusparse, whole, o);
    }
    r.single_s = refs[0];
    r.vendor_s = refs[1];
    hipDeviceProp_t prop;
    int dev = 0;
    HIP_CHECK(hipGetDevice(&dev));
    HIP_CHECK(hipGetDeviceProperties(&prop, dev));
    r.device = prop.name;
    reported = report(r);
  }
  shmem_barrier_all();
  return r.pass && reported ? 0 : 1;
}

// Every variant of --variant in turn; the worst exit code.
template <typename T>
int run(const options& o, const input& in, const std::vector<double>& x_ref, const std::vector<double>& b) {
  const analysis an = analyze(in.l);
  double refs[2] = {NAN, NAN};
  int rc = 0;
  for (variant v : o.vars) {
    options ov = o;
    ov.var = v;
    rc = std::max(rc, run_one<T>(ov, in, an, x_ref, b, refs));
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bool help = false;
  if (!parse_options(argc, argv, &o, &help)) return 2;
  if (help) {
    print_usage(argv[0]);
    return 0;
  }
  // Before the input, which can take minutes to read: a transport ikn cannot use stops the run now.
  const bool ikn = std::find(o.vars.begin(), o.vars.end(), variant::ikn) != o.vars.end();
  if (ikn && !gio_app::ikn_select_proxy("spts")) return 2;
  input in;
  if (!load(o, &in)) return 2;
  const std::vector<double> x_ref = make_x_ref(in.l.n, o.seed);
  const std::vector<double> b = multiply(in.l, x_ref);
  // Size the symmetric heap for this input before shmem_init reads its configuration; a
  // GIO_SYMMETRIC_SIZE the user set wins (setenv does not overwrite it).
  setenv("GIO_SYMMETRIC_SIZE", std::to_string(heap_bytes(in.l)).c_str(), 0);
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  if (ikn) gio_app::ikn_check_peers("spts");
  const int rc = o.dbl ? run<double>(o, in, x_ref, b) : run<float>(o, in, x_ref, b);
  shmem_finalize();
  return rc;
}
