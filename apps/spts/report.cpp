// The report: what each number means is printed beside it (and in README.md), in the style of
// jacobi2d's. Times in the table are ms for solves, s for the once-per-run steps; JSON in seconds.
#include "report.h"

#include "json.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <ctime>

#include "app_commit.h"  // GIO_APP_COMMIT, regenerated at every build
#include "gio_config.h"  // GIO_PLATFORM_*: which vendor library the reference is

namespace spts {

namespace {

using gio_app::json_string;
using gio_app::utc_now;
inline std::string num(double v) { return gio_app::json_num(v); }

#if defined(GIO_PLATFORM_HIP)
const char* const vendor_label = "rocsparse";
#elif defined(GIO_PLATFORM_CUDA)
const char* const vendor_label = "cusparse";
#else
const char* const vendor_label = "vendor";  // none on the host platform (JSON: null)
#endif

// The check's bound on max |x - x_ref| / max |x_ref| (1e-10 double, 1e-4 float).
double tolerance(bool dbl) { return dbl ? 1e-10 : 1e-4; }

const char* order_name(order o) { return o == order::random ? "random" : "natural"; }

__attribute__((format(printf, 1, 2))) std::string fmt(const char* f, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// A seconds value in ms, or "-" where it was not measured.
std::string ms(double s) { return std::isfinite(s) ? fmt("%.4f", s * 1e3) : "-"; }

// One table row: label, value, unit, then what the number means (continued lines indented).
void line(const std::string& label, const std::string& value, const char* unit, const std::string& text) {
  std::string t;
  for (char c : text) t += c == '\n' ? std::string("\n") + std::string(34, ' ') : std::string(1, c);
  std::printf("  %-14s %12s %-2s  %s\n", label.c_str(), value.c_str(), unit, t.c_str());
}

}  // namespace

summary summarize(const std::vector<double>& solve_s, int64_t nnz) {
  if (solve_s.empty()) return {NAN, NAN, NAN, NAN};
  std::vector<double> t(solve_s);
  std::sort(t.begin(), t.end());
  const size_t n = t.size();
  const double median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
  return {median, t.front(), t.back(), 2.0 * (double)nnz / median / 1e9};
}

bool report(const run_record& r) {
  const options& o = *r.o;
  const summary s = summarize(r.times.solve_s, r.nnz);
  const double tol = tolerance(o.dbl);
  const double vs_single = r.single_s / s.median_s;
  const double vs_vendor = r.vendor_s / s.median_s;
  const double efficiency = vs_single / r.npes;
  const bool gio = distributed_syncfree(o.var);
  const bool syncfree = gio || o.var == variant::single;
  const char* type = o.dbl ? "double" : "float";
#if defined(GIO_PLATFORM_HOST)
  const std::string vendor_json = "null";
#else
  const std::string vendor_json = json_string(vendor_label);
#endif

  std::printf("spts  %s  %s  %s  %s order  %d PE%s  rows by %s\n", variant_name(o.var), type, r.input.c_str(),
              order_name(o.ord), r.npes, r.npes > 1 ? "s" : "", o.by_nnz ? "nnz" : "rows");
  std::printf("  device %s", r.device.c_str());
  if (gio) std::printf("; %s exchange", r.times.exchange ? r.times.exchange : exchange_name(o.xchg));
  if (syncfree) std::printf("; --kernel %s", kernel_name(o.kernel));
  std::printf("; %s\n", r.times.detail.empty() ? "-" : r.times.detail.c_str());
  line("rows", fmt("%d", r.rows), "", "unknowns (rows of L)");
  line("nnz", fmt("%lld", (long long)r.nnz), "", "nonzeros of L, diagonal included");
  line("levels", fmt("%d", r.levels), "",
       "dependency depth: a row's level is 1 + the highest level of the rows it needs\n"
       "(level scheduling pays a kernel launch per level)");
  line("critical path", fmt("%lld", (long long)r.critical_path), "",
       "nonzeros along the heaviest dependency chain (work no schedule can overlap)");
  line("input", fmt("%.4f", r.input_s), "s", "reading or generating L on the host");
  line("prep", fmt("%.4f", r.times.prep_s), "s",
       "preprocessing, once per run, not in the solve (sync-free: the uploads and the\n"
       "renumbering, its parts in the device line; vendor: its analysis, L already uploaded)");
  const prep_parts& pp = r.times.prep;
  if (std::isfinite(pp.upload_s))
    line("prep - uploads", fmt("%.4f", r.times.prep_s - pp.upload_s), "s",
         "the prep without the uploads of L and b: the analysis and the permuted copy, what\n"
         "compares with the vendor's prep (its analysis, with L already on the device)");
  line("solve", fmt("%.4f", s.median_s * 1e3), "ms",
       fmt("median of %zu repetitions (min %.4f, max %.4f), each the slowest PE's", r.times.solve_s.size(),
           s.min_s * 1e3, s.max_s * 1e3));
  const summary ready = summarize(r.times.ready_s, r.nnz);
  if (!r.times.ready_s.empty())
    line("remote-ready", fmt("%.4f", ready.median_s * 1e3), "ms",
         fmt("the same solve with every other PE's components already present (--probe-remote-ready):\n"
             "median of %zu (min %.4f, max %.4f), each the slowest PE's",
             r.times.ready_s.size(), ready.min_s * 1e3, ready.max_s * 1e3));
  line("GFLOP/s", fmt("%.2f", s.gflops), "", "2 nnz / median solve");
  line("vs single", ms(r.single_s), std::isfinite(r.single_s) ? "ms" : "",
       std::isfinite(vs_single)
           ? fmt("sync-free on 1 PE, whole matrix: speedup %.2f, parallel efficiency %.1f %%", vs_single,
                 efficiency * 100)
           : std::string("sync-free on 1 PE: not run (--no-refs)"));
  line(std::string("vs ") + vendor_label, ms(r.vendor_s), std::isfinite(r.vendor_s) ? "ms" : "",
       std::isfinite(vs_vendor)
           ? fmt("the vendor's solve (analysis apart): speedup %.2f", vs_vendor)
           : std::string("the vendor's solve: not run (--no-refs, or none on this platform)"));
  std::printf("  check          relative error %.3g = max |x - x_ref| / max |x_ref| (tolerance %.0e)",
              r.rel_error, tol);
  if (r.worst_row >= 0) std::printf(", worst row %d", r.worst_row);
  std::printf(": %s\n", r.pass ? "PASS" : "FAIL");
  std::fflush(stdout);

  if (o.json.empty()) return true;
  FILE* f = std::fopen(o.json.c_str(), "a");
  if (!f) {
    std::perror(("spts: " + o.json).c_str());
    return false;
  }
  std::string solves = "[";
  for (size_t i = 0; i < r.times.solve_s.size(); ++i) solves += (i ? "," : "") + num(r.times.solve_s[i]);
  solves += "]";
  const int w = std::fprintf(
      f,
      "{\"app\":\"spts\",\"variant\":\"%s\",\"exchange\":%s,\"kernel\":%s,\"detail\":%s,\"type\":\"%s\","
      "\"input\":%s,\"order\":\"%s\",\"balance\":\"%s\",\"rows\":%d,\"nnz\":%lld,\"levels\":%d,"
      "\"critical_path\":%lld,\"pes\":%d,\"reps\":%d,\"warmup\":%d,\"block\":%d,\"rows_by\":\"%s\",\"backoff_ns\":%d,\"renumber\":\"%s\",\"analysis_rows\":%d,\"renumbered\":%s,\"chunk_deps\":\"%s\",\"seed\":%llu,"
      "\"input_s\":%s,\"prep_s\":%s,\"prep_upload_s\":%s,\"prep_analysis_s\":%s,\"prep_copy_s\":%s,"
      "\"analysis_setup_s\":%s,\"analysis_levels_s\":%s,\"analysis_sort_s\":%s,\"analysis_order_s\":%s,"
      "\"analysis_tiles_s\":%s,\"solve_s\":%s,\"median_s\":%s,\"min_s\":%s,\"max_s\":%s,\"gflops\":%s,"
      "\"remote_ready_s\":%s,\"single_s\":%s,\"vendor\":%s,\"vendor_s\":%s,\"speedup_single\":%s,\"speedup_vendor\":%s,"
      "\"efficiency\":%s,\"rel_error\":%s,\"tolerance\":%s,\"worst_row\":%d,\"check\":\"%s\",\"device\":%s,"
      "\"commit\":\"%s\",\"date\":\"%s\"}\n",
      variant_name(o.var), gio ? json_string(r.times.exchange ? r.times.exchange : exchange_name(o.xchg)).c_str() : "null",
      syncfree ? json_string(kernel_name(o.kernel)).c_str() : "null", json_string(r.times.detail).c_str(),
      type, json_string(r.input).c_str(), order_name(o.ord), o.by_nnz ? "nnz" : "rows", r.rows,
      (long long)r.nnz, r.levels, (long long)r.critical_path, r.npes, o.reps, o.warmup, o.block,
      o.rows == row_order::level ? "level" : o.rows == row_order::senders ? "senders" : "natural", o.backoff_ns,
      renumber_name(o.renumber), o.analysis_rows,
      syncfree ? (r.times.by_level ? "true" : "false") : "null", o.chunk_shared ? "shared" : "global",
      (unsigned long long)o.seed, num(r.input_s).c_str(), num(r.times.prep_s).c_str(), num(pp.upload_s).c_str(),
      num(pp.analysis_s).c_str(), num(pp.copy_s).c_str(), num(pp.setup_s).c_str(), num(pp.levels_s).c_str(),
      num(pp.sort_s).c_str(), num(pp.order_s).c_str(), num(pp.tiles_s).c_str(), solves.c_str(),
      num(s.median_s).c_str(), num(s.min_s).c_str(), num(s.max_s).c_str(), num(s.gflops).c_str(),
      num(ready.median_s).c_str(), num(r.single_s).c_str(), vendor_json.c_str(), num(r.vendor_s).c_str(), num(vs_single).c_str(),
      num(vs_vendor).c_str(), num(efficiency).c_str(), num(r.rel_error).c_str(), num(tol).c_str(),
      r.worst_row, r.pass ? "pass" : "fail", json_string(r.device).c_str(), GIO_APP_COMMIT,
      utc_now().c_str());
  const bool ok = std::fclose(f) == 0 && w > 0;
  if (!ok) std::fprintf(stderr, "spts: writing the JSON line to %s failed\n", o.json.c_str());
  return ok;
}

}  // namespace spts
