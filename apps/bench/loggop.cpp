// loggop: LogGOP(S) parameters from Netgauge's parametrized round trip (Hoefler et al.; used for
// GPU-initiated communication by Groves et al. 2020).
//
// PRTT(n, d, s): A sends n back-to-back messages of s bytes (putmem_signal, signal ADD 1), with a
// busy delay of d ns between them; B waits for all n and answers with one message of s bytes; A
// waits for the answer. Timed in A's kernel, averaged over --iters trains per sample.
//   L     = PRTT(1,0,0)/2. s = 0 is meaningful here: the message is the signal alone.
//   g, G  = least-squares fit of y(s) = [PRTT(n,0,s) - PRTT(1,0,s)]/(n-1) = g + G*s over the
//           sizes (g = intercept in us, G = slope in ns per byte; 1/G is the asymptotic GB/s).
//   o(s)  = [PRTT(n,d,s) - PRTT(1,0,s)]/(n-1) - d, with d = median PRTT(1,0,s): longer than the
//           network needs per message, so the sender's own cost per message shows.
//   S     = the fixed GPU synchronization cost: one empty kernel launch plus a device synchronize,
//           host wall clock. It is what every Inter-K step pays and device-initiated puts avoid.
// Each parameter is derived per rep (rep r's PRTTs) and reported as median, min and max over reps.
// o, g and G are differences and fits: with small sizes or noisy clocks they may come out <= 0.
#include "harness.h"

namespace bench {
namespace {

struct prtt_args {
  uint8_t* dst;
  const uint8_t* src;
  uint64_t* sig;
  size_t bytes;
  int n;
  uint64_t delay_ns;
  int peer, initiator, warmup, iters;
  uint64_t* out_ns;
  int* ctx_fail;
};

template <class S>
__global__ void k_prtt(prtt_args a) {
  b_ctx_t ctx = b_ctx_create(a.ctx_fail);
  uint64_t t0 = b_clock_ns();
  for (int it = 0; it < a.warmup + a.iters; ++it) {
    if (it == a.warmup) t0 = b_clock_ns();
    if (a.initiator) {
      for (int k = 0; k < a.n; ++k) {
        if (k && a.delay_ns) {
          if (S::lane() == 0) b_spin_ns(a.delay_ns);
          S::sync();
        }
        b_put_signal<S>(ctx, a.dst, a.src, a.bytes, a.sig, 1, B_SIG_ADD, a.peer);
      }
      b_wait_ge<S>(a.sig, (uint64_t)it + 1);
    } else {
      b_wait_ge<S>(a.sig, (uint64_t)(it + 1) * a.n);
      b_put_signal<S>(ctx, a.dst, a.src, a.bytes, a.sig, 1, B_SIG_ADD, a.peer);
    }
  }
  const uint64_t t1 = b_clock_ns();
  if (threadIdx.x == 0) *a.out_ns = t1 - t0;
  b_ctx_destroy(ctx);
}

__global__ void k_nothing(int) {}

struct bufs {
  uint8_t* dst;
  uint8_t* src;
  uint64_t* sig;
  uint64_t* out;
};

// reps samples of PRTT(n, d, s) in us (valid on A).
std::vector<double> prtt(const bufs& b, scope_t sc, int n, uint64_t d, size_t s) {
  prtt_args a{b.dst, b.src, b.sig, s, n, d, peer_pe(), is_a() ? 1 : 0, g_opt.warmup, g_opt.iters,
              b.out, ctx_fail_counter()};
  std::vector<double> v;
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    pair_step(b.sig, 1, [&] {
      with_scope(sc, [&](auto tag) {
        hipLaunchKernelGGL(k_prtt<decltype(tag)>, dim3(1), dim3(latency_threads(sc)), 0, 0, a);
      });
      hip_check(hipGetLastError(), "launching k_prtt");
    });
    uint64_t ns = 0;
    if (is_a()) fetch(&ns, b.out, sizeof ns, g_env.me);
    v.push_back(ns / (double)g_opt.iters / 1000.0);
  }
  return v;
}

// Least squares y = c0 + c1*x.
void fit(const std::vector<double>& x, const std::vector<double>& y, double* c0, double* c1) {
  double mx = 0, my = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
  mx /= x.size(), my /= y.size();
  for (size_t i = 0; i < x.size(); ++i) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
  *c1 = sxx > 0 ? sxy / sxx : 0.0;
  *c0 = my - *c1 * mx;
}

// S: empty kernel launch + device synchronize, host wall clock, us.
std::vector<double> sync_cost() {
  std::vector<double> v;
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    uint64_t t0 = 0, t1 = 0;
    pair_step(nullptr, 0, [&] {
      if (!is_a()) return;
      for (int i = 0; i < g_opt.warmup + g_opt.iters; ++i) {
        if (i == g_opt.warmup) t0 = host_now_ns();
        hipLaunchKernelGGL(k_nothing, dim3(1), dim3(1), 0, 0, 0);
        device_sync("k_nothing");
      }
      t1 = host_now_ns();
    });
    v.push_back((t1 - t0) / (double)g_opt.iters / 1000.0);
  }
  return v;
}

