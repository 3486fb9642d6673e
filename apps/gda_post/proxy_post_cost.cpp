// gio-proxy-post: what the proxy transport (IKN) costs before any network is involved, the inputs
// of the LogGOP projection (docs/performance/loggop-projection.md) that one GPU can measure:
//   post    - GPU cycles a kernel spends posting one 64-byte command into a ring in pinned host
//             memory (device/proxy/proxy_post.h, the code every proxy operation runs), at thread,
//             wave and work-group scope, 1 and 64 work-groups; nobody drains the rings, and each
//             measurement posts fewer commands than a ring holds.
//   handoff - the round trip a proxy adds to every operation: a kernel posts a command and waits
//             for its completion counter; a host thread (like host/proxy/proxy_run.cpp, minus
//             libfabric) polls the ring, sees the command and publishes its completion at once.
//             Timed by the host between successive commands seen (ns per round trip) and by the
//             GPU clock in the kernel (post to completion seen).
//   gio-proxy-post [--posts N] [--reps R] [--handoffs N] [--json FILE]
#include <shmem.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "apps/gda_post/post_cost.h"
#include "device/proxy/proxy_post.h"

using namespace post_cost;

namespace {

__device__ gio_proxy_cmd_v1 put_cmd(uint64_t k) {
  gio_proxy_cmd_v1 c{};
  c.op = GIO_PROXY_OP_PUT;
  c.local = GIO_PROXY_LOCAL_INLINE;
  c.pe = 0;
  c.roff = k * 8;
  c.len = 8;
  c.value = k;
  return c;
}

// Lane 0 of each work-group reports the cycles of its `posts` calls.
template <int SCOPE>
__global__ void post_kernel(gio_proxy_ring_v1* rings, int posts, unsigned long long* cycles) {
  gio_proxy_ring_v1* r = &rings[blockIdx.x];
  time_posts<SCOPE>(posts, cycles, [&](uint64_t k) { gio::dev::proxy::post("gio-proxy-post", r, put_cmd(k)); });
}

// One thread: post, wait for the completion counter, `n` times; the GPU-clock ns of each.
__global__ void handoff_kernel(gio_proxy_ring_v1* r, int n, unsigned long long* ns) {
  for (int i = 0; i < n; ++i) {
    const uint64_t t0 = gio::plat::clock_ns();
    const uint64_t idx = gio::dev::proxy::post("gio-proxy-post", r, put_cmd((uint64_t)i));
    gio::dev::proxy::wait_done("gio-proxy-post", r, idx);
    ns[i] = gio::plat::clock_ns() - t0;
  }
}

// `n` rings as host/proxy/proxy_connect.cpp lays them out: commands, results and the completion
// counter in pinned host memory (the proxy thread reads and writes them), the hold words and the
// descriptors in device memory.
struct rings {
  int n;
  uint8_t* host = nullptr;
  uint8_t* dev = nullptr;
  gio_proxy_ring_v1* desc = nullptr;
  std::vector<gio_proxy_ring_v1> image;
  size_t host_bytes, hold_bytes;
  explicit rings(int count) : n(count), image(count) {
    const size_t per = kSlots * (sizeof(gio_proxy_cmd_v1) + 8) + 64;
    host_bytes = n * per;
    hold_bytes = (size_t)n * kSlots * 4;
    CHECK(hipHostMalloc((void**)&host, host_bytes, 0));
    CHECK(hipMalloc((void**)&dev, n * sizeof(gio_proxy_ring_v1) + hold_bytes));
    desc = (gio_proxy_ring_v1*)dev;
    uint32_t* hold = (uint32_t*)(dev + n * sizeof(gio_proxy_ring_v1));
    for (int i = 0; i < n; ++i) {
      uint8_t* h = host + i * per;
      gio_proxy_ring_v1& r = image[i];
      memset(&r, 0, sizeof r);
      r.cmds = (gio_proxy_cmd_v1*)h;
      r.result = (uint64_t*)(h + kSlots * sizeof(gio_proxy_cmd_v1));
      r.completed = (uint64_t*)(h + kSlots * (sizeof(gio_proxy_cmd_v1) + 8));
      r.hold = hold + (size_t)i * kSlots;
      r.slots = kSlots;
      r.set = (uint32_t)i;
    }
  }
  void reset() {
    memset(host, 0, host_bytes);
    CHECK(hipMemcpy(dev, image.data(), n * sizeof(gio_proxy_ring_v1), hipMemcpyHostToDevice));
    CHECK(hipMemset(dev + n * sizeof(gio_proxy_ring_v1), 0, hold_bytes));
  }
  ~rings() {
    (void)hipHostFree(host);
    (void)hipFree(dev);
  }
};

}  // namespace

