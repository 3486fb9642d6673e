// coll: device-initiated collectives over all PEs (SHMEM_TEAM_WORLD), per scope and size.
//
// One work-group per PE (one collective per team at a time: more work-groups would only queue),
// of 1 thread, one wave or --threads threads. The kernel runs warmup + iters collectives back to
// back and times the iters on the GPU clock (b_clock_ns); a sample is the slowest PE's time per
// collective, since a collective is over only when its last PE is. Reported: median, min and
// max over --reps samples, and bandwidth by nccl-tests' definitions (coll_spec.h).
//
// Scope `stream`: the host enqueues warmup + iters of the library's stream collectives
// (shmemx_*_on_stream / nvshmemx_*_on_stream, the grid and algorithm the library picks) on one
// non-blocking stream and times the iters with events recorded on it; the rest is the same.
//
// Before the samples of each (op, size, scope) one untimed collective runs on fresh source
// values and a poisoned dest, and every PE checks its own result; a wrong one aborts the job.
// Its duration also sizes the samples (coll_iters).
#include <cstdio>
#include <type_traits>

#include "coll_spec.h"
#include "harness.h"

namespace bench {
namespace {

struct coll_args {
  float* dst;
  const float* src;
  size_t nelems;
  int warmup, iters;
  uint64_t* out_ns;  // symmetric: PE 0 reads every PE's time
  int* err;          // local: the last nonzero return seen
};

template <class S, coll_op OP>
B_DFN int coll_once(const coll_args& a) {
  if constexpr (OP == coll_op::barrier) return b_team_sync<S>();
  else if constexpr (OP == coll_op::broadcast) return b_broadcast<S>(a.dst, a.src, a.nelems, kCollRoot);
  else if constexpr (OP == coll_op::fcollect) return b_fcollect<S>(a.dst, a.src, a.nelems);
  else if constexpr (OP == coll_op::alltoall) return b_alltoall<S>(a.dst, a.src, a.nelems);
  else return b_sum_reduce<S>(a.dst, a.src, a.nelems);
}

template <class S, coll_op OP>
__global__ void k_coll(coll_args a) {
  int rc = 0;
  uint64_t t0 = b_clock_ns();
  for (int i = 0; i < a.warmup + a.iters; ++i) {
    if (i == a.warmup) t0 = b_clock_ns();
    const int r = coll_once<S, OP>(a);
    if (r) rc = r;
  }
  const uint64_t t1 = b_clock_ns();
  if (threadIdx.x == 0) {
    *a.out_ns = t1 - t0;
    if (rc) *a.err = rc;
  }
}

template <class F>
void with_op(coll_op op, F f) {
  switch (op) {
    case coll_op::barrier: f(std::integral_constant<coll_op, coll_op::barrier>{}); break;
    case coll_op::broadcast: f(std::integral_constant<coll_op, coll_op::broadcast>{}); break;
    case coll_op::fcollect: f(std::integral_constant<coll_op, coll_op::fcollect>{}); break;
    case coll_op::alltoall: f(std::integral_constant<coll_op, coll_op::alltoall>{}); break;
    default: f(std::integral_constant<coll_op, coll_op::reduce>{}); break;
  }
}

struct coll_bufs {
  float* src = nullptr;
  float* dst = nullptr;
  uint64_t* t = nullptr;      // one word: this PE's kernel time
  uint64_t* agree = nullptr;  // one word: see agree_max
  int* err = nullptr;         // local device memory
};

void* sym_alloc(size_t n, const char* what) {
  void* p = b_malloc(n);
  if (!p && n) {
    fprintf(stderr, "gio-bench: PE %d: no %zu bytes of symmetric heap for %s: raise GIO_SYMMETRIC_SIZE "
                    "(NVSHMEM_SYMMETRIC_SIZE) or lower --max-size\n", g_env.me, n, what);
    b_abort(1);
  }
  return p;
}

// The largest v any PE holds, on every PE: the PEs must agree on how many collectives to run.
uint64_t agree_max(const coll_bufs& b, uint64_t v) {
  hip_check(hipMemcpy(b.agree, &v, sizeof v, hipMemcpyHostToDevice), "hipMemcpy(agree)");
  b_barrier_all();
  for (int pe = 0; pe < g_env.npes; ++pe) {
    uint64_t x = 0;
    fetch(&x, b.agree, sizeof x, pe);
    v = std::max(v, x);
  }
  b_barrier_all();  // nobody overwrites its word before every PE has read it
  return v;
}

struct stream_state {
  hipStream_t s = nullptr;
  hipEvent_t e0 = nullptr, e1 = nullptr;
};
stream_state g_stream;

void stream_failed(coll_op op, size_t bytes, int rc) {
  fprintf(stderr, "gio-bench: PE %d: coll %s, stream scope, %zu B: the collective returned %d\n", g_env.me,
          coll_op_name(op), bytes, rc);
  b_abort(1);
}

// Scope stream: every PE meets the others, enqueues, waits; its time for the iters goes to a.out_ns.
void enqueue(coll_op op, const coll_args& a, size_t bytes) {
  device_sync("before the stream collectives");
  b_barrier_all();
  const stream_state& st = g_stream;
  for (int i = 0; i < a.warmup + a.iters; ++i) {
    if (i == a.warmup) hip_check(hipEventRecord(st.e0, st.s), "hipEventRecord");
    if (const int rc = b_coll_on_stream(op, a.dst, a.src, a.nelems, st.s)) stream_failed(op, bytes, rc);
  }
  hip_check(hipEventRecord(st.e1, st.s), "hipEventRecord");
  hip_check(hipStreamSynchronize(st.s), "the stream collectives");
  float ms = 0;
  hip_check(hipEventElapsedTime(&ms, st.e0, st.e1), "hipEventElapsedTime");
  const uint64_t ns = (uint64_t)((double)ms * 1e6);
  hip_check(hipMemcpy(a.out_ns, &ns, sizeof ns, hipMemcpyHostToDevice), "hipMemcpy(time)");
  b_barrier_all();
}

// Every PE meets the others, launches, waits.
void launch(coll_op op, scope_t sc, const coll_args& a, size_t bytes) {
  if (sc == scope_t::stream) return enqueue(op, a, bytes);
  device_sync("before k_coll");
  b_barrier_all();
  with_scope(sc, [&](auto tag) {
    with_op(op, [&](auto o) {
      hipLaunchKernelGGL((k_coll<decltype(tag), decltype(o)::value>), dim3(1), dim3(latency_threads(sc)), 0, 0, a);
    });
  });
  hip_check(hipGetLastError(), "launching k_coll");
  device_sync("k_coll");
  int err = 0;
  hip_check(hipMemcpy(&err, a.err, sizeof err, hipMemcpyDeviceToHost), "hipMemcpy(err)");
  if (err) {
    fprintf(stderr, "gio-bench: PE %d: coll %s, %s scope, %zu B: the collective returned %d\n", g_env.me,
            coll_op_name(op), scope_name(sc), bytes, err);
    b_abort(1);
  }
  b_barrier_all();
}

// The untimed, checked collective; returns its duration, the slowest PE's. The kernel's own
// clock, not the host's: a kernel's first launch can cost milliseconds, which would cut the
// iterations of a 1 us collective to a handful.
uint64_t check(const coll_bufs& b, coll_op op, scope_t sc, size_t bytes) {
  const size_t ne = bytes / sizeof(float);
  coll_args a{b.dst, b.src, ne, 0, 1, b.t, b.err};
  uint64_t t = 0;
  if (op == coll_op::barrier) {  // nothing to check
    launch(op, sc, a, bytes);
    hip_check(hipMemcpy(&t, b.t, sizeof t, hipMemcpyDeviceToHost), "hipMemcpy(time)");
    return agree_max(b, t);
  }
  std::vector<float> h;
  coll_fill_source(op, ne, g_env.me, g_env.npes, &h);
  hip_check(hipMemcpy(b.src, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice), "hipMemcpy(src)");
  h.assign(coll_dst_elems(op, ne, g_env.npes), 0.0f);
  // All ones: a NaN, so a dest the collective never wrote fails the check.
  hip_check(hipMemset(b.dst, 0xff, h.size() * sizeof(float)), "hipMemset(dst)");
  launch(op, sc, a, bytes);
  hip_check(hipMemcpy(&t, b.t, sizeof t, hipMemcpyDeviceToHost), "hipMemcpy(time)");
  hip_check(hipMemcpy(h.data(), b.dst, h.size() * sizeof(float), hipMemcpyDeviceToHost), "hipMemcpy(dst)");
  const std::string why = coll_check(op, h.data(), ne, g_env.me, g_env.npes);
  if (!why.empty()) {
    fprintf(stderr, "gio-bench: PE %d: coll %s, %s scope, %zu B per PE, %d PEs: WRONG RESULT: %s\n",
            g_env.me, coll_op_name(op), scope_name(sc), bytes, g_env.npes, why.c_str());
    b_abort(1);
  }
  return agree_max(b, t);
}

void coll_point(const coll_bufs& b, coll_op op, scope_t sc, size_t bytes) {
  const uint64_t one = check(b, op, sc, bytes);
  const int iters = coll_iters(g_opt.iters, (double)one);
  const int warmup = coll_warmup(g_opt.warmup, iters, (double)one);
  coll_args a{b.dst, b.src, bytes / sizeof(float), warmup, iters, b.t, b.err};
  std::vector<double> us;
  std::vector<uint64_t> ns(g_env.npes);
  for (int rep = 0; rep < g_opt.reps; ++rep) {
    launch(op, sc, a, bytes);
    if (!g_env.reporter) continue;
    for (int pe = 0; pe < g_env.npes; ++pe) fetch(&ns[pe], b.t, sizeof(uint64_t), pe);
    us.push_back(*std::max_element(ns.begin(), ns.end()) / (double)iters / 1000.0);
  }
  // Stream scope: the library chooses its grid (threads 0).
  const int threads = sc == scope_t::stream ? 0 : (int)latency_threads(sc);
  report_coll({op, scope_name(sc), bytes, threads, iters, summarize(us)});
}

}  // namespace

void run_coll() {
  size_t src = 0, dst = 0;
  const size_t most = g_opt.max_size / sizeof(float);
  for (coll_op op : g_opt.ops) {
    src = std::max(src, coll_src_elems(op, most, g_env.npes));
    dst = std::max(dst, coll_dst_elems(op, most, g_env.npes));
  }
  coll_bufs b;
  b.src = (float*)sym_alloc(std::max<size_t>(src, 1) * sizeof(float), "coll sources");
  b.dst = (float*)sym_alloc(std::max<size_t>(dst, 1) * sizeof(float), "coll dests");
  b.t = (uint64_t*)sym_alloc(sizeof(uint64_t), "coll times");
  b.agree = (uint64_t*)sym_alloc(sizeof(uint64_t), "coll agreement");
  hip_check(hipMalloc(&b.err, sizeof(int)), "hipMalloc(err)");
  hip_check(hipMemset(b.err, 0, sizeof(int)), "hipMemset(err)");
  const bool streams = std::find(g_opt.scopes.begin(), g_opt.scopes.end(), scope_t::stream) != g_opt.scopes.end();
  if (streams) {
    hip_check(hipStreamCreateWithFlags(&g_stream.s, hipStreamNonBlocking), "hipStreamCreateWithFlags");
    hip_check(hipEventCreate(&g_stream.e0), "hipEventCreate");
    hip_check(hipEventCreate(&g_stream.e1), "hipEventCreate");
  }
  report_note("coll: bytes = one PE's contribution; us = slowest PE's time per collective; algbw/busbw "
              "in GB/s by nccl-tests' definitions, from %zu B", kCollBwMinBytes);
  for (coll_op op : g_opt.ops)
    for (scope_t sc : g_opt.scopes) {
      if (op == coll_op::barrier) coll_point(b, op, sc, 0);
      else
        for (size_t s : g_opt.sizes()) coll_point(b, op, sc, s);
    }
  if (streams) {
    hip_check(hipEventDestroy(g_stream.e0), "hipEventDestroy");
    hip_check(hipEventDestroy(g_stream.e1), "hipEventDestroy");
    hip_check(hipStreamDestroy(g_stream.s), "hipStreamDestroy");
  }
  hip_check(hipFree(b.err), "hipFree");
  b_free(b.agree);
  b_free(b.t);
  b_free(b.dst);
  b_free(b.src);
}

}  // namespace bench