void loggop_scope(const bufs& b, scope_t sc) {
  const int n = g_opt.train, reps = g_opt.reps;
  const char* scn = scope_name(sc);
  auto rec = [&](const char* metric, const char* unit, size_t bytes, const std::vector<double>& v) {
    report({"loggop", scn, metric, unit, bytes, 1, summarize(v)});
  };
  std::vector<double> p0 = prtt(b, sc, 1, 0, 0);
  rec("prtt_1_0", "us", 0, p0);
  const std::vector<size_t> sizes = g_opt.sizes();
  std::vector<std::vector<double>> y(reps), o1(reps);  // [rep][size]
  for (size_t s : sizes) {
    std::vector<double> p1 = prtt(b, sc, 1, 0, s);
    std::vector<double> pn = prtt(b, sc, n, 0, s);
    const double d_us = summarize(p1).median;
    std::vector<double> pd = prtt(b, sc, n, (uint64_t)(d_us * 1000.0), s);
    rec("prtt_1_0", "us", s, p1);
    rec("prtt_n_0", "us", s, pn);
    rec("prtt_n_d", "us", s, pd);
    std::vector<double> o(reps);
    for (int r = 0; r < reps; ++r) {
      y[r].push_back((pn[r] - p1[r]) / (n - 1));
      o[r] = (pd[r] - p1[r]) / (n - 1) - d_us;
      o1[r].push_back(o[r]);
    }
    rec("o", "us", s, o);
  }
  std::vector<double> L(reps), g(reps), G(reps), xs(sizes.begin(), sizes.end());
  for (int r = 0; r < reps; ++r) {
    L[r] = p0[r] / 2;
    fit(xs, y[r], &g[r], &G[r]);
    G[r] *= 1000.0;  // us/B -> ns/B
  }
  rec("L", "us", 0, L);
  rec("g", "us", 0, g);
  rec("G", "ns/B", 0, G);
  const stats sl = summarize(L), sg = summarize(g), sG = summarize(G);
  std::vector<double> o_small(reps);
  for (int r = 0; r < reps; ++r) o_small[r] = o1[r][0];
  report_note("LogGOP, %s scope, train n=%d: L=%.3f us  o(%zu B)=%.3f us  g=%.3f us  G=%.4g ns/B (%.1f GB/s)",
              scn, n, sl.median, sizes[0], summarize(o_small).median, sg.median, sG.median,
              sG.median > 0 ? 1.0 / sG.median : 0.0);
}

}  // namespace

void run_loggop() {
  bufs b;
  b.dst = (uint8_t*)b_malloc(g_opt.max_size);
  b.src = (uint8_t*)b_malloc(g_opt.max_size);
  b.sig = (uint64_t*)b_malloc(16 * sizeof(uint64_t));
  hip_check(hipMemset(b.src, 0x5a, g_opt.max_size), "hipMemset(src)");
  hip_check(hipMalloc(&b.out, sizeof(uint64_t)), "hipMalloc(out)");
  report_note("PRTT(n,d,s): n messages of s bytes, d us apart, one answer; L=PRTT(1,0,0)/2 (0 B = "
              "signal only); g,G: fit of [PRTT(n,0,s)-PRTT(1,0,s)]/(n-1) = g + G*s; "
              "o(s)=[PRTT(n,d,s)-PRTT(1,0,s)]/(n-1)-d with d=PRTT(1,0,s)");
  report_note("S = empty kernel launch + device synchronize (host clock): the fixed GPU "
              "synchronization cost of one Inter-K step");
  for (scope_t sc : g_opt.scopes) loggop_scope(b, sc);
  std::vector<double> S = sync_cost();
  report({"loggop", "host", "S", "us", 0, 1, summarize(S)});
  report_note("S=%.3f us", summarize(S).median);
  hip_check(hipFree(b.out), "hipFree");
  b_free(b.sig);
  b_free(b.src);
  b_free(b.dst);
}

}  // namespace bench
