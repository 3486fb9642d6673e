// gio-bench: GIO's put latency, bandwidth, message rate, LogGOP(S) and collectives benchmarks (one binary,
// one subcommand per run). Built twice from these sources when NVSHMEM is found: gio-bench
// measures GIO, gio-bench-nvshmem measures NVSHMEM with the same kernels (see bench_api.h).
#include <cstdio>
#include <thread>

#include "harness.h"

namespace bench {

options g_opt;
run_env g_env;

int* g_ctx_fail = nullptr;
namespace {
bool g_ctx_noted = false;
}  // namespace

void hip_check(hipError_t e, const char* what) {
  if (e == hipSuccess) return;
  fprintf(stderr, "gio-bench: PE %d: %s failed: %s\n", g_env.me, what, hipGetErrorString(e));
  b_abort(1);
}

void device_sync(const char* what) {
  hip_check(hipDeviceSynchronize(), what);
  hip_check(hipGetLastError(), what);
}

unsigned latency_threads(scope_t s) {
  switch (s) {
    case scope_t::thread: return 1;
    case scope_t::wave: return (unsigned)g_env.warp;
    default: return (unsigned)g_opt.threads;
  }
}

int* ctx_fail_counter() { return g_ctx_fail; }

void check_ctx_fallback() {
  int n = 0;
  hip_check(hipMemcpy(&n, g_ctx_fail, sizeof n, hipMemcpyDeviceToHost), "reading the context counter");
  if (!n) return;
  hip_check(hipMemset(g_ctx_fail, 0, sizeof n), "hipMemset");
  if (!g_ctx_noted && g_env.reporter)
    fprintf(stderr, "gio-bench: %d work-group(s) got no context of their own and used the default "
                    "one (raise GIO_NUM_CONTEXTS)\n", n);
  g_ctx_noted = true;
}

void fetch(void* host, const void* dev, size_t n, int pe) {
  if (pe == g_env.me) hip_check(hipMemcpy(host, dev, n, hipMemcpyDeviceToHost), "hipMemcpy(results)");
  else b_host_get(host, dev, n, pe);
}

void host_wait_ge(const uint64_t* sig, uint64_t v, const char* what) {
  const uint64_t t0 = host_now_ns();
  while (b_host_signal_read(sig) < v) {
    if (host_now_ns() - t0 > 60ull * 1000000000ull) {
      fprintf(stderr, "gio-bench: PE %d: %s: waited 60 s for signal %p >= %llu (seen %llu)\n", g_env.me,
              what, (const void*)sig, (unsigned long long)v, (unsigned long long)b_host_signal_read(sig));
      b_abort(1);
    }
    std::this_thread::yield();  // the peer may share this core (host platform, small machines)
  }
}

// A collective crosses every PE's transport: the distinct ones from this PE, joined by '+'.
std::string transports_to_all() {
  std::string all;
  for (int pe = 0; pe < g_env.npes; ++pe) {
    if (pe == g_env.me) continue;
    const std::string t = b_transport(pe);
    if (("+" + all + "+").find("+" + t + "+") == std::string::npos) all += (all.empty() ? "" : "+") + t;
  }
  return all.empty() ? b_transport(g_env.me) : all;  // one PE: how it reaches itself
}

}  // namespace bench

using namespace bench;

int main(int argc, char** argv) {
  std::string err;
  if (argc >= 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")) {
    print_usage(argv[0]);
    return 0;
  }
  // Parse before init so a typo fails fast, but report it from one PE only after init.
  bool ok = parse_options(argc, argv, &g_opt, &err);
  b_init(&argc, &argv);
  g_env.me = b_my_pe();
  g_env.npes = b_n_pes();
  // strided at one PE: PE 0 puts into its own second cube.
  if ((g_opt.bench == "strided" || g_opt.bench == "callcost") && g_env.npes == 1) g_opt.pair_a = g_opt.pair_b = 0;
  // coll has no pair: any number of PEs (at 1 it measures the call's own cost).
  const bool pair_fits = g_opt.bench == "coll" || (g_opt.pair_a < g_env.npes && g_opt.pair_b < g_env.npes);
  if (!ok || !pair_fits) {
    if (g_env.me == 0) {
      if (ok) err = "gio-bench needs the pair's two PEs: run it with giorun -n 2 (or more), --pair within range";
      fprintf(stderr, "gio-bench: %s\n", err.c_str());
      print_usage(argv[0]);
    }
    b_finalize();
    return 2;
  }
  g_env.reporter = g_env.me == g_opt.pair_a;
  g_env.impl = b_impl();
  g_env.transport = b_transport(g_env.me == g_opt.pair_a ? g_opt.pair_b : g_opt.pair_a);
  if (g_opt.bench == "coll") g_env.transport = transports_to_all();
  g_env.date = utc_now_iso();
  g_env.commit = build_commit();
  int dev = 0;
  hipDeviceProp_t prop;
  hip_check(hipGetDevice(&dev), "hipGetDevice");
  hip_check(hipGetDeviceProperties(&prop, dev), "hipGetDeviceProperties");
  g_env.device = prop.name;
  g_env.warp = prop.warpSize;
  hip_check(hipMalloc(&g_ctx_fail, sizeof(int)), "hipMalloc(context counter)");
  hip_check(hipMemset(g_ctx_fail, 0, sizeof(int)), "hipMemset(context counter)");
  report_open(g_env, g_opt);

  if (g_opt.bench == "put_latency") run_put_latency();
  else if (g_opt.bench == "bw") run_bw();
  else if (g_opt.bench == "msgrate") run_msgrate();
  else if (g_opt.bench == "coll") run_coll();
  else if (g_opt.bench == "callcost") run_callcost();
  else if (g_opt.bench == "loggop") run_loggop();
#if !defined(GIO_BENCH_NVSHMEM)
  else if (g_opt.bench == "strided") run_strided();  // GIO's subarray extension: gio-bench only
#endif
  else {
    // A benchmark the command line accepts but this binary lacks: stop, never run another one.
    fprintf(stderr, "%s: PE %d: benchmark %s is not in this binary (strided is gio-bench's only)\n", argv[0],
            g_env.me, g_opt.bench.c_str());
    b_finalize();
    return 2;
  }

  report_close();
  hip_check(hipFree(g_ctx_fail), "hipFree");
  b_finalize();
  return 0;
}