int main(int argc, char** argv) {
  int posts = 1024, reps = 9, handoffs = 2000;
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--posts" && i + 1 < argc) posts = std::max(1, std::min(atoi(argv[++i]), (int)kSlots));
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, atoi(argv[++i]));
    else if (a == "--handoffs" && i + 1 < argc) handoffs = std::max(2, std::min(atoi(argv[++i]), (int)kSlots));
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else {
      fprintf(stderr, "usage: gio-proxy-post [--posts N<=%u] [--reps R] [--handoffs N<=%u] [--json FILE]\n", kSlots,
              kSlots);
      return 2;
    }
  }
  shmem_init();
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  const int khz = clock_khz();
  const int wave = prop.warpSize;
  const int wave_posts = std::min(posts, (int)kSlots / wave);
  unsigned long long* cycles;
  CHECK(hipMalloc((void**)&cycles, 64 * sizeof(unsigned long long)));
  FILE* out = json ? fopen(json, "a") : nullptr;
  printf("# post: GPU cycles to post one proxy command into a ring in pinned host memory (median of %d reps)\n", reps);
  printf("%-6s %4s %5s  %14s %14s %14s\n", "scope", "wgs", "cmds", "cycles/call", "cycles/cmd", "ns/cmd");
  for (int wgs : {1, 64}) {
    rings R(wgs);
    for (int sc : {SCOPE_THREAD, SCOPE_WAVE, SCOPE_WG}) {
      const int n_posts = sc == SCOPE_WAVE ? wave_posts : posts;
      const int per_call = sc == SCOPE_WAVE ? wave : 1;
      const int threads = sc == SCOPE_WG ? 256 : wave;
      auto k = sc == SCOPE_WAVE ? post_kernel<SCOPE_WAVE> : sc == SCOPE_WG ? post_kernel<SCOPE_WG> : post_kernel<SCOPE_THREAD>;
      const std::vector<double> per = per_call_cycles(reps, wgs, n_posts, cycles, [&] {
        R.reset();
        hipLaunchKernelGGL(k, dim3(wgs), dim3(threads), 0, 0, R.desc, n_posts, cycles);
      });
      const double med = median(per), cmd = med / per_call, ns = khz ? cmd / (khz / 1e6) : 0;
      printf("%-6s %4d %5d  %14.1f %14.1f %14.1f\n", kScopeName[sc], wgs, per_call, med, cmd, ns);
      if (out)
        fprintf(out, "{\"bench\":\"proxy_post_cost\",\"scope\":\"%s\",\"work_groups\":%d,\"cmds_per_call\":%d,\"reps\":%d,"
                "\"metric\":\"cycles_per_cmd\",\"median\":%.2f,\"ns_per_cmd\":%.2f,\"device\":\"%s\",\"platform\":\"%s\"}\n",
                kScopeName[sc], wgs, per_call, reps, cmd, ns, prop.name, GIO_PLATFORM_NAME);
    }
  }

  // The handoff: a host thread stands in for the proxy and completes each command as soon as it
  // sees it. Acquire on seq pairs with the kernel's system-scope release (as proxy_run does); the
  // counter's release store is what the kernel's acquire load in wait_done pairs with.
  rings H(1);
  H.reset();
  unsigned long long* ns;
  CHECK(hipMalloc((void**)&ns, handoffs * sizeof(unsigned long long)));
  const gio_proxy_ring_v1& q = H.image[0];
  std::vector<double> seen_at(handoffs);
  std::atomic<bool> failed{false};
  std::thread proxy([&] {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < handoffs; ++i) {
      const gio_proxy_cmd_v1* c = &q.cmds[i & (kSlots - 1)];
      while (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != (uint64_t)i + 1) {
        if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) {
          failed = true;
          return;
        }
      }
      seen_at[i] = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      __atomic_store_n(q.completed, (uint64_t)i + 1, __ATOMIC_RELEASE);
    }
  });
  hipLaunchKernelGGL(handoff_kernel, dim3(1), dim3(1), 0, 0, H.desc, handoffs, ns);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  proxy.join();
  if (failed) {
    fprintf(stderr, "gio-proxy-post: the kernel's commands stopped arriving (60 s)\n");
    return 1;
  }
  std::vector<unsigned long long> g(handoffs);
  CHECK(hipMemcpy(g.data(), ns, handoffs * sizeof(g[0]), hipMemcpyDeviceToHost));
  std::vector<double> host_rt, gpu_rt;
  for (int i = handoffs / 10 + 1; i < handoffs; ++i) {  // the first tenth is a warm-up
    host_rt.push_back(seen_at[i] - seen_at[i - 1]);
    gpu_rt.push_back((double)g[i]);
  }
  printf("\n# handoff: a kernel posts a command, a host thread sees it and publishes its completion, the kernel "
         "sees that (%zu round trips)\n", gpu_rt.size());
  printf("%-34s %10s %10s %10s\n", "ns per round trip", "p10", "median", "p90");
  auto report = [&](std::vector<double> v, const char* clock, const char* label) {
    std::sort(v.begin(), v.end());
    auto pct = [&](double p) { return v[(size_t)(p * (v.size() - 1))]; };
    printf("%-34s %10.0f %10.0f %10.0f\n", label, pct(0.1), pct(0.5), pct(0.9));
    if (out)
      fprintf(out, "{\"bench\":\"proxy_handoff\",\"clock\":\"%s\",\"metric\":\"ns_per_round_trip\",\"median\":%.0f,"
              "\"p10\":%.0f,\"p90\":%.0f,\"n\":%zu,\"device\":\"%s\",\"platform\":\"%s\"}\n",
              clock, pct(0.5), pct(0.1), pct(0.9), v.size(), prop.name, GIO_PLATFORM_NAME);
  };
  report(gpu_rt, "gpu", "GPU clock: post to completion seen");
  report(host_rt, "host", "host clock: command to command");
  if (out) fclose(out);
  CHECK(hipFree(ns));
  CHECK(hipFree(cycles));
  shmem_finalize();
  return 0;
}
