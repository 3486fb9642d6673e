// bw and msgrate: puts streamed from many issuers at once, quiet at the end of each sample.
// An issuer is a thread, a wave or a work-group (the scope); every launch has --wgs work-groups
// of --threads threads, each work-group with its own context.
//
//  bw       each iteration moves one message of `bytes`, split evenly over the issuers
//           (shmem_putmem_nbi / _wave / _wg); bytes * iters / time, in GB/s (1e9 B/s).
//  msgrate  each issuer puts its own 8 bytes per iteration, to a fresh address every iteration
//           (repeated stores to one address could be merged before they reach the wire);
//           issuers * iters / time, in Mmsg/s.
// Time: from the first work-group's start to the last one's end after its quiet, read from the
// GPU clock that all work-groups share. --bidir: both PEs stream to each other at once, each
// timed on its sender; the reported figure is the sum of the two directions.
#include "harness.h"

namespace bench {
namespace {

struct stream_args {
  uint8_t* dst;
  const uint8_t* src;
  size_t total, chunk;  // bytes per iteration, bytes per issuer
  size_t stride;        // how far the destination moves each iteration (0: the same bytes again)
  int peer, warmup, iters;
  uint64_t* t;  // per work-group: start and end
  int* ctx_fail;
};

template <class S>
B_DFN size_t issuer_id();
template <>
B_DFN size_t issuer_id<b_thread>() {
  return (size_t)blockIdx.x * blockDim.x + threadIdx.x;
}
template <>
B_DFN size_t issuer_id<b_wave>() {
  return (size_t)blockIdx.x * ((blockDim.x + warpSize - 1) / warpSize) + threadIdx.x / warpSize;
}
template <>
B_DFN size_t issuer_id<b_wg>() {
  return blockIdx.x;
}

template <class S>
__global__ void k_stream(stream_args a) {
  b_ctx_t ctx = b_ctx_create(a.ctx_fail);
  const size_t off = issuer_id<S>() * a.chunk;
  const size_t len = off < a.total ? (a.chunk < a.total - off ? a.chunk : a.total - off) : 0;
  uint64_t t0 = 0;
  for (int i = 0; i < a.warmup + a.iters; ++i) {
    if (i == a.warmup) {
      b_quiet<S>(ctx);  // warm-up puts are complete before the clock starts
      __syncthreads();
      t0 = b_clock_ns();
    }
    if (len) b_put_nbi<S>(ctx, a.dst + off + (size_t)i * a.stride, a.src + off, len, a.peer);
  }
  b_quiet<S>(ctx);
  __syncthreads();
  if (threadIdx.x == 0) {
    a.t[2 * blockIdx.x] = t0;
    a.t[2 * blockIdx.x + 1] = b_clock_ns();
  }
  b_ctx_destroy(ctx);
}

size_t issuers(scope_t sc, int wgs) {
  const size_t th = (size_t)g_opt.threads;
  switch (sc) {
    case scope_t::thread: return wgs * th;
    case scope_t::wave: return wgs * ((th + g_env.warp - 1) / g_env.warp);
    default: return (size_t)wgs;
  }
}

struct stream_bufs {
  uint8_t* dst = nullptr;
  uint8_t* src = nullptr;
  uint64_t* t = nullptr;  // symmetric, so A can read B's times (bidir)
  int max_wgs = 1;
};

// Span of one sample on `pe`: the earliest start to the latest end over its work-groups.
double span_ns(const stream_bufs& b, int wgs, int pe) {
  std::vector<uint64_t> t(2 * wgs);
  fetch(t.data(), b.t, t.size() * sizeof(uint64_t), pe);
  uint64_t lo = t[0], hi = t[1];
  for (int w = 0; w < wgs; ++w) lo = std::min(lo, t[2 * w]), hi = std::max(hi, t[2 * w + 1]);
  return hi > lo ? (double)(hi - lo) : 1.0;  // a span below the clock's tick counts as 1 ns
}

// One (scope, work-groups, size) point: reps samples of work/time, work = units per iteration.
stats stream_point(const stream_bufs& b, scope_t sc, int wgs, size_t total, size_t chunk, size_t stride,
                   double units, double unit_scale) {
  stream_args a{b.dst, b.src, total, chunk, stride, peer_pe(), g_opt.warmup, g_opt.iters, b.t,
                ctx_fail_counter()};
  std::vector<double> v;
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    pair_step(nullptr, 0, [&] {
      if (!is_a() && !g_opt.bidir) return;
      with_scope(sc, [&](auto tag) {
        hipLaunchKernelGGL(k_stream<decltype(tag)>, dim3(wgs), dim3(g_opt.threads), 0, 0, a);
      });
      hip_check(hipGetLastError(), "launching k_stream");
    });
    if (!is_a()) continue;
    double rate = units * g_opt.iters / span_ns(b, wgs, g_env.me);
    if (g_opt.bidir) rate += units * g_opt.iters / span_ns(b, wgs, g_opt.pair_b);
    v.push_back(rate * unit_scale);
  }
  return summarize(v);
}

stream_bufs alloc(size_t bytes, size_t dst_bytes) {
  stream_bufs b;
  for (int w : g_opt.wgs) b.max_wgs = std::max(b.max_wgs, w);
  b.dst = (uint8_t*)b_malloc(dst_bytes);
  b.src = (uint8_t*)b_malloc(bytes);
  b.t = (uint64_t*)b_malloc(2 * b.max_wgs * sizeof(uint64_t));
  hip_check(hipMemset(b.src, 0x5a, bytes), "hipMemset(src)");
  return b;
}

void release(stream_bufs& b) {
  b_free(b.t);
  b_free(b.src);
  b_free(b.dst);
}

}  // namespace

void run_bw() {
  stream_bufs b = alloc(g_opt.max_size, g_opt.max_size);
  const char* metric = g_opt.bidir ? "bw_bidir" : "bw_uni";
  for (scope_t sc : g_opt.scopes)
    for (int wgs : g_opt.wgs)
      for (size_t s : g_opt.sizes()) {
        // Whole 16-byte words per issuer keep every copy on its widest path.
        size_t n = issuers(sc, wgs);
        size_t chunk = ((s + n - 1) / n + 15) / 16 * 16;
        // bytes per ns = GB/s
        stats st = stream_point(b, sc, wgs, s, chunk, 0, (double)s, 1.0);
        report({"bw", scope_name(sc), metric, "GB/s", s, wgs, st});
      }
  release(b);
}

void run_msgrate() {
  int max_wgs = 1;
  for (int w : g_opt.wgs) max_wgs = std::max(max_wgs, w);
  size_t most = 0;
  for (scope_t sc : g_opt.scopes) most = std::max(most, issuers(sc, max_wgs));
  stream_bufs b = alloc(most * 8, most * 8 * (size_t)(g_opt.warmup + g_opt.iters));
  const char* metric = g_opt.bidir ? "msgrate_bidir" : "msgrate_uni";
  for (scope_t sc : g_opt.scopes)
    for (int wgs : g_opt.wgs) {
      size_t n = issuers(sc, wgs);
      // messages per ns * 1e3 = millions of messages per second
      stats st = stream_point(b, sc, wgs, n * 8, 8, n * 8, (double)n, 1e3);
      report({"msgrate", scope_name(sc), metric, "Mmsg/s", 8, wgs, st});
    }
  release(b);
}

}  // namespace bench
