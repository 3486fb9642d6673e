// put_latency: how long one put takes, device-initiated, at each scope and size, with 1..N
// work-groups posting at once (each with its own context, buffers and signal: does one
// work-group's latency grow with the others?), against the Inter-K baselines.
//
//  pingpong_half_rtt  A: putmem_signal(SET i) to B, wait for B's signal >= i; B mirrors it.
//                     Timed in the kernel (b_clock_ns); half the round trip per iteration.
//  put_nbi_quiet      A alone: putmem_nbi then quiet, per iteration (completion latency).
//  interk_half_rtt    the same ping-pong with the host moving the data: a kernel runs and ends,
//                     the host does putmem + a host-side signal put, the peer's host sees the
//                     signal and starts its kernel. Host wall clock; half the round trip.
//  interk_empty       A alone: an empty kernel launch + synchronize, then the host put + signal.
// --pair A,A (one PE is enough): A targets its own heap through the transport GIO chose for it;
// only put_nbi_quiet runs. On one GPU this is the latency two processes sharing it cannot show
// (their kernels and the target's small copies wait for each other's time slices).
#include "harness.h"

namespace bench {
namespace {

constexpr size_t kSigWords = 16;  // 128 B between work-groups' signals: no false sharing

struct lat_args {
  uint8_t* dst;
  const uint8_t* src;
  uint64_t* sig;
  size_t stride, bytes;
  int peer, initiator, warmup, iters;
  uint64_t* out_ns;  // per work-group: ns spent in the timed iterations
  int* ctx_fail;
};

template <class S>
__global__ void k_pingpong(lat_args a) {
  const unsigned w = blockIdx.x;
  b_ctx_t ctx = b_ctx_create(a.ctx_fail);
  uint8_t* dst = a.dst + w * a.stride;
  const uint8_t* src = a.src + w * a.stride;
  uint64_t* sig = a.sig + w * kSigWords;
  uint64_t t0 = b_clock_ns();
  for (int i = 1; i <= a.warmup + a.iters; ++i) {
    if (i == a.warmup + 1) t0 = b_clock_ns();
    if (a.initiator) {
      b_put_signal<S>(ctx, dst, src, a.bytes, sig, (uint64_t)i, B_SIG_SET, a.peer);
      b_wait_ge<S>(sig, (uint64_t)i);
    } else {
      b_wait_ge<S>(sig, (uint64_t)i);
      b_put_signal<S>(ctx, dst, src, a.bytes, sig, (uint64_t)i, B_SIG_SET, a.peer);
    }
  }
  const uint64_t t1 = b_clock_ns();
  if (threadIdx.x == 0) a.out_ns[w] = t1 - t0;
  b_ctx_destroy(ctx);
}

template <class S>
__global__ void k_nbi_quiet(lat_args a) {
  const unsigned w = blockIdx.x;
  b_ctx_t ctx = b_ctx_create(a.ctx_fail);
  uint8_t* dst = a.dst + w * a.stride;
  const uint8_t* src = a.src + w * a.stride;
  uint64_t t0 = b_clock_ns();
  for (int i = 0; i < a.warmup + a.iters; ++i) {
    if (i == a.warmup) t0 = b_clock_ns();
    b_put_nbi<S>(ctx, dst, src, a.bytes, a.peer);
    b_quiet<S>(ctx);
  }
  const uint64_t t1 = b_clock_ns();
  if (threadIdx.x == 0) a.out_ns[w] = t1 - t0;
  b_ctx_destroy(ctx);
}

// The compute kernel of one Inter-K hop: it consumes the message that arrived and produces the
// next one (one byte each way keeps the data dependence real without adding work).
__global__ void k_hop(const uint8_t* in, uint8_t* out, uint64_t i) {
  if (threadIdx.x == 0) out[0] = (uint8_t)(in[0] + i);
}
__global__ void k_empty(int) {}

struct buffers {
  uint8_t* dst = nullptr;
  uint8_t* src = nullptr;
  uint64_t* sig = nullptr;
  uint64_t* out = nullptr;  // local device memory
  size_t stride = 0;
  int max_wgs = 1;
};

void device_rounds(const buffers& b, scope_t sc, int wgs, size_t bytes) {
  lat_args a{b.dst, b.src, b.sig, b.stride, bytes, peer_pe(), is_a() ? 1 : 0, g_opt.warmup,
             g_opt.iters, b.out, ctx_fail_counter()};
  const unsigned threads = latency_threads(sc);
  std::vector<double> pp, nq;
  std::vector<uint64_t> ns(wgs);
  const bool self = pair_is_self();  // no peer to answer a ping-pong
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    if (!self) pair_step(b.sig, (size_t)wgs * kSigWords, [&] {
      with_scope(sc, [&](auto tag) {
        hipLaunchKernelGGL(k_pingpong<decltype(tag)>, dim3(wgs), dim3(threads), 0, 0, a);
      });
      hip_check(hipGetLastError(), "launching k_pingpong");
    });
    if (is_a() && !self) {
      fetch(ns.data(), b.out, wgs * sizeof(uint64_t), g_env.me);
      for (uint64_t t : ns) pp.push_back(t / 2.0 / g_opt.iters / 1000.0);
    }
    pair_step(nullptr, 0, [&] {
      if (!is_a()) return;
      with_scope(sc, [&](auto tag) {
        hipLaunchKernelGGL(k_nbi_quiet<decltype(tag)>, dim3(wgs), dim3(threads), 0, 0, a);
      });
      hip_check(hipGetLastError(), "launching k_nbi_quiet");
    });
    if (is_a()) {
      fetch(ns.data(), b.out, wgs * sizeof(uint64_t), g_env.me);
      for (uint64_t t : ns) nq.push_back(t / (double)g_opt.iters / 1000.0);
    }
  }
  // Every rep gives one sample per work-group: the spread covers work-groups and reps.
  if (!self) report({"put_latency", scope_name(sc), "pingpong_half_rtt", "us", bytes, wgs, summarize(pp)});
  report({"put_latency", scope_name(sc), "put_nbi_quiet", "us", bytes, wgs, summarize(nq)});
}

void interk_rounds(const buffers& b, size_t bytes) {
  const int total = g_opt.warmup + g_opt.iters;
  std::vector<double> pp, empty;
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    uint64_t t0 = 0, t1 = 0;
    pair_step(b.sig, kSigWords, [&] {
      for (int i = 1; i <= total; ++i) {
        if (i == g_opt.warmup + 1) t0 = host_now_ns();
        if (is_b()) host_wait_ge(b.sig, (uint64_t)i, "interk (B waits for A)");
        hipLaunchKernelGGL(k_hop, dim3(1), dim3(1), 0, 0, b.dst, b.src, (uint64_t)i);
        device_sync("k_hop");
        b_host_put_signal(b.dst, b.src, bytes, b.sig, (uint64_t)i, peer_pe());
        if (is_a()) host_wait_ge(b.sig, (uint64_t)i, "interk (A waits for B)");
      }
      t1 = host_now_ns();
    });
    if (is_a()) pp.push_back((t1 - t0) / 2.0 / g_opt.iters / 1000.0);
    pair_step(b.sig, kSigWords, [&] {
      if (!is_a()) return;
      for (int i = 1; i <= total; ++i) {
        if (i == g_opt.warmup + 1) t0 = host_now_ns();
        hipLaunchKernelGGL(k_empty, dim3(1), dim3(1), 0, 0, 0);
        device_sync("k_empty");
        b_host_put_signal(b.dst, b.src, bytes, b.sig, (uint64_t)i, peer_pe());
      }
      t1 = host_now_ns();
    });
    if (is_a()) empty.push_back((t1 - t0) / (double)g_opt.iters / 1000.0);
  }
  report({"put_latency", "host", "interk_half_rtt", "us", bytes, 1, summarize(pp)});
  report({"put_latency", "host", "interk_empty", "us", bytes, 1, summarize(empty)});
}

}  // namespace

void run_put_latency() {
  buffers b;
  for (int w : g_opt.wgs) b.max_wgs = std::max(b.max_wgs, w);
  b.stride = (g_opt.max_size + 255) / 256 * 256;
  b.dst = (uint8_t*)b_malloc(b.stride * b.max_wgs);
  b.src = (uint8_t*)b_malloc(b.stride * b.max_wgs);
  b.sig = (uint64_t*)b_malloc(b.max_wgs * kSigWords * sizeof(uint64_t));
  hip_check(hipMemset(b.src, 0x5a, b.stride * b.max_wgs), "hipMemset(src)");
  hip_check(hipMalloc(&b.out, b.max_wgs * sizeof(uint64_t)), "hipMalloc(out)");
  const std::vector<size_t> sizes = g_opt.sizes();
  for (scope_t sc : g_opt.scopes)
    for (int wgs : g_opt.wgs)
      for (size_t s : sizes) device_rounds(b, sc, wgs, s);
  if (!pair_is_self())
    for (size_t s : sizes) interk_rounds(b, s);
  hip_check(hipFree(b.out), "hipFree");
  b_free(b.sig);
  b_free(b.src);
  b_free(b.dst);
}

}  // namespace bench
