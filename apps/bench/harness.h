// What every benchmark shares: the run's options and environment, the pair's roles, error checks,
// launch shapes, and the collective step that keeps all PEs in lock-step between measurements.
#pragma once
#include <algorithm>
#include <vector>

#include "bench.h"
#include "bench_api.h"

namespace bench {

extern options g_opt;
extern run_env g_env;

inline bool is_a() { return g_env.me == g_opt.pair_a; }
inline bool is_b() { return g_env.me == g_opt.pair_b; }
inline bool in_pair() { return is_a() || is_b(); }
inline bool pair_is_self() { return g_opt.pair_a == g_opt.pair_b; }  // --pair A,A: no peer to answer
inline int peer_pe() { return is_a() ? g_opt.pair_b : g_opt.pair_a; }

// Aborts the whole job with the failed call's name when e is an error.
void hip_check(hipError_t e, const char* what);
// Waits for this PE's kernels and checks they ran.
void device_sync(const char* what);

// Threads per work-group for a scope. Latency kernels give each scope exactly its own size (one
// thread, one wave, or --threads); throughput kernels always launch --threads and let every
// thread, wave or work-group of them be one issuer.
unsigned latency_threads(scope_t s);

// Calls f(tag) with the scope tag type (b_thread, b_wave, b_wg) that matches s.
template <class F>
void with_scope(scope_t s, F f) {
  switch (s) {
    case scope_t::thread: f(b_thread{}); break;
    case scope_t::wave: f(b_wave{}); break;
    default: f(b_wg{}); break;
  }
}

// Device counter of work-groups that got no context of their own (see b_ctx_create).
int* ctx_fail_counter();
// Reads and clears the counter; notes once per run when any work-group fell back.
void check_ctx_fallback();

// One collective step: every PE zeroes its `nsig` signal words, all PEs meet, the pair runs
// body() (launches and whatever host work the measurement needs), every PE waits for its
// kernels, and all meet again. Idle PEs only take part in the barriers.
template <class F>
void pair_step(uint64_t* sig, size_t nsig, F body) {
  if (sig) hip_check(hipMemset(sig, 0, nsig * sizeof(uint64_t)), "hipMemset(signals)");
  device_sync("clearing signals");
  b_barrier_all();
  if (in_pair()) body();
  device_sync("benchmark kernel");
  b_barrier_all();
  check_ctx_fallback();
}

// Copies n bytes of device memory (local, or symmetric on PE `pe`) to the host.
void fetch(void* host, const void* dev, size_t n, int pe);

// Host-side wait for this PE's own signal to reach v (Inter-K), bounded: aborts after 60 s.
void host_wait_ge(const uint64_t* sig, uint64_t v, const char* what);

// The subcommands.
void run_put_latency();
void run_bw();
void run_msgrate();
void run_loggop();
void run_coll();
void run_strided();
void run_callcost();

std::string transports_to_all();
}  // namespace bench
