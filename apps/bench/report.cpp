// Output: a table on stdout and one JSON object per line in the --json file, both from PE A only.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "bench.h"
#include "coll_spec.h"
#include "app_commit.h"  // GIO_APP_COMMIT, regenerated at every build

namespace bench {
namespace {
const run_env* g_env = nullptr;
int g_pair[2] = {0, 1};  // the measured PEs, in every JSON line (4-GPU runs measure each pair)
FILE* g_json = nullptr;
bool g_header = false;

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if ((unsigned char)c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out + "\"";
}
}  // namespace

const char* build_commit() { return GIO_APP_COMMIT; }

void report_open(const run_env& env, const options& o) {
  g_env = &env;
  g_pair[0] = o.pair_a;
  g_pair[1] = o.pair_b;
  if (!env.reporter) return;
  printf("# gio-bench %s  impl=%s transport=%s device=\"%s\" commit=%s date=%s PEs=%d", o.bench.c_str(),
         env.impl.c_str(), env.transport.c_str(), env.device.c_str(), env.commit.c_str(),
         env.date.c_str(), env.npes);
  if (o.bench == "coll") printf(" (all take part; bytes = one PE's contribution)\n");
  else printf(" pair=%d,%d\n", o.pair_a, o.pair_b);
  printf("# iters=%d warmup=%d reps=%d threads/wg=%d%s\n", o.iters, o.warmup, o.reps, o.threads,
         o.quick ? " (quick)" : "");
  if (!o.json.empty()) {
    g_json = fopen(o.json.c_str(), "w");
    if (!g_json) {
      fprintf(stderr, "gio-bench: cannot write %s\n", o.json.c_str());
      exit(1);
    }
  }
  fflush(stdout);
}

void report(const record& r) {
  if (!g_env || !g_env->reporter) return;
  if (!g_header) {
    printf("%-12s %-16s %-7s %4s %10s %12s %12s %12s  %s\n", "bench", "metric", "scope", "wgs",
           "bytes", "median", "min", "max", "unit");
    g_header = true;
  }
  printf("%-12s %-16s %-7s %4d %10zu %12.4g %12.4g %12.4g  %s\n", r.bench.c_str(), r.metric.c_str(),
         r.scope.c_str(), r.work_groups, r.bytes, r.s.median, r.s.min, r.s.max, r.unit.c_str());
  fflush(stdout);
  if (!g_json) return;
  const run_env& e = *g_env;
  fprintf(g_json,
          "{\"bench\": %s, \"impl\": %s, \"transport\": %s, \"scope\": %s, \"bytes\": %zu, "
          "\"work_groups\": %d, \"metric\": %s, \"median\": %.9g, \"min\": %.9g, \"max\": %.9g, "
          "\"unit\": %s, \"device\": %s, \"commit\": %s, \"date\": %s, \"pes\": %d, \"pair\": [%d, %d]}\n",
          json_str(r.bench).c_str(), json_str(e.impl).c_str(), json_str(e.transport).c_str(),
          json_str(r.scope).c_str(), r.bytes, r.work_groups, json_str(r.metric).c_str(), r.s.median,
          r.s.min, r.s.max, json_str(r.unit).c_str(), json_str(e.device).c_str(),
          json_str(e.commit).c_str(), json_str(e.date).c_str(), e.npes, g_pair[0], g_pair[1]);
  fflush(g_json);
}

// coll has its own table and JSON shape: no pair (every PE takes part), and bandwidth by NCCL's
// definitions next to the latency so one line compares with nccl-tests' output.
void report_coll(const coll_record& r) {
  if (!g_env || !g_env->reporter) return;
  const run_env& e = *g_env;
  const bool bw = r.op != coll_op::barrier && r.bytes >= kCollBwMinBytes;
  const double algbw = bw ? coll_algbw_bytes(r.op, r.bytes, e.npes) / (r.us.median * 1e3) : 0;  // GB/s
  const double busbw = algbw * coll_bus_factor(r.op, e.npes);
  if (!g_header) {
    printf("%-10s %-7s %7s %10s %6s %11s %11s %11s %9s %9s\n", "op", "scope", "threads", "bytes", "iters",
           "us", "us_min", "us_max", "algbw", "busbw");
    g_header = true;
  }
  char bws[32] = "        -         -";
  if (bw) snprintf(bws, sizeof bws, "%9.3f %9.3f", algbw, busbw);
  printf("%-10s %-7s %7d %10zu %6d %11.4g %11.4g %11.4g %s\n", coll_op_name(r.op), r.scope.c_str(),
         r.threads, r.bytes, r.iters, r.us.median, r.us.min, r.us.max, bws);
  fflush(stdout);
  if (!g_json) return;
  char bwj[64] = "null, \"busbw\": null";
  if (bw) snprintf(bwj, sizeof bwj, "%.9g, \"busbw\": %.9g", algbw, busbw);
  fprintf(g_json,
          "{\"bench\": \"coll\", \"impl\": %s, \"transport\": %s, \"op\": %s, \"scope\": %s, "
          "\"bytes\": %zu, \"bytes_is\": \"per_pe\", \"algbw_bytes\": %.0f, \"n_pes\": %d, "
          "\"threads\": %d, \"iters\": %d, \"us\": %.9g, \"us_min\": %.9g, \"us_max\": %.9g, "
          "\"algbw\": %s, \"bw_unit\": \"GB/s\", \"device\": %s, \"commit\": %s, \"date\": %s}\n",
          json_str(e.impl).c_str(), json_str(e.transport).c_str(), json_str(coll_op_name(r.op)).c_str(),
          json_str(r.scope).c_str(), r.bytes, coll_algbw_bytes(r.op, r.bytes, e.npes), e.npes, r.threads,
          r.iters, r.us.median, r.us.min, r.us.max, bwj, json_str(e.device).c_str(),
          json_str(e.commit).c_str(), json_str(e.date).c_str());
  fflush(g_json);
}

// strided: one CSV line per (shape, method) on stdout (header once), the same fields as JSON.
void report_strided(const strided_record& r) {
  if (!g_env || !g_env->reporter) return;
  const run_env& e = *g_env;
  const size_t bytes = r.x * r.y * r.z;
  const double gbps = bytes / (r.us.median * 1e3);
  if (!g_header) {
    printf("method,x,y,z,cube,bytes,wgs,threads,iters,us,us_min,us_max,GBps\n");
    g_header = true;
  }
  printf("%s,%zu,%zu,%zu,%zu,%zu,%d,%d,%d,%.4g,%.4g,%.4g,%.4g\n", r.method.c_str(), r.x, r.y, r.z, r.cube, bytes,
         r.work_groups, r.threads, r.iters, r.us.median, r.us.min, r.us.max, gbps);
  fflush(stdout);
  if (!g_json) return;
  fprintf(g_json,
          "{\"bench\": \"strided\", \"impl\": %s, \"transport\": %s, \"method\": %s, \"x\": %zu, \"y\": %zu, "
          "\"z\": %zu, \"cube\": %zu, \"bytes\": %zu, \"work_groups\": %d, \"threads\": %d, \"iters\": %d, "
          "\"us\": %.9g, \"us_min\": %.9g, \"us_max\": %.9g, \"GBps\": %.9g, \"device\": %s, \"commit\": %s, "
          "\"date\": %s, \"pes\": %d, \"pair\": [%d, %d]}\n",
          json_str(e.impl).c_str(), json_str(e.transport).c_str(), json_str(r.method).c_str(), r.x, r.y, r.z, r.cube,
          bytes, r.work_groups, r.threads, r.iters, r.us.median, r.us.min, r.us.max, gbps, json_str(e.device).c_str(),
          json_str(e.commit).c_str(), json_str(e.date).c_str(), e.npes, g_pair[0], g_pair[1]);
  fflush(g_json);
}

void report_note(const char* fmt, ...) {
  if (!g_env || !g_env->reporter) return;
  va_list ap;
  va_start(ap, fmt);
  printf("# ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
}

void report_close() {
  if (g_json) fclose(g_json);
  g_json = nullptr;
}

}  // namespace bench
