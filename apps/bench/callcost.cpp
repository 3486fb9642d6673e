// callcost: what one put_nbi call costs its caller, in the issuing SM's cycles, at thread, wave and
// work-group scope, against the probe of the same run: the same scope storing the same bytes
// straight into the target's memory (b_ptr) between the same two scope synchronizations a
// cooperative call has. The difference is the library's own per-call work (argument checks,
// dispatch, the copy loop's setup), which a message rate over many work-groups multiplies.
//
//  put_nbi_call    cycles per b_put_nbi<S> call, back to back, one work-group, one target
//  raw_store_call  cycles per raw copy at scope S (absent when the target is not load/store mapped)
//  overhead        put_nbi_call - raw_store_call (a median of per-rep differences)
//  raw_vec_call    thread scope: cycles per raw copy of 16-byte words, up to 16 loads in flight
//                  before their stores (the fastest a lone thread's copy runs; absent unless both
//                  addresses and the size are multiples of 16)
//
// Only PE A runs; the target is PE B (--pair A,A: A's own heap). No quiet inside the timed loop:
// the puts complete in one quiet after it (outside the timing), as a message-rate loop's would.
// On the host platform the "cycles" are clock64's nanoseconds.
#include <type_traits>

#include "harness.h"

namespace bench {
namespace {

struct cost_args {
  uint8_t* dst;        // symmetric
  const uint8_t* src;  // symmetric, local
  size_t bytes;
  int pe, warmup, iters;
  uint64_t* out;  // [0]: put_nbi cycles, [1]: raw cycles (0: not mapped), [2]: raw_vec cycles (0: none)
  int* ctx_fail;
};

// The scope's lanes copy n bytes, 8 at a time where both ends allow it.
template <class S>
B_DFN void raw_copy(uint8_t* d, const uint8_t* s, size_t n) {
  const unsigned lane = S::lane(), lanes = S::lanes();
  if ((((uintptr_t)d | (uintptr_t)s | n) & 7) == 0) {
    for (size_t i = lane; i < n / 8; i += lanes) ((volatile uint64_t*)d)[i] = ((const uint64_t*)s)[i];
  } else {
    for (size_t i = lane; i < n; i += lanes) ((volatile uint8_t*)d)[i] = s[i];
  }
}

// One thread copies n bytes (a multiple of 16, both ends 16-byte aligned) in 16-byte words, a batch
// of up to 16 loads before its stores. The compiler barrier keeps each call's loads and stores in
// place: the calls repeat the same bytes, which the compiler could otherwise merge.
B_DFN void raw_copy_vec(uint8_t* d, const uint8_t* s, size_t n) {
  struct alignas(16) w16 {
    unsigned long long a, b;
  };
  const size_t words = n / 16;
  for (size_t i = 0; i < words; i += 16) {
    w16 v[16];
#pragma unroll
    for (int k = 0; k < 16; ++k)
      if (i + k < words) v[k] = ((const w16*)s)[i + k];
#pragma unroll
    for (int k = 0; k < 16; ++k)
      if (i + k < words) ((w16*)d)[i + k] = v[k];
  }
  asm volatile("" ::: "memory");
}

template <class S>
__global__ void k_callcost(cost_args a) {
  b_ctx_t ctx = b_ctx_create(a.ctx_fail);
  uint64_t t0 = 0;
  S::sync();
  for (int i = 0; i < a.warmup + a.iters; ++i) {
    if (i == a.warmup) t0 = b_cycles();
    b_put_nbi<S>(ctx, a.dst, a.src, a.bytes, a.pe);
  }
  const uint64_t put = b_cycles() - t0;
  b_quiet<S>(ctx);
  uint64_t raw = 0;
  uint8_t* mapped = (uint8_t*)b_ptr(a.dst, a.pe);
  if (mapped) {
    S::sync();
    for (int i = 0; i < a.warmup + a.iters; ++i) {
      if (i == a.warmup) t0 = b_cycles();
      S::sync();
      raw_copy<S>(mapped, a.src, a.bytes);
      S::sync();
    }
    raw = b_cycles() - t0;
    if (raw == 0) raw = 1;  // 0 means "not mapped" to the host
  }
  uint64_t vec = 0;
  if constexpr (std::is_same<S, b_thread>::value) {
    if (mapped && (((uintptr_t)mapped | (uintptr_t)a.src | a.bytes) & 15) == 0) {
      for (int i = 0; i < a.warmup + a.iters; ++i) {
        if (i == a.warmup) t0 = b_cycles();
        raw_copy_vec(mapped, a.src, a.bytes);
      }
      vec = b_cycles() - t0;
      if (vec == 0) vec = 1;
    }
  }
  if (threadIdx.x == 0) a.out[0] = put, a.out[1] = raw, a.out[2] = vec;
  b_ctx_destroy(ctx);
}

}  // namespace

void run_callcost() {
  const std::vector<size_t> sizes = g_opt.sizes();
  const size_t max = sizes.back();
  uint8_t* dst = (uint8_t*)b_malloc(max);
  uint8_t* src = (uint8_t*)b_malloc(max);
  uint64_t* out = nullptr;
  hip_check(hipMemset(src, 0x5a, max), "hipMemset(src)");
  hip_check(hipMalloc(&out, 3 * sizeof(uint64_t)), "hipMalloc(out)");
  bool noted = false;
  for (scope_t sc : g_opt.scopes)
    for (size_t bytes : sizes) {
      cost_args a{dst, src, bytes, peer_pe(), g_opt.warmup, g_opt.iters, out, ctx_fail_counter()};
      std::vector<double> put, raw, over, vec;
      for (int rep = 0; rep < g_opt.reps; ++rep) {
        pair_step(nullptr, 0, [&] {
          if (!is_a()) return;
          with_scope(sc, [&](auto tag) {
            hipLaunchKernelGGL(k_callcost<decltype(tag)>, dim3(1), dim3(latency_threads(sc)), 0, 0, a);
          });
          hip_check(hipGetLastError(), "launching k_callcost");
        });
        if (!is_a()) continue;
        uint64_t c[3];
        fetch(c, out, sizeof c, g_env.me);
        put.push_back((double)c[0] / g_opt.iters);
        if (c[1]) {
          raw.push_back((double)c[1] / g_opt.iters);
          over.push_back(put.back() - raw.back());
        }
        if (c[2]) vec.push_back((double)c[2] / g_opt.iters);
      }
      if (!is_a()) continue;
      report({"callcost", scope_name(sc), "put_nbi_call", "cycles", bytes, 1, summarize(put)});
      if (!raw.empty()) {
        report({"callcost", scope_name(sc), "raw_store_call", "cycles", bytes, 1, summarize(raw)});
        report({"callcost", scope_name(sc), "overhead", "cycles", bytes, 1, summarize(over)});
        if (!vec.empty()) report({"callcost", scope_name(sc), "raw_vec_call", "cycles", bytes, 1, summarize(vec)});
      } else if (!noted) {
        fprintf(stderr, "gio-bench: callcost: PE %d's heap is not load/store mapped from PE %d: no raw-store probe\n",
                peer_pe(), g_env.me);
        noted = true;
      }
    }
  hip_check(hipFree(out), "hipFree");
  b_free(src);
  b_free(dst);
}

}  // namespace bench
